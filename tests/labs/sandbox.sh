#!/bin/sh
# sandbox.sh — hostile labs (tests/labs/hostile/*.lua), each of which must be
# contained: no command runs, the host's tables stay the host's, budgets that
# lab code cannot catch (pcall, xpcall, Ctrl-C, work done in C, memory), the
# student's results unchanged by answer functions, nothing that drives the
# terminal, and the code shown is the code run. Issue #28: --check-lab runs
# a goal's solution in the sandbox; padding that hides a payload is shown
# as a count; a lab cannot read or replace the student's kernels, and lab
# files keep their kernels apart; :labs shows file names without controls;
# a lab's inf, table or error(r) is one line naming what it did wrong.
warplab=${WARPLAB:-./warplab}
hostile=$(cd "${srcdir:-.}/tests/labs/hostile" && pwd)   # absolute: the labs run from a temporary folder
kernels=$(cd "${srcdir:-.}/tests/compile/hostile" && pwd)   # hostile kernel sources, the compile tests'
. "${srcdir:-.}/tests/lib/tap.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export XDG_DATA_HOME="$tmp/data" XDG_STATE_HOME="$tmp/state"

# batch LAB [ANSWERS]: runs a hostile lab in batch (in $tmp, at most 60 s); output in $tmp/LAB.out, status in $tmp/LAB.status.
batch() {
  printf '%s\n' "${2:-}" > "$tmp/$1.answers"
  (cd "$tmp" && timeout 180 "$warplab" --sim --lab "$hostile/$1.lua" --answers "$tmp/$1.answers" > "$tmp/$1.out" 2>&1
   echo $? > "$tmp/$1.status")
  echo "#   $1: exit $(cat "$tmp/$1.status"), $(grep -m1 -e 'error' -e 'warplab:' "$tmp/$1.out" | cut -c1-100)"
}
status_of() { cat "$tmp/$1.status"; }

batch shell
[ ! -e "$tmp/ESCAPED" ] && grep -q "global 'os'" "$tmp/shell.out"
result "an experiment that runs a command in batch mode runs nothing and says why" $?

batch modules
grep -q "^body reached: nothing" "$tmp/modules.out" && grep -q "^experiment reached: nil nil" "$tmp/modules.out"
result "a lab reaches neither require nor package, so none of warplab's own modules (warplab.*)" $?

batch carriage
grep -q "print('hidden ran')\\\\rlaunch" "$tmp/carriage.out" && ! grep -q "$(printf '\r')" "$tmp/carriage.out" &&
  grep -q "^hidden ran" "$tmp/carriage.out"
result "an experiment's carriage return is shown as \\r, and what is shown is what runs" $?

batch tables 32
[ "$(status_of tables)" = 0 ] && ! grep -q PWNED "$tmp/tables.out" && grep -q "13% useful" "$tmp/tables.out"
result "a lab that replaces string.rep, string.format, math.floor and table.concat changes only its own copies" $?

batch methods
[ "$(status_of methods)" = 0 ] && grep -q "100% useful" "$tmp/methods.out" && grep -q "Lab finished" "$tmp/methods.out"
result "a looping string.rep of the lab's own never reaches the host's saves or printing" $?

for lab in catch xcatch pattern rep; do
  batch $lab
  [ "$(status_of $lab)" = 1 ] && grep -q "ran too long" "$tmp/$lab.out"
  status=$?   # before the name's $(...) resets $?
  result "budget: $(sed -n 's/^-- //p' "$hostile/$lab.lua" | head -1)" $status
done

for lab in memory; do
  batch $lab
  [ "$(status_of $lab)" = 1 ] && grep -q "more than 256 MiB" "$tmp/$lab.out"
  status=$?
  result "memory cap: $(sed -n 's/^-- //p' "$hostile/$lab.lua" | head -1)" $status
done

