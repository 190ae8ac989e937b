#!/usr/bin/env bash
# Semantic versioning, checked: cargo-semver-checks compares the public API of the
# published crates of the workspace (the others say `publish = false`) with the same crates
# at the last release, the commit that release/baseline-rev records, and fails on a change
# that the version does not allow. It reads mcp-tool and mcp-tool-uri-template; it passes
# over mcp-tool-macros, a proc-macro crate, whose attributes' syntax the UI tests and
# mcp-tool's doctests hold instead. A version that may break lets every change pass, so
# then the changelog must say what breaks.
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

# A version that may break (a new major, or a new minor before 1.0) lets cargo-semver-checks
# pass anything: then the changelog's Unreleased section must say what breaks, under
# "### Removed" or in an entry marked "**Breaking:**".
workspace_version() { sed -n 's/^version = "\(.*\)"$/\1/p' | head -n 1; }
released=$(git show "$baseline:Cargo.toml" | workspace_version)
current=$(workspace_version <Cargo.toml)
breaking_part() {
    local major minor
    IFS=. read -r major minor _ <<<"$1"
    if [[ $major == 0 ]]; then echo "0.$minor"; else echo "$major"; fi
}
if [[ $(breaking_part "$released") != $(breaking_part "$current") ]]; then
    unreleased=$(awk '/^## \[Unreleased\]/ { on = 1; next } /^## / { on = 0 } on' CHANGELOG.md)
    if ! grep -q -e '^### Removed' -e '\*\*Breaking:\*\*' <<<"$unreleased"; then
        say "$released -> $current may break the API, but CHANGELOG.md's Unreleased section says nothing breaks (no \"### Removed\", no \"**Breaking:**\" entry)" >&2
        exit 1
    fi
    say "$released -> $current may break the API, and CHANGELOG.md's Unreleased section says what breaks"
fi
# Its builds of both versions (1 GB under target/semver-checks) spare a later run on this
# machine their minutes; under CI there is no later run, and the disk is needed by the steps
# after this one.
if [[ -n "${CI:-}" ]]; then
    trap 'rm -rf "${CARGO_TARGET_DIR:-target}/semver-checks"' EXIT
fi
cargo semver-checks check-release --workspace --baseline-rev "$baseline"
