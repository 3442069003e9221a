#!/usr/bin/env python3
"""List Rust functions longer than N lines (default 80) and files longer than M lines
(default 800), so issue 24's "no function over 80 lines, no file over 800 lines outside
tests and generated tables" can be checked by anyone.

Run from the repository root:

    python3 scripts/house/fn_lengths.py [FN_MAX [FILE_MAX]]

Tests (`tests/`, `*/tests/`, `tests.rs` files) and `fuzz/` are skipped. Exit status 1 when
something is over a limit. The brace counting is a heuristic (strings and `//` comments
are blanked first), good enough for this code base's rustfmt layout.
"""
import re
import subprocess
import sys

FN = re.compile(r"\s*(pub(\([^)]*\))?\s+)?(const\s+)?(unsafe\s+)?fn\s+(\w+)")


def skipped(path):
    return (
        path.startswith("tests/")
        or "/tests/" in path
        or path.endswith("/tests.rs")
        or path.startswith("fuzz/")
    )


def code_part(line):
    """The line without string and char literals and `//` comments."""
    s = re.sub(r'"([^"\\]|\\.)*"', '""', line)
    s = re.sub(r"'([^'\\]|\\.)'", "''", s)
    return s.split("//")[0]


def long_functions(path, lines, limit):
    out = []
    for i, line in enumerate(lines):
        m = FN.match(line)
        if not m:
            continue
        depth, opened, j = 0, False, i
        while j < len(lines):
            s = code_part(lines[j])
            for ch in s:
                if ch == "{":
                    depth += 1
                    opened = True
                elif ch == "}":
                    depth -= 1
            if opened and depth == 0:
                break
            if not opened and s.rstrip().endswith(";"):
                break
            j += 1
        n = j - i + 1
        if n > limit:
            out.append((n, path, i + 1, m.group(5)))
    return out


def main():
    fn_max = int(sys.argv[1]) if len(sys.argv) > 1 else 80
    file_max = int(sys.argv[2]) if len(sys.argv) > 2 else 800
    files = subprocess.check_output(["git", "ls-files", "*.rs"], text=True).split()
    functions, long_files = [], []
    for path in files:
        if skipped(path):
            continue
        lines = open(path, encoding="utf-8").read().split("\n")
        functions += long_functions(path, lines, fn_max)
        # `wc -l` counts newlines: a file ending in one has len(lines) - 1 lines.
        count = len(lines) - 1 if lines and lines[-1] == "" else len(lines)
        if count > file_max:
            long_files.append((count, path))
    print(f"functions over {fn_max} lines: {len(functions)}")
    for n, path, line, name in sorted(functions, reverse=True):
        print(f"  {n} {path}:{line} {name}")
    print(f"files over {file_max} lines: {len(long_files)}")
    for n, path in sorted(long_files, reverse=True):
        print(f"  {n} {path}")
    sys.exit(1 if functions or long_files else 0)


if __name__ == "__main__":
    main()
