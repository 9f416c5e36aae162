#!/bin/sh
# manpage.sh — --help, the man page and bash's completion come from one table
# of options (shell/repl/options.c): every option of it is in --help in both
# languages, in the man page and in the completion, which offers its value's
# words; every option --help lists is in the man page and the completion; the
# man page renders without warnings; the completion file is valid bash.
warplab=${WARPLAB:-./warplab}
src=${srcdir:-.}
. "${srcdir:-.}/tests/lib/tap.sh"
# made by the build: here, or in the source tree when it came in the tarball
man_page=man/warplab.1; [ -f "$man_page" ] || man_page=$src/man/warplab.1
completion=completion/warplab; [ -f "$completion" ] || completion=$src/completion/warplab
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$warplab" --lang en --help > "$tmp/help.en"
"$warplab" --lang zh --help > "$tmp/help.zh"

# completes WORDS...: what bash's completion offers for the command line
# WORDS (the last one being completed), one per line, or "no bash".
completes() {
  command -v bash > /dev/null || { echo "no bash"; return; }
  bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _warplab; printf "%s\n" "${COMPREPLY[@]}"' \
    sh "$completion" warplab "$@"
}

# The table, as the build reads it: each option, its value's kind and words.
"$warplab" --options-as completion > "$tmp/table"
[ -s "$tmp/table" ]
result "warplab --options-as completion lists the table's options" $?
completes - > "$tmp/completed"
while read -r option kind words; do
  for lang in en zh; do
    grep -Eq -- "^  $option( |\$)" "$tmp/help.$lang"
    result "--help in $lang has $option" $?
  done
  man_option=$(printf '%s' "$option" | sed 's/-/\\\\-/g')   # the man page writes - as \-
  grep -Eq -- "^\.B[IR]? $man_option( |\$)" "$man_page"
  result "the man page has a paragraph for $option" $?
  grep -qx -- "$option" "$tmp/completed"
  result "bash completion offers $option" $?
  if [ "$kind" = words ]; then
    offered=$(completes "$option" '' | sort | tr '\n' ' ')
    [ "$offered" = "$(printf '%s\n' $words | sort | tr '\n' ' ')" ]
    result "bash completion offers $option's values ($offered)" $?
  fi
done < "$tmp/table"

options=$(grep -o -- '^  -[-a-z]*' "$tmp/help.en" | sed 's/^ *//' | sort -u)
[ -n "$options" ]
result "--help lists options" $?
for option in $options; do
  man_option=$(printf '%s' "$option" | sed 's/-/\\\\-/g')
  grep -q -- "$man_option" "$man_page"
  result "the man page has $option" $?
  [ "$option" = "-" ] && continue   # standard input as the script: a file name, not an option to complete
  grep -qx -- "$option" "$tmp/completed" || [ "$option" = -- ]
  result "bash completion offers $option" $?
done
grep -qx -- "--" "$tmp/completed"
result "bash completion offers --" $?
for variable in $(sed -n '/^Environment:/,/^Exit/p' "$tmp/help.en" | grep -o '^  [A-Z_0-9]*' | sort -u); do
  grep -q "$variable" "$man_page"
  result "the man page has the environment variable $variable" $?
done
if command -v man > /dev/null; then
  warnings=$(MANWIDTH=80 man --warnings -l "$man_page" 2>&1 > /dev/null)
  [ -z "$warnings" ]
  result "the man page renders without warnings${warnings:+ ($warnings)}" $?
fi
for lang in en zh; do   # wc -L counts columns: a CJK character is two
  widest=$(LC_ALL=C.UTF-8 wc -L < "$tmp/help.$lang")
  [ "$widest" -le 80 ]
  result "--help in $lang fits 80 columns (widest: $widest)" $?
done
grep -q '^Report bugs' "$tmp/help.en"
result "--help says where to report bugs" $?
grep -q '^\.SH REPORTING BUGS' "$man_page"
result "the man page says where to report bugs" $?
bash -n "$completion"
result "the completion file is valid bash" $?
tap_done
