#!/usr/bin/env python3
"""Fails when an `rmcp` type appears in mcp-tool's public API outside the escape hatch.

The runtime serves with rmcp, but its users never name an rmcp type: a new major
version of rmcp must not break a program written against mcp-tool. This check reads
the crate's public API from rustdoc's JSON output (built with every feature but `rmcp`,
the escape hatch: the API the compatibility promise covers), walks every public item from the crate root
(modules, re-exports, functions and their signatures, fields, variants, trait and
inherent impls, trait items), and reports each item that mentions a type or trait
from rmcp. The documented escape hatch is listed in ESCAPE_HATCH below; an entry there
that the walk no longer meets is an error too, so the check cannot pass by seeing
nothing.

It also checks that what users copy (the README, the guide, the examples, the UI pass cases)
names no rmcp item.

rustdoc's JSON output is unstable; RUSTC_BOOTSTRAP lets the stable toolchain the
project pins produce it, in a target directory of its own so that the main build's
cache is left alone.

It prints the public API too, one item a line, and fails when that list differs from
runtime/public-api.txt, so that every change of the public API shows in review: run it
with --bless to write the new list.

Usage: scripts/public_api.py [--json PATH] [--bless]   (PATH: an already built rustdoc JSON)
"""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# (item, rmcp path it may name): the escape hatch, documented on each item.
ESCAPE_HATCH = {
    # ToolServer is an rmcp ServerHandler, for transports mcp-tool does not wrap.
    ("impl ServerHandler for ToolServer", "rmcp::handler::server::ServerHandler"),
    # A tool may convert rmcp's result into ours, and back.
    ("impl From<CallToolResult> for ToolResult", "rmcp::model::CallToolResult"),
    ("impl From<ToolResult> for CallToolResult", "rmcp::model::CallToolResult"),
}

CHILD_LISTS = ("items", "fields", "variants", "impls", "implementations")

API_LIST = ROOT / "runtime" / "public-api.txt"

# Features the list leaves out: `rmcp`, whose re-export the promise leaves out, and the
# name of the default set.
LEFT_OUT_FEATURES = {"rmcp", "default"}

# rustdoc's kind of item, as the list names it.
KINDS = {"module": "mod", "struct": "struct", "enum": "enum", "function": "fn", "trait": "trait",
         "type_alias": "type", "constant": "const", "static": "static", "macro": "macro",
         "proc_macro": "macro", "struct_field": "field", "variant": "variant",
         "assoc_type": "type", "assoc_const": "const"}

COPIED_SOURCES = ["README.md", "runtime/src/guide", "runtime/examples", "ui-tests/pass"]


def features():
    """Every feature of mcp-tool's manifest but those left out, as `--features` takes them."""
    metadata = json.loads(subprocess.run(
        ["cargo", "metadata", "--no-deps", "--locked", "--format-version", "1"],
        cwd=ROOT, check=True, capture_output=True, text=True).stdout)
    runtime = next(p for p in metadata["packages"] if p["name"] == "mcp-tool")
    return ",".join(sorted(set(runtime["features"]) - LEFT_OUT_FEATURES))


def build_json():
    target = ROOT / "target" / "public-api"
    env = dict(os.environ, RUSTC_BOOTSTRAP="1", CARGO_TARGET_DIR=str(target),
               RUSTDOCFLAGS="-Z unstable-options --output-format json")
    chosen = features()
    print(f"public_api: building rustdoc JSON of mcp-tool (features {chosen}) in "
          "target/public-api", file=sys.stderr)
    subprocess.run(["cargo", "doc", "-p", "mcp-tool", "--no-deps", "--features", chosen,
                    "--locked", "--quiet"],
                   cwd=ROOT, env=env, check=True)
    return target / "doc" / "mcp_tool.json"


