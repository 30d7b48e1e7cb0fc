#!/usr/bin/env bash
# Fails when a tracked C++ file differs from what clang-format (.clang-format) makes of it.
set -euo pipefail
cd "$(dirname "$0")/.."
git ls-files '*.cpp' '*.hpp' | xargs clang-format --dry-run --Werror
echo "check-format: every C++ file formatted"
