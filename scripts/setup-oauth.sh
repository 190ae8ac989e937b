#!/usr/bin/env bash
# Installs oidc-provider (npm, a certified OpenID Connect and OAuth 2.1 authorization server,
# pinned below) with npm into target/oauth-issuer/ (under $CARGO_TARGET_DIR when set), and
# reuses that install on later runs. tests/e2e/test_oauth.py starts it on free ports of
# 127.0.0.1 through tests/e2e/issuer.mjs, as the issuer whose tokens the example server
# checks, and stops it: this script starts nothing.
# Prints two lines for scripts/e2e.sh, `node=PATH` and `issuer_modules=PATH` (the
# node_modules folder the issuer script imports from), and exits 1 with the reason on stderr
# when it cannot install them; the tests then skip (under CI they fail: scripts/e2e.sh),
# giving that reason.
set -euo pipefail
cd "$(dirname "$0")/.."

OIDC_PROVIDER_VERSION=9.13.3
NODE_MINIMUM=20.19.0

say() { printf 'setup-oauth: %s\n' "$*" >&2; }
fail() { printf 'setup-oauth: %s\n' "$*" >&2; exit 1; }

# Fails on purpose, as a machine without the issuer would: how the test command's handling
# of a missing tool is itself tested.
[[ -z "${OAUTH_FORCE_FAIL:-}" ]] || fail "OAUTH_FORCE_FAIL is set: failing as a machine where the OAuth issuer cannot be installed would"

tools="${CARGO_TARGET_DIR:-target}/oauth-issuer"
modules="$tools/node_modules"

command -v node >/dev/null || fail "node is missing, so the OAuth issuer cannot run: install Node.js $NODE_MINIMUM or later"
node="$(command -v node)"
version="$("$node" --version)"
printf '%s\n%s\n' "$NODE_MINIMUM" "${version#v}" | sort -C -V \
    || fail "node is $version, older than the $NODE_MINIMUM oidc-provider $OIDC_PROVIDER_VERSION needs"

package_json() {
    printf '{\n  "private": true,\n  "type": "module",\n  "dependencies": {\n    "oidc-provider": "%s"\n  }\n}\n' \
        "$OIDC_PROVIDER_VERSION"
}

installed() {
    [[ -f "$tools/package.json" && "$(cat "$tools/package.json")" == "$(package_json)" ]] || return 1
    [[ -f "$modules/oidc-provider/package.json" ]]
}

if installed; then
    say "reusing oidc-provider $OIDC_PROVIDER_VERSION installed in $tools"
else
    command -v npm >/dev/null || fail "npm is missing, so oidc-provider cannot be installed: install Node.js"
    say "installing oidc-provider $OIDC_PROVIDER_VERSION with npm into $tools (once)"
    mkdir -p "$tools"
    package_json >"$tools/package.json"
    (cd "$tools" && npm install --no-audit --no-fund --loglevel=error >&2) \
        || fail "\`npm install\` of oidc-provider $OIDC_PROVIDER_VERSION failed"
    installed || fail "npm ran, but $modules/oidc-provider is still missing"
fi
say "Node $version, oidc-provider $OIDC_PROVIDER_VERSION"
printf 'node=%s\nissuer_modules=%s\n' "$(realpath "$node")" "$(realpath "$modules")"
