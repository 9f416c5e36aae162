#!/bin/sh
# check_lab.sh — warplab --check-lab: every built-in lab is clean (exit 0)
# with 20 students' numbers, and each kind of finding is caught, once, one
# line naming the step, the field, the cause and the profiles or students it
# applies to, with exit status 1. warplab --release-lab writes a copy without
# the answers that runs. Also labs from files: $XDG_DATA_HOME/warplab/labs and
# WARPLAB_LABS_PATH are listed by :labs beside the built-in ones, and
# :lab reload reads the open lab again at the same step.
warplab=${WARPLAB:-./warplab}
. "${srcdir:-.}/tests/lib/tap.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export XDG_DATA_HOME="$tmp/data"

# The built-in labs, checked side by side (each takes seconds: every
# experiment runs on the model of every device profile, then a batch run).
labs=$("$warplab" --sim -e 'print(table.concat(debug.getregistry()["warplab.core"].lab_names(), " "))')
for lab in $labs; do
  ( "$warplab" --sim --check-lab "$lab" --students 20 > "$tmp/check-$lab" 2>&1; echo $? > "$tmp/status-$lab" ) &
done
wait
for lab in $labs; do
  [ "$(cat "$tmp/status-$lab")" = 0 ] && tail -1 "$tmp/check-$lab" | grep -q "lab $lab: no findings"
  result "--check-lab $lab --students 20: no findings" $?
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

lab_file hint_cause <<EOF
$TITLE
step { text = { en = "Coalesce.", zh = "合并。" }, run = [[launch("strided", {stride = 2, n = 1 << 16})]],
       ask = { goal = { en = "4 sectors", zh = "4 个扇区" }, solution = [[launch("strided", {stride = 1, n = 1 << 16})]],
               needs = { kernel = "strided", load_sectors = 4 } },
       hint = { { en = "Neighbouring floats.", zh = "相邻的浮点数。", cause = "load_sector" } } }
EOF
finds hint_cause "^lab hint_cause, step 1, hint\\[1\\]: its cause 'load_sector' is none the goal's needs can give \\(they give: kernel, load_sectors\\)" \
  "a hint whose cause the goal's needs cannot give (a goal judged by needs alone, its solution meeting them)"
[ "$(grep -c '^lab hint_cause, step' "$tmp/out-hint_cause")" = 1 ]
result "... and that is the only finding: the solution meets the needs" $?

lab_file answer_shown <<EOF
$TITLE
step { text = { en = "A warp of floats, 1,024 of them.", zh = "一个 warp 的 float。" },
       run = [[r = launch("strided", {stride = 2, n = 1 << 16}); r]],
       ask = { question = { en = "Load sectors per request?", zh = "每个读请求的扇区数？" },
               answer = function(ctx) return ctx.result.load.sectors_per_request end, tolerance = 0.01 },
       hint = { { en = "See r.load.", zh = "看 r.load。" }, { en = "32 lanes, 8 bytes apart: 256 bytes, 8 sectors.", zh = "32 个线程相隔 8 字节：256 字节，8 个扇区。" } } }
step { text = { en = "Stride 2 again, through L2.", zh = "再来一次步长 2，经过 L2。" },
       run = [[r = launch("strided", {stride = 2, n = 1 << 16}); rs = {r, r}; r]],
       ask = { question = { en = "Requests of rs[2] over 1,024?", zh = "rs[2] 的请求数除以 1,024？" },
               answer = function(ctx) return ctx.result.load.requests / 1024 end, tolerance = 0 },
       hint = { { en = "rs[2].load.requests", zh = "rs[2].load.requests" } } }
EOF
finds answer_shown "^lab answer_shown, step 1, hint\\[2\\]: the answer \\(8\\) can be read off the step before it is run: hint\\[2\\] says '8'" \
  "an answer that stands in its own step's hints"
[ "$(grep -c 'can be read off' "$tmp/out-answer_shown")" = 1 ]
result "... and not a number the experiment sets (stride 2), a name's digit (L2) or an index (rs[2])" $?

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
finds bad_claim "^lab bad_claim, step 1, claims: the claim 'the device is an H200' does not hold \(.*a100: it read ctx.device.name = 'NVIDIA A100" \
  "a claim that fails under a device profile, with what it read there"
