#!/usr/bin/env bash
# Runs every test of the workspace: formatting, lints, docs, unit, integration, UI and doc
# tests, packaging, the end-to-end tests against real MCP clients, among them the
# README's Getting started built as a fresh crate, and the official MCP conformance suite.
# scripts/setup.sh first installs what is missing (cargo-nextest, the Python .venv) and
# says so; scripts/conformance.sh installs Node 22 and the suite under target/.
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
# A target directory of its own, emptied first: cargo never rebuilds a registry crate of the
# same version, so a build of an earlier run's packages would be reused, and a crate verified
# against the runtime as it was then. (A clean clone builds everything once, as here.)
package_dir="${CARGO_TARGET_DIR:-target}/package-check"
rm -rf "$package_dir"
# cargo also unpacks the packages it verifies against under $CARGO_HOME/registry/src/-HASH/
# (a local registry of this workspace's packages) and never unpacks a version it finds
# there again: removed too, or a crate is verified against an earlier run's runtime.
for crate in $(cargo metadata --no-deps --locked --format-version 1 | python3 -c \
    'import json, sys; print(*(p["name"] + "-" + p["version"] for p in json.load(sys.stdin)["packages"]))'); do
    rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/"$crate"
done
cargo package --workspace --locked --allow-dirty --target-dir "$package_dir"
rm -rf "$package_dir"

step "end-to-end: the example server and the README's Getting started, driven by the Python MCP client"
scripts/e2e.sh

step "conformance: the official MCP conformance suite (0.1.16 and 0.2.0-alpha.12), every scenario, against tests/conformance"
scripts/conformance.sh
