"""The runtime's OpenTelemetry export held to OpenTelemetry's semantic conventions for MCP
(docs/gen-ai/mcp.md, server side), end to end: a fixture server built with the feature
`opentelemetry` exports to an OTLP/HTTP receiver of the test's own, which decodes what
arrives with the official `opentelemetry-proto` package.

Per message kind (initialize, ping, tools/list, a tool call that succeeds, one that is a
tool error, one that is a JSON-RPC error, one that panics, prompts/get, resources/read and
notifications), over stdio and over Streamable HTTP with a session: the span's name and
kind, every Required and Conditionally Required attribute and the Recommended ones the
server sets, its status; the parent from `_meta` and, on HTTP, the link to the context of
the `traceparent` header; nothing of the build machine (source paths, threads) and no
secret in anything exported; both duration histograms with the conventions' unit, buckets
and point attributes."""

from __future__ import annotations

import http.server
import json
import os
import re
import subprocess
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import (
    ExportMetricsServiceRequest,
    ExportMetricsServiceResponse,
)
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.trace.v1.trace_pb2 import Span, Status

# The conventions' names, written once as the conventions spell them.
METHOD = "mcp.method.name"
ERROR_TYPE = "error.type"
PROMPT = "gen_ai.prompt.name"
TOOL = "gen_ai.tool.name"
REQUEST_ID = "jsonrpc.request.id"
RESOURCE_URI = "mcp.resource.uri"
STATUS_CODE = "rpc.response.status_code"
OPERATION = "gen_ai.operation.name"
JSONRPC_VERSION = "jsonrpc.protocol.version"
PROTOCOL_VERSION = "mcp.protocol.version"
SESSION_ID = "mcp.session.id"
PROTOCOL_NAME = "network.protocol.name"
PROTOCOL_NET_VERSION = "network.protocol.version"
TRANSPORT = "network.transport"
CLIENT_ADDRESS = "client.address"
CLIENT_PORT = "client.port"
OPERATION_DURATION = "mcp.server.operation.duration"
SESSION_DURATION = "mcp.server.session.duration"
BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300]

MCP_VERSION = "2025-11-25"
TRACE_ID = "0af7651916cd43dd8448eb211c80319c"
PARENT_ID = "b7ad6b7169203331"
TRACEPARENT = f"00-{TRACE_ID}-{PARENT_ID}-01"
# The HTTP request's own context, which the span links to.
HEADER_TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
HEADER_SPAN_ID = "00f067aa0ba902b7"
HEADER_TRACEPARENT = f"00-{HEADER_TRACE_ID}-{HEADER_SPAN_ID}-01"
SECRET = "hunter2"
# A tool name no tool has, chosen by the client: an unbounded set, and a credential.
UNKNOWN_TOOL = "no such tool sk-live-abc123SECRET"


