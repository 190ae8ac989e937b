"""The example server as an OAuth 2.1 resource server, against a real authorization server.

The issuer is oidc-provider (installed under target/ by scripts/setup-oauth.sh, started here
on a free port of 127.0.0.1 through tests/e2e/issuer.mjs), with the client credentials
grant and JWT access tokens whose audience is the resource asked for (RFC 8707). The example
runs with `--issuer` and `--resource`, stateless, so that each request below stands alone.

What is checked: a request without a token gets 401 naming the Protected Resource Metadata
(RFC 9728), served and correct; the official Python client, with its client credentials
provider, goes through discovery and calls tools; expired, wrong-audience, wrong-issuer,
tampered and `alg: none` tokens get 401, the reason in the server's log and not in the
response, and no token in the log; a token without a tool's scope gets 403
`insufficient_scope` naming it, and `tools/list` shows only what the token allows; a key
rotation at the issuer is picked up without a restart; a token in the query string is refused.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import re
import select
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx2
import pytest
from mcp import Client
from mcp.client.auth.extensions.client_credentials import ClientCredentialsOAuthProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken

from conftest import http_server

ISSUER_SCRIPT = Path(__file__).with_name("issuer.mjs")
# The example's one scope, which `read_attributes` needs; `search` needs none.
SCOPE = "files:read"
OPEN_TOOL = "search"
SCOPED_TOOL = "read_attributes"
HEADERS = {
    "Accept": "application/json, text/event-stream",
    "Content-Type": "application/json",
    "MCP-Protocol-Version": "2025-11-25",
}
# JwtVerifier's default least time between two fetches of the issuer's keys, in seconds.
REFETCH_INTERVAL = 10
# Words a refusal's reason would use: none may reach the client.
REASON_WORDS = ("expired", "audience", "issuer", "signature", "algorithm", "kid", "InvalidToken", "claim")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Issuer:
    """An oidc-provider process and its issuer URL."""

    url: str
    process: subprocess.Popen
    port: int

    def token(self, resource: str, client: str = "mcp-e2e", scope: str | None = SCOPE) -> str:
        """An access token from the client credentials grant, for `resource`, holding `scope`
        (none if None)."""
        response = httpx2.post(
            f"{self.url}/token",
            auth=(client, f"{client}-secret"),
            data={"grant_type": "client_credentials", "resource": resource} | ({"scope": scope} if scope else {}),
            timeout=10,
        )
        assert response.status_code == 200, response.text
        return response.json()["access_token"]


# How long the issuer may take to say where it serves. Node and oidc-provider start in well
# under a second; a start that stalls (seen once in a full run: the process idle, bound
# to no port) is given up on and begun once more, so that it fails the test, not hangs it.
ISSUER_START = 30.0


def start_issuer(node: str, modules: str, log: Path, kid: str, port: int) -> tuple[subprocess.Popen, str]:
    """Starts the issuer; it and the first line it printed, or an empty line when it printed
    none within ISSUER_START seconds (it is then stopped)."""
    with log.open("a") as stderr:
        process = subprocess.Popen(
            [node, str(ISSUER_SCRIPT), modules, str(port), kid],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
        )
    assert process.stdout
    ready, _, _ = select.select([process.stdout], [], [], ISSUER_START)
    if ready:
        return process, process.stdout.readline()
    process.kill()
    process.wait()
    with log.open("a") as stderr:
        stderr.write(f"e2e: the issuer said nothing within {ISSUER_START:.0f} s; stopped\n")
    return process, ""


@contextlib.contextmanager
def issuer(log: Path, kid: str, port: int = 0) -> Iterator[Issuer]:
    node = os.environ.get("OAUTH_NODE")
    modules = os.environ.get("OAUTH_MODULES")
    if not node or not modules:
        why = os.environ.get("OAUTH_UNAVAILABLE") or "scripts/setup-oauth.sh installs it"
        pytest.skip(f"the OAuth issuer (oidc-provider) is not installed: {why}")
    process, line = start_issuer(node, modules, log, kid, port)
    if not line:
        process, line = start_issuer(node, modules, log, kid, port)
    try:
        found = re.match(r"issuer=(http://127\.0\.0\.1:(\d+))", line)
        if not found:
            process.kill()
            pytest.fail(f"the issuer did not start: {line!r}\n{log.read_text()}")
        yield Issuer(found.group(1), process, int(found.group(2)))
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


@dataclass
class Protected:
    """The example served with authorization: its URL (the resource), issuer and log."""

    url: str
    issuer: Issuer
    log: Path
    logs: Path


@pytest.fixture(scope="module")
def protected(server_bin: str, tree: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Protected]:
    logs = tmp_path_factory.mktemp("oauth")
    with issuer(logs / "issuer.log", "first") as running:
        port = free_port()
        resource = f"http://127.0.0.1:{port}/mcp"
        options = ("--stateless", "--issuer", running.url, "--resource", resource, "--token-leeway", "0")
        log = logs / "server.log"
        with http_server(server_bin, tree, log, *options, address=f"127.0.0.1:{port}") as served:
            assert served.url == resource, (served.url, resource)
            yield Protected(served.url, running, log, logs)


def call(url: str, token: str | None, method: str = "tools/call", params: dict | None = None) -> httpx2.Response:
    headers = dict(HEADERS)
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params or {}}
    return httpx2.post(url, json=body, headers=headers, timeout=10)


def reply(response: httpx2.Response) -> dict:
    """The JSON-RPC reply in a response, sent as JSON or as one server-sent event."""
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        data = [line[5:].strip() for line in response.text.splitlines() if line.startswith("data:")]
        return json.loads([d for d in data if d][-1])
    return response.json()


def search(token: str | None, url: str) -> httpx2.Response:
    return call(url, token, params={"name": OPEN_TOOL, "arguments": {"filter": 'ext == "rs"'}})


def read_attributes(token: str | None, url: str) -> httpx2.Response:
    return call(url, token, params={"name": SCOPED_TOOL, "arguments": {"path": "src/main.rs"}})


def assert_unauthorized(response: httpx2.Response, url: str, with_token: bool) -> None:
    assert response.status_code == 401, response.text
    challenge = response.headers.get("www-authenticate", "")
    assert challenge.startswith("Bearer "), challenge
    metadata = re.search(r'resource_metadata="([^"]+)"', challenge)
    assert metadata, challenge
    assert metadata.group(1).startswith(url.removesuffix("/mcp") + "/.well-known/oauth-protected-resource"), challenge
    if with_token:
        assert 'error="invalid_token"' in challenge, challenge
    told = (response.text + challenge).lower()
    for word in REASON_WORDS:
        assert word.lower() not in told, (word, response.text, challenge)


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def test_without_a_token_a_request_gets_401_naming_the_metadata(protected: Protected) -> None:
    response = search(None, protected.url)
    assert_unauthorized(response, protected.url, with_token=False)
    assert "result" not in response.text


def test_the_protected_resource_metadata_names_the_resource_and_its_issuer(protected: Protected) -> None:
    challenge = search(None, protected.url).headers["www-authenticate"]
    url = re.search(r'resource_metadata="([^"]+)"', challenge).group(1)
    origin = protected.url.removesuffix("/mcp")
    # Both forms RFC 9728 allows: the path-suffixed one, and the root one.
    for where in {url, f"{origin}/.well-known/oauth-protected-resource/mcp"}:
        response = httpx2.get(where, timeout=10)
        assert response.status_code == 200, (where, response.text)
        metadata = response.json()
        assert metadata["resource"] == protected.url, metadata
        assert metadata["authorization_servers"] == [protected.issuer.url], metadata
        assert metadata["scopes_supported"] == [SCOPE], metadata
        assert metadata.get("bearer_methods_supported", ["header"]) == ["header"], metadata


class Memory:
    """Token storage in memory, for the client's OAuth provider."""

    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client = client_info


