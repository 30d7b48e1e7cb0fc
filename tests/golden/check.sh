#!/usr/bin/env bash
# Runs one golden case (tests/golden/cases.txt) and compares its text and JSON reports with
# tests/golden/expected/; on a difference prints a unified diff and fails.
#   check.sh AUGUR CASE            compare
#   check.sh AUGUR CASE --refresh  write the expected files anew (on purpose: review the git diff)
set -euo pipefail
augur=$1 name=$2 mode=${3:-}
root=$(cd "$(dirname "$0")/../.." && pwd)
here=$root/tests/golden
line=$(awk -v n="$name" '$1 == n { $1 = ""; print substr($0, 2) }' "$here/cases.txt")
[ -n "$line" ] || { echo "check.sh: no case '$name' in $here/cases.txt" >&2; exit 2; }
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
cd "$root"
# shellcheck disable=SC2086  # the case's arguments are words
"$augur" $line --text "$out/$name.txt" --json "$out/$name.json" > "$out/stdout" 2>&1 || {
  echo "augur $line: exit $?"; cat "$out/stdout"; exit 1; }
if [ "$mode" = --refresh ]; then
  cp "$out/$name.txt" "$out/$name.json" "$here/expected/"; exit 0
fi
status=0
for f in "$name.txt" "$name.json"; do
  diff -u --label "expected/$f" --label "augur $line" "$here/expected/$f" "$out/$f" | head -200 || status=1
done
exit $status
