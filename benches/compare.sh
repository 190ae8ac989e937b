#!/usr/bin/env bash
# Measures mcp-tool against rmcp's own macros and a hand-written rmcp server, with the
# same tools, in one run; keeps the raw results in benches/results/ (committed: criterion's
# figures in criterion.json, hyperfine's and http-load's JSON, callgrind's counts, the
# machine) and writes from them the report in benches/RESULTS.md (between its marker lines,
# the prose around them kept) and benches/perf.svg, which benches/tests/report.rs checks
# against the committed results.
#
# Steps: criterion (per-call latency, tools/list, start-up, run-time tools), callgrind
# (instructions: per handler call, instructions.txt; per call of the whole process, client
# and server, process-instructions.txt, on which the whole-process target is judged; per
# decoded message, decode-instructions.txt; per byte masked, masking.txt), stdio (whole
# process over stdio, wall time, hyperfine), http (Streamable HTTP, http-load), builds
# (200-tool crates, hyperfine), http-load (the HTTP servers under oha, a maintained load
# generator, at a fixed concurrency for a bounded time: throughput, latency, errors and
# the server's peak memory).
#
# Usage: benches/compare.sh            (about 27 minutes on 2 cores with the benchmarks
#                                      built, the http step included; nearer an hour from
#                                      a clean clone, most of the rest building)
# Knobs: CALLS (stdio calls per run, 10000), RUNS (hyperfine rounds, 5),
#        PROCESS_RUNS (callgrind runs of each whole process at each number of calls, 3),
#        HTTP_CALLS (HTTP calls per client per run, 1000), HTTP_RUNS (HTTP rounds, 5),
#        BUILD_RUNS (hyperfine runs per build timing, 3), CARGO_TARGET_DIR,
#        LOAD_SECONDS (each oha run of http-load, 10), LOAD_CLIENTS (its connections, 16),
#        LOAD_SESSIONS (initialize requests of its session flood, 5000), LOAD_ROUNDS
#        (its interleaved rounds of the stateless and session scenarios, 3), OHA (an oha
#        already built, else scripts/setup-oha.sh installs it under target/),
#        STEPS (what to measure, "criterion callgrind stdio http builds http-load"; with
#        fewer, the results and the report go to $CARGO_TARGET_DIR/bench-results/ only,
#        never to benches/; but STEPS=http-load alone writes benches/results/http-load/
#        and the report from benches/results/, the other steps' results left as they are),
#        ALLOW_DIRTY=1 (measure a working tree with uncommitted changes; the table
#        then says "with local changes" and must not be committed).
set -euo pipefail
began=$(date +%s)
cd "$(dirname "$0")/.."
root=$PWD

# The table names the commit it measured, so the tree must be that commit: no
# uncommitted or untracked changes, but for this script's own two outputs.
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
changes=$(git status --porcelain -- . ':!benches/RESULTS.md' ':!benches/perf.svg' ':!benches/results' \
    2>/dev/null ||
    echo "not a git checkout")
if [ -n "$changes" ] || [ "$commit" = unknown ]; then
    if [ "${ALLOW_DIRTY:-0}" != 1 ]; then
        echo "compare.sh: the results must come from a commit, and the working tree differs from $commit:" >&2
        echo "$changes" | head -n 20 >&2
        echo "Commit or stash the changes, or set ALLOW_DIRTY=1 for a table that says so." >&2
        exit 1
    fi
    commit="$commit with local changes"
fi

all_steps="criterion callgrind stdio http builds http-load"
steps=${STEPS:-$all_steps}
for s in $steps; do
    case " $all_steps " in
    *" $s "*) ;;
    *) echo "compare.sh: unknown step \`$s' in STEPS (known: $all_steps)" >&2 && exit 1 ;;
    esac
done
doing() { case " $steps " in *" $1 "*) return 0 ;; *) return 1 ;; esac }

