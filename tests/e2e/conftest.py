"""Fixtures for the end-to-end tests: the server binary, a known directory tree, a client."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import re
import subprocess
import time
from collections.abc import AsyncIterator, Iterator
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


@dataclasses.dataclass(frozen=True)
class HttpServer:
    """A server process serving over HTTP, and its URL."""

    url: str
    process: subprocess.Popen


@contextlib.contextmanager
def http_server(
    server_bin: str, root: Path, log: Path, *extra: str, address: str = "127.0.0.1:0"
) -> Iterator[HttpServer]:
    """Runs the server over HTTP at `address` (a free loopback port unless given); yields it,
    stops it at the end."""
    with log.open("w") as stderr:
        process = subprocess.Popen(
            [server_bin, "--root", str(root), "--http", address, *extra],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
        )
    try:
        deadline = time.monotonic() + 30
        while True:
            found = re.search(r"at (http://\S+/mcp)", log.read_text())
            if found:
                break
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the HTTP server did not start:\n{log.read_text()}")
            time.sleep(0.02)
        yield HttpServer(found.group(1), process)
    finally:
        # A no-op for a server that has ended already.
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            pytest.fail("the HTTP server did not stop within 10 s of SIGTERM")


@pytest.fixture(scope="session")
def http_url(server_bin: str, tree: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with http_server(server_bin, tree, tmp_path_factory.mktemp("http") / "stderr.log") as served:
        yield served.url


@pytest.fixture(scope="session")
def stateless_url(server_bin: str, tree: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    log = tmp_path_factory.mktemp("stateless") / "stderr.log"
    with http_server(server_bin, tree, log, "--stateless") as served:
        yield served.url


# Every test that takes `connect` runs over each transport the server offers.
TRANSPORTS = ["stdio", "http", "stateless"]


@pytest.fixture(params=TRANSPORTS)
def transport(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def connect(server_bin: str, tree: Path, transport: str, request: pytest.FixtureRequest):
    """Opens a client session with the server, rooted at the test tree, over `transport`:
    stdio (a process per session), or HTTP with sessions or stateless (a server per run)."""
    if transport == "stdio":
        server = StdioServerParameters(command=server_bin, args=["--root", str(tree)])
    elif transport == "http":
        server = request.getfixturevalue("http_url")
    else:
        server = request.getfixturevalue("stateless_url")

    @contextlib.asynccontextmanager
    async def open_session(mode: str = "auto", **options) -> AsyncIterator[Client]:
        async with Client(server, read_timeout_seconds=30, mode=mode, **options) as client:
            yield client

    return open_session


def running_in_ci() -> bool:
    """Whether this is a CI run (`CI` set, as CI services set it), where nothing may skip."""
    return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[None]:
    """Under CI a skipped test fails, with its reason: a green run must mean every test ran."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and running_in_ci() and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"skipped under CI={os.environ['CI']}, where every test must run: {reason}"
