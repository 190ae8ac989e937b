#!/usr/bin/env bash
# End-to-end tests: the file_search example served to the official Python MCP client over stdio
# and over HTTP (with sessions and stateless), linted by the MCP Inspector's CLI over both
# (installed with npm under target/ by scripts/setup-inspector.sh), two stateless replicas of
# it behind nginx (installed with apt-get by scripts/setup-nginx.sh when missing), sharing
# their tasks through a redis-server the tests start (installed with apt-get by
# scripts/setup-redis.sh when missing; the example is built with the feature `redis`), and the
# example as an OAuth 2.1 resource server against oidc-provider, a real authorization server
# (installed with npm under target/ by scripts/setup-oauth.sh), the README's Getting started
# built as a fresh crate (offline, mcp-tool by path) and served, a crate of
# `cargo mcp-tool new` bundled, its bundle checked by `mcpb validate` (npm @anthropic-ai/mcpb,
# installed under target/ by scripts/setup-mcpb.sh), unpacked and served, and its
# `publish --dry-run` server.json held to the registry's rules, and
# mcp-fuzzer in tools and protocol modes over stdio and HTTP (installed with pip in a venv of
# its own under target/ by scripts/setup-fuzzer.sh), and the gateway example fronting
# @modelcontextprotocol/server-everything (installed with npm under target/ by
# scripts/setup-everything.sh), and the official TypeScript SDK's client (1.x, installed with
# npm under target/ by scripts/setup-tsclient.sh) listing and calling every tool of the
# example and of the conformance server.
# Extra arguments go to pytest, e.g. `scripts/e2e.sh -k unknown_tool`.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup-python.sh

# Under CI (`CI` set, as CI services set it) a tool that cannot be installed fails the run,
# naming its setup step and its error; elsewhere its tests skip, saying why, and the last
# line counts them. The setup scripts fail on purpose when asked (INSPECTOR_FORCE_FAIL=1,
# FUZZER_FORCE_FAIL=1, NGINX_FORCE_FAIL=1, REDIS_FORCE_FAIL=1, OAUTH_FORCE_FAIL=1, MCPB_FORCE_FAIL=1,
# EVERYTHING_FORCE_FAIL=1, TSCLIENT_FORCE_FAIL=1), which is how this handling is
# tested.
ci() { [[ ! "${CI:-}" =~ ^(|0|false|FALSE|False|no)$ ]]; }
unavailable=()

# setup SCRIPT VARIABLE: runs a setup script, leaving what it prints in $setup_output. When
# it fails, VARIABLE gets the last line of its error, which the tests needing it skip with.
setup() {
    local script=$1 variable=$2 log status=0 reason
    log="$(mktemp)"
    setup_output="$("$script" 2>"$log")" || status=$?
    cat "$log" >&2
    if ((status != 0)); then
        reason="$(tail -n 1 "$log")"
        reason="${reason:-$script failed with exit status $status}"
        export "$variable=$reason"
        unavailable+=("$script: $reason")
    fi
    rm -f "$log"
    return "$status"
}

# nginx, for the scale-out test.
if setup scripts/setup-nginx.sh NGINX_UNAVAILABLE; then
    echo "$setup_output"
fi

# redis-server's path, for the tests of tasks shared by replicas (its last line).
if setup scripts/setup-redis.sh REDIS_UNAVAILABLE; then
    REDIS_SERVER="$(tail -n 1 <<<"$setup_output")"
    export REDIS_SERVER
fi

# The Inspector's paths, for its test.
if setup scripts/setup-inspector.sh INSPECTOR_UNAVAILABLE; then
    INSPECTOR_NODE="$(sed -n 's/^node=//p' <<<"$setup_output")"
    INSPECTOR_JS="$(sed -n 's/^inspector=//p' <<<"$setup_output")"
    export INSPECTOR_NODE INSPECTOR_JS
fi

