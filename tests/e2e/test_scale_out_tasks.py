"""Tasks across two stateless replicas of the example server behind nginx, sharing a Redis.

A redis-server of the tests' own runs on a free port of 127.0.0.1; each replica is
started with `--http --stateless --redis URL --task-lease 2000`, and nginx balances over
them with tests/scale-out's config. Every request is raw JSON-RPC on protocol 2026-07-28
from a client that declares the tasks extension, with the `Mcp-Method` and `Mcp-Name`
headers a gateway routes on (a task request names its task id). `index_files` is the
task: it reads the files of `data/` one at a time, asks first when told to `confirm`,
and can be paced with `pause_ms`. Where a test must show "through the other replica",
it finds the replica running a task from the replicas' logs and sends the rest to the
other directly, not through nginx.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import os
import re
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import anyio
import httpx2
import pytest

from conftest import HttpServer, http_server
from test_scale_out import address_of, free_port, nginx, nginx_bin, reply_to  # noqa: F401 (a fixture)

TASKS = "io.modelcontextprotocol/tasks"
META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": {"name": "scale-out-tasks-test", "version": "1"},
    "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}, "extensions": {TASKS: {}}},
}
# Files in the root's data/: `data/f01.txt` holds 1 line, up to `data/f40.txt` holding 40.
FILES = 40
# The replicas' task lease, short so that a dead replica's task fails within the test.
LEASE_MS = 2000
# How a task whose replica died fails (runtime/src/server/tasks/mod.rs).
STOPPED = "the server running the task stopped before it ended"
ENDED = ("completed", "failed", "cancelled")


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A redis-server of the tests' own on a free port of 127.0.0.1, without persistence;
    stopped after the module's tests."""
    binary = os.environ.get("REDIS_SERVER")
    if not binary:
        why = os.environ.get("REDIS_UNAVAILABLE") or "scripts/setup-redis.sh installs it"
        pytest.skip(f"redis-server is not installed: {why}")
    port = free_port()
    log = tmp_path_factory.mktemp("redis") / "redis.log"
    with log.open("w") as output:
        process = subprocess.Popen(
            [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=output,
        )
    try:
        deadline = time.monotonic() + 10
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                break
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"redis-server did not listen on {port}:\n{log.read_text()}")
            time.sleep(0.02)
        yield f"redis://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("scale_out_tasks") / "root"
    (root / "data").mkdir(parents=True)
    for number in range(1, FILES + 1):
        (root / "data" / f"f{number:02}.txt").write_text("".join(f"line {n}\n" for n in range(number)))
    return root


def expected_index(root: Path) -> dict:
    """What `index_files` returns for `data/`, counted here."""
    texts = [path.read_text() for path in sorted((root / "data").iterdir())]
    return {
        "path": "data",
        "files": FILES,
        "lines": sum(text.count("\n") for text in texts),
        "bytes": sum(len(text.encode()) for text in texts),
        "declined": False,
    }


def named(task: str) -> str:
    """A pattern for the field of a log line that names `task` (quoted or not)."""
    return rf'task="?{task}\b'


@dataclasses.dataclass
class Replica:
    server: HttpServer
    log: Path

    @property
    def url(self) -> str:
        return self.server.url

    def logged(self) -> str:
        return self.log.read_text()


@dataclasses.dataclass
class Deployment:
    replicas: list[Replica]
    nginx_url: str

    def runner_of(self, task: str) -> tuple[Replica, Replica]:
        """The replica that runs `task` (its log says it started it) and the other one."""
        started = [r for r in self.replicas if re.search(rf"task started .*{named(task)}", r.logged())]
        assert len(started) == 1, [r.logged() for r in self.replicas]
        (other,) = [r for r in self.replicas if r is not started[0]]
        return started[0], other


@contextlib.contextmanager
def deployment(nginx_bin: str, server_bin: str, root: Path, redis_url: str, tmp_path: Path) -> Iterator[Deployment]:
    flags = ("--stateless", "--redis", redis_url, "--task-lease", str(LEASE_MS))
    logs = [tmp_path / "replica-1.log", tmp_path / "replica-2.log"]
    with (
        http_server(server_bin, root, logs[0], *flags) as first,
        http_server(server_bin, root, logs[1], *flags) as second,
        nginx(nginx_bin, [address_of(first.url), address_of(second.url)]) as (url, _),
    ):
        yield Deployment([Replica(first, logs[0]), Replica(second, logs[1])], url)


