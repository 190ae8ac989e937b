#!/usr/bin/env bash
# The rehearsal of a release: `cargo publish --dry-run` of the published crates, in the order
# crates.io must receive them (mcp-tool-uri-template, mcp-tool-macros, mcp-tool), each
# packaged and built from its package as crates.io would, and nothing uploaded. One command
# for the three: cargo resolves a crate's dependency on one published before it (the exact
# version, not yet on crates.io) from that crate's package. Run it on the release's commit,
# before `cargo publish` of the same three in the same order; it needs crates.io's index.
# (scripts/package-check.sh, a step of scripts/test.sh, packages every crate of the
# workspace the same way.)
set -euo pipefail
cd "$(dirname "$0")/.."

# A target directory of its own, emptied first, and the packages cargo unpacked for an
# earlier run removed: cargo never rebuilds nor unpacks again a registry crate of the same
# version, so a crate would be verified against its dependency as it was then.
target="${CARGO_TARGET_DIR:-target}/publish-dry-run"
rm -rf "$target"
crates=(mcp-tool-uri-template mcp-tool-macros mcp-tool)
version=$(cargo metadata --no-deps --locked --format-version 1 \
    | python3 -c 'import json, sys; print({p["version"] for p in json.load(sys.stdin)["packages"] if p["name"] == "mcp-tool"}.pop())')
packages=()
for crate in "${crates[@]}"; do
    rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/"$crate-$version"
    packages+=(--package "$crate")
done
cargo publish --dry-run --locked --target-dir "$target" "${packages[@]}"
rm -rf "$target"