target=${CARGO_TARGET_DIR:-$root/target}
export CARGO_TARGET_DIR=$target
# One optimized build for the servers and the benchmarks (the bench profile otherwise
# adds debug info, which profiling wants and a timing run does not).
export CARGO_PROFILE_BENCH_DEBUG=false
if [ "$steps" = "$all_steps" ] || [ "$steps" = http-load ]; then
    results=$root/benches/results
else
    results=$target/bench-results
fi
gen=$target/bench-gen
bin=$target/release
calls=${CALLS:-10000}
runs=${RUNS:-5}
process_runs=${PROCESS_RUNS:-3}
http_calls=${HTTP_CALLS:-1000}
http_runs=${HTTP_RUNS:-5}
http_warmup=10
build_runs=${BUILD_RUNS:-3}
load_seconds=${LOAD_SECONDS:-10}
load_clients=${LOAD_CLIENTS:-16}
load_sessions=${LOAD_SESSIONS:-5000}
load_rounds=${LOAD_ROUNDS:-3}
criterion_args=(--warm-up-time 1 --measurement-time 3 --noplot)

if [ -x "$bin/bench-server" ]; then
    start_note="with an earlier build of the benchmarks to start from"
else
    start_note="from an empty target directory"
fi

step() { printf '\n==> %s (%ds)\n' "$*" $(($(date +%s) - began)); }

if ! command -v hyperfine >/dev/null; then
    step "installing hyperfine"
    apt-get update -qq && apt-get install -y -qq hyperfine >/dev/null
fi

mkdir -p "$results"
# STEPS=http-load alone keeps the other steps' results and their machine.txt: only its own
# directory, benches/results/http-load/, is measured again.
if [ "$steps" != http-load ]; then
# build-features.json is benches/build-features.sh's, measured on its own: kept.
for old in "$results"/*.json "$results"/*.txt "$results"/RESULTS.md "$results"/perf.svg; do
    [[ "$old" == "$results/build-features.json" ]] || rm -f "$old"
done
{
    echo "cpu: $(lscpu | sed -n 's/^Model name: *//p' | head -n 1)"
    echo "cores: $(nproc)"
    echo "os: $(. /etc/os-release && echo "$PRETTY_NAME"), Linux $(uname -r)"
    echo "rustc: $(rustc --version)"
    echo "commit: $commit"
    echo "date: $(date -u +%Y-%m-%d)"
    echo "load at start: $(cut -d ' ' -f 1-3 /proc/loadavg)"
    echo "steps: $steps"
    echo "stdio calls: $calls"
    echo "stdio rounds: $runs"
    echo "whole-process callgrind runs: $process_runs"
    echo "http calls per client: $http_calls"
    echo "http warm-up calls per client: $http_warmup"
    echo "http rounds: $http_runs"
} >"$results/machine.txt"
cat "$results/machine.txt"
fi

step "building the servers, the client and the benchmarks (release)"
cargo build --profile bench --locked -p mcp-tool-benches --bins
# Criterion's results of an earlier run must not reach this run's report.
rm -rf "$target/criterion"

if doing criterion; then
    cargo bench --locked -p mcp-tool-benches --no-run

    step "per-call latency (criterion)"
    cargo bench --locked -p mcp-tool-benches --bench calls -- "${criterion_args[@]}"

    step "tools/list and start-up (criterion)"
    for style in ours rmcp hand; do
        cargo bench --locked -p mcp-tool-benches --bench "list_$style" -- "${criterion_args[@]}"
    done

    step "a call with a JWT checked against a call without authorization (criterion)"
    cargo bench --locked -p mcp-tool-benches --bench authorization -- "${criterion_args[@]}"

    step "tools defined at run time against attribute tools (criterion)"
    cargo bench --locked -p mcp-tool-benches --bench runtime_tools -- "${criterion_args[@]}"

    step "decoding one incoming tools/call, ours against rmcp's ClientJsonRpcMessage (criterion)"
    cargo bench --locked -p mcp-tool-benches --bench decode -- "${criterion_args[@]}"

    step "a tool run as a task, in memory and in Redis, against a plain call (criterion)"
    if redis="$(scripts/setup-redis.sh)"; then
        REDIS_SERVER="$redis" cargo bench --locked -p mcp-tool-benches --features redis \
            --bench tasks -- "${criterion_args[@]}"
    else
        echo "compare.sh: no redis-server, so tasks are measured in memory only" >&2
        cargo bench --locked -p mcp-tool-benches --bench tasks -- "${criterion_args[@]}"
    fi
