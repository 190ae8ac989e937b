"""Two stateless replicas of the example server behind nginx, taken in turn.

2,000 tool calls from 20 concurrent clients, each a JSON-RPC POST through nginx (plain
httpx2, so no client library retries anything out of sight), with an answer known in
advance. Half-way through, one replica is killed with SIGKILL: only the calls it was
answering may fail, each with an error its client can read (nginx's JSON-RPC error, or
a response cut off before its reply where the answer had begun to stream), and every
other call is answered right, by the other replica. nginx runs from tests/scale-out/, whose mcp.conf
is the config the guide's serving.md shows.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx2
import pytest

from conftest import http_server

HERE = Path(__file__).resolve().parent
CONFIG_DIR = HERE.parent / "scale-out"
README = HERE.parents[1] / "runtime" / "src" / "guide" / "serving.md"

CALLS = 2000
CLIENTS = 20
# One replica is killed once this many calls have ended, answered or failed.
KILL_AFTER = CALLS // 2
# Files whose attributes the calls ask for: every answer is known, and they differ.
DISTINCT_FILES = 200
# The name clients use for the service, allowed on the replicas with --allow-host.
PUBLIC_NAME = "mcp.example.com"
# The addresses the guide's serving.md's copy of mcp.conf shows.
README_ADDRESSES = {
    "@LISTEN@": "127.0.0.1:8000",
    "@REPLICA_1@": "127.0.0.1:8001",
    "@REPLICA_2@": "127.0.0.1:8002",
}
# The start of the error nginx answers with when no replica answered (mcp.conf).
UNANSWERED = "No MCP server answered"
# What a client sees when its replica dies after it began to stream its answer (search
# sends its log message as an event first): nginx has passed on `200`, and can only cut
# the response off before the reply.
CUT_OFF = "RemoteProtocolError: peer closed connection without sending complete message body"
HEADERS = {
    "Accept": "application/json, text/event-stream",
    "MCP-Protocol-Version": "2025-11-25",
}


def render(template: str, values: dict[str, str]) -> str:
    for placeholder, value in values.items():
        template = template.replace(placeholder, value)
    left = re.findall(r"@[A-Z0-9_]+@", template)
    assert not left, f"placeholders left unfilled: {left}"
    return template


def test_the_readme_shows_the_committed_load_balancer_config() -> None:
    blocks = re.findall(r"```nginx\n(.*?)```", README.read_text(), re.S)
    assert len(blocks) == 1, "the guide's serving.md should show exactly one nginx config"
    committed = render((CONFIG_DIR / "mcp.conf").read_text(), README_ADDRESSES)
    assert blocks[0] == committed, (
        "the guide's serving.md's nginx config differs from tests/scale-out/mcp.conf "
        f"with the addresses {list(README_ADDRESSES.values())}: make them the same"
    )


# --- nginx and the replicas ----------------------------------------------------------


@pytest.fixture(scope="module")
def nginx_bin() -> str:
    found = shutil.which("nginx") or ("/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else None)
    if not found:
        why = os.environ.get("NGINX_UNAVAILABLE") or "scripts/setup-nginx.sh installs it"
        pytest.skip(f"nginx is not installed: {why}")
    return found


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """A root with DISTINCT_FILES text files, `data/f001.txt` holding 1 line up to
    `data/f200.txt` holding 200, and their contents by relative path."""
    root = tmp_path_factory.mktemp("scale_out") / "root"
    (root / "data").mkdir(parents=True)
    contents = {}
    for number in range(1, DISTINCT_FILES + 1):
        path = f"data/f{number:03}.txt"
        contents[path] = "".join(f"line {line} of {number}\n" for line in range(number))
        (root / path).write_text(contents[path])
    return root, contents


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def nginx(binary: str, replicas: list[str]) -> Iterator[tuple[str, list[str]]]:
    """Runs nginx in the foreground with tests/scale-out's config, its files in a
    temporary directory, balancing over `replicas`; yields its URL and a list that holds
    the lines of its access log once it has stopped. nginx writes a request's line after
    its response has gone, so a client that has its reply may find the line not yet
    written: read the log after the `with` block, never inside it."""
    access_log: list[str] = []
    directory = Path(tempfile.mkdtemp(prefix="mcp-nginx-"))
    # Started by root, nginx's worker runs as an unprivileged user that must reach it.
    directory.chmod(0o755)
    listen = f"127.0.0.1:{free_port()}"
    addresses = {"@LISTEN@": listen, "@REPLICA_1@": replicas[0], "@REPLICA_2@": replicas[1]}
    (directory / "mcp.conf").write_text(render((CONFIG_DIR / "mcp.conf").read_text(), addresses))
    config = directory / "nginx.conf"
    config.write_text(render((CONFIG_DIR / "nginx.conf").read_text(), {"@DIR@": str(directory)}))
    error_log = directory / "error.log"
    with (directory / "stderr.log").open("w") as stderr:
        process = subprocess.Popen(
            [binary, "-p", str(directory), "-c", str(config), "-e", str(error_log)],
            stdin=subprocess.DEVNULL,
            stdout=stderr,
            stderr=stderr,
        )

    def logs() -> str:
        return "\n".join(
            f"{log.name}:\n{log.read_text()}" for log in [directory / "stderr.log", error_log] if log.exists()
        )

    try:
        deadline = time.monotonic() + 15
        host, port = listen.split(":")
        while True:
            with contextlib.suppress(OSError), socket.create_connection((host, int(port)), timeout=1):
                break
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"nginx did not start:\n{logs()}")
            time.sleep(0.05)
        yield f"http://{listen}/mcp", access_log
    finally:
        process.send_signal(signal.SIGQUIT)  # graceful: the requests under way finish
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            pytest.fail(f"nginx did not stop within 10 s of SIGQUIT:\n{logs()}")
        else:
            if (directory / "access.log").exists():
                access_log.extend((directory / "access.log").read_text().splitlines())
        finally:
            shutil.rmtree(directory, ignore_errors=True)


def address_of(url: str) -> str:
    found = re.fullmatch(r"http://(127\.0\.0\.1:\d+)/mcp", url)
    assert found, url
    return found.group(1)


# --- the calls -----------------------------------------------------------------------


@dataclasses.dataclass
class Outcome:
    index: int
    started: float
    ended: float
    # "ok", "failed" (no answer: an HTTP or JSON-RPC error), or "wrong" (an answer, not the right one)
    kind: str
    detail: str = ""


def planned_call(index: int, contents: dict[str, str]) -> tuple[str, dict, Callable[[dict], str | None]]:
    """Call `index`: a tool, its arguments, and a check of its structured result that
    returns what is wrong with it. Every file is asked for by both tools in turn."""
    number = (index // 2) % DISTINCT_FILES + 1
    path = f"data/f{number:03}.txt"
    size = len(contents[path].encode())
    if index % 2 == 0:

        def check_attributes(result: dict) -> str | None:
            got = (result.get("path"), result.get("size"), result.get("lines"), result.get("is_dir"))
            want = (path, size, number, False)
            return None if got == want else f"read_attributes({path}): got {got}, want {want}"

        return "read_attributes", {"path": path}, check_attributes

    def check_search(result: dict) -> str | None:
        got = [(m.get("path"), m.get("size"), m.get("is_dir")) for m in result.get("matches", [])]
        want = [(path, size, False)]
        return None if got == want else f"search for {path}: got {got}, want {want}"

    return "search", {"filter": f'name == "f{number:03}.txt"'}, check_search


async def call(http: httpx2.AsyncClient, url: str, index: int, contents: dict[str, str]) -> tuple[str, str]:
    """Sends call `index` once, as a JSON-RPC POST; its kind of outcome, and why."""
    name, arguments, check = planned_call(index, contents)
    request = {"jsonrpc": "2.0", "id": index, "method": "tools/call", "params": {"name": name, "arguments": arguments}}
    try:
        response = await http.post(url, json=request, headers=HEADERS)
    except httpx2.HTTPError as error:
        return "failed", f"{type(error).__name__}: {error}"
    if response.status_code != 200:
        return "failed", f"HTTP {response.status_code}: {response.text.strip()}"
    try:
        reply = reply_to(index, response)
    except ValueError as error:
        return "failed", f"HTTP 200 without a reply: {error}: {response.text[:300]!r}"
    if "error" in reply:
        return "failed", f"JSON-RPC error: {reply['error']}"
    result = reply.get("result") or {}
    if reply.get("id") != index:
        return "wrong", f"the reply to call {index} has the id {reply.get('id')!r}"
    if result.get("isError"):
        return "wrong", f"{name} returned a tool error: {result.get('content')}"
    problem = check(result.get("structuredContent") or {})
    return ("wrong", problem) if problem else ("ok", "")


def reply_to(index: int, response: httpx2.Response) -> dict:
    """The JSON-RPC reply in a response: its JSON body, or, when the server streamed
    notifications first (search logs what it searched), the event that answers `index`."""
    if not response.headers.get("content-type", "").startswith("text/event-stream"):
        return response.json()
    for event in response.text.split("\n\n"):
        data = "\n".join(line[5:].lstrip() for line in event.splitlines() if line.startswith("data:"))
        if data:
            message = json.loads(data)
            if message.get("id") == index and ("result" in message or "error" in message):
                return message
    raise ValueError("the event stream ended without the reply")


@dataclasses.dataclass
class Kill:
    started: float = 0.0
    done: float = 0.0


async def run_load(url: str, contents: dict[str, str], victim: subprocess.Popen) -> tuple[list[Outcome], Kill]:
    """CLIENTS clients send CALLS calls between them, one at a time each, until all are
    sent; `victim` is killed with SIGKILL once KILL_AFTER have ended."""
    indices = iter(range(CALLS))
    outcomes: list[Outcome] = []
    half_way = asyncio.Event()
    kill = Kill()

    async def client() -> None:
        async with httpx2.AsyncClient(timeout=30) as http:
            for index in indices:  # shared: each call is taken by one client
                started = time.monotonic()
                kind, detail = await call(http, url, index, contents)
                outcomes.append(Outcome(index, started, time.monotonic(), kind, detail))
                if len(outcomes) == KILL_AFTER:
                    half_way.set()

    async def killer() -> None:
        await half_way.wait()
        kill.started = time.monotonic()
        victim.send_signal(signal.SIGKILL)
        await asyncio.to_thread(victim.wait)
        kill.done = time.monotonic()

    await asyncio.gather(*(client() for _ in range(CLIENTS)), killer())
    return outcomes, kill


def answered_by(access_log: list[str]) -> tuple[Counter, list[str]]:
    """From nginx's access log: how many responses each replica gave with 200 (a
    response cut off is logged with the 200 it began with), and the upstream column of
    the requests passed on from one replica to the other."""
    answered: Counter = Counter()
    passed_on = []
    for line in access_log:
        found = re.fullmatch(r'\S+ (\d+) "([^"]*)" "([^"]*)" \S+', line)
        assert found, f"unexpected access log line: {line!r}"
        status, upstreams, statuses = found.groups()
        if status == "200":
            answered[upstreams.split(", ")[-1]] += 1
        if ", " in upstreams:
            passed_on.append(f"{upstreams} ({statuses})")
    return answered, passed_on


@pytest.mark.anyio
async def test_calls_through_nginx_survive_a_replica_killed_half_way(
    nginx_bin: str, server_bin: str, files: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    root, contents = files
    flags = ("--stateless", "--allow-host", PUBLIC_NAME)
    with (
        http_server(server_bin, root, tmp_path / "replica-1.log", *flags) as survivor,
        http_server(server_bin, root, tmp_path / "replica-2.log", *flags) as victim,
    ):
        replicas = [address_of(survivor.url), address_of(victim.url)]
        with nginx(nginx_bin, replicas) as (url, access_log):
            began = time.monotonic()
            outcomes, kill = await run_load(url, contents, victim.process)
            elapsed = time.monotonic() - began
        answered, passed_on = answered_by(access_log)
        assert survivor.process.poll() is None, "the surviving replica stopped"

    # None lost: every call has exactly one outcome.
    assert sorted(o.index for o in outcomes) == list(range(CALLS))
    wrong = [o for o in outcomes if o.kind == "wrong"]
    assert not wrong, f"{len(wrong)} calls answered wrong, e.g. {wrong[:3]}"

    # Only calls in flight while the replica died (from SIGKILL until it was reaped) may
    # fail, at most one per client, each with nginx's JSON-RPC error or, where the answer
    # had begun, a response cut off before the reply: never a hang or a wrong answer.
    in_flight = [o for o in outcomes if o.started <= kill.done and o.ended >= kill.started]
    failed = [o for o in outcomes if o.kind == "failed"]
    assert all(o in in_flight for o in failed), [o for o in failed if o not in in_flight]
    assert len(failed) <= CLIENTS, failed
    refused = [o for o in failed if o.detail.startswith("HTTP 502") and UNANSWERED in o.detail]
    cut_off = [o for o in failed if o.detail.startswith(CUT_OFF)]
    unclear = [o for o in failed if o not in refused and o not in cut_off]
    assert not unclear, f"failures with neither the proxy's error nor a cut-off response: {unclear}"
    after = [o for o in outcomes if o.started > kill.done]
    assert after and all(o.kind == "ok" for o in after), [o for o in after if o.kind != "ok"][:5]

    # Both replicas answered: the victim until it died, the survivor throughout.
    ok = sum(o.kind == "ok" for o in outcomes)
    assert sum(answered.values()) == ok + len(cut_off), (answered, ok, len(cut_off))
    assert set(answered) == set(replicas), answered
    assert answered[replicas[1]] >= KILL_AFTER // 4, answered
    assert answered[replicas[0]] >= CALLS // 2, answered

    print(
        f"\nscale-out: {CALLS} calls from {CLIENTS} clients in {elapsed:.1f} s; "
        f"answered {answered[replicas[0]]} by the survivor, {answered[replicas[1]]} by the "
        f"replica killed after {KILL_AFTER}; {len(in_flight)} in flight at the kill, "
        f"{len(failed)} failed ({len(refused)} with the proxy's error, {len(cut_off)} cut off); "
        f"{len(after)} started after it, all answered; "
        f"{len(passed_on)} passed on by nginx from the dead replica"
    )


@pytest.mark.anyio
async def test_behind_nginx_the_replicas_still_refuse_host_names_they_do_not_serve(
    nginx_bin: str, server_bin: str, files: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    root, _ = files
    flags = ("--stateless", "--allow-host", PUBLIC_NAME)
    with (
        http_server(server_bin, root, tmp_path / "replica-1.log", *flags) as first,
        http_server(server_bin, root, tmp_path / "replica-2.log", *flags) as second,
        nginx(nginx_bin, [address_of(first.url), address_of(second.url)]) as (url, _),
    ):
        request = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
        async with httpx2.AsyncClient(timeout=30) as http:
            for host in [PUBLIC_NAME, "127.0.0.1", "localhost"]:
                response = await http.post(url, json=request, headers={**HEADERS, "Host": host})
                assert response.status_code == 200, (host, response.text)
                assert len(response.json()["result"]["tools"]) == 7
            # A page that points its own domain at the proxy (DNS rebinding) is refused.
            response = await http.post(url, json=request, headers={**HEADERS, "Host": "attacker.example"})
            assert response.status_code == 403, response.text
            assert response.json()["error"]["code"] == -32600


@pytest.mark.anyio
async def test_a_call_nginx_cannot_deliver_goes_to_the_other_replica(
    nginx_bin: str, server_bin: str, files: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    # The second replica is dead before the first call: connecting to it is refused, so
    # the call never reached it and nginx may send it to the first.
    root, contents = files
    with (
        http_server(server_bin, root, tmp_path / "live.log", "--stateless") as live,
        http_server(server_bin, root, tmp_path / "dead.log", "--stateless") as dead,
    ):
        dead.process.kill()
        dead.process.wait()
        replicas = [address_of(live.url), address_of(dead.url)]
        with nginx(nginx_bin, replicas) as (url, access_log):
            async with httpx2.AsyncClient(timeout=30) as http:
                outcomes = [await call(http, url, index, contents) for index in range(10)]
        answered, passed_on = answered_by(access_log)
    assert outcomes == [("ok", "")] * 10, outcomes
    assert answered == {replicas[0]: 10}, answered
    assert f"{replicas[1]}, {replicas[0]} (502, 200)" in passed_on, passed_on


# --- input-required rounds across replicas -------------------------------------------

STATE_KEY = "a request-state key the replicas share, 32+ bytes"
ROUNDS_HEADERS = {
    "Accept": "application/json, text/event-stream",
    "MCP-Protocol-Version": "2026-07-28",
    "Mcp-Method": "tools/call",
    "Mcp-Name": "choose_file",
}
META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": {"name": "scale-out-test", "version": "1"},
    "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
}


async def two_rounds(url: str) -> tuple[dict, dict]:
    """`choose_file` through nginx: the first round's reply, and the second's, which
    answers the question with the first round's `requestState`."""
    params = {"name": "choose_file", "arguments": {"dir": "data"}, "_meta": META}
    async with httpx2.AsyncClient(timeout=30) as http:
        first = await http.post(
            url, json={"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params},
            headers=ROUNDS_HEADERS,
        )
        assert first.status_code == 200, first.text
        result = first.json()["result"]
        assert result["resultType"] == "input_required", result
        (key, request), = result["inputRequests"].items()
        name = request["params"]["message"].split("? ", 1)[1].split(", ")[0]
        answer = {key: {"action": "accept", "content": {"name": name}}}
        params = {**params, "inputResponses": answer, "requestState": result["requestState"]}
        second = await http.post(
            url, json={"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": params},
            headers=ROUNDS_HEADERS,
        )
        assert second.status_code == 200, second.text
        return {"name": name, **result}, second.json()


def upstreams(access_log: list[str]) -> list[str]:
    """The replica that answered each request, in order."""
    return [re.fullmatch(r'\S+ \d+ "([^"]*)" "[^"]*" \S+', line).group(1) for line in access_log]


@pytest.mark.anyio
async def test_a_two_round_elicitation_resumes_on_the_other_replica(
    nginx_bin: str, server_bin: str, files: tuple[Path, dict[str, str]], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    root, _ = files
    monkeypatch.setenv("FILE_SEARCH_STATE_KEY", STATE_KEY)
    with (
        http_server(server_bin, root, tmp_path / "replica-1.log", "--stateless") as first,
        http_server(server_bin, root, tmp_path / "replica-2.log", "--stateless") as second,
    ):
        replicas = [address_of(first.url), address_of(second.url)]
        with nginx(nginx_bin, replicas) as (url, access_log):
            asked, answered = await two_rounds(url)
        served = upstreams(access_log)
    # Round robin: the question came from one replica, the answer went to the other.
    assert len(served) == 2 and set(served) == set(replicas), served
    assert answered["result"]["structuredContent"] == {"path": f"data/{asked['name']}"}, answered


@pytest.mark.anyio
async def test_replicas_without_a_shared_key_refuse_each_others_rounds(
    nginx_bin: str, server_bin: str, files: tuple[Path, dict[str, str]], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    root, _ = files
    monkeypatch.delenv("FILE_SEARCH_STATE_KEY", raising=False)
    with (
        http_server(server_bin, root, tmp_path / "replica-1.log", "--stateless") as first,
        http_server(server_bin, root, tmp_path / "replica-2.log", "--stateless") as second,
    ):
        replicas = [address_of(first.url), address_of(second.url)]
        with nginx(nginx_bin, replicas) as (url, access_log):
            _, answered = await two_rounds(url)
        served = upstreams(access_log)
        logs = (tmp_path / "replica-1.log").read_text() + (tmp_path / "replica-2.log").read_text()
    assert set(served) == set(replicas), served
    assert answered["error"]["code"] == -32602, answered
    assert "not issued by this server" in answered["error"]["message"], answered
    # Each replica said in its log that it signs with a key of its own.
    assert "no request-state key was set" in logs, logs
