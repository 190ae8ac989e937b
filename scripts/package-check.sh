#!/usr/bin/env bash
# `cargo package` of every crate of the workspace: each builds from its package alone, as
# crates.io would build it.
set -euo pipefail
cd "$(dirname "$0")/.."

# --allow-dirty: a run before a commit packages the working tree as it is.
# A target directory of its own, emptied first: cargo never rebuilds a registry crate of the
# same version, so a build of an earlier run's packages would be reused, and a crate verified
# against the runtime as it was then. (A clean clone builds everything once, as here.)
package_dir="${CARGO_TARGET_DIR:-target}/package-check"
rm -rf "$package_dir"
# cargo also unpacks the packages it verifies against under $CARGO_HOME/registry/src/-HASH/
# (a local registry of this workspace's packages) and never unpacks a version it finds
# there again: removed too, or a crate is verified against an earlier run's runtime.
for crate in $(cargo metadata --no-deps --locked --format-version 1 | python3 -c \
    'import json, sys; print(*(p["name"] + "-" + p["version"] for p in json.load(sys.stdin)["packages"]))'); do
    rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/"$crate"
done
cargo package --workspace --locked --allow-dirty --target-dir "$package_dir"
rm -rf "$package_dir"
