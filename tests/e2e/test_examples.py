"""The runtime's examples (runtime/examples/), each built and run, driven by the official
Python MCP client: the Getting started server (the README's code, line for line), tools
defined at run time, lenient arguments beside strict ones, a tool that asks the user, and
HTTP with authorization and a scoped tool; and a task tool with Redis, two of its servers sharing one redis-server of the
test's own, driven by raw lines of protocol 2026-07-28. scripts/e2e.sh builds them and
names their folder in EXAMPLES_DIR."""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
from pathlib import Path

import httpx2
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.types import ElicitResult
from test_scale_out_tasks import redis_url  # noqa: F401 (a fixture)

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.anyio


def example(name: str) -> str:
    folder = os.environ.get("EXAMPLES_DIR")
    if not folder:
        pytest.fail("EXAMPLES_DIR is not set; run the tests through scripts/e2e.sh")
    path = Path(folder) / name
    if not os.access(path, os.X_OK):
        pytest.fail(f"the example {name} was not built: {path}")
    return str(path)


def test_the_getting_started_example_is_the_readmes_code() -> None:
    readme = (ROOT / "README.md").read_text()
    section = re.search(r"^## Getting started\n(.*?)^## ", readme, re.S | re.M)
    assert section, "README.md has no `## Getting started` section"
    main = re.search(r"^```rust[^\n]*\n(.*?)^```", section.group(1), re.S | re.M)
    assert main, "Getting started has no ```rust block"
    code = (ROOT / "runtime" / "examples" / "getting_started.rs").read_text()
    # The example is the README's code below its own module comment.
    body = "\n".join(line for line in code.splitlines() if not line.startswith("//!")).strip("\n") + "\n"
    assert body == main.group(1), "runtime/examples/getting_started.rs differs from the README's main.rs"


async def test_the_getting_started_example_serves_count_words() -> None:
    async with Client(StdioServerParameters(command=example("getting_started")), read_timeout_seconds=30) as client:
        assert [tool.name for tool in (await client.list_tools()).tools] == ["count_words"]
        result = await client.call_tool("count_words", {"text": "one two\nthree"})
        assert not result.is_error, result
        assert result.structured_content == {"lines": 2, "words": 3}


async def test_the_runtime_tools_example_adds_and_forgets_tools() -> None:
    params = StdioServerParameters(command=example("runtime_tools"), args=["hello", "goodbye"])
    async with Client(params, read_timeout_seconds=30) as client:
        names = sorted(tool.name for tool in (await client.list_tools()).tools)
        assert names == ["forget", "goodbye", "hello"]
        result = await client.call_tool("hello", {"times": 2})
        assert [block.text for block in result.content] == ["hello hello"]
        bad = await client.call_tool("hello", {"times": 11})
        assert bad.is_error and "`times`" in bad.content[0].text, bad
        forgotten = await client.call_tool("forget", {"word": "hello"})
        assert not forgotten.is_error, forgotten
        names = sorted(tool.name for tool in (await client.list_tools()).tools)
        assert names == ["forget", "goodbye"]


async def test_the_lenient_example_converts_what_only_its_lenient_tool_opts_into() -> None:
    sent = {"total": "10", "round_up": "true", "weights": "{\"a\":1}"}
    async with Client(StdioServerParameters(command=example("lenient_arguments")), read_timeout_seconds=30) as client:
        # The schema a client reads is the same, lenient or not.
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert tools["share"].input_schema == tools["share_exact"].input_schema
        served = await client.call_tool("share", sent)
        assert not served.is_error, served
        assert served.structured_content == {"a": 10}
        whole = await client.call_tool("share", {"total": 1.0, "weights": {"a": 1, "b": 3}, "round_up": True})
        assert not whole.is_error, whole
        assert whole.structured_content == {"a": 1, "b": 1}
        # A lossy conversion stays an argument error, in the lenient tool too.
        lossy = await client.call_tool("share", {"total": 1.5, "weights": {"a": 1}})
        assert lossy.is_error and "`total`: expected an integer" in lossy.content[0].text, lossy

        # The strict tool answers each of them with today's argument error.
        refused = await client.call_tool("share_exact", sent)
        assert refused.is_error, refused
        assert refused.content[0].text == (
            "invalid arguments for tool `share_exact`: `total`: expected an integer from 0 to "
            "4294967295; `weights`: expected an object; `round_up`: expected `true` or `false`"
        )
        for name, value in sent.items():
            one = {"total": 4, "weights": {"a": 1}, name: value}
            alone = await client.call_tool("share_exact", one)
            assert alone.is_error and f"`{name}`: expected" in alone.content[0].text, (name, alone)
        # A whole float is an integer by JSON Schema's own rule, strict or not: served as before.
        whole = await client.call_tool("share_exact", {"total": 1.0, "weights": {"a": 1}})
        assert not whole.is_error, whole
        assert whole.structured_content == {"a": 1}


