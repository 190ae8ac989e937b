"""The README's table of clean build times by feature is the one the committed results
give (benches/build-features.sh writes them; benches/build_features_table.py renders)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_shows_the_committed_build_times() -> None:
    table = subprocess.run(
        [sys.executable, str(ROOT / "benches" / "build_features_table.py")],
        capture_output=True, text=True, check=True,
    ).stdout
    assert table.count("\n") == 9, table
    assert table in (ROOT / "README.md").read_text(), "README.md's build table differs from benches/results"
