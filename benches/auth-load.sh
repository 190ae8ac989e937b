#!/usr/bin/env bash
# What authorization costs a stateless call under load, measured with wrk (Debian's
# package, installed with apt-get when missing): ours without authorization against ours
# with a JwtVerifier whose token is already accepted and kept, the same `add` request,
# 16 connections, the two servers interleaved round by round (the order reversed every
# other round), each started afresh. Writes each round's wrk output under
# benches/results/auth-wrk/ and the medians and their ratio to benches/results/auth-wrk.json.
#
# usage: benches/auth-load.sh [ROUNDS (5)] [SECONDS a run (5)]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
seconds=${2:-5}
if ! command -v wrk >/dev/null; then
    echo "auth-load: installing wrk with apt-get" >&2
    apt-get install -y wrk >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y wrk >/dev/null; }
fi
cargo build --profile bench -p mcp-tool-benches --bin http-server --locked --quiet
bin="${CARGO_TARGET_DIR:-target}/release/http-server"
out=benches/results/auth-wrk
rm -rf "$out" && mkdir -p "$out"

# run STYLE ROUND: serves STYLE afresh, warms it up for a second, then loads it.
run() {
    local style=$1 round=$2 fifo url token=""
    fifo=$(mktemp -u) && mkfifo "$fifo"
    "$bin" "$style" stateless <"$fifo" >"$out/endpoint" &
    local server=$!
    exec {keep}>"$fifo"
    until [[ -s "$out/endpoint" && ( "$style" != ours-auth || $(wc -l <"$out/endpoint") -ge 2 ) ]]; do sleep 0.05; done
    url=$(sed -n 1p "$out/endpoint")
    [[ "$style" == ours-auth ]] && token=$(sed -n 2p "$out/endpoint")
    TOKEN="$token" wrk -t1 -c1 -d1s -s benches/wrk/add.lua "$url" >/dev/null
    TOKEN="$token" wrk -t2 -c16 -d"${seconds}s" --latency -s benches/wrk/add.lua "$url" \
        >"$out/round-$round-$style.txt"
    exec {keep}>&-
    wait "$server"
    rm -f "$fifo" "$out/endpoint"
    if grep -q "Non-2xx" "$out/round-$round-$style.txt"; then
        echo "auth-load: $style answered some requests with an error:" >&2
        cat "$out/round-$round-$style.txt" >&2
        exit 1
    fi
}

for ((round = 1; round <= rounds; round++)); do
    if ((round % 2)); then order=(ours ours-auth); else order=(ours-auth ours); fi
    for style in "${order[@]}"; do
        run "$style" "$round"
    done
done

python3 - "$out" "$rounds" <<'PY' | tee benches/results/auth-wrk.json
import json, re, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
def read(style, round):
    text = open(f"{out}/round-{round}-{style}.txt").read()
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
    def micros(label):
        value, unit = re.search(rf"\s{label}%\s+([\d.]+)(us|ms|s)", text).groups()
        return float(value) * {"us": 1, "ms": 1e3, "s": 1e6}[unit]
    return rps, micros("50"), micros("99")
runs = {style: [read(style, r) for r in range(1, rounds + 1)] for style in ("ours", "ours-auth")}
median = {style: [statistics.median(x[i] for x in runs[style]) for i in range(3)] for style in runs}
ratios = [a[0] / b[0] for a, b in zip(runs["ours-auth"], runs["ours"])]
print(json.dumps({
    "generator": "wrk -t2 -c16, stateless tools/call add, interleaved rounds",
    "connections": 16,
    "rounds": rounds,
    "calls_per_second": {s: median[s][0] for s in median},
    "p50_us": {s: median[s][1] for s in median},
    "p99_us": {s: median[s][2] for s in median},
    "ratio_calls_per_second_auth_over_plain": median["ours-auth"][0] / median["ours"][0],
    "ratio_per_round": {"least": min(ratios), "most": max(ratios)},
    "runs": runs,
}, indent=2))
PY
