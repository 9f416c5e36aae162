#!/bin/sh
# labs.sh — every lab runs start to finish in batch mode with its answers
# (tests/labs/answers/NAME.txt), in English and in Chinese, and all checks pass; a
# wrong answer is rejected with the step's first hint; lab scripts are
# sandboxed; the progress file survives kill -9 in the middle of saves.
warplab=${WARPLAB:-./warplab}
answers=${srcdir:-.}/tests/labs/answers
. "${srcdir:-.}/tests/lib/tap.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

for file in "$answers"/*.txt; do
  lab=$(basename "$file" .txt)
  for lang in en zh; do
    width=$([ $lang = en ] && echo 60 || echo 80)   # tests/shell/wrap.sh runs the other two
    COLUMNS=$width XDG_DATA_HOME="$tmp/data-$lab-$lang" "$warplab" --sim --lang "$lang" --lab "$lab" --answers "$file" \
      > "$tmp/out" 2>&1
    status=$?
    result "lab $lab ($lang) runs in batch and every answer is right" $status
    [ $status = 0 ] || tail -20 "$tmp/out" | sed 's/^/#   /'
    fits "$tmp/out" $width "lab $lab ($lang): every line"
    if [ $lang = zh ]; then   # at 80 columns no kernel source wraps, and its comments may quote code their own way
      ! grep '`' "$tmp/out" | grep -qv '^ *//'
      result "lab $lab ($lang): no code mark (a backquote) is shown outside a kernel's source" $?
    fi
  done
done

# A wrong first answer: rejected, with the first hint, and the run fails.
{ echo 5; sed 1d "$answers/tour.txt"; } > "$tmp/wrong.txt"
XDG_DATA_HOME="$tmp/data-wrong" "$warplab" --sim --lab tour --answers "$tmp/wrong.txt" > "$tmp/out" 2>&1
status=$?
[ $status = 1 ] && grep -q "Not quite (attempt 1)" "$tmp/out" && grep -q "starts with 'loads'" "$tmp/out"
result "a wrong answer is rejected with the first hint, and the batch run fails" $?

# The sandbox: no os, no io, no load of binary chunks, no runaway loops.
write_lab() { printf 'lab { title = "t" }\n%s\nstep { text = "x" }\n' "$2" > "$tmp/$1.lua"; }
write_lab shell 'os.execute("touch '"$tmp"'/escaped")'
write_lab reads 'local f = io.open("/etc/passwd")'
write_lab binary 'load(string.dump(function() end))'
write_lab forever 'while true do end'
for lab in shell reads binary forever; do
  timeout 60 "$warplab" --sim --lab "$tmp/$lab.lua" --answers /dev/null > "$tmp/out-$lab" 2>&1
  echo "#   $lab: $(head -1 "$tmp/out-$lab")"
done
[ ! -e "$tmp/escaped" ] && grep -q "global 'os'" "$tmp/out-shell"
result "a lab that calls os.execute fails with a clear message, and nothing ran" $?
grep -q "global 'io'" "$tmp/out-reads"
result "a lab that opens a file fails with a clear message" $?
grep -q "global 'load'" "$tmp/out-binary"
result "a lab cannot load chunks" $?
grep -q "ran too long" "$tmp/out-forever"
result "a lab that loops forever is stopped" $?

# A wrong prediction is no wrong answer: no verdict, the gap to the run, not counted.
{ echo 17; sed 1d "$answers/coalescing.txt"; } > "$tmp/predict.txt"
XDG_DATA_HOME="$tmp/data-predict" "$warplab" --sim --lab coalescing --answers "$tmp/predict.txt" > "$tmp/out" 2>&1
status=$?
[ $status = 0 ] && sed -n '/(prediction)/,/^Correct\.\|^──\|^-- /p' "$tmp/out" | grep -q "53%" &&
  ! sed -n '/(prediction)/,/^──\|^-- /p' "$tmp/out" | grep -q -e "^Correct" -e "Not quite" &&
  grep -q "4 of 4 questions right on the first try" "$tmp/out" && grep -q "Predictions: 0 of 2 within 10%" "$tmp/out"
result "a wrong prediction in batch: no verdict, the gap to the run, and the summary does not count it" $?