# Ctrl-C while the lab's pcall would catch it (SIGINT from here; the shell runs in the background).
(cd "$tmp" && exec "$warplab" --sim --lab "$hostile/interrupt.lua" --answers /dev/null > "$tmp/interrupt.out" 2>&1) &
pid=$!
sleep 2
kill -INT $pid
stopped=no
for tick in 1 2 3 4 5 6 7 8 9 10; do
  kill -0 $pid 2>/dev/null || { stopped=yes; break; }
  sleep 1
done
[ $stopped = yes ] || kill -9 $pid
wait $pid
interrupted=$?
echo "#   interrupt: stopped=$stopped exit $interrupted, $(head -1 "$tmp/interrupt.out")"
[ $stopped = yes ] && [ $interrupted = 1 ] && grep -q "interrupted!" "$tmp/interrupt.out"
result "Ctrl-C ends lab code that catches errors in a loop of launches" $?

printf '4\n' > "$tmp/rewrite.answers"
(cd "$tmp" && timeout 60 "$warplab" --sim -e "
  local core = debug.getregistry()['warplab.core']
  local right = core.labs.batch('$hostile/rewrite.lua', '$tmp/rewrite.answers')
  local r = core.last_result()
  print(right, r.kernel, r.params.n, r.load.sectors_per_request, rawget(_G, 'r') == r)" > "$tmp/rewrite.out" 2>&1)
tail -1 "$tmp/rewrite.out" | grep -q "^true	copy	1024	4.0	true$"
result "an answer function sees a copy: the student's result and their r are unchanged" $?

batch escapes 1
esc=$(printf '\033') bel=$(printf '\007') csi=$(printf '\302\233')
! grep -q -e "$esc" -e "$bel" -e "$csi" "$tmp/escapes.out" && grep -q "clear.*screen" "$tmp/escapes.out" &&
  grep -q "$(printf '\357\277\275')" "$tmp/escapes.out" && grep -q "Correct" "$tmp/escapes.out"
result "lab text, titles, questions, hints and print() reach the terminal without escapes; bad UTF-8 shows as U+FFFD" $?

(cd "$tmp" && timeout 60 "$warplab" --sim -e "
  local core = debug.getregistry()['warplab.core']
  core.labs.batch('$hostile/hand-over.lua', '/dev/null')
  print(type(launch), type(print), type(string.rep), type(config), kept, r)" > "$tmp/hand-over.out" 2>&1)
tail -1 "$tmp/hand-over.out" | grep -q "^function	function	function	function	42	1$"
result "an experiment's variables reach the student, but never over their functions or libraries" $?

batch bad-fields
[ "$(status_of bad-fields)" = 1 ] && grep -q "lab bad-fields, step 2: 'run' must be Lua code" "$tmp/bad-fields.out"
result "a step whose experiment is not code: one line naming the step and field" $?

# after LAB CODE: runs the hostile LAB in batch, then CODE as the student's (output in $tmp/LAB.after).
after() {
  (cd "$tmp" && timeout 120 "$warplab" --sim -e "
    local core = debug.getregistry()['warplab.core']
    core.labs.batch('$hostile/$1.lua', '$tmp/$1.answers')
    $2" > "$tmp/$1.after" 2>&1)
}

printf '\n' > "$tmp/metatable.answers"
after metatable "s = sweep('copy', {n = pow2(10, 11)}); print(s); print('sectors', s[1].load.sectors_per_request)"
! grep -q -e "$esc" -e "$bel" "$tmp/metatable.after" && grep -q "^sectors	4.0$" "$tmp/metatable.after"
result "a lab cannot reach (and plant code in) what every later results list shares" $?

batch c-loops
[ "$(grep -c "step [1-6]: the lab's code ran too long" "$tmp/c-loops.out")" = 6 ] && grep -q "Lab finished" "$tmp/c-loops.out"
result "loops inside C are charged: table.move, string.rep of \"\", %b, sorting and comparing long strings, select" $?

batch huge-text
[ "$(status_of huge-text)" = 1 ] && grep -q "step 1: 'text' must be text (a string or {en=, zh=}, at most 64 KiB)" "$tmp/huge-text.out"
result "a step text too long to show is refused in one line, before warplab wraps it" $?

batch memory-steps
grep -q "step [2-4]: the lab's code needs more than 256 MiB of memory" "$tmp/memory-steps.out" &&
  grep -q "Lab finished" "$tmp/memory-steps.out"
result "the memory cap holds for the whole lab, not each call: memory kept from step to step counts" $?

printf '\n' > "$tmp/output.answers"
after output "print(r); print(r.model.limit)"
! grep -q -e "$esc" -e "$bel" -e "$csi" "$tmp/output.after" &&
  [ "$(tr -cd '\000' < "$tmp/output.after" | wc -c)" = 0 ] && grep -q "limited by \[2J" "$tmp/output.after"
result "what an experiment returns, and the result it hands the student, reach the terminal without controls" $?

printf '4\n' > "$tmp/forge.answers"
after forge "print('last', core.last_result().kernel, core.last_result().load.sectors_per_request)"
grep -q "^last	copy	4.0$" "$tmp/forge.after" && grep -q "Correct" "$tmp/forge.after"
result "an answer function that launches for itself does not replace the student's last result" $?

"$warplab" --sim -e "
  local labs = debug.getregistry()['warplab.core'].labs
  for _, name in ipairs({ 'tour\\0x', '/etc/passwd\\0.lua' }) do print(pcall(labs.open, name)) end" > "$tmp/nul.out" 2>&1
[ "$(grep -c "^false	bad lab name (a name or a .lua file expected, got a name with a NUL byte)$" "$tmp/nul.out")" = 2 ]
result "a lab name with a NUL byte is refused, never read as the name before it" $?

# --- issue #28: what a lab supplies runs in the sandbox, in every mode -----------

(cd "$tmp" && timeout 120 "$warplab" --sim --check-lab "$hostile/solution-escape.lua" > "$tmp/solution-escape.out" 2>&1)
[ ! -e "$tmp/SOLUTION_ESCAPED" ] &&
  grep -q "step 1, ask.solution: the lab's own solution fails: .*(global 'os')" "$tmp/solution-escape.out"
result "--check-lab runs a goal's solution as lab code, in the sandbox: no command runs, the failure is a finding" $?

batch padded-history
grep -q '^> r = launch("copy", {n = 1024})␠.180; os.execute("touch HISTORY_ESCAPED")$' "$tmp/padded-history.out" &&
  [ ! -e "$tmp/HISTORY_ESCAPED" ] && grep -q "(global 'os')" "$tmp/padded-history.out"
result "an experiment padded with 180 spaces is shown with the padding counted and the payload beside it" $?

"$warplab" --sim -e "print(require('warplab.lab_text').visible('a\\r\\n\\n\\n\\n\\nb' .. string.rep('\\t', 20) .. 'c\\u{200B}\\u{A0}d\\n' ..
  'print(\\'ok\\u{3164}\\u{2800}\\u{AD}\\u{E0020}\\u{FE0F}\\') -- 你好'))" > "$tmp/visible.out" 2>&1
[ "$(sed -n 1p "$tmp/visible.out")" = 'a\r' ] && sed -n 2p "$tmp/visible.out" | grep -q '^␤.4$' &&
  sed -n 3p "$tmp/visible.out" | grep -q '^b␉.20c\\u{200B}\\u{A0}d$' &&
  [ "$(sed -n 4p "$tmp/visible.out")" = "print('ok\\u{3164}\\u{2800}\\u{AD}\\u{E0020}\\u{FE0F}') -- 你好" ]
result "code is shown with runs of empty lines, long padding and blank look-alikes (fillers, soft hyphens, tags too) made visible; other text as written" $?

# The student declares kernels 'stolen' and 'mine', then runs the kernel-theft lab in batch.
cat > "$tmp/theft.lua" <<LUA
local core = debug.getregistry()['warplab.core']
local function mine(name)
  return kernel { name = name, source = 'extern "C" __global__ void ' .. name .. [[(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 7.0f;   // STUDENT_SECRET
}
]], params = { n = 1024 }, buffers = { out = { type = "float", count = "n", output = true } },
    args = { "out", "n" }, grid = 4, block = 256 }
end
mine("stolen"); mine("mine")
core.labs.batch('$hostile/kernel-theft.lua', '/dev/null')
print("mine kept: " .. tostring(require[[warplab.kernel]].kernel_source("mine"):find("STUDENT_SECRET", 1, true) ~= nil))
LUA
(cd "$tmp" && timeout 120 "$warplab" --sim "$tmp/theft.lua" > "$tmp/theft.out" 2>&1)
! grep -q -e STUDENT_SECRET -e "^LISTED stolen" -e "^STOLEN" "$tmp/theft.out" &&
  grep -q "^REFUSED .*kernel 'stolen' is the student's own: a lab cannot read it" "$tmp/theft.out"
result "a lab cannot read a kernel the student declared (info().source), nor see it in kernels()" $?
grep -q "step 2: its kernel could not be declared: 'mine' is the name of a kernel you declared: yours stays" "$tmp/theft.out" &&
  grep -q "^mine kept: true$" "$tmp/theft.out"
result "a lab's kernel named as one of the student's is refused in one line, and the student's stays" $?

mkdir -p "$tmp/x/a"; cp "$hostile/twin-kernel.lua" "$tmp/x/a/b.lua"; cp "$hostile/twin-kernel.lua" "$tmp/x/a_b.lua"
cat > "$tmp/edited.cu" <<'CUDA'
extern "C" __global__ void twin(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 3.0f;   // EDITED
}
CUDA
(cd "$tmp" && timeout 120 "$warplab" --sim -e "
  local core = debug.getregistry()['warplab.core']
  core.capture(true)
  core.labs.open('$tmp/x/a/b.lua'); edit('twin', '$tmp/edited.cu')
  core.labs.open('$tmp/x/a_b.lua'); local a_b = require[[warplab.kernel]].kernel_source('twin')
  core.labs.open('$tmp/x/a/b.lua'); local b = require[[warplab.kernel]].kernel_source('twin')
  core.capture(false)
  print('a_b skeleton: ' .. tostring(a_b:find('SKELETON', 1, true) ~= nil), 'b edited: ' .. tostring(b:find('EDITED', 1, true) ~= nil))" \
  > "$tmp/twin.out" 2>&1)
grep -q "^a_b skeleton: true	b edited: true$" "$tmp/twin.out" && [ "$(ls "$XDG_DATA_HOME/warplab/kernels" | wc -l)" = 2 ]
result "labs /x/a/b.lua and /x/a_b.lua keep the student's kernels in folders of their own" $?

named="$(printf 'x\033]0;T\007\033[31m')"
mkdir -p "$tmp/named"; cp "$hostile/plain-named.lua" "$tmp/named/$named.lua"
WARPLAB_LABS_PATH="$tmp/named" "$warplab" --sim -e "debug.getregistry()['warplab.core'].labs.list()" > "$tmp/named.out" 2>&1
! grep -q -e "$esc" -e "$bel" "$tmp/named.out" && grep -q '^  x\\27\]0;T\\a\\27\[31m ' "$tmp/named.out" &&
  grep -q 'named/x\\27\]0;T\\a\\27\[31m\.lua' "$tmp/named.out"
result ":labs shows a lab file's name and path with control characters made visible" $?

batch measure-inf "$(printf '1\n1')"
grep -q "step 1: ask.measure must return a finite number .*, got inf$" "$tmp/measure-inf.out" &&
  grep -q "step 2: ask.measure must return a finite number .*, got string$" "$tmp/measure-inf.out" &&
  ! grep -q -e "prelude:" -e "result:[0-9]" -e "card:[0-9]" -e "values:[0-9]" -e "labs:" "$tmp/measure-inf.out" && grep -q "Lab finished" "$tmp/measure-inf.out"
result "a measure that returns inf or a string: one line naming ask.measure, and the lab goes on" $?

batch answer-table 4
(cd "$tmp" && timeout 60 "$warplab" --sim --check-lab "$hostile/answer-table.lua" > "$tmp/answer-table.check" 2>&1)
grep -q "step 1: ask.answer must give a finite number, got table$" "$tmp/answer-table.out" &&
  grep -q "^lab answer-table, step 1, ask.answer: ask.answer must give a finite number, got table$" "$tmp/answer-table.check" &&
  ! grep -q -e "prelude:" -e "result:[0-9]" -e "card:[0-9]" -e "values:[0-9]" -e "labs:" -e "check stopped" "$tmp/answer-table.out" "$tmp/answer-table.check"
result "an answer function that returns a table: one line naming ask.answer, in batch and in --check-lab" $?

batch error-card 4
[ "$(grep -c "the lab raised an error whose value is a table, not a message" "$tmp/error-card.out")" = 2 ] &&
  ! grep -q "sectors/request" "$tmp/error-card.out"
result "error(r) with a result in an experiment or an answer function: one short line, not a result card" $?

# Budgets and caps (issue 28, finding 6): what lab code causes counts, not
# only what it runs. Each case stopped for minutes, or took the memory,
# before; the limits are generous (a loaded machine), never timings.
# The cases below run under a 32 GiB address-space limit, so that a cap that
# failed shows as a refused allocation rather than a machine out of memory;
# not in a build with AddressSanitizer, whose shadow alone needs terabytes.
sanitized=$("$warplab" --sim -e "print(debug.getregistry()['warplab.core'].compile_memory_limited and 'no' or 'yes')")
limit_address_space() { [ "$sanitized" = yes ] || ulimit -v 33554432; }
# student CODE: runs CODE as the student at the prompt, output in $tmp/student.out (at most 120 s).
student() {
  (cd "$tmp" && limit_address_space && timeout 120 "$warplab" --sim -e "local core = debug.getregistry()['warplab.core']; $1" \
     > "$tmp/student.out" 2>&1; echo $? > "$tmp/student.status")
}
mkdir -p "$tmp/labs-path" && cp "$hostile/budget-body.lua" "$tmp/labs-path/"
(cd "$tmp" && WARPLAB_LABS_PATH="$tmp/labs-path" timeout 120 "$warplab" --sim -e "
  debug.getregistry()['warplab.core'].labs.list()" > "$tmp/labs-list.out" 2>&1)
listed=$?
batch budget-body
[ $listed = 0 ] && grep -q "budget-body  (does not load)" "$tmp/labs-list.out" &&
  grep -q "lab budget-body: the lab's launches ran too long (over the 1 s of CPU time" "$tmp/budget-body.out"
result "budget: a lab body's launch (6 minutes of model) is stopped at the body's small budget: :labs lists the lab at once" $?

batch budget-launches
[ "$(grep -c "step [12]: the lab's launches ran too long (over the 20 s of CPU time" "$tmp/budget-launches.out")" = 2 ] &&
  grep -q "Lab finished" "$tmp/budget-launches.out"
budget_launches=$?
[ $budget_launches = 0 ] || grep -v "^ " "$tmp/budget-launches.out" | tail -12 | sed 's/^/#   /'   # for a run no one watches (CI)
result "budget: launches count against their step, a loop of them and one long launch stopped mid-way" $budget_launches

(cd "$tmp" && timeout 600 "$warplab" --sim --check-lab "$hostile/budget-launches.lua" > "$tmp/check-budget.out" 2>&1)
[ $? = 1 ] && grep -q "step 1, run: .*the lab's launches ran too long" "$tmp/check-budget.out" &&
  grep -q "^note: the lab ran past its budget under h200: not checked under the other profiles" "$tmp/check-budget.out"
result "budget: --check-lab of a lab whose launches run for ever ends, after one profile" $?

student "core.labs.open('$hostile/budget-fill.lua'); print('fill', pcall(launch, 'spinfill'))"
grep -q "^fill	false	.*buffers.in.fill([0-9]*) failed: the lab's code ran too long" "$tmp/student.out"
result "budget: a lab kernel's fill function draws on one budget for the launch, not a fresh one a call" $?

(limit_address_space; batch budget-memory)
student "core.labs.open('$hostile/budget-memory.lua'); print('prompt', pcall(launch, 'bigfour', {n = 2^32}))"
grep -q "step 1: .*the model's launch of 'bigfour' needs 13.5 GB of buffers; the lab's memory cap is 256 MiB" "$tmp/budget-memory.out" &&
  grep -q "^prompt	false	.*the model's launch of 'bigfour' needs 215.6 GB of buffers; the shell's memory cap is" "$tmp/student.out"
result "memory cap: a launch's buffers are checked before they are made, against the lab's cap or the shell's" $?

batch budget-shape
grep -q "step 1: .*'hugeshared': shared (dynamic shared memory a block, in bytes) = 2147483647, over the limit of NVIDIA H200 (modelled): 232448" \
  "$tmp/budget-shape.out" && grep -q "step 2: .*'deepblock': block.z = 128, over the limit of NVIDIA H200 (modelled): 64" "$tmp/budget-shape.out"
result "shape: shared memory and block sizes past the device's limits are one line naming the argument and the limit" $?

truncate -s 3G "$tmp/huge.lua"
(cd "$tmp" && limit_address_space && timeout 60 "$warplab" --sim --lab "$tmp/huge.lua" --answers /dev/null > "$tmp/huge.out" 2>&1)
grep -q "cannot read lab $tmp/huge.lua: is 3.2 GB, over the limit of 1.0 MB" "$tmp/huge.out"
result "a lab file over 1 MiB is refused before it is read" $?

student "kernel { name = 'budget_spin', file = '$kernels/budget-spin.cu', params = { n = 64 },
    buffers = { out = { type = 'float', count = function(p) return p.n + 1 end, fill = 'zero', output = true } },
    args = { 'out', 'n' }, grid = 1, block = 64 }
  kernel { name = 'budget_null', file = '$kernels/budget-null.cu', params = { n = 64 },
    buffers = { table = { type = 'ulonglong', count = 1, fill = 'zero' } }, args = { 'table', 'n' }, grid = 1, block = 64 }
  print('spin', pcall(launch, 'budget_spin')); print('null', pcall(launch, 'budget_null'))"
grep -q "^spin	false	.*kernel 'budget_spin' ran over 33,587,200 warp-instructions (a loop that never ends?)" "$tmp/student.out" &&
  grep -Eq "^null	false	.*(st|STG\.E[.A-Z0-9]* \(source line [0-9]+\)): kernel 'budget_null' stored to global address 0x0, which is in no buffer \(a null pointer\?\)" \
    "$tmp/student.out"
result "emulator: one spinning lane stops at the warp-instruction budget; a store through a null pointer says so (naming the PTX or SASS instruction)" $?

# A lab kernel with 5,000 params written out in the file: the declaration wrote
# past its arrays by the count it read (heap corruption, a crash), before the
# count was checked; now it is one line.
{
  printf 'lab { title = "many params" }\nstep { text = "x", run = [[print("declared")]], kernel = { name = "many", params = { n = 1024'
  i=0; while [ $i -lt 4999 ]; do printf ', p%d = %d' $i $i; i=$((i + 1)); done
  printf ' }, skeleton = [[extern "C" __global__ void many(float *out, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = 1.0f; }]],\n'
  printf '  buffers = { out = { type = "float", count = "n", output = true } }, args = { "out", "n" }, grid = 4, block = 256 } }\n'
} > "$tmp/many-params.lua"
(cd "$tmp" && timeout 120 "$warplab" --sim --lab "$tmp/many-params.lua" --answers /dev/null > "$tmp/many-params.out" 2>&1; echo $? > "$tmp/many-params.status")
[ "$(cat "$tmp/many-params.status")" = 0 ] && grep -q "its kernel could not be declared: kernel 'many': at most 24 params and buffers together" "$tmp/many-params.out" &&
  grep -q "^declared" "$tmp/many-params.out"
result "a lab kernel with 5,000 params is one line, and the lab goes on" $?

tap_done
