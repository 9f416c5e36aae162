#!/bin/sh
# submit.sh — submissions (docs/instructors.md, "Submissions"): a batch run
# with --submit writes one JSON file per student and lab whose fields are the
# documented ones; :submit gathers every session's attempts from the saved
# progress; the kernels the student wrote travel with it; a submission needs
# an ID, and a file that cannot be written is one line.
warplab=${WARPLAB:-./warplab}
srcdir=${srcdir:-.}
answers=$srcdir/tests/labs/answers
. "${srcdir:-.}/tests/lib/tap.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export XDG_DATA_HOME="$tmp/data"
mkdir -p "$tmp/class"

for lab in coalescing exercises; do
  "$warplab" --sim --student alice --lab $lab --answers "$answers/$lab.txt" --submit "$tmp/class" \
    > "$tmp/out-$lab" 2>&1
  status=$?
  [ $status = 0 ] && [ -s "$tmp/class/$lab-alice.json" ] &&
    grep -q "Submission written to $tmp/class/$lab-alice.json: .* questions right" "$tmp/out-$lab"
  result "--submit FOLDER writes $lab-alice.json after the batch run" $?
done

# The documented fields: the names in the first column of docs/instructors.md's two tables.
first_column() { sed -n "/^<!-- $1 -->/,/^<!-- end of $1 -->/p" "$srcdir/docs/instructors.md" |
                 sed -n 's/^| \([^|]*\) |.*/\1/p' | grep -o '`[a-z_]*`' | tr -d '`' | sort -u | tr '\n' ' '; }
top=$(first_column "submission fields")
step=$(first_column "submission step fields")
echo "# documented: $top / $step"

cat > "$tmp/layout.lua" <<LUA
local json = require[[warplab.json]]
local function set(words) local s = {} for w in words:gmatch("%S+") do s[w] = true end return s end
local top, step = set("$top"), set("$step")
local file = io.open(arg[1]) local d = json.decode(file:read("a")) file:close()
local problems = {}
local function problem(...) problems[#problems + 1] = string.format(...) end
for k in pairs(d) do if not top[k] then problem("undocumented field %s", k) end end
for k in pairs(top) do if d[k] == nil then problem("missing field %s", k) end end
if d.format ~= "warplab-submission" or d.version ~= 1 or d.student ~= "alice" then problem("format, version or student") end
if not tostring(d.lab.hash):match("^fnv1a64:%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x$") then problem("lab.hash %s", tostring(d.lab.hash)) end
if #d.steps ~= d.lab.steps then problem("%d steps, lab.steps %d", #d.steps, d.lab.steps) end
if not tostring(d.submitted):match("^%d%d%d%d%-%d%d%-%d%dT%d%d:%d%d:%d%dZ$") then problem("submitted %s", tostring(d.submitted)) end
local kernels, asked = 0, 0
for i, s in ipairs(d.steps) do
  for k in pairs(s) do if not step[k] then problem("step %d: undocumented field %s", i, k) end end
  if s.step ~= i then problem("step %d numbered %s", i, tostring(s.step)) end
  if s.kind and s.kind ~= "prediction" then
    asked = asked + 1
    local last = s.attempts[#s.attempts]
    if not (last and last.verdict == "right" and s.right and s.done) then problem("step %d: not right at its last attempt", i) end
    if s.kind ~= "goal" and s.expected == nil then problem("step %d: no expected value", i) end
    if s.result == nil or s.result.kernel == nil then problem("step %d: no result", i) end
  elseif s.kind == "prediction" and not (s.gap and s.predicted and s.measured) then
    problem("step %d: a prediction without its gap, prediction and run", i)
  end
  if s.kernel then
    kernels = kernels + 1
    if not tostring(s.kernel.source):find("__global__", 1, true) then problem("step %d: the kernel has no source", i) end
  end
end
if d.summary.questions ~= asked or d.summary.right ~= asked then problem("summary %d/%d of %d", d.summary.right, d.summary.questions, asked) end
print("kernels " .. kernels)
print(#problems == 0 and "layout ok" or table.concat(problems, "\n"))
LUA
for lab in coalescing exercises; do
  "$warplab" --sim "$tmp/layout.lua" "$tmp/class/$lab-alice.json" > "$tmp/layout-$lab" 2>&1
  grep -q "^layout ok" "$tmp/layout-$lab"
  result "$lab-alice.json has the documented fields, each answer right with what it was judged on" $?
  grep -q "^layout ok" "$tmp/layout-$lab" || sed 's/^/#   /' "$tmp/layout-$lab" | head -10
done
grep -q "^kernels 2$" "$tmp/layout-exercises"
result "the two kernels alice wrote in exercises travel with the submission" $?
grep -q '"source": ".*my_transpose.*(tx + ty) % TILE' "$tmp/class/exercises-alice.json"
result "... as she wrote them (her swizzled transpose, not the lab's solution)" $?

# Two sessions, one submission: a wrong attempt in the first, the right one later.
cat > "$tmp/two.lua" <<'LAB'
lab { title = { en = "Two sessions", zh = "两次会话" } }
step {
  text = { en = "Run it.", zh = "运行它。" }, run = [[r = launch("strided", {stride = 2, n = 4096}); r]],
  ask = { question = { en = "Load sectors per request?", zh = "每读请求几个扇区？" },
          answer = function(ctx) return ctx.result.load.sectors_per_request end },
  hint = { { en = "The loads line.", zh = "读取那一行。" } },
}
LAB
session() { "$warplab" --sim --student bob -e "local labs = debug.getregistry()['warplab.core'].labs; $1" > "$tmp/session" 2>&1; }
session "labs.open('$tmp/two.lua'); labs.run(); labs.answer('3')"
session "labs.open('$tmp/two.lua'); labs.run(); labs.answer('8'); labs.submit('$tmp/bob.json')"
"$warplab" --sim -e "
  local d = require[[warplab.json]].decode(io.open('$tmp/bob.json'):read('a'))
  local s = d.steps[1]
  print(#s.attempts, s.attempts[1].answer, s.attempts[1].verdict, s.attempts[2].answer, s.attempts[2].verdict,
        s.first_try, s.right, s.expected, s.result.load.sectors_per_request, d.summary.first_try)" > "$tmp/out" 2>&1
grep -Eq "^2	3	wrong	8	right	false	true	8	8(\.0)?	0$" "$tmp/out"
result ":submit gathers the attempts of every session from the saved progress, and the result they were judged on" $?
grep -q "^2	3	wrong	8	right" "$tmp/out" || sed 's/^/#   /' "$tmp/out"

"$warplab" --sim --lab coalescing --answers "$answers/coalescing.txt" --submit "$tmp/x.json" > "$tmp/out" 2>&1
[ $? = 1 ] && grep -q "a submission needs the student's ID: warplab --student ID, or WARPLAB_STUDENT=ID" "$tmp/out" &&
  [ ! -e "$tmp/x.json" ]
result "a submission without a student ID: one line saying how to give one, before the lab runs" $?
"$warplab" --sim --student carol --submit "$tmp/x.json" -e 1 > "$tmp/out" 2>&1
[ $? = 2 ] && grep -q -- "--submit goes with --lab NAME --answers FILE" "$tmp/out"
result "--submit without --lab and --answers is a usage error" $?
"$warplab" --sim --student carol --lab coalescing --answers "$answers/coalescing.txt" \
  --submit "$tmp/no/such/folder/c.json" > "$tmp/out" 2>&1
[ $? = 1 ] && grep -q "cannot write the submission $tmp/no/such/folder/c.json: " "$tmp/out"
result "a submission that cannot be written: one line with the reason" $?

tap_done
