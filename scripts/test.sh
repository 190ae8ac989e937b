#!/usr/bin/env bash
# Runs every test of the workspace: formatting, lints, unit, integration, UI and doc tests,
# and the end-to-end tests against real MCP clients.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "cargo doc"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked --quiet

step "tests"
cargo nextest run --workspace --locked --no-fail-fast

step "doc tests"
cargo test --workspace --doc --locked

step "public API: no rmcp type outside the escape hatch"
scripts/public_api.py

step "doc tests of the rmcp escape hatch (feature rmcp)"
cargo test -p mcp-tool --doc --features rmcp --locked

step "end-to-end: the example server driven by the Python MCP client"
scripts/e2e.sh
