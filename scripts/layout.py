#!/usr/bin/env python3
"""Checks the runtime crate's layout against the rules its module comments state.

- `runtime/src` holds at most MAX_TOP entries besides `lib.rs`: one folder a stage.
- No source file under `runtime/src`, `macros/src` or `cargo-mcp-tool/src` is longer
  than MAX_FILE lines, and no function longer than MAX_FN lines (from its signature to
  its closing brace).
- The runtime warns on a type without `Debug` and on a `pub` item its public API does
  not reach: `#![warn(missing_debug_implementations, unreachable_pub)]` in its `lib.rs`,
  or both lints at `warn` or stricter in its `[lints]` (its own or the workspace's);
  and no file under `runtime/src` allows either away.
- Only `runtime/src/protocol/` speaks rmcp (`rmcp::` in its code), besides the
  re-export in `lib.rs` and the in-memory test client in `runtime/src/testing/`.
- No two modules of the runtime have one name in different folders, files and folders
  alike (a folder's `mod.rs` counted as the folder; `x.rs` beside its folder `x/` is
  one module; unit-test modules named `tests` aside): a name says what it holds, once.
- No folder of `runtime/src` or `macros/src` has an import circle among its children
  (modules that import each other, directly or in a ring), read from `crate::` and
  `super::` paths and `use crate::{...}` groups, test code left out.
- Every public type, trait, function, macro and type alias of `runtime/public-api.txt`,
  and every method of `Server`, is named in the pages a user reads to find things: the
  README, the guide (`runtime/src/guide/*.md`) or the page of a public module (its `//!`
  comment, or the `///` comment of a module declared inline in `lib.rs`). An item no page
  names is one nobody will find; it gets a sentence where it belongs, or goes. A type's
  methods, fields and variants are reached through the type's own page.

usage: scripts/layout.py [--list] [--root DIR]   (exit 1 naming each breach; --list prints
the top level of runtime/src; --root checks another checkout)
"""
import os
import re
import sys
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUNTIME = os.path.join(ROOT, "runtime", "src")
MACROS = os.path.join(ROOT, "macros", "src")
CLI = os.path.join(ROOT, "cargo-mcp-tool", "src")
MAX_TOP = 8
MAX_FILE = 600
MAX_FN = 80
RMCP_ALLOWED = ("protocol/", "testing/", "lib.rs")
# The lints that keep the runtime's types printable and its visibility honest.
RUNTIME_LINTS = ("missing_debug_implementations", "unreachable_pub")

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


def same_names(base):
    """Modules of one name in different folders of `base`: a file's stem, a folder's name
    (its `mod.rs`, or an `x.rs` beside it, being the same module), `tests` aside."""
    seen = {}
    for path in sources(base):
        module = module_of(os.path.relpath(path, base))
        if module and module[-1] != "tests":
            seen.setdefault(module[-1], set()).add(os.sep.join(module))
    return [
        (name, sorted(paths))
        for name, paths in sorted(seen.items())
        if len(paths) > 1
    ]


def module_of(rel):
    parts = rel[:-3].split(os.sep)
    return tuple(parts[:-1] if parts[-1] in ("lib", "main", "mod") else parts)


def imports(text, me):
    """The crate paths a module's code names: `crate::a::b`, `super::x`, `use crate::{..}`."""
    text = re.split(r"#\[cfg\(test\)\]", text)[0]
    text = re.sub(r"(?m)^\s*//.*$", "", text)
    found = [m.group(1).split("::") for m in re.finditer(r"\bcrate::((?:\w+::)*\w+)", text)]
    found += [list(me[:-1]) + m.group(1).split("::") for m in re.finditer(r"\bsuper::((?:\w+::)*\w+)", text)]
    for m in re.finditer(r"use\s+crate::((?:\w+::)*)\{", text):
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        prefix = [p for p in m.group(1).split("::") if p]
        # Each item of the group, nested groups flattened to their first segment: the
        # child a folder's module reaches is all a circle needs.
        body = re.sub(r"\{[^{}]*\}", "", text[m.end():i - 1])
        for item in body.split(","):
            head = re.match(r"\s*(\w+)", item)
            if head and head.group(1) != "self":
                found.append(prefix + [head.group(1)])
            elif head:
                found.append(prefix)
    return found


def circles(base):
    """Children of one folder module that import each other, directly or in a ring."""
    modules = {module_of(os.path.relpath(p, base)) for p in sources(base)}
    edges = {}
    for path in sources(base):
        rel = os.path.relpath(path, base)
        if os.path.basename(rel) == "tests.rs" or "tests" in rel.split(os.sep)[:-1]:
            continue
        me = module_of(rel)
        if not me:
            continue
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for target in imports(text, me):
            k = 0
            while k < len(me) and k < len(target) and me[k] == target[k]:
                k += 1
            if k < len(me) and k < len(target) and tuple(target[: k + 1]) in modules:
                edges.setdefault(me[:k], {}).setdefault(me[k], set()).add(target[k])
    found = []
    for folder, graph in sorted(edges.items()):
        for ring in strongly_connected(graph):
            if len(ring) > 1:
                found.append(("/".join(folder) or "(crate root)", sorted(ring)))
    return found


