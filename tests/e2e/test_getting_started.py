"""The README's Getting started, done as a new user does it: a fresh crate made with its
`cargo new` and `cargo add` lines and its `main.rs`, built offline (mcp-tool by path,
everything else from cargo's local registry cache), then driven by a real MCP client."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

ROOT = Path(__file__).resolve().parents[2]


def getting_started() -> tuple[list[str], str]:
    """The shell lines and the `main.rs` of the README's Getting started section."""
    readme = (ROOT / "README.md").read_text()
    section = re.search(r"^## Getting started\n(.*?)^## ", readme, re.S | re.M)
    assert section, "README.md has no `## Getting started` section"
    shell = re.search(r"^```sh\n(.*?)^```", section.group(1), re.S | re.M)
    main = re.search(r"^```rust[^\n]*\n(.*?)^```", section.group(1), re.S | re.M)
    assert shell and main, "Getting started needs a ```sh block and a ```rust block"
    return shell.group(1).splitlines(), main.group(1)


def run(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True)
    assert done.returncode == 0, f"{shlex.join(args)} failed:\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def fresh_server(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Builds the README's program in a new crate and returns its binary."""
    lines, main = getting_started()
    commands = [shlex.split(part) for line in lines for part in line.split("&&")]
    new = next(c for c in commands if c[:2] == ["cargo", "new"])
    add = next(c for c in commands if c[:2] == ["cargo", "add"])
    assert "mcp-tool" in add, f"the `cargo add` line does not add mcp-tool: {add}"

    env = dict(os.environ)
    env.setdefault("CARGO_TARGET_DIR", str(ROOT / "target"))
    base = tmp_path_factory.mktemp("getting_started")
    run([*new, "--vcs", "none", "--offline"], base, env)
    crate = base / new[-1]
    # The workspace's versions, so that the build reuses its artifacts and stays offline.
    shutil.copy(ROOT / "Cargo.lock", crate / "Cargo.lock")
    others = [arg for arg in add[2:] if arg != "mcp-tool"]
    run(["cargo", "add", "--offline", "--path", str(ROOT / "runtime")], crate, env)
    run(["cargo", "add", "--offline", *others], crate, env)
    (crate / "src" / "main.rs").write_text(main)

    built = run(["cargo", "build", "--offline", "--message-format", "short"], crate, env)
    warnings = [line for line in built.stderr.splitlines() if "src/main.rs" in line]
    assert not warnings, "the README's main.rs does not build cleanly:\n" + "\n".join(warnings)
    binary = Path(env["CARGO_TARGET_DIR"]) / "debug" / new[-1]
    assert os.access(binary, os.X_OK), f"{binary} was not built"
    return binary


@pytest.mark.anyio
async def test_the_readme_program_serves_its_tool_to_a_real_client(fresh_server: Path) -> None:
    params = StdioServerParameters(command=str(fresh_server))
    async with Client(params, read_timeout_seconds=30) as client:
        tools = [tool.name for tool in (await client.list_tools()).tools]
        assert tools == ["count_words"]
        result = await client.call_tool("count_words", {"text": "one two\nthree"})
        assert not result.is_error, result
        assert result.structured_content == {"lines": 2, "words": 3}
        limited = await client.call_tool("count_words", {"text": "a\nb c\nd", "max_lines": 2})
        assert limited.structured_content == {"lines": 2, "words": 3}
        empty = await client.call_tool("count_words", {"text": ""})
        assert empty.is_error
        assert [block.text for block in empty.content] == [
            "tool `count_words` failed: the text is empty: send at least one character"
        ]


def test_the_readme_program_logs_to_stderr_without_rmcp_detail(fresh_server: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "RUST_LOG"}
    # A whole session, so that rmcp has its details to log (at `info`, the client's
    # `peer_info` once initialized); then stdin ends and the server stops.
    requests = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "e2e", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
         "params": {"name": "count_words", "arguments": {"text": "a b"}}},
    ]
    done = subprocess.run(
        [str(fresh_server)], input="".join(json.dumps(r) + "\n" for r in requests),
        capture_output=True, text=True, env=env, timeout=30,
    )
    assert done.returncode == 0, done.stderr
    # Its start-up record, and nothing from rmcp.
    assert re.fullmatch(
        r"\S+Z  INFO mcp_tool::server::builder: serving over stdio server=hello-mcp version=0\.1\.0\n", done.stderr
    ), done.stderr
    # Stdout carries the protocol only: the two replies.
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert [reply["id"] for reply in replies] == [1, 2], done.stdout
    assert replies[1]["result"]["structuredContent"] == {"lines": 1, "words": 2}
