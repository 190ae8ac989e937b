"""Fixtures for the end-to-end tests: the server binary, a known directory tree, a client."""

from __future__ import annotations

import contextlib
import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

# Files under the root, with their exact contents; the tests check names and sizes against them.
FILES = {
    "README.txt": "A tree for the file_search tests.\n",
    "src/main.rs": 'fn main() {\n    println!("hello");\n}\n',
    "src/lib.rs": "//! x\n",
    "src/nested/deep.rs": "pub fn deep() -> u32 {\n    42\n}\n",
    "docs/guide.md": "# Guide\n\nRead me.\n",
    "data/blob.bin": "\0" * 2048,
}

# Lives beside the root, never inside it: reaching it through the server is a bug.
OUTSIDE_SECRET = "outside-the-root.txt"


@pytest.fixture(scope="session")
def server_bin() -> str:
    path = os.environ.get("FILE_SEARCH_BIN")
    if not path:
        pytest.fail("FILE_SEARCH_BIN is not set; run the tests through scripts/e2e.sh")
    if not os.access(path, os.X_OK):
        pytest.fail(f"FILE_SEARCH_BIN is not an executable: {path}")
    return path


@pytest.fixture(scope="session")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("file_search")
    root = base / "root"
    for name, content in FILES.items():
        file = root / name
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(content)
    outside = base / "outside"
    outside.mkdir()
    (outside / OUTSIDE_SECRET).write_text("not for the model\n")
    # A link that points out of the root: listed by search, refused by path arguments.
    (root / "escape").symlink_to(outside, target_is_directory=True)
    return root


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def connect(server_bin: str, tree: Path):
    """Opens a client session with the server over stdio, rooted at the test tree."""

    @contextlib.asynccontextmanager
    async def open_session(mode: str = "auto", **options) -> AsyncIterator[Client]:
        params = StdioServerParameters(command=server_bin, args=["--root", str(tree)])
        async with Client(params, read_timeout_seconds=30, mode=mode, **options) as client:
            yield client

    return open_session