def oauth_client(protected: Protected, client: str, scope: str) -> Client:
    provider = ClientCredentialsOAuthProvider(
        server_url=protected.url,
        storage=Memory(),
        client_id=client,
        client_secret=f"{client}-secret",
        scope=scope,
        issuer=protected.issuer.url,
    )
    http = httpx2.AsyncClient(auth=provider, timeout=30)
    return Client(streamable_http_client(protected.url, http_client=http), read_timeout_seconds=30, mode="legacy")


@pytest.mark.anyio
async def test_the_python_client_goes_through_discovery_and_calls_tools(protected: Protected) -> None:
    async with oauth_client(protected, "mcp-e2e", SCOPE) as client:
        names = {tool.name for tool in (await client.list_tools()).tools}
        assert {OPEN_TOOL, SCOPED_TOOL} <= names, names
        result = await client.call_tool(OPEN_TOOL, {"filter": 'ext == "rs"'})
        assert not result.is_error, result
        assert "src/main.rs" in json.dumps(result.structured_content), result
        result = await client.call_tool(SCOPED_TOOL, {"path": "src/main.rs"})
        assert not result.is_error, result
        assert result.structured_content["size"] == len('fn main() {\n    println!("hello");\n}\n'), result


def listed(token: str, url: str) -> set[str]:
    response = call(url, token, method="tools/list")
    assert response.status_code == 200, response.text
    return {tool["name"] for tool in reply(response)["result"]["tools"]}


