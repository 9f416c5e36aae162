#!/bin/sh
# gpu_calibrate.sh — bench/calibrate re-run on the H200 reproduces the committed
# coefficients, bench/profiles/h200.coefficients, within 5% (10% for latencies;
# launch overhead, which depends on the host's load, is shown, not compared):
# issue 29's check. SKIP without a GPU, on another GPU,
# without nvcc, or before the coefficients are committed; with
# WARPLAB_REQUIRE_GPU=1 a missing GPU fails.
warplab=${WARPLAB:-./warplab}
srcdir=${srcdir:-.}
name=$("$warplab" -e 'if device().backend == "gpu" then io.write(device().name) end' 2>/dev/null)
if [ -z "$name" ]; then
  if [ "${WARPLAB_REQUIRE_GPU:-}" = 1 ]; then
    echo "not ok 1 - a GPU is required here (WARPLAB_REQUIRE_GPU=1)"; echo "1..1"; exit 1
  fi
  echo "1..0 # SKIP no GPU"; exit 0
fi
case $name in
  *H200*) ;;
  *) echo "1..0 # SKIP the committed coefficients are the H200's; this GPU is $name"; exit 0 ;;
esac
coefficients=$srcdir/bench/profiles/h200.coefficients
[ -f "$coefficients" ] || { echo "1..0 # SKIP no $coefficients yet"; exit 0; }
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$nvcc" ] || { echo "1..0 # SKIP nvcc not found (set NVCC)"; exit 0; }
log=$(mktemp); trap 'rm -f "$log"' EXIT
lock=${TMPDIR:-/tmp}/warplab-gpu-tests.lock   # GPU tests take turns (see tests/lib/run-lua)
flock_if_any() { if command -v flock >/dev/null; then flock "$lock" "$@"; else "$@"; fi; }
OUT=${TMPDIR:-/tmp} NVCC=$nvcc flock_if_any "$srcdir/bench/calibrate" --compare "$coefficients" > "$log" 2>&1
status=$?
# one TAP line per coefficient, from the comparison's table, then one for the exit status
awk '/^compared with/ { on = 1; next }
     on && NF == 5 && ($5 == "ok" || $5 == "DIFFERS" || $5 == "MISSING") {
       n++; printf "%s %d - %s: committed %s, measured %s (%s)\n", $5 == "ok" ? "ok" : "not ok", n, $1, $2, $3, $4 }' "$log" > "$log.tap"
cat "$log.tap"
count=$(($(wc -l < "$log.tap") + 1))
rm -f "$log.tap"
if [ $status = 0 ]; then
  echo "ok $count - bench/calibrate --compare bench/profiles/h200.coefficients"
else
  echo "not ok $count - bench/calibrate --compare exited with status $status"; sed 's/^/# /' "$log" | tail -40
fi
echo "1..$count"
