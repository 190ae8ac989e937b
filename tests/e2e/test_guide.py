"""The guide (`mcp_tool::guide`) holds the reference; the README stays a front page.

Every page under runtime/src/guide/ is a module of `mcp_tool::guide` (so its examples run as
doctests and the crate's documentation shows it), the README's tour links every page by its
path in the clone (tests/e2e/test_links.py checks that each link leads to a file), and the
README keeps within 200 lines.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "runtime" / "src" / "guide"


def pages() -> list[str]:
    # attribute.md is the documentation of `#[mcp_tool]` itself, not a page of the guide.
    return sorted(path.stem for path in GUIDE.glob("*.md") if path.stem != "attribute")


def test_every_page_is_a_module_of_the_guide_and_the_readme_links_it() -> None:
    lib = (ROOT / "runtime" / "src" / "lib.rs").read_text()
    readme = (ROOT / "README.md").read_text()
    start = readme.index("\n## A tour of the features\n")
    tour = readme[start : readme.index("\n## ", start + 1)]
    assert len(pages()) >= 8, pages()
    for page in pages():
        assert re.search(
            rf'#\[doc = include_str!\("guide/{page}\.md"\)\]\s*pub mod {page} \{{\}}', lib
        ), f"runtime/src/guide/{page}.md is not a module of mcp_tool::guide"
        assert f"](runtime/src/guide/{page}.md)" in tour, f"the README's tour does not link {page}"


def test_the_readme_stays_short() -> None:
    lines = (ROOT / "README.md").read_text().splitlines()
    assert len(lines) <= 200, (
        f"the README has {len(lines)} lines: move reference into the guide, "
        "benches/RESULTS.md or CONTRIBUTING.md"
    )
