#!/usr/bin/env bash
# Rewrites every expected output of tests/golden/ with AUGUR (default build/dev/tools/augur).
# Run it only when a change of output is intended, then review `git diff tests/golden`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
augur=$(realpath "${1:-$here/../../build/dev/tools/augur}")
grep -v '^#' "$here/cases.txt" | awk 'NF { print $1 }' | while read -r name; do
  "$here/check.sh" "$augur" "$name" --refresh && echo "refreshed $name"
done
