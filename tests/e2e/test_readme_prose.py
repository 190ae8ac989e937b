"""The README's prose about performance quotes the committed results' table, not its own.

Every ratio (`1.42×`) and every figure of calls per second (`8,035 calls/s`) in the
"Reading the table" section must be one the benchmark table above it (written from
benches/results/ and checked by test_readme_tables.py) holds.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_figure_the_performance_prose_quotes_is_in_the_table() -> None:
    text = (ROOT / "README.md").read_text()
    table = text[text.index("<!-- benchmark report:") : text.index("<!-- end of benchmark report -->")]
    start = text.index("### Reading the table")
    prose = text[start : text.index("\n## ", start)]
    cells = {cell.strip() for line in table.splitlines() for cell in line.split("|")}
    ratios = re.findall(r"(\d+\.\d\d)×", prose)
    rates = re.findall(r"([\d,]+ calls/s)", prose)
    assert ratios and rates, "the section quotes no figure: the check would check nothing"
    for ratio in ratios:
        assert ratio in cells, f"{ratio}× is quoted but is no ratio of the table"
    for rate in rates:
        assert rate in cells, f"{rate} is quoted but is no figure of the table"
