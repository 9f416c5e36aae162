#!/bin/sh
# add_option.sh — adding a command-line option is adding a row to the table
# in shell/repl/options.c (and a field for its value): in a copy of the tree, a
# throw-away option --twice N gets one, and nothing outside shell/ changes.
# Built without CUDA, the copy's --help (in English and Chinese), its man
# page, its bash completion and its message for a bad value all know the
# option. Needs the source tree as a git checkout (the files to copy) and
# autoreconf; SKIP without them.
srcdir=${srcdir:-.}
. "${srcdir:-.}/tests/lib/tap.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
tree="$tmp/tree"
copy_tree "$tree"

# 1. the field its value goes to
sed -i 's|^\( *\)int no_init;\(.*\)$|&\n\1int twice;                    /* --twice N: a throw-away option of tests/house/add_option.sh */|' "$tree/shell/repl/options.h"
# 2. its row, first in the table
sed -i '/^const struct option_decl option_table\[\] = {$/r /dev/stdin' "$tree/shell/repl/options.c" <<'ROW'
    { "twice", .value = "N", .value_zh = "次数", .kind = OPTION_WHOLE, FIELD(twice), .min = 1, .max = 4,
      .help = "do it all N times over (default 1)", .help_zh = "全部做 N 遍（默认值 1）",
      .man = "Do it all \\fIN\\fR times over (default 1).",
      .expects = "a whole number from 1 to 4", .expects_zh = "1 到 4 的整数" },
ROW
grep -q '"twice"' "$tree/shell/repl/options.c" && grep -q 'int twice;' "$tree/shell/repl/options.h"
result "the row and its field are in shell/repl/options.c and shell/repl/options.h" $?
outside=$(changed_outside "$tree" shell/)
[ -z "$outside" ]
result "only files of shell/ changed (${outside:-none outside})" $?

(cd "$tree" && autoreconf -fi && ./configure --without-cuda && make -j2 warplab man/warplab.1 completion/warplab) > "$tmp/build.log" 2>&1
status=$?
result "the tree with the new option builds, with its man page and completion" $status
[ $status = 0 ] || { tail -20 "$tmp/build.log" | sed 's/^/# /'; tap_done; exit 1; }

"$tree/warplab" --lang en --help | grep -q '^  --twice N        do it all N times over (default 1)$'
result "--help lists it" $?
"$tree/warplab" --lang zh --help | grep -q '^  --twice 次数     全部做 N 遍（默认值 1）$'
result "... and so does --lang zh --help" $?
grep -A1 -x '\.BI \\-\\-twice " N"' "$tree/man/warplab.1" | grep -qx 'Do it all \\fIN\\fR times over (default 1)\.'
result "the man page has its paragraph" $?
if command -v bash > /dev/null; then
  offered=$(bash -c '. "$1"; COMP_WORDS=(warplab --tw); COMP_CWORD=1; _warplab; echo "${COMPREPLY[*]}"' sh "$tree/completion/warplab")
  [ "$offered" = --twice ]
  result "bash completes --tw to it (got '$offered')" $?
fi
"$tree/warplab" --lang en --twice 9 > "$tmp/out" 2>&1
[ $? = 2 ] && [ "$(head -1 "$tmp/out")" = "warplab: --twice expects a whole number from 1 to 4, got '9'" ]
result "a bad value is a usage error of one line" $?
sed 's/^/#   /' "$tmp/out"
"$tree/warplab" --lang zh --twice > "$tmp/out" 2>&1
[ $? = 2 ] && [ "$(head -1 "$tmp/out")" = "warplab: --twice 需要1 到 4 的整数，实际为 空" ]
result "... in Chinese too, when the value is missing" $?
"$tree/warplab" --sim --tw=3 -e 'print("ran")' 2>&1 | grep -qx ran
result "a good value, as a prefix and --name=value, is taken" $?

tap_done
