#!/usr/bin/env bash
# Rewrites CONTRIBUTING.md's tables of a server's tools from the server's own listing,
# between `<!-- tools of NAME: ARGS -->` and `<!-- end of tools -->`.
# tests/e2e/test_readme_tables.py fails when they differ.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build -p mcp-tool-file-search --locked --quiet
bin="${CARGO_TARGET_DIR:-target}/debug/file_search"
python3 - "$bin" <<'PY'
import re, subprocess, sys
from pathlib import Path

page = Path("CONTRIBUTING.md")
table = re.compile(r"(<!-- tools of (\w+): ([^>]*?) -->\n)(.*?)(<!-- end of tools -->)", re.S)

def listing(match: re.Match) -> str:
    if match.group(2) != "file_search":
        sys.exit(f"readme-tables: no binary known for {match.group(2)}")
    out = subprocess.run([sys.argv[1], *match.group(3).split()], check=True,
                         capture_output=True, text=True).stdout
    return match.group(1) + out + match.group(5)

text = page.read_text()
new = table.sub(listing, text)
page.write_text(new)
print("readme-tables: " + ("CONTRIBUTING.md rewritten" if new != text else "CONTRIBUTING.md already up to date"))
PY