class Client:
    """Raw JSON-RPC requests on protocol 2026-07-28, each to the URL it is given."""

    def __init__(self, http: httpx2.AsyncClient) -> None:
        self.http = http
        self.ids = itertools.count(1)

    async def request(self, url: str, method: str, name: str, params: dict) -> dict:
        """The reply to `method` (its `Mcp-Name` header `name`), checked to be a result."""
        index = next(self.ids)
        headers = {
            "Accept": "application/json, text/event-stream",
            "MCP-Protocol-Version": "2026-07-28",
            "Mcp-Method": method,
            "Mcp-Name": name,
        }
        body = {"jsonrpc": "2.0", "id": index, "method": method, "params": {**params, "_meta": META}}
        response = await self.http.post(url, json=body, headers=headers)
        assert response.status_code == 200, (url, method, response.status_code, response.text)
        reply = reply_to(index, response)
        assert "result" in reply, (url, method, reply)
        return reply["result"]

    async def start(self, url: str, arguments: dict) -> str:
        """Calls `index_files` with `arguments` as a task; its id."""
        params = {"name": "index_files", "arguments": arguments}
        created = await self.request(url, "tools/call", "index_files", params)
        assert created.get("resultType") == "task", created
        return created["taskId"]

    async def get(self, url: str, task: str) -> dict:
        got = await self.request(url, "tasks/get", task, {"taskId": task})
        assert got["taskId"] == task, got
        return got

    async def until(self, url: str, task: str, done, within: float = 15) -> dict:
        """`tasks/get` at `url` every 50 ms until `done(result)` holds; fails after
        `within` seconds, or when the task ends otherwise."""
        deadline = time.monotonic() + within
        while True:
            got = await self.get(url, task)
            if done(got):
                return got
            assert got["status"] not in ENDED, f"the task ended before it was expected to: {got}"
            assert time.monotonic() < deadline, f"not there within {within} s: {got}"
            await anyio.sleep(0.05)


def status(wanted: str):
    return lambda got: got["status"] == wanted


def indexed_at_least(files: int):
    """Whether a running task's status message says it has read `files` files or more."""

    def done(got: dict) -> bool:
        found = re.fullmatch(r"indexed data/f\d\d\.txt \((\d+) of (\d+)\)", got.get("statusMessage") or "")
        return bool(found) and int(found.group(1)) >= files

    return done


async def wait_for_log(replica: Replica, pattern: str, within: float = 5) -> re.Match:
    deadline = time.monotonic() + within
    while not (found := re.search(pattern, replica.logged())):
        assert time.monotonic() < deadline, f"no {pattern!r} in the replica's log:\n{replica.logged()}"
        await anyio.sleep(0.05)
    return found


# --- the tests -----------------------------------------------------------------------


@pytest.mark.anyio
async def test_a_task_started_through_one_replica_is_answered_and_fetched_through_the_other(
    nginx_bin: str, server_bin: str, root: Path, redis_url: str, tmp_path: Path
) -> None:
    with deployment(nginx_bin, server_bin, root, redis_url, tmp_path) as served:
        async with httpx2.AsyncClient(timeout=30) as http:
            client = Client(http)
            task = await client.start(served.nginx_url, {"path": "data", "confirm": True})
            runner, other = served.runner_of(task)

            # The runner's question reaches the client through the other replica.
            waiting = await client.until(other.url, task, status("input_required"))
            ((key, asked),) = waiting["inputRequests"].items()
            assert asked["method"] == "elicitation/create", asked
            assert asked["params"]["message"] == f"Index {FILES} files under data?", asked
            answer = {key: {"action": "accept", "content": {"ok": True}}}
            acknowledged = await client.request(
                other.url, "tasks/update", task, {"taskId": task, "inputResponses": answer}
            )
            assert acknowledged == {"resultType": "complete"}, acknowledged

            done = await client.until(other.url, task, lambda got: got["status"] in ENDED)
            assert done["status"] == "completed", done
            assert done["result"]["structuredContent"] == expected_index(root), done
            assert not done["result"].get("isError"), done
            # The same result through nginx, whichever replica answers.
            for _ in range(2):
                again = await client.get(served.nginx_url, task)
                assert again["result"] == done["result"], again
        ended = await wait_for_log(runner, rf"task ended .*{named(task)}.*")
        assert 'status="completed"' in ended.group(0), ended.group(0)
    # The body ran on the runner alone: the other replica only relayed its question,
    # its answer and its result.
    assert not re.search(rf"task (started|ended) .*{named(task)}", other.logged()), other.logged()


