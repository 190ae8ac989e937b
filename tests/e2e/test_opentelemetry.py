"""The example built with the feature `opentelemetry`, exporting to an OTLP/HTTP receiver of
the test's own, which decodes what arrives with the official `opentelemetry-proto` package:
the client's trace id kept, one server span per request with OpenTelemetry's MCP attributes,
a failing call marked as an error with no secret in it, the duration histogram exported."""

from __future__ import annotations

import http.server
import json
import os
import subprocess
import threading
from pathlib import Path

from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import (
    ExportMetricsServiceRequest,
    ExportMetricsServiceResponse,
)
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.trace.v1.trace_pb2 import Span, Status

TRACE_ID = "0af7651916cd43dd8448eb211c80319c"
PARENT_ID = "b7ad6b7169203331"
TRACEPARENT = f"00-{TRACE_ID}-{PARENT_ID}-01"
SECRET = "hunter2"


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


def attributes(span: Span) -> dict[str, object]:
    found: dict[str, object] = {}
    for attribute in span.attributes:
        value = attribute.value
        found[attribute.key] = getattr(value, value.WhichOneof("value"))
    return found


def run_session(server_bin: str, root: Path, endpoint: str) -> list[dict]:
    """Serves one stdio session with the exporter pointed at `endpoint`: a successful call
    and a failing one, each with the client's trace context in `_meta`; the replies."""
    env = {
        **os.environ,
        "OTEL_EXPORTER_OTLP_ENDPOINT": endpoint,
        "OTEL_SERVICE_NAME": "file-search-e2e",
        "OTEL_BSP_SCHEDULE_DELAY": "100",
        "OTEL_METRIC_EXPORT_INTERVAL": "200",
    }
    meta = {"traceparent": TRACEPARENT}
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "otel-e2e", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "list_attributes", "arguments": {}, "_meta": meta}},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
            "name": "read_attributes", "arguments": {"path": f"password={SECRET}"}, "_meta": meta}},
    ]
    process = subprocess.Popen(
        [server_bin, "--root", str(root)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
    )
    assert process.stdin and process.stdout
    replies = []
    for message in messages:
        process.stdin.write((json.dumps(message) + "\n").encode())
        process.stdin.flush()
        if "id" in message:
            replies.append(json.loads(process.stdout.readline()))
    # The telemetry is flushed as the server returns, when its input ends.
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 0, stderr.decode()
    return replies


def test_each_request_is_an_exported_span_of_the_clients_trace(server_bin: str, tree: Path) -> None:
    receiver = Receiver()
    try:
        replies = run_session(server_bin, tree, receiver.url)
    finally:
        receiver.close()
    assert replies[1]["result"].get("isError") is not True, replies[1]
    assert replies[2]["result"]["isError"] is True, replies[2]

    calls = [span for span in receiver.spans if span.name.startswith("tools/call ")]
    assert sorted(span.name for span in calls) == [
        "tools/call list_attributes",
        "tools/call read_attributes",
    ], [span.name for span in receiver.spans]
    for span in calls:
        assert span.trace_id.hex() == TRACE_ID, "the client's trace is kept"
        assert span.parent_span_id.hex() == PARENT_ID, "the client's span is the parent"
        assert span.kind == Span.SPAN_KIND_SERVER
        found = attributes(span)
        assert found["mcp.method.name"] == "tools/call"
        assert found["gen_ai.operation.name"] == "execute_tool"
        assert found["gen_ai.tool.name"] == span.name.removeprefix("tools/call ")
        assert found["network.transport"] == "pipe"
        assert found["mcp.protocol.version"] == "2025-11-25"
        assert found["jsonrpc.request.id"] in ("2", "3")

    failed = next(span for span in calls if span.name == "tools/call read_attributes")
    assert failed.status.code == Status.STATUS_CODE_ERROR
    assert attributes(failed)["error.type"] == "tool_error"
    assert failed.status.message, "the error's (masked) message is on the span"
    succeeded = next(span for span in calls if span.name == "tools/call list_attributes")
    assert succeeded.status.code != Status.STATUS_CODE_ERROR
    assert "error.type" not in attributes(succeeded)
    assert not any(SECRET.encode() in body for body in receiver.raw), "no secret is exported"

    histograms = [
        metric
        for request in receiver.metrics
        for resource in request.resource_metrics
        for scope in resource.scope_metrics
        for metric in scope.metrics
        if metric.name == "mcp.server.operation.duration"
    ]
    assert histograms, "the duration histogram is exported"
    points = [point for metric in histograms for point in metric.histogram.data_points]
    timed = {
        attribute.value.string_value
        for point in points
        if point.count >= 1 and point.sum > 0
        for attribute in point.attributes
        if attribute.key == "gen_ai.tool.name"
    }
    assert timed == {"list_attributes", "read_attributes"}, points
    assert all(
        any(a.key == "mcp.method.name" for a in point.attributes) for point in points
    ), points
