#!/usr/bin/env bash
# End-to-end tests: the file_search example served to the official Python MCP client over stdio
# and over HTTP (with sessions and stateless),
# and the README's Getting started built as a fresh crate (offline, mcp-tool by path) and served.
# Extra arguments go to pytest, e.g. `scripts/e2e.sh -k unknown_tool`.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup-python.sh

cargo build --example file_search --locked
target_dir="${CARGO_TARGET_DIR:-target}"
bin="$target_dir/debug/examples/file_search"
if [[ ! -x "$bin" ]]; then
    echo "e2e: the example was built but $bin is missing" >&2
    exit 1
fi

FILE_SEARCH_BIN="$(realpath "$bin")" PYTHONDONTWRITEBYTECODE=1 \
    .venv/bin/python -m pytest tests/e2e -q -p no:cacheprovider "$@"
