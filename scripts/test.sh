#!/usr/bin/env bash
# Runs every test of the workspace: formatting, lints, docs, unit, integration, UI and doc
# tests, packaging, and the end-to-end tests against real MCP clients, among them the
# README's Getting started built as a fresh crate. scripts/setup.sh first installs what
# is missing (cargo-nextest, the Python .venv) and says so.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

step "prerequisites"
scripts/setup.sh

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "cargo doc, every public item documented"
RUSTDOCFLAGS="-D warnings -D missing_docs" cargo doc --workspace --no-deps --locked --quiet

step "tests"
cargo nextest run --workspace --locked --no-fail-fast

step "doc tests"
cargo test --workspace --doc --locked

step "public API: no rmcp type outside the escape hatch"
scripts/public_api.py

step "doc tests of the rmcp escape hatch (feature rmcp)"
cargo test -p mcp-tool --doc --features rmcp --locked

step "cargo package: every crate builds from its package"
# --allow-dirty: a run before a commit packages the working tree as it is.
cargo package --workspace --locked --allow-dirty

step "end-to-end: the example server and the README's Getting started, driven by the Python MCP client"
scripts/e2e.sh
