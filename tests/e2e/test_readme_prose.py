"""The prose about performance quotes the committed results' table, not its own.

Every ratio (`1.42×`) and every figure of calls per second (`8,035 calls/s`) in the
"Reading the table" section of benches/RESULTS.md, and in the README's Performance
paragraph, must be one the benchmark report of benches/RESULTS.md holds (written from
benches/results/ and checked by benches/tests/report.rs).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benches" / "RESULTS.md"


def section(text: str, heading: str) -> str:
    start = text.index(f"\n{heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def cells() -> set[str]:
    text = RESULTS.read_text()
    table = text[text.index("<!-- benchmark report:") : text.index("<!-- end of benchmark report -->")]
    return {cell.strip() for line in table.splitlines() for cell in line.split("|")}


@pytest.mark.parametrize(
    "path, heading",
    [("benches/RESULTS.md", "## Reading the table"), ("README.md", "## Performance")],
)
def test_every_figure_the_performance_prose_quotes_is_in_the_table(path: str, heading: str) -> None:
    prose = section((ROOT / path).read_text(), heading)
    table = cells()
    ratios = re.findall(r"(\d+\.\d\d)×", prose)
    rates = re.findall(r"([\d,]+ calls/s)", prose)
    assert ratios and rates, f"{path}'s {heading} quotes no figure: the check would check nothing"
    for ratio in ratios:
        assert ratio in table, f"{path}: {ratio}× is quoted but is no ratio of the table"
    for rate in rates:
        assert rate in table, f"{path}: {rate} is quoted but is no figure of the table"


def test_the_readme_links_the_results() -> None:
    prose = section((ROOT / "README.md").read_text(), "## Performance")
    assert "](benches/RESULTS.md)" in prose, "the README's Performance paragraph does not link the results"
