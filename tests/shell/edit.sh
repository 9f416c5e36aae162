#!/bin/sh
# edit.sh — :edit and edit(): a kernel's source opened in $VISUAL or $EDITOR
# (here programs that change the file as a person would, started without a
# shell), compiled and declared again when the editor ends; compile errors
# with the file's own line numbers, the kernel left as it was; an editor
# that fails or is missing is one line; in a lab step, :edit opens the
# step's kernel, the student's file is what the step declares the next time,
# and a batch run takes the student's source from a file; a lab kernel's
# functions run under the sandbox's budget.
warplab=${WARPLAB:-./warplab}
. "${srcdir:-.}/tests/lib/tap.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export XDG_DATA_HOME="$tmp/data" XDG_CACHE_HOME="$tmp/cache"

cat > "$tmp/mine.lua" <<'LUA'
kernel { name = "mine", source = [[extern "C" __global__ void mine(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i*2%n];
}
]], params = { n = 4096 }, buffers = { ["in"] = { type = "float", count = "n" }, out = { type = "float", count = "n", output = true } },
  args = { "in", "out", "n" }, grid = 16, block = 256 }
local core = debug.getregistry()["warplab.core"]
print("before " .. launch("mine").load.sectors)
core.command(":edit mine")
print("after " .. launch("mine").load.sectors)
LUA
# The "editor": sed, turning the strided read into a coalesced one in the file it is given
# ($VISUAL is split at blanks, so the expression has none).
VISUAL="sed -i s/i\*2%n/i/" "$warplab" --sim "$tmp/mine.lua" > "$tmp/out" 2>&1
grep -q "before 1024" "$tmp/out" && grep -q "after 512" "$tmp/out" && grep -q "kernel 'mine' compiled and declared from $tmp/data/warplab/kernels/mine.cu" "$tmp/out"
result ":edit NAME opens the source in \$VISUAL and declares the kernel again from what it saved" $?
grep -q "out\[i\] = in\[i\];" "$tmp/data/warplab/kernels/mine.cu"
result "the edited source is kept under \$XDG_DATA_HOME/warplab/kernels/" $?

# EDITOR when VISUAL is unset; a compile error names the file's own line, and
# the kernel is not run until its source compiles again (issue 31, item 2):
# the version that compiled before would run with nothing saying so.
rm -f "$tmp/data/warplab/kernels/mine.cu"
env -u VISUAL EDITOR="sed -i s/in\[i\*2%n\]/nope/" "$warplab" --sim "$tmp/mine.lua" > "$tmp/out" 2>&1
status=$?
sed 's/^/#   /' "$tmp/out" | tail -3
[ $status = 1 ] && grep -q "kernel 'mine' ($tmp/data/warplab/kernels/mine.cu) was not declared again:" "$tmp/out" &&
  grep -Eq "mine.cu(\(4\)|:4:[0-9]+): error" "$tmp/out" &&
  grep -Eq "kernel 'mine' is not run: its source \($tmp/data/warplab/kernels/mine.cu\) does not compile: mine.cu(\(4\)|:4:[0-9]+): error: identifier \"nope\" is undefined. Fix it with :edit" "$tmp/out" &&
  ! grep -q "after " "$tmp/out"
result "\$EDITOR; a compile error names line 4 of the file, and the kernel is not run until it compiles: one line naming the error" $?
sed -e 's/^print("after .*/local refused = not pcall(launch, "mine")/' "$tmp/mine.lua" > "$tmp/again.lua"
cat >> "$tmp/again.lua" <<'LUA'
dofile(os.getenv("MINE"))   -- the same declaration again: a source that compiles
local r = launch("mine")
print("refused " .. tostring(refused) .. ", runs again " .. r.load.sectors .. " " .. tostring(require[[warplab.kernel]].version_ran(r)))
print(r)
LUA
sed -e '/^local core/,$d' "$tmp/mine.lua" > "$tmp/declare.lua"
rm -f "$tmp/data/warplab/kernels/mine.cu"
MINE="$tmp/declare.lua" env -u VISUAL EDITOR="sed -i s/in\[i\*2%n\]/nope/" "$warplab" --sim "$tmp/again.lua" > "$tmp/out" 2>&1
grep -q "^refused true, runs again 1024 [0-9a-f]\{8\}$" "$tmp/out" && grep -q "^  source     mine.cu, version [0-9a-f]\{8\}, compiled at [0-9:]*$" "$tmp/out"
result "... a kernel declared again (by kernel{} or an edit that compiles) runs again, its card naming its version" $?

