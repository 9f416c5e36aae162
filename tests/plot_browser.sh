#!/bin/sh
# plot_browser.sh — plot() writes an SVG that a real browser renders: headless
# Chromium loads it inline in a page whose script measures what was drawn
# (the series' length, the axis labels, the marks) and the test reads that
# back from the page. SKIP when Chromium is not installed.
warplab=${WARPLAB:-./warplab}
browser=$(command -v chromium || command -v chromium-browser)
[ -n "$browser" ] || { echo "1..0 # SKIP chromium not installed (apt-get install chromium)"; exit 0; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

"$warplab" --sim -e "plot(sweep('strided', {stride = pow2(0, 6), n = 1 << 16}), {file = '$tmp/plot.svg', y = 'bandwidth'})" \
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
echo "1..$count"
[ "$failed" = 0 ]
