#!/usr/bin/env bash
# Installs the command-line programs of two MCP clients that can list their configured
# servers, Gemini CLI (npm @google/gemini-cli, `gemini mcp list`) and Claude Code (npm
# @anthropic-ai/claude-code, `claude mcp list`), pinned below, with npm into target/clients/
# (under $CARGO_TARGET_DIR when set), and reuses that install on later runs. Claude Code
# needs Node 22 or later: where the machine's node is older, npm installs Node 22 there as
# well (the npm package `node`), into the same bin folder.
# Prints the bin folder, which cargo-mcp-tool/tests/clients.rs puts first on PATH (it runs
# this script itself unless MCP_CLIENTS_BIN names the folder); exits 1 with the reason on
# stderr when it cannot install them.
set -euo pipefail
cd "$(dirname "$0")/.."

GEMINI_CLI_VERSION=0.61.0
CLAUDE_CODE_VERSION=2.1.332
NODE_MAJOR=22
NODE_MINIMUM=22.0.0

say() { printf 'setup-clients: %s\n' "$*" >&2; }
fail() { printf 'setup-clients: %s\n' "$*" >&2; exit 1; }

tools="${CARGO_TARGET_DIR:-target}/clients"
bin="$tools/node_modules/.bin"
# One install at a time: the tests that need the clients run in parallel.
mkdir -p "$tools"
exec 9>"$tools.lock"
flock 9

# Whether `$1 --version` is at least NODE_MINIMUM.
recent_enough() {
    local version
    version="$("$1" --version 2>/dev/null)" || return 1
    printf '%s\n%s\n' "$NODE_MINIMUM" "${version#v}" | sort -C -V
}

machine_node=""
if command -v node >/dev/null && recent_enough node; then
    machine_node="$(command -v node)"
fi

# What npm installs: both clients, and Node itself unless the machine's is recent enough.
package_json() {
    printf '{\n  "private": true,\n  "dependencies": {\n'
    [[ -n "$machine_node" ]] || printf '    "node": "^%s",\n' "$NODE_MAJOR"
    printf '    "@google/gemini-cli": "%s",\n' "$GEMINI_CLI_VERSION"
    printf '    "@anthropic-ai/claude-code": "%s"\n  }\n}\n' "$CLAUDE_CODE_VERSION"
}

installed() {
    [[ -f "$tools/package.json" && "$(cat "$tools/package.json")" == "$(package_json)" ]] || return 1
    [[ -x "$bin/gemini" && -x "$bin/claude" ]] || return 1
    [[ -n "$machine_node" ]] || [[ -x "$bin/node" ]]
}

if installed; then
    say "reusing Gemini CLI $GEMINI_CLI_VERSION and Claude Code $CLAUDE_CODE_VERSION installed in $tools"
else
    command -v npm >/dev/null || fail "npm is missing, so the clients cannot be installed: install Node.js"
    what="Gemini CLI $GEMINI_CLI_VERSION and Claude Code $CLAUDE_CODE_VERSION"
    [[ -n "$machine_node" ]] || what="$what and Node $NODE_MAJOR (this machine's node is older than $NODE_MINIMUM)"
    say "installing $what with npm into $tools (once)"
    mkdir -p "$tools"
    package_json >"$tools/package.json"
    (cd "$tools" && npm install --no-audit --no-fund --loglevel=error >&2) \
        || fail "\`npm install\` of $what failed"
    installed || fail "npm ran, but gemini, claude or node is still missing from $bin"
fi
node="${machine_node:-$bin/node}"
recent_enough "$node" || fail "$node is $("$node" --version), older than the $NODE_MINIMUM Claude Code needs"
say "Node $("$node" --version), gemini $(PATH="$bin:$PATH" gemini --version 2>/dev/null), claude $(PATH="$bin:$PATH" claude --version 2>/dev/null)"
realpath "$bin"
