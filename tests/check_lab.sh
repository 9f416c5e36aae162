#!/bin/sh
# check_lab.sh — warplab --check-lab: every built-in lab is clean (exit 0),
# and each kind of finding is caught, one line naming the step and the field,
# with exit status 1. Also labs from files: $XDG_DATA_HOME/warplab/labs and
# WARPLAB_LABS_PATH are listed by :labs beside the built-in ones, and
# :lab reload reads the open lab again at the same step.
warplab=${WARPLAB:-./warplab}
. "${srcdir:-.}/tests/tap.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export XDG_DATA_HOME="$tmp/data"

# The built-in labs, checked side by side (each takes seconds: every
# experiment runs on the model of every device profile, then a batch run).
labs=$("$warplab" --sim -e 'print(table.concat(debug.getregistry()["warplab.core"].lab_names(), " "))')
for lab in $labs; do
  ( "$warplab" --sim --check-lab "$lab" > "$tmp/check-$lab" 2>&1; echo $? > "$tmp/status-$lab" ) &
done
wait
for lab in $labs; do
  [ "$(cat "$tmp/status-$lab")" = 0 ] && tail -1 "$tmp/check-$lab" | grep -q "lab $lab: no findings"
  result "--check-lab $lab: no findings" $?
  grep -v '^note:' "$tmp/check-$lab" | grep -v ': no findings$' | head -10 | sed 's/^/#   /'
done
grep -q "^note: step 5, the claim '.*' is skipped on every profile: measured on a GPU only" "$tmp/check-alignment"
result "skipped claims are noted with their reason" $?

# Labs with one fault each: the finding's line, and exit status 1.
lab_file() {   # lab_file NAME: the lab text on stdin becomes $tmp/labs/NAME.lua
  mkdir -p "$tmp/labs"; cat > "$tmp/labs/$1.lua"
}
finds() {   # finds NAME PATTERN WHAT
  "$warplab" --sim --check-lab "$tmp/labs/$1.lua" > "$tmp/out-$1" 2>&1
  status=$?
  [ $status = 1 ] && grep -Eq -- "$2" "$tmp/out-$1"
  result "--check-lab finds $3" $?
  [ $status = 1 ] && grep -Eq -- "$2" "$tmp/out-$1" || sed 's/^/#   /' "$tmp/out-$1" | head -12
}
TITLE='lab { title = { en = "T", zh = "题" } }'

lab_file language <<EOF
$TITLE
step { text = { en = "Only English." } }
step { text = "Plain." }
EOF
finds language "^lab language, step 1, text: no text in 'zh'" "text missing in a language"
finds language "^lab language, step 2, text: text in one language only" "text in one language only"

lab_file no_answer <<EOF
$TITLE
step { text = { en = "x", zh = "x" }, ask = { question = { en = "How many?", zh = "几个？" } } }
EOF
finds no_answer "step 1: a question needs an answer" "a question with no answer"

lab_file no_hint <<EOF
$TITLE
step { text = { en = "x", zh = "x" }, ask = { question = { en = "How many?", zh = "几个？" }, answer = 4 } }
EOF
finds no_hint "^lab no_hint, step 1, hint: a question with no hint" "a question with no hint"

lab_file bad_choice <<EOF
$TITLE
step { text = { en = "x", zh = "x" },
       ask = { question = { en = "Which?", zh = "哪个？" }, answer = 3,
               choices = { { en = "a", zh = "甲" }, { en = "b", zh = "乙" } } },
       hint = { { en = "h", zh = "提示" } } }
step { text = { en = "x", zh = "x" }, run = [[r = launch("copy", {n = 1024})]],
       ask = { question = { en = "Which?", zh = "哪个？" }, answer = function(ctx) return 7 end,
               choices = { { en = "a", zh = "甲" }, { en = "b", zh = "乙" } } },
       hint = { { en = "h", zh = "提示" } } }
EOF
finds bad_choice "^lab bad_choice, step 1, ask.answer: the answer 3 is not among the 2 choices" "a choice answer that is not a choice"
finds bad_choice "^lab bad_choice, step 2, ask.answer: the answer 7 is not among the 2 choices" \
  "a choice answer from the result that is not a choice"

lab_file bad_run <<EOF
$TITLE
step { text = { en = "x", zh = "x" }, run = [[launch("no_such_kernel")]] }
EOF
finds bad_run "^lab bad_run, step 1, run: the experiment fails" "an experiment that fails"

lab_file bad_claim <<EOF
$TITLE
step { text = { en = "x", zh = "x" }, run = [[r = launch("copy", {n = 4096})]],
       claims = { { text = "the device is an H200", holds = function(ctx) return ctx.device.name:find("H200") ~= nil end } } }
EOF
finds bad_claim "^lab bad_claim, step 1, claims: the claim 'the device is an H200' does not hold \(a100\)" \
  "a claim that fails under one device profile"
grep -q "(h200)" "$tmp/out-bad_claim"
[ $? = 1 ]
result "... and not under the profile where it holds" $?

lab_file bad_goal <<EOF
$TITLE
step { text = { en = "x", zh = "x" },
       ask = { goal = { en = "offset with 4 sectors a request", zh = "每请求 4 个扇区的 offset" },
               solution = [[launch("offset", {offset = 1})]],
               check = function(ctx) return ctx.result.load.sectors_per_request == 4 end },
       hint = { { en = "h", zh = "提示" } } }
