"""The example server over HTTP checks `Origin`: by default only pages of the loopback
interface (and clients that send no `Origin`) are served; `--allow-origin` adds one.

A refused `initialize` gets `403` with a JSON-RPC error and no `Mcp-Session-Id`, so a page
of another site open in a browser cannot open a session with a server on this machine.
"""

from __future__ import annotations

from pathlib import Path

import httpx2
import pytest

from conftest import http_server

HEADERS = {
    "Accept": "application/json, text/event-stream",
    "Content-Type": "application/json",
}
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "origin-test", "version": "1"},
    },
}


def initialize(url: str, origin: str | None) -> httpx2.Response:
    headers = dict(HEADERS)
    if origin is not None:
        headers["Origin"] = origin
    return httpx2.post(url, json=INITIALIZE, headers=headers, timeout=10)


def assert_refused(response: httpx2.Response, origin: str) -> None:
    assert response.status_code == 403, (origin, response.text)
    assert "mcp-session-id" not in response.headers, origin
    error = response.json()["error"]
    assert error["code"] == -32600, error
    assert error["message"] == "Invalid request: Forbidden: Origin header is not allowed", error


def assert_served(response: httpx2.Response, origin: str | None) -> None:
    assert response.status_code == 200, (origin, response.text)
    assert response.headers.get("mcp-session-id"), origin
    assert '"serverInfo"' in response.text, response.text


def test_the_example_refuses_a_foreign_origin_by_default(server_bin: str, tree: Path, tmp_path: Path) -> None:
    with http_server(server_bin, tree, tmp_path / "stderr.log") as served:
        assert_refused(initialize(served.url, "http://evil.example.com"), "http://evil.example.com")
        assert_refused(initialize(served.url, "https://app.example.com"), "https://app.example.com")
        for origin in ("http://localhost:5173", "http://127.0.0.1", None):
            assert_served(initialize(served.url, origin), origin)


def test_allow_origin_adds_an_origin_to_the_loopback_ones(server_bin: str, tree: Path, tmp_path: Path) -> None:
    flags = ("--allow-origin", "https://app.example.com")
    with http_server(server_bin, tree, tmp_path / "stderr.log", *flags) as served:
        for origin in ("https://app.example.com", "http://localhost:5173", None):
            assert_served(initialize(served.url, origin), origin)
        for origin in ("http://evil.example.com", "https://app.example.com:8443"):
            assert_refused(initialize(served.url, origin), origin)


@pytest.mark.parametrize("origin", ["null", "http://localhost.evil.example.com"])
def test_lookalike_origins_are_foreign(server_bin: str, tree: Path, tmp_path: Path, origin: str) -> None:
    with http_server(server_bin, tree, tmp_path / "stderr.log") as served:
        assert_refused(initialize(served.url, origin), origin)
