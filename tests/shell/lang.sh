#!/bin/sh
# lang.sh — under --lang zh the shell speaks Chinese: tests/shell/lang_check.lua runs a
# launch of every family, a sweep, compare, show, explain, info, help, the
# colon commands and a lab, and checks the labs' Chinese against
# docs/glossary.md; the errors are made here, one process each, because the
# shell words an error as it shows it.
warplab=${WARPLAB:-./warplab}
src=${srcdir:-.}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp/home" XDG_STATE_HOME="$tmp/state" XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config"
mkdir -p "$HOME"

# Lines a student gets wrong, each run as a script's -e and as a script file.
while IFS= read -r line; do
  "$warplab" --sim --lang zh -e "$line" >> "$tmp/errors" 2>&1
  printf '%s\n' "$line" > "$tmp/script.lua"
  "$warplab" --sim --lang zh "$tmp/script.lua" >> "$tmp/errors" 2>&1
done <<'LINES'
launch("strided", {strid = 4})
launch("stridd")
launch("strided", {stride = 0})
launch("strided", {stride = "four"})
launch("strided", {n = 1 << 40})
launch("copy", {load = "fast"})
launch(5)
lanch("copy")
local r = nil; print(r.load)
print(1 + {})
print(1 < "x")
print("a" .. {})
for i = 1, 10 do
x = = 1
print("unfinished)
sweep("offset", {})
sweep("offset", {offset = "all"})
compare(1)
show(5)
explain("nonsense")
info("nonsense")
help("nonsense")
help(5)
record(5)
export(5, "x.csv")
config({samples = -1})
range(1, "x")
LINES
for args in "--lang" "--lang fr" "--nonsense" "--device x" "--format yaml" "--lab" "--lab nonsense" "missing-file.lua" "--help" "--list"; do
  # shellcheck disable=SC2086  # the words of args are the arguments
  "$warplab" --lang zh $args < /dev/null >> "$tmp/errors" 2>&1
done
env -u LC_ALL -u LC_MESSAGES LANG=zh_CN.UTF-8 "$warplab" --nonsense < /dev/null >> "$tmp/errors" 2>&1
# The instructors' tools: a lab's findings, a submission's and a grading's errors.
cat > "$tmp/有问题的实验.lua" <<'LAB'
lab { title = { en = "T", zh = "题" } }
step { text = { en = "x" }, run = [[launch("no_such_kernel")]],
       ask = { question = { en = "Which?", zh = "哪个？" }, answer = 3, choices = { { en = "a", zh = "甲" } } } }
LAB
# A lab step whose code is stopped (Ctrl-C's "interrupted!", as lab code sees it).
cat > "$tmp/中断.lua" <<'LAB'
lab { title = { en = "T", zh = "题" } }
step { text = { en = "x", zh = "x" }, run = [[error("interrupted!", 0)]] }
LAB
case $warplab in /*) ;; *) warplab=$PWD/$warplab ;; esac
cd "$tmp" || exit 1   # relative paths: a temporary folder's random name is no English to find
for args in "--check-lab 有问题的实验.lua" "--student a|b -e 1" "--submit x.json -e 1" "--grade 空文件夹" \
            "--report r -e 1" "--lab tour --answers /dev/null --submit x.json" "--lab 中断.lua --answers /dev/null"; do
  # shellcheck disable=SC2086
  "$warplab" --sim --lang zh $args < /dev/null >> "$tmp/errors" 2>&1
done
cd - > /dev/null || exit 1

mkdir -p "$tmp/scratch"
exec "$warplab" --sim --lang zh "$src/tests/shell/lang_check.lua" "$src/docs/glossary.md" "$src/labs" "$tmp/errors" "$tmp/scratch"
