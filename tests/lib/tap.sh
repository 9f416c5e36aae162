# tap.sh — TAP output for shell tests: `. "${srcdir:-.}/tests/lib/tap.sh"`, then
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

# A copy of the source tree for a test that changes it (add_family.sh,
# add_option.sh): copy_tree DIR copies the tree as it stands (tracked files
# that are still there, and new ones git does not ignore) into DIR, after
# SKIPping the whole test where the tree is not a git checkout or autoreconf
# is missing; changed_outside DIR FOLDER/ then names, one a line, the files
# of the copy that changed (or are new) outside FOLDER/ since it was made.
copy_tree() {
  if ! git -C "$srcdir" ls-files --error-unmatch Makefile.am > /dev/null 2>&1 || ! command -v autoreconf > /dev/null; then
    echo "1..0 # SKIP needs the source tree as a git checkout, and autoreconf"
    exit 0
  fi
  mkdir -p "$1"
  (cd "$srcdir" && git ls-files -z --cached --others --exclude-standard |
    xargs -0 sh -c 'for file; do [ -f "$file" ] && printf "%s\0" "$file"; done' sh | xargs -0 cp --parents -t "$1")
  tree_fingerprints "$1" > "$1.fingerprints"
}
tree_fingerprints() { (cd "$1" && find . -type f -exec cksum {} + | sort -k 3); }
changed_outside() {
  tree_fingerprints "$1" | diff "$1.fingerprints" - | sed -n 's/^[<>] [0-9]* [0-9]* \.\///p' | sort -u | grep -v "^$2"
}
