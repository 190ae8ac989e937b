#!/usr/bin/env bash
# Installs the MCP Inspector (npm @modelcontextprotocol/inspector, at the version that
# cargo-mcp-tool/inspector-version pins for `cargo mcp-tool dev` as well), whose CLI
# tests/e2e/test_inspector.py runs against the example server, with npm into
# target/inspector/ (under $CARGO_TARGET_DIR when set), and reuses that install on later
# runs. The Inspector needs Node 22.19 or later: where the machine's node is older, npm
# installs Node 22 there as well (the npm package `node`).
# Prints two lines for scripts/e2e.sh, `node=PATH` and `inspector=PATH` (the CLI's script),
# and exits 1 with the reason on stderr when it cannot install them; the test then skips (under CI it fails: scripts/e2e.sh),
# giving that reason.
set -euo pipefail
cd "$(dirname "$0")/.."

INSPECTOR_VERSION=$(tr -d '[:space:]' <cargo-mcp-tool/inspector-version)
NODE_MAJOR=22
NODE_MINIMUM=22.19.0

say() { printf 'setup-inspector: %s\n' "$*" >&2; }
fail() { printf 'setup-inspector: %s\n' "$*" >&2; exit 1; }

# Fails on purpose, as a machine without the Inspector would: how the test command's handling of a
# missing tool is itself tested.
[[ -z "${INSPECTOR_FORCE_FAIL:-}" ]] || fail "INSPECTOR_FORCE_FAIL is set: failing as a machine where the Inspector cannot be installed would"

tools="${CARGO_TARGET_DIR:-target}/inspector"
inspector="$tools/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js"
local_node="$tools/node_modules/node/bin/node"

# Whether `$1 --version` is at least NODE_MINIMUM.
recent_enough() {
    local version
    version="$("$1" --version 2>/dev/null)" || return 1
    printf '%s\n%s\n' "$NODE_MINIMUM" "${version#v}" | sort -C -V
}

node=""
if command -v node >/dev/null && recent_enough node; then
    node="$(command -v node)"
fi

# What npm installs: the Inspector, and Node itself unless the machine's is recent enough.
package_json() {
    printf '{\n  "private": true,\n  "dependencies": {\n'
    [[ -n "$node" ]] || printf '    "node": "^%s",\n' "$NODE_MAJOR"
    printf '    "@modelcontextprotocol/inspector": "%s"\n  }\n}\n' "$INSPECTOR_VERSION"
}

installed() {
    [[ -f "$tools/package.json" && "$(cat "$tools/package.json")" == "$(package_json)" ]] || return 1
    [[ -f "$inspector" ]] || return 1
    [[ -n "$node" ]] || [[ -x "$local_node" ]]
}

if installed; then
    say "reusing the Inspector $INSPECTOR_VERSION installed in $tools"
else
    command -v npm >/dev/null || fail "npm is missing, so the MCP Inspector cannot be installed: install Node.js"
    what="the MCP Inspector $INSPECTOR_VERSION"
    [[ -n "$node" ]] || what="$what and Node $NODE_MAJOR (this machine's node is older than $NODE_MINIMUM)"
    say "installing $what with npm into $tools (once)"
    mkdir -p "$tools"
    package_json >"$tools/package.json"
    (cd "$tools" && npm install --no-audit --no-fund --loglevel=error >&2) \
        || fail "\`npm install\` of $what failed"
    installed || fail "npm ran, but $inspector or Node is still missing"
fi
[[ -n "$node" ]] || node="$local_node"
recent_enough "$node" || fail "$node is $("$node" --version), older than the $NODE_MINIMUM the Inspector needs"
say "Node $("$node" --version), Inspector $("$node" "$inspector" --version 2>/dev/null || echo "$INSPECTOR_VERSION")"
printf 'node=%s\ninspector=%s\n' "$(realpath "$node")" "$(realpath "$inspector")"