grep -Eq "[(; ]h200[:,;)]" "$tmp/out-bad_claim"
[ $? = 1 ]
result "... and not under the profile where it holds" $?
[ "$(grep -c "claims: the claim 'the device is an H200'" "$tmp/out-bad_claim")" = 1 ]
result "... printed once, with the profiles it fails under" $?

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
finds bad_goal "^lab bad_goal, step 1, ask: the goal's check is false on the launch of the lab's own solution: it read ctx.result.load.sectors_per_request = 5$" \
  "a goal its own solution does not meet, with the value the check read"
finds bad_goal "^lab bad_goal, step 2, ask.solution: a goal with no solution" "a goal with no solution"

# Why: the cause of each finding, once, with where it applies.
lab_file unknown <<EOF
$TITLE
step { text = { en = "Run it.", zh = "运行它。" }, run = [[r = launch("copy", {n = 4096})]],
       ask = { question = { en = "Load sectors per request?", zh = "每读请求几个扇区？" },
               answer = function(ctx) return ctx.result.load.sectors_per_request end, tolerance = 0.02, relativ = true },
       hints = { { en = "The loads line.", zh = "读取那一行。" } } }
EOF
finds unknown "^lab unknown, step 1, ask.relativ: a field warplab does not read \(did you mean 'ask.relative'\?\)" \
  "a misspelled field of ask, with the nearest name"
finds unknown "^lab unknown, step 1, hints: a field warplab does not read \(did you mean 'hint'\?\)" \
  "a misspelled field of a step, with the nearest name"

lab_file relative <<EOF
$TITLE
step { text = { en = "Run it.", zh = "运行它。" }, run = [[r = launch("copy", {n = 4096})]],
       ask = { question = { en = "Load sectors per request?", zh = "每读请求几个扇区？" },
               answer = function(ctx) return ctx.result.load.sectors_per_request end, tolerance = 0.02, relative = 0.02 },
       hint = { { en = "The loads line.", zh = "读取那一行。" } } }
EOF
finds relative "^lab relative, step 1, ask: 'relative' must be true or false \(a tolerance of 2% is tolerance = \"2%\", or tolerance = 0.02 with relative = true\), got number" \
  "relative = 0.02 (a flag given a tolerance's number)"

lab_file percent <<EOF
$TITLE
step { text = { en = "Count.", zh = "数一数。" },
       ask = { question = { en = "How many?", zh = "几个？" }, answer = 100, tolerance = "2%" },
       hint = { { en = "About a hundred.", zh = "大约一百。" } } }
EOF
"$warplab" --sim --check-lab "$tmp/labs/percent.lua" > "$tmp/out" 2>&1
result "tolerance = \"2%\" is a tolerance the checker takes" $?
echo 101.9 > "$tmp/near"; echo 102.5 > "$tmp/far"
"$warplab" --sim --lab "$tmp/labs/percent.lua" --answers "$tmp/near" > "$tmp/out" 2>&1 &&
  ! "$warplab" --sim --lab "$tmp/labs/percent.lua" --answers "$tmp/far" > "$tmp/out" 2>&1
result "... within 2% of the expected value is right, 2.5% off is not" $?

lab_file nil_field <<EOF
$TITLE
step { text = { en = "Run it.", zh = "运行它。" }, run = [[r = launch("copy", {n = 4096})]],
       ask = { question = { en = "Load sectors per request?", zh = "每读请求几个扇区？" },
               answer = function(ctx)
                 return ctx.result.lod.sectors_per_request
               end },
       hint = { { en = "The loads line.", zh = "读取那一行。" } } }
EOF
finds nil_field "^lab nil_field, step 1, ask.answer: nil_field:5: attempt to index a nil value \(field 'lod'\)$" \
  "an answer function that indexes a nil field: the Lua error, with the lab's line"
! grep -q "batch run" "$tmp/out-nil_field"
result "... and no second, causeless finding for the step" $?

lab_file untranslated <<EOF
$TITLE
step { text = { en = "Run the copy kernel.", zh = "Run the copy kernel." },
       hint = { { en = "r.load.requests", zh = "r.load.requests" } } }