step { text = { en = "x", zh = "x" },
       ask = { goal = { en = "copy", zh = "copy" }, check = function(ctx) return ctx.result.kernel == "copy" end },
       hint = { { en = "h", zh = "提示" } } }
EOF
finds bad_goal "^lab bad_goal, step 1, ask: a batch run with the lab's own answers does not get this step right" \
  "a batch run with the lab's own answers that does not pass"
finds bad_goal "^lab bad_goal, step 2, ask.solution: a goal with no solution" "a goal with no solution"

lab_file broken <<EOF
lab { title = { en = "T", zh = "题" } }
step { text = { en = "x", zh = "x" }
EOF
finds broken "lab broken does not load" "a lab that does not load"

lab_file clean <<EOF
$TITLE
step { text = { en = "Run it.", zh = "运行它。" }, run = [[r = launch("copy", {n = 4096})]],
       ask = { question = { en = "Load sectors per request?", zh = "每读请求几个扇区？" },
               answer = function(ctx) return ctx.result.load.sectors_per_request end },
       hint = { { en = "The loads line.", zh = "读取那一行。" } } }
EOF
"$warplab" --sim --check-lab "$tmp/labs/clean.lua" > "$tmp/out-clean" 2>&1
result "--check-lab of a clean lab file exits 0" $?
sed -n '/^<!-- lab: docs\/instructors.md -->/,/^<!-- end of lab -->/p' "${srcdir:-.}/docs/instructors.md" |
  sed '1,2d;$d' | sed '$d' > "$tmp/sectors.lua"
"$warplab" --sim --check-lab "$tmp/sectors.lua" > "$tmp/out" 2>&1
[ $? = 0 ] && grep -q "^lab sectors: no findings" "$tmp/out" && grep -q '^step' "$tmp/sectors.lua"
result "the lab in docs/instructors.md has no findings" $?
[ $? = 0 ] || sed 's/^/#   /' "$tmp/out" | head
"$warplab" --sim --check-lab no_such_lab > "$tmp/out" 2>&1
[ $? = 1 ] && grep -q "unknown lab 'no_such_lab'" "$tmp/out"
result "--check-lab of an unknown lab: one line, exit 1" $?
"$warplab" --check-lab > "$tmp/out" 2>&1
[ $? = 2 ] && grep -q -- "--check-lab expects a lab's name or file, got nothing" "$tmp/out"
result "--check-lab with no value is a usage error" $?

# Labs from files, in :labs, opened by name, and read again at the same step.
mkdir -p "$XDG_DATA_HOME/warplab/labs" "$tmp/course"
cat > "$XDG_DATA_HOME/warplab/labs/mine.lua" <<EOF
lab { title = { en = "My own lab", zh = "我自己的实验" } }
step { text = { en = "one", zh = "一" } }
step { text = { en = "two", zh = "二" } }
EOF
sed 's/My own lab/A course lab/' "$XDG_DATA_HOME/warplab/labs/mine.lua" > "$tmp/course/course1.lua"
cp "$tmp/course/course1.lua" "$tmp/course/mine.lua"   # its name is taken: by the course's folder, first
WARPLAB_LABS_PATH="$tmp/course:$tmp/nowhere" "$warplab" --sim -e 'debug.getregistry()["warplab.core"].labs.list()' \
  > "$tmp/out" 2>&1
grep -q "^  course1 *A course lab *2 steps" "$tmp/out" && grep -q "^  mine *A course lab *2 steps" "$tmp/out" &&
  grep -q "$XDG_DATA_HOME/warplab/labs/mine.lua is not listed: the name mine is taken by $tmp/course/mine.lua" "$tmp/out" &&
  grep -q "^  tour " "$tmp/out"
result ":labs lists the labs of WARPLAB_LABS_PATH and of the data folder beside the built-in ones" $?
[ $? = 0 ] || sed 's/^/#   /' "$tmp/out"
rm "$tmp/course/mine.lua"
"$warplab" --sim -e 'debug.getregistry()["warplab.core"].labs.list()' > "$tmp/out" 2>&1
grep -q "^  mine *My own lab" "$tmp/out" && ! grep -q course1 "$tmp/out"
result "a lab in \$XDG_DATA_HOME/warplab/labs is listed by its name" $?

cat > "$tmp/reload.lua" <<EOF
local labs = debug.getregistry()["warplab.core"].labs
labs.open("mine"); labs.next()
local file = io.open(os.getenv("XDG_DATA_HOME") .. "/warplab/labs/mine.lua", "w")
file:write('lab { title = { en = "My own lab", zh = "我" } }\n',
           'step { text = { en = "one", zh = "一" } }\n',
           'step { text = { en = "two, edited", zh = "二" } }\n',
           'step { text = { en = "three", zh = "三" } }\n')
file:close()
labs.open("reload")
EOF
"$warplab" --sim "$tmp/reload.lua" > "$tmp/out" 2>&1
grep -q "Lab mine read again; you are at step 2 of 3." "$tmp/out" && grep -q "^two, edited" "$tmp/out"
result ":lab reload reads the open lab again and keeps the student's step" $?
[ $? = 0 ] || sed 's/^/#   /' "$tmp/out"
"$warplab" --sim --lab "$tmp/labs/clean.lua" -e 'debug.getregistry()["warplab.core"].labs.list()' > "$tmp/out" 2>&1
grep -q "^  clean " "$tmp/out" && grep -q "from $tmp/labs/clean.lua" "$tmp/out"
result "a lab given with --lab FILE is listed by :labs" $?

tap_done
