"""The example server at work: the official Python MCP client starts `file_search` over stdio,
rooted at this repository, and prints what it lists and answers."""

from __future__ import annotations

import asyncio
import json
import sys

from mcp import Client, StdioServerParameters


def show(title: str, text: str) -> None:
    print(f"\n--- {title}")
    print(text)


async def main(server: str, root: str) -> None:
    async with Client(StdioServerParameters(command=server, args=["--root", root])) as client:
        tools = await client.list_tools()
        show("tools/list", "\n".join(f"{t.name}: {t.description}" for t in tools.tools))

        query = {"filter": 'ext == "rs" && size > 20000', "path": "runtime/src"}
        result = await client.call_tool("search", query)
        matches = result.structured_content["matches"]
        show(
            f"search {json.dumps(query)}",
            "\n".join(f"{m['size']:>8} bytes  {m['path']}" for m in matches) or "(nothing matched)",
        )

        result = await client.call_tool("read_attributes", {"path": "README.md"})
        show('read_attributes {"path": "README.md"}', json.dumps(result.structured_content, indent=2))

        # Two faults at once: each named, with what was expected, and neither value echoed.
        bad = {"filter": 'ext == "rs"', "max_results": 0, "colour": "red"}
        result = await client.call_tool("search", bad)
        text = "\n".join(block.text for block in result.content if block.type == "text")
        show(f"search {json.dumps(bad)} (isError: {str(result.is_error).lower()})", text)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
