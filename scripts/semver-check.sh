#!/usr/bin/env bash
# Semantic versioning, checked: cargo-semver-checks compares the public API of the
# published crates of the workspace (the others say `publish = false`) with the same crates
# at the last release, the commit that release/baseline-rev records, and fails on a change
# that the version does not allow. It reads mcp-tool and mcp-tool-uri-template; it passes
# over mcp-tool-macros, a proc-macro crate, whose attributes' syntax the UI tests and
# mcp-tool's doctests hold instead.
# Installs cargo-semver-checks with `cargo install --locked cargo-semver-checks` (several
# minutes, once) when `cargo semver-checks` is missing, saying so. Under CI (`CI` set) a
# failed install fails; elsewhere the check is skipped, saying why.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'semver-check: %s\n' "$*"; }
ci() { [[ ! "${CI:-}" =~ ^(|0|false|FALSE|False|no)$ ]]; }

if ! cargo semver-checks --version >/dev/null 2>&1; then
    say "cargo-semver-checks is missing: installing it with \`cargo install --locked cargo-semver-checks\` (several minutes, once)"
    if ! cargo install --locked cargo-semver-checks; then
        if ci; then
            say "cargo install --locked cargo-semver-checks failed (above), and under CI the check may not skip" >&2
            exit 1
        fi
        echo "skipped: cargo-semver-checks could not be installed (see above), so the API was not compared"
        exit 0
    fi
fi
say "$(cargo semver-checks --version)"

baseline=$(grep -v '^#' release/baseline-rev | tr -d '[:space:]')
say "comparing with the last release, $baseline (release/baseline-rev)"
cargo semver-checks check-release --workspace --baseline-rev "$baseline"
