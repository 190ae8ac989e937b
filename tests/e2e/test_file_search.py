"""The file_search example served over stdio, driven by the official Python MCP client."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

import pytest
from mcp import Client, MCPError
from mcp.types import CallToolResult

from conftest import FILES, OUTSIDE_SECRET

pytestmark = pytest.mark.anyio

# Sent as wrong-typed values: no reply may repeat them.
SECRET = "sk-live-4f9a1c-DO-NOT-ECHO"


def text_of(result: CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if block.type == "text")


def error_text(result: CallToolResult) -> str:
    assert result.is_error, f"expected a tool error, got {result}"
    text = text_of(result)
    assert text, "a tool error must carry a message"
    return text


def paths(result: CallToolResult) -> list[str]:
    assert not result.is_error, text_of(result)
    return [m["path"] for m in result.structured_content["matches"]]


def modified_at(path: Path) -> datetime:
    """The entry's modification time, to the second, as the server reports it."""
    return datetime.fromtimestamp(int(path.lstat().st_mtime), timezone.utc)


# Every entry under the test tree, in the order `search` walks it (by name, depth first).
DIRECTORIES = {str(parent) for name in FILES for parent in Path(name).parents if parent != Path(".")}
EVERYTHING = sorted([*FILES, *DIRECTORIES, "escape"], key=lambda path: path.split("/"))

# The names a filter may use, as `list_attributes` and the syntax error list them.
ATTRIBUTE_NAMES = "name, ext, path, size, modified, content_type, is_dir, is_symlink, depth, now"

INVALID_MAX_RESULTS = "`max_results`: expected an integer from 1 to 1000"


async def still_serves(client) -> None:
    """The session survives the error before it: a good call still works."""
    result = await client.call_tool("search", {"filter": 'name == "main.rs"'})
    assert paths(result) == ["src/main.rs"]


# --- listing -------------------------------------------------------------------------


def unportable_parts(schema, where: str = "#") -> list[str]:
    """The parts of a schema that some clients cannot read: `$ref`, `$defs`, `$schema`
    and `type` arrays, wherever they are."""
    found = []
    if isinstance(schema, dict):
        found += [f"{where}/{key}" for key in ("$ref", "$defs", "$schema") if key in schema]
        if isinstance(schema.get("type"), list):
            found.append(f"{where}/type")
        for key, value in schema.items():
            found += unportable_parts(value, f"{where}/{key}")
    elif isinstance(schema, list):
        for index, value in enumerate(schema):
            found += unportable_parts(value, f"{where}/{index}")
    return found


async def test_lists_the_seven_tools_with_portable_schemas(connect):
    async with connect() as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert sorted(tools) == ["choose_and_describe", "choose_file", "describe_file", "index_files", "list_attributes", "read_attributes", "search"]
        for tool in tools.values():
            assert tool.description and tool.description.endswith("."), tool.name
            schema = tool.input_schema
            assert schema["type"] == "object"
            assert schema["additionalProperties"] is False, tool.name
            assert unportable_parts(schema) == [], tool.name
            for name, prop in schema["properties"].items():
                assert prop.get("description"), f"{tool.name}.{name} has no description"
            assert tool.annotations is not None and tool.annotations.read_only_hint is True
            assert tool.output_schema is not None, tool.name
            assert unportable_parts(tool.output_schema) == [], tool.name

        assert tools["read_attributes"].input_schema["required"] == ["path"]
        assert tools["search"].input_schema.get("required", []) == []
        assert tools["list_attributes"].input_schema["properties"] == {}
        max_results = tools["search"].input_schema["properties"]["max_results"]
        assert (max_results["minimum"], max_results["maximum"], max_results["default"]) == (1, 1000, 100)
        assert client.instructions == (
            "Finds files under one root directory; every path is relative to that root. "
            "Call `list_attributes` to learn the attributes a filter can use, `search` with a CEL "
            'filter such as `ext == "rs" && size > 1024` to find files, and `read_attributes` for '
            "the details of one file."
        )


