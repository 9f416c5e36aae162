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

# fits FILE WIDTH WHAT: a test that every line of FILE (what warplab printed
# with COLUMNS=WIDTH) fits WIDTH columns, but for a line that is one word
# (no wrapping can break it); the first lines over it as diagnostics.
fits() {
  WRAP_FILE=$1 WRAP_WIDTH=$2 COLUMNS='' "${warplab:-./warplab}" --sim --no-init -e '
    local display_width = debug.getregistry()["warplab.core"].util.display_width
    local width = tonumber(os.getenv("WRAP_WIDTH"))
    for line in io.lines(os.getenv("WRAP_FILE")) do
      line = line:match("([^\r]*)$")   -- what a carriage return left on the line
      if display_width(line) > width and line:match("^%s*(.-)$"):find("[ \t]") then
        print(display_width(line) .. ": " .. line)
      end
    end' > "$1.over" 2>&1
  [ ! -s "$1.over" ]
  result "$3 fits $2 columns" $?
  head -3 "$1.over" | sed 's/^/#   /'
}
