#!/bin/sh
# charts.sh — the exact text of a sweep's table and chart, in Unicode and in
# ASCII (tests/shell/golden/); --format csv and json on stdout; no progress bar
# when stderr is not a terminal; plot() runs no shell whatever its title and
# file name hold (PNG through gnuplot when installed), and a second argument
# that is not a table of options is one clear line.
warplab=${WARPLAB:-./warplab}
golden=${srcdir:-.}/tests/shell/golden
. "${srcdir:-.}/tests/lib/tap.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
chart='r = sweep("strided", {stride = pow2(0, 4), n = 4096})'

for mode in unicode ascii; do
  flag=$([ $mode = unicode ] && echo 1 || echo 0)
  WARPLAB_UNICODE=$flag "$warplab" --sim -e "$chart" > "$tmp/$mode.txt" 2>/dev/null
  diff -u "$golden/sweep-$mode.txt" "$tmp/$mode.txt" > "$tmp/diff" 2>&1
  status=$?
  result "the sweep's table and chart, $mode, as in tests/shell/golden/sweep-$mode.txt" $status
  [ $status = 0 ] || sed 's/^/#   /' "$tmp/diff"
done

"$warplab" --sim --format csv -e 'print(launch("offset", {offset = 1, n = 4096}))' > "$tmp/out.csv" 2>/dev/null
head -1 "$tmp/out.csv" | grep -q '^kernel,backend,params.block,params.load,params.n,params.offset,' && \
  sed -n 2p "$tmp/out.csv" | grep -q '^offset,sim,256,default,4096,1,'
result "--format csv prints a result as a header and a row" $?
"$warplab" --sim --format json -e 'print(launch("offset", {offset = 1, n = 4096}))' > "$tmp/out.json" 2>/dev/null
"$warplab" --sim -e "local j = require[[warplab.json]]
  local d = j.decode(io.open('$tmp/out.json'):read('a'))
  os.exit(d.results[1].params.offset == 1 and d.units['model.time_ms'] == 'ms' and 0 or 1)" 2>/dev/null
result "--format json prints a result that parses back" $?

"$warplab" --sim -e 'sweep("offset", {offset = range(0, 15)})' > /dev/null 2> "$tmp/stderr"
! grep -q 'launches \[' "$tmp/stderr"
result "no progress bar when stderr is a pipe (a sweep of over a second)" $?

# plot() starts no shell: a title or file name with $(...) or backquotes is only text.
mkdir "$tmp/inject"
sweep_code="rs = sweep('strided', {stride = pow2(0, 3), n = 4096})"
title='$(touch made-by-title) `touch made-by-backquote`'
for kind in svg png; do
  (cd "$tmp/inject" && "$warplab" --sim -e "$sweep_code
    print(plot(rs, {file = 'p\`touch made-by-name\`\$(touch made-by-dollar).$kind', title = [[$title]]}))") \
    > "$tmp/inject-$kind.out" 2>&1
done
ls "$tmp/inject" | sed 's/^/#   /'
[ -z "$(ls "$tmp/inject" | grep '^made-by')" ] && [ -s "$tmp/inject/p\`touch made-by-name\`\$(touch made-by-dollar).svg" ]
result "plot with a title of \$(touch X) and a file name with backquotes runs nothing (SVG written)" $?
if command -v gnuplot > /dev/null; then
  head -c 4 "$tmp/inject/p\`touch made-by-name\`\$(touch made-by-dollar).png" | grep -q PNG
  result "... and through gnuplot, the PNG is written under that very name" $?
else
  echo "ok $((count = count + 1)) - plot's PNG through gnuplot # SKIP gnuplot not installed (apt-get install gnuplot-nox)"
fi

# The PNG's title is never cropped (issue 31, item 13): gnuplot neither
# wraps a title nor keeps it on the canvas, and a key beside the chart
# narrowed the space it was centred over; no dark pixel of the title band
# (its top 50 rows) lies in the image's four outermost columns on either side.
title_cropped() {   # title_cropped PNG: status 0 when a dark pixel of the title band touches an edge
  pngtopnm "$1" | pnmtoplainpnm | awk 'NR == 2 { w = $1; next } NR <= 3 { next }
    { for (i = 1; i <= NF; i += 3) { p = n++; x = int(p % w); y = int(p / w)
        if (y < 50 && (x < 4 || x >= w - 4) && $i < 128 && $(i + 1) < 128 && $(i + 2) < 128) found = 1 } }
    END { exit found ? 0 : 1 }'
}
if command -v gnuplot > /dev/null && command -v pngtopnm > /dev/null; then
  long_title="coalescing: load sectors per request by stride, from one float per thread to a whole sector per lane"
  for lang in en zh; do
    "$warplab" --sim --lang $lang -e "$sweep_code; plot(rs, {y = 'sectors_per_request', file = '$tmp/title-$lang.png'})
      plot(rs, {file = '$tmp/long-$lang.png', title = '$long_title'})" > "$tmp/title.out" 2>&1
    ! title_cropped "$tmp/title-$lang.png" && ! title_cropped "$tmp/long-$lang.png" && [ -s "$tmp/long-$lang.png" ]
    result "--lang $lang: the PNG's title, its own and a long one, stays inside the image" $?
  done
else
  echo "ok $((count = count + 1)) - the PNG's title # SKIP gnuplot or netpbm not installed"
fi

# plot()'s second argument: a table of options, each of its type, else one clear line.
for options in 5 '"mychart.svg"' '{file = true}' '{title = 5}' '{flie = "x.svg"}'; do
  (cd "$tmp/inject" && "$warplab" --sim -e "$sweep_code; plot(rs, $options)") > /dev/null 2> "$tmp/bad-options.err"
  status=$?
  [ $status = 1 ] && head -1 "$tmp/bad-options.err" | grep -q "bad argument #2 to 'plot' (" &&
    [ ! -e "$tmp/inject/plot.svg" ] && [ ! -e "$tmp/inject/mychart.svg" ]
  result "plot(rs, $options): one bad-argument line, no file written" $?
  [ $status = 1 ] || sed 's/^/#   /' "$tmp/bad-options.err"
done

tap_done
