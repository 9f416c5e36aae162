#!/bin/sh
# layout.sh — the rooms' dependencies point one way (docs/internals.md):
# no file of kernels/ includes a header of shell/; kernels/support/, the
# lowest room, includes nothing of warplab's outside it; and kernels/ holds
# no Lua and no CUDA host code (its families' .cu files are device code).
srcdir=${srcdir:-.}
. "$srcdir/tests/tap.sh"

# quoted_includes FILE...: "file: header" for each line #include "header".
quoted_includes() {
  for file in "$@"; do
    sed -n 's/^#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$file" | sed "s|^|$file: |"
  done
}
# outside ROOT FILE...: the includes of FILEs found neither beside the file
# nor under ROOT (the folders the compiler looks in for kernels/: itself).
outside() {
  root=$1; shift
  quoted_includes "$@" | while IFS=': ' read -r file header; do
    [ -e "$(dirname "$file")/$header" ] || [ -e "$root/$header" ] || echo "$file includes $header"
  done
}
cd "$srcdir" || exit 1
kernel_files=$(find kernels -name '*.c' -o -name '*.h' -o -name '*.cuh' | grep -v -e '^kernels/sources\.c$' -e '^kernels/family_table\.c$' -e '^kernels/device_headers\.c$')

found=$(outside kernels $kernel_files)
[ -z "$found" ]
result "no file of kernels/ includes a header outside kernels/ (shell/'s above all)" $?
echo "$found" | head -5 | sed '/^$/d; s/^/#   /'

found=$(outside kernels/support kernels/support/*.c kernels/support/*.h)
[ -z "$found" ]
result "kernels/support/ includes nothing of warplab's outside it" $?
echo "$found" | head -5 | sed '/^$/d; s/^/#   /'

found=$(grep -l '^#[ \t]*include[ \t]*<\(lua\|lauxlib\|lualib\|cuda_runtime\|cuda\.h\|cupti\)' $kernel_files)
[ -z "$found" ]
result "kernels/ includes no Lua and no CUDA host header" $?
echo "$found" | head -5 | sed '/^$/d; s/^/#   /'

# The check itself: a kernels/ file that included session.h would be named.
mkdir -p "${TMPDIR:-/tmp}/layout.$$/kernels"
printf '#include "session.h"\n' > "${TMPDIR:-/tmp}/layout.$$/kernels/bad.c"
[ -n "$(outside "${TMPDIR:-/tmp}/layout.$$/kernels" "${TMPDIR:-/tmp}/layout.$$/kernels/bad.c")" ]
result "... and the check names a kernels/ file that includes shell/'s session.h" $?
rm -rf "${TMPDIR:-/tmp}/layout.$$"
tap_done
