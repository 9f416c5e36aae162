#!/bin/sh
# charts.sh — the exact text of a sweep's table and chart, in Unicode and in
# ASCII (tests/golden/); --format csv and json on stdout; no progress bar
# when stderr is not a terminal.
warplab=${WARPLAB:-./warplab}
golden=${srcdir:-.}/tests/golden
count=0 failed=0
result() {   # result NAME STATUS(0 ok)
  count=$((count + 1))
  if [ "$2" = 0 ]; then echo "ok $count - $1"; else failed=$((failed + 1)); echo "not ok $count - $1"; fi
}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
chart='r = sweep("strided", {stride = pow2(0, 4), n = 4096})'

for mode in unicode ascii; do
  flag=$([ $mode = unicode ] && echo 1 || echo 0)
  WARPLAB_UNICODE=$flag "$warplab" --sim -e "$chart" > "$tmp/$mode.txt" 2>/dev/null
  diff -u "$golden/sweep-$mode.txt" "$tmp/$mode.txt" > "$tmp/diff" 2>&1
  status=$?
  result "the sweep's table and chart, $mode, as in tests/golden/sweep-$mode.txt" $status
  [ $status = 0 ] || sed 's/^/#   /' "$tmp/diff"
done

"$warplab" --sim --format csv -e 'print(launch("offset", {offset = 1, n = 4096}))' > "$tmp/out.csv" 2>/dev/null
head -1 "$tmp/out.csv" | grep -q '^kernel,backend,params.block,params.load,params.n,params.offset,' && \
  sed -n 2p "$tmp/out.csv" | grep -q '^offset,sim,256,default,4096,1,'
result "--format csv prints a result as a header and a row" $?
"$warplab" --sim --format json -e 'print(launch("offset", {offset = 1, n = 4096}))' > "$tmp/out.json" 2>/dev/null
"$warplab" --sim -e "local j = debug.getregistry()['warplab.core'].json
  local d = j.decode(io.open('$tmp/out.json'):read('a'))
  os.exit(d.results[1].params.offset == 1 and d.units.time_ms == 'ms' and 0 or 1)" 2>/dev/null
result "--format json prints a result that parses back" $?

"$warplab" --sim -e 'sweep("offset", {offset = range(0, 15)})' > /dev/null 2> "$tmp/stderr"
! grep -q 'launches \[' "$tmp/stderr"
result "no progress bar when stderr is a pipe (a sweep of over a second)" $?

echo "1..$count"
[ "$failed" = 0 ]
