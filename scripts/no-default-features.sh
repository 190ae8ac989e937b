#!/usr/bin/env bash
# The runtime without its default features (`http`, `logging`): it passes clippy, every
# target included, and compiles neither `tracing-subscriber` nor a dependency of its own
# on `futures` (rmcp still brings `futures` for itself).
set -euo pipefail
cd "$(dirname "$0")/.."

cargo clippy -p mcp-tool --no-default-features --all-targets --locked -- -D warnings

tree() {
    cargo tree -p mcp-tool --no-default-features -e normal,build --prefix none --locked "$@"
}
status=0
if tree | grep -q '^tracing-subscriber '; then
    echo "tracing-subscriber is compiled without the feature logging:" >&2
    tree -i tracing-subscriber >&2
    status=1
fi
if tree --depth 1 | grep -q '^futures '; then
    echo "the runtime depends on futures without the feature http" >&2
    status=1
fi
[[ $status == 0 ]] && echo "no-default-features: builds, without tracing-subscriber and futures of its own"
exit $status