async def test_the_asking_example_books_what_the_user_accepts() -> None:
    asked: list[str] = []

    async def answer(context, params) -> ElicitResult:
        asked.append(params.message)
        return ElicitResult(action="accept", content={"guests": 2, "time": "19:30"})

    async with Client(
        StdioServerParameters(command=example("asking")), read_timeout_seconds=30, elicitation_callback=answer
    ) as client:
        result = await client.call_tool("book_table", {"restaurant": "Chez Nous"})
        assert not result.is_error, result
        assert [block.text for block in result.content] == ["booked a table for 2 at Chez Nous at 19:30"]
        assert asked == ["How many guests, and when, at Chez Nous?"]


async def test_the_http_example_needs_the_key_and_checks_the_scope() -> None:
    server = subprocess.Popen(
        [example("http_scoped"), "127.0.0.1:0"],
        env={**os.environ, "NOTES_TOKEN": "dev-secret"},
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        url = server.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:"), url
        refused = httpx2.post(
            url,
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
            headers={"Accept": "application/json, text/event-stream"},
            timeout=10,
        )
        assert refused.status_code == 401, refused.text
        assert "resource_metadata=" in refused.headers["www-authenticate"]
        http = httpx2.AsyncClient(headers={"Authorization": "Bearer dev-secret"}, timeout=30)
        async with Client(streamable_http_client(url, http_client=http), read_timeout_seconds=30) as client:
            names = sorted(tool.name for tool in (await client.list_tools()).tools)
            assert names == ["add_note", "list_notes"]
            added = await client.call_tool("add_note", {"text": "buy milk"})
            assert [block.text for block in added.content] == ["note 1 added by developer"], added
            listed = await client.call_tool("list_notes", {})
            assert listed.structured_content == {"result": ["buy milk"]}, listed
    finally:
        server.terminate()
        server.wait(timeout=10)


class LineClient:
    """Raw JSON-RPC lines to a stdio server, as a client of protocol 2026-07-28 that
    declares the tasks extension sends them (no handshake on that version)."""

    META = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "examples-test", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}},
    }

    def __init__(self, command: list[str], env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            command, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
        )
        self.next_id = 0

    def request(self, method: str, params: dict) -> dict:
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": {**params, "_meta": self.META}}
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()
        while True:
            line = self.process.stdout.readline()
            assert line, f"the server closed its output before answering {method}"
            reply = json.loads(line)
            if reply.get("id") == self.next_id:
                return reply

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=10)


def test_the_tasks_example_shares_a_task_between_two_servers_through_redis(redis_url: str) -> None:
    env = {**os.environ, "REDIS_URL": redis_url}
    first = LineClient([example("tasks_redis")], env)
    second = LineClient([example("tasks_redis")], env)
    try:
        created = first.request("tools/call", {"name": "yearly_report", "arguments": {"year": 2025}})
        result = created.get("result", {})
        assert result.get("resultType") == "task", created
        task = result["taskId"]
        deadline = time.monotonic() + 20
        seen = []
        while True:
            got = second.request("tasks/get", {"taskId": task})
            status = got["result"]["status"]
            seen.append(status)
            if status in ("completed", "failed", "cancelled") or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert status == "completed", got
        assert got["result"]["result"]["content"][0]["text"] == "the report of 2025: 12 months", got
        assert "working" in seen, "the second server saw the task working before it ended"
    finally:
        first.close()
        second.close()
