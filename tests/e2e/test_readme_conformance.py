"""CONTRIBUTING.md says what the conformance suites are expected to fail as their lists say it.

The lists are tests/conformance/expected-failures-<version>.yml, which scripts/conformance.sh
holds each run to; scripts/readme-conformance.py writes them into CONTRIBUTING.md.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
# A row of the Conformance section's table: version (spec) | P of T scenarios | checks |.
ROW = re.compile(r"^\| (\S+) \([0-9-]+\) \| (\d+) of (\d+) \| \d+ of \d+ \|$", re.M)


@pytest.fixture(scope="module")
def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "readme_conformance", ROOT / "scripts" / "readme-conformance.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def section(heading: str) -> str:
    text = (ROOT / "CONTRIBUTING.md").read_text()
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def test_the_page_lists_what_each_file_expects_to_fail(generator: ModuleType) -> None:
    files = generator.read_all()
    assert len(files) >= 2, [file.path.name for file in files]
    found = generator.SECTION.findall(section("Conformance"))
    assert len(found) == 1, "the Conformance section has no generated list of expected failures"
    written = found[0][1]
    for entry in (entry for file in files for entry in file.entries()):
        assert f"`{entry.scenario}`" in written, entry
    assert written == generator.render(files), (
        "CONTRIBUTING.md's expected conformance failures differ from "
        "tests/conformance/expected-failures-*.yml; run scripts/readme-conformance.py"
    )


def test_the_table_fails_the_scenarios_the_files_list_and_no_other(
    generator: ModuleType,
) -> None:
    files = {file.version: file for file in generator.read_all()}
    rows = {
        version: (int(passing), int(total))
        for version, passing, total in ROW.findall(section("Conformance"))
    }
    assert rows.keys() == files.keys(), "the table's suite versions are not the lists' versions"
    for version, (passing, total) in rows.items():
        listed = {entry.scenario for entry in files[version].entries()}
        assert total - passing == len(listed), (
            f"the table has {total - passing} scenarios of suite {version} fail, "
            f"but {files[version].path.name} lists {len(listed)}"
        )


@pytest.mark.parametrize(
    "text",
    [
        "server:\n  - tasks-lifecycle # no tasks extension\n",  # a group saying no why
        "server:\n  # Tasks.\n  - tasks-lifecycle\n  # Why.\n",  # a comment over nothing
        "server:\n  # Tasks.\n  - 'tasks-lifecycle'\n",  # a form the parser does not know
        "server: []\n  - tasks-lifecycle # listed after none\n",
        "server:\n",
    ],
)
def test_a_list_the_generator_cannot_read_whole_is_an_error(
    generator: ModuleType, tmp_path: Path, text: str
) -> None:
    path = tmp_path / "expected-failures-9.9.9.yml"
    path.write_text("# What this file is.\n#\n# What its entries share.\n" + text)
    with pytest.raises(generator.FormatError):
        generator.parse(path)
