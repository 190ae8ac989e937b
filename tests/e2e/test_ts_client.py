"""The official TypeScript MCP SDK's client, of the 1.x line that clients ship, against the
example server (over stdio, and over HTTP with sessions and stateless) and the conformance
server (over HTTP).

tests/e2e/ts_client.mjs lists the tools with the SDK's `Client` and calls every one, with
arguments made from its input schema, and reports what the SDK threw. The SDK refuses a
whole `tools/list` over one output schema whose root is not an object (windbg-mcp#230), and
checks each call's `structuredContent` against the tool's output schema: a tool error
result is an answer here, a thrown parse or validation error is a failure. Each run gives
the client a name that picks a schema profile (see the guide's page on tools), so the SDK
reads the listing of `strict`, `inline` and `gemini`; `openai-strict` is picked by
`Server::schema_profile` alone, which neither server's command line sets. The client
declares no capabilities, so a tool that asks it something (elicitation, sampling, roots)
is still called, and answers with a tool error naming what the client lacks.
scripts/setup-tsclient.sh installs the SDK under target/, and scripts/e2e.sh passes its
paths on.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

pytestmark = pytest.mark.anyio

# The client name that gets each profile: one the runtime does not know for `strict` (the
# servers' own), and one of the clients it knows for the others.
PROFILES = {
    "strict": "mcp-tool-ts-client",
    "inline": "copilot-cli",
    "gemini": "gemini-cli-mcp-client",
}

# The example's arguments where the made ones would only get a tool error: a file and a
# directory that are in the test tree, so that the SDK checks a result's structured content.
FILE_SEARCH_ARGS = {
    "read_attributes": {"path": "README.txt"},
    "describe_file": {"path": "README.txt"},
    "choose_file": {"dir": "src"},
    "choose_and_describe": {"dir": "src"},
}

# The example's tools whose result is not an error whatever the client: they have output
# schemas, so the SDK checked each one's structured content.
FILE_SEARCH_SERVED = {"index_files", "list_attributes", "read_attributes", "search"}


@pytest.fixture(scope="module")
def ts_client() -> list[str]:
    node, modules = os.environ.get("TSCLIENT_NODE"), os.environ.get("TSCLIENT_MODULES")
    if not (node and modules):
        why = os.environ.get("TSCLIENT_UNAVAILABLE") or "run the tests through scripts/e2e.sh, which installs it"
        pytest.skip(f"the TypeScript SDK is not installed: {why}")
    return [node, str(Path(__file__).with_name("ts_client.mjs")), "--modules", modules]


@pytest.fixture
def conformance_url(tmp_path: Path) -> Iterator[str]:
    """The conformance server over HTTP on a free loopback port, as scripts/conformance.sh runs
    it; one for each test, since its `test_trigger_tool_change` changes its list of tools."""
    path = os.environ.get("CONFORMANCE_BIN")
    if not path or not os.access(path, os.X_OK):
        pytest.fail(f"CONFORMANCE_BIN is not an executable ({path!r}); run the tests through scripts/e2e.sh")
    log = tmp_path / "conformance.log"
    with log.open("w") as stderr:
        process = subprocess.Popen(
            [path, "--host", "127.0.0.1", "--port", "0"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
        )
    try:
        deadline = time.monotonic() + 30
        while not (found := re.search(r"at (http://\S+/mcp)", log.read_text())):
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the conformance server did not start:\n{log.read_text()}")
            time.sleep(0.02)
        yield found.group(1)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            pytest.fail("the conformance server did not stop within 10 s of SIGTERM")


def drive(ts_client: list[str], profile: str, target: list[str], *extra: str) -> dict:
    """Runs the driver once as the client of `profile`; its report."""
    done = subprocess.run(
        [*ts_client, "--client-name", PROFILES[profile], *extra, *target],
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, f"the driver exited {done.returncode}:\n{done.stderr}\n{done.stdout}"
    report = json.loads(done.stdout)
    assert report["sdk"].startswith("1."), report["sdk"]
    assert report["client"] == PROFILES[profile]
    return report


async def listed_by_python(server) -> list[str]:
    """The tool names the Python SDK's client lists: what the TypeScript one must list too."""
    async with Client(server, read_timeout_seconds=30) as client:
        return sorted(tool.name for tool in (await client.list_tools()).tools)


