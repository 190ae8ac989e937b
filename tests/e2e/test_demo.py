"""The README's first command, scripts/demo.sh: its client script shows what it says it shows."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_demo_lists_searches_describes_and_shows_an_argument_error(server_bin: str):
    result = subprocess.run(
        [sys.executable, ROOT / "scripts/demo.py", server_bin, ROOT],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    sections = result.stdout.split("\n--- ")[1:]
    titles = [section.splitlines()[0] for section in sections]
    assert titles == [
        "tools/list",
        'search {"filter": "ext == \\"rs\\" && size > 20000", "path": "runtime/src"}',
        'read_attributes {"path": "README.md"}',
        'search {"filter": "ext == \\"rs\\"", "max_results": 0, "colour": "red"} (isError: true)',
    ]
    listed = sorted(line.split(":")[0] for line in sections[0].splitlines()[1:])
    assert listed == ["choose_and_describe", "choose_file", "describe_file", "index_files", "list_attributes", "read_attributes", "search"]
    # Every Rust file over 20,000 bytes under runtime/src, with its size, as the disk has them.
    found = {line.split()[-1]: int(line.split()[0]) for line in sections[1].splitlines()[1:]}
    expected = {
        str(path.relative_to(ROOT)): path.stat().st_size
        for path in (ROOT / "runtime/src").rglob("*.rs")
        if path.stat().st_size > 20000
    }
    assert expected, "runtime/src has no Rust file over 20,000 bytes: the demo's search needs a new bound"
    assert found == expected
    described = json.loads(sections[2].split("\n", 1)[1])
    readme = ROOT / "README.md"
    assert (described["path"], described["content_type"], described["size"], described["is_dir"]) == (
        "README.md",
        "text/markdown",
        readme.stat().st_size,
        False,
    )
    assert described["lines"] == readme.read_text().count("\n")
    assert sections[3].splitlines()[1] == (
        "invalid arguments for tool `search`: `max_results`: expected an integer from 1 to 1000; "
        "unknown argument `colour`"
    )
