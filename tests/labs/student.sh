#!/bin/sh
# student.sh — numbers of one's own: with --student ID (or $WARPLAB_STUDENT)
# a lab's random(key, ...) and ctx.random give the student's own numbers, the
# same for one student in every run, and the answers still come from the
# student's own result; a bad ID is a usage error.
warplab=${WARPLAB:-./warplab}
. "${srcdir:-.}/tests/lib/tap.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export XDG_DATA_HOME="$tmp/data"

cat > "$tmp/own.lua" <<'LAB'
lab { title = { en = "Own numbers", zh = "自己的数字" } }
step {
  text = { en = "Your own stride.", zh = "你自己的步长。" },
  run = [[r = launch("strided", {stride = random("stride", 2, 16), n = 1 << 14}); r]],
  ask = { question = { en = "Load sectors per request?", zh = "每读请求几个扇区？" },
          answer = function(ctx) return ctx.result.load.sectors_per_request end },
  hint = { { en = "The loads line.", zh = "读取那一行。" } },
}
step {
  text = { en = "And again, as the answer function sees it.", zh = "再来一次，按答案函数看到的。" },
  ask = { question = { en = "Your stride?", zh = "你的步长？" },
          answer = function(ctx) return ctx.random("stride", 2, 16) end },
  hint = { { en = "The card's stride.", zh = "卡片上的 stride。" } },
}
LAB

stride_of() {   # stride_of ID: the stride of that student's run (--student ID; "" for none)
  "$warplab" --sim ${1:+--student "$1"} -e "
    local labs = debug.getregistry()['warplab.core'].labs
    labs.open('$tmp/own.lua'); labs.run()" 2>&1 | sed -n 's/^strided .*stride=\([0-9]*\).*/\1/p' | head -1
}
alice=$(stride_of alice)
[ -n "$alice" ] && [ "$alice" = "$(stride_of alice)" ] && [ "$alice" -ge 2 ] && [ "$alice" -le 16 ]
result "one student gets the same stride in every run, within 2 to 16 (alice: $alice)" $?
strides=$(for id in alice bob carol dave erin frank; do stride_of $id; done | sort -u | wc -l)
[ "$strides" -ge 3 ]
result "six students get different strides ($strides distinct)" $?
[ "$(WARPLAB_STUDENT=alice stride_of "")" = "$alice" ]
result "\$WARPLAB_STUDENT is the same as --student" $?

"$warplab" --sim --student bob --check-lab "$tmp/own.lua" > "$tmp/out" 2>&1
result "--check-lab with a student: the answers come from the student's own run and numbers" $?
[ $? = 0 ] || sed 's/^/#   /' "$tmp/out" | head
bob=$(stride_of bob)
printf '%s\n%s\n' "$(awk -v s="$bob" 'BEGIN { print (s >= 8 ? 32 : 4 * s) }')" "$bob" > "$tmp/answers"
"$warplab" --sim --student bob --lab "$tmp/own.lua" --answers "$tmp/answers" > "$tmp/out" 2>&1
result "a batch run with bob's own answers passes (stride $bob)" $?
"$warplab" --sim --student alice --lab "$tmp/own.lua" --answers "$tmp/answers" > "$tmp/out" 2>&1
[ $? = 1 ] || [ "$alice" = "$bob" ]
result "... and bob's answers are not alice's (her stride is $alice)" $?

"$warplab" --student 'a b' -e 1 > "$tmp/out" 2>&1
[ $? = 2 ] && grep -q "^warplab: --student expects an ID of letters, digits" "$tmp/out"
result "--student with a space: a usage error naming the option" $?
WARPLAB_STUDENT=../up "$warplab" -e 1 > "$tmp/out" 2>&1
[ $? = 2 ] && grep -q "WARPLAB_STUDENT must be an ID" "$tmp/out"
result "\$WARPLAB_STUDENT that could name another folder: a usage error" $?
"$warplab" --sim -e "
  local r = require('warplab.lab_sandbox').student_random('x')
  for _, bad in ipairs({ function() return r({}) end, function() return r('k', 5, 2) end, function() return r('k', {}) end }) do
    local ok, why = pcall(bad); print(ok, why)
  end" > "$tmp/out" 2>&1
grep -q "the key must be a string or a whole number, got table" "$tmp/out" &&
  grep -q "m and n must be whole numbers with m <= n, got 5 and 2" "$tmp/out" && grep -q "the list is empty" "$tmp/out"
result "random() with a bad key, range or list: one line saying what it expects" $?