fi

if doing callgrind && ! command -v valgrind >/dev/null; then
    echo "compare.sh: no valgrind, so no instruction counts" >&2
fi
if doing callgrind && command -v valgrind >/dev/null; then
    step "instructions per handler call (callgrind)"
    counted=2000
    # Every style that call-count knows; the report makes a row of each one that is
    # neither a baseline (rmcp-default, rmcp-stored, hand) nor the setup correction:
    # ours (async fn tools, run inline like the baselines' tools; the row the targets
    # judge), ours-sync (plain fn tools, run on the blocking pool by design) and
    # ours-context (tools that take a Context and send one progress notification) and
    # ours-runtime (the same tools defined at run time, as RuntimeTools) and ours-changed
    # (the ours tools on a server whose list changed once), and ours behind each layer
    # of the request pipeline (ours-layer, a from_fn that passes every request on;
    # ours-layer-twice, two of them: their difference is one layer's own cost;
    # ours-audit; ours-rate-limit; ours-response-limit), and a whole session over ours'
    # line transport without and with a progress token (ours-lines, ours-lines-progress:
    # their difference is one notification's row). tools/list only for the
    # run-time table: ours, ours-runtime and ours-changed.
    count() {
        local tool=$1 style=$2 n total
        for n in 0 "$counted"; do
            total=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null \
                "$bin/call-count" "$style" "$tool" "$n" 2>&1 |
                sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
            echo "$tool $style $n $total"
        done
    }
    {
        for tool in add summarize; do
            for style in setup ours ours-sync ours-context ours-runtime ours-changed \
                ours-layer ours-layer-twice ours-audit ours-rate-limit ours-response-limit \
                ours-lines ours-lines-progress rmcp-default rmcp-stored hand; do
                count "$tool" "$style"
            done
        done
        for style in setup ours ours-runtime ours-changed; do
            count list "$style"
        done
    } >"$results/instructions.txt"
    cat "$results/instructions.txt"

    step "instructions per call of the whole process, client and server (callgrind, $process_runs runs)"
    # The report judges the whole-process target on these counts, not on wall time.
    # load-client drives every server alike, the handshake then one request at a time, each
    # reply read and checked before the next and stdin closed only after the last, and
    # callgrind counts it and the server it starts (--trace-children=yes): each total is
    # the sum of the two. Runs of 200 and 2200 calls, whose difference over 2000 cancels start-up and
    # the handshake. Several runs of each: the servers' worker threads may run in another
    # order from one run to the next, which moves their counts a little.
    process_count() {
        local tool=$1 style=$2 run n out total
        for run in $(seq "$process_runs"); do
            for n in 200 2200; do
                # valgrind exits as load-client does, which fails unless every reply was right.
                if ! out=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null --trace-children=yes \
                    "$bin/load-client" --calls "$n" --tool "$tool" -- "$bin/bench-server" "$style" 2>&1); then
                    echo "compare.sh: $style, $n $tool calls, failed under callgrind (run $run):" >&2
                    grep -v '^==' <<<"$out" >&2
                    exit 1
                fi
                total=$(awk '/Collected :/ { sum += $NF; processes++ }
                    END { if (processes == 2) print sum }' <<<"$out")
                if [ -z "$total" ]; then
                    echo "compare.sh: callgrind did not count both the client and $style" >&2
                    exit 1
                fi
                echo "$tool $style $n $total"
            done
        done
    }
    {
        for tool in add summarize; do
            # Every style that bench-server serves, as in the stdio step.
            for style in ours-rmcp-io ours ours-sync rmcp-default rmcp-stored hand floor; do
                process_count "$tool" "$style"
            done
        done
        # The same over Streamable HTTP, stateless (JSON replies): http-load, one client,
        # counted with the http-server it starts. Its rmcp style is rmcp's macros with the
        # router kept behind StreamableHttpService, so it is written as rmcp-stored.
        for style in ours rmcp; do
            for run in $(seq "$process_runs"); do
                for n in 200 2200; do
                    if ! out=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null --trace-children=yes \
                        "$bin/http-load" --clients 1 --calls "$n" --warmup 0 --stateless \
                        -- "$bin/http-server" "$style" stateless 2>&1); then
                        echo "compare.sh: http-server $style, $n calls, failed under callgrind (run $run):" >&2
                        grep -v '^==' <<<"$out" >&2
                        exit 1
                    fi
                    total=$(awk '/Collected :/ { sum += $NF; processes++ }
                        END { if (processes == 2) print sum }' <<<"$out")
                    if [ -z "$total" ]; then
                        echo "compare.sh: callgrind did not count both http-load and http-server $style" >&2
                        exit 1
                    fi
                    echo "add-http ${style/#rmcp/rmcp-stored} $n $total"
                done
            done
        done
    } >"$results/process-instructions.txt"
    cat "$results/process-instructions.txt"

    step "instructions per decoded message, ours against rmcp's (callgrind)"
    # decode-count decodes one tools/call N times: small (add's arguments) and large
    # (summarize's, about 1 KiB); N = 0 and N = $counted, the difference over $counted.
    for size in small large; do
        for style in ours rmcp; do
            for n in 0 "$counted"; do
                total=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null \
                    "$bin/decode-count" "$style" "$size" "$n" 2>&1 |
                    sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
                echo "$size $style $n $total"
            done
        done
    done >"$results/decode-instructions.txt"
    cat "$results/decode-instructions.txt"

    step "instructions per byte masked, at three message sizes (callgrind)"
    # mask_failure over benches/src/masking.rs's message, 4 MiB in all at each size, less
    # a run that masks it once only; the report's per-byte figures stay flat if linear.
    for size in 1024 16384 262144; do
        for n in 0 $((4194304 / size)); do
            total=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null \
                "$bin/mask-count" "$size" "$n" 2>&1 |
                sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
            echo "$size $n $total"
        done
    done >"$results/masking.txt"
    cat "$results/masking.txt"
