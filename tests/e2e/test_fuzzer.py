"""mcp-fuzzer against the example server, in `tools` and `protocol` modes, over stdio and HTTP.

mcp-fuzzer exits 0 even when it finds something, so each run is judged by the report it
writes to `--output-dir`: `run_summary.json` (per tool: crashed, anomaly, exceptions, where a
request that outlives `--timeout` lands) and `findings.json` (every finding, by category).
The only category allowed is `accepted_malformed`: inputs that are valid against a schema
which does not forbid extra properties, or notifications, which get no reply by design.
scripts/setup-fuzzer.sh installs it in a venv of its own under target/, and scripts/e2e.sh
passes its path on.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import http_server

# Small enough for CI: the four runs take seconds; each request has 3 s to be answered.
RUNS = ["--runs", "10", "--runs-per-type", "3", "--timeout", "3"]
ALLOWED = {"accepted_malformed"}


@pytest.fixture(scope="module")
def fuzzer() -> str:
    path = os.environ.get("FUZZER_BIN")
    if not path:
        why = os.environ.get("FUZZER_UNAVAILABLE") or "run the tests through scripts/e2e.sh, which installs it"
        pytest.skip(f"mcp-fuzzer is not installed: {why}")
    return path


def summary_lines(output: str) -> list[str]:
    """The lines of its final summary, from `=== MCP Fuzzer Summary ===` on, and its totals."""
    lines = output.splitlines()
    totals = [line for line in lines if line.startswith(("Total ", "Overall "))]
    start = next((i for i, line in enumerate(lines) if "MCP Fuzzer Summary" in line), len(lines))
    return totals + lines[start:]


@pytest.mark.parametrize("mode", ["tools", "protocol"])
@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_the_fuzzer_finds_no_crash_anomaly_or_timeout(
    fuzzer: str, server_bin: str, mode: str, transport: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "root"
    (root / "src").mkdir(parents=True)
    (root / "README.txt").write_text("fuzzed\n")
    (root / "src" / "main.rs").write_text("fn main() {}\n")
    sandbox, reports = tmp_path / "fuzzer-root", tmp_path / "reports"
    sandbox.mkdir()

    def run(*endpoint: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [fuzzer, "--mode", mode, *endpoint, *RUNS, "--fs-root", str(sandbox), "--no-network",
             "--no-corpus", "--output-dir", str(reports)],
            capture_output=True, text=True, timeout=150, stdin=subprocess.DEVNULL,
            env={**os.environ, "HOME": str(tmp_path)},
        )

    if transport == "stdio":
        done = run("--protocol", "stdio", "--endpoint", f"{server_bin} --root {root}")
    else:
        with http_server(server_bin, root, tmp_path / "server.log") as served:
            done = run("--protocol", "http", "--endpoint", served.url)
            assert served.process.poll() is None, "the HTTP server ended during the fuzzing"
    output = done.stdout + done.stderr
    with capsys.disabled():
        print(f"\nmcp-fuzzer --mode {mode} over {transport}:", *summary_lines(done.stdout), sep="\n  ", file=sys.stderr)
    assert done.returncode == 0, f"mcp-fuzzer exited {done.returncode}:\n{output}"

    summary = json.loads((reports / "run_summary.json").read_text())
    assert summary["status"] == "completed", json.dumps(summary, indent=2)
    if mode == "tools":
        tools = summary["tools"]["by_name"]
        assert sorted(tools) == ["choose_and_describe", "choose_file", "describe_file", "index_files", "list_attributes", "read_attributes", "search"], output
        for name, tool in tools.items():
            outcomes = tool["outcomes"]
            assert tool["total_runs"] == 10, f"{name}: {tool}"
            assert (outcomes["crashed"], outcomes["anomaly"], outcomes["exceptions"]) == (0, 0, 0), f"{name}: {tool}"
    else:
        assert summary["protocols"]["total_runs"] > 0, json.dumps(summary, indent=2)
    # Written on every run, with no findings too: without it there is nothing to judge.
    findings = reports / "findings.json"
    assert findings.exists(), f"mcp-fuzzer wrote no {findings.name}:\n{output}"
    found = json.loads(findings.read_text())["findings"]
    unexpected = [finding for finding in found if finding["category"] not in ALLOWED]
    assert not unexpected, f"mcp-fuzzer's findings:\n{json.dumps(unexpected, indent=2)}"