# working-set's goal asks for a warm L2: a cold launch does not reach it.
sed 's/, cache = "warm"})$/})/' "$answers/working-set.txt" > "$tmp/cold.txt"
XDG_DATA_HOME="$tmp/data-cold" "$warplab" --sim --lab working-set --answers "$tmp/cold.txt" > "$tmp/out" 2>&1
status=$?
[ $status = 1 ] && grep -q 'n = 10324448})$' "$tmp/out" && grep -q "Not quite (attempt 1)" "$tmp/out"
result "working-set's keep-it-warm goal is not met by a cold launch" $?

# A batch run leaves the student's own progress alone, and a lab file called
# tour.lua elsewhere has a record of its own, not the built-in tour's.
XDG_DATA_HOME="$tmp/own" "$warplab" --sim -e "
  local labs = debug.getregistry()['warplab.core'].labs
  labs.open('tour'); for i = 1, 4 do labs.next() end" > /dev/null 2>&1   # unanswered: each :next twice
before=$(cat "$tmp/own/warplab/progress.json")
XDG_DATA_HOME="$tmp/own" "$warplab" --sim --lab tour --answers "$answers/tour.txt" > "$tmp/out" 2>&1
[ "$(cat "$tmp/own/warplab/progress.json")" = "$before" ] && grep -q '"step": 3' "$tmp/own/warplab/progress.json"
result "a batch run does not touch the student's progress" $?
mkdir -p "$tmp/other"
cp "${srcdir:-.}/labs/tour.lua" "$tmp/other/tour.lua"
XDG_DATA_HOME="$tmp/own" "$warplab" --sim -e "
  local core = debug.getregistry()['warplab.core']
  core.labs.open('$tmp/other/tour.lua'); core.labs.next(); core.labs.next()
  local all = require[[warplab.progress]].all()
  local real = core.realpath('$tmp/other/tour.lua')
  print(all.tour.step, all['file:' .. real].step)" > "$tmp/out" 2>&1
tail -1 "$tmp/out" | grep -q "^3	2$"
result "a lab file named tour.lua keeps its progress apart from the built-in tour" $?

# kill -9 while progress is being saved, over and over: the file is always whole.
survived=0
for round in 1 2 3 4 5; do
  XDG_DATA_HOME="$tmp/kill" "$warplab" --sim -e '
    local labs = debug.getregistry()["warplab.core"].labs
    labs.open("tour")
    for i = 1, 1e7 do labs.next(); labs.back() end' > /dev/null 2>&1 &
  pid=$!
  sleep 0.$((3 + round))
  kill -9 $pid 2>/dev/null
  wait $pid 2>/dev/null
  "$warplab" --sim -e "
    local json = require[[warplab.json]]
    local data = json.decode(io.open('$tmp/kill/warplab/progress.json'):read('a'))
    os.exit(data and data.labs and data.labs.tour and 0 or 1)" 2>/dev/null && survived=$((survived + 1))
done
[ $survived = 5 ]
result "progress.json is whole after kill -9 during saves (5 of 5 rounds: $survived)" $?

# A lab's text names the device in use: ${sm_threads} is the T4's 1,024 under
# its profile and the H200's 2,048 under the default; every ${name} the
# built-in labs use is one the shell knows.
facts='local labs = require "warplab.lab_text"
io.write(labs.text_of("${device}: ${sm_threads} threads, ${sm_blocks} blocks, ${sm_shared_kib} KB"), "\n")
local src = srcdir .. "/labs/"
for _, name in ipairs(debug.getregistry()["warplab.core"].lab_names()) do
  local file = io.open(src .. name .. ".lua"); local text = file:read("a"); file:close()
  for fact in text:gmatch("%${([%w_]+)}") do
    if labs.text_of("${" .. fact .. "}") == "${" .. fact .. "}" then io.write("unknown fact ", fact, " in ", name, "\n") end
  end
end'
out=$("$warplab" --sim --profile t4 -e "srcdir = '${srcdir:-.}'" -e "$facts" 2>&1)
[ "$(printf '%s' "$out" | head -1)" = "Tesla T4: 1,024 threads, 16 blocks, 64 KB" ] && ! printf '%s' "$out" | grep -q "unknown fact"
status=$?
result "lab texts name the device's facts: the T4's under --profile t4, and only facts the shell knows" $status
[ $status = 0 ] || printf '%s\n' "$out" | sed 's/^/#   /'
out=$("$warplab" --sim -e "srcdir = '${srcdir:-.}'" -e "$facts" 2>&1 | head -1)
[ "$out" = "NVIDIA H200: 2,048 threads, 32 blocks, 228 KB" ]
result "... and the H200's by default" $?

tap_done