def test_tools_list_shows_a_token_only_the_tools_it_may_call(protected: Protected) -> None:
    scoped = protected.issuer.token(protected.url)
    unscoped = protected.issuer.token(protected.url, scope=None)
    assert {OPEN_TOOL, SCOPED_TOOL} <= listed(scoped, protected.url)
    names = listed(unscoped, protected.url)
    assert OPEN_TOOL in names, names
    assert SCOPED_TOOL not in names, names


def test_a_token_without_the_scope_gets_403_naming_it(protected: Protected) -> None:
    token = protected.issuer.token(protected.url, scope=None)
    claims = json.loads(unb64(token.split(".")[1]))
    assert "scope" not in claims, claims
    response = read_attributes(token, protected.url)
    assert response.status_code == 403, response.text
    challenge = response.headers.get("www-authenticate", "")
    assert 'error="insufficient_scope"' in challenge, challenge
    assert f'scope="{SCOPE}"' in challenge, challenge
    assert "result" not in response.text, response.text
    # The same token calls what needs no scope, and one with the scope calls the tool.
    allowed = search(token, protected.url)
    assert allowed.status_code == 200, allowed.text
    assert "error" not in reply(allowed), allowed.text
    scoped = read_attributes(protected.issuer.token(protected.url), protected.url)
    assert scoped.status_code == 200, scoped.text
    assert reply(scoped)["result"].get("isError") is not True, scoped.text


def refused_tokens(protected: Protected) -> dict[str, str]:
    """Tokens the server must refuse, each made from a real one, by what is wrong."""
    good = protected.issuer.token(protected.url)
    header, payload, signature = good.split(".")
    flipped = ("A" if signature[10] != "A" else "B").join((signature[:10], signature[11:]))
    claims = json.loads(unb64(payload))
    unsigned_header = json.loads(unb64(header)) | {"alg": "none"}
    tokens = {
        "tampered signature": f"{header}.{payload}.{flipped}",
        "tampered claims": f"{header}.{b64(json.dumps(claims | {'scope': 'admin'}).encode())}.{signature}",
        "alg none": f"{b64(json.dumps(unsigned_header).encode())}.{payload}.",
        "wrong audience": protected.issuer.token("http://127.0.0.1:1/elsewhere"),
        "not a JWT": "not-a-token",
    }
    with issuer(protected.logs / "other-issuer.log", "other") as other:
        tokens["wrong issuer"] = other.token(protected.url)
    short = protected.issuer.token(protected.url, client="mcp-e2e-short")
    time.sleep(3)
    tokens["expired"] = short
    return tokens


def test_refused_tokens_get_401_with_the_reason_logged_and_not_sent(protected: Protected) -> None:
    for what, token in refused_tokens(protected).items():
        before = protected.log.read_text()
        response = search(token, protected.url)
        assert_unauthorized(response, protected.url, with_token=True)
        assert "result" not in response.text, what
        logged = protected.log.read_text()[len(before) :]
        assert "refused an access token why=" in logged, f"{what}: no reason logged: {logged!r}"
        assert token not in protected.log.read_text(), f"{what}: the token is in the server's log"


def test_a_token_in_the_query_string_is_refused(protected: Protected) -> None:
    token = protected.issuer.token(protected.url)
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": OPEN_TOOL, "arguments": {}}}
    response = httpx2.post(f"{protected.url}?access_token={token}", json=body, headers=HEADERS, timeout=10)
    assert response.status_code == 400, response.text
    assert "result" not in response.text, response.text
    assert token not in protected.log.read_text()


def test_a_key_rotation_at_the_issuer_is_picked_up_without_a_restart(protected: Protected) -> None:
    before = protected.issuer.token(protected.url)
    assert search(before, protected.url).status_code == 200
    # The issuer restarts on the same port with a new key: its tokens name a `kid` the
    # server has not seen, and the server fetches the keys again.
    port = protected.issuer.port
    protected.issuer.process.terminate()
    protected.issuer.process.wait(timeout=10)
    with issuer(protected.logs / "issuer.log", "second", port=port) as rotated:
        assert rotated.url == protected.issuer.url
        protected.issuer.process = rotated.process
        token = rotated.token(protected.url)
        header = json.loads(unb64(token.split(".")[0]))
        assert header["kid"] == "second", header
        # The server fetches the keys at most once per refetch interval (10 s), however many
        # tokens name a key it does not know; an earlier test may have spent this one.
        deadline = time.monotonic() + REFETCH_INTERVAL + 5
        response = search(token, protected.url)
        while response.status_code == 401 and time.monotonic() < deadline:
            time.sleep(0.5)
            response = search(token, protected.url)
        assert response.status_code == 200, response.text
        assert "error" not in reply(response), response.text
        # The token from before the rotation names a key the issuer no longer publishes.
        assert search(before, protected.url).status_code == 401
