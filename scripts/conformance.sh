#!/usr/bin/env bash
# The official MCP conformance suite (npm @modelcontextprotocol/conformance) against
# tests/conformance, a server built with mcp-tool that has every tool the suite's scenarios
# call. Two pinned versions run `--suite all`: 0.1.16 (protocol 2025-11-25) and
# 0.2.0-alpha.12 (adds 2026-07-28). Each run's failures must be exactly the scenarios its
# tests/conformance/expected-failures-<version>.yml lists: a new failure, or a listed
# scenario that now passes, fails this script.
#
# Node 22 (the suite crashes on Node 20) and the suites are installed with npm under
# target/conformance/ (under $CARGO_TARGET_DIR when set) and reused on later runs.
# Extra arguments go to both runs, e.g. `scripts/conformance.sh --verbose`.
set -euo pipefail
cd "$(dirname "$0")/.."

SUITE_VERSIONS=(0.1.16 0.2.0-alpha.12)
NODE_VERSION=22

say() { printf 'conformance: %s\n' "$*"; }

target_dir="${CARGO_TARGET_DIR:-target}"
tools="$target_dir/conformance"
node="$tools/node_modules/node/bin/node"
suite_js() { printf '%s/node_modules/conformance-%s/dist/index.js' "$tools" "$1"; }

# What npm installs: Node itself and each suite version under its own alias.
package_json() {
    printf '{\n  "private": true,\n  "dependencies": {\n'
    printf '    "node": "^%s"' "$NODE_VERSION"
    for version in "${SUITE_VERSIONS[@]}"; do
        printf ',\n    "conformance-%s": "npm:@modelcontextprotocol/conformance@%s"' "$version" "$version"
    done
    printf '\n  }\n}\n'
}

installed() {
    [[ -x "$node" && -f "$tools/package.json" ]] || return 1
    [[ "$(cat "$tools/package.json")" == "$(package_json)" ]] || return 1
    for version in "${SUITE_VERSIONS[@]}"; do
        [[ -f "$(suite_js "$version")" ]] || return 1
    done
}

if installed; then
    say "reusing Node and the suites installed in $tools"
else
    say "installing Node $NODE_VERSION and the suite versions ${SUITE_VERSIONS[*]} into $tools"
    mkdir -p "$tools"
    package_json > "$tools/package.json"
    (cd "$tools" && npm install --no-audit --no-fund --loglevel=error)
fi
node_version="$("$node" --version)"
if [[ "$node_version" != "v$NODE_VERSION".* ]]; then
    echo "conformance: $node is $node_version, not Node $NODE_VERSION" >&2
    exit 1
fi
say "Node $node_version"

say "building the conformance server"
cargo build -p mcp-tool-conformance --locked --quiet
server_bin="$target_dir/debug/conformance-server"

# Port 0: the server takes a free port and prints the URL it serves on stderr.
results="$tools/results"
rm -rf "$results"
mkdir -p "$results"
server_log="$results/server.log"
"$server_bin" --host 127.0.0.1 --port 0 > /dev/null 2> "$server_log" &
server_pid=$!
stop_server() {
    if kill -0 "$server_pid" 2> /dev/null; then
        kill "$server_pid" 2> /dev/null || true
        wait "$server_pid" 2> /dev/null || true
    fi
}
trap stop_server EXIT

say "starting the server (pid $server_pid) and waiting until it answers"
url=""
for _ in $(seq 1 100); do
    if ! kill -0 "$server_pid" 2> /dev/null; then
        echo "conformance: the server exited before serving; its log:" >&2
        cat "$server_log" >&2
        exit 1
    fi
    url="$(grep -o -m1 'http://[^ ]*/mcp' "$server_log" || true)"
    # Any HTTP answer to a ping will do: the server is up.
    if [[ -n "$url" ]] && "$node" -e '
        fetch(process.argv[1], {
            method: "POST",
            headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
            body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
        }).then(() => process.exit(0), () => process.exit(1));' "$url"; then
        break
    fi
    url=""
    sleep 0.1
done
if [[ -z "$url" ]]; then
    echo "conformance: the server did not answer within 10 s; its log:" >&2
    cat "$server_log" >&2
    exit 1
fi
say "the server answers at $url"

failed=()
for version in "${SUITE_VERSIONS[@]}"; do
    expected="tests/conformance/expected-failures-$version.yml"
    output="$results/$version.txt"
    say "suite $version: every scenario (--suite all), failures expected as $expected lists"
    status=0
    "$node" "$(suite_js "$version")" server --url "$url" --suite all \
        --expected-failures "$expected" -o "$results/$version" "$@" > "$output" 2>&1 || status=$?
    # The Total line, then which failures were expected, unexpected or gone.
    if grep -q '^Total:' "$output"; then
        sed -n '/^Total:/,$p' "$output" | sed 's/^/  /'
    else
        tail -n 20 "$output" | sed 's/^/  /'
    fi
    if ((status != 0)); then
        failed+=("$version")
        say "suite $version: the failures differ from $expected (exit $status); each check is in $output"
    fi
done

if ((${#failed[@]} > 0)); then
    say "FAILED: suite ${failed[*]}"
    exit 1
fi
say "every run failed exactly where its list expects"
