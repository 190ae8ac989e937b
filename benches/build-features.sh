#!/usr/bin/env bash
# The clean build of the Getting started crate (runtime/examples/getting_started.rs as a
# crate of its own, depending on this workspace's mcp-tool by path), dependencies
# included, for each choice of mcp-tool's features: the defaults, the defaults and `auth`
# (the defaults of 0.1), none, and each optional part alone. Each build starts from an
# empty target folder and runs `cargo build` (debug, one job per core, offline, the
# versions of the workspace's Cargo.lock); the script writes
# benches/results/build-features.json (seconds, crates compiled, size of the target
# folder) and prints the table of runtime/src/guide/stability.md, "Features, and what each
# costs to build".
#
# usage: benches/build-features.sh [--out FILE]   (needs the dependencies downloaded:
# run `cargo fetch` once; nothing else may run meanwhile, as for every timing)
set -euo pipefail
cd "$(dirname "$0")/.."

out=benches/results/build-features.json
[[ "${1:-}" == "--out" ]] && out=$2
work="${CARGO_TARGET_DIR:-target}/build-features"
root=$(pwd)
rm -rf "$work"
mkdir -p "$work"
# The crate lies outside the checkout, as a user's does: cargo reads the configuration of
# the folders a build starts in, and the checkout's .cargo/config.toml (its test builds'
# debug info) would make each build smaller and quicker than a user's.
crate=$(mktemp -d "${TMPDIR:-/tmp}/hello-mcp.XXXXXX")
trap 'rm -rf "$crate"' EXIT
mkdir -p "$crate/src"
cp runtime/examples/getting_started.rs "$crate/src/main.rs"
cp Cargo.lock "$crate/Cargo.lock"

# name|features named (besides the defaults)|default features
configs=(
    "defaults||true"
    "defaults+auth|auth|true"
    "none||false"
    "logging|logging|false"
    "http|http|false"
    "auth|auth|false"
    "redis|redis|false"
)

manifest() {
    local features=$1 defaults=$2 list=""
    [[ -n "$features" ]] && list="\"$features\""
    cat <<EOF
[package]
name = "hello-mcp"
version = "0.1.0"
edition = "2024"
publish = false

[dependencies]
mcp-tool = { path = "$root/runtime", default-features = $defaults, features = [$list] }
schemars = "1"
serde = { version = "1", features = ["derive"] }

[workspace]
EOF
}

printf '[\n' >"$out.tmp"
first=true
for config in "${configs[@]}"; do
    IFS='|' read -r name features defaults <<<"$config"
    manifest "$features" "$defaults" >"$crate/Cargo.toml"
    target="$work/target-$name"
    rm -rf "$target"
    echo "build-features: $name (features: ${features:-none}; defaults: $defaults)" >&2
    start=$(date +%s.%N)
    log=$(cd "$crate" && CARGO_TARGET_DIR="$root/$target" cargo build --offline 2>&1) || {
        echo "$log" >&2
        echo "build-features: the $name build failed (above)" >&2
        exit 1
    }
    end=$(date +%s.%N)
    seconds=$(python3 -c "print(round($end - $start, 1))")
    crates=$(grep -c '^ *Compiling ' <<<"$log" || true)
    bytes=$(du -sb "$target" | cut -f1)
    $first || printf ',\n' >>"$out.tmp"
    first=false
    printf '  {"name": "%s", "features": "%s", "defaults": %s, "seconds": %s, "crates": %s, "target_bytes": %s}' \
        "$name" "$features" "$defaults" "$seconds" "$crates" "$bytes" >>"$out.tmp"
    rm -rf "$target"
done
printf '\n]\n' >>"$out.tmp"
mv "$out.tmp" "$out"
python3 benches/build_features_table.py "$out"
