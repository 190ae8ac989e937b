"""The file_search example's prompt and resource template, driven by the official Python MCP
client over each transport: listed, rendered and read; a path outside the root, a bad
argument and an unknown URI each get an error that says why, and nothing from outside the
root reaches the client."""

from __future__ import annotations

import base64

import pytest
from mcp import MCPError

from conftest import FILES, OUTSIDE_SECRET

pytestmark = pytest.mark.anyio


async def test_the_prompt_and_the_template_are_listed(connect) -> None:
    async with connect() as client:
        prompts = (await client.list_prompts()).prompts
        assert [p.name for p in prompts] == ["find_files"]
        arguments = {a.name: a.required for a in prompts[0].arguments}
        assert arguments == {"description": True, "limit": False}
        templates = (await client.list_resource_templates()).resource_templates
        assert [t.uri_template for t in templates] == ["files:///{+path}"]
        # No resource with a fixed URI: the list is empty, not an error.
        assert (await client.list_resources()).resources == []


def find_files_text(description: str, limit: int) -> str:
    return (
        f"Find the files under the root that match this description: {description}\n\n"
        "First call `list_attributes` to learn which attributes a filter may use. Then call "
        "`search` with a CEL filter that says the same as the description, such as "
        f'`ext == "rs" && size > 10000`, and `max_results` {limit}. If the filter is '
        "refused, read why, fix it and search again. Answer with the paths found, one per "
        "line, then the filter you used."
    )


async def test_the_prompt_puts_the_description_and_the_limit_in_its_message(connect) -> None:
    async with connect() as client:
        result = await client.get_prompt("find_files", {"description": "large Rust files", "limit": "5"})
        [message] = result.messages
        assert message.role == "user"
        assert message.content.text == find_files_text("large Rust files", 5)
        # Without a limit, the default the argument's description gives.
        [message] = (await client.get_prompt("find_files", {"description": "any file"})).messages
        assert message.content.text == find_files_text("any file", 20)
        with pytest.raises(MCPError) as refused:
            await client.get_prompt("find_files", {"description": "x", "limit": "0"})
        assert refused.value.error.code == -32602
        assert refused.value.error.message == (
            "invalid arguments for prompt `find_files`: `limit`: expected an integer from 1 to 1000"
        )


async def test_a_file_under_the_root_is_read_as_text_or_bytes(connect) -> None:
    async with connect() as client:
        [text] = (await client.read_resource("files:///src/main.rs")).contents
        assert text.uri == "files:///src/main.rs"
        assert text.mime_type == "text/x-rust"
        assert text.text == FILES["src/main.rs"]
        [blob] = (await client.read_resource("files:///data/blob.bin")).contents
        assert blob.uri == "files:///data/blob.bin"
        assert blob.mime_type == "application/octet-stream"
        assert base64.b64decode(blob.blob) == FILES["data/blob.bin"].encode()


@pytest.mark.parametrize(
    "uri",
    [
        "files:///../outside/" + OUTSIDE_SECRET,
        "files:///escape/" + OUTSIDE_SECRET,
        "files:////etc/passwd",
    ],
)
async def test_a_path_outside_the_root_is_refused(connect, uri: str) -> None:
    async with connect() as client:
        with pytest.raises(MCPError) as refused:
            await client.read_resource(uri)
        # The whole error: nothing from outside the root is in it.
        assert refused.value.error.code == -32603
        assert refused.value.error.message == (
            f"resource `{uri}` failed: `path` must stay inside the root; give a path relative to "
            "it, like `src/main.rs`"
        )
        assert refused.value.error.data is None


async def test_an_unknown_uri_is_invalid_params_with_the_uri(connect) -> None:
    async with connect() as client:
        with pytest.raises(MCPError) as unknown:
            await client.read_resource("notes://today")
        assert unknown.value.error.code == -32602
        assert unknown.value.error.message == (
            "resource not found: no resource of this server is at `notes://today`; "
            "`resources/list` and `resources/templates/list` name the ones it has"
        )
        assert unknown.value.error.data == {"uri": "notes://today"}
