#!/usr/bin/env bash
# Fuzzes for a while: ./run.sh [seconds] [targets...] (60 s each; every target by default):
# masking (the masking functions), messages (raw lines into a server's stdio transport),
# arguments (arbitrary JSON arguments to a tool with every kind of parameter).
# What each target checks is in checks/<target>.rs, which tests/fuzz-stable also runs on
# stable Rust in CI, over every seed and a bounded number of mutated seeds.
# A crash leaves its input under artifacts/<target>/; once fixed, copy it into
# seeds/<target>/, which both runs replay.
set -euo pipefail
cd "$(dirname "$0")"

if ! cargo fuzz --version >/dev/null 2>&1; then
    cargo install cargo-fuzz --locked
fi

# cargo fuzz passes -Z flags (the address sanitizer); RUSTC_BOOTSTRAP lets the stable toolchain take them.
seconds="${1:-60}"
shift || true
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(masking messages arguments)
for target in "${targets[@]}"; do
    echo "fuzz: $target for $seconds s" >&2
    mkdir -p "corpus/$target" "seeds/$target"
    dict=()
    [[ -f "$target.dict" ]] && dict=(-dict="$target.dict")
    RUSTC_BOOTSTRAP=1 cargo fuzz run "$target" "corpus/$target" "seeds/$target" -- \
        -max_total_time="$seconds" -max_len=4096 "${dict[@]}"
done
