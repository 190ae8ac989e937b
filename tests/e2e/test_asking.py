"""The example's tools that ask the client during a call, answered by the Python client's
callbacks: over stateless HTTP on protocol 2026-07-28, where a question ends the call with
an input-required result and the client calls again with the answer, and the very same
tools over stdio on 2025-11-25, where each question is a request during the call."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters
from mcp.types import CreateMessageResult, ElicitResult, TextContent

from conftest import FILES, http_server

pytestmark = pytest.mark.anyio


class Answers:
    """The client's side: what it was asked, and what it answers."""

    def __init__(self, choice: str = "main.rs") -> None:
        self.choice = choice
        self.forms: list[str] = []
        self.prompts: list[str] = []

    async def elicit(self, context, params) -> ElicitResult:
        self.forms.append(params.message)
        return ElicitResult(action="accept", content={"name": self.choice})

    async def sample(self, context, params) -> CreateMessageResult:
        text = params.messages[-1].content.text
        self.prompts.append(text)
        first = text.split("\n\n", 1)[1].splitlines()[0]
        return CreateMessageResult(
            role="assistant",
            content=TextContent(type="text", text=f"a file that begins {first!r}"),
            model="test-model",
            stop_reason="endTurn",
        )


@pytest.fixture(scope="module")
def stateless(server_bin: str, tree: Path, tmp_path_factory: pytest.TempPathFactory):
    log = tmp_path_factory.mktemp("asking") / "stderr.log"
    with http_server(server_bin, tree, log, "--stateless") as served:
        yield served.url


@pytest.fixture(params=["stateless-2026", "stdio-2025"])
def session(request: pytest.FixtureRequest, server_bin: str, tree: Path):
    """Opens a client with `answers` as its callbacks: over stateless HTTP negotiating
    2026-07-28, or over stdio with the 2025-11-25 handshake."""
    if request.param == "stateless-2026":
        server, mode, version = request.getfixturevalue("stateless"), "auto", "2026-07-28"
    else:
        server = StdioServerParameters(command=server_bin, args=["--root", str(tree)])
        mode, version = "legacy", "2025-11-25"

    @contextlib.asynccontextmanager
    async def open_with(answers: Answers) -> AsyncIterator[Client]:
        async with Client(
            server,
            read_timeout_seconds=30,
            mode=mode,
            elicitation_callback=answers.elicit,
            sampling_callback=answers.sample,
        ) as client:
            assert client.protocol_version == version
            yield client

    return open_with


def structured(result) -> dict:
    assert not result.is_error, result
    return result.structured_content


async def test_a_tool_that_asks_the_user(session) -> None:
    answers = Answers()
    async with session(answers) as client:
        result = await client.call_tool("choose_file", {"dir": "src"})
    assert structured(result) == {"path": "src/main.rs"}
    assert answers.forms == ["Which file of src? lib.rs, main.rs"]


async def test_a_tool_that_asks_the_model(session) -> None:
    answers = Answers()
    async with session(answers) as client:
        result = await client.call_tool("describe_file", {"path": "src/lib.rs"})
    assert structured(result) == {"path": "src/lib.rs", "description": "a file that begins '//! x'"}
    assert answers.prompts == ["What is this file, in one sentence?\n\n" + FILES["src/lib.rs"]]


async def test_a_tool_that_asks_both_in_two_rounds(session) -> None:
    answers = Answers(choice="deep.rs")
    async with session(answers) as client:
        result = await client.call_tool("choose_and_describe", {"dir": "src/nested"})
    assert structured(result) == {
        "path": "src/nested/deep.rs",
        "description": "a file that begins 'pub fn deep() -> u32 {'",
    }
    # Each question reached the client once: an answered one is not asked again.
    assert answers.forms == ["Which file of src/nested? deep.rs"]
    assert len(answers.prompts) == 1


async def test_a_declined_question_reaches_the_tool(session) -> None:
    answers = Answers()

    async def decline(context, params) -> ElicitResult:
        return ElicitResult(action="decline")

    answers.elicit = decline
    async with session(answers) as client:
        result = await client.call_tool("choose_file", {"dir": "docs"})
    assert structured(result) == {"path": None}
