# tap.sh — TAP output for shell tests: `. "${srcdir:-.}/tests/tap.sh"`, then
# `result NAME STATUS` for each test (STATUS 0: it passed) and `tap_done` last.
# printf, not echo: a test's name may hold a backslash.
count=0 failed=0
result() {
  count=$((count + 1))
  if [ "$2" = 0 ]; then printf 'ok %d - %s\n' "$count" "$1"; else failed=$((failed + 1)); printf 'not ok %d - %s\n' "$count" "$1"; fi
}
tap_done() {
  echo "1..$count"
  [ "$failed" = 0 ]
}
