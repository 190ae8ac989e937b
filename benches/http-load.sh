# The http-load step of benches/compare.sh, which sources it: each HTTP server (ours,
# rmcp's StreamableHttpService on axum::serve, and the same with TCP_NODELAY) serving `add`,
# driven by oha at a fixed number of connections, in three scenarios:
#
# - stateless: calls without a session, for LOAD_SECONDS;
# - session: calls in one session opened beforehand (initialize, initialized), for
#   LOAD_SECONDS, every connection sending its session id, each call an id of its own;
# - initialize: LOAD_SESSIONS initialize requests, each opening a session if the server
#   lets it (ours holds at most 1,000 and refuses the rest with 503; rmcp has no bound).
#
# Each run's oha summary, with the server's peak resident memory (VmHWM) read before it
# stops, goes to benches/results/http-load/SCENARIO-STYLE-ROUND.json; the report makes a table
# of them in benches/RESULTS.md.

step "HTTP servers under oha: ours, rmcp, rmcp-nodelay ($load_clients connections, ${load_seconds} s a run, $load_rounds rounds, $load_sessions initialize requests)"
oha=$("$root/scripts/setup-oha.sh" | sed -n 's/^oha=//p')
load=$results/http-load
rm -rf "$load"
mkdir -p "$load"
{
    echo "cpu: $(lscpu | sed -n 's/^Model name: *//p' | head -n 1)"
    echo "cores: $(nproc)"
    echo "commit: $commit"
    echo "date: $(date -u +%Y-%m-%d)"
    echo "load at start: $(cut -d ' ' -f 1-3 /proc/loadavg)"
    echo "tool: $("$oha" --version)"
    echo "connections: $load_clients"
    echo "seconds: $load_seconds"
    echo "initialize requests: $load_sessions"
    echo "rounds: $load_rounds"
} >"$load/machine.txt"

load_call='{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3}}}'
load_initialize='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"oha","version":"1"}}}'
load_headers=(-H 'content-type: application/json' -H 'accept: application/json, text/event-stream')

# load_run STYLE SCENARIO ROUND: one server, one oha run, one result file.
load_run() {
    local style=$1 scenario=$2 round=$3 mode=stateful dir pid url="" session args peak
    [ "$scenario" = stateless ] && mode=stateless
    dir=$(mktemp -d)
    mkfifo "$dir/in"
    "$bin/http-server" "$style" "$mode" <"$dir/in" >"$dir/out" 2>"$dir/err" &
    pid=$!
    # The server serves until its stdin closes: this descriptor holds it open.
    exec 7>"$dir/in"
    for _ in $(seq 100); do
        url=$(head -n 1 "$dir/out")
        [ -n "$url" ] && break
        sleep 0.1
    done
    [ -n "$url" ] || { echo "http-server $style $mode did not start" >&2 && exit 1; }
    case $scenario in
    stateless) args=(-z "${load_seconds}s" -w -d "$load_call") ;;
    session)
        session=$(curl -sS -D - -o /dev/null "${load_headers[@]}" -d "$load_initialize" "$url" |
            sed -n 's/^mcp-session-id: *//Ip' | tr -d '\r')
        [ -n "$session" ] || { echo "no session from $style" >&2 && exit 1; }
        curl -sS -o /dev/null "${load_headers[@]}" -H "mcp-session-id: $session" \
            -H 'mcp-protocol-version: 2025-11-25' \
            -d '{"jsonrpc":"2.0","method":"notifications/initialized"}' "$url"
        # Requests in flight in one session need ids of their own (rmcp routes each reply
        # by its id), and oha sends a line drawn at random: of 1,000,000 ids, two in
        # flight at once are rarely alike, and a run of a fixed time without -w ends such
        # a pair's wait at its deadline, counted as an error.
        seq 1 1000000 | sed 's/.*/{"jsonrpc":"2.0","id":&,"method":"tools\/call","params":{"name":"add","arguments":{"a":2,"b":3}}}/' >"$dir/calls"
        args=(-z "${load_seconds}s" -H "mcp-session-id: $session"
            -H 'mcp-protocol-version: 2025-11-25' -Z "$dir/calls")
        ;;
    initialize) args=(-n "$load_sessions" -d "$load_initialize") ;;
    esac
    "$oha" --no-tui --output-format json -c "$load_clients" -m POST "${load_headers[@]}" \
        "${args[@]}" "$url" >"$dir/oha.json"
    peak=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB$/\1/p' "/proc/$pid/status")
    exec 7>&-
    wait "$pid" || true
    jq --arg style "$style" --arg scenario "$scenario" --argjson peak "$peak" \
        '{style: $style, scenario: $scenario, peak_rss_kib: $peak, oha: .}' \
        "$dir/oha.json" >"$load/$scenario-$style-$round.json"
    jq -r '"\(.scenario) \(.style): \(.oha.summary.requestsPerSec | floor) requests/s, p50 \(.oha.latencyPercentiles.p50 * 1000) ms, p99 \(.oha.latencyPercentiles.p99 * 1000) ms, statuses \(.oha.statusCodeDistribution), errors \(.oha.errorDistribution), peak RSS \(.peak_rss_kib) KiB"' \
        "$load/$scenario-$style-$round.json"
    rm -rf "$dir"
}

# The rate scenarios in rounds, the servers interleaved and their order reversed every
# other round, so that a change in the machine's load falls on every server alike; the
# session flood once, as what it measures (refusals, peak memory) hardly moves.
for round in $(seq 1 "$load_rounds"); do
    if [ $((round % 2)) = 1 ]; then
        styles="ours rmcp rmcp-nodelay"
    else
        styles="rmcp-nodelay rmcp ours"
    fi
    for scenario in stateless session; do
        for style in $styles; do
            load_run "$style" "$scenario" "$round"
        done
    done
done
for style in ours rmcp rmcp-nodelay; do
    load_run "$style" initialize 1
done

step "authorization under load: ours with a kept JWT against ours without (wrk, benches/auth-load.sh)"
"$root/benches/auth-load.sh" 9 5 >/dev/null
