#!/bin/sh
# lab_claims_profiles.sh — every lab's claims on the model of every device
# profile: each holds, or is skipped with the reason it does not apply there
# (a GPU measurement, a feature the device lacks, a limit it does not reach).
warplab=${WARPLAB:-./warplab}
count=0 failed=0
check='local core = debug.getregistry()["warplab.core"]
for _, name in ipairs(core.lab_names()) do
  for _, c in ipairs(core.labs.check_claims(name)) do
    local label = string.format("%s step %d: %s", c.lab, c.step, c.text)
    if c.skipped then
      print(c.reason and c.reason ~= "" and "skip\t" .. label .. "\t" .. c.reason or "fail\t" .. label .. " (skipped with no reason)")
    else
      print((c.holds and "ok\t" or "fail\t") .. label .. (c.error and " (" .. c.error .. ")" or ""))
    end
  end
end'
for profile in $("$warplab" --sim -e 'print(table.concat(debug.getregistry()["warplab.core"].profiles(), " "))'); do
  "$warplab" --sim --profile "$profile" -e "$check" 2>/dev/null | grep -a '^\(ok\|skip\|fail\)	' > "${TMPDIR:-/tmp}/claims-$$" 
  total=0 bad=0
  while IFS='	' read -r verdict label reason; do
    total=$((total + 1))
    case $verdict in
      ok) ;;
      skip) case $reason in *GPU*) ;; *) echo "# $profile: $label: skipped: $reason" ;; esac ;;
      *) bad=$((bad + 1)); echo "# $profile: $label" ;;
    esac
  done < "${TMPDIR:-/tmp}/claims-$$"
  count=$((count + 1))
  if [ "$bad" = 0 ] && [ "$total" -gt 40 ]; then echo "ok $count - $profile: all $total claims hold or say why they do not apply"
  else failed=$((failed + 1)); echo "not ok $count - $profile: $bad of $total claims fail"; fi
done
rm -f "${TMPDIR:-/tmp}/claims-$$"
echo "1..$count"
[ "$failed" = 0 ] && [ "$count" -ge 14 ]