fi

if doing stdio; then
    for tool in add summarize; do
        step "$calls sequential $tool calls over stdio, whole process (hyperfine, $runs interleaved rounds)"
        client="$bin/load-client --calls $calls --tool $tool --"
        # One run of each server per round, so that a change in the machine's load
        # falls on every server alike; the first round only warms up. ours-rmcp-io is
        # ours (async fn tools) on rmcp's stdio transport, like every other style: the
        # same transport and execution model, the rows the targets judge. ours is the
        # same tools on ours' own stdio transport, as its users serve; ours-sync is
        # plain fn tools there, which run on the blocking pool by design.
        for round in $(seq 0 "$runs"); do
            hyperfine --runs 1 --style basic --export-json "$results/stdio-$tool-$round.json" \
                -n ours-rmcp-io "$client $bin/bench-server ours-rmcp-io" \
                -n ours "$client $bin/bench-server ours" \
                -n ours-sync "$client $bin/bench-server ours-sync" \
                -n rmcp-default "$client $bin/bench-server rmcp-default" \
                -n rmcp-stored "$client $bin/bench-server rmcp-stored" \
                -n hand "$client $bin/bench-server hand" \
                -n floor "$client $bin/bench-server floor" | grep -E '^Benchmark|Time'
        done
        rm "$results/stdio-$tool-0.json"
    done
fi

