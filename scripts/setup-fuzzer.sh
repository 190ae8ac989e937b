#!/usr/bin/env bash
# Installs mcp-fuzzer (PyPI, pinned below), which tests/e2e/test_fuzzer.py runs against the
# example server, into a virtualenv of its own, target/fuzzer/venv (under $CARGO_TARGET_DIR
# when set): its dependencies are kept apart from the test client's in .venv. An install
# from the same pin is reused on later runs.
# Prints `fuzzer=PATH` (its executable) for scripts/e2e.sh, and exits 1 with the reason on
# stderr when it cannot install it; the test then skips, giving that reason (under CI it fails: scripts/e2e.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

FUZZER_VERSION=0.7.0

say() { printf 'setup-fuzzer: %s\n' "$*" >&2; }
fail() { printf 'setup-fuzzer: %s\n' "$*" >&2; exit 1; }

# Fails on purpose, as a machine without mcp-fuzzer would: how the test command's handling of a
# missing tool is itself tested.
[[ -z "${FUZZER_FORCE_FAIL:-}" ]] || fail "FUZZER_FORCE_FAIL is set: failing as a machine where mcp-fuzzer cannot be installed would"

venv="${CARGO_TARGET_DIR:-target}/fuzzer/venv"
fuzzer="$venv/bin/mcp-fuzzer"
stamp="$venv/.mcp-fuzzer-version"
python="${PYTHON:-python3}"

if [[ -x "$fuzzer" && -f "$stamp" && "$(cat "$stamp")" == "$FUZZER_VERSION" ]]; then
    say "reusing mcp-fuzzer $FUZZER_VERSION installed in $venv"
else
    command -v "$python" >/dev/null || fail "$python is missing, so mcp-fuzzer cannot be installed: install Python 3"
    say "installing mcp-fuzzer $FUZZER_VERSION with pip into $venv (once)"
    mkdir -p "$(dirname "$venv")"
    "$python" -m venv "$venv" >&2 || fail "\`$python -m venv $venv\` failed"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        "mcp-fuzzer==$FUZZER_VERSION" >&2 \
        || fail "\`pip install mcp-fuzzer==$FUZZER_VERSION\` failed"
    [[ -x "$fuzzer" ]] || fail "pip ran, but $fuzzer is missing"
    echo "$FUZZER_VERSION" >"$stamp"
fi
version="$("$fuzzer" --version 2>&1)" || fail "$fuzzer does not run: $version"
say "$version"
printf 'fuzzer=%s\n' "$(realpath "$fuzzer")"