EOF
finds untranslated "^lab untranslated, step 1, text: the 'zh' text is the 'en' text: not translated" "a zh text equal to its en"
! grep -q "hint\[1\]" "$tmp/out-untranslated"
result "... but not code, which reads the same in both" $?

lab_file everywhere <<EOF
$TITLE
step { text = { en = "x", zh = "x" }, run = [[r = launch("sum3")]] }
EOF
finds everywhere "^lab everywhere, step 1, run: the experiment fails \(every profile: line 1: bad argument #1 to 'launch' \(unknown kernel 'sum3'" \
  "an experiment that fails under every profile, with the error"
[ "$(grep -c "step 1, run" "$tmp/out-everywhere")" = 1 ]
result "... printed once, not once a profile" $?

lab_file random_range <<EOF
$TITLE
step { text = { en = "Make the loads take 4 sectors a request, at your own offset.", zh = "让每个读请求只碰 4 个扇区，用你自己的偏移。" },
       ask = { goal = { en = "offset with 4 sectors a request", zh = "每请求 4 个扇区的 offset" },
               solution = [[launch("offset", {offset = random("offset", 0, 31), n = 1 << 16})]],
               check = function(ctx) return ctx.result.load.sectors_per_request == 4 end },
       hint = { { en = "Whole sectors.", zh = "整扇区。" } } }
EOF
finds random_range "^lab random_range, step 1, ask: the goal's check is false on the launch of the lab's own solution \([0-9]+ of 20 students: student-[0-9]+ \[offset = [0-9]+\]" \
  "a random range where some students' own numbers break the lab's solution (20 students by default)"
grep -q "ctx.result.load.sectors_per_request = 5" "$tmp/out-random_range"
result "... with what the check read for them" $?
"$warplab" --sim --check-lab "$tmp/labs/random_range.lua" --students 3 > "$tmp/out" 2>&1
grep -Eq "\([0-9] of 3 students" "$tmp/out"
result "--students N tries N students' numbers" $?
"$warplab" --sim --check-lab "$tmp/labs/random_range.lua" --students 0 > "$tmp/out" 2>&1
[ $? = 2 ] && grep -q -- "--students expects a whole number from 1 to 1000, got '0'" "$tmp/out"
result "--students 0 is a usage error" $?
"$warplab" --sim --students 3 > "$tmp/out" 2>&1
[ $? = 2 ] && grep -q -- "--students goes with --check-lab LAB" "$tmp/out"
result "--students without --check-lab is a usage error" $?