async def test_both_handshakes_work(connect):
    # The default probes `server/discover`, and falls back to `initialize` without a word
    # if the probe fails: the version agreed on tells which handshake was made.
    for mode, version in [("auto", "2026-07-28"), ("legacy", "2025-11-25")]:
        async with connect(mode) as client:
            assert client.protocol_version == version, mode
            assert (client.session.discover_result is not None) == (mode == "auto"), mode
            assert client.server_info is not None and client.server_info.name == "file-search"
            await still_serves(client)


async def test_a_session_ends_without_a_warning_from_the_client(http_url: str, caplog):
    # The Python SDK deletes its session as it closes, and warns of any answer but 200 or 204.
    with caplog.at_level("DEBUG", logger="mcp"):
        async with Client(http_url, read_timeout_seconds=30, mode="legacy") as client:
            await still_serves(client)
    said = [record.getMessage() for record in caplog.records if record.name.startswith("mcp")]
    assert not any("termination failed" in text.lower() for text in said), said
    assert any(record.levelname == "DEBUG" for record in caplog.records), "the log was heard"


# --- the tools -----------------------------------------------------------------------


async def test_search_finds_the_files_a_filter_matches(connect, tree: Path):
    async with connect() as client:
        result = await client.call_tool("search", {"filter": 'ext == "rs" && size > 10'})
        assert paths(result) == ["src/main.rs", "src/nested/deep.rs"]
        assert result.structured_content["truncated"] is False
        main = result.structured_content["matches"][0]
        assert main["size"] == len(FILES["src/main.rs"])
        assert main["is_dir"] is False
        assert datetime.fromisoformat(main["modified"]) == modified_at(tree / "src/main.rs"), main

        result = await client.call_tool("search", {"filter": "is_dir", "path": "src"})
        assert paths(result) == ["src/nested"]

        result = await client.call_tool("search", {"filter": 'content_type == "text/markdown" && depth == 2'})
        assert paths(result) == ["docs/guide.md"]

        result = await client.call_tool("search", {"filter": "!is_dir && size >= 2048 && modified <= now"})
        assert paths(result) == ["data/blob.bin"]


async def test_search_reports_progress_and_a_masked_log_message(connect, tree: Path):
    logs = []
    progress = []

    async def on_log(params) -> None:
        logs.append(params)

    async def on_progress(done: float, total: float | None, message: str | None) -> None:
        progress.append((done, total))

    async with connect(logging_callback=on_log, log_level="info") as client:
        result = await client.call_tool("search", {"filter": 'ext == "rs"'}, progress_callback=on_progress)
        assert paths(result) == ["src/lib.rs", "src/main.rs", "src/nested/deep.rs"]
    # One notification per match, in order, each with the most there can be.
    assert progress == [(1, 100), (2, 100), (3, 100)]
    texts = [str(log.data) for log in logs]
    # The root's absolute path is masked to its name, `root`.
    assert texts == [f"searched {len(EVERYTHING)} entries under root; 3 matched"], texts


async def test_index_files_called_plainly_counts_files_lines_and_bytes_with_progress(connect):
    progress = []

    async def on_progress(done: float, total: float | None, message: str | None) -> None:
        progress.append((done, total, message))

    rust = sorted(name for name in FILES if name.startswith("src/"))
    async with connect() as client:
        result = await client.call_tool("index_files", {"path": "src"}, progress_callback=on_progress)
    assert result.structured_content == {
        "path": "src",
        "files": len(rust),
        "lines": sum(FILES[name].count("\n") for name in rust),
        "bytes": sum(len(FILES[name]) for name in rust),
        "declined": False,
    }
    # One notification per file, in path order (`lib.rs` before `main.rs` before `nested/`).
    assert progress == [(i + 1, len(rust), f"indexed {name} ({i + 1} of {len(rust)})") for i, name in enumerate(rust)]


async def test_search_without_a_filter_lists_everything_and_says_when_it_stops(connect):
    async with connect() as client:
        result = await client.call_tool("search", {})
        # Every entry once, in order, the root itself not among them; the link out of the
        # root is listed, never followed.
        assert paths(result) == EVERYTHING
        assert result.structured_content["truncated"] is False

        result = await client.call_tool("search", {"max_results": 2})
        assert paths(result) == EVERYTHING[:2]
        assert result.structured_content["truncated"] is True
        # Exactly as many as allowed matched: nothing was left out.
        result = await client.call_tool("search", {"max_results": len(EVERYTHING)})
        assert paths(result) == EVERYTHING
        assert result.structured_content["truncated"] is False


