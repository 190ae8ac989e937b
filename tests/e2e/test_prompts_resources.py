"""The file_search example's prompt and resource template, driven by the official Python MCP
client over each transport: listed, rendered and read; a path outside the root, a bad
argument and an unknown URI each get an error that says why, and nothing from outside the
root reaches the client."""

from __future__ import annotations

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


async def test_the_prompt_puts_the_description_and_the_limit_in_its_message(connect) -> None:
    async with connect() as client:
        result = await client.get_prompt("find_files", {"description": "large Rust files", "limit": "5"})
        [message] = result.messages
        assert message.role == "user"
        assert "large Rust files" in message.content.text
        assert "`max_results` 5" in message.content.text
        with pytest.raises(MCPError) as refused:
            await client.get_prompt("find_files", {"description": "x", "limit": "0"})
        assert refused.value.error.code == -32602
        assert "`limit`" in refused.value.error.message


async def test_a_file_under_the_root_is_read_as_text_or_bytes(connect) -> None:
    async with connect() as client:
        [text] = (await client.read_resource("files:///src/main.rs")).contents
        assert text.uri == "files:///src/main.rs"
        assert text.text == FILES["src/main.rs"]
        [blob] = (await client.read_resource("files:///data/blob.bin")).contents
        assert blob.mime_type == "application/octet-stream"
        assert len(blob.blob) > 0


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
        assert refused.value.error.code == -32603
        assert "must stay inside the root" in refused.value.error.message
        assert "not for the model" not in str(refused.value.error)


async def test_an_unknown_uri_is_invalid_params_with_the_uri(connect) -> None:
    async with connect() as client:
        with pytest.raises(MCPError) as unknown:
            await client.read_resource("notes://today")
        assert unknown.value.error.code == -32602
        assert unknown.value.error.data == {"uri": "notes://today"}
