"""The guide's table of clean build times by feature (runtime/src/guide/stability.md,
"Features, and what each costs to build") is the one the committed results give
(benches/build-features.sh writes them; benches/build_features_table.py renders)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "runtime" / "src" / "guide" / "stability.md"


def test_the_guide_shows_the_committed_build_times() -> None:
    table = subprocess.run(
        [sys.executable, str(ROOT / "benches" / "build_features_table.py")],
        capture_output=True, text=True, check=True,
    ).stdout
    assert table.count("\n") == 9, table
    text = PAGE.read_text()
    start = text.index("\n## Features, and what each costs to build\n")
    section = text[start : text.index("\n## ", start + 1)]
    assert table in section, f"{PAGE.relative_to(ROOT)}'s build table differs from benches/results"