# The MCPB CLI's script, for the bundle test (tests/e2e/test_bundle.py).
if setup scripts/setup-mcpb.sh MCPB_UNAVAILABLE; then
    MCPB_CLI="$(sed -n 's/^mcpb=//p' <<<"$setup_output")"
    export MCPB_CLI
fi

# server-everything's paths, for the gateway's test.
if setup scripts/setup-everything.sh EVERYTHING_UNAVAILABLE; then
    EVERYTHING_NODE="$(sed -n 's/^node=//p' <<<"$setup_output")"
    EVERYTHING_JS="$(sed -n 's/^everything=//p' <<<"$setup_output")"
    export EVERYTHING_NODE EVERYTHING_JS
fi

# The TypeScript SDK's paths, for tests/e2e/test_ts_client.py's driver.
if setup scripts/setup-tsclient.sh TSCLIENT_UNAVAILABLE; then
    TSCLIENT_NODE="$(sed -n 's/^node=//p' <<<"$setup_output")"
    TSCLIENT_MODULES="$(sed -n 's/^modules=//p' <<<"$setup_output")"
    export TSCLIENT_NODE TSCLIENT_MODULES
fi

# oidc-provider's paths, for the authorization tests' issuer.
if setup scripts/setup-oauth.sh OAUTH_UNAVAILABLE; then
    OAUTH_NODE="$(sed -n 's/^node=//p' <<<"$setup_output")"
    OAUTH_MODULES="$(sed -n 's/^issuer_modules=//p' <<<"$setup_output")"
    export OAUTH_NODE OAUTH_MODULES
fi

# mcp-fuzzer's path, for its test.
if setup scripts/setup-fuzzer.sh FUZZER_UNAVAILABLE; then
    FUZZER_BIN="$(sed -n 's/^fuzzer=//p' <<<"$setup_output")"
    export FUZZER_BIN
fi

cargo build -p mcp-tool-file-search --features redis,opentelemetry --locked
# The OpenTelemetry test's fixture server, driven by tests/e2e/test_opentelemetry.py.
cargo build -p mcp-tool-telemetry-fixture --locked
# The conformance suite's server, which tests/e2e/test_ts_client.py lists and calls.
cargo build -p mcp-tool-conformance --locked
# The runtime's examples, each driven by tests/e2e/test_examples.py.
cargo build -p mcp-tool --examples --features redis --locked
export EXAMPLES_DIR="$(realpath "${CARGO_TARGET_DIR:-target}")/debug/examples"
target_dir="${CARGO_TARGET_DIR:-target}"
bin="$target_dir/debug/file_search"
if [[ ! -x "$bin" ]]; then
    echo "e2e: the file_search server was built but $bin is missing" >&2
    exit 1
fi

# pytest's JUnit report, which scripts/test.sh counts from and this script counts skips in.
junit="${E2E_JUNIT:-$target_dir/e2e/junit.xml}"
mkdir -p "$(dirname "$junit")"
rm -f "$junit"
status=0
TELEMETRY_BIN="$(realpath "$target_dir/debug/telemetry_fixture")" \
CONFORMANCE_BIN="$(realpath "$target_dir/debug/conformance-server")" \
FILE_SEARCH_BIN="$(realpath "$bin")" PYTHONDONTWRITEBYTECODE=1 \
    .venv/bin/python -m pytest tests/e2e -q -rs -p no:cacheprovider --junitxml="$junit" "$@" || status=$?

if ((${#unavailable[@]} > 0)) && ci; then
    echo "e2e: FAILED: under CI=$CI every test must run, and these setup steps failed:" >&2
    printf 'e2e:   %s\n' "${unavailable[@]}" >&2
    exit 1
fi
skipped="$(python3 -c 'import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
print(sum(int(s.get("skipped", 0)) for s in root.iter("testsuite")))' "$junit" 2>/dev/null || echo 0)"
for failure in "${unavailable[@]}"; do
    echo "e2e: setup failed: $failure"
done
if ((skipped > 0)); then
    echo "e2e: ${skipped} TESTS SKIPPED, NOT RUN (allowed because CI is not set; pytest's summary above says why)"
fi
exit "$status"
