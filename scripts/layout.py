#!/usr/bin/env python3
"""Checks the runtime crate's layout against the rules its module comments state.

- `runtime/src` holds at most MAX_TOP entries besides `lib.rs`: one folder a stage.
- No source file under `runtime/src` or `macros/src` is longer than MAX_FILE lines, and
  no function longer than MAX_FN lines (from its signature to its closing brace).
- Only `runtime/src/protocol/` speaks rmcp (`rmcp::` in its code), besides the
  re-export in `lib.rs` and the in-memory test client in `runtime/src/testing/`.

usage: scripts/layout.py [--list] [--root DIR]   (exit 1 naming each breach; --list prints
the top level of runtime/src; --root checks another checkout)
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUNTIME = os.path.join(ROOT, "runtime", "src")
MACROS = os.path.join(ROOT, "macros", "src")
MAX_TOP = 8
MAX_FILE = 600
MAX_FN = 80
RMCP_ALLOWED = ("protocol/", "testing/", "lib.rs")

FN = re.compile(r"^\s*(pub(\([^)]*\))?\s+)?(const\s+)?(async\s+)?(unsafe\s+)?fn\s+(\w+)")


def sources(base):
    for root, _, files in os.walk(base):
        for name in sorted(files):
            if name.endswith(".rs"):
                yield os.path.join(root, name)


def functions(lines):
    """(name, first line, length) of each function with a body, by brace counting."""
    found = []
    i = 0
    while i < len(lines):
        match = FN.match(lines[i])
        if not match:
            i += 1
            continue
        depth, started, j = 0, False, i
        while j < len(lines):
            code = re.sub(r'"(\\.|[^"\\])*"|//.*', "", lines[j])
            # A character literal holding a brace counts for nothing.
            code = re.sub(r"'[{}]'", "", code)
            if not started and ";" in code and "{" not in code:
                break  # a declaration without a body
            depth += code.count("{") - code.count("}")
            started = started or "{" in code
            if started and depth <= 0:
                found.append((match.group(6), i + 1, j - i + 1))
                break
            j += 1
        i += 1
    return found


def rmcp_in_code(text):
    code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))
    return "rmcp::" in code


def main():
    global ROOT, RUNTIME, MACROS
    if "--root" in sys.argv:
        ROOT = os.path.abspath(sys.argv[sys.argv.index("--root") + 1])
        RUNTIME = os.path.join(ROOT, "runtime", "src")
        MACROS = os.path.join(ROOT, "macros", "src")
    problems = []
    top = sorted(e for e in os.listdir(RUNTIME) if e != "lib.rs")
    if len(top) > MAX_TOP:
        problems.append(f"runtime/src has {len(top)} entries besides lib.rs (at most {MAX_TOP}): {', '.join(top)}")
    for base in (RUNTIME, MACROS):
        for path in sources(base):
            rel = os.path.relpath(path, ROOT)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            lines = text.splitlines()
            if len(lines) > MAX_FILE:
                problems.append(f"{rel}: {len(lines)} lines (at most {MAX_FILE})")
            for name, line, length in functions(lines):
                if length > MAX_FN:
                    problems.append(f"{rel}:{line}: fn {name} is {length} lines (at most {MAX_FN})")
            inner = os.path.relpath(path, RUNTIME)
            if base == RUNTIME and not inner.startswith(RMCP_ALLOWED) and rmcp_in_code(text):
                problems.append(f"{rel}: uses rmcp, which only runtime/src/protocol/ may")
    if "--list" in sys.argv:
        for entry in top:
            print(entry + ("/" if os.path.isdir(os.path.join(RUNTIME, entry)) else ""))
    for problem in problems:
        print(f"layout: {problem}", file=sys.stderr)
    print(f"layout: {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