@pytest.mark.anyio
async def test_a_task_cancelled_through_the_other_replica_stops_running(
    nginx_bin: str, server_bin: str, root: Path, redis_url: str, tmp_path: Path
) -> None:
    with deployment(nginx_bin, server_bin, root, redis_url, tmp_path) as served:
        async with httpx2.AsyncClient(timeout=30) as http:
            client = Client(http)
            task = await client.start(served.nginx_url, {"path": "data", "pause_ms": 300})
            runner, other = served.runner_of(task)
            working = await client.until(other.url, task, indexed_at_least(2))
            assert working["status"] == "working", working

            cancelled = await client.request(other.url, "tasks/cancel", task, {"taskId": task})
            assert cancelled == {"resultType": "complete"}, cancelled
            got = await client.get(other.url, task)
            assert got["status"] == "cancelled", got

            # The body, on the runner, saw the cancellation and stopped before the end.
            seen = await wait_for_log(runner, r"index_files cancelled after (\d+) of (\d+) files under data")
            read, total = int(seen.group(1)), int(seen.group(2))
            assert total == FILES and 2 <= read < FILES, seen.group(0)
            ended = await wait_for_log(runner, rf"task ended .*{named(task)}.*")
            assert 'status="cancelled"' in ended.group(0), ended.group(0)
            # It stays cancelled, read through either replica.
            for replica in (runner, other):
                got = await client.get(replica.url, task)
                assert got["status"] == "cancelled", got
                assert "result" not in got, got
    assert "index_files cancelled" not in other.logged(), other.logged()


@pytest.mark.anyio
async def test_a_replica_killed_mid_task_leaves_it_failed_after_its_lease_and_keeps_finished_results(
    nginx_bin: str, server_bin: str, root: Path, redis_url: str, tmp_path: Path
) -> None:
    with deployment(nginx_bin, server_bin, root, redis_url, tmp_path) as served:
        victim, survivor = served.replicas
        async with httpx2.AsyncClient(timeout=30) as http:
            client = Client(http)
            finished = await client.start(victim.url, {"path": "data"})
            running = await client.start(victim.url, {"path": "data", "pause_ms": 1000})
            result = (await client.until(survivor.url, finished, status("completed")))["result"]
            assert result["structuredContent"] == expected_index(root), result
            await client.until(survivor.url, running, indexed_at_least(1))

            victim.server.process.send_signal(signal.SIGKILL)
            victim.server.process.wait()
            killed = time.monotonic()
            # Its lease was renewed a moment ago: the task still reads as working.
            got = await client.get(survivor.url, running)
            assert got["status"] == "working", got
            failed = await client.until(survivor.url, running, status("failed"), within=LEASE_MS / 1000 + 5)
            after = time.monotonic() - killed
            # Renewed every third of the lease, it lapses between 2/3 of it and all of
            # it after the kill (and is read within a poll of that).
            assert LEASE_MS / 1000 / 2 <= after <= LEASE_MS / 1000 + 1.5, after
            message = failed["error"]["message"]
            assert message.startswith(STOPPED), failed

            # The task that had finished keeps its result, through the survivor and
            # through nginx, which passes the dead replica's share on to the survivor.
            for url in [survivor.url] + [served.nginx_url] * 3:
                kept = await client.get(url, finished)
                assert (kept["status"], kept["result"]) == ("completed", result), kept
            again = await client.get(served.nginx_url, running)
            assert again["status"] == "failed" and again["error"] == failed["error"], again
    assert "task failed: its lease lapsed" in survivor.logged(), survivor.logged()
