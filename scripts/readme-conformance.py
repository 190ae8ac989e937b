#!/usr/bin/env python3
"""Writes CONTRIBUTING.md's list of the conformance failures each suite version is expected to have.

The lists are tests/conformance/expected-failures-<version>.yml, the files that
scripts/conformance.sh hands to the suite. This writes them into CONTRIBUTING.md between
`<!-- expected failures of the conformance suites -->` and
`<!-- end of expected failures -->`, grouped as each file groups them, with each
group's why and each entry's: the file's comments. tests/e2e/test_readme_conformance.py
fails when CONTRIBUTING.md and the files disagree.

The files are read by a parser of the one shape they have (comments, `server: []` or
`server:` and a list of `- scenario # why`, groups apart by blank lines), so that the
check needs nothing beyond Python; anything else in them is an error, not a guess.

Usage: scripts/readme-conformance.py [--check]   (--check: fail, and change nothing,
when CONTRIBUTING.md is not what this would write)
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "CONTRIBUTING.md"
FILES = ROOT / "tests" / "conformance"
FILE_NAME = re.compile(r"expected-failures-(.+)\.yml")
SECTION = re.compile(
    r"(<!-- expected failures of the conformance suites -->\n)(.*?)(<!-- end of expected failures -->)",
    re.S,
)
# A scenario, or `scenario:check-id` for one check of it; then an optional `# why`.
NAME = r"[A-Za-z0-9][A-Za-z0-9_.-]*"
ENTRY = re.compile(rf"  - ({NAME})(?::({NAME}))?(?: +# (.+))?")


@dataclass
class Entry:
    scenario: str
    check: str | None
    why: str | None

    def markdown(self) -> str:
        if self.check is None:
            return f"`{self.scenario}`"
        return f"check `{self.check}` of `{self.scenario}`"


@dataclass
class Group:
    why: str
    entries: list[Entry] = field(default_factory=list)


@dataclass
class ExpectedFailures:
    version: str
    path: Path
    summary: list[str]
    groups: list[Group]

    def entries(self) -> list[Entry]:
        return [entry for group in self.groups for entry in group.entries]


class FormatError(Exception):
    """A list in a shape the parser does not read."""


def comment(line: str, indent: str) -> str | None:
    """The text of a comment line at this indent ("" for a bare `#`), or None."""
    if line == indent + "#":
        return ""
    if line.startswith(indent + "# "):
        return line[len(indent) + 2 :].strip()
    return None


def paragraphs(lines: list[str]) -> list[str]:
    """Comment lines joined into paragraphs, which bare `#` lines separate."""
    out: list[list[str]] = [[]]
    for text in lines:
        if text:
            out[-1].append(text)
        elif out[-1]:
            out.append([])
    return [" ".join(words) for words in out if words]


def parse(path: Path) -> ExpectedFailures:
    match = FILE_NAME.fullmatch(path.name)
    assert match, path
    name = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    lines = path.read_text().splitlines()

    header: list[str] = []
    while lines and (text := comment(lines[0], "")) is not None:
        header.append(text)
        lines.pop(0)
    # The first paragraph says what the file is; the rest, what its entries have in common.
    summary = paragraphs(header)[1:]
    at = len(header) + 1
    key = lines.pop(0) if lines else None
    if key == "server: []":
        if any(line.strip() for line in lines):
            raise FormatError(f"{name}:{at + 1}: nothing may follow `server: []`")
        return ExpectedFailures(match.group(1), path, summary, [])
    if key != "server:":
        raise FormatError(f"{name}:{at}: `server:` or `server: []` expected, not {key!r}")

    groups: list[Group] = []
    open_group: Group | None = None
    why: list[str] = []
    for number, line in enumerate(lines, at + 1):
        if not line.strip():
            if why:
                raise FormatError(f"{name}:{number}: a comment with no entry under it")
            open_group = None
        elif (text := comment(line, "  ")) is not None:
            if open_group is not None:
                raise FormatError(f"{name}:{number}: a group's comment goes above its entries")
            why.append(text)
        elif entry := ENTRY.fullmatch(line):
            if open_group is None:
                if not why:
                    raise FormatError(f"{name}:{number}: a group with no comment saying why")
                open_group = Group(" ".join(paragraphs(why)))
                groups.append(open_group)
                why = []
            open_group.entries.append(Entry(*entry.groups()))
        else:
            raise FormatError(f"{name}:{number}: not `  - scenario # why`: {line!r}")
    if why:
        raise FormatError(f"{name}: a comment with no entry under it at the end")
    if not groups:
        raise FormatError(f"{name}:{at}: `server:` with no entries; write `server: []`")
    return ExpectedFailures(match.group(1), path, summary, groups)


def version_key(version: str) -> list[tuple[int, str]]:
    """0.1.16 before 0.2.0-alpha.12 before 0.10.0: numbers compare as numbers."""
    return [(int(part), "") if part.isdigit() else (-1, part) for part in re.split(r"[.-]", version)]


def read_all() -> list[ExpectedFailures]:
    files = sorted(FILES.glob("expected-failures-*.yml"))
    if not files:
        raise FormatError(f"no expected-failures-*.yml under {FILES.relative_to(ROOT)}")
    return sorted((parse(path) for path in files), key=lambda file: version_key(file.version))


def count(entries: list[Entry]) -> str:
    scenarios = sum(entry.check is None for entry in entries)
    checks = len(entries) - scenarios
    parts = []
    if scenarios or not checks:
        parts.append(f"{scenarios} scenario" + ("" if scenarios == 1 else "s"))
    if checks:
        parts.append(f"{checks} check" + ("" if checks == 1 else "s") + " of a scenario")
    return " and ".join(parts)


def group_markdown(group: Group) -> str:
    # The why most entries share goes once after the count; another goes after its entry.
    whys = Counter(entry.why for entry in group.entries if entry.why)
    common = whys.most_common(1)[0][0] if whys else None
    names = ", ".join(
        entry.markdown() + (f" ({entry.why})" if entry.why and entry.why != common else "")
        for entry in group.entries
    )
    shared = f" ({common})" if common else ""
    return f"- {group.why} {count(group.entries)}{shared}: {names}."


def render(files: list[ExpectedFailures]) -> str:
    out = []
    for file in files:
        entries = file.entries()
        lead = f"**{file.version}**: " + (count(entries) if entries else "nothing")
        lead += f" expected to fail (`{file.path.relative_to(ROOT)}`)."
        out.append(" ".join([lead, *file.summary]))
        out.append("")
        if file.groups:
            out.extend(group_markdown(group) for group in file.groups)
            out.append("")
    return "\n".join(out)


def main(argv: list[str]) -> int:
    check = argv == ["--check"]
    if argv and not check:
        print("usage: scripts/readme-conformance.py [--check]", file=sys.stderr)
        return 2
    try:
        generated = render(read_all())
    except FormatError as error:
        print(f"readme-conformance: {error}", file=sys.stderr)
        return 1
    text = PAGE.read_text()
    sections = SECTION.findall(text)
    if len(sections) != 1:
        print(
            f"readme-conformance: CONTRIBUTING.md has {len(sections)} sections between "
            "`<!-- expected failures of the conformance suites -->` and "
            "`<!-- end of expected failures -->`, not one",
            file=sys.stderr,
        )
        return 1
    new = SECTION.sub(lambda match: match.group(1) + generated + match.group(3), text)
    if check:
        if new != text:
            print(
                "readme-conformance: CONTRIBUTING.md's expected conformance failures differ from "
                "tests/conformance/expected-failures-*.yml; run scripts/readme-conformance.py",
                file=sys.stderr,
            )
            return 1
        print("readme-conformance: CONTRIBUTING.md agrees with the expected failures")
        return 0
    PAGE.write_text(new)
    print("readme-conformance: " + ("CONTRIBUTING.md rewritten" if new != text else "CONTRIBUTING.md already up to date"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