rm -f "$tmp/data/warplab/kernels/mine.cu"
VISUAL=false "$warplab" --sim "$tmp/mine.lua" > "$tmp/out" 2>&1
grep -q "the editor 'false' ended with status 1" "$tmp/out" && grep -q "after 1024" "$tmp/out"
result "an editor that fails: one line, nothing compiled" $?
VISUAL=/nonexistent/editor "$warplab" --sim "$tmp/mine.lua" > "$tmp/out" 2>&1
grep -q "the editor '/nonexistent/editor' could not be started" "$tmp/out" && grep -q "after 1024" "$tmp/out"
result "an editor that is not there: one line, and the session goes on" $?

# A lab step with a kernel to write.
cat > "$tmp/writeit.lua" <<'LUA'
lab { title = { en = "Write it", zh = "写一写" } }
step {
  text = { en = "Make the loads coalesced.", zh = "让读取合并。" },
  kernel = {
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
  },
  run = [[r = launch("fixme")]],
  ask = {
    goal = { en = "fixme: correct, 4 sectors per load request.", zh = "fixme：结果正确，每个读请求 4 个扇区。" },
    check = function(ctx) local r = ctx.result return r.kernel == "fixme" and r.correct == true and r.load.sectors_per_request == 4 end,
  },
}
LUA
cat > "$tmp/fixed.cu" <<'CU'
extern "C" __global__ void fixme(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}
CU
cat > "$tmp/session.lua" <<LUA
local core = debug.getregistry()["warplab.core"]
core.command(":lab $tmp/writeit.lua")
print("skeleton " .. launch("fixme").load.sectors_per_request)
core.command(":edit")
print("edited " .. launch("fixme").load.sectors_per_request)
core.command(":answer")
LUA
VISUAL="cp $tmp/fixed.cu" "$warplab" --sim "$tmp/session.lua" > "$tmp/out" 2>&1
grep -q "You write kernel 'fixme' here: :edit opens its source" "$tmp/out" && grep -q "skeleton 32" "$tmp/out" &&
  grep -q "edited 4" "$tmp/out" && grep -q "^Correct" "$tmp/out"
result "in a lab step :edit opens the step's kernel, and the goal checks the student's launch" $?
cat > "$tmp/again.lua" <<LUA
local core = debug.getregistry()["warplab.core"]
core.command(":lab $tmp/writeit.lua")
print("again " .. launch("fixme").load.sectors_per_request)
LUA
"$warplab" --sim "$tmp/again.lua" > "$tmp/out" 2>&1
grep -q "again 4" "$tmp/out"
result "the step declares the student's own file the next time it opens" $?
rm -rf "$tmp/data"
echo "edit(\"fixme\", \"$tmp/fixed.cu\"); r = launch(\"fixme\")" > "$tmp/answers.txt"
"$warplab" --sim --lab "$tmp/writeit.lua" --answers "$tmp/answers.txt" > "$tmp/out" 2>&1
result "a batch run takes the student's source from a file: edit(NAME, FILE)" $?
echo 'r = launch("fixme")' > "$tmp/unchanged.txt"
rm -rf "$tmp/data"
"$warplab" --sim --lab "$tmp/writeit.lua" --answers "$tmp/unchanged.txt" > "$tmp/out" 2>&1
[ $? = 1 ]
result "the skeleton as it is does not meet the goal" $?

# A lab's kernel functions are lab code: a reference that never ends is stopped by the sandbox's budget.
sed -e 's/reference = function(p, b) for i = 0, p.n - 1 do b.out\[i\] = b\["in"\]\[i\] end end,/reference = function(p, b) while true do end end,/' \
  "$tmp/writeit.lua" > "$tmp/endless.lua"
grep -q "while true do end" "$tmp/endless.lua" || echo "#   the endless reference was not written"
cat > "$tmp/endless-session.lua" <<LUA
local core = debug.getregistry()["warplab.core"]
core.command(":lab $tmp/endless.lua")
print(pcall(launch, "fixme"))
print("still here " .. launch("copy", { n = 1024 }).load.requests)
LUA
rm -rf "$tmp/data"
timeout 60 "$warplab" --sim "$tmp/endless-session.lua" > "$tmp/out" 2>&1
grep -q "still here 32" "$tmp/out" && grep -q "the reference failed: the lab.s code ran too long" "$tmp/out"
result "a lab kernel's reference runs under the sandbox's budget, and the session goes on" $?

tap_done
