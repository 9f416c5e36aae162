#!/bin/sh
# grade.sh — warplab --grade DIR: a generated class (right, wrong, missing and
# tampered answers, kernels of their own, a file that is no submission) is
# graded again against the labs; the CSV and JSON rows say so, and the HTML
# report renders in headless Chromium with its charts (a screenshot's pixels).
warplab=${WARPLAB:-./warplab}
srcdir=${srcdir:-.}
answers=$srcdir/tests/answers
. "${srcdir:-.}/tests/tap.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
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
  local d = core.json.decode(io.open('$class/exercises/exercises-erin.json'):read('a'))
  d.student = 'frank'
  for _, s in ipairs(d.steps) do
    if s.kernel and s.kernel.name == 'my_transpose' then
      s.kernel.source = core.labs.load('exercises', core.lab_source('exercises')).steps[s.step].kernel.skeleton
    end
  end
  core.write_file('$class/exercises/exercises-frank.json', core.json.encode(d, 2))" > "$tmp/out-frank" 2>&1
echo '{"not": "a submission"}' > "$class/notes.json"
ls "$class"/*/*.json | sed "s|$class/|# |"
[ "$(ls "$class"/*/*.json | wc -l)" = 6 ]
result "six submissions were made for the class" $?

(cd "$tmp" && "$warplab" --sim --grade "$class") > "$tmp/grade.out" 2> "$tmp/grade.err"
status=$?
[ $status = 1 ] && grep -q "notes.json: not a warplab submission of version 1" "$tmp/grade.err" &&
  grep -q "^Graded 6 submissions of 6 students (1 problems): report/grades.csv, report/grades.json, report/report.html." "$tmp/grade.out"
result "--grade grades the six, names the file that is no submission, and exits 1 for it" $?
sed 's/^/#   /' "$tmp/grade.err" "$tmp/grade.out" | head -6
rm "$class/notes.json"
"$warplab" --sim --grade "$class" --report "$tmp/clean" > "$tmp/grade.out" 2>&1
result "--grade of a class with nothing but submissions exits 0 (--report FOLDER)" $?

csv=$tmp/clean/grades.csv
row() { grep "^$1,$2,$3," "$csv"; }   # row STUDENT LAB STEP
echo "# $(head -1 "$csv")"
[ "$(head -1 "$csv")" = "student,lab,step,kind,question,answer,attempts,first_try,submitted,graded,agrees,expected,gap,rerun_correct,rerun_backend,notes,file" ]
result "grades.csv: its header" $?
[ "$(grep -c '^alice,coalescing,[0-9]*,[a-z]*,.*,right,right,true,' "$csv")" = 4 ]
result "alice: her four questions right, graded again" $?
row bob coalescing 2 | grep -q ',5,1,false,wrong,wrong,true,8,'
result "bob: his wrong answer (5, not 8) is wrong again, as submitted" $?
row carol coalescing 2 | grep -q ',right,right,true,' && row carol coalescing 3 | grep -q ',0,false,,missing,'
result "carol: step 2 right, step 3 missing" $?
row dave coalescing 2 | grep -q ',5,1,false,right,wrong,false,8,.*the submitted verdict is right, graded again it is wrong'
result "dave: the verdict he changed is caught (graded again against the submitted result)" $?
row erin exercises 9 | grep -q ',right,right,true,,,true,sim,'
result "erin: her own transpose runs again, correct, and meets the goal" $?
row frank exercises 9 | grep -q ',right,wrong,false,,,true,sim,.*graded again it is wrong'
result "frank: the skeleton he handed in runs again and does not meet the goal" $?
row alice coalescing 1 | grep -q ',prediction,.*,8,0,,,predicted,,,0,'
result "a prediction: what was predicted and its gap, never right or wrong" $?

"$warplab" --sim -e "
  local d = debug.getregistry()['warplab.core'].json.decode(io.open('$tmp/clean/grades.json'):read('a'))
  local q2
  for _, q in ipairs(d.questions) do if q.lab == 'coalescing' and q.step == 2 then q2 = q end end
  print(d.format, d.version, d.submissions, #d.student_names, #d.rows, #d.students, q2.students, q2.first_try_rate,
        q2.wrong_answers[1].answer, q2.wrong_answers[1].count)" > "$tmp/json.out" 2>&1
grep -Eq "^warplab-grades	1	6	6	[0-9]+	6	4	0.5	5	2$" "$tmp/json.out"
result "grades.json: the class, and per question the first-try rate and the most common wrong answer" $?
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
    [ "$(grep -o '<td>frank</td>' "$tmp/dom.html" | wc -l)" = 1 ]
  result "Chromium loads the report: the bars of both charts, the students' table" $?
  if command -v pngtopnm > /dev/null && command -v pnmtoplainpnm > /dev/null; then
    timeout 60 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --hide-scrollbars \
      --disable-background-networking --disable-component-update --disable-sync --user-data-dir="$tmp/profile" \
      --window-size=1000,1600 --screenshot="$tmp/report.png" "file://$html" 2>> "$tmp/browser.log"
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

"$warplab" --sim --grade "$tmp/empty-nothing" > "$tmp/out" 2>&1
[ $? = 1 ] && grep -q "no submissions under $tmp/empty-nothing" "$tmp/out"
result "--grade of a folder without submissions: one line, exit 1" $?
"$warplab" --sim --report "$tmp/r" -e 1 > "$tmp/out" 2>&1
[ $? = 2 ] && grep -q -- "--report and --slurm go with --grade DIR" "$tmp/out"
result "--report without --grade is a usage error" $?

tap_done
