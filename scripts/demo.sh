#!/usr/bin/env bash
# The example server at work: builds tests/file-search (the file_search server), then the official
# Python MCP client (installed into .venv by scripts/setup-python.sh, never into your Python)
# starts it over stdio on this repository, lists its tools, searches for the largest Rust
# files, describes README.md, and shows the argument errors of a bad call.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup-python.sh
cargo build -p mcp-tool-file-search --locked --quiet
bin="${CARGO_TARGET_DIR:-target}/debug/file_search"
PYTHONDONTWRITEBYTECODE=1 .venv/bin/python scripts/demo.py "$(realpath "$bin")" "$PWD"