async def test_list_attributes_names_what_a_filter_can_use(connect):
    async with connect() as client:
        result = await client.call_tool("list_attributes", {})
        assert not result.is_error, text_of(result)
        attributes = {a["name"]: a for a in result.structured_content["attributes"]}
        types = {name: a["type"] for name, a in attributes.items()}
        assert types == {
            "name": "string",
            "ext": "string",
            "path": "string",
            "size": "int",
            "modified": "timestamp",
            "content_type": "string",
            "is_dir": "bool",
            "is_symlink": "bool",
            "depth": "int",
            "now": "timestamp",
        }
        assert ", ".join(attributes) == ATTRIBUTE_NAMES
        assert all(a["description"] for a in attributes.values())
        # Every listed attribute is bound by search (`x == x` holds for every entry), and
        # every example filter runs.
        for name in attributes:
            bound = await client.call_tool("search", {"filter": f"{name} == {name}", "max_results": 1})
            assert paths(bound) == [EVERYTHING[0]], name
        examples = result.structured_content["examples"]
        assert len(examples) == 4, examples
        for example in examples:
            ran = await client.call_tool("search", {"filter": example})
            assert not ran.is_error, f"{example}: {text_of(ran)}"


async def test_read_attributes_describes_one_file(connect, tree: Path):
    async with connect() as client:
        result = await client.call_tool("read_attributes", {"path": "src/main.rs"})
        assert not result.is_error, text_of(result)
        attributes = dict(result.structured_content)
        assert datetime.fromisoformat(attributes.pop("modified")) == modified_at(tree / "src/main.rs")
        assert attributes == {
            "path": "src/main.rs",
            "content_type": "text/x-rust",
            "size": len(FILES["src/main.rs"]),
            "is_dir": False,
            "is_symlink": False,
            "readonly": False,
            "lines": 3,
        }
        # The text fallback carries the same data for clients that ignore structured content.
        assert json.loads(text_of(result)) == result.structured_content

        # A directory has no `lines`.
        directory = await client.call_tool("read_attributes", {"path": "./docs/../src/nested"})
        assert not directory.is_error, text_of(directory)
        attributes = dict(directory.structured_content)
        assert datetime.fromisoformat(attributes.pop("modified")) == modified_at(tree / "src/nested")
        assert attributes == {
            "path": "src/nested",
            "content_type": "inode/directory",
            "size": (tree / "src/nested").stat().st_size,
            "is_dir": True,
            "is_symlink": False,
            "readonly": False,
        }


# --- bad arguments -------------------------------------------------------------------


async def test_a_wrong_type_names_the_argument_without_echoing_the_value(connect):
    async with connect() as client:
        # The whole message: the value sent is not in it.
        text = error_text(await client.call_tool("search", {"max_results": SECRET}))
        assert text == f"invalid arguments for tool `search`: {INVALID_MAX_RESULTS}"

        text = error_text(await client.call_tool("read_attributes", {"path": [SECRET]}))
        assert text == "invalid arguments for tool `read_attributes`: `path`: expected a string"
        await still_serves(client)


async def test_a_missing_argument_is_named(connect):
    async with connect() as client:
        text = error_text(await client.call_tool("read_attributes", {}))
        assert text == "invalid arguments for tool `read_attributes`: missing argument `path`"
        await still_serves(client)


async def test_an_unknown_argument_gets_a_suggestion(connect):
    async with connect() as client:
        text = error_text(await client.call_tool("search", {"filtr": "size > 1"}))
        assert text == "invalid arguments for tool `search`: unknown argument `filtr` (did you mean `filter`?)"
        await still_serves(client)


@pytest.mark.parametrize("value", [0, 987654])
async def test_an_out_of_range_limit_states_the_range(connect, value: int):
    async with connect() as client:
        # README.md, "Argument errors": both bounds, and not the value sent.
        text = error_text(await client.call_tool("search", {"max_results": value}))
        assert text == f"invalid arguments for tool `search`: {INVALID_MAX_RESULTS}"
        await still_serves(client)


