#!/usr/bin/env python3
"""Writes the guide's table (runtime/src/guide/serving.md) of who may do what from runtime/tests/security/matrix.tsv.

The file is the one runtime/tests/security_matrix.rs runs cell by cell against a real
server and issuer. This writes it into the guide's serving.md between `<!-- security matrix -->` and
`<!-- end of security matrix -->`, one row per transport and operation, the protocol
versions that answer alike sharing a row. tests/e2e/test_readme_security.py fails when the
README and the file disagree.

Usage: scripts/readme-security.py [--check]   (--check: fail, and change nothing, when
the guide's serving.md is not what this would write)
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "runtime" / "src" / "guide" / "serving.md"
MATRIX = ROOT / "runtime" / "tests" / "security" / "matrix.tsv"
SECTION = re.compile(r"(<!-- security matrix -->\n)(.*?)(<!-- end of security matrix -->)", re.S)


def read() -> tuple[list[str], list[list[str]]]:
    """The file's header and rows, comments left out."""
    lines = [line for line in MATRIX.read_text().splitlines() if line and not line.startswith("#")]
    header = lines[0].split("\t")
    rows = [line.split("\t") for line in lines[1:]]
    for row in rows:
        if len(row) != len(header):
            sys.exit(f"readme-security: a row of {len(row)} cells, not {len(header)}: {row}")
    return header, rows


def render(header: list[str], rows: list[list[str]]) -> str:
    """The table: transport, protocols, operation, then a column per caller."""
    merged: dict[tuple[str, str, tuple[str, ...]], list[str]] = {}
    for transport, protocol, operation, *cells in rows:
        merged.setdefault((transport, operation, tuple(cells)), []).append(protocol)
    out = [
        "| transport | protocol | operation | " + " | ".join(header[3:]) + " |",
        "|---" * len(header) + "|",
    ]
    for (transport, operation, cells), protocols in merged.items():
        shown = [cell if cell != "-" else "—" for cell in cells]
        out.append(
            f"| {transport} | {', '.join(protocols)} | `{operation}` | " + " | ".join(shown) + " |"
        )
    return "\n".join(out) + "\n"


def main() -> None:
    check = sys.argv[1:] == ["--check"]
    text = README.read_text()
    found = SECTION.search(text)
    if not found:
        sys.exit("readme-security: the guide's serving.md has no `<!-- security matrix -->` section")
    table = render(*read())
    new = text[: found.start(2)] + table + text[found.end(2) :]
    if check:
        if new != text:
            sys.exit(
                "readme-security: the guide's serving.md's table differs from runtime/tests/security/matrix.tsv; "
                "run scripts/readme-security.py"
            )
        print("readme-security: the guide's serving.md agrees with the matrix")
        return
    README.write_text(new)
    print("readme-security: " + ("the guide's serving.md rewritten" if new != text else "the guide's serving.md already up to date"))


if __name__ == "__main__":
    main()
