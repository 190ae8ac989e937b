"""CONTRIBUTING.md's tables of an example's tools are that example's own listing, verbatim."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

PAGE = Path(__file__).resolve().parents[2] / "CONTRIBUTING.md"
TABLE = re.compile(r"<!-- tools of (\w+): ([^>]*?) -->\n(.*?)<!-- end of tools -->", re.S)


def test_the_file_search_table_is_the_servers_own_listing(server_bin: str) -> None:
    tables = {name: (args, table) for name, args, table in TABLE.findall(PAGE.read_text())}
    assert "file_search" in tables, "CONTRIBUTING.md has no generated table of file_search's tools"
    args, table = tables["file_search"]
    listed = subprocess.run(
        [server_bin, *args.split()], check=True, capture_output=True, text=True
    ).stdout
    # Every tool, prompt and resource, each once, in the order the server defines them:
    # by source file (asking.rs, indexing.rs, main.rs), then by line.
    rows = re.findall(r"^\| ((?:prompt |resource )?`[^`]+`) \|", listed, re.M)
    assert rows == [
        "`choose_file`",
        "`describe_file`",
        "`choose_and_describe`",
        "`index_files`",
        "`search`",
        "`list_attributes`",
        "`read_attributes`",
        "prompt `find_files`",
        "resource `files:///{+path}`",
    ], listed
    assert table == listed, (
        "CONTRIBUTING.md's table of file_search's tools differs from the server's own listing; "
        "run scripts/readme-tables.sh"
    )
