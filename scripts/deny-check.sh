#!/usr/bin/env bash
# The dependency policy of deny.toml, checked with cargo-deny: every crate of the tree under
# a licence it allows, no crate in two versions but the duplicates it names with their
# cause, and crates from crates.io only (`cargo deny --offline check licenses bans
# sources`). Advisories are left to `cargo deny check advisories`, which fetches the
# RustSec database from the network. Installs cargo-deny with `cargo install --locked
# cargo-deny` (a few minutes, once) when `cargo deny` is missing, saying so. Under CI (`CI`
# set) a failed install fails; elsewhere the check is skipped, saying why.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'deny-check: %s\n' "$*"; }
ci() { [[ ! "${CI:-}" =~ ^(|0|false|FALSE|False|no)$ ]]; }

if ! cargo deny --version >/dev/null 2>&1; then
    say "cargo-deny is missing: installing it with \`cargo install --locked cargo-deny\` (a few minutes, once)"
    if ! cargo install --locked cargo-deny; then
        if ci; then
            say "cargo install --locked cargo-deny failed (above), and under CI the check may not skip" >&2
            exit 1
        fi
        echo "skipped: cargo-deny could not be installed (see above), so the dependencies were not checked"
        exit 0
    fi
fi
say "$(cargo deny --version)"

# The crates of Cargo.lock for every platform, not only this one's (a build fetches those
# alone), so that the check reads them all; then --offline --locked: nothing else is
# downloaded, and Cargo.lock is not changed.
cargo fetch --locked --quiet
cargo deny --offline --locked check licenses bans sources
