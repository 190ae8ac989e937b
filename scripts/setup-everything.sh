#!/usr/bin/env bash
# Installs the reference MCP server `@modelcontextprotocol/server-everything` (npm, at
# EVERYTHING_VERSION below), which tests/e2e/test_gateway.py mounts through the gateway
# example, with npm into target/everything/ (under $CARGO_TARGET_DIR when set), and reuses
# that install on later runs.
# Prints two lines for scripts/e2e.sh, `node=PATH` and `everything=PATH` (the server's
# script), and exits 1 with the reason on stderr when it cannot install them; the test then
# skips (under CI it fails: scripts/e2e.sh), giving that reason.
set -euo pipefail
cd "$(dirname "$0")/.."

EVERYTHING_VERSION=2026.8.31

say() { printf 'setup-everything: %s\n' "$*" >&2; }
fail() { printf 'setup-everything: %s\n' "$*" >&2; exit 1; }

# Fails on purpose, as a machine without npm would: how the test command's handling of a
# missing tool is itself tested.
[[ -z "${EVERYTHING_FORCE_FAIL:-}" ]] || fail "EVERYTHING_FORCE_FAIL is set: failing as a machine where server-everything cannot be installed would"

tools="${CARGO_TARGET_DIR:-target}/everything"
everything="$tools/node_modules/@modelcontextprotocol/server-everything/dist/index.js"

package_json() {
    printf '{\n  "private": true,\n  "dependencies": {\n'
    printf '    "@modelcontextprotocol/server-everything": "%s"\n  }\n}\n' "$EVERYTHING_VERSION"
}

installed() {
    [[ -f "$tools/package.json" && "$(cat "$tools/package.json")" == "$(package_json)" ]] || return 1
    [[ -f "$everything" ]]
}

command -v node >/dev/null || fail "node is missing, so server-everything cannot run: install Node.js"
if installed; then
    say "reusing server-everything $EVERYTHING_VERSION installed in $tools"
else
    command -v npm >/dev/null || fail "npm is missing, so server-everything cannot be installed: install Node.js"
    say "installing server-everything $EVERYTHING_VERSION with npm into $tools (once)"
    mkdir -p "$tools"
    package_json >"$tools/package.json"
    (cd "$tools" && npm install --no-audit --no-fund --loglevel=error >&2) \
        || fail "\`npm install\` of server-everything $EVERYTHING_VERSION failed"
    installed || fail "npm ran, but $everything is still missing"
fi
say "Node $(node --version), server-everything $EVERYTHING_VERSION"
printf 'node=%s\neverything=%s\n' "$(realpath "$(command -v node)")" "$(realpath "$everything")"
