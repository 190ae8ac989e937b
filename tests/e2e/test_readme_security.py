"""The README's table of who may do what is the one runtime/tests/security/matrix.tsv holds.

runtime/tests/security_matrix.rs runs every cell of the file against a real server and
issuer; scripts/readme-security.py writes the file into the README.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_security_table_is_the_matrix_the_tests_run() -> None:
    checked = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "readme-security.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stderr + checked.stdout
    readme = (ROOT / "runtime" / "src" / "guide" / "serving.md").read_text()
    matrix = (ROOT / "runtime" / "tests" / "security" / "matrix.tsv").read_text()
    rows = [line for line in matrix.splitlines() if line and not line.startswith("#")][1:]
    assert len(rows) >= 30, len(rows)
    for row in rows:
        transport, _, operation, *_ = row.split("\t")
        assert f"| {transport} |" in readme and f"`{operation}`" in readme, row
