#!/usr/bin/env bash
# Installs the official TypeScript MCP SDK (npm @modelcontextprotocol/sdk, at SDK_VERSION
# below: the newest of the 1.x line that clients ship), whose Client tests/e2e/ts_client.mjs
# drives against the example and the conformance server (tests/e2e/test_ts_client.py), with
# npm into target/tsclient/ (under $CARGO_TARGET_DIR when set), and reuses that install on
# later runs.
# Prints two lines for scripts/e2e.sh, `node=PATH` and `modules=PATH` (the node_modules
# directory the driver imports the SDK from), and exits 1 with the reason on stderr when it
# cannot install them; the tests then skip (under CI they fail: scripts/e2e.sh), giving that
# reason.
set -euo pipefail
cd "$(dirname "$0")/.."

SDK_VERSION=1.32.2
# The SDK's `engines`: Node 18 or later.
NODE_MINIMUM=18.0.0

say() { printf 'setup-tsclient: %s\n' "$*" >&2; }
fail() { printf 'setup-tsclient: %s\n' "$*" >&2; exit 1; }

# Fails on purpose, as a machine without npm would: how the test command's handling of a
# missing tool is itself tested.
[[ -z "${TSCLIENT_FORCE_FAIL:-}" ]] || fail "TSCLIENT_FORCE_FAIL is set: failing as a machine where the TypeScript SDK cannot be installed would"

tools="${CARGO_TARGET_DIR:-target}/tsclient"
modules="$tools/node_modules"
sdk="$modules/@modelcontextprotocol/sdk/package.json"

command -v node >/dev/null || fail "node is missing, so the TypeScript SDK's client cannot run: install Node.js $NODE_MINIMUM or later"
node_version="$(node --version)"
printf '%s\n%s\n' "$NODE_MINIMUM" "${node_version#v}" | sort -C -V \
    || fail "node is $node_version, older than the $NODE_MINIMUM the TypeScript SDK needs"

package_json() {
    printf '{\n  "private": true,\n  "type": "module",\n  "dependencies": {\n'
    printf '    "@modelcontextprotocol/sdk": "%s"\n  }\n}\n' "$SDK_VERSION"
}

installed() {
    [[ -f "$tools/package.json" && "$(cat "$tools/package.json")" == "$(package_json)" ]] || return 1
    [[ -f "$sdk" ]] || return 1
    [[ "$(node -p 'require(process.argv[1]).version' "$(realpath "$sdk")")" == "$SDK_VERSION" ]]
}

if installed; then
    say "reusing the TypeScript SDK $SDK_VERSION installed in $tools"
else
    command -v npm >/dev/null || fail "npm is missing, so the TypeScript SDK cannot be installed: install Node.js"
    say "installing the TypeScript SDK $SDK_VERSION with npm into $tools (once)"
    mkdir -p "$tools"
    package_json >"$tools/package.json"
    (cd "$tools" && npm install --no-audit --no-fund --loglevel=error >&2) \
        || fail "\`npm install\` of @modelcontextprotocol/sdk $SDK_VERSION failed"
    installed || fail "npm ran, but $sdk is still missing or not version $SDK_VERSION"
fi
say "Node $node_version, @modelcontextprotocol/sdk $SDK_VERSION"
printf 'node=%s\nmodules=%s\n' "$(realpath "$(command -v node)")" "$(realpath "$modules")"