class Receiver:
    """An OTLP/HTTP receiver on 127.0.0.1: every span and metric exported to it, decoded."""

    def __init__(self) -> None:
        self.spans: list[Span] = []
        self.metrics: list[ExportMetricsServiceRequest] = []
        self.raw: list[bytes] = []
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (the standard library's name)
                body = self.rfile.read(int(self.headers.get("content-length", 0)))
                receiver.raw.append(body)
                if self.path == "/v1/traces":
                    request = ExportTraceServiceRequest.FromString(body)
                    for resource in request.resource_spans:
                        for scope in resource.scope_spans:
                            receiver.spans.extend(scope.spans)
                    reply = ExportTraceServiceResponse().SerializeToString()
                elif self.path == "/v1/metrics":
                    receiver.metrics.append(ExportMetricsServiceRequest.FromString(body))
                    reply = ExportMetricsServiceResponse().SerializeToString()
                else:
                    self.send_response(404)
                    self.end_headers()
                    return
                self.send_response(200)
                self.send_header("content-type", "application/x-protobuf")
                self.send_header("content-length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()

    def metric(self, name: str) -> list:
        return [
            metric
            for request in self.metrics
            for resource in request.resource_metrics
            for scope in resource.scope_metrics
            for metric in scope.metrics
            if metric.name == name
        ]


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    receiver = Receiver()
    yield receiver
    receiver.close()


@pytest.fixture(scope="session")
def fixture_bin() -> str:
    path = os.environ.get("TELEMETRY_BIN")
    if not path:
        pytest.fail("TELEMETRY_BIN is not set; run the tests through scripts/e2e.sh")
    return path


def environment(endpoint: str) -> dict[str, str]:
    return {
        **os.environ,
        "OTEL_EXPORTER_OTLP_ENDPOINT": endpoint,
        "OTEL_SERVICE_NAME": "telemetry-e2e",
        "OTEL_BSP_SCHEDULE_DELAY": "100",
        "OTEL_METRIC_EXPORT_INTERVAL": "200",
    }


def value(any_value) -> object:
    kind = any_value.WhichOneof("value")
    return getattr(any_value, kind) if kind else None


def attributes(item) -> dict[str, object]:
    return {attribute.key: value(attribute.value) for attribute in item.attributes}


def with_meta(params: dict) -> dict:
    return {**params, "_meta": {"traceparent": TRACEPARENT}}


def request(id: int, method: str, params: dict | None = None) -> dict:
    return {"jsonrpc": "2.0", "id": id, "method": method, "params": with_meta(params or {})}


def notification(method: str, params: dict | None = None) -> dict:
    return {"jsonrpc": "2.0", "method": method, "params": with_meta(params or {})}


INITIALIZE = request(1, "initialize", {
    "protocolVersion": MCP_VERSION, "capabilities": {},
    "clientInfo": {"name": "otel-e2e", "version": "1"}})
# Every kind of message after `initialize`, and what its span must be: (message, span
# name, the attributes it must carry beside the method, whether it fails).
AFTER_INITIALIZE = [
    (notification("notifications/initialized"), "notifications/initialized", {}, None),
    (request(2, "ping"), "ping", {}, None),
    (request(3, "tools/list"), "tools/list", {}, None),
    (notification("notifications/cancelled", {"requestId": 99, "reason": "changed my mind"}),
     "notifications/cancelled", {}, None),
    (request(4, "tools/call", {"name": "add", "arguments": {"a": 1, "b": 2}}),
     "tools/call add", {TOOL: "add", OPERATION: "execute_tool"}, None),
    (request(5, "tools/call", {"name": "divide", "arguments": {"a": 1, "b": 0}}),
     "tools/call divide", {TOOL: "divide", OPERATION: "execute_tool"}, "tool_error"),
    (request(6, "tools/call", {"name": UNKNOWN_TOOL, "arguments": {}}),
     "tools/call", {OPERATION: "execute_tool"}, "-32602"),
    (request(7, "tools/call", {"name": "explode", "arguments": {}}),
     "tools/call explode", {TOOL: "explode", OPERATION: "execute_tool"}, "tool_error"),
    (request(8, "prompts/get", {"name": "greet", "arguments": {"name": "Ada"}}),
     "prompts/get greet", {PROMPT: "greet"}, None),
    (request(9, "resources/read", {"uri": "notes://today"}),
     "resources/read", {RESOURCE_URI: "notes://today"}, None),
]
MESSAGES = [(INITIALIZE, "initialize", {}, None), *AFTER_INITIALIZE]


def serve_stdio(fixture_bin: str, endpoint: str) -> list[dict]:
    """One stdio session with every message above; the replies."""
    process = subprocess.Popen(
        [fixture_bin], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env=environment(endpoint),
    )
    assert process.stdin and process.stdout
    replies = []
    for message, *_ in MESSAGES:
        process.stdin.write((json.dumps(message) + "\n").encode())
        process.stdin.flush()
        if "id" in message:
            replies.append(json.loads(process.stdout.readline()))
    # The telemetry is flushed as the server returns, when its input ends.
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 0, stderr.decode()
    return replies


def post(url: str, message: dict, headers: dict[str, str]) -> tuple[dict | None, dict[str, str]]:
    """POSTs one message; the JSON-RPC reply (from JSON or the SSE stream) and the headers."""
    sent = urllib.request.Request(url, data=json.dumps(message).encode(), method="POST", headers={
        "content-type": "application/json",
        "accept": "application/json, text/event-stream",
        "mcp-protocol-version": MCP_VERSION,
        **headers,
    })
    with urllib.request.urlopen(sent, timeout=30) as response:
        body = response.read().decode()
        answered = dict(response.headers)
    if "id" not in message:
        return None, answered
    data = [line[5:].strip() for line in body.splitlines() if line.startswith("data:")]
    for text in data or [body]:
        if text and json.loads(text).get("id") == message["id"]:
            return json.loads(text), answered
    raise AssertionError(f"no reply to {message['method']}: {body!r}")


def serve_http(fixture_bin: str, endpoint: str, log: Path) -> tuple[list[dict], str]:
    """One Streamable HTTP session with every message above, each POST carrying a
    `traceparent` header of its own beside the one in `_meta`, ended with a DELETE; the
    replies."""
    with log.open("w") as stderr:
        process = subprocess.Popen(
            [fixture_bin, "127.0.0.1:0"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=stderr, env=environment(endpoint),
        )
    try:
        deadline = time.monotonic() + 30
        while not (found := re.search(r"at (http://\S+/mcp)", log.read_text())):
            assert process.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.02)
        url = found.group(1)
        headers = {"traceparent": HEADER_TRACEPARENT}
        first, answered = post(url, INITIALIZE, headers)
        session = {k.lower(): v for k, v in answered.items()}["mcp-session-id"]
        headers["mcp-session-id"] = session
        replies = [first]
        for message, *_ in AFTER_INITIALIZE:
            reply, _ = post(url, message, headers)
            if reply is not None:
                replies.append(reply)
        ended = urllib.request.Request(url, method="DELETE", headers={
            "mcp-session-id": session, "mcp-protocol-version": MCP_VERSION})
        urllib.request.urlopen(ended, timeout=30).close()
    finally:
        process.terminate()
        process.wait(timeout=30)
    assert process.returncode in (0, -15), log.read_text()
    return replies, session


def check_replies(replies: list[dict]) -> None:
    by_id = {reply["id"]: reply for reply in replies}
    assert by_id[4]["result"].get("isError") is not True, by_id[4]
    assert by_id[5]["result"]["isError"] is True, by_id[5]
    assert by_id[6]["error"]["code"] == -32602, by_id[6]
    assert by_id[7]["result"]["isError"] is True, by_id[7]
    assert "result" in by_id[8] and "result" in by_id[9], replies


def check_spans(receiver: Receiver, transport: dict[str, object], replies: list[dict]) -> None:
    """Every message's span as the conventions describe it, with `transport`'s attributes."""
    spans = {}
    for span in receiver.spans:
        method = attributes(span).get(METHOD)
        assert method, f"a span with no {METHOD}: {span.name}"
        assert (method, span.name) not in spans, f"two spans for one message: {span.name}"
        spans[(method, span.name)] = span
    errors = {reply["id"]: reply["error"]["message"] for reply in replies if "error" in reply}
    for message, name, expected, failure in MESSAGES:
        span = spans.get((message["method"], name))
        assert span is not None, (name, sorted(spans))
        found = attributes(span)
        assert span.kind == Span.SPAN_KIND_SERVER, name
        assert span.trace_id.hex() == TRACE_ID, f"{name}: the client's trace is kept"
        assert span.parent_span_id.hex() == PARENT_ID, f"{name}: the parent is the client's span"
        assert found[METHOD] == message["method"]
        for key, wanted in {**expected, **transport}.items():
            assert found.get(key) == wanted, (name, key, found)
        if "id" in message:
            assert found[REQUEST_ID] == str(message["id"]), (name, found)
        else:
            assert REQUEST_ID not in found, (name, found)
        assert found[PROTOCOL_VERSION] == MCP_VERSION, (name, found)
        assert JSONRPC_VERSION not in found, "jsonrpc.protocol.version only when it is not 2.0"
        if message["method"] != "tools/call":
            assert OPERATION not in found and TOOL not in found, (name, found)
        if message["method"] != "prompts/get":
            assert PROMPT not in found, (name, found)
        if message["method"] != "resources/read":
            assert RESOURCE_URI not in found, (name, found)
        if failure is None:
            assert ERROR_TYPE not in found and STATUS_CODE not in found, (name, found)
            assert span.status.code != Status.STATUS_CODE_ERROR, name
            continue
        assert found[ERROR_TYPE] == failure, (name, found)
        assert span.status.code == Status.STATUS_CODE_ERROR, name
        assert span.status.message, f"{name}: the (masked) message is the status's"
        if failure == "tool_error":
            assert STATUS_CODE not in found, (name, found)
        else:
            assert found[STATUS_CODE] == failure, (name, found)
            # The JSON-RPC error's message, masked: it names what the client sent.
            said = errors[message["id"]].split("`")[0]
            assert said and span.status.message.startswith(said), (name, span.status.message)
    unknown = spans[("tools/call", "tools/call")]
    assert "sk-live" not in str(attributes(unknown).get(TOOL)), "the client's name is masked"


def check_nothing_of_the_build_machine(receiver: Receiver) -> None:
    """No exported key says where the code or thread was; no exported byte names a path of
    the machine that built the server, a thread, or a secret."""
    for span in receiver.spans:
        items = [span, *span.events, *span.links]
        for item in items:
            for key in attributes(item):
                assert not key.startswith(("code.", "thread.")), (span.name, key)
                assert key not in ("target", "busy_ns", "idle_ns", "level"), (span.name, key)
    checkout = str(Path(__file__).resolve().parents[2])
    forbidden = [checkout, str(Path.home()), "/home/builder", ".rs", "tokio-runtime", SECRET,
                 "abc123SECRET"]
    cargo_home = os.environ.get("CARGO_HOME")
    if cargo_home:
        forbidden.append(cargo_home)
    for body in receiver.raw:
        for text in forbidden:
            assert text.encode() not in body, f"{text!r} was exported"


def points(receiver: Receiver, name: str) -> list:
    metrics = receiver.metric(name)
    assert metrics, f"{name} is exported"
    for metric in metrics:
        assert metric.unit == "s", (name, metric.unit)
        for point in metric.histogram.data_points:
            assert list(point.explicit_bounds) == BUCKETS, (name, list(point.explicit_bounds))
    return [point for metric in metrics for point in metric.histogram.data_points]


def check_histograms(receiver: Receiver, transport: dict[str, object]) -> None:
    found = [attributes(point) for point in points(receiver, OPERATION_DURATION)]
    for message, _, expected, failure in MESSAGES:
        wanted = {METHOD: message["method"], PROTOCOL_VERSION: MCP_VERSION, **transport}
        wanted.update({key: value for key, value in expected.items() if key != RESOURCE_URI})
        if failure:
            wanted[ERROR_TYPE] = failure
        if failure and failure != "tool_error":
            wanted[STATUS_CODE] = failure
        matching = [point for point in found if all(point.get(k) == v for k, v in wanted.items())]
        assert matching, (message["method"], wanted, found)
        for point in matching:
            if not failure:
                assert ERROR_TYPE not in point and STATUS_CODE not in point, point
            # The client's URI and unknown names are unbounded: never a point's attribute.
            assert RESOURCE_URI not in point and REQUEST_ID not in point, point
    assert not any(UNKNOWN_TOOL in str(point.get(TOOL)) for point in found)
    for point in found:
        is_call = point[METHOD] == "tools/call"
        assert (OPERATION in point) == is_call, point
        if TOOL in point:
            assert is_call and point[TOOL] in ("add", "divide", "explode"), point
        assert (PROMPT in point) == (point[METHOD] == "prompts/get"), point

    sessions = [attributes(point) for point in points(receiver, SESSION_DURATION)]
    assert sessions, "the session's duration is exported"
    transport_only = {k: v for k, v in transport.items() if k != PROTOCOL_NET_VERSION}
    for session in sessions:
        assert session.get(PROTOCOL_VERSION) == MCP_VERSION, session
        assert all(session.get(k) == v for k, v in transport_only.items()), session
        assert ERROR_TYPE not in session, session


def test_every_stdio_message_is_a_span_by_the_conventions(fixture_bin: str, receiver: Receiver) -> None:
    replies = serve_stdio(fixture_bin, receiver.url)
    check_replies(replies)
    transport = {TRANSPORT: "pipe"}
    check_spans(receiver, transport, replies)
    for span in receiver.spans:
        found = attributes(span)
        for key in (SESSION_ID, PROTOCOL_NAME, PROTOCOL_NET_VERSION, CLIENT_ADDRESS, CLIENT_PORT):
            assert key not in found, f"{span.name}: {key} is for HTTP"
        assert not span.links, f"{span.name}: stdio has no transport context to link"
    check_nothing_of_the_build_machine(receiver)
    check_histograms(receiver, transport)


def test_every_http_message_is_a_span_by_the_conventions_linked_to_its_request(
    fixture_bin: str, receiver: Receiver, tmp_path: Path
) -> None:
    replies, session = serve_http(fixture_bin, receiver.url, tmp_path / "stderr.log")
    check_replies(replies)
    transport = {TRANSPORT: "tcp", PROTOCOL_NAME: "http", PROTOCOL_NET_VERSION: "1.1"}
    check_spans(receiver, transport, replies)
    for span in receiver.spans:
        found = attributes(span)
        assert found[CLIENT_ADDRESS] == "127.0.0.1", (span.name, found)
        assert isinstance(found[CLIENT_PORT], int) and found[CLIENT_PORT] > 0, (span.name, found)
        if found[METHOD] != "initialize":
            assert found[SESSION_ID] == session, (span.name, found)
        links = [(link.trace_id.hex(), link.span_id.hex()) for link in span.links]
        assert links == [(HEADER_TRACE_ID, HEADER_SPAN_ID)], f"{span.name}: linked to its request"
    check_nothing_of_the_build_machine(receiver)
    check_histograms(receiver, transport)
