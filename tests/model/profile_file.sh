#!/bin/sh
# profile_file.sh — --profile FILE: a device profile from bench/calibrate's
# coefficients. The H200's own file gives the h200 profile's estimates; another
# device's sizes, clocks and rates change them as they should; a file that
# cannot be used is one line naming what is missing; a lab cannot name a file.
warplab=${WARPLAB:-./warplab}
srcdir=${srcdir:-.}
. "$srcdir/tests/lib/tap.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
h200="$srcdir/bench/profiles/h200.coefficients"
case "$h200" in /*) ;; *) h200="./$h200" ;; esac
estimates='for _, c in ipairs({{"copy", {}}, {"transpose", {}}, {"histogram", {n = 1 << 20}}, {"reuse", {}}, {"gather", {}}}) do
  local m = launch(c[1], c[2]).model
  io.write(string.format("%s %.9g %s %d\n", c[1], m.time_ms, m.limit_key, m.resident_warps)) end'

"$warplab" --sim --profile h200 -e "$estimates" > "$tmp/named" 2>&1
"$warplab" --sim --profile "$h200" -e "$estimates" > "$tmp/file" 2>&1
[ -s "$tmp/named" ] && cmp -s "$tmp/named" "$tmp/file"
result "the H200's coefficients give the h200 profile's estimates, term and occupancy alike" $?
[ $? = 0 ] || sed 's/^/#   /' "$tmp/named" "$tmp/file"

# Another device: half the SMs, half the DRAM copy rate, compute capability 8.6 (1536 threads an SM).
sed -e 's/^sm_count .*/sm_count 66/' -e 's/^dram_copy_gbs .*/dram_copy_gbs 1990.7555/' \
    -e 's/^compute_capability .*/compute_capability 8.6/' -e '1s/.*/# Test GPU: coefficients/' "$h200" > "$tmp/test.coefficients"
out=$("$warplab" --sim --profile "$tmp/test.coefficients" -e '
  local big = launch("copy", {vec = 4}).model
  print(big.device, big.resident_warps, string.format("%.3f", big.terms.dram))' 2>&1)
h200_dram=$("$warplab" --sim --profile h200 -e 'print(string.format("%.3f", launch("copy", {vec = 4}).model.terms.dram))' 2>&1)
expected=$(awk -v d="$h200_dram" 'BEGIN { printf "%.3f", 2 * d }')
[ "$out" = "Test GPU (calibrated)	48	$expected" ]
result "another device's file: its name, its SM limits (8.6: 48 warps), and half the copy rate doubles the DRAM term ($out; $expected)" $?

grep -v '^l2_bytes' "$h200" > "$tmp/short.coefficients"
msg=$("$warplab" --sim --profile "$tmp/short.coefficients" -e 'print(1)' 2>&1); status=$?
[ $status = 2 ] && [ "$(printf '%s\n' "$msg" | head -1)" = "warplab: --profile $tmp/short.coefficients: cannot use this file of coefficients: it gives no l2_bytes" ]
result "a file without l2_bytes: a usage error naming it ($msg)" $?

sed 's/^compute_capability .*/compute_capability 7.0/' "$h200" > "$tmp/volta.coefficients"
msg=$("$warplab" --sim --lang zh --profile "$tmp/volta.coefficients" -e 'print(1)' 2>&1)
printf '%s\n' "$msg" | head -1 | grep -q '计算能力 7.0：warplab 只知道'
result "an unknown compute capability, in Chinese: one line saying which are known ($msg)" $?

msg=$("$warplab" --sim --profile ./no-such.coefficients -e 'print(1)' 2>&1)
printf '%s\n' "$msg" | head -1 | grep -q 'no-such.coefficients: cannot use this file of coefficients: No such file'
result "a file that is not there: one line with the reason" $?

# Lab code names profiles, never files: config{profile = PATH} is an unknown profile, and nothing is read.
msg=$("$warplab" --sim -e "print(pcall(config, {profile = '$h200'}))" 2>&1)
printf '%s\n' "$msg" | grep -q '^false' && ! printf '%s\n' "$msg" | grep -q 'calibrated'
result "config{profile = a path} is refused: only --profile reads a file" $?
tap_done
