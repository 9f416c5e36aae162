#!/bin/sh
# grade.sh — warplab --grade DIR: a generated class (right, wrong, missing and
# tampered answers, kernels of their own, a file that is no submission) is
# graded again against the labs; the CSV and JSON rows say so, and the HTML
# report renders in headless Chromium with its charts (a screenshot's pixels).
warplab=${WARPLAB:-./warplab}
srcdir=${srcdir:-.}
answers=$srcdir/tests/labs/answers
. "${srcdir:-.}/tests/lib/tap.sh"
tmp=$(mktemp -d); trap '[ -n "$KEEP" ] || rm -rf "$tmp"' EXIT   # KEEP=1: the files stay, to look at
export XDG_DATA_HOME="$tmp/data"
class=$tmp/class
mkdir -p "$class/coalescing" "$class/exercises"

submit() {   # submit STUDENT LAB ANSWERS
  "$warplab" --sim --student "$1" --lab "$2" --answers "$3" --submit "$class/$2" > "$tmp/out-$1-$2" 2>&1
}
submit alice coalescing "$answers/coalescing.txt"
sed '2s/.*/5/' "$answers/coalescing.txt" > "$tmp/bob.txt"
submit bob coalescing "$tmp/bob.txt"
# carol answers step 2 only, and submits at the prompt
"$warplab" --sim --student carol -e "local labs = debug.getregistry()['warplab.core'].labs
  labs.open('coalescing'); labs.next(); labs.run(); labs.answer('8'); labs.submit('$class/coalescing')" > "$tmp/out-carol" 2>&1
# dave hands in bob's file, his wrong answer marked right
sed -e 's/"student": "bob"/"student": "dave"/' -e '0,/"verdict": "wrong"/s//"verdict": "right"/' \
  "$class/coalescing/coalescing-bob.json" > "$class/coalescing/coalescing-dave.json"
submit erin exercises "$answers/exercises.txt"
# frank hands in erin's file with the transpose's skeleton as his kernel: it does not meet the goal
"$warplab" --sim -e "
  local core = debug.getregistry()['warplab.core']
  local d = require[[warplab.json]].decode(io.open('$class/exercises/exercises-erin.json'):read('a'))
  d.student = 'frank'
  for _, s in ipairs(d.steps) do
    if s.kernel and s.kernel.name == 'my_transpose' then
      s.kernel.source = require('warplab.lab_definition').load('exercises', core.lab_source('exercises')).steps[s.step].kernel.skeleton
    end
  end
  core.write_file('$class/exercises/exercises-frank.json', require[[warplab.json]].encode(d, 2))" > "$tmp/out-frank" 2>&1
echo '{"not": "a submission"}' > "$class/notes.json"
ls "$class"/*/*.json | sed "s|$class/|# |"
[ "$(ls "$class"/*/*.json | wc -l)" = 6 ]
result "six submissions were made for the class" $?

(cd "$tmp" && "$warplab" --sim --grade "$class") > "$tmp/grade.out" 2> "$tmp/grade.err"
status=$?
[ $status = 1 ] && grep -q "notes.json: not a warplab submission of version 1" "$tmp/grade.err" &&
  grep -q "^Graded 6 submissions of 6 students (2 problems, 1 of them suspected tampering; 4 copies, 0 late): report/grades.csv, report/grades.json, report/report.html, report/gradebook.csv." "$tmp/grade.out"
result "--grade grades the six, names the file that is no submission and frank's result, and exits 1 for them" $?
sed 's/^/#   /' "$tmp/grade.err" "$tmp/grade.out" | head -6
rm "$class/notes.json"
"$warplab" --sim --grade "$class" --report "$tmp/clean" > "$tmp/grade.out" 2> "$tmp/grade.err"
[ $? = 1 ] && [ "$(wc -l < "$tmp/grade.err")" = 1 ] &&
  grep -q "exercises-frank.json: suspected tampering: step 9: differs: store.l2_lines is 16384 in the file, 524288 when run again" "$tmp/grade.err"
result "--grade of a class of submissions: one line, for frank's result that his kernel does not give (--report FOLDER)" $?

csv=$tmp/clean/grades.csv
row() { grep "^$1,$2,$3," "$csv"; }   # row STUDENT LAB STEP
echo "# $(head -1 "$csv")"
[ "$(head -1 "$csv")" = "student,lab,step,kind,question,answer,attempts,first_try,submitted,graded,agrees,expected,gap,rerun_correct,rerun_backend,notes,file,result_check,similar_to,late,arrived,points,points_possible" ]
result "grades.csv: its header" $?
[ "$(grep -c '^alice,coalescing,[0-9]*,[a-z]*,.*,right,right,true,' "$csv")" = 4 ]
result "alice: her four questions right, graded again" $?
row bob coalescing 2 | grep -q ',5,1,false,wrong,wrong,true,8,'
result "bob: his wrong answer (5, not 8) is wrong again, as submitted" $?
row carol coalescing 2 | grep -q ',right,right,true,' && row carol coalescing 3 | grep -q ',0,false,,missing,'
result "carol: step 2 right, step 3 missing" $?
row dave coalescing 2 | grep -q ',5,1,false,right,wrong,false,8,.*the submitted verdict is right, graded again it is wrong.*,same,bob (answers and results),'
result "dave: the verdict he changed is caught, and his file is bob's (similar_to)" $?
row bob coalescing 2 | grep -q ',same,dave (answers and results),'
result "bob: similar_to names dave" $?
row erin exercises 9 | grep -q ',right,right,true,,,true,sim,'
result "erin: her own transpose runs again, correct, and meets the goal" $?
row frank exercises 9 | grep -q ',right,wrong,false,,,true,sim,.*graded again it is wrong.*,"differs: store.l2_lines is 16384 in the file, 524288 when run again","erin (answers and results, kernel my_histogram)",'
result "frank: the skeleton he handed in runs again, does not meet the goal nor give erin's result, and his file is erin's" $?
row alice coalescing 1 | grep -q ',prediction,.*,8,0,,,predicted,,,0,'
result "a prediction: what was predicted and its gap, never right or wrong" $?

