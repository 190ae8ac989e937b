#!/usr/bin/env bash
# Fuzzes the masking functions for a while: ./run.sh [seconds] (60 by default).
set -euo pipefail
cd "$(dirname "$0")"

if ! cargo fuzz --version >/dev/null 2>&1; then
    cargo install cargo-fuzz --locked
fi

# cargo fuzz passes -Z flags (the address sanitizer); RUSTC_BOOTSTRAP lets the stable toolchain take them.
mkdir -p corpus/masking
RUSTC_BOOTSTRAP=1 cargo fuzz run masking corpus/masking seeds/masking -- \
    -max_total_time="${1:-60}" -dict=masking.dict -max_len=4096
