"""The gateway example (runtime/examples/gateway.rs) fronting a server nobody here wrote:
`@modelcontextprotocol/server-everything` from npm, run by the gateway over stdio and
mounted as `everything`, driven by the official Python MCP client. Its tools are listed
under the namespace, `echo` and `get-sum` are called through the gateway, the progress of
`trigger-long-running-operation` reaches the client that made the call, and the upstream
killed mid-call gives that call an error naming it, the next call being served by the
restarted upstream; with `--http ADDR` the gateway serves the same over Streamable HTTP.
What an upstream writes on stderr reaches the gateway's log, masked. scripts/setup-everything.sh installs the server under target/, and
scripts/e2e.sh passes its paths on (EVERYTHING_NODE, EVERYTHING_JS) and builds the
example (EXAMPLES_DIR)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from pathlib import Path

import anyio
import pytest
from mcp import Client, StdioServerParameters

from test_examples import example

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def everything() -> list[str]:
    """The command that runs server-everything over stdio."""
    node, script = os.environ.get("EVERYTHING_NODE"), os.environ.get("EVERYTHING_JS")
    if not (node and script):
        why = os.environ.get("EVERYTHING_UNAVAILABLE") or "run the tests through scripts/e2e.sh, which installs it"
        pytest.skip(f"server-everything is not installed: {why}")
    return [node, script, "stdio"]


def gateway(everything: list[str]) -> StdioServerParameters:
    node, *args = everything
    return StdioServerParameters(command=example("gateway"), args=["--upstream", f"everything={node}", *args])


def upstream_pids(script: str) -> list[int]:
    """The processes running server-everything's script whose parent is a gateway."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().split(b"\0")
            parent = (entry / "stat").read_text().rsplit(")", 1)[1].split()[1]
            parent_cmd = (Path("/proc") / parent / "cmdline").read_bytes().split(b"\0")[0]
        except OSError:
            continue
        if script.encode() in cmdline and parent_cmd.endswith(b"/gateway"):
            found.append(int(entry.name))
    return found


async def test_the_upstreams_tools_are_listed_under_its_namespace(everything: list[str]) -> None:
    async with Client(gateway(everything)) as client:
        names = {tool.name for tool in (await client.list_tools()).tools}
    for tool in ["echo", "get-sum", "trigger-long-running-operation", "get-tiny-image"]:
        assert f"everything_{tool}" in names, sorted(names)
    assert all(name.startswith("everything_") for name in names), sorted(names)


async def test_echo_and_get_sum_are_called_through_the_gateway(everything: list[str]) -> None:
    async with Client(gateway(everything)) as client:
        echoed = await client.call_tool("everything_echo", {"message": "through the gateway"})
        assert not echoed.is_error
        assert echoed.content[0].text == "Echo: through the gateway"
        summed = await client.call_tool("everything_get-sum", {"a": 20, "b": 22})
        assert not summed.is_error
        assert "42" in summed.content[0].text, summed.content[0].text


async def test_the_long_running_operations_progress_reaches_the_caller(everything: list[str]) -> None:
    heard: list[tuple[float, float | None]] = []

    async def progress(done: float, total: float | None, message: str | None) -> None:
        heard.append((done, total))

    async with Client(gateway(everything)) as client:
        done = await client.call_tool(
            "everything_trigger-long-running-operation",
            {"duration": 1, "steps": 4},
            progress_callback=progress,
        )
    assert not done.is_error, done.content
    assert "Long running operation completed" in done.content[0].text
    assert heard == [(1.0, 4.0), (2.0, 4.0), (3.0, 4.0), (4.0, 4.0)]


async def test_the_upstream_killed_mid_call_fails_that_call_and_is_restarted(everything: list[str]) -> None:
    script = everything[1]
    started = anyio.Event()

    async def progress(done: float, total: float | None, message: str | None) -> None:
        started.set()

    async with Client(gateway(everything)) as client:
        before = upstream_pids(script)
        assert len(before) == 1, before
        async with anyio.create_task_group() as group:
            outcome: dict = {}

            async def long_call() -> None:
                outcome["result"] = await client.call_tool(
                    "everything_trigger-long-running-operation",
                    {"duration": 30, "steps": 30},
                    progress_callback=progress,
                )

            group.start_soon(long_call)
            with anyio.fail_after(20):
                await started.wait()
            os.kill(before[0], signal.SIGKILL)
        killed = outcome["result"]
        assert killed.is_error
        text = killed.content[0].text
        assert "the upstream server `everything` closed its connection during the call" in text, text
        # The next call waits for the restarted upstream and is served by it.
        again = await client.call_tool("everything_echo", {"message": "again"})
        assert not again.is_error, again.content
        assert again.content[0].text == "Echo: again"
        deadline = time.monotonic() + 10
        while (after := upstream_pids(script)) == before and time.monotonic() < deadline:
            await anyio.sleep(0.1)
        assert len(after) == 1 and after != before, (before, after)


async def test_the_gateway_serves_streamable_http_with_http(everything: list[str]) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    node, *args = everything
    command = [example("gateway"), "--http", f"127.0.0.1:{port}", "--upstream", f"everything={node}", *args]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        # It serves once the upstream is started and listed; it says so on stderr.
        for line in server.stderr:
            if "serving MCP over HTTP" in line:
                break
        else:
            pytest.fail(f"the gateway exited {server.wait()} without serving")
        async with Client(f"http://127.0.0.1:{port}/mcp") as client:
            echoed = await client.call_tool("everything_echo", {"message": "over HTTP"})
        assert not echoed.is_error
        assert echoed.content[0].text == "Echo: over HTTP"
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_an_upstreams_stderr_reaches_the_log_masked() -> None:
    fake = Path(__file__).resolve().parents[2] / "runtime" / "tests" / "upstream" / "fake_upstream.py"
    done = subprocess.run(
        [example("gateway"), "--upstream", "fake=python3", str(fake)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    # The fake upstream writes an API key on stderr as it starts.
    assert "fake upstream started with api_key=***" in done.stderr, done.stderr
    assert "sk-live" not in done.stderr, done.stderr