"$warplab" --sim -e "
  local d = require[[warplab.json]].decode(io.open('$tmp/clean/grades.json'):read('a'))
  local q2
  for _, q in ipairs(d.questions) do if q.lab == 'coalescing' and q.step == 2 then q2 = q end end
  print(d.format, d.version, d.submissions, #d.student_names, #d.rows, #d.students, q2.students, q2.first_try_rate,
        q2.wrong_answers[1].answer, q2.wrong_answers[1].count)" > "$tmp/json.out" 2>&1
grep -Eq "^warplab-grades	1	6	6	[0-9]+	6	4	0.5	(x|×)0.625	2$" "$tmp/json.out"
result "grades.json: the class, and per question the first-try rate and the most common wrong answer (5 for 8: ×0.625)" $?
[ $? = 0 ] || sed 's/^/#   /' "$tmp/json.out"

html=$tmp/clean/report.html
! sed 's|xmlns="http://www.w3.org/2000/svg"||g' "$html" | grep -q -e 'https\?://' -e '<script src' -e '<link' -e '<img'
result "report.html loads nothing from a network" $?
browser=$(command -v chromium || command -v chromium-browser)
if [ -z "$browser" ]; then
  count=$((count + 1)); echo "ok $count # SKIP chromium not installed (apt-get install chromium)"
