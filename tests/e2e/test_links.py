"""Every relative link of the pages a reader of a clone follows leads somewhere.

In README.md, CONTRIBUTING.md, SECURITY.md, CHANGELOG.md, cargo-mcp-tool/README.md,
benches/RESULTS.md and the guide (runtime/src/guide/*.md), a link without a scheme names a file or folder of the clone,
relative to the page, and an `#anchor` (alone, or after a `.md` file) is the slug of one of
that page's headings, as GitHub makes it: lowercase, spaces to `-`, punctuation but `-`
and `_` dropped, `-1`, `-2`, ... after a heading met before. The guide's pages are also
rustdoc's, so a target there that reads as a Rust path (`Server`, `crate::Server`) is an
intra-doc link, which `cargo doc -D warnings` checks instead.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "runtime" / "src" / "guide"


def pages() -> list[Path]:
    return [
        ROOT / "README.md",
        ROOT / "CONTRIBUTING.md",
        ROOT / "SECURITY.md",
        ROOT / "CHANGELOG.md",
        ROOT / "cargo-mcp-tool" / "README.md",
        ROOT / "benches" / "RESULTS.md",
        *sorted(GUIDE.glob("*.md")),
    ]


FENCE = re.compile(r"^ {0,3}(```|~~~).*?^ {0,3}\1[^\n]*$", re.S | re.M)
COMMENT = re.compile(r"<!--.*?-->", re.S)
CODE = re.compile(r"`[^`]*`")
INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^()\s<>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.M)
HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$", re.M)
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
RUST_PATH = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_][A-Za-z0-9_]*)*(\(\)|!)?$")


def prose(text: str) -> str:
    """The page without what holds no link: fenced code and HTML comments."""
    return COMMENT.sub("", FENCE.sub("", text))


def slug(heading: str) -> str:
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text, not its target
    text = re.sub(r"[^\w\- ]", "", text.strip().lower())
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    found = set()
    for match in HEADING.finditer(prose(path.read_text())):
        base = slug(match.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(path: Path) -> list[str]:
    text = CODE.sub("", prose(path.read_text()))
    return [m.group(1) for m in INLINE.finditer(text)] + DEFINITION.findall(text)


def broken(path: Path, rustdoc: bool = False) -> list[str]:
    """Each relative link of `path` that names no file of the clone, or no heading of it."""
    problems = []
    for target in links(path):
        if not target or SCHEME.match(target) or (rustdoc and RUST_PATH.match(target)):
            continue
        file, _, anchor = target.partition("#")
        resolved = (path.parent / file).resolve() if file else path
        where = f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name}: ({target})"
        if not resolved.exists():
            problems.append(f"{where}: no file {file}")
        elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
            problems.append(f"{where}: {resolved.name} has no heading #{anchor}")
    return problems


@pytest.mark.parametrize("page", pages(), ids=lambda page: str(page.relative_to(ROOT)))
def test_every_relative_link_leads_to_a_file_and_a_heading(page: Path) -> None:
    assert page.exists(), page
    problems = broken(page, rustdoc=page.parent == GUIDE)
    assert not problems, "\n".join(problems)


def test_the_pages_link_each_other() -> None:
    # A checker that finds no link checks nothing: the pages this test reads have some.
    relative = [
        target for page in pages() for target in links(page) if target and not SCHEME.match(target)
    ]
    assert len(relative) >= 20, relative
    assert any("#" in target for target in relative), relative


def test_slugs_are_githubs() -> None:
    assert slug("A tour of the features") == "a-tour-of-the-features"
    assert slug("Features, and what each costs to build") == "features-and-what-each-costs-to-build"
    assert slug("`#[arg(...)]` options") == "arg-options"
    assert slug("Parameters the server gives: `Context` and `State<T>`") == (
        "parameters-the-server-gives-context-and-statet"
    )
    assert slug("snake_case and kebab-case") == "snake_case-and-kebab-case"
    assert slug("See [the guide](guide.md)") == "see-the-guide"


def test_a_broken_link_or_anchor_is_named(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# Other page\n\n## A section, with commas\n\n## A section, with commas\n")
    page = tmp_path / "page.md"
    page.write_text(
        "# Page\n\n## Here\n\n"
        "[fine](other.md) [fine](other.md#a-section-with-commas) [fine](other.md#a-section-with-commas-1)\n"
        "[fine](#here) [fine](https://example.com/nowhere.md) ![fine](other.md)\n"
        "[no file](missing.md) [no heading](other.md#a-section) [no heading here](#there)\n"
        "![no image](missing.svg) [a reference][ref]\n"
        "`[in code](also-missing.md)`\n\n"
        "```md\n[in a block](missing-too.md)\n# Not a heading\n```\n\n"
        "[ref]: gone.md#x\n"
    )
    problems = broken(page)
    assert [problem.split(": ", 1)[1] for problem in problems] == [
        "(missing.md): no file missing.md",
        "(other.md#a-section): other.md has no heading #a-section",
        "(#there): page.md has no heading #there",
        "(missing.svg): no file missing.svg",
        "(gone.md#x): no file gone.md",
    ], problems
    assert "not-a-heading" not in anchors(page)


def test_a_rust_path_is_left_to_rustdoc_on_the_guides_pages_only(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("[`Server`](Server) and [`serve`](crate::Server::serve_http)\n")
    assert broken(page, rustdoc=True) == []
    assert [problem.split(": ", 1)[1] for problem in broken(page)] == ["(Server): no file Server"]
