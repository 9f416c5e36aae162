#!/bin/sh
# grade.sh — how long warplab --grade takes for a class of 200 submissions
# on the model (issue 30; docs/performance.md, "Grading"): 150 of the
# coalescing lab (a batch run's file, each student's answers varied) and 50
# of tests/labs/grading/drawn.lua, each at the student's own random stride, their
# launches in the file as the student's run gave them. Every launch is run
# again, every answer judged against the re-run, every pair compared for copies.
#   bench/grade.sh [WARPLAB]       (run from the source tree; default ./warplab)
set -eu
warplab=${1:-./warplab}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export XDG_DATA_HOME="$tmp/data"
drawn=$(pwd)/tests/labs/grading/drawn.lua
"$warplab" --sim --student seed --lab coalescing --answers tests/labs/answers/coalescing.txt --submit "$tmp/seed.json" > /dev/null
mkdir -p "$tmp/class"
"$warplab" --sim -e "
  local core = debug.getregistry()['warplab.core']
  local json, labs = core.json, core.labs
  local function write(name, d) assert(core.write_file('$tmp/class/' .. name, json.encode(d, 2))) end
  -- 150 of coalescing: the seed's file, each student's step 2 answered 8 or (one in four) 5
  local seed = json.decode(io.open('$tmp/seed.json'):read('a'))
  for i = 1, 150 do
    local d = json.decode(io.open('$tmp/seed.json'):read('a'))
    d.student = string.format('c%03d', i)
    if i % 4 == 0 then d.steps[2].attempts[1].answer = '5'; d.steps[2].attempts[1].verdict = 'wrong' end
    for _, s in ipairs(d.steps) do if s.result then s.result.wall_ms = i end end   -- each student's own run
    write('coalescing-' .. d.student .. '.json', d)
  end
  -- 50 of drawn: each student's stride, the launch as it gives it, answered right
  local definition = labs.grading.find_lab('$drawn')
  local launched = {}
  for i = 1, 50 do
    local student = string.format('d%03d', i)
    local stride = labs.student_random('drawn', student)('stride', 2, 7)
    if not launched[stride] then
      local r = core.result_data(launch('strided', { stride = stride, n = 1 << 16 }))
      r.device = nil
      launched[stride] = r
    end
    local r = json.decode(json.encode(launched[stride]))
    r.wall_ms = i
    local function attempt(a) return { answer = tostring(a), verdict = 'right' } end
    write('drawn-' .. student .. '.json', {
      format = 'warplab-submission', version = 1, student = student, submitted = '2026-12-03T08:00:00Z',
      lab = { name = 'drawn', hash = definition.hash }, device = core.device_facts(),
      steps = { { step = 1, kind = 'question', attempts = { attempt(r.load.sectors_per_request) }, result = r },
                { step = 2, kind = 'question', attempts = { attempt(r.dram.read_bytes) }, result = r },
                { step = 3, kind = 'choice', attempts = { attempt('b') }, result = r } } })
  end"
count=$(ls "$tmp/class" | wc -l)
started=$(date +%s.%N)
"$warplab" --sim --grade "$tmp/class" --lab "$drawn" --report "$tmp/report" > "$tmp/out" 2> "$tmp/err" || true
ended=$(date +%s.%N)
cat "$tmp/out"
head -3 "$tmp/err"
echo "graded $count submissions in $(awk "BEGIN { printf \"%.1f\", $ended - $started }") s (target: under 30 s)"
