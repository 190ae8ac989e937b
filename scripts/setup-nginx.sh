#!/usr/bin/env bash
# Checks for nginx, which the scale-out test (tests/e2e/test_scale_out.py) puts in front of
# two replicas of the example server, and installs Debian's package with apt-get when it is
# missing, saying so. The test runs nginx itself, in the foreground with a config and files
# of its own in a temporary directory: this script starts nothing and changes no config.
# (On a machine whose service manager starts packages' services, Debian's package also
# starts the system's nginx on port 80; the test does not use it.)
# Exits 1, with the reason on stderr, when nginx is missing and cannot be installed: the
# test then skips, giving that reason (under CI it fails: scripts/e2e.sh).
set -euo pipefail

say() { printf 'setup-nginx: %s\n' "$*"; }
fail() { printf 'setup-nginx: %s\n' "$*" >&2; exit 1; }

# Fails on purpose, as a machine without nginx would: how the test command's handling of a
# missing tool is itself tested.
[[ -z "${NGINX_FORCE_FAIL:-}" ]] || fail "NGINX_FORCE_FAIL is set: failing as a machine where nginx cannot be installed would"

find_nginx() {
    command -v nginx 2>/dev/null && return
    [[ -x /usr/sbin/nginx ]] && echo /usr/sbin/nginx
}

if nginx="$(find_nginx)"; then
    say "$("$nginx" -v 2>&1) at $nginx"
    exit 0
fi

command -v apt-get >/dev/null \
    || fail "nginx is missing, and there is no apt-get to install it with: install nginx from your system's packages"
sudo=()
if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null && sudo -n true 2>/dev/null \
        || fail "nginx is missing, and installing it needs root: run \`sudo apt-get install nginx\`"
    sudo=(sudo -n)
fi

say "nginx is missing: installing Debian's package with \`apt-get update\` and \`apt-get install nginx\` (once)"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq \
    || fail "\`apt-get update\` failed, so nginx could not be installed"
"${sudo[@]}" apt-get install -y -qq --no-install-recommends nginx >/dev/null \
    || fail "\`apt-get install nginx\` failed"
nginx="$(find_nginx)" || fail "\`apt-get install nginx\` ran, but there is still no nginx"
say "installed $("$nginx" -v 2>&1) at $nginx"
