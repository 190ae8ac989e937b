//! The markdown: what was measured and where, the table, and how to read it.

use std::fmt::Write as _;

use crate::data::lookup;
use crate::table::{Row, Unit, Versus, duration};

fn cell(value: Option<f64>, unit: Unit) -> String {
    match (value, unit) {
        (None, _) => "—".into(),
        (Some(seconds), Unit::Seconds) => duration(seconds),
        (Some(count), Unit::Instructions) => format!("{count:.0} instr."),
    }
}

fn ratio(value: Option<f64>) -> String {
    value
        .map(|r| format!("{r:.2}"))
        .unwrap_or_else(|| "—".into())
}

/// The paragraph above the table: the machine, the commit, the run, the columns.
fn intro(out: &mut String, machine: &[(String, String)], wall: Option<f64>, note: Option<&str>) {
    let get = |key: &str| lookup(machine, key).unwrap_or("unknown");
    let _ = writeln!(
        out,
        "Measured by `benches/compare.sh` on {} ({} cores), {}, {}, commit {}{}. \
         Medians; a ratio below 1 means ours takes less time. \
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

/// The paragraph below the table: what each kind of row measures, and the chart.
fn notes(out: &mut String, machine: &[(String, String)]) {
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
         `benches/tests/same_tools.rs`).\n\n\
         ![Time ratios of mcp-tool against rmcp's macros and a hand-written server](benches/perf.svg)\n",
    );
}

/// The whole markdown report.
pub(crate) fn markdown(
    rows: &[Row],
    machine: &[(String, String)],
    wall: Option<f64>,
    wall_note: Option<&str>,
) -> String {
    let mut out = String::new();
    intro(&mut out, machine, wall, wall_note);
    table(&mut out, rows);
    notes(&mut out, machine);
    out
}
