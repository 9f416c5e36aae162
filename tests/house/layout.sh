#!/bin/sh
# layout.sh — the rooms' dependencies point one way (docs/internals.md):
# no file of kernels/ includes a header of shell/; inside kernels/ a room
# includes only its own headers and those of the rooms below it (support,
# then model, then families and the emulator, which know nothing of each
# other); C code names a header's room ("model/params.h"); and kernels/
# holds no Lua and no CUDA host code (its families' .cu files are device code).
# shell/ likewise: its common ground, then compile, backend, api and repl,
# each above the ones before it. lua/'s modules require each other one way.
srcdir=${srcdir:-.}
. "$srcdir/tests/lib/tap.sh"

# quoted_includes FILE...: "file: header" for each line #include "header".
quoted_includes() {
  for file in "$@"; do
    sed -n 's/^#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$file" | sed "s|^|$file: |"
  done
}
# resolved ROOT FILE HEADER: the file an include names, as the build finds
# it: beside the file, under ROOT (kernels/), or family.h in ROOT/model
# (which device code names bare); nothing when none.
resolved() {
  for candidate in "$(dirname "$2")/$3" "$1/$3" "$1/model/$3"; do
    [ -e "$candidate" ] && { echo "$candidate"; return; }
  done
}
# room_of ROOT FILE: the room (support, model, families, emulator) of a file under ROOT.
room_of() { echo "${2#"$1"/}" | sed -n 's|^\([^/]*\)/.*|\1|p'; }
# The rooms each room may include, itself first.
allowed() {
  case $1 in
    support) echo "support" ;;
    model) echo "model support" ;;
    families) echo "families model support" ;;
    emulator) echo "emulator model support" ;;
  esac
}
# violations ROOT FILE...: "file includes header" for each include of FILEs
# that is not found in kernels/, or lies in a room the file's may not use.
violations() {
  root=$1; shift
  quoted_includes "$@" | while IFS=': ' read -r file header; do
    target=$(resolved "$root" "$file" "$header")
    if [ -z "$target" ]; then echo "$file includes $header, not in kernels/"; continue; fi
    from=$(room_of "$root" "$file") to=$(room_of "$root" "$target")
    case " $(allowed "$from") " in
      *" $to "*) ;;
      *) echo "$file ($from) includes $header ($to)" ;;
    esac
  done
}
# Device code (the .cu files and the headers they include) names its headers
# bare: it is compiled on its own (nvcc, NVRTC from embedded text). Any other
# file names a kernels/ header by its room.
# Among them each family's own header, kernels/families/NAME.h for the NAME.c of families.am.
device_headers="kernels/model/family.h kernels/families/grid2d.h kernels/families/hinted_load.cuh $(
  sed -n 's|^\t\(kernels/families/[a-z0-9_]*\)\.c.*|\1.h|p' "$srcdir/kernels/families/families.am" | tr '\n' ' ')"
bare_names() {
  for file in "$@"; do
    case " $device_headers " in *" $file "*) continue ;; esac
    case $file in *.cu) continue ;; esac
    quoted_includes "$file" | while IFS=': ' read -r from header; do
      case $header in */*) ;; *) [ -e "kernels/model/$header" ] || [ -e "kernels/families/$header" ] ||
                                 [ -e "kernels/emulator/$header" ] || [ -e "kernels/support/$header" ] &&
                                 echo "$from includes $header without its room" ;; esac
    done
  done
}

cd "$srcdir" || exit 1
srcdir=.   # from here on, paths are the source tree's own
kernel_files=$(find kernels -name '*.c' -o -name '*.h' -o -name '*.cuh' -o -name '*.cu' |
  grep -v -e '^kernels/families/sources\.c$' -e '^kernels/families/family_table\.c$' -e '^kernels/families/device_headers\.c$')

found=$(find kernels -maxdepth 1 -type f \( -name '*.c' -o -name '*.h' \))
[ -z "$found" ]
result "every C file of kernels/ is in a room (support, model, families, emulator)" $?
echo "$found" | head -5 | sed '/^$/d; s/^/#   /'

found=$(violations kernels $kernel_files)
[ -z "$found" ]
result "each file of kernels/ includes only its room's headers and the rooms' below (none of shell/)" $?
echo "$found" | head -5 | sed '/^$/d; s/^/#   /'

found=$(bare_names $kernel_files $(find shell tests -name '*.c' -o -name '*.h' | grep -v -e 'lua_sources\.c$' -e 'lab_sources\.c$'))
[ -z "$found" ]
result "C code names the room of each kernels/ header it includes (\"model/params.h\")" $?
echo "$found" | head -5 | sed '/^$/d; s/^/#   /'

# shell/'s rooms, lowest first: each stands on kernels/, the shell's common
# ground (the files at the top of shell/: output, Ctrl-C, the progress bar,
# the data paths, the sandbox's budgets, the libraries loaded at run time)
# and the rooms below it, and names
# each shell/ header's room ("api/session.h") as C code names kernels/'.
shell_rooms="compile backend api repl"
common_ground="output.h interrupt.h progress_bar.h paths.h sandbox.h libraries.h"
# rooms_up_to ROOM: ROOM and the rooms below it, a line each.
rooms_up_to() { for r in $shell_rooms; do echo "$r"; [ "$r" = "$1" ] && return; done; }
# shell_violations ROOM FILE...: the includes of FILEs in neither kernels/,
# the common ground, ROOM nor a room below it (ROOM "": the common ground's own).
shell_violations() {
  room=$1; shift
  allowed=$(if [ -n "$room" ]; then rooms_up_to "$room"; fi)
  quoted_includes "$@" | while IFS=': ' read -r file header; do
    [ -e "kernels/$header" ] && continue
    case " $common_ground " in *" $header "*) continue ;; esac
    case $header in */*) echo "$allowed" | grep -qx "${header%%/*}" && continue ;; esac
    echo "$file includes $header"
  done
}
found=$(find shell -maxdepth 1 -type f \( -name '*.c' -o -name '*.h' \) | sed 's|^shell/||' |
  while read -r f; do case " $common_ground " in *" ${f%.[ch]}.h "*) ;; *) echo "$f" ;; esac; done)