else
  timeout 60 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --user-data-dir="$tmp/profile" \
    --dump-dom "file://$html" > "$tmp/dom.html" 2> "$tmp/browser.log"
  [ "$(grep -o '<rect class="bar"' "$tmp/dom.html" | wc -l)" -ge 20 ] && grep -q '<table class="students">' "$tmp/dom.html" &&
    [ "$(grep -o '<tr><td><a href="#student-frank">frank</a></td><td>exercises</td><td>11/12</td>' "$tmp/dom.html" | wc -l)" = 1 ] &&
    grep -q '<section class="student" id="student-frank">' "$tmp/dom.html"
  result "Chromium loads the report: the bars of both charts, the students' table, a section per student" $?
  if command -v pngtopnm > /dev/null && command -v pnmtoplainpnm > /dev/null; then
    timeout 60 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --hide-scrollbars \
      --disable-background-networking --disable-component-update --disable-sync --user-data-dir="$tmp/profile" \
      --window-size=1000,5000 --screenshot="$tmp/report.png" "file://$html" 2>> "$tmp/browser.log"
    pixels=$(pngtopnm "$tmp/report.png" 2> /dev/null | pnmtoplainpnm 2> /dev/null | awk '
      function near(v, w) { return v - w < 30 && w - v < 30 }
      NR == 1 { next }
      { for (i = 1; i <= NF; i++) value[n++] = $i }
      END {
        for (p = 3; p + 2 < n; p += 3) {
          r = value[p]; g = value[p + 1]; b = value[p + 2]
          if (near(r, 31) && near(g, 119) && near(b, 180)) blue++
          if (near(r, 44) && near(g, 160) && near(b, 44)) green++
          if (r < 90 && g < 90 && b < 90) dark++
        }
        printf "blue=%d green=%d dark=%d\n", blue, green, dark
      }')
    echo "# screenshot: $pixels"
    blue=$(echo "$pixels" | sed -n 's/.*blue=\([0-9]*\).*/\1/p') green=$(echo "$pixels" | sed -n 's/.*green=\([0-9]*\).*/\1/p')
    dark=$(echo "$pixels" | sed -n 's/.*dark=\([0-9]*\).*/\1/p')
    [ "${blue:-0}" -gt 20000 ] && [ "${green:-0}" -gt 2000 ] && [ "${dark:-0}" -gt 5000 ]
    result "the screenshot shows the first-try bars (blue), the gap histogram (green) and the text" $?
  else
    count=$((count + 1)); echo "ok $count # SKIP netpbm not installed (apt-get install netpbm): no screenshot check"
  fi
fi

# Hostile submissions and hand-in folders (#28, findings 2, 5 and 10): each
# bad file is one line, never a traceback; the others are graded as without it.
hostile=$(cd "$srcdir/tests/labs/hostile/submissions" && pwd)
others() {   # others CSV FOLDER: the six students' rows, their files named from FOLDER, without when they arrived
  grep -E '^(alice|bob|carol|dave|erin|frank),(coalescing|exercises),' "$1" | sed -e "s|$2/||" -e 's/,20[0-9-]*T[0-9:]*Z,/,/'
}
others "$csv" "$class" > "$tmp/others-clean"
line() { grep -c -F -- "$1" "$tmp/mixed.err" | grep -qx "${2:-1}"; }   # line TEXT [COUNT]: TEXT is on that many lines
outputs() {   # outputs REPORT: the grader's three files, and what it printed
  echo "$tmp/mixed.out" "$tmp/mixed.err" "$1/grades.csv" "$1/grades.json" "$1/report.html"
}
# Three files that stopped the class's grading with a traceback (grade:114, 118, 277).
crash=$tmp/crash
cp -r "$class" "$crash"
cp "$hostile/attempts-number.json" "$hostile/steps-numbers.json" "$hostile/answer-object.json" "$crash/"
"$warplab" --sim --grade "$crash" --report "$tmp/crash-report" > "$tmp/mixed.out" 2> "$tmp/mixed.err"
status=$?
sed 's/^/#   /' "$tmp/mixed.err"
[ $status = 1 ] && [ -s "$tmp/crash-report/grades.csv" ] && [ -s "$tmp/crash-report/grades.json" ] &&
  [ -s "$tmp/crash-report/report.html" ] && grep -q "^Graded 6 submissions of 6 students (4 problems" "$tmp/mixed.out" &&
  line 'attempts-number.json: field steps[2].attempts[1]: expected an object, got 7' &&
  line 'steps-numbers.json: field steps[1]: expected an object, got 5' &&
  line 'answer-object.json: field steps[2].attempts[1].answer: expected an answer' &&
  ! grep -q -e 'grade:[0-9]' -e 'labs:[0-9]' -e 'prelude:[0-9]' -e 'card:[0-9]' -e 'result:[0-9]' -e 'values:[0-9]' -e 'traceback' $(outputs "$tmp/crash-report")
result 'attempts [7], steps [5,6] and an answer {"x":1}: one line each, all three outputs, no internal error (finding 5)' $?
others "$tmp/crash-report/grades.csv" "$crash" | diff "$tmp/others-clean" - > /dev/null
result "the six other students are graded exactly as without them" $?

# A lab named by a path, with the student ID that sorts first; student IDs
# of terminal escapes, twice (the duplicate line); formulas for spreadsheets.
mixed=$tmp/mixed
cp -r "$class" "$mixed"
mkdir -p "$mixed/hostile" "$mixed/pathlab"
cp "$hostile/lab-path.json" "$hostile/control-id-1.json" "$hostile/control-id-2.json" "$hostile/formula-1.json" \
  "$hostile/formula-2.json" "$mixed/hostile/"
printf '4\n' > "$tmp/path.txt"
for s in bob carol; do
  WARPLAB_LABS_PATH=$hostile/labs "$warplab" --sim --student $s --lab pathlab --answers "$tmp/path.txt" --submit "$mixed/pathlab" > /dev/null 2>&1
done
# from the folder where evil/pathlab.lua is, so that the path lab-path.json names is there to load
(cd "$hostile" && WARPLAB_LABS_PATH=$hostile/labs timeout 120 "$warplab" --sim --grade "$mixed" --report "$tmp/mixed-report") \
  > "$tmp/mixed.out" 2> "$tmp/mixed.err"
status=$?
sed 's/^/#   /' "$tmp/mixed.err" | cat -v
[ $status = 1 ] && grep -q "^Graded 10 submissions of 8 students (4 problems" "$tmp/mixed.out" &&
  ! grep -q -e 'grade:[0-9]' -e 'labs:[0-9]' -e 'prelude:[0-9]' -e 'card:[0-9]' -e 'result:[0-9]' -e 'values:[0-9]' -e 'traceback' $(outputs "$tmp/mixed-report")
result "a class with them is graded: exit 1, 10 submissions, 4 problems (frank's too), no internal error" $?
others "$tmp/mixed-report/grades.csv" "$mixed" | diff "$tmp/others-clean" - > "$tmp/others.diff"
result "the six other students are graded exactly as without them" $?
sed 's/^/#   /' "$tmp/others.diff" | head -5
line "lab-path.json: its lab is named by a path ('evil/pathlab.lua')" &&
  [ "$(grep -c '^bob,pathlab,1,question,.*,4,1,true,right,right,true,4,' "$tmp/mixed-report/grades.csv")" = 1 ] &&
  [ "$(grep -c '^carol,pathlab,1,question,.*,4,1,true,right,right,true,4,' "$tmp/mixed-report/grades.csv")" = 1 ]
result "a submission naming its lab by a path is refused, and the others of that lab are graded against the instructor's (finding 2)" $?
! grep -q "$(printf '[\033\007]')" "$tmp/mixed.out" "$tmp/mixed.err" "$tmp/mixed-report/grades.csv" \
    "$tmp/mixed-report/report.html" &&
  line 'control-id-1.json: field student: expected a student ID' && line 'control-id-2.json: field student: expected a student ID'
result "student IDs of terminal escapes are refused, and no escape reaches the terminal or the report (finding 10)" $?
cat > "$tmp/cells.lua" <<'LUA'
-- Every cell of a CSV file, RFC 4180 quoting undone; prints those a spreadsheet would take as a formula.
local text = io.open(arg[1]):read("a")
local pos, cells, row = 1, {}, 1
while pos <= #text do
  local cell
  if text:sub(pos, pos) == '"' then
    local close = pos
    repeat close = text:find('"', close + 1, true) until text:sub(close + 1, close + 1) ~= '"' or not close
    cell, pos = text:sub(pos + 1, close - 1):gsub('""', '"'), close + 1
  else
    local stop = text:find("[,\n]", pos) or #text + 1
    cell, pos = text:sub(pos, stop - 1), stop
  end
  cells[#cells + 1] = { row = row, text = cell }
  if text:sub(pos, pos) == "\n" then row = row + 1 end
  pos = pos + 1
end
local formulas, quoted = 0, 0
for _, c in ipairs(cells) do
  local t = c.text
  if t:match("^[=+%-@\t\r]") and not tonumber(t) then formulas = formulas + 1; print("formula", c.row, t) end
  if t:match("^'[=+%-@]") then quoted = quoted + 1 end
end
print("rows", row - 1, "formulas", formulas, "quoted", quoted)
LUA
"$warplab" --sim "$tmp/cells.lua" "$tmp/mixed-report/grades.csv" > "$tmp/cells.out" 2>&1
tail -1 "$tmp/cells.out" | sed 's/^/# /'
grep -q "formulas	0	quoted	[1-9]" "$tmp/cells.out" && grep -q "^'@evil,coalescing,2,.*,\"'=HYPERLINK(\"\"http" "$tmp/mixed-report/grades.csv" &&
  grep -q "^'-cmd,coalescing,6,.*,'-2+3+cmd|' /C calc'!A0," "$tmp/mixed-report/grades.csv" &&
  grep -q "^'@evil,coalescing,5,question,.*,-5,1," "$tmp/mixed-report/grades.csv"
result "grades.csv: no cell a spreadsheet runs as a formula ('=..., '@..., '-cmd), a negative answer stays -5 (finding 10)" $?

# A hand-in folder with links up and onto itself, a folder ten deep and a
# 9 MB file: walked without following links, 8 folders deep, the file not read.
walk=$tmp/walk
cp -r "$class" "$walk"
mkdir -p "$walk/hostile" "$walk/1/2/3/4/5/6/7/8/9/10"
ln -s .. "$walk/hostile/up"
ln -s . "$walk/hostile/self"
ln -s "$class/coalescing/coalescing-alice.json" "$walk/hostile/link.json"
cp "$class/coalescing/coalescing-alice.json" "$walk/1/2/3/4/5/6/7/8/9/10/deep.json"
truncate -s 9M "$walk/hostile/huge.json"
timeout 60 "$warplab" --sim --grade "$walk" --report "$tmp/walk-report" > "$tmp/mixed.out" 2> "$tmp/mixed.err"
status=$?
[ $status = 1 ] && grep -q "^Graded 6 submissions of 6 students (6 problems" "$tmp/mixed.out" &&
  line "hostile/up: a symbolic link: not followed" && line "hostile/self: a symbolic link: not followed" &&
  line "hostile/link.json: a symbolic link: not followed" && line "1/2/3/4/5/6/7/8/9: more than 8 folders deep: not walked" &&
  line "hostile/huge.json: larger than 8388608 bytes: not read"
result "the hand-in folder is walked without links, 8 folders deep, and a 9 MB file is not read (finding 5)" $?
others "$tmp/walk-report/grades.csv" "$walk" | diff "$tmp/others-clean" - > /dev/null
result "the six students beside them are graded exactly as without them" $?

# A deadline per submission: a lab function and a student kernel that never end are stopped, the rest graded.
# Without erin and frank, whose kernels take seconds to compile and run again:
# the deadline is shorter than the spinners' own budgets (the sandbox's, the emulator's).
spin=$tmp/spin
cp -r "$class" "$spin"
rm -r "$spin/exercises"
# The deadline is set by how long the students beside the spinners take here
# (a loaded machine takes many times longer): their whole grading, and 3 s.
started=$(date +%s)
"$warplab" --sim --grade "$spin" --report "$tmp/spin-clean" > /dev/null 2>&1
limit=$(($(date +%s) - started + 3))
cp "$hostile/spinlab-aaa-spin.json" "$spin/"
"$warplab" --sim -e "
  local core = debug.getregistry()['warplab.core']
  local d = require[[warplab.json]].decode(io.open('$class/exercises/exercises-erin.json'):read('a'))
  d.student = 'aad-spin'
  for _, s in ipairs(d.steps) do
    if s.kernel and s.kernel.name == 'my_transpose' then s.kernel.source = io.open('$hostile/spin.cu'):read('a') end
  end
  core.write_file('$spin/exercises-aad-spin.json', require[[warplab.json]].encode(d, 2))" > "$tmp/out-spin" 2>&1
started=$(date +%s)
WARPLAB_LABS_PATH=$hostile/labs timeout $((4 * limit + 60)) "$warplab" --sim --grade "$spin" --report "$tmp/spin-report" --time-limit $limit \
  > "$tmp/spin.out" 2> "$tmp/spin.err"
status=$? took=$(($(date +%s) - started))
sed 's/^/#   /' "$tmp/spin.err"
echo "# graded in $took s, each submission given $limit s"
[ $status = 1 ] && grep -q "^Graded 6 submissions of 6 students (2 problems" "$tmp/spin.out" &&
  grep -q "spinlab-aaa-spin.json: grading stopped" "$tmp/spin.err" &&
  grep -q "exercises-aad-spin.json: grading stopped after [0-9]* s: it ran past its $limit s of" "$tmp/spin.err" &&
  grep -q "^aad-spin,exercises,9,goal,.*,stopped,.*grading stopped after" "$tmp/spin-report/grades.csv" &&
  [ "$took" -lt $((3 * limit + 30)) ]
result "--time-limit: a lab that launches for ever and a kernel that spins are stopped at the limit each, with a row noted so" $?
others "$tmp/spin-report/grades.csv" "$spin" | diff "$tmp/others-clean" - | grep '^[<>] ' | grep -v '^< \(erin\|frank\),' > "$tmp/others.diff"
[ ! -s "$tmp/others.diff" ]
result "the students graded after a stopped one are graded exactly as without it" $?
sed 's/^/#   /' "$tmp/others.diff" | head -5

# Without a deadline near, the sandbox's own budget stops the spinning lab
# code: reported as the deadline is (a stopped row, a problem line), not as a
# wrong answer of the student's.
mkdir "$tmp/spin-alone"
cp "$hostile/spinlab-aaa-spin.json" "$tmp/spin-alone/"
WARPLAB_LABS_PATH=$hostile/labs "$warplab" --sim --grade "$tmp/spin-alone" --report "$tmp/spin-alone-report" --time-limit 600 \
  > "$tmp/spin-alone.out" 2> "$tmp/spin-alone.err"
status=$?
sed 's/^/#   /' "$tmp/spin-alone.err"
[ $status = 1 ] && grep -q "^Graded 1 submission of 1 student (1 problem" "$tmp/spin-alone.out" &&
  grep -q "spinlab-aaa-spin.json: grading stopped: lab spinlab, step 1: the lab's code ran too long" "$tmp/spin-alone.err" &&
  grep -q '^aaa-spin,spinlab,1,question,.*,stopped,.*"grading stopped: lab spinlab, step 1: ' "$tmp/spin-alone-report/grades.csv" &&
  ! grep -q ',wrong,' "$tmp/spin-alone-report/grades.csv"
result "a lab whose code the sandbox stops is reported as stopped, with a problem line, not as the student's wrong answer" $?

# Ctrl-C while a submission spins stops the whole grading, as it stops any call (not as a deadline does).
WARPLAB_LABS_PATH=$hostile/labs "$warplab" --sim --grade "$spin" --report "$tmp/int-report" --time-limit 60 \
  > "$tmp/int.out" 2> "$tmp/int.err" &
pid=$!
sleep 2
kill -INT $pid
started=$(date +%s)
wait $pid
status=$? took=$(($(date +%s) - started))
[ $status = 1 ] && [ "$took" -lt 10 ] && grep -q "interrupted!" "$tmp/int.err" && ! grep -q "^Graded" "$tmp/int.out"
result "Ctrl-C while a submission spins ends the grading at once (exit 1, interrupted!), not only that submission" $?
sed 's/^/#   /' "$tmp/int.err"

# Grading from evidence (#30): a class of a lab that draws each student's
# stride with random(), graded against --lab FILE. gina and hank are honest;
# ivan's result is changed and his answer agrees with it; judy hands in
# gina's file; kim struggles (two wrong answers before each right one);
# hank hands in twice, the second file dated 2020 in its `submitted` field
# but arriving later, after the --deadline. Step 2 is assessed: its answers
# carry no verdict, as a released lab records them.
drawn=$(cd "$srcdir/tests/labs/grading" && pwd)/drawn.lua
dclass=$tmp/drawn-class
mkdir -p "$dclass/first" "$dclass/second"
at_prompt() {   # at_prompt STUDENT FOLDER ANSWERS...: runs step 1, answers each step in turn (Lua expressions), submits
  student=$1 folder=$2; shift 2
  code="local labs = debug.getregistry()['warplab.core'].labs; labs.open('$drawn'); labs.run()"
  for step in "$@"; do code="$code; for _, a in ipairs({$step}) do labs.answer(tostring(a)) end; labs.next()"; done
  # each student's own data folder: a lab room's shared login is another issue's
  XDG_DATA_HOME=$tmp/data-$student "$warplab" --sim --student "$student" -e "$code; labs.submit('$folder')" > "$tmp/out-$student" 2>&1
}
right='r.load.sectors_per_request' bytes='r.dram.read_bytes'
at_prompt gina "$dclass" "$right" "$bytes" "'b'"
at_prompt hank "$dclass/first" "$right" "$bytes" "'stride 2 or more'"
at_prompt ivan "$dclass" "$right" "$bytes" "'2'"
at_prompt kim "$dclass" "$right / 2, $right / 2, $right" "1, 2, $bytes" "'a', 'neither', 'b'"
at_prompt lena "$dclass" "$right" "$bytes" "'b'"
at_prompt mia "$dclass" "$right" "$bytes" "'b'"
edit() {   # edit FILE LUA: the submission in FILE changed by LUA (d is the document), written to FILE
  "$warplab" --sim -e "local core = debug.getregistry()['warplab.core']
    local d = require[[warplab.json]].decode(io.open('$1'):read('a')); $2
    core.write_file('$1', require[[warplab.json]].encode(d, 2))" > /dev/null 2>&1
}
edit "$dclass/drawn-ivan.json" "local s = d.steps[1]; s.result.load.sectors_per_request = 2 * s.result.load.sectors_per_request
  s.attempts[1].answer = tostring(s.result.load.sectors_per_request)"
# lena and mia measured on a GPU (their files made so): lena's DRAM bytes 1.3
# times the model's read and none written, her time 1.5 times it (within the model's bounds), her
# answer her measured bytes; mia's kernel time a tenth of the model's.
on_gpu="for _, i in ipairs({1, 2}) do
    local r = d.steps[i].result
    r.backend, r.load.source, r.store.source, r.dram.source = 'gpu', 'hardware', 'hardware', 'hardware'
    r.dram.read_bytes, r.time_ms = r.dram.read_bytes * 13 // 10, r.model.time_ms * SPEED
    r.dram.write_bytes = 0   -- the output still in L2 at the kernel's end, as the H200 often measures
  end
  d.steps[2].attempts[1].answer = tostring(d.steps[2].result.dram.read_bytes)"
edit "$dclass/drawn-lena.json" "$(echo "$on_gpu" | sed 's/SPEED/1.5/')"
edit "$dclass/drawn-mia.json" "$(echo "$on_gpu" | sed 's/SPEED/0.1/')"
cp "$dclass/drawn-gina.json" "$dclass/drawn-judy.json"
edit "$dclass/drawn-judy.json" "d.student = 'judy'"
cp "$dclass/first/drawn-hank.json" "$dclass/second/drawn-hank.json"
edit "$dclass/first/drawn-hank.json" "d.submitted = '2099-01-01T00:00:00Z'"
edit "$dclass/second/drawn-hank.json" "d.submitted = '2020-01-01T00:00:00Z'; d.steps[3].attempts[1].answer = 'neither'"
for f in "$dclass"/*.json "$dclass"/*/*.json; do   # as a released lab records an assessed question: no verdict
  edit "$f" "for _, a in ipairs(d.steps[2].attempts) do a.verdict = 'recorded' end"
  touch -d '-3 hours' "$f"
done
touch -d '-1 hour' "$dclass/second/drawn-hank.json"
deadline=$(date -u -d '-90 minutes' +%Y-%m-%dT%H:%MZ)
[ "$(ls "$dclass"/*.json "$dclass"/*/*.json | wc -l)" = 8 ] && grep -q '"verdict": "recorded"' "$dclass/drawn-gina.json"
result "the drawn class: eight files, assessed answers recorded without a verdict" $?

"$warplab" --sim --grade "$dclass" --report "$tmp/nolab" > "$tmp/nolab.out" 2> "$tmp/nolab.err"
[ $? = 1 ] && [ "$(grep -c "lab 'drawn' not found" "$tmp/nolab.err")" = 1 ] &&
  grep -q "drawn-gina.json: lab 'drawn' not found (named by 7 submissions, this one first): looked among the built-in labs, in WARPLAB_LABS_PATH (unset), in $XDG_DATA_HOME/warplab/labs, and --lab (not given)" "$tmp/nolab.err"
result "a lab that cannot be found is one line naming it and where it was looked for" $?
sed 's/^/#   /' "$tmp/nolab.err"

"$warplab" --sim --grade "$dclass" --lab "$drawn" --deadline "$deadline" --report "$tmp/drawn" > "$tmp/drawn.out" 2> "$tmp/drawn.err"
status=$?
sed 's/^/#   /' "$tmp/drawn.out" "$tmp/drawn.err"
dcsv=$tmp/drawn/grades.csv
drow() { grep "^$1,drawn,$2," "$dcsv"; }   # drow STUDENT STEP
[ $status = 1 ] && grep -q "^Graded 7 submissions of 7 students (5 problems, 4 of them suspected tampering; 2 copies, 1 late)" "$tmp/drawn.out"
result "--grade --lab FILE --deadline: 7 students, 5 problems (4 suspected tampering: ivan, judy, both of mia's steps), 2 copies, 1 late" $?
drow gina 1 | grep -q ',24.0,1,true,right,right,true,24,.*,same,judy (answers and results),' && drow gina 1 | grep -q ',2,2$'
result "gina: her own stride, re-run the same, right, worth 2 points; judy's file is hers" $?
drow ivan 1 | grep -q ',24,1,false,right,wrong,false,12,.*"differs: load.sectors_per_request is 24 in the file, 12 when run again"' &&
  grep -q "drawn-ivan.json: suspected tampering: step 1: differs: load.sectors_per_request is 24 in the file, 12 when run again" "$tmp/drawn.err"
result "ivan: the result he changed is caught, and his answer, which agrees with it, is wrong against the re-run" $?
drow judy 1 | grep -q "differs: stride = 6 is not this student's own number (theirs is 5); it is gina's" &&
  grep -q "drawn-judy.json: suspected tampering: step 1: differs: stride = 6 is not this student's own number" "$tmp/drawn.err"
result "judy: gina's numbers in her file are named as gina's" $?
drow hank 3 | grep -q 'second/drawn-hank.json,same,,late,' && drow hank 3 | grep -q ',neither,1,false,right,wrong,' &&
  grep -q "first/drawn-hank.json: replaced: of hank's submissions for drawn, the one that arrived last counts (.*second/drawn-hank.json" "$tmp/drawn.err"
result "hank: the file that arrived last counts, whatever its submitted date says, and it is late" $?
drow gina 2 | grep -q ',1,true,recorded,right,,[0-9]*,' && drow kim 2 | grep -q ',3,false,recorded,right,,' &&
  ! drow gina 2 | grep -q 'submitted verdict'
result "assessed questions: answers recorded without a verdict are judged by --grade with the instructor's copy" $?
# The same lab handed out as students get it (--release-lab): nora answers
# the assessed step from the released copy, which has no answer to judge it
# by; her submission names the instructor's copy, which grades it.
mkdir -p "$tmp/released" "$tmp/released-class"
"$warplab" --sim --release-lab "$drawn" "$tmp/released" > "$tmp/release.out" 2>&1
XDG_DATA_HOME=$tmp/data-nora "$warplab" --sim --student nora -e "local labs = debug.getregistry()['warplab.core'].labs
  labs.open('$tmp/released/drawn.lua'); labs.run(); labs.answer(tostring(r.load.sectors_per_request)); labs.next()
  labs.answer(tostring(r.dram.read_bytes + 1)); labs.next(); labs.answer('b'); labs.submit('$tmp/released-class')" \
  > "$tmp/out-nora" 2>&1
"$warplab" --sim --grade "$tmp/released-class" --lab "$drawn" --report "$tmp/released-report" > "$tmp/released.out" 2>&1
nrow() { grep "^nora,drawn,$1," "$tmp/released-report/grades.csv"; }
! grep -q "dram.read_bytes" "$tmp/released/drawn.lua" && grep -q '"verdict": "recorded"' "$tmp/released-class/drawn-nora.json" &&
  grep -q "\"hash\": \"$(grep -o 'fnv1a64:[0-9a-f]*' "$tmp/release.out")\"" "$tmp/released-class/drawn-nora.json" &&
  nrow 1 | grep -q ',true,right,right,' && nrow 2 | grep -q ',1,false,recorded,wrong,' && nrow 2 | grep -q ',same,'
result "a released copy: its assessed answer recorded without a verdict, the submission naming the instructor's copy, which grades it wrong (off by one byte)" $?
sed 's/^/#   /' "$tmp/release.out" "$tmp/released.out"
drow kim 3 | grep -q ',b,3,false,right,right,true,2,'
result "kim: her choice 'b' is right at the third attempt, not the first" $?
drow lena 1 | grep -q ',same,' && drow lena 2 | grep -q ',right,,[0-9]*,.*,same,'
result "lena: a GPU's measurement within the model's bounds is the same, and her measured DRAM bytes are right" $?
drow mia 1 | grep -q "differs: time_ms is [0-9.e-]* in the file: a GPU cannot measure that where the model gives" &&
  grep -q "drawn-mia.json: suspected tampering: step 1: differs: time_ms" "$tmp/drawn.err"
result "mia: a GPU time a tenth of the model's is outside its bounds" $?
head -1 "$tmp/drawn/gradebook.csv" | grep -q '^Student,ID,SIS User ID,SIS Login ID,Section,drawn step 1 (2 pt),drawn step 2 (1 pt),drawn step 3 (1 pt),drawn total (4 pt)$' &&
  grep -q '^gina,,gina,gina,,2,1,1,4$' "$tmp/drawn/gradebook.csv" && grep -q '^ivan,,ivan,ivan,,0,1,1,2$' "$tmp/drawn/gradebook.csv"
result "gradebook.csv: Canvas's identity columns, then points per question and the lab's total" $?
"$warplab" --sim -e "
  local d = require[[warplab.json]].decode(io.open('$tmp/drawn/grades.json'):read('a'))
  for _, q in ipairs(d.questions) do
    local w = q.wrong_answers
    print(q.step, q.kind, q.points, q.first_try_rate, w[1] and w[1].answer, w[1] and w[1].count)
  end" > "$tmp/dq.out" 2>&1
sed 's/^/#   /' "$tmp/dq.out"
grep -Eq '^1	question	2	0.71[0-9]*	(x|×)0.5	2$' "$tmp/dq.out" && grep -q '^3	choice	1	0.71[0-9]*	c) neither	2$' "$tmp/dq.out"
result "grades.json: wrong answers over every attempt, a number as its ratio to each student's own value, a choice by its option" $?

html=$tmp/drawn/report.html
if [ -z "$browser" ]; then
  count=$((count + 1)); echo "ok $count # SKIP chromium not installed (apt-get install chromium)"
else
  timeout 60 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --user-data-dir="$tmp/profile" \
    --dump-dom "file://$html" > "$tmp/drawn-dom.html" 2>> "$tmp/browser.log"
  first=$(grep -o 'class="students"><tbody><tr>\(<th>[^<]*</th>\)*</tr><tr><td><a href="#student-[a-z]*"' "$tmp/drawn-dom.html" |
    sed 's/.*student-//; s/"$//')
  echo "# first in the students' table: $first"
  grep -q '<td>How many load sectors per request does your launch touch?</td>' "$tmp/drawn-dom.html" &&
    [ "$first" = kim ] && grep -q '<section class="student" id="student-kim">' "$tmp/drawn-dom.html" &&
    grep -q '<td>copy: gina (answers and results)</td>' "$tmp/drawn-dom.html" &&
    grep -q '<td>suspected tampering: differs: load.sectors_per_request is 24 in the file, 12 when run again</td>' "$tmp/drawn-dom.html"
  result "Chromium: the report shows a question's text, kim struggling first, judy's copy and ivan's tampering" $?
fi
"$warplab" --sim --lang zh --grade "$dclass" --lab "$drawn" --report "$tmp/drawn-zh" > /dev/null 2>&1
grep -q '你这次启动的每个读取请求触及多少个扇区？' "$tmp/drawn-zh/report.html" && grep -q '疑似篡改' "$tmp/drawn-zh/report.html"
result "--lang zh: the report's questions and flags in Chinese" $?
zoned=$(TZ=Asia/Shanghai date -d "$(echo "$deadline" | sed 's/T/ /; s/Z$/ UTC/')" +%Y-%m-%dT%H:%M+08:00)
"$warplab" --sim --grade "$dclass" --lab "$drawn" --deadline "$zoned" --report "$tmp/zoned" > "$tmp/out" 2>&1
[ "$(grep -c ',late,20[0-9-]*T' "$tmp/zoned/grades.csv")" = 3 ] && [ "$(grep -c '^hank,drawn,[0-9]*,.*,late,' "$tmp/zoned/grades.csv")" = 3 ]
result "--deadline $zoned (the same time in UTC+8): hank's three rows late, and only his" $?
"$warplab" --sim --grade "$dclass" --lab "$drawn" --deadline yesterday > "$tmp/out" 2>&1
[ $? = 1 ] && grep -q "^warplab: --deadline yesterday: expected an ISO date and time such as 2026-12-03T08:00Z" "$tmp/out"
result "--deadline that is not an ISO date and time: one line, exit 1" $?

# --lab FILE beside --grade: the lab file the class is graded against, not looked for on WARPLAB_LABS_PATH
"$warplab" --sim --grade "$mixed/pathlab" --report "$tmp/lab-report" --lab "$hostile/labs/pathlab.lua" > "$tmp/out" 2>&1
[ $? = 0 ] && [ "$(grep -c '^[a-z]*,pathlab,1,question,.*,right,right,true,4,' "$tmp/lab-report/grades.csv")" = 2 ]
result "--grade DIR --lab FILE grades against that lab file" $?
"$warplab" --sim --grade "$mixed/pathlab" --report "$tmp/lab-report" --lab "$tmp/nowhere.lua" > "$tmp/out" 2>&1
[ $? = 1 ] && [ "$(wc -l < "$tmp/out")" = 1 ] && grep -q "^warplab: --lab $tmp/nowhere.lua: cannot read" "$tmp/out"
result "--grade with a --lab that cannot be read: one line, exit 1" $?
sed 's/^/#   /' "$tmp/out"

# A kernel the student changes between steps is run again, step by step, with
# the source each launch ran: olga runs the skeleton in steps 1 and 2, edits
# it before she answers step 2 (judged on the skeleton's launch), and fixes
# it in step 3; pete's file claims that step 1 ran the fixed kernel, which
# does not give its result.
own=$tmp/own
mkdir -p "$own"
"$warplab" --sim --student olga -e "local labs = debug.getregistry()['warplab.core'].labs
  labs.open('own-kernel'); labs.answer('32'); labs.run(); labs.next()
  labs.run(); edit('my_scale', '$answers/own-kernel.cu'); labs.answer('4096'); labs.next()
  launch('my_scale'); labs.answer(''); labs.submit('$own')" > "$tmp/out-olga" 2>&1
"$warplab" --sim -e "
  local core = debug.getregistry()['warplab.core']
  local d = require[[warplab.json]].decode(io.open('$own/own-kernel-olga.json'):read('a'))
  d.student = 'pete'
  d.steps[1].sources.my_scale = d.steps[3].sources.my_scale
  core.write_file('$own/own-kernel-pete.json', require[[warplab.json]].encode(d, 2))" > "$tmp/out-pete" 2>&1
olga_ran() {   # olga_ran STEP: the source olga's step STEP ran, compared with the skeleton's first line
  "$warplab" --sim -e "local core = debug.getregistry()['warplab.core']
    local d = require[[warplab.json]].decode(io.open('$own/own-kernel-olga.json'):read('a'))
    print(d.steps[$1].sources.my_scale:find('int row = blockIdx.x', 1, true) and 'skeleton' or 'fixed')"
}
[ "$(olga_ran 1)" = skeleton ] && [ "$(olga_ran 2)" = skeleton ] && [ "$(olga_ran 3)" = fixed ]
result "a submission keeps the source each step's launches ran: olga's steps 1 and 2 the skeleton (edited before step 2's answer), step 3 her fix" $?
"$warplab" --sim --grade "$own" --report "$tmp/own-report" > "$tmp/out" 2> "$tmp/err"
status=$?
sed 's/^/#   /' "$tmp/err"
[ $status = 1 ] && grep -q '^olga,own-kernel,2,question,.*,4096,1,true,right,right,true,.*,same,' "$tmp/own-report/grades.csv" &&
  [ "$(grep -c '^olga,own-kernel,[0-9]*,.*,same,' "$tmp/own-report/grades.csv")" = 3 ] &&
  [ "$(wc -l < "$tmp/err")" = 1 ] &&
  grep -q "own-kernel-pete.json: suspected tampering: step 1: differs: load.l2_lines is 131072 in the file, 32768 when run again" "$tmp/err"
result "--grade runs each step with its own source: olga's three steps the same, pete's step 1 differs" $?
grep -q '^pete,own-kernel,1,.*,"olga (answers and results, kernel my_scale)",' "$tmp/own-report/grades.csv"
result "... and pete's file is olga's, by the kernel it ran as well" $?

"$warplab" --sim --grade "$tmp/empty-nothing" > "$tmp/out" 2>&1
[ $? = 1 ] && grep -q "no submissions under $tmp/empty-nothing" "$tmp/out"
result "--grade of a folder without submissions: one line, exit 1" $?
"$warplab" --sim --report "$tmp/r" -e 1 > "$tmp/out" 2>&1
[ $? = 2 ] && grep -q -- "--report, --slurm, --time-limit and --deadline go with --grade DIR" "$tmp/out"
result "--report without --grade is a usage error" $?

tap_done
