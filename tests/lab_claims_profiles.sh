#!/bin/sh
# lab_claims_profiles.sh — every lab's claims (tests/lab_claims.lua) on the
# model of every device profile: each holds, or is skipped with the reason it
# does not apply there (a GPU measurement, a feature the device lacks, a
# limit it does not reach).
warplab=${WARPLAB:-./warplab}
claims=${srcdir:-.}/tests/lab_claims.lua
count=0 failed=0
for profile in $("$warplab" --sim -e 'print(table.concat(debug.getregistry()["warplab.core"].profiles(), " "))'); do
  out=$("$warplab" --sim --profile "$profile" "$claims" 2>&1)
  status=$?
  count=$((count + 1))
  if [ $status = 0 ]; then
    echo "ok $count - $profile: every claim holds or says why it does not apply"
  else
    failed=$((failed + 1))
    echo "not ok $count - $profile: claims fail"
  fi
  printf '%s\n' "$out" | grep -a -e '^not ok' -e '# SKIP' | grep -v 'GPU only' | sed "s/^/# $profile: /"
done
echo "1..$count"
[ "$failed" = 0 ] && [ "$count" -ge 14 ]
