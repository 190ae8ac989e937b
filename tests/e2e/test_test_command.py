"""The test command's own honesty: a tool that cannot be installed fails a CI run and names its
setup step, elsewhere it is a counted skip; the closing table fails a step that ran nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def environment(ci: bool, junit: Path, failing: str) -> dict[str, str]:
    """The environment of a run whose setup step `failing` (INSPECTOR, REDIS, OAUTH) fails on
    purpose, without the paths this run's own setup found."""
    found = ("CI", "INSPECTOR_NODE", "INSPECTOR_JS", "REDIS_SERVER", "OAUTH_NODE", "OAUTH_MODULES", "MCPB_CLI")
    env = {k: v for k, v in os.environ.items() if k not in found}
    env.update({f"{failing}_FORCE_FAIL": "1", "E2E_JUNIT": str(junit)})
    if ci:
        env["CI"] = "true"
    return env


def run_e2e(ci: bool, tmp_path: Path, failing: str = "INSPECTOR", tests: str = "test_inspector and stdio") -> subprocess.CompletedProcess[str]:
    """scripts/e2e.sh with a setup step failing on purpose (the Inspector's unless told),
    running only `tests` (the Inspector's over stdio, two of them, unless told)."""
    return subprocess.run(
        ["scripts/e2e.sh", "-k", tests],
        cwd=ROOT,
        env=environment(ci, tmp_path / "junit.xml", failing),
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_under_ci_a_missing_inspector_fails_the_run_naming_its_setup_step(tmp_path: Path):
    result = run_e2e(ci=True, tmp_path=tmp_path)
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert "e2e: FAILED: under CI=true every test must run, and these setup steps failed:" in output
    assert (
        "e2e:   scripts/setup-inspector.sh: setup-inspector: INSPECTOR_FORCE_FAIL is set: "
        "failing as a machine where the Inspector cannot be installed would"
    ) in output
    # The test that needed it failed instead of skipping, and said why.
    assert "skipped under CI=true, where every test must run: Skipped: the MCP Inspector is not installed" in output


def test_without_ci_a_missing_inspector_is_a_skip_counted_on_the_last_line(tmp_path: Path):
    result = run_e2e(ci=False, tmp_path=tmp_path)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    last = result.stdout.rstrip().splitlines()[-1]
    assert last == "e2e: 2 TESTS SKIPPED, NOT RUN (allowed because CI is not set; pytest's summary above says why)"
    assert "e2e: setup failed: scripts/setup-inspector.sh: setup-inspector: INSPECTOR_FORCE_FAIL is set" in result.stdout


def test_under_ci_a_missing_redis_fails_the_run_naming_its_setup_step(tmp_path: Path):
    result = run_e2e(ci=True, tmp_path=tmp_path, failing="REDIS", tests="test_scale_out_tasks and cancelled")
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert (
        "e2e:   scripts/setup-redis.sh: setup-redis: REDIS_FORCE_FAIL is set: "
        "failing as a machine where redis-server cannot be installed would"
    ) in output
    assert (
        "skipped under CI=true, where every test must run: Skipped: redis-server is not installed: "
        "setup-redis: REDIS_FORCE_FAIL is set"
    ) in output


def test_under_ci_a_missing_oauth_issuer_fails_the_run_naming_its_setup_step(tmp_path: Path):
    result = run_e2e(ci=True, tmp_path=tmp_path, failing="OAUTH", tests="test_oauth and without_a_token")
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert (
        "e2e:   scripts/setup-oauth.sh: setup-oauth: OAUTH_FORCE_FAIL is set: "
        "failing as a machine where the OAuth issuer cannot be installed would"
    ) in output
    assert (
        "skipped under CI=true, where every test must run: Skipped: the OAuth issuer (oidc-provider) "
        "is not installed: setup-oauth: OAUTH_FORCE_FAIL is set"
    ) in output


def summary(tmp_path: Path, steps: list[tuple[str, str, int, str]], ci: bool, junit: str = "") -> subprocess.CompletedProcess[str]:
    """Runs the closing table over made-up steps: (kind, name, exit status, output)."""
    lines = []
    for i, (kind, name, status, output) in enumerate(steps):
        log = tmp_path / f"{i}.log"
        log.write_text(output)
        lines.append(f"{kind}\t{name}\t{status}\t{61 * i}\t{log}\n")
    (tmp_path / "steps.tsv").write_text("".join(lines))
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env["E2E_JUNIT"] = junit
    if ci:
        env["CI"] = "true"
    return subprocess.run(
        [sys.executable, ROOT / "scripts/test-summary.py", tmp_path / "steps.tsv"],
        env=env,
        capture_output=True,
        text=True,
    )


NEXTEST_OK = "     Summary [  12.345s] 219 tests run: 219 passed, 0 skipped\n"
DOCTEST_OK = "test result: ok. 35 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 1.2s\n"


def row(output: str, step: str) -> list[str]:
    line = next(line for line in output.splitlines() if line.startswith(step))
    return line[len(step) :].split()


def test_the_table_counts_each_step_and_passes_a_full_run(tmp_path: Path):
    result = summary(
        tmp_path,
        [("check", "cargo fmt", 0, ""), ("nextest", "tests", 0, NEXTEST_OK), ("doctest", "doc tests", 0, DOCTEST_OK * 2)],
        ci=True,
    )
    assert result.returncode == 0, result.stdout
    assert row(result.stdout, "tests") == ["ok", "219", "0", "0", "1:01"]
    assert row(result.stdout, "doc tests") == ["ok", "70", "0", "0", "2:02"]
    assert row(result.stdout, "total") == ["290", "0", "0", "3:03"]
    assert result.stdout.splitlines()[-1] == "PASSED: every one of the 3 steps ran and passed, nothing skipped"


def test_a_step_that_ran_nothing_fails(tmp_path: Path):
    empty = "     Summary [   0.001s] 0 tests run: 0 passed, 0 skipped\n"
    result = summary(tmp_path, [("nextest", "tests", 0, empty), ("doctest", "doc tests", 0, "")], ci=False)
    assert result.returncode == 1, result.stdout
    assert row(result.stdout, "tests")[0:4] == ["FAIL", "0", "0", "0"]
    assert row(result.stdout, "doc tests")[5:] == ["ran", "nothing"]
    assert result.stdout.splitlines()[-1] == "FAILED: 2 of 2 steps: tests; doc tests"


def test_a_skip_fails_under_ci_and_is_counted_loudly_elsewhere(tmp_path: Path):
    skipping = "     Summary [  12.345s] 10 tests run: 9 passed, 1 skipped\n"
    under_ci = summary(tmp_path, [("nextest", "tests", 0, skipping)], ci=True)
    assert under_ci.returncode == 1, under_ci.stdout
    assert under_ci.stdout.splitlines()[-1] == "FAILED: 1 of 1 steps: tests"
    assert "1 skipped under CI" in under_ci.stdout
    elsewhere = summary(tmp_path, [("nextest", "tests", 0, skipping)], ci=False)
    assert elsewhere.returncode == 0, elsewhere.stdout
    assert elsewhere.stdout.splitlines()[-1] == (
        "PASSED, BUT 1 TESTS WERE SKIPPED AND NEVER RAN: their reasons are in the output above"
    )


def test_a_failed_command_fails_its_step_whatever_it_printed(tmp_path: Path):
    result = summary(tmp_path, [("nextest", "tests", 101, NEXTEST_OK)], ci=False)
    assert result.returncode == 1
    assert row(result.stdout, "tests") == ["FAIL", "219", "0", "0", "0:00", "exit", "101"]


def test_end_to_end_counts_come_from_the_junit_report(tmp_path: Path):
    junit = tmp_path / "junit.xml"
    junit.write_text(
        '<testsuites><testsuite name="pytest" tests="12" failures="1" errors="1" skipped="2"></testsuite></testsuites>'
    )
    result = summary(tmp_path, [("pytest", "end-to-end", 1, "")], ci=False, junit=str(junit))
    assert row(result.stdout, "end-to-end")[0:4] == ["FAIL", "8", "2", "2"]


def test_a_failed_setup_step_is_named_in_the_table(tmp_path: Path):
    junit = tmp_path / "junit.xml"
    junit.write_text('<testsuites><testsuite name="pytest" tests="3" failures="2" errors="0" skipped="0"></testsuite></testsuites>')
    log = (
        "e2e: FAILED: under CI=true every test must run, and these setup steps failed:\n"
        "e2e:   scripts/setup-inspector.sh: setup-inspector: npm could not reach the registry\n"
    )
    result = summary(tmp_path, [("pytest", "end-to-end", 1, log)], ci=True, junit=str(junit))
    assert row(result.stdout, "end-to-end")[5:] == (
        "exit 1; setup failed: scripts/setup-inspector.sh: setup-inspector: npm could not reach the registry".split()
    )


def test_a_check_whose_tool_could_not_be_installed_is_a_skip(tmp_path: Path):
    skipped = "skipped: cargo-deny could not be installed (see above), so the dependencies were not checked\n"
    elsewhere = summary(tmp_path, [("check", "dependencies", 0, skipped)], ci=False)
    assert elsewhere.returncode == 0, elsewhere.stdout
    assert row(elsewhere.stdout, "dependencies")[0:4] == ["ok", "0", "0", "1"]
    assert elsewhere.stdout.splitlines()[-1] == (
        "PASSED, BUT 1 TESTS WERE SKIPPED AND NEVER RAN: their reasons are in the output above"
    )
    under_ci = summary(tmp_path, [("check", "dependencies", 0, skipped)], ci=True)
    assert under_ci.returncode == 1, under_ci.stdout
    assert "1 skipped under CI" in under_ci.stdout
