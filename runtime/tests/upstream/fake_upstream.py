#!/usr/bin/env python3
"""An MCP server over stdio for the proxy's tests, written by hand so that it can
misbehave: a tool that never answers, one that exits mid-call, one that answers with
bytes that are not JSON, one whose result is huge, one that fails with a secret in its
text, one that adds a tool and says so, one that asks for sampling it was never allowed.  Each call runs on a thread of its own."""
import json
import os
import sys
import threading
import time

write_lock = threading.Lock()
cancelled = []
extra_tools = []
# Answers to the requests this server sends its client, by id.
answers = {}
answered = threading.Condition()

TOOLS = [
    ("echo", "Returns its text.", {"text": {"type": "string"}}),
    ("add", "Adds two integers.", {"a": {"type": "integer"}, "b": {"type": "integer"}}),
    ("get-pid", "Returns the process id of the server.", {}),
    ("progress", "Reports progress in steps, then returns done.", {"steps": {"type": "integer"}}),
    ("hang", "Never answers.", {}),
    ("die", "Exits the process mid-call.", {}),
    ("garbage", "Answers with bytes that are not JSON.", {}),
    ("huge", "Returns a text of the given size.", {"bytes": {"type": "integer"}}),
    ("fail", "Fails with a secret in its message.", {}),
    ("grow", "Adds the tool added and says the tools changed.", {}),
    ("cancelled", "Returns the ids of the requests the client cancelled.", {}),
    ("flood", "Sends two thousand progress notifications and log messages, then returns.", {}),
    ("sample", "Asks the client for sampling, which it never allowed, and returns the answer.", {}),
]


def send(message):
    line = json.dumps(message) + "\n"
    with write_lock:
        sys.stdout.write(line)
        sys.stdout.flush()


def tool_listing(name, description, properties):
    return {
        "name": name,
        "description": description,
        "inputSchema": {"type": "object", "properties": properties},
    }


def text(value, is_error=False):
    return {"content": [{"type": "text", "text": value}], "isError": is_error}


def call(request_id, params):
    name = params.get("name")
    args = params.get("arguments") or {}
    token = (params.get("_meta") or {}).get("progressToken")
    if name == "echo":
        result = text(args.get("text", ""))
    elif name == "add":
        result = text(str(args["a"] + args["b"]))
    elif name == "get-pid":
        result = text(str(os.getpid()))
    elif name == "progress":
        steps = args.get("steps", 3)
        for step in range(1, steps + 1):
            if token is not None:
                send({"jsonrpc": "2.0", "method": "notifications/progress",
                      "params": {"progressToken": token, "progress": step, "total": steps,
                                 "message": f"step {step}"}})
            time.sleep(0.02)
        result = text("done")
    elif name == "flood":
        for step in range(1, 2001):
            if token is not None:
                send({"jsonrpc": "2.0", "method": "notifications/progress",
                      "params": {"progressToken": token, "progress": step, "total": 2000}})
            send({"jsonrpc": "2.0", "method": "notifications/message",
                  "params": {"level": "info", "data": f"flood {step}"}})
        result = text("flooded")
    elif name == "hang":
        return
    elif name == "die":
        sys.stderr.write("dying now\n")
        sys.stderr.flush()
        os._exit(3)
    elif name == "garbage":
        with write_lock:
            sys.stdout.write('{"jsonrpc": "2.0", "id": %s, "result": {"content": [\n' % json.dumps(request_id))
            sys.stdout.flush()
        return
    elif name == "huge":
        result = text("x" * args.get("bytes", 1000))
    elif name == "fail":
        result = text("cannot open /home/alice/secret.txt with password=hunter2", True)
    elif name == "grow":
        extra_tools.append(("added", "A tool added at run time.", {}))
        send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
        result = text("grown")
    elif name == "added":
        result = text("here")
    elif name == "cancelled":
        result = text(json.dumps(cancelled))
    elif name == "sample":
        asked = f"ask-{request_id}"
        send({"jsonrpc": "2.0", "id": asked, "method": "sampling/createMessage",
              "params": {"messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}],
                         "maxTokens": 10}})
        with answered:
            answered.wait_for(lambda: asked in answers, timeout=5)
            result = text(json.dumps(answers.get(asked)))
    else:
        send({"jsonrpc": "2.0", "id": request_id,
              "error": {"code": -32602, "message": f"Unknown tool: {name}"}})
        return
    send({"jsonrpc": "2.0", "id": request_id, "result": result})


def main():
    sys.stderr.write("fake upstream started with api_key=sk-live-0123456789abcdef\n")
    sys.stderr.flush()
    for line in sys.stdin:
        message = json.loads(line)
        method = message.get("method")
        request_id = message.get("id")
        params = message.get("params") or {}
        if method == "initialize":
            send({"jsonrpc": "2.0", "id": request_id, "result": {
                "protocolVersion": params.get("protocolVersion", "2025-11-25"),
                "capabilities": {"tools": {"listChanged": True}},
                "serverInfo": {"name": "fake-upstream", "version": "1.0.0"}}})
        elif method == "tools/list":
            tools = [tool_listing(*tool) for tool in TOOLS + extra_tools]
            send({"jsonrpc": "2.0", "id": request_id, "result": {"tools": tools}})
        elif method == "tools/call":
            threading.Thread(target=call, args=(request_id, params), daemon=True).start()
        elif method == "notifications/cancelled":
            cancelled.append(params.get("requestId"))
        elif method is None and request_id is not None:
            with answered:
                answers[request_id] = message.get("error") or message.get("result")
                answered.notify_all()
        elif method == "ping":
            send({"jsonrpc": "2.0", "id": request_id, "result": {}})
        elif request_id is not None:
            send({"jsonrpc": "2.0", "id": request_id,
                  "error": {"code": -32601, "message": "Method not found"}})


if __name__ == "__main__":
    main()
