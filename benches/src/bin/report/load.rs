//! The HTTP servers under oha (`benches/http-load.sh`): a table of each scenario and
//! server, read from `results/http-load/`, for the end of `RESULTS.md`.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::Context as _;
use serde_json::Value;

use crate::data::{lookup, machine};
use crate::table::thousands;

/// The scenarios and the servers, in the table's order.
const SCENARIOS: [&str; 3] = ["stateless", "session", "initialize"];
const STYLES: [&str; 3] = ["ours", "rmcp", "rmcp-nodelay"];

/// One oha run: what the server answered and how fast, and its memory at the end.
struct LoadRow {
    scenario: &'static str,
    style: &'static str,
    per_second: f64,
    p50_ms: f64,
    p99_ms: f64,
    /// `status×count`, the statuses in order.
    statuses: String,
    errors: u64,
    peak_kib: u64,
}

fn load_row(path: &Path, scenario: &'static str, style: &'static str) -> anyhow::Result<LoadRow> {
    let text = std::fs::read_to_string(path)?;
    let run: Value = serde_json::from_str(&text)?;
    let oha = &run["oha"];
    let number = |value: &Value, what: &str| {
        value
            .as_f64()
            .with_context(|| format!("{}: no {what}", path.display()))
    };
    let mut statuses: Vec<(String, u64)> = (oha["statusCodeDistribution"].as_object())
        .map(|codes| {
            (codes.iter())
                .map(|(code, n)| (code.clone(), n.as_u64().unwrap_or(0)))
                .collect()
        })
        .unwrap_or_default();
    statuses.sort();
    let statuses = (statuses.iter())
        .map(|(code, n)| format!("{code} × {}", thousands(*n)))
        .collect::<Vec<_>>()
        .join(", ");
    let errors = (oha["errorDistribution"].as_object())
        .map(|errors| errors.values().filter_map(Value::as_u64).sum())
        .unwrap_or(0);
    Ok(LoadRow {
        scenario,
        style,
        per_second: number(&oha["summary"]["requestsPerSec"], "requestsPerSec")?,
        p50_ms: number(&oha["latencyPercentiles"]["p50"], "p50")? * 1e3,
        p99_ms: number(&oha["latencyPercentiles"]["p99"], "p99")? * 1e3,
        statuses,
        errors,
        peak_kib: run["peak_rss_kib"].as_u64().unwrap_or(0),
    })
}

/// The section, or nothing when no run was kept.
pub(crate) fn load_markdown(results: &Path) -> anyhow::Result<String> {
    let dir = results.join("http-load");
    let mut rows = Vec::new();
    for scenario in SCENARIOS {
        for style in STYLES {
            let path = dir.join(format!("{scenario}-{style}.json"));
            if path.exists() {
                rows.push(
                    load_row(&path, scenario, style).with_context(|| path.display().to_string())?,
                );
            }
        }
    }
    if rows.is_empty() {
        return Ok(String::new());
    }
    let machine = machine(&dir);
    let get = |key: &str| lookup(&machine, key).unwrap_or("unknown");
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\n## The HTTP servers under load (oha)\n\n\
         Measured by `benches/compare.sh` (step `http-load`, `benches/http-load.sh`) with {} \
         on {} ({} cores, load average {} at the start, shared) at commit {}, on {}: `add` served by ours (`serve_http`), by rmcp's \
         `StreamableHttpService` on `axum::serve` as rmcp's examples serve it, and by the same \
         with `TCP_NODELAY`; {} connections kept alive. *stateless*: calls without a session \
         for {} s, the calls under way at the end let finish; *session*: calls in one session \
         opened beforehand, each with an id of its own (drawn from 1,000,000), for {} s, the \
         calls under way at the end cut and counted as errors; *initialize*: \
         {} `initialize` requests, each opening a session where the server lets it (ours keeps \
         at most 1,000 and answers the rest `503`). Errors are oha's (connections refused, \
         reset or timed out, requests cut at the deadline); peak RSS is the server's `VmHWM` at the end of the run.\n",
        get("tool"),
        get("cpu"),
        get("cores"),
        get("load at start"),
        get("commit"),
        get("date"),
        get("connections"),
        get("seconds"),
        get("seconds"),
        get("initialize requests"),
    );
    out.push_str(
        "| scenario | server | requests/s | p50 | p99 | responses | errors | peak RSS |\n\
         |---|---|---:|---:|---:|---|---:|---:|\n",
    );
    for row in &rows {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {:.2} ms | {:.2} ms | {} | {} | {:.1} MiB |",
            row.scenario,
            row.style,
            thousands(row.per_second.round() as u64),
            row.p50_ms,
            row.p99_ms,
            row.statuses,
            row.errors,
            row.peak_kib as f64 / 1024.0,
        );
    }
    Ok(out)
}