async def test_every_fault_is_reported_at_once(connect):
    async with connect() as client:
        text = error_text(await client.call_tool("search", {"max_results": SECRET, "path": 7, "colour": 1}))
        # The arguments in the order the tool declares them, then the unknown ones.
        assert text == (
            "invalid arguments for tool `search`: `path`: expected a string; "
            f"{INVALID_MAX_RESULTS}; unknown argument `colour`"
        )
        await still_serves(client)


# --- bad filters ---------------------------------------------------------------------


async def test_a_cel_syntax_error_names_the_filter(connect):
    async with connect() as client:
        text = error_text(await client.call_tool("search", {"filter": "size > && ext"}))
        # Where it went wrong (CEL's own words follow), and the attributes, so that the
        # model can correct itself.
        assert text.startswith("tool `search` failed: `filter`: syntax error at column 8: "), text
        assert text.endswith(
            '; write a CEL expression such as `ext == "rs" && size > 1024` over the attributes '
            + ATTRIBUTE_NAMES
        ), text
        await still_serves(client)


async def test_a_filter_over_an_unknown_attribute_or_not_a_boolean_is_refused(connect):
    async with connect() as client:
        text = error_text(await client.call_tool("search", {"filter": 'colour == "red"'}))
        assert text == f"tool `search` failed: `filter`: unknown attribute `colour`; attributes: {ATTRIBUTE_NAMES}"

        text = error_text(await client.call_tool("search", {"filter": "size + 1"}))
        assert text == (
            "tool `search` failed: `filter` must evaluate to a boolean, but gave a value of type "
            "int for `README.txt`; compare an attribute, e.g. `size > 1024`"
        )
        await still_serves(client)


@pytest.mark.parametrize(
    ("filter_", "expected"),
    [
        ('modified > timestamp("yesterday")', '`timestamp(...)` needs an RFC 3339 text such as "2026-01-31T12:00:00Z"'),
        ('duration("x") > duration("1s")', '`duration(...)` needs a text such as "90s" or "1h30m"'),
        ("size / 0 > 1", "division by zero"),
        ("[1][5] == 1", "index 5 is out of bounds"),
    ],
)
async def test_an_evaluation_error_is_told_in_words_not_debug_output(connect, filter_: str, expected: str):
    async with connect() as client:
        text = error_text(await client.call_tool("search", {"filter": filter_}))
        assert text == f"tool `search` failed: `filter` failed on `README.txt`: {expected}", text
        await still_serves(client)


# Filters that once exhausted the evaluator's stack and killed the process (exit 134).
CRASH_FILTERS = [
    "a" + "[0]" * 2000,
    "a." * 4300 + "b",
    "size + " * 1400 + "1 > 0",
]


@pytest.mark.parametrize("filter_", CRASH_FILTERS, ids=["index-chain", "member-chain", "sum-chain"])
async def test_a_filter_too_long_to_run_safely_is_refused_and_the_server_lives(connect, filter_: str):
    async with connect() as client:
        text = error_text(await client.call_tool("search", {"filter": filter_}))
        assert text == (
            f"tool `search` failed: `filter` is {len(filter_)} bytes long; at most 1000 are allowed: "
            "write a shorter expression"
        )
        await still_serves(client)


@pytest.mark.parametrize(
    "filter_",
    ["a" + "[0]" * 200, "size" + " + 1" * 40 + " > 0", "a" + ".b" * 100],
    ids=["index-chain", "sum-chain", "member-chain"],
)
async def test_a_short_filter_that_nests_too_deep_is_refused_before_it_runs(connect, filter_: str):
    async with connect() as client:
        text = error_text(await client.call_tool("search", {"filter": filter_}))
        assert text == (
            "tool `search` failed: `filter` nests more than 32 levels deep (operators, member "
            "accesses, indexes and calls each add one): write a flatter expression"
        )
        await still_serves(client)


