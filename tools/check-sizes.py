#!/usr/bin/env python3
"""Lists the tracked C++ files over the file limit and the functions over the function limit.

usage: tools/check-sizes.py [--file-lines N] [--function-lines N] [--tests]

Without --tests the product code only (everything outside tests/). Functions (free and member
functions; doctest's TEST_CASE bodies are not functions to ctags) and their extents come
from Universal Ctags (Debian: universal-ctags); a lambda counts towards its enclosing function.
Exit status 1 when something is over a limit, 0 otherwise.
"""
import argparse
import json
import subprocess
import sys
from pathlib import Path


def long_functions(root, names, limit):
    """(line count, "path:line: N lines: name") of every function longer than `limit` lines."""
    tags = subprocess.run(["ctags", "--output-format=json", "--kinds-C++=f", "--fields=+ne", "-o", "-", *names],
                          cwd=root, check=True, capture_output=True, text=True).stdout
    for line in tags.splitlines():
        tag = json.loads(line)
        if tag.get("_type") != "tag" or tag["name"].startswith("__anon") or "end" not in tag:
            continue
        count = tag["end"] - tag["line"] + 1
        if count > limit:
            yield count, f"{tag['path']}:{tag['line']}: {count} lines: {tag['name']}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file-lines", type=int, default=500)
    parser.add_argument("--function-lines", type=int, default=80)
    parser.add_argument("--tests", action="store_true", help="also check tests/")
    args = parser.parse_args()
    root = Path(__file__).resolve().parent.parent
    tracked = subprocess.run(["git", "ls-files", "*.cpp", "*.hpp"], cwd=root, check=True, capture_output=True,
                             text=True).stdout.split()
    names = [name for name in tracked if args.tests or not name.startswith("tests/")]
    over = []
    for name in names:
        count = len((root / name).read_text(encoding="utf-8", errors="replace").splitlines())
        if count > args.file_lines:
            over.append((count, f"{name}: {count} lines (file)"))
    over += long_functions(root, names, args.function_lines)
    for _, text in sorted(over, reverse=True):
        print(text)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
