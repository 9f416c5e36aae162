#!/bin/sh
# cli.sh — the command line: modes, options and exit statuses.
warplab=${WARPLAB:-./warplab}
count=0 failed=0
check() {   # check NAME EXPECTED-STATUS PATTERN COMMAND...
  name=$1 expected=$2 pattern=$3; shift 3
  output=$("$@" 2>&1); status=$?
  count=$((count + 1))
  if [ "$status" = "$expected" ] && printf '%s' "$output" | grep -q -- "$pattern"; then
    echo "ok $count - $name"
  else
    failed=$((failed + 1))
    echo "not ok $count - $name"
    echo "#   status $status (expected $expected), output:"; printf '%s\n' "$output" | sed 's/^/#   /'
  fi
}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf 'print("from file", arg[1], arg[2])\n' > "$tmp/script.lua"
printf 'error("boom")\n' > "$tmp/fails.lua"

check "--version names Lua" 0 "warplab 0.1 (Lua 5.4" "$warplab" --version
check "--help shows usage" 0 "usage: warplab" "$warplab" --help
check "--list shows each family with its summary" 0 "strided       out\[i\] = in\[i\*stride\]" "$warplab" --list
check "-e prints the notes' figure" 0 "^5.0$" "$warplab" --sim -e 'r = launch("offset", {offset=1, n=262144}); print(r.load.sectors_per_request)'
check "-e runs in order" 0 "12" "$warplab" --sim -e 'x = 1' -e 'io.write(x, 2, "\n")'
check "a script file gets its arguments" 0 "from file	a	b" "$warplab" --sim "$tmp/script.lua" a b
check "stdin that is not a terminal is a script" 0 "^3$" sh -c "echo 'print(1+2)' | '$warplab' --sim"
check "the shorthand works in -e" 0 "^16.0$" "$warplab" --sim -e 'print(launch("strided", <stride=4, n=1024>).load.sectors_per_request)'
check "a script error exits 1 with its message" 1 "fails.lua:1: boom" "$warplab" --sim "$tmp/fails.lua"
check "an -e error exits 1" 1 "unknown kernel 'nope'" "$warplab" --sim -e 'launch("nope")'
check "a missing script exits 1" 1 "cannot open" "$warplab" --sim "$tmp/missing.lua"
check "an unknown option exits 2" 2 "unknown option '--bogus'" "$warplab" --bogus
check "-e without code exits 2" 2 "-e expects Lua code" "$warplab" -e
check "--device without a number exits 2" 2 "--device expects a GPU number" "$warplab" --device x
check "--sim forces the model" 0 "^sim$" "$warplab" --sim -e 'print(device().backend)'
lock=${TMPDIR:-/tmp}/warplab-gpu-tests.lock   # GPU work takes turns (see tests/run-lua)
if { if command -v flock >/dev/null; then flock "$lock" "$warplab" -e 'os.exit(device().backend == "gpu" and 0 or 1)'; else "$warplab" -e 'os.exit(device().backend == "gpu" and 0 or 1)'; fi; } 2>/dev/null; then
  echo "ok $((count += 1)) - # SKIP the no-GPU notice (this machine has a GPU)"
else
  check "the no-GPU notice says why and what is used instead" 0 "using the access model" "$warplab" -e 'x = 1'
fi
echo "1..$count"
[ "$failed" = 0 ]
