#!/usr/bin/env python3
"""Prints the closing table of scripts/test.sh and decides whether the run passed.

Reads the steps file test.sh writes (a line a step: kind, name, exit status, seconds, log)
and counts what each step ran from its own output: nextest's and cargo test's summaries,
pytest's JUnit report (the path in $E2E_JUNIT), the conformance suite's `Total` lines.
A step fails when its command failed, when it ran nothing, or, under CI, when it skipped
anything. The last line says whether the run passed and, when tests were skipped, how many.
Exits 1 when a step failed.
"""

from __future__ import annotations

import dataclasses
import os
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path


@dataclasses.dataclass
class Counts:
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    note: str = ""

    @property
    def ran(self) -> int:
        return self.passed + self.failed


def number(pattern: str, text: str) -> int:
    match = re.search(pattern, text)
    return int(match.group(1)) if match else 0


def nextest(log: str, _status: int) -> Counts:
    # "Summary [  12.3s] 219 tests run: 217 passed, 2 failed, 1 skipped"
    lines = [line for line in log.splitlines() if re.search(r"Summary \[.*\] \d+ tests? run:", line)]
    if not lines:
        return Counts(note="no nextest summary in its output")
    line = lines[-1]
    counts = Counts(
        passed=number(r"(\d+) passed", line),
        failed=number(r"(\d+) failed", line) + number(r"(\d+) timed out", line),
        skipped=number(r"(\d+) skipped", line),
    )
    not_run = number(r"(\d+) not run", line)
    if not_run:
        counts.note = f"{not_run} not run"
    return counts


def doctest(log: str, _status: int) -> Counts:
    # "test result: ok. 35 passed; 0 failed; 2 ignored; 0 measured; 0 filtered out; ..."
    counts = Counts()
    for line in log.splitlines():
        if line.startswith("test result:"):
            counts.passed += number(r"(\d+) passed", line)
            counts.failed += number(r"(\d+) failed", line)
            counts.skipped += number(r"(\d+) ignored", line)
    return counts


def pytest(log: str, status: int) -> Counts:
    counts = pytest_counts(status)
    # scripts/e2e.sh names each setup step that failed, with its error.
    failed_setups = [
        line.split(":", 1)[1].strip().removeprefix("setup failed:").strip()
        for line in log.splitlines()
        if line.startswith("e2e:   scripts/") or line.startswith("e2e: setup failed: ")
    ]
    if failed_setups:
        counts.note = "setup failed: " + "; ".join(failed_setups)
    return counts


def pytest_counts(status: int) -> Counts:
    path = os.environ.get("E2E_JUNIT", "")
    if not path or not Path(path).is_file():
        return Counts(failed=int(status != 0), note="no JUnit report: the tests did not start")
    root = ET.parse(path).getroot()
    suites = [root] if root.tag == "testsuite" else list(root.iter("testsuite"))
    total = sum(int(s.get("tests", 0)) for s in suites)
    failed = sum(int(s.get("failures", 0)) + int(s.get("errors", 0)) for s in suites)
    skipped = sum(int(s.get("skipped", 0)) for s in suites)
    counts = Counts(passed=total - failed - skipped, failed=failed, skipped=skipped)
    if status != 0 and failed == 0:
        counts.note = "the tests passed, but a setup step failed (see its log)"
    return counts


def conformance(log: str, status: int) -> Counts:
    # One "Total: N passed, M failed" line a suite version; failures the suite's list
    # expects do not fail the step (the script's exit status says whether they matched).
    counts = Counts()
    expected = 0
    for line in log.splitlines():
        if line.strip().startswith("Total:"):
            counts.passed += number(r"(\d+) passed", line)
            expected += number(r"(\d+) failed", line)
    if status == 0:
        counts.note = f"{expected} failed checks, each expected by tests/conformance/expected-failures-*.yml"
    else:
        counts.failed = max(expected, 1)
        counts.note = "the failures differ from tests/conformance/expected-failures-*.yml"
    return counts


def check(log: str, status: int) -> Counts:
    # A check whose tool could not be installed ends, outside CI, with "skipped: <why>".
    skip = re.search(r"^skipped: (.*)$", log, re.MULTILINE)
    if status == 0 and skip:
        return Counts(skipped=1, note=skip.group(1))
    return Counts(passed=int(status == 0), failed=int(status != 0))


KINDS = {"check": check, "nextest": nextest, "doctest": doctest, "pytest": pytest, "conformance": conformance}


def running_in_ci() -> bool:
    return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")


def duration(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


def main() -> int:
    ci = running_in_ci()
    rows = []
    for line in Path(sys.argv[1]).read_text().splitlines():
        kind, name, status, seconds, log = line.split("\t")
        text = Path(log).read_text(errors="replace") if Path(log).is_file() else ""
        counts = KINDS[kind](text, int(status))
        problems = []
        if int(status) != 0:
            problems.append(f"exit {status}")
        if counts.ran == 0 and not (kind == "check" and counts.skipped):
            problems.append("ran nothing")
        if ci and counts.skipped:
            problems.append(f"{counts.skipped} skipped under CI")
        verdict = "FAIL" if problems else "ok"
        note = "; ".join(problems + ([counts.note] if counts.note else []))
        rows.append((name, verdict, counts, int(seconds), note))

    header = ("step", "result", "passed", "failed", "skipped", "time", "note")
    table = [header] + [
        (name, verdict, str(c.passed), str(c.failed), str(c.skipped), duration(s), note)
        for name, verdict, c, s, note in rows
    ]
    table.append(("total", "", *(str(sum(getattr(r[2], f) for r in rows)) for f in ("passed", "failed", "skipped")),
                  duration(sum(r[3] for r in rows)), ""))
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    print("\n==> summary")
    for i, row in enumerate(table):
        cells = [cell.ljust(w) if j in (0, 1, 6) else cell.rjust(w) for j, (cell, w) in enumerate(zip(row, widths))]
        print("  ".join(cells).rstrip())
        if i == 0 or i == len(table) - 2:
            print("  ".join("-" * w for w in widths))

    failed = [name for name, verdict, *_ in rows if verdict == "FAIL"]
    skipped = sum(r[2].skipped for r in rows)
    if failed:
        print(f"FAILED: {len(failed)} of {len(rows)} steps: " + "; ".join(failed))
        return 1
    if skipped:
        print(f"PASSED, BUT {skipped} TESTS WERE SKIPPED AND NEVER RAN: their reasons are in the output above")
        return 0
    print(f"PASSED: every one of the {len(rows)} steps ran and passed, nothing skipped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