class Api:
    def __init__(self, doc):
        self.index = doc["index"]
        self.paths = doc["paths"]
        self.crates = {int(k): v["name"] for k, v in doc["external_crates"].items()}
        self.root = str(doc["root"])

    def crate_of(self, item_id):
        entry = self.paths.get(str(item_id))
        if entry is None:
            return None, None
        return self.crates.get(entry["crate_id"]), "::".join(entry["path"])

    def type_name(self, ty):
        """A short readable name of a type in rustdoc's JSON."""
        if isinstance(ty, dict) and "resolved_path" in ty:
            return ty["resolved_path"]["path"].split("::")[-1]
        return "?"

    def name_of(self, item, parent, alias=None):
        inner = item["inner"]
        if "impl" in inner:
            impl = inner["impl"]
            trait = impl.get("trait")
            target = self.type_name(impl["for"])
            if trait:
                generic = ""
                args = (trait.get("args") or {}).get("angle_bracketed", {}).get("args", [])
                if args and "type" in args[0]:
                    generic = "<" + self.type_name(args[0]["type"]) + ">"
                return f"impl {trait['path'].split('::')[-1]}{generic} for {target}"
            return f"impl {target}"
        name = alias or item.get("name") or "?"
        return f"{parent}::{name}" if parent else name

    def rmcp_references(self, node, found):
        """Every rmcp path that `node` names, outside the child items it lists."""
        if isinstance(node, dict):
            if isinstance(node.get("id"), int) and isinstance(node.get("path"), str):
                krate, path = self.crate_of(node["id"])
                if krate == "rmcp":
                    found.add(path)
            for key, value in node.items():
                if key in CHILD_LISTS:
                    continue
                self.rmcp_references(value, found)
        elif isinstance(node, list):
            for value in node:
                self.rmcp_references(value, found)

    def children(self, inner):
        ids = []

        def collect(node):
            if isinstance(node, dict):
                for key, value in node.items():
                    if key in CHILD_LISTS and isinstance(value, list):
                        ids.extend(v for v in value if isinstance(v, int))
                    elif key in CHILD_LISTS and isinstance(value, dict):
                        collect(value)
                    elif key == "tuple" and isinstance(value, list):
                        ids.extend(v for v in value if isinstance(v, int))
                    elif key in ("kind", "struct", "enum", "variant", "trait", "module",
                                 "union", "plain", "impl"):
                        collect(value)
                    elif key == "use" and isinstance(value, dict) and value.get("id") is not None:
                        ids.append(value["id"])
            return ids

        return collect(inner)

    def walk(self):
        """(item name, rmcp paths) for every public item that names rmcp; the public
        items themselves are kept in `self.listed`."""
        self.listed = set()
        findings = []
        seen = set()
        queue = [(self.root, "", None)]
        while queue:
            # `alias`: the name a `use ... as alias` re-exports the item under.
            item_id, parent, alias = queue.pop()
            if item_id in seen or item_id not in self.index:
                continue
            seen.add(item_id)
            item = self.index[item_id]
            inner = item["inner"]
            impl = inner.get("impl")
            if impl is not None and (impl.get("is_synthetic") or impl.get("blanket_impl")):
                continue  # auto traits and other crates' blanket impls: not our API
            name = self.name_of(item, parent, alias)
            found = set()
            self.rmcp_references(inner, found)
            if "use" in inner and inner["use"].get("id") is not None:
                krate, path = self.crate_of(inner["use"]["id"])
                if krate == "rmcp":
                    found.add(path)
            for path in sorted(found):
                findings.append((name, path))
            kind = next(iter(inner), "")
            if kind in KINDS and item_id != self.root:
                self.listed.add(f"{KINDS[kind]} {name}")
            elif kind == "impl" and impl.get("trait"):
                self.listed.add(name)
            child_parent = parent if ("impl" in inner or "use" in inner) else name
            if impl is not None and impl.get("trait"):
                continue  # a trait's items are the trait's API, listed with the trait
            if item_id == self.root:
                child_parent = ""
            use = inner.get("use")
            renamed = use.get("name") if use and not use.get("is_glob") else None
            for child in self.children(inner):
                queue.append((str(child), child_parent, renamed))
        return findings


def copied_sources():
    """Lines of code users copy (the README's code blocks, examples, UI pass cases)
    that name an rmcp item."""
    pattern = re.compile(r"\brmcp::|\buse rmcp\b|\bextern crate rmcp\b")
    bad = []
    for entry in COPIED_SOURCES:
        path = ROOT / entry
        files = [path] if path.is_file() else sorted([*path.rglob("*.rs"), *path.rglob("*.md")])
        for file in files:
            in_code = file.suffix != ".md"
            for number, line in enumerate(file.read_text().splitlines(), 1):
                if file.suffix == ".md" and line.lstrip().startswith("```"):
                    in_code = not in_code
                elif in_code and pattern.search(line):
                    bad.append(f"{file.relative_to(ROOT)}:{number}: {line.strip()}")
    return bad


def main():
    args = sys.argv[1:]
    path = Path(args[args.index("--json") + 1]) if "--json" in args else build_json()
    api = Api(json.loads(path.read_text()))
    findings = api.walk()
    failed = False
    unexpected = [f for f in findings if f not in ESCAPE_HATCH]
    for name, rmcp_path in unexpected:
        print(f"public_api: `{name}` names `{rmcp_path}`, an rmcp item outside the escape hatch",
              file=sys.stderr)
        failed = True
    for name, rmcp_path in sorted(ESCAPE_HATCH - set(findings)):
        print(f"public_api: the escape hatch lists `{name}` naming `{rmcp_path}`, which the walk "
              "did not meet: update ESCAPE_HATCH, or the walk is broken", file=sys.stderr)
        failed = True
    for line in copied_sources():
        print(f"public_api: a source users copy names rmcp: {line}", file=sys.stderr)
        failed = True
    listed = sorted(api.listed)
    print("\n".join(listed))
    if "--bless" in args:
        API_LIST.write_text("\n".join(listed) + "\n")
    else:
        committed = API_LIST.read_text().splitlines() if API_LIST.exists() else []
        for line in sorted(set(committed) - set(listed)):
            print(f"public_api: gone from the public API: {line}", file=sys.stderr)
            failed = True
        for line in sorted(set(listed) - set(committed)):
            print(f"public_api: new in the public API: {line}", file=sys.stderr)
            failed = True
        if set(committed) != set(listed):
            print(f"public_api: the public API differs from {API_LIST.relative_to(ROOT)}; if the "
                  "change is meant, write the new list with scripts/public_api.py --bless",
                  file=sys.stderr)
    if failed:
        sys.exit(1)
    print(f"public_api: {len(listed)} public items as {API_LIST.relative_to(ROOT)} lists them; "
          f"no rmcp type in the public API outside the {len(ESCAPE_HATCH)} "
          "items of the escape hatch; README, examples and UI pass cases name no rmcp item")


if __name__ == "__main__":
    main()
