#!/bin/sh
# Fails when a C++ file differs from .clang-format (CTest's Format.Cpp; CI runs it).
# Exit 77 (skipped) when clang-format is not installed.
# Fix: git ls-files '*.cc' '*.h' | xargs clang-format -i
cd "$(dirname "$0")/.." || exit 1
command -v clang-format >/dev/null 2>&1 || { echo "clang-format is not installed"; exit 77; }
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  files=$(git ls-files '*.cc' '*.h')
else
  files=$(find src tests bench -name '*.cc' -o -name '*.h')
fi
# shellcheck disable=SC2086  # one word per file; our paths hold no spaces
clang-format --dry-run --Werror $files
