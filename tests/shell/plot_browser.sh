#!/bin/sh
# plot_browser.sh — plot() writes an SVG that a real browser renders: headless
# Chromium loads it inline in a page whose script measures what was drawn
# (the series' length, the axis labels, the marks) and the test reads that
# back from the page. Then Chromium takes a screenshot of the SVG file alone,
# and the test reads its pixels (netpbm turns the PNG into numbers): the
# series' colour spans the plot area, the axis and the text are drawn. SKIP
# when Chromium is not installed; the screenshot's checks SKIP without netpbm.
warplab=${WARPLAB:-./warplab}
browser=$(command -v chromium || command -v chromium-browser)
[ -n "$browser" ] || { echo "1..0 # SKIP chromium not installed (apt-get install chromium)"; exit 0; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

"$warplab" --sim -e "plot(sweep('strided', {stride = pow2(0, 6), n = 1 << 20}), {file = '$tmp/plot.svg', y = 'bandwidth'})" \
  > /dev/null 2>&1
{
  echo '<!doctype html><html><body>'
  cat "$tmp/plot.svg"
  cat <<'SCRIPT'
<pre id="report"></pre>
<script>
  const svg = document.querySelector("svg");
  const box = svg.getBBox();
  const series = [...document.querySelectorAll("polyline.series")].map(p => p.getTotalLength());
  const labels = [...document.querySelectorAll(".axis-label")].map(t => t.textContent + "@" + Math.round(t.getBBox().width));
  const marks = [...document.querySelectorAll(".mark text")].map(t => t.textContent);
  const ticks = document.querySelectorAll(".tick text").length;
  document.getElementById("report").textContent =
    "bbox=" + Math.round(box.width) + "x" + Math.round(box.height) + " series=" + series.map(Math.round).join(",") +
    " ticks=" + ticks + " labels=" + labels.join("|") + " marks=" + marks.join("|");
</script></body></html>
SCRIPT
} > "$tmp/page.html"

timeout 60 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$tmp/profile" --dump-dom "file://$tmp/page.html" > "$tmp/dom.html" 2> "$tmp/browser.log"
report=$(sed -n 's/.*<pre id="report">\(.*\)<\/pre>.*/\1/p' "$tmp/dom.html")
echo "# $report"
count=0 failed=0
check() { count=$((count + 1)); if echo "$report" | grep -Eq "$2"; then echo "ok $count - $1"; else failed=$((failed + 1)); echo "not ok $count - $1"; fi; }
check "the page rendered the SVG with a size" 'bbox=[1-9][0-9]+x[1-9][0-9]+'
check "the series was drawn with a length" 'series=[1-9][0-9]*'
check "the x axis is labelled" 'labels=stride@[1-9]'
check "the y axis is labelled with its unit" 'useful bandwidth \(GB/s\)@[1-9]'
check "the peak is marked (named above the chart: these sim bandwidths are far below it)" 'marks=↑ peak [0-9]+ GB/s, above'
check "ticks are drawn" 'ticks=[1-9][0-9]*'

# The screenshot, at the SVG's own size (lua/plot.lua: 760 x 460, the plot
# area from x 80 to 570 and y 50 to 400; the first series is #1f77b4).
skip() { count=$((count + 1)); echo "ok $count # SKIP $1"; }
if command -v pngtopnm > /dev/null && command -v pnmtoplainpnm > /dev/null; then
  timeout 60 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --hide-scrollbars \
    --user-data-dir="$tmp/profile" --window-size=760,460 --screenshot="$tmp/plot.png" \
    "file://$tmp/plot.svg" 2>> "$tmp/browser.log"
  pixels=$(pngtopnm "$tmp/plot.png" 2> /dev/null | pnmtoplainpnm 2> /dev/null | awk '
    function near(v, w) { return v - w < 40 && w - v < 40 }
    NR == 1 { next }
    { for (i = 1; i <= NF; i++) value[n++] = $i }
    END {
      width = value[0]; height = value[1]; xmin = width; ymin = height; xmax = ymax = -1
      for (p = 3; p + 2 < n; p += 3) {
        x = ((p - 3) / 3) % width; y = int(((p - 3) / 3) / width)
        r = value[p]; g = value[p + 1]; b = value[p + 2]
        if (r < 90 && g < 90 && b < 90) {
          dark++
          if (y < 30) title++
          if (x < 75) left++
        }
        # the axis is a black line one pixel wide between two pixel columns: grey
        if (r < 200 && near(r, g) && near(g, b) && x >= 79 && x <= 81 && y >= 50 && y <= 400) axis++
        if (near(r, 31) && near(g, 119) && near(b, 180) && x >= 75 && x <= 575) {
          series++
          if (x < xmin) xmin = x; if (x > xmax) xmax = x
          if (y < ymin) ymin = y; if (y > ymax) ymax = y
        }
      }
      printf "size=%dx%d dark=%d title=%d left=%d axis=%d series=%d x=%d-%d y=%d-%d\n",
        width, height, dark, title, left, axis, series, xmin, xmax, ymin, ymax
    }')
  echo "# screenshot: $pixels"
  value() { echo "$pixels" | sed -n "s/.* $1=\([0-9-]*\).*/\1/p"; }
  number_check() { count=$((count + 1)); if [ "${2:-0}" "$3" "$4" ] 2>/dev/null; then echo "ok $count - $1"; else failed=$((failed + 1)); echo "not ok $count - $1 ($2 $3 $4)"; fi; }
  number_check "the screenshot is the SVG's size" "$(echo "$pixels" | sed -n 's/^size=\([0-9x]*\).*/\1/p')" = 760x460
  number_check "the title is drawn (dark pixels above the plot)" "$(value title)" -gt 300
  number_check "the y axis' labels are drawn (dark pixels left of it)" "$(value left)" -gt 300
  number_check "the y axis is drawn (a grey column at x 80)" "$(value axis)" -gt 300
  number_check "the series is drawn in its colour" "$(value series)" -gt 500
  number_check "the series starts at the left of the plot" "$(echo "$pixels" | sed -n 's/.* x=\([0-9]*\)-.*/\1/p')" -le 90
  number_check "the series reaches the right of the plot" "$(echo "$pixels" | sed -n 's/.* x=[0-9]*-\([0-9]*\).*/\1/p')" -ge 560
  number_check "the series is not flat on the axis (scaled to the data: spans 40+ rows)" \
    $(( $(echo "$pixels" | sed -n 's/.* y=[0-9]*-\([0-9]*\).*/\1/p') - $(echo "$pixels" | sed -n 's/.* y=\([0-9]*\)-.*/\1/p') )) -gt 40
else
  skip "netpbm not installed (apt-get install netpbm): no screenshot check"
fi
echo "1..$count"
[ "$failed" = 0 ]
