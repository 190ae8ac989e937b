//! The markdown: what was measured and where, the table, and how to read it.

use std::fmt::Write as _;

use crate::data::{ProcessRuns, lookup};
use crate::masking::{MaskingRow, masking_markdown};
use crate::runtime::{RuntimeRow, runtime_markdown};
use crate::table::{Row, Unit, Versus, cell, ratio, thousands};
use crate::tasks::{TaskRow, task_markdown};

/// The paragraph above the table: the machine, the commit, the run, the columns.
fn intro(out: &mut String, machine: &[(String, String)]) {
    let get = |key: &str| lookup(machine, key).unwrap_or("unknown");
    let wall = lookup(machine, "wall seconds").and_then(|w| w.parse::<f64>().ok());
    let note = lookup(machine, "wall note");
    let _ = writeln!(
        out,
        "Measured by `benches/compare.sh` on {} ({} cores), {}, {}, at commit {}, on {}{}. \
         The run's raw results are committed in `benches/results/` and this table is written \
         from them alone (a test checks that it still is). \
         Medians; a ratio below 1 means ours takes less time (in calls/s, a ratio above 1 \
         means ours serves more). A target is met or missed only when the run's whole spread \
         is on one side of its bound (criterion's 95 % confidence interval of the median, or \
         the fastest and slowest of the rounds, on both sides of the ratio; callgrind's counts \
         are exact); otherwise it is \"within noise\", with the ratio's spread. \
         \"rmcp macros (default)\" is `#[tool_router]` with the default `#[tool_handler]`, which \
         rebuilds the router on every request; \"rmcp (router kept)\" is the same tools with \
         `#[tool_handler(router = self.tool_router)]`; \"hand-written\" is a `ServerHandler` \
         written out, the floor. \"ours\" is the tools as `async fn`, which mcp-tool runs inline \
         on the async worker, as rmcp's macros and the hand-written server run every tool, so the \
         targets compare like with like; a plain `fn` tool runs on tokio's blocking thread pool by \
         design (a tool that blocks cannot stall other calls, and the server's timeout can end its \
         call), and the rows \"ours as plain `fn`\" show what that hop costs, against the same \
         baselines and judged by no target. The target column names the ratios it judges: \
         ours/default, ours/kept and ours/hand are the three ratio columns.\n",
        get("cpu"),
        get("cores"),
        get("os"),
        get("rustc"),
        get("commit"),
        get("date"),
        wall.map(|w| format!(
            "; the whole run took {:.1} min{}",
            w / 60.0,
            note.map(|n| format!(", {n}")).unwrap_or_default()
        ))
        .unwrap_or_default(),
    );
}

/// The table, head and rows.
fn table(out: &mut String, rows: &[Row]) {
    out.push_str(
        "| benchmark | ours | rmcp macros (default) | rmcp (router kept) | hand-written \
         | ours / rmcp macros (default) | ours / rmcp (router kept) | ours / hand-written | target |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---|\n",
    );
    for row in rows {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            row.label,
            cell(row.ours, row.unit),
            cell(row.rmcp_default, row.unit),
            cell(row.rmcp_kept, row.unit),
            cell(row.hand, row.unit),
            ratio(row.ratio(Versus::RmcpDefault)),
            ratio(row.ratio(Versus::RmcpKept)),
            ratio(row.ratio(Versus::Hand)),
            row.verdict(),
        );
    }
}

/// What the HTTP rows measure, and against what.
fn http_notes(out: &mut String, machine: &[(String, String)]) {
    let calls = lookup(machine, "http calls per client").unwrap_or("N");
    let warmup = lookup(machine, "http warm-up calls per client").unwrap_or("a few");
    let rounds = match lookup(machine, "http rounds") {
        Some("1") => "1 round".to_owned(),
        Some(n) => format!("{n} rounds"),
        None => "rounds".to_owned(),
    };
    let _ = write!(
        out,
        " Over HTTP, `http-load` is the client: hyper-util's legacy client with its defaults, \
         a keep-alive connection per client, Nagle's algorithm and delayed acknowledgements \
         left on, as most HTTP clients run. Each client does its handshake (with sessions: \
         `initialize` and `notifications/initialized`; stateless: none), {warmup} unrecorded \
         calls, then {calls} sequential `tools/call add`, reading each response whole and \
         checking the sum, with as many clients at once as the row says, against a server \
         started afresh. Latency runs from sending a request to the end of its response; \
         calls/s is every recorded call over the time until the last reply. Each figure is the \
         median over {rounds}, in which every server runs each configuration once, in an order \
         reversed every other round. In the HTTP rows the \"rmcp (router kept)\" column is \
         rmcp's macros with the router kept, behind rmcp's own `StreamableHttpService` mounted \
         in axum and served by `axum::serve` as rmcp's examples do, what users of rmcp get; \
         ours is `ToolServer::serve_http`, which sets `TCP_NODELAY` on every connection. The \
         rows \"against rmcp with `TCP_NODELAY`\" hold in that column the same rmcp server with \
         `TCP_NODELAY` set on each connection (`ListenerExt::tap_io`): the part of the \
         difference that is Nagle's alone. With sessions, both servers reply in SSE (rmcp's \
         default configuration); stateless, both reply in JSON, configured alike. p50 is judged \
         with one client only: with n at once, a call also waits for the others' and p50 nears \
         n / (calls per second) on any server. The chart leaves out the calls/s rows, whose \
         ratios run the other way.",
    );
}

