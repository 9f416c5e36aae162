#!/bin/sh
# wrap.sh — every line warplab prints fits the terminal's width, in English
# and in Chinese, at 60 and 80 columns (issue 31, item 6): the help topics,
# the colon commands' help, :labs, errors at the prompt and from the command
# line, and every lab run in batch (its steps' text, experiments, questions,
# choices, hints, notes and explanations). A line may pass the width only
# where it is one word, which no wrapping can break (a path, a long name).
# tests/labs/batch.sh runs the labs at 60 columns in English and 80 in Chinese;
# this runs them at the other two.
warplab=${WARPLAB:-./warplab}
answers=${srcdir:-.}/tests/labs/answers
. "${srcdir:-.}/tests/lib/tap.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export XDG_DATA_HOME="$tmp/data" XDG_STATE_HOME="$tmp/state"

# What a student meets besides the labs: help, the commands, :labs, errors.
texts='
local core = debug.getregistry()["warplab.core"]
local function try(code) local ok, why = pcall(load(code)); if not ok then print("error: " .. tostring(why)) end end
help()
for _, topic in ipairs(require[[warplab.help]].help_topics()) do help(topic) end
core.command(":help")
core.command(":labs")
core.command(":nosuchcommand with some words after it")
try([[launch("nosuchkernel_with_a_long_name", {n = 1})]])
try([[launch("strided", {stride = "a string where a number belongs"})]])
try([[launch("strided", {stride = 3, nosuchparameter = 1})]])
try([[kernel{name = "k", source = "__global__ void k(float *a) { a[0] = 1; }", buffers = {a = {type = "float", count = 0}}, args = {"a"}, grid = 1, block = 1}]])
try([[sweep("strided", {stride = "neither a list nor a range"})]])
try([[compare(1, 2)]])
-- every hint and choice of every lab, printed as the runner prints them
for _, name in ipairs(core.lab_names()) do
  local lab = require("warplab.lab_definition").load(name, core.lab_source(name))
  for _, step in ipairs(lab.steps) do
    for _, hint in ipairs(step.hint or {}) do print(require("warplab.lab_text").text_of(hint)) end
    for i, choice in ipairs(step.ask and step.ask.choices or {}) do print(("    %d. %s"):format(i, require("warplab.lab_text").text_of(choice))) end
  end
end
'
for lang in en zh; do
  for width in 60 80; do
    COLUMNS=$width "$warplab" --sim --lang "$lang" -e "$texts" > "$tmp/texts-$lang-$width" 2>&1
    fits "$tmp/texts-$lang-$width" $width "help, the commands, :labs, errors, every lab's hints and choices ($lang)"
  done
done
grep -q "error" "$tmp/texts-en-60" && grep -q "nosuchkernel_with_a_long_name" "$tmp/texts-en-60" &&
  grep -q "TILE + 1" "$tmp/texts-en-60" && grep -q "存储体" "$tmp/texts-zh-60"
result "... and the errors and hints were printed" $?

# Chinese punctuation where a line breaks: no line starts with a closing
# mark (，。：）...), and none ends with an opening one (（「...).
kinsoku() {   # kinsoku FILE...: the lines that break the rule
  grep -h -e '^ *[），。、；：！？】」』》％]' -e '[（【「『《“‘]$' "$@"
}
found=$(kinsoku "$tmp/texts-zh-60" "$tmp/texts-zh-80")
[ -z "$found" ]
result "Chinese lines neither start with closing punctuation nor end with opening (help, errors, hints, choices)" $?
echo "$found" | head -5 | sed '/^$/d; s/^/#   /'
printf '%s\n' "第一行" "，第二行" > "$tmp/kinsoku-bad"
[ -n "$(kinsoku "$tmp/kinsoku-bad")" ]
result "... and the check names a line that starts with a full-width comma" $?

# A line from the command line's own checks (stderr), and one too long for any terminal.
COLUMNS=60 "$warplab" --sim --lab no-such-lab-with-a-long-name-that-goes-on > "$tmp/cli-60" 2>&1
fits "$tmp/cli-60" 60 "an error from the command line"

# Every lab in batch, the two widths tests/labs/batch.sh does not run, side by side.
run_lab() {   # run_lab LAB LANG WIDTH
  COLUMNS=$3 XDG_DATA_HOME="$tmp/data-$1-$2" "$warplab" --sim --lang "$2" --lab "$1" --answers "$answers/$1.txt" \
    > "$tmp/lab-$1-$2-$3" 2>&1
}
for file in "$answers"/*.txt; do
  lab=$(basename "$file" .txt)
  run_lab "$lab" en 80 & run_lab "$lab" zh 60
  wait
done
for file in "$answers"/*.txt; do
  lab=$(basename "$file" .txt)
  fits "$tmp/lab-$lab-en-80" 80 "lab $lab (en)"
  fits "$tmp/lab-$lab-zh-60" 60 "lab $lab (zh)"
done
found=$(kinsoku "$tmp"/lab-*-zh-60)
[ -z "$found" ]
result "every lab's Chinese breaks its lines outside the punctuation" $?
echo "$found" | head -5 | sed '/^$/d; s/^/#   /'


# A file or a pipe without COLUMNS is not wrapped: its lines are data.
COLUMNS='' "$warplab" --sim -e 'print(("word "):rep(40))' > "$tmp/pipe"
[ "$(wc -l < "$tmp/pipe")" = 1 ]
result "a pipe without COLUMNS gets its lines whole" $?
tap_done
