#!/usr/bin/env bash
# Runs every test of the workspace: formatting, lints, docs, unit, integration, UI and doc
# tests, packaging, the public API against the last release (semver), the dependency policy
# (licences, duplicates, sources), the runtime without
# its default features, tasks kept in Redis (with a redis-server of the tests' own), a
# bounded run of the fuzz targets on stable, the end-to-end tests against real MCP clients,
# among them the README's Getting started built as a fresh crate, and the official MCP
# conformance suite.
# scripts/setup.sh first installs what is missing (cargo-nextest, the Python .venv) and
# says so; scripts/e2e.sh and scripts/conformance.sh install their own tools under target/.
#
# Every step runs, even after one failed, and the run ends with a table of the steps: what
# each counted passed, failed and skipped, and its time. A step that ran nothing fails.
# Under CI (`CI` set, as CI services set it) nothing may skip: a tool that could not be
# installed fails its step, naming the setup step and its error. Elsewhere a skip is
# allowed, and the last line counts the skipped tests.
# Each step's output is also kept in target/test-report/ (under $CARGO_TARGET_DIR when set).
#
# `scripts/test.sh --fresh` runs all of it on a fresh clone of the committed HEAD instead,
# with an empty target folder, a HOME of its own and CI=true (scripts/test-fresh.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ "${1:-}" == --fresh ]]; then
    shift
    exec scripts/test-fresh.sh "$@"
fi

# Under CI every build is a first build, which incremental compilation only slows and
# makes larger: its caches took 5 GB of a clean clone's 20 GB target/.
if [[ -n "${CI:-}" ]]; then
    export CARGO_INCREMENTAL=0
fi

report="${CARGO_TARGET_DIR:-target}/test-report"
rm -rf "$report"
mkdir -p "$report"
export E2E_JUNIT="$PWD/$report/e2e-junit.xml"
steps="$report/steps.tsv"
: >"$steps"

# step KIND NAME COMMAND...: runs one step, showing its output and keeping it in a log, and
# records its exit status and time. KIND tells scripts/test-summary.py how to count it.
step() {
    local kind=$1 name=$2 log status began=$SECONDS
    shift 2
    log="$report/$(($(wc -l <"$steps") + 1)).log"
    printf '\n==> %s\n' "$name"
    set +e
    "$@" 2>&1 | tee "$log"
    status=${PIPESTATUS[0]}
    set -e
    printf '%s\t%s\t%s\t%s\t%s\n' "$kind" "$name" "$status" $((SECONDS - began)) "$log" >>"$steps"
    return 0
}

step check "prerequisites" scripts/setup.sh
if [[ "$(cut -f 3 "$steps")" != 0 ]]; then
    scripts/test-summary.py "$steps"
    exit 1
fi

step check "cargo fmt --check" cargo fmt --all -- --check

# The feature `auth` is not a default: every step that builds the runtime's tests or
# doctests names it, so that the verifiers, their tests and their doctests are built and
# run (a `-p mcp-tool` step does not get it from another crate of the workspace).
auth=(--features mcp-tool/auth)

step check "cargo clippy" cargo clippy --workspace --all-targets "${auth[@]}" --locked -- -D warnings

step check "cargo doc, every public item documented" \
    env RUSTDOCFLAGS="-D warnings -D missing_docs" cargo doc --workspace --no-deps "${auth[@]}" --locked --quiet

# The bounded fuzz run is a step of its own, below.
step nextest "tests" cargo nextest run --workspace --exclude mcp-tool-fuzz-stable "${auth[@]}" --locked --no-fail-fast

step nextest "tasks shared through Redis (feature redis): two replicas and a real redis-server" \
    scripts/redis-tests.sh

step nextest "fuzz (stable, bounded): each fuzz target's check over its seeds and 10,000 mutated inputs" \
    cargo nextest run -p mcp-tool-fuzz-stable --locked --no-fail-fast

step doctest "doc tests" cargo test --workspace --doc "${auth[@]}" --locked

step check "public API: no rmcp type outside the escape hatch" scripts/public_api.py

# The doc tests of the rmcp escape hatch and of the OpenTelemetry set-up exist only with
# their features: one run builds both.
step doctest "doc tests of the rmcp escape hatch and the OpenTelemetry set-up (features rmcp, opentelemetry)" \
    cargo test -p mcp-tool --doc --features rmcp,opentelemetry,auth --locked

step check "cargo package: every crate builds from its package" scripts/package-check.sh

step check "semver: the published crates' API against the last release (cargo-semver-checks)" \
    scripts/semver-check.sh

step check "dependencies: licences, duplicates and sources as deny.toml allows (cargo-deny)" \
    scripts/deny-check.sh

step check "no default features: the runtime without http and logging, without tracing-subscriber" \
    scripts/no-default-features.sh

step pytest "end-to-end: the example server and the README's Getting started, driven by real MCP clients" \
    scripts/e2e.sh

step conformance "conformance: the official MCP conformance suite (0.1.16 and 0.2.0-alpha.12), every scenario" \
    scripts/conformance.sh

scripts/test-summary.py "$steps"