/// What the whole-process instruction rows measure, and how.
fn process_notes(out: &mut String, process: ProcessRuns) {
    let runs = match process.runs {
        1 => "one run".to_owned(),
        n => format!("the median of {n} runs"),
    };
    let _ = write!(
        out,
        " Whole process in instructions: callgrind counts `load-client` and the server it \
         starts, together (`--trace-children=yes`), the same client and the same requests for \
         every server, the handshake then sequential `tools/call` requests as above; a call's \
         instructions are the difference between {runs} with {} calls and with {}, over the \
         {} calls between, so that start-up and handshake cancel out. Unlike wall time they do \
         not move with whatever else the machine is doing, and the targets on the whole \
         process are judged on them; the server's worker threads may still run in another \
         order from one run to the next, which the spread of the ratio (the least and the most \
         of the runs at each number of calls) covers.",
        thousands(process.most),
        thousands(process.fewest),
        thousands(process.most - process.fewest),
    );
}

/// The paragraph below the table: what each kind of row measures, and the chart.
fn notes(out: &mut String, machine: &[(String, String)], process: Option<ProcessRuns>, http: bool) {
    let rounds = match lookup(machine, "stdio rounds") {
        Some("1") => "1 round".to_owned(),
        Some(n) => format!("{n} interleaved rounds, one run of each server a round"),
        None => "interleaved rounds, one run of each server a round".to_owned(),
    };
    let _ = write!(
        out,
        "\n\"duplex\": an rmcp client and the server in one process over `tokio::io::duplex`, \
         client encode and decode included; \"handler only\": the server's `ServerHandler` method \
         called directly, without transport or JSON encoding; \"instructions\": the same handler call \
         counted by callgrind, which the other users of a shared machine do not disturb. \
         Whole process: a client writes one request line to the server's stdin and reads the reply \
         before the next, start-up and handshake included; the targets are judged on the rows where \
         every server, ours included, runs on `rmcp::transport::stdio()`; the rows below each show \
         ours on the stdio transport its users get from `serve_stdio`, with the same `async fn` \
         tools and with plain `fn` ones. Start-up compares with the \
         kept router (the default builds nothing until a request). Whole-process and build figures \
         are hyperfine medians (whole process: {rounds}); builds are of a generated crate with \
         200 tools in each style, dependencies already built, rmcp's in its one style \
         (`#[tool_router(server_handler)]`, the default). Every style lists the same tools; the \
         hand-written server lists ours' schemas byte for byte, rmcp's macros their own (see \
         `benches/tests/same_tools.rs`).",
    );
    if let Some(process) = process {
        process_notes(out, process);
    }
    if http {
        http_notes(out, machine);
    }
    out.push_str(
        "\n\n![Time ratios of mcp-tool against rmcp's macros and a hand-written server](perf.svg)\n",
    );
}

/// The whole markdown report.
pub(crate) fn markdown(
    rows: &[Row],
    process: Option<ProcessRuns>,
    runtime_rows: &[RuntimeRow],
    task_rows: &[TaskRow],
    masking_rows: &[MaskingRow],
    machine: &[(String, String)],
) -> String {
    let mut out = String::new();
    intro(&mut out, machine);
    table(&mut out, rows);
    let http = rows.iter().any(|r| r.unit == Unit::CallsPerSecond);
    notes(&mut out, machine, process, http);
    runtime_markdown(&mut out, runtime_rows);
    task_markdown(&mut out, task_rows);
    masking_markdown(&mut out, masking_rows);
    out
}
