#!/bin/sh
# manpage.sh — man/warplab.1 and completion/warplab say what --help says:
# every option --help lists is in the man page and in bash's completion; the
# man page renders without warnings; the completion file is valid bash.
warplab=${WARPLAB:-./warplab}
src=${srcdir:-.}
. "${srcdir:-.}/tests/tap.sh"
options=$("$warplab" --help | grep -o -- '^  -[-a-z]*' | sed 's/^ *//' | sort -u)
[ -n "$options" ]
result "--help lists options" $?
for option in $options; do
  man_option=$(printf '%s' "$option" | sed 's/-/\\\\-/g')   # the man page writes - as \-
  grep -q -- "$man_option" "$src/man/warplab.1"
  result "the man page has $option" $?
  [ "$option" = "-" ] && continue   # standard input as the script: a file name, not an option to complete
  grep -Eq -- "[\"| ]$option[\"| ]" "$src/completion/warplab"
  result "bash completion offers $option" $?
done
for variable in $("$warplab" --help | sed -n '/^Environment:/,/^Exit/p' | grep -o '^  [A-Z_0-9]*' | sort -u); do
  grep -q "$variable" "$src/man/warplab.1"
  result "the man page has the environment variable $variable" $?
done
if command -v man > /dev/null; then
  warnings=$(MANWIDTH=80 man --warnings -l "$src/man/warplab.1" 2>&1 > /dev/null)
  [ -z "$warnings" ]
  result "the man page renders without warnings${warnings:+ ($warnings)}" $?
fi
for lang in en zh; do   # wc -L counts columns: a CJK character is two
  widest=$("$warplab" --lang $lang --help | LC_ALL=C.UTF-8 wc -L)
  [ "$widest" -le 80 ]
  result "--help in $lang fits 80 columns (widest: $widest)" $?
done
"$warplab" --help | grep -q '^Report bugs'
result "--help says where to report bugs" $?
grep -q '^\.SH REPORTING BUGS' "$src/man/warplab.1"
result "the man page says where to report bugs" $?
bash -n "$src/completion/warplab"
result "the completion file is valid bash" $?
tap_done
