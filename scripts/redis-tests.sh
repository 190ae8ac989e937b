#!/usr/bin/env bash
# The tests of tasks, rate limits and notifications shared through Redis (the runtime's
# feature `redis`): lints the runtime with the feature (and `auth`, for the tests under a
# JwtVerifier), then runs runtime/tests/tasks_redis.rs, rate_limit_redis.rs and
# notifications_redis.rs, whose tests start a
# redis-server of their own on a free port of 127.0.0.1 and stop it. scripts/setup-redis.sh
# installs redis-server first when it is missing; when it cannot, the tests fail under CI
# and skip, saying why, elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."

if redis="$(scripts/setup-redis.sh)"; then
    export REDIS_SERVER="$redis"
else
    echo "redis-tests: redis-server is missing and could not be installed" >&2
fi
cargo clippy -p mcp-tool --features redis,auth --all-targets --locked -- -D warnings
cargo nextest run -p mcp-tool --features redis,auth --test tasks_redis --test rate_limit_redis \
    --test notifications_redis --locked --no-fail-fast