# One account, many students (a lab room's login): each one's kernel is theirs.
cat > "$tmp/writeit.lua" <<'LAB'
lab { title = { en = "Write it", zh = "写一写" } }
local FIXME = {
  name = "fixme",
  skeleton = [[extern "C" __global__ void fixme(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[(i * 32) % n];   // TODO: read in[i]
}
]],
  params = { n = 1 << 14 },
  buffers = { ["in"] = { type = "float", count = "n" }, out = { type = "float", count = "n", output = true } },
  args = { "in", "out", "n" }, grid = function(p) return p.n // 256 end, block = 256,
  reference = function(p, b) for i = 0, p.n - 1 do b.out[i] = b["in"][i] end end,
}
step {
  text = { en = "Make the loads coalesced.", zh = "让读取合并。" },
  kernel = FIXME,
  run = [[r = launch("fixme")]],
  ask = {
    goal = { en = "fixme: correct, 4 sectors per load request.", zh = "fixme：结果正确，每个读请求 4 个扇区。" },
    check = function(ctx) local r = ctx.result return r.kernel == "fixme" and r.correct == true and r.load.sectors_per_request == 4 end,
  },
}
step {
  text = { en = "Your kernel once more.", zh = "再运行一次你的核函数。" },
  kernel = FIXME,
  run = [[r = launch("fixme")]],
  ask = { question = { en = "Load sectors per request?", zh = "每个读请求几个扇区？" },
          answer = function(ctx) return ctx.result.load.sectors_per_request end },
}
LAB
for who in alice bob carol; do
  printf 'extern "C" __global__ void fixme(const float *in, float *out, int n)\n{\n    // %s'"'"'s own\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) out[i] = in[i];\n}\n' "$who" > "$tmp/$who.cu"
  printf 'edit("fixme", "%s"); r = launch("fixme")\n4\n' "$tmp/$who.cu" > "$tmp/$who.answers"
done
printf 'r = launch("fixme")\n4\n' > "$tmp/no-edit.answers"
mkdir -p "$tmp/subs" "$tmp/room"
batch() {   # batch ID ANSWERS [--save]: a batch run of writeit.lua by that student, in a folder of the room, submitted to subs/
  (cd "$tmp/room" && "$warplab" --sim --student "$1" --lab "$tmp/writeit.lua" --answers "$2" $3 --submit "$tmp/subs") > "$tmp/out-$1" 2>&1
}
source_in() {   # source_in ID: whose kernel that student's submission holds
  sed -n 's/.*\/\/ \([a-z]*\).s own.*/\1/p' "$tmp/subs/writeit-$1.json" | sort -u | tr '\n' ' '
}
batch alice "$tmp/alice.answers" --save && batch bob "$tmp/bob.answers" --save
result "two students on one account, each with their own kernel (--save): both batch runs pass" $?
batch alice "$tmp/no-edit.answers" --save
[ $? = 0 ] && [ "$(source_in alice)" = "alice " ]
status=$?
result "alice's next run declares her own kernel, not bob's, and her submission holds it ($(source_in alice))" $status
batch bob "$tmp/no-edit.answers" --save
[ $? = 0 ] && [ "$(source_in bob)" = "bob " ]
status=$?
result "... and bob's, his ($(source_in bob))" $status
[ -f "$XDG_DATA_HOME/warplab/students/alice/kernels/$(ls "$XDG_DATA_HOME/warplab/students/alice/kernels" | head -1)/fixme.cu" ] &&
  [ -z "$(find "$XDG_DATA_HOME/warplab/kernels" -name '*.cu' 2>/dev/null)" ]
result "each student's kernel is kept under students/ID/, none in the account's shared kernels/" $?
batch carol "$tmp/carol.answers"
[ $? = 0 ] && [ "$(source_in carol)" = "carol " ] && ! grep -rq "carol's own" "$XDG_DATA_HOME" && [ -z "$(ls -A "$tmp/room")" ]
status=$?
result "a batch run without --save: carol's run and submission hold her kernel, and no file of it is written (data folder, her folder)" $status
mkdir -p "$tmp/temporary"
printf 'extern "C" __global__ void fixme(const float *in, float *out, int n)\n{\n    // erin'"'"'s own\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) out[i] = in[i];\n}\n' > "$tmp/erin.cu"
printf 'edit("fixme"); r = launch("fixme")\n4\n' > "$tmp/erin.answers"
TMPDIR="$tmp/temporary" VISUAL="cp $tmp/erin.cu" batch erin "$tmp/erin.answers"
[ $? = 0 ] && [ "$(source_in erin)" = "erin " ] && grep -q "kernel 'fixme' compiled and declared from $tmp/temporary/warplab-.*/fixme.cu (kept in memory" "$tmp/out-erin" &&
  [ -z "$(ls -A "$tmp/temporary")" ] && ! grep -rq "erin's own" "$XDG_DATA_HOME"
