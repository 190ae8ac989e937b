#!/usr/bin/env bash
# Checks for redis-server, which the tests of tasks shared by replicas start on a free port
# of 127.0.0.1 (runtime/tests/tasks_redis.rs, tests/e2e/test_scale_out.py), and installs
# Debian's package with apt-get when it is missing, saying so. The tests run redis-server
# themselves, without persistence, and stop it: this script starts nothing and changes no
# config. (On a machine whose service manager starts packages' services, Debian's package
# also starts the system's redis-server on port 6379; the tests do not use it.)
# Prints the path of redis-server on its last line. Exits 1, with the reason on stderr,
# when redis-server is missing and cannot be installed.
set -euo pipefail

say() { printf 'setup-redis: %s\n' "$*" >&2; }
fail() { printf 'setup-redis: %s\n' "$*" >&2; exit 1; }

# Fails on purpose, as a machine without redis-server would: how the test command's
# handling of a missing tool is itself tested.
[[ -z "${REDIS_FORCE_FAIL:-}" ]] || fail "REDIS_FORCE_FAIL is set: failing as a machine where redis-server cannot be installed would"

find_redis() {
    command -v redis-server 2>/dev/null && return
    [[ -x /usr/bin/redis-server ]] && echo /usr/bin/redis-server
}

if redis="$(find_redis)"; then
    say "$("$redis" --version) at $redis"
    echo "$redis"
    exit 0
fi

command -v apt-get >/dev/null \
    || fail "redis-server is missing, and there is no apt-get to install it with: install redis-server from your system's packages"
sudo=()
if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null && sudo -n true 2>/dev/null \
        || fail "redis-server is missing, and installing it needs root: run \`sudo apt-get install redis-server\`"
    sudo=(sudo -n)
fi

say "redis-server is missing: installing Debian's package with \`apt-get update\` and \`apt-get install redis-server\` (once)"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq \
    || fail "\`apt-get update\` failed, so redis-server could not be installed"
"${sudo[@]}" apt-get install -y -qq --no-install-recommends redis-server >/dev/null \
    || fail "\`apt-get install redis-server\` failed"
redis="$(find_redis)" || fail "\`apt-get install redis-server\` ran, but there is still no redis-server"
say "installed $("$redis" --version) at $redis"
echo "$redis"
