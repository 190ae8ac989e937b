#!/usr/bin/env bash
# Installs the MCP Bundle CLI (npm @anthropic-ai/mcpb, pinned below), whose `mcpb validate`
# checks the manifest.json that `cargo mcp-tool bundle` writes and whose `mcpb unpack`
# unpacks a bundle as Claude Desktop does, with npm into target/mcpb/ (under
# $CARGO_TARGET_DIR when set), and reuses that install on later runs.
# Prints one line, `mcpb=PATH` (the CLI's script), which cargo-mcp-tool/tests/bundle.rs
# and scripts/e2e.sh read; exits 1 with the reason on stderr when it cannot install it, and
# the tests then skip (under CI they fail).
set -euo pipefail
cd "$(dirname "$0")/.."

MCPB_VERSION=2.1.2

say() { printf 'setup-mcpb: %s\n' "$*" >&2; }
fail() { printf 'setup-mcpb: %s\n' "$*" >&2; exit 1; }

[[ -z "${MCPB_FORCE_FAIL:-}" ]] || fail "MCPB_FORCE_FAIL is set: failing as a machine where the MCPB CLI cannot be installed would"

tools="${CARGO_TARGET_DIR:-target}/mcpb"
cli="$tools/node_modules/@anthropic-ai/mcpb/dist/cli/cli.js"
# One install at a time: the tests that need it run in parallel.
mkdir -p "$tools"
exec 9>"$tools.lock"
flock 9

package_json() {
    printf '{\n  "private": true,\n  "dependencies": {\n    "@anthropic-ai/mcpb": "%s"\n  }\n}\n' "$MCPB_VERSION"
}

if [[ -f "$tools/package.json" && "$(cat "$tools/package.json")" == "$(package_json)" && -f "$cli" ]]; then
    say "reusing mcpb $MCPB_VERSION installed in $tools"
else
    command -v npm >/dev/null || fail "npm is missing, so the MCPB CLI cannot be installed: install Node.js"
    say "installing mcpb $MCPB_VERSION with npm into $tools (once)"
    package_json >"$tools/package.json"
    (cd "$tools" && npm install --no-audit --no-fund --loglevel=error >&2) \
        || fail "\`npm install\` of @anthropic-ai/mcpb $MCPB_VERSION failed"
    [[ -f "$cli" ]] || fail "npm ran, but $cli is still missing"
fi
command -v node >/dev/null || fail "node is missing, which runs the MCPB CLI"
printf 'mcpb=%s\n' "$(realpath "$cli")"
