#!/bin/sh
# width.sh — tests/shell/width_blocks.lua at 60, 80 and 120 columns ($COLUMNS, as a
# terminal of that width would give it).
warplab=${WARPLAB:-./warplab}
status=0
for columns in 60 80 120; do
  COLUMNS=$columns "$warplab" --sim "${srcdir:-.}/tests/shell/width_blocks.lua" | sed -e "s/^\(not \)\{0,1\}ok [0-9]* - /&[$columns] /" \
    -e '/^1\.\./d' || status=1
done > "${TMPDIR:-/tmp}/width.$$" 2>&1
count=$(grep -c '^\(not \)\{0,1\}ok ' "${TMPDIR:-/tmp}/width.$$")
awk '/^(not )?ok / { n++; sub(/ok [0-9]+ -/, "ok " n " -") } { print }' "${TMPDIR:-/tmp}/width.$$"
echo "1..$count"
! grep -q '^not ok' "${TMPDIR:-/tmp}/width.$$"
rc=$?
rm -f "${TMPDIR:-/tmp}/width.$$"
exit $rc