@pytest.mark.parametrize(
    "filter_",
    ["(" * 40 + "is_dir" + ")" * 40, "[" * 20 + "1" + "]" * 20 + " == []", "!" * 30 + "is_dir", "-" * 30 + "1 < size"],
    ids=["parentheses", "lists", "negations", "minus-signs"],
)
async def test_a_filter_that_nests_brackets_too_deep_is_refused_before_it_is_parsed(connect, filter_: str):
    async with connect() as client:
        text = error_text(await client.call_tool("search", {"filter": filter_}))
        assert text == (
            "tool `search` failed: `filter` nests brackets (or repeats `!` or `-`) more than 12 deep: "
            "write a flatter expression"
        )
        await still_serves(client)


async def test_a_filter_nested_as_real_ones_are_still_runs(connect):
    async with connect() as client:
        nested = "size" + " + 1" * 10 + " > 0 && " + " && ".join(['ext != "x"'] * 10)
        brackets = "(" * 11 + '!!!name.startsWith("(((((((((((((")' + ")" * 11
        result = await client.call_tool("search", {"filter": f'{nested} && {brackets} && name == "main.rs"'})
        assert paths(result) == ["src/main.rs"]


# --- the root ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tool", "path"),
    [
        ("read_attributes", "../outside/" + OUTSIDE_SECRET),
        ("read_attributes", "escape/" + OUTSIDE_SECRET),
        ("read_attributes", "src/../../outside"),
        ("read_attributes", "ABSOLUTE"),
        ("describe_file", "../outside/" + OUTSIDE_SECRET),
        ("search", ".."),
        ("search", "escape"),
        ("index_files", ".."),
        ("index_files", "escape"),
    ],
)
async def test_a_path_outside_the_root_is_refused(connect, tree: Path, tool: str, path: str):
    if path == "ABSOLUTE":
        path = str(tree.parent / "outside" / OUTSIDE_SECRET)
    async with connect() as client:
        # The whole message: it never shows where the server's files are.
        text = error_text(await client.call_tool(tool, {"path": path}))
        assert text == (
            f"tool `{tool}` failed: `path` must stay inside the root; give a path relative to it, "
            "like `src/main.rs`"
        )
        await still_serves(client)


async def test_a_missing_file_is_named_relative_to_the_root(connect):
    async with connect() as client:
        # The whole message: the path as sent, relative to the root, never the root's own.
        text = error_text(await client.call_tool("read_attributes", {"path": "src/nope.rs"}))
        assert text == (
            "tool `read_attributes` failed: `path`: nothing named `src/nope.rs` under the root; "
            "`search` lists what is there"
        )
        await still_serves(client)


async def test_a_long_missing_path_is_clipped_where_it_is_echoed(connect):
    async with connect() as client:
        long = "d/" * 100_000 + "x.txt"
        text = error_text(await client.call_tool("read_attributes", {"path": long}))
        assert text == f"tool `read_attributes` failed: `path`: nothing named `{long[:200]}…` under the root; `search` lists what is there"
        await still_serves(client)


async def test_a_missing_name_with_markup_is_not_echoed(connect):
    async with connect() as client:
        for name in ["<script>alert(1)</script>", "a\u0007b.txt"]:
            text = error_text(await client.call_tool("read_attributes", {"path": name}))
            assert text == (
                "tool `read_attributes` failed: `path`: nothing by that name under the root; "
                "`search` lists what is there"
            ), name
        await still_serves(client)


# --- protocol errors -----------------------------------------------------------------


async def test_an_unknown_tool_is_a_protocol_error_with_a_suggestion(connect):
    async with connect() as client:
        with pytest.raises(MCPError) as raised:
            await client.call_tool("serch", {"filter": "size > 1"})
        assert raised.value.error.code == -32602
        assert raised.value.error.message == "unknown tool `serch`; did you mean `search`?"
        await still_serves(client)


async def test_one_session_survives_every_kind_of_error(connect):
    async with connect() as client:
        error_text(await client.call_tool("search", {"max_results": SECRET}))
        error_text(await client.call_tool("read_attributes", {}))
        error_text(await client.call_tool("search", {"filter": "((("}))
        error_text(await client.call_tool("read_attributes", {"path": "/etc/passwd"}))
        with pytest.raises(MCPError) as raised:
            await client.call_tool("no_such_tool", {})
        assert raised.value.error.code == -32602
        await still_serves(client)
        result = await client.call_tool("read_attributes", {"path": "README.txt"})
        assert result.structured_content["size"] == len(FILES["README.txt"])