status=$?
result "an editor in a batch run without --save edits a temporary file, removed after; erin's kernel is kept in memory only" $status
batch dave "$tmp/no-edit.answers"
[ $? = 1 ] && [ -z "$(source_in dave)" ] && grep -q "TODO: read in" "$tmp/subs/writeit-dave.json"
result "dave, who wrote no kernel, runs and submits the skeleton, not another student's" $?

# :reset LAB of a lab whose kernel the student wrote asks first (issue 31,
# item 10): it says what it would delete and changes nothing; the same
# :reset again within a minute resets.
printf 'local core = debug.getregistry()["warplab.core"]\ncore.command(":reset %s")\n' "$tmp/writeit.lua" > "$tmp/reset-once.lua"
bob_file=$(find "$XDG_DATA_HOME/warplab/students/bob" -name fixme.cu)
"$warplab" --sim --student alice "$tmp/reset-once.lua" > "$tmp/out" 2>&1
tr '\n' ' ' < "$tmp/out" | grep -q "Resetting lab 'writeit' deletes your own source of kernel fixme (.*students/alice/.*fixme.cu), and forgets your progress in it. Nothing is changed yet: :reset $tmp/writeit.lua again within 60 s resets it." &&
  [ -n "$(find "$XDG_DATA_HOME/warplab/students/alice" -name fixme.cu)" ] && grep -q writeit "$XDG_DATA_HOME/warplab/students/alice/progress.json"
status=$?
result ":reset LAB of a lab with alice's own kernel asks first: it names the source it would delete and keeps it and her progress" $status
[ $status = 0 ] || sed 's/^/#   /' "$tmp/out"

# :reset LAB twice says what it forgot, and deletes that student's kernel sources of the lab, no other's.
printf 'local core = debug.getregistry()["warplab.core"]\ncore.command(":reset %s")\ncore.command(":reset %s")\n' "$tmp/writeit.lua" "$tmp/writeit.lua" > "$tmp/reset.lua"
"$warplab" --sim --student alice "$tmp/reset.lua" > "$tmp/out" 2>&1
tr '\n' ' ' < "$tmp/out" | grep -q "lab 'writeit' reset: your progress is forgotten (you were at step 2, with 2 answers in 2 attempts and 0 predictions); your source of kernel fixme is deleted" &&
  [ -z "$(find "$XDG_DATA_HOME/warplab/students/alice" -name fixme.cu)" ] && [ -f "$bob_file" ]
status=$?
result ":reset LAB says it forgot alice's progress and her kernel's source, which is gone; bob's stays" $status
[ $status = 0 ] || sed 's/^/#   /' "$tmp/out"
grep -q writeit "$XDG_DATA_HOME/warplab/students/bob/progress.json" && ! grep -q writeit "$XDG_DATA_HOME/warplab/students/alice/progress.json" &&
  [ ! -f "$XDG_DATA_HOME/warplab/progress.json" ]
result "progress is each student's own too: alice's reset leaves bob's progress, and none is kept in the account's progress.json" $?
batch alice "$tmp/no-edit.answers" --save
[ $? = 1 ] && grep -q "TODO: read in" "$tmp/subs/writeit-alice.json"
result "... and her next run declares the skeleton" $?
"$warplab" --sim --lab "$tmp/writeit.lua" --answers "$tmp/no-edit.answers" --save > "$tmp/out" 2>&1
"$warplab" --sim --student erin -e "
  local n = 0 for _ in pairs(require[[warplab.progress]].all()) do n = n + 1 end print('labs ' .. n)" > "$tmp/out" 2>&1
grep -q "labs 1" "$tmp/out"
result "a student's first session starts from the account's progress.json (an older warplab kept every student's there): nothing is lost" $?
"$warplab" --sim --lang zh --student bob "$tmp/reset.lua" > "$tmp/out" 2>&1
tr -d '\n' < "$tmp/out" | grep -q "实验“writeit”已重置：你的进度已清除.*你的核函数 fixme 的源代码已删除" && [ ! -f "$bob_file" ]
result ":reset in Chinese says the same, and deletes bob's source" $?
"$warplab" --sim --student bob "$tmp/reset.lua" > "$tmp/out" 2>&1
tr '\n' ' ' < "$tmp/out" | grep -q "lab 'writeit' reset: you had no progress in it; you kept no source of its kernels; you start again at step 1"
result ":reset of a lab with nothing to forget says so" $?

tap_done
