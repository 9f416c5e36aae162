#!/bin/sh
# fuzz_submissions.sh — a fuzz of submission files (#28, findings 2, 5, 10):
# real submissions (a lab of questions and predictions, a lab with students'
# kernels) are made here, then tests/labs/submission_mutants.lua mutates them by
# the hundred (types swapped, fields missing or added, deep nesting, huge
# strings, numbers JSON cannot hold, control characters, broken JSON) and
# grades the mutants beside the real ones: the grader must end normally with
# all three outputs, grade the real students exactly as without the mutants,
# and print no internal error and no raw control character anywhere.
warplab=${WARPLAB:-./warplab}
srcdir=${srcdir:-.}
tmp=$(mktemp -d); trap '[ -n "$KEEP" ] || rm -rf "$tmp"' EXIT   # KEEP=1: the files stay, to look at
export HOME="$tmp/home" XDG_DATA_HOME="$tmp/data" XDG_STATE_HOME="$tmp/state" XDG_CONFIG_HOME="$tmp/config"
mkdir -p "$HOME" "$tmp/class"
case $warplab in /*) ;; *) warplab=$PWD/$warplab ;; esac
"$warplab" --sim --student alice --lab coalescing --answers "$srcdir/tests/labs/answers/coalescing.txt" --submit "$tmp/class" \
  > "$tmp/alice.out" 2>&1
sed '2s/.*/5/' "$srcdir/tests/labs/answers/coalescing.txt" > "$tmp/bob.txt"
"$warplab" --sim --student bob --lab coalescing --answers "$tmp/bob.txt" --submit "$tmp/class" > "$tmp/bob.out" 2>&1
"$warplab" --sim --student erin --lab exercises --answers "$srcdir/tests/labs/answers/exercises.txt" --submit "$tmp/class" \
  > "$tmp/erin.out" 2>&1
exec "$warplab" --sim "$srcdir/tests/labs/submission_mutants.lua" "$tmp" "${FUZZ_CASES:-300}" "${FUZZ_SEED:-2028}"