def schema_keys(value) -> set[str]:
    """Every key anywhere in a JSON value."""
    if isinstance(value, dict):
        return set(value).union(*(schema_keys(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(schema_keys(v) for v in value))
    return set()


def assert_profile_shown(report: dict, profile: str, strict_refers: bool = False) -> None:
    """The listing the SDK parsed is the one of `profile`: the client's name chose it.
    `strict_refers`: the server's strict listing has a `$ref`, which other profiles expand."""
    keys = schema_keys([tool["inputSchema"] for tool in report["listing"]])
    if profile == "strict":
        assert "additionalProperties" in keys, "the strict listing lost additionalProperties"
        assert ("$ref" in keys) == strict_refers, sorted(keys)
    if profile in ("inline", "gemini"):
        assert not keys & {"$ref", "$defs"}, f"the {profile} listing has references"
    if profile == "gemini":
        assert not keys & {"additionalProperties", "const"}, "the gemini listing has keywords Gemini rejects"


def assert_every_tool_called(report: dict, expected: list[str], skipped: list[str] = ()) -> None:
    """Every tool listed, each called but those skipped by name, and nothing thrown."""
    assert not report["errors"], "the TypeScript SDK threw:\n" + json.dumps(report["errors"], indent=2)
    assert sorted(report["tools"]) == expected
    assert sorted(report["skipped"]) == sorted(skipped)
    called = sorted(call["tool"] for call in report["calls"])
    assert called == sorted(set(expected) - set(skipped)), f"called {called}, skipped {report['skipped']}"


@pytest.mark.parametrize("profile", list(PROFILES))
@pytest.mark.parametrize("transport", ["stdio", "http", "stateless"])
async def test_the_ts_client_lists_and_calls_every_tool_of_the_example(
    ts_client: list[str], server_bin: str, tree: Path, transport: str, profile: str, request: pytest.FixtureRequest
) -> None:
    if transport == "stdio":
        server = StdioServerParameters(command=server_bin, args=["--root", str(tree)])
        target = ["--", server_bin, "--root", str(tree)]
    else:
        server = request.getfixturevalue("http_url" if transport == "http" else "stateless_url")
        target = ["--url", server]
    expected = await listed_by_python(server)
    assert len(expected) == 7, expected

    report = drive(ts_client, profile, target, "--args", json.dumps(FILE_SEARCH_ARGS))
    assert_every_tool_called(report, expected)
    # A stateless server keeps no session, so on `tools/list` it has no `clientInfo` (sent
    # with `initialize` alone on protocol 2025-11-25, the SDK's): every client gets `strict`.
    assert_profile_shown(report, "strict" if transport == "stateless" else profile)
    served = {call["tool"] for call in report["calls"] if not call["isError"]}
    assert served == FILE_SEARCH_SERVED, json.dumps(report["calls"], indent=2)
    with_output = {tool["name"] for tool in report["listing"] if "outputSchema" in tool}
    assert FILE_SEARCH_SERVED <= with_output
    assert all(call["structured"] for call in report["calls"] if call["tool"] in FILE_SEARCH_SERVED)
    read = next(call for call in report["calls"] if call["tool"] == "read_attributes")
    assert json.loads(read["text"])["path"] == "README.txt"


# The conformance server's tools that run only as a task. Their task is the extension
# `io.modelcontextprotocol/tasks` (SEP-2663), which the server declares; the SDK 1.x knows
# the tasks of protocol 2025-11-25 alone (`capabilities.tasks`), so it cannot start one, and
# the server refuses the plain call: test_a_task_only_tool_is_refused_with_a_clear_error.
TASK_ONLY = ["failing_job", "test_tool_with_task"]

# The conformance server's tools that fail on purpose, whatever the client.
FAILING_ON_PURPOSE = {"test_error_handling", "protocol_error_job"}


@pytest.mark.parametrize("profile", list(PROFILES))
async def test_the_ts_client_lists_and_calls_every_tool_of_the_conformance_server(
    ts_client: list[str], conformance_url: str, profile: str
) -> None:
    expected = await listed_by_python(conformance_url)
    assert len(expected) >= 20, expected

    skips = [arg for name in TASK_ONLY for arg in ("--skip", name)]
    report = drive(ts_client, profile, ["--url", conformance_url], *skips)
    assert_every_tool_called(report, expected, skipped=TASK_ONLY)
    assert_profile_shown(report, profile, strict_refers=True)
    # A tool error only where the client lacks what the tool asks of it, or on purpose.
    for call in report["calls"]:
        if call["isError"] and call["tool"] not in FAILING_ON_PURPOSE:
            assert re.search(r"the client (does not support|shares no) ", call["text"]), call
    served = {call["tool"] for call in report["calls"] if not call["isError"]}
    assert {"greet", "json_schema_2020_12_tool", "slow_compute", "test_simple_text"} <= served, served
    assert len(served) >= 12, served


async def test_a_task_only_tool_is_refused_with_a_clear_error(ts_client: list[str], conformance_url: str) -> None:
    report = drive(ts_client, "strict", ["--url", conformance_url])
    refused = sorted(error["tool"] for error in report["errors"])
    assert refused == TASK_ONLY, json.dumps(report["errors"], indent=2)
    for error in report["errors"]:
        assert error["message"].startswith("MCP error -32021: "), error
        assert f"the tool `{error['tool']}` runs only as a task" in error["message"], error
        assert "io.modelcontextprotocol/tasks" in error["message"], error


@pytest.mark.parametrize(
    ("mode", "stage", "message"),
    [
        # windbg-mcp#230: one output schema whose root is not an object, and no tool at all.
        ("array-root", "session", '"outputSchema",\n      "type"'),
        ("mismatch", "tools/call", "Structured content does not match the tool's output schema: data/count must be integer"),
    ],
)
def test_the_driver_reports_what_the_sdk_refuses(ts_client: list[str], mode: str, stage: str, message: str) -> None:
    # A server of the SDK's own serving what its client refuses: the driver must say so.
    bad_server = [ts_client[0], str(Path(__file__).with_name("ts_bad_server.mjs")), ts_client[-1], mode]
    report = drive(ts_client, "strict", ["--", *bad_server])
    assert [error["stage"] for error in report["errors"]] == [stage], report["errors"]
    assert message in report["errors"][0]["message"], report["errors"]
    assert report["calls"] == []
    # The whole listing is lost over the one schema, as the issue saw it.
    assert report["tools"] == ([] if mode == "array-root" else ["count"])