# A kernel to write: a skeleton that already meets its goal, a solution that does not compile.
kernel_lab() {   # kernel_lab NAME FIELDS SOLUTION_LINE: a lab whose kernel has those fields and that line in its solution
  lab_file "$1" <<EOF
$TITLE
local K = {
  name = "my_copy", $2
  skeleton = [==[
extern "C" __global__ void my_copy(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}
]==],
  solution = [==[
extern "C" __global__ void my_copy(const float *in, float *out, int n)
{
    $3
    if (i < n) out[i] = in[i];
}
]==],
  params = { n = { default = 4096, min = 32, max = 1 << 24 } },
  buffers = { ["in"] = { type = "float", count = "n" }, out = { type = "float", count = "n", output = true } },
  args = { "in", "out", "n" },
  grid = { function(p) return (p.n + 255) // 256 end },
  reference = function(p, b) for i = 0, p.n - 1 do b.out[i] = b["in"][i] end end,
}
step { text = { en = "Write it.", zh = "写它。" }, kernel = K,
       ask = { goal = { en = "my_copy, correct, 4 sectors a request", zh = "my_copy，正确，每请求 4 个扇区" },
               solution = [[r = launch("my_copy", {n = 4096})]],
               check = function(ctx) return ctx.result.kernel == "my_copy" and ctx.result.correct == true and ctx.result.load.sectors_per_request <= 4 end },
       hint = { { en = "Neighbouring lanes.", zh = "相邻线程。" } } }
EOF
}
kernel_lab kernel_blocks "blocks = { 256 }, block = { 256 }," "int i = blockIdx.x * blockDim.x + threadIdx.x;"
finds kernel_blocks "^lab kernel_blocks, step 1, kernel.blocks: a field warplab does not read \(did you mean 'kernel.block'\?\)" \
  "a misspelled field of a lab's kernel"
finds kernel_blocks "^lab kernel_blocks, step 1, kernel.skeleton: the skeleton already meets the goal" "a skeleton that already meets its goal"
kernel_lab no_compile "block = { 256 }," "int i = blockIdx.x * blockDim.x + threadIdx.x"
finds no_compile "^lab no_compile, step 1, kernel.solution: the kernel cannot be declared from its solution: my_copy.cu\(4\): error: expected a \";\"$" \
  "a kernel solution that does not compile: the compiler's first error line"
sed 's/^  skeleton = \[==\[/  SWAP/; s/^  solution = \[==\[/  skeleton = [==[/; s/^  SWAP/  solution = [==[/' \
  "$tmp/labs/no_compile.lua" | lab_file bad_skeleton
finds bad_skeleton "^lab bad_skeleton, step 1, kernel.skeleton: the kernel cannot be declared from its skeleton: my_copy.cu\(4\): error: expected a \";\" \(every profile\)$" \
  "a skeleton that does not compile: the compiler's line, once for every profile"
[ "$(grep -c "unknown kernel\|cannot be declared" "$tmp/out-bad_skeleton")" = 1 ]
result "... and nothing else about it" $?

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

# A released lab: the copy students get has no solutions and no answers of
# its assessed questions, loads, records those answers without a verdict,
# and names the instructor's copy's hash in its submissions.
lab_file handout <<EOF
-- for the instructor: step 2 is the stride-2 sector count
lab { title = { en = "Handout", zh = "讲义" } }
step { text = { en = "Practice: run it.", zh = "练习：运行它。" }, run = [[r = launch("copy", {n = 4096})]],
       ask = { question = { en = "Load requests?", zh = "读请求数？" },
               answer = function(ctx) return ctx.result.load.requests end },
       hint = { { en = "The loads line.", zh = "读取那一行。" } } }
step { text = { en = "Assessed: run it.", zh = "计分：运行它。" }, run = [[r = launch("strided", {stride = 2, n = 4096})]],
       ask = { question = { en = "Load sectors per request?", zh = "每读请求几个扇区？" }, assessed = true, points = 2,
               answer = function(ctx)   -- a table, a function and commas inside: the field ends at its own end
                 local parts = { load = ctx.result.load, scale = function(x) return x * 1.0 end, "]]", }
                 return parts.scale(parts.load.sectors_per_request)
               end },
       hint = { { en = "The loads line.", zh = "读取那一行。" } } }
step { text = { en = "Assessed goal.", zh = "计分目标。" },
       ask = { goal = { en = "strided with 4 sectors a request", zh = "strided，每请求 4 个扇区" }, assessed = true,
               check = function(ctx) return ctx.result.kernel == "strided" and ctx.result.load.sectors_per_request == 4 end,
               solution = [==[launch("strided", {stride = 1, n = 4096}) -- ]] }, end "]==] },
       hint = { { en = "Stride 1.", zh = "步长 1。" } } }
EOF
mkdir -p "$tmp/released"
"$warplab" --sim --check-lab "$tmp/labs/handout.lua" > "$tmp/out" 2>&1 &&
  "$warplab" --sim --release-lab "$tmp/labs/handout.lua" "$tmp/released" > "$tmp/out" 2>&1 &&
  grep -q "^Released lab handout to $tmp/released/handout.lua; solutions and assessed answers removed: 3, comments too" "$tmp/out"
result "--release-lab LAB FOLDER writes FOLDER/LAB.lua" $?
[ $? = 0 ] || sed 's/^/#   /' "$tmp/out"
released="$tmp/released/handout.lua"
leaked=
for secret in 'return x * 1.0' 'parts.load.sectors_per_request' 'sectors_per_request == 4' \
              'launch("strided", {stride = 1, n = 4096})' 'for the instructor' 'the field ends at its own end'; do
  grep -qF "$secret" "$released" && leaked="$leaked [$secret]"
done
[ -z "$leaked" ] && grep -qF 'ctx.result.load.requests end' "$released"
result "... without the solution, the assessed answer and check, or comments; the practice answer stays${leaked:+ (left:$leaked)}" $?
[ "$(wc -l < "$released")" = "$(wc -l < "$tmp/labs/handout.lua")" ]
result "... with the lines where they were (an error names the same line in both)" $?

printf '128\n8\nlaunch("strided", {stride = 3, n = 4096})\n' > "$tmp/handout-answers"
"$warplab" --sim --student s1 --lab "$tmp/labs/handout.lua" --answers "$tmp/handout-answers" --submit "$tmp/instructor.json" > "$tmp/out" 2>&1
"$warplab" --sim --student s1 --lab "$released" --answers "$tmp/handout-answers" --submit "$tmp/student.json" > "$tmp/out" 2>&1
status=$?
[ $status = 0 ] && grep -q "^Correct." "$tmp/out" && [ "$(grep -c "^Answer recorded. This question is graded after you hand in the lab" "$tmp/out")" = 2 ] &&
  ! grep -q "Not quite" "$tmp/out"
result "the released copy runs: practice feedback, assessed answers recorded (a wrong goal too) without a verdict" $?
[ $? = 0 ] || sed 's/^/#   /' "$tmp/out" | tail -12
[ "$(grep -c '"verdict": "recorded"' "$tmp/student.json")" = 2 ] && [ "$(grep -c '"verdict": "right"' "$tmp/student.json")" = 1 ]
result "... and its submission holds them with the verdict 'recorded'" $?
instructor_hash=$(sed -n 's/.*"hash": "\(fnv1a64:[0-9a-f]*\)".*/\1/p' "$tmp/instructor.json")
student_hash=$(sed -n 's/.*"hash": "\(fnv1a64:[0-9a-f]*\)".*/\1/p' "$tmp/student.json")
[ -n "$instructor_hash" ] && [ "$instructor_hash" = "$student_hash" ] && grep -q "released_from = \"$instructor_hash\"" "$released"
result "... naming the instructor copy's hash ($instructor_hash), the lab that grades it" $?
printf '127\n' > "$tmp/wrong-practice"
"$warplab" --sim --lab "$released" --answers "$tmp/wrong-practice" > "$tmp/out" 2>&1
grep -q "^Not quite (attempt 1)." "$tmp/out" && grep -q "^The loads line." "$tmp/out"
result "... a wrong practice answer still gets its feedback" $?

"$warplab" --sim --release-lab "$tmp/labs/handout.lua" > "$tmp/out" 2>&1
[ $? = 2 ] && grep -q -- "--release-lab LAB OUT needs OUT" "$tmp/out"
result "--release-lab without OUT is a usage error" $?
"$warplab" --sim --release-lab "$tmp/labs/handout.lua" "$tmp/released/other.lua" > "$tmp/out" 2>&1
[ $? = 1 ] && grep -q "must be called handout.lua" "$tmp/out" && [ ! -e "$tmp/released/other.lua" ]
result "--release-lab to another name is refused (the name gives students their numbers)" $?
lab_file built <<EOF
$TITLE
local solution = "launch(" .. "'copy')"
step { text = { en = "x", zh = "x" }, ask = { goal = { en = "copy", zh = "复制" }, check = function(ctx) return true end,
       solution = solution }, hint = { { en = "h", zh = "提示" } } }
EOF
"$warplab" --sim --release-lab "$tmp/labs/built.lua" "$tmp/released" > "$tmp/out" 2>&1
[ $? = 1 ] && grep -q "cannot release lab built: its ask.solution must be written in place" "$tmp/out" && [ ! -e "$tmp/released/built.lua" ]
result "a solution built by code is not released: one line, nothing written" $?
for lab in own-kernel exercises; do
  "$warplab" --sim --release-lab "$lab" "$tmp/released" > "$tmp/out" 2>&1 &&
    "$warplab" --sim --lab "$tmp/released/$lab.lua" --answers "${srcdir:-.}/tests/labs/answers/$lab.txt" > "$tmp/out" 2>&1
  result "built-in lab $lab released: the copy runs its answers" $?
  [ $? = 0 ] || sed 's/^/#   /' "$tmp/out" | tail -8
done
! grep -q "TRANSPOSE_SOLUTION\|HISTOGRAM_SOLUTION" "$tmp/released/exercises.lua" &&
  ! grep -q "neighbouring lanes take neighbouring columns" "$tmp/released/own-kernel.lua"
result "... (no solution variable, no solution source)" $?

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