def strongly_connected(graph):
    """Tarjan's strongly connected components of `graph` (node -> set of nodes)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            ring = []
            while True:
                w = stack.pop()
                on.discard(w)
                ring.append(w)
                if w == v:
                    break
            out.append(ring)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


PAGE_KINDS = ("enum", "struct", "trait", "fn", "macro", "type")
# The files whose `//!` comment is the page of a public module (`mcp_tool::model`, ...).
MODULE_PAGES = ("model/mod.rs", "testing/mod.rs", "outcome/logging.rs",
                "outcome/masking/mod.rs", "outcome/otlp.rs")


def pages():
    """The text of the pages a user reads to find an item (see the module comment)."""
    texts = [open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()]
    guide = os.path.join(RUNTIME, "guide")
    texts += [open(os.path.join(guide, name), encoding="utf-8").read()
              for name in sorted(os.listdir(guide)) if name.endswith(".md")]
    with open(os.path.join(RUNTIME, "lib.rs"), encoding="utf-8") as f:
        lib = f.read()
    # lib.rs's page, and the pages of the modules it declares inline.
    texts += [line for line in lib.splitlines() if line.lstrip().startswith(("//!", "///"))]
    for page in MODULE_PAGES:
        with open(os.path.join(RUNTIME, page), encoding="utf-8") as f:
            texts += [line for line in f if line.lstrip().startswith("//!")]
    return "\n".join(texts)


def unmentioned(api_path):
    """The items of the public API list that no page names."""
    text = pages()
    words = set(re.findall(r"\w+", text))
    missing = []
    with open(api_path, encoding="utf-8") as f:
        for line in f:
            kind, _, path = line.strip().partition(" ")
            parts = path.split("::")
            if kind not in PAGE_KINDS or parts[0] == "guide":
                continue
            owner = parts[-2] if len(parts) >= 2 else ""
            if kind == "fn" and owner[:1].isupper() and owner != "Server":
                continue
            if parts[-1] not in words:
                missing.append(f"{kind} {path}")
    return missing


def lint_levels(manifest, workspace):
    """Each rust lint's level as the runtime's `Cargo.toml` sets it, its own or inherited."""
    with open(manifest, "rb") as f:
        lints = tomllib.load(f).get("lints", {})
    if lints.get("workspace") is True:
        with open(workspace, "rb") as f:
            lints = tomllib.load(f).get("workspace", {}).get("lints", {})
    levels = {}
    for name, setting in lints.get("rust", {}).items():
        levels[name] = setting.get("level") if isinstance(setting, dict) else setting
    return levels


def missing_lints(root):
    """The lints of RUNTIME_LINTS that the runtime does not warn on, or allows somewhere."""
    source = os.path.join(root, "runtime", "src")
    with open(os.path.join(source, "lib.rs"), encoding="utf-8") as f:
        lib = f.read()
    declared = set()
    for group in re.findall(r"#!\[(?:warn|deny|forbid)\(([^)]*)\)\]", lib):
        declared.update(name.strip() for name in group.split(","))
    levels = lint_levels(os.path.join(root, "runtime", "Cargo.toml"), os.path.join(root, "Cargo.toml"))
    problems = [
        f"runtime/src/lib.rs: `{lint}` is not warned on (`#![warn({', '.join(RUNTIME_LINTS)})]`)"
        for lint in RUNTIME_LINTS
        if lint not in declared and levels.get(lint) not in ("warn", "deny", "forbid")
    ]
    allowed = re.compile(r"#!?\[(?:allow|expect)\([^)]*\b(" + "|".join(RUNTIME_LINTS) + r")\b")
    for path in sources(source):
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                match = allowed.search(line)
                if match:
                    rel = os.path.relpath(path, root)
                    problems.append(f"{rel}:{number}: allows `{match.group(1)}`, which the runtime keeps clean")
    return problems


def rmcp_in_code(text):
    code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))
    return "rmcp::" in code


def main():
    global ROOT, RUNTIME, MACROS, CLI
    if "--root" in sys.argv:
        ROOT = os.path.abspath(sys.argv[sys.argv.index("--root") + 1])
        RUNTIME = os.path.join(ROOT, "runtime", "src")
        MACROS = os.path.join(ROOT, "macros", "src")
        CLI = os.path.join(ROOT, "cargo-mcp-tool", "src")
    problems = []
    top = sorted(e for e in os.listdir(RUNTIME) if e != "lib.rs")
    if len(top) > MAX_TOP:
        problems.append(f"runtime/src has {len(top)} entries besides lib.rs (at most {MAX_TOP}): {', '.join(top)}")
    for base in (RUNTIME, MACROS, CLI):
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
    problems += missing_lints(ROOT)
    for name, paths in same_names(RUNTIME):
        problems.append(f"runtime/src: {len(paths)} modules named {name}: {', '.join(paths)}")
    for base in (RUNTIME, MACROS):
        for folder, ring in circles(base):
            rel = os.path.relpath(base, ROOT)
            problems.append(f"{rel}: an import circle in {folder}, among {', '.join(ring)}")
    for item in unmentioned(os.path.join(ROOT, "runtime", "public-api.txt")):
        problems.append(f"{item}: public, and no page names it (README, guide, a module's page)")
    if "--list" in sys.argv:
        for entry in top:
            print(entry + ("/" if os.path.isdir(os.path.join(RUNTIME, entry)) else ""))
    for problem in problems:
        print(f"layout: {problem}", file=sys.stderr)
    print(f"layout: {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
