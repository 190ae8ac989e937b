"""The MCP Inspector's CLI against the example server, over stdio and over HTTP.

`--strict` lints every tool's schemas for portability (type arrays, bare `true`
schemas, untyped schemas, remote `$ref`s) and exits 6 on an error; a warning only
shows in its report. Here any finding fails: the JSON envelope must have no
`schemaFindings`. scripts/setup-inspector.sh installs the Inspector (and Node 22 where
the machine's is older) under target/, and scripts/e2e.sh passes its paths on.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from conftest import FILES


@pytest.fixture(scope="module")
def inspector() -> list[str]:
    node, script = os.environ.get("INSPECTOR_NODE"), os.environ.get("INSPECTOR_JS")
    if not (node and script):
        why = os.environ.get("INSPECTOR_UNAVAILABLE") or "run the tests through scripts/e2e.sh, which installs it"
        pytest.skip(f"the MCP Inspector is not installed: {why}")
    return [node, script, "--cli"]


@pytest.fixture(params=["stdio", "http", "stateless"])
def target(request: pytest.FixtureRequest, server_bin: str, tree: Path) -> list[str]:
    """How the Inspector reaches the server: a command to run, or a URL."""
    if request.param == "stdio":
        return [server_bin, "--root", str(tree)]
    url = request.getfixturevalue("http_url" if request.param == "http" else "stateless_url")
    return [url, "--transport", "http"]


def run(inspector: list[str], target: list[str], *args: str) -> tuple[dict, str]:
    """Runs the Inspector's CLI once; its JSON envelope and its stderr."""
    done = subprocess.run(
        [*inspector, *target, *args, "--format", "json"],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, f"the Inspector exited {done.returncode}:\n{done.stderr}\n{done.stdout}"
    return json.loads(done.stdout), done.stderr


def test_the_inspector_finds_nothing_to_lint(inspector: list[str], target: list[str]) -> None:
    envelope, stderr = run(inspector, target, "--method", "tools/list", "--strict")
    tools = sorted(tool["name"] for tool in envelope["result"]["tools"])
    assert tools == ["choose_and_describe", "choose_file", "describe_file", "index_files", "list_attributes", "read_attributes", "search"]
    findings = envelope.get("schemaFindings", [])
    assert not findings, f"the Inspector's --strict findings:\n{json.dumps(findings, indent=2)}\n{stderr}"
    # Its report on stderr, had there been one, names each finding this way.
    assert not re.search(r"^(Warning|Error): tool ", stderr, re.M), stderr


def test_the_inspector_calls_a_tool_with_a_field_left_out(inspector: list[str], target: list[str]) -> None:
    # A file has `lines`; a directory leaves it out, as its output schema allows.
    file, _ = run(inspector, target, "--method", "tools/call", "--tool-name", "read_attributes",
                  "--tool-args-json", '{"path": "README.txt"}')
    assert file["result"]["isError"] is False
    attributes = file["result"]["structuredContent"]
    assert (attributes["size"], attributes["lines"]) == (len(FILES["README.txt"]), 1)

    directory, _ = run(inspector, target, "--method", "tools/call", "--tool-name", "read_attributes",
                       "--tool-args-json", '{"path": "src"}')
    assert directory["result"]["isError"] is False
    assert directory["result"]["structuredContent"]["is_dir"] is True
    assert "lines" not in directory["result"]["structuredContent"]