if doing http; then
    step "add over Streamable HTTP: ours, rmcp on axum::serve, rmcp with TCP_NODELAY ($http_runs rounds, $http_calls calls per client)"
    # Every server runs each configuration once a round, in an order that reverses every
    # other round, so that a change in the machine's load falls on every server alike.
    # ours is ToolServer::serve_http; rmcp is rmcp's StreamableHttpService on plain
    # axum::serve, as rmcp's examples serve it; rmcp-nodelay is the same with TCP_NODELAY.
    for round in $(seq 1 "$http_runs"); do
        if [ $((round % 2)) = 1 ]; then
            styles="ours rmcp rmcp-nodelay"
        else
            styles="rmcp-nodelay rmcp ours"
        fi
        for mode in stateful stateless; do
            stateless=()
            [ "$mode" = stateless ] && stateless=(--stateless)
            for clients in 1 16; do
                for style in $styles; do
                    "$bin/http-load" --name "$style" --clients "$clients" --calls "$http_calls" \
                        --warmup "$http_warmup" "${stateless[@]}" \
                        --out "$results/http-$mode-$clients-$style-$round.json" \
                        -- "$bin/http-server" "$style" "$mode"
                done
            done
        done
    done
fi

if doing http; then
    step "what one idle session holds, ours and rmcp's service (session-memory)"
    {
        echo "["
        "$bin/session-memory" ours 500
        echo ","
        "$bin/session-memory" rmcp 500
        echo "]"
    } >"$results/session-memory.json"
    cat "$results/session-memory.json"
fi

if doing http-load; then
    . "$root/benches/http-load.sh"
fi

if doing builds; then (
    step "generating three crates with 200 tools each"
    rm -rf "$gen"
    "$bin/gen-crates" --out "$gen" --workspace "$root" --tools 200
    cd "$gen"
    export CARGO_TARGET_DIR=$gen/target
    step "building their dependencies once (debug)"
    for style in ours rmcp hand; do
        cargo build --quiet -p "gen-$style"
    done

    step "clean build of each 200-tool crate (hyperfine)"
    hyperfine --runs "$build_runs" --export-json "$results/build-clean.json" \
        --prepare "cargo clean --quiet -p gen-ours" -n ours "cargo build --quiet -p gen-ours" \
        --prepare "cargo clean --quiet -p gen-rmcp" -n rmcp "cargo build --quiet -p gen-rmcp" \
        --prepare "cargo clean --quiet -p gen-hand" -n hand "cargo build --quiet -p gen-hand"

    step "rebuild after editing one tool's body (hyperfine)"
    hyperfine --warmup 1 --runs "$build_runs" --export-json "$results/build-incremental.json" \
        --prepare "$bin/gen-crates --edit gen-ours/src/tools.rs" -n ours "cargo build --quiet -p gen-ours" \
        --prepare "$bin/gen-crates --edit gen-rmcp/src/tools.rs" -n rmcp "cargo build --quiet -p gen-rmcp" \
        --prepare "$bin/gen-crates --edit gen-hand/src/tools.rs" -n hand "cargo build --quiet -p gen-hand"
)
fi

step "writing the report"
if [ "$steps" != http-load ]; then
{
    echo "wall seconds: $(($(date +%s) - began))"
    echo "wall note: $start_note"
} >>"$results/machine.txt"
fi
# Without criterion's own directory, the report reads its figures from criterion.json.
criterion=(--criterion "$target/criterion")
[ "$steps" = http-load ] && criterion=()
if [ "$steps" = "$all_steps" ] || [ "$steps" = http-load ]; then
    "$bin/report" "${criterion[@]}" --results "$results" \
        --markdown "$root/benches/RESULTS.md" --svg "$root/benches/perf.svg"
    step "done: benches/results/, benches/RESULTS.md's report and benches/perf.svg"
else
    "$bin/report" --criterion "$target/criterion" --results "$results" \
        --markdown "$results/RESULTS.md" --svg "$results/perf.svg"
    step "done, with STEPS=\"$steps\" only: $results/RESULTS.md and $results/perf.svg"
fi
