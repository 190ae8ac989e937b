#!/usr/bin/env bash
# End-to-end tests: the file_search example served to the official Python MCP client over stdio
# and over HTTP (with sessions and stateless), linted by the MCP Inspector's CLI over both
# (installed with npm under target/ by scripts/setup-inspector.sh), two stateless replicas of
# it behind nginx (installed with apt-get by scripts/setup-nginx.sh when missing), and the
# README's Getting started built as a fresh crate (offline, mcp-tool by path) and served, and
# mcp-fuzzer in tools and protocol modes over stdio and HTTP (installed with pip in a venv of
# its own under target/ by scripts/setup-fuzzer.sh).
# A test whose tool cannot be installed skips, giving the reason its setup script gave.
# Extra arguments go to pytest, e.g. `scripts/e2e.sh -k unknown_tool`.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup-python.sh

# Its reason, when nginx cannot be had, goes to the scale-out test, which skips with it.
if ! { nginx_error="$(scripts/setup-nginx.sh 2>&1 1>&3 3>&-)"; } 3>&1; then
    echo "$nginx_error" >&2
    export NGINX_UNAVAILABLE="${nginx_error:-scripts/setup-nginx.sh failed}"
fi

# The Inspector's paths, or the reason it cannot be had, go to its test.
inspector_log="$(mktemp)"
if inspector_paths="$(scripts/setup-inspector.sh 2>"$inspector_log")"; then
    cat "$inspector_log" >&2
    INSPECTOR_NODE="$(sed -n 's/^node=//p' <<<"$inspector_paths")"
    INSPECTOR_JS="$(sed -n 's/^inspector=//p' <<<"$inspector_paths")"
    export INSPECTOR_NODE INSPECTOR_JS
else
    cat "$inspector_log" >&2
    INSPECTOR_UNAVAILABLE="$(tail -n 1 "$inspector_log")"
    export INSPECTOR_UNAVAILABLE="${INSPECTOR_UNAVAILABLE:-scripts/setup-inspector.sh failed}"
fi
rm -f "$inspector_log"

# mcp-fuzzer's path, or the reason it cannot be had, goes to its test.
fuzzer_log="$(mktemp)"
if fuzzer_paths="$(scripts/setup-fuzzer.sh 2>"$fuzzer_log")"; then
    cat "$fuzzer_log" >&2
    FUZZER_BIN="$(sed -n 's/^fuzzer=//p' <<<"$fuzzer_paths")"
    export FUZZER_BIN
else
    cat "$fuzzer_log" >&2
    FUZZER_UNAVAILABLE="$(tail -n 1 "$fuzzer_log")"
    export FUZZER_UNAVAILABLE="${FUZZER_UNAVAILABLE:-scripts/setup-fuzzer.sh failed}"
fi
rm -f "$fuzzer_log"

cargo build --example file_search --locked
target_dir="${CARGO_TARGET_DIR:-target}"
bin="$target_dir/debug/examples/file_search"
if [[ ! -x "$bin" ]]; then
    echo "e2e: the example was built but $bin is missing" >&2
    exit 1
fi

FILE_SEARCH_BIN="$(realpath "$bin")" PYTHONDONTWRITEBYTECODE=1 \
    .venv/bin/python -m pytest tests/e2e -q -p no:cacheprovider "$@"
