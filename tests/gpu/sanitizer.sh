#!/bin/sh
# gpu_sanitizer.sh — compute-sanitizer finds no memory error and no leak in a
# session of launches (everything is freed at exit). SKIP without a GPU or
# without compute-sanitizer; with WARPLAB_REQUIRE_GPU=1 a missing GPU fails.
warplab=${WARPLAB:-./warplab}
if ! "$warplab" -e 'os.exit(device().backend == "gpu" and 0 or 1)' 2>/dev/null; then
  if [ "${WARPLAB_REQUIRE_GPU:-}" = 1 ]; then
    echo "not ok 1 - a GPU is required here (WARPLAB_REQUIRE_GPU=1)"; echo "1..1"; exit 1
  fi
  echo "1..0 # SKIP no GPU"; exit 0
fi
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
[ -x "$sanitizer" ] || { echo "1..0 # SKIP compute-sanitizer not found"; exit 0; }
log=$(mktemp); trap 'rm -f "$log"' EXIT
lock=${TMPDIR:-/tmp}/warplab-gpu-tests.lock   # GPU tests take turns (see tests/lib/run-lua)
flock_if_any() { if command -v flock >/dev/null; then flock "$lock" "$@"; else "$@"; fi; }
flock_if_any "$sanitizer" --tool memcheck --leak-check full --error-exitcode 9 "$warplab" -e '
  launch("copy", {n = 1 << 20, min_samples = 2, counters = false})
  launch("offset", {offset = 1, n = 1 << 20, min_samples = 2, counters = false})
  launch("strided", {stride = 4, n = 1 << 18, min_samples = 2, counters = false})' > "$log" 2>&1
status=$?
# one summary per process: the shell's and its GPU process's (see shell/backend/gpu_process.c)
if [ $status = 0 ] && grep -q "ERROR SUMMARY: 0 errors" "$log" && ! grep -q "ERROR SUMMARY: [1-9]" "$log"; then
  echo "ok 1 - compute-sanitizer: no errors, no leaks"
else
  echo "not ok 1 - compute-sanitizer reported problems (status $status)"; sed 's/^/# /' "$log" | tail -40
fi
echo "1..1"