[ -z "$found" ]
result "every C file at the top of shell/ is common ground; the rest are in rooms ($shell_rooms)" $?
echo "$found" | head -5 | sed '/^$/d; s/^/#   /'

found=$(shell_violations "" shell/*.c shell/*.h)
[ -z "$found" ]
result "the shell's common ground includes only itself and kernels/" $?
echo "$found" | head -5 | sed '/^$/d; s/^/#   /'

for room in $shell_rooms; do
  found=$(shell_violations "$room" $(find "shell/$room" -name '*.c' -o -name '*.h' | grep -v -e 'lua_sources\.c$' -e 'lab_sources\.c$'))
  [ -z "$found" ]
  result "shell/$room/ includes only its own headers, the rooms below it, the common ground and kernels/" $?
  echo "$found" | head -5 | sed '/^$/d; s/^/#   /'
done

found=$(grep -l '^#[ \t]*include[ \t]*<\(lua\|lauxlib\|lualib\|cuda_runtime\|cuda\.h\|cupti\)' $(echo "$kernel_files" | grep -v '\.cu$'))
[ -z "$found" ]
result "kernels/ includes no Lua and no CUDA host header" $?
echo "$found" | head -5 | sed '/^$/d; s/^/#   /'

# The check itself: a file of the model that included shell/'s session.h, or
# the emulator's ptx.h, and a shell file that named model.h bare, are named.
bad=${TMPDIR:-/tmp}/layout.$$
mkdir -p "$bad/kernels/model" "$bad/kernels/emulator"
printf '#include "session.h"\n' > "$bad/kernels/model/shell.c"
printf '#include "emulator/ptx.h"\n' > "$bad/kernels/model/up.c"
: > "$bad/kernels/emulator/ptx.h"
found=$(violations "$bad/kernels" "$bad/kernels/model/shell.c" "$bad/kernels/model/up.c")
echo "$found" | grep -q "shell.c includes session.h, not in kernels/" && echo "$found" | grep -q "up.c (model) includes emulator/ptx.h (emulator)"
result "... and the check names a model file that includes shell/'s session.h, or the emulator's ptx.h" $?
printf '#include "model.h"\n' > "$bad/bare.c"
bare_names "$bad/bare.c" | grep -q "bare.c includes model.h without its room"
result "... and a C file that names model.h without its room" $?
mkdir -p "$bad/shell/backend"
printf '#include "output.h"\n#include "compile/device_compile.h"\n#include "api/session.h"\n#include "result.h"\n' > "$bad/shell/backend/up.c"
found=$(shell_violations backend "$bad/shell/backend/up.c")
echo "$found" | grep -q "up.c includes api/session.h" && echo "$found" | grep -q "up.c includes result.h" && [ "$(echo "$found" | wc -l)" -eq 2 ]
result "... and a file of shell/backend/ that includes the API's session.h, or a header of its own room without the room's name" $?

# lua/: the modules require each other one way (docs/internals.md, "lua/"):
# no circle closes among the requires at their tops; a lower module reaches
# a higher one only by a require inside the function that needs it.
# lua_requires FILE...: "module required" for each require at a file's top.
lua_requires() {
  for file in "$@"; do
    sed -n 's/^\(local [A-Za-z_, ]* = \)\{0,1\}require[ (]*"warplab\.\([a-z_]*\)".*/\2/p' "$file" |
      grep -vx core | sed "s|^|$(basename "$file" .lua) |"
  done
}
loop=$(lua_requires "$srcdir"/lua/*.lua | tsort 2>&1 >/dev/null)
[ -z "$loop" ] && [ "$(lua_requires "$srcdir"/lua/*.lua | wc -l)" -gt 20 ]
result "lua/'s modules require each other one way: no circle among the requires at their tops" $?
echo "$loop" | head -5 | sed '/^$/d; s/^/#   /'

mkdir -p "$bad/lua"
printf 'local core = require "warplab.core"\nlocal b = require "warplab.b"\n' > "$bad/lua/a.lua"
printf 'local c = require("warplab.c").c\n' > "$bad/lua/b.lua"
printf 'require "warplab.a"\n' > "$bad/lua/c.lua"
lua_requires "$bad"/lua/*.lua | tsort > /dev/null 2>&1
looped=$?
printf 'local function late() return require("warplab.a") end\n' > "$bad/lua/c.lua"
lua_requires "$bad"/lua/*.lua | tsort > /dev/null 2>&1
unlooped=$?
[ $looped -ne 0 ] && [ $unlooped -eq 0 ]
result "... and the check finds a circle of requires (a, b, c), and none once c requires a inside a function" $?
rm -rf "$bad"
tap_done
