//! The HTTP servers under oha (`benches/http-load.sh`): a table of each scenario and
//! server, read from `results/http-load/`, for the end of `RESULTS.md`.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::Context as _;
use serde_json::Value;

use crate::data::{Measure, Medians, lookup, machine, spread};
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

/// The rounds of one scenario and server: `SCENARIO-STYLE-ROUND.json`, or the one
/// `SCENARIO-STYLE.json` of a run without rounds.
fn rounds(dir: &Path, scenario: &'static str, style: &'static str) -> anyhow::Result<Vec<LoadRow>> {
    let mut rows = Vec::new();
    for round in 1.. {
        let path = dir.join(format!("{scenario}-{style}-{round}.json"));
        if !path.exists() {
            break;
        }
        rows.push(load_row(&path, scenario, style).with_context(|| path.display().to_string())?);
    }
    let single = dir.join(format!("{scenario}-{style}.json"));
    if rows.is_empty() && single.exists() {
        rows.push(
            load_row(&single, scenario, style).with_context(|| single.display().to_string())?,
        );
    }
    Ok(rows)
}

/// One row of the table from a server's rounds: the medians of the rates and latencies,
/// the responses and errors of every round together, the highest peak.
fn merged(rounds: &[LoadRow]) -> Option<LoadRow> {
    let first = rounds.first()?;
    let median = |figure: fn(&LoadRow) -> f64| {
        let mut values: Vec<f64> = rounds.iter().map(figure).collect();
        spread(&mut values).map_or(0.0, |m| m.median)
    };
    let statuses = if rounds.len() == 1 {
        first.statuses.clone()
    } else {
        format!("{} rounds: {}", rounds.len(), first.statuses)
    };
    Some(LoadRow {
        scenario: first.scenario,
        style: first.style,
        per_second: median(|r| r.per_second),
        p50_ms: median(|r| r.p50_ms),
        p99_ms: median(|r| r.p99_ms),
        statuses,
        errors: rounds.iter().map(|r| r.errors).sum(),
        peak_kib: rounds.iter().map(|r| r.peak_kib).max().unwrap_or(0),
    })
}

/// Ours against rmcp with `TCP_NODELAY` in calls per second, round by round: the median
/// of the rounds' ratios, from the least to the most.
fn round_ratio(ours: &[LoadRow], rmcp: &[LoadRow]) -> Option<Measure> {
    let mut ratios: Vec<f64> = (ours.iter().zip(rmcp))
        .map(|(ours, rmcp)| ours.per_second / rmcp.per_second)
        .collect();
    spread(&mut ratios)
}

/// The two load generators side by side: oha's ratio against `http-load`'s, on the
/// scenarios both run with the same request and as many connections.
fn agreement(
    medians: &Medians,
    runs: &[(&'static str, &'static str, Vec<LoadRow>)],
    connections: &str,
) -> String {
    let find = |scenario: &str, style: &str| {
        (runs.iter())
            .find(|(s, st, _)| *s == scenario && *st == style)
            .map(|(_, _, r)| r)
    };
    let mut out = String::new();
    for (scenario, mode) in [("stateless", "stateless"), ("session", "stateful")] {
        let (Some(ours), Some(rmcp)) = (find(scenario, "ours"), find(scenario, "rmcp-nodelay"))
        else {
            continue;
        };
        let Some(oha) = round_ratio(ours, rmcp) else {
            continue;
        };
        let id = |style: &str| format!("http/{mode}/{connections}/{style}/calls_per_second");
        let measured = (medians.get(&id("ours")))
            .zip(medians.get(&id("rmcp-nodelay")))
            .map(|(ours, rmcp)| ours.ratio(rmcp));
        let (load, agree) = match measured {
            Some(ratio) => (
                format!("{:.2} ({:.2}–{:.2})", ratio.median, ratio.low, ratio.high),
                if oha.high < ratio.low || oha.low > ratio.high {
                    "no: the spreads do not meet"
                } else {
                    "yes: the spreads meet"
                },
            ),
            None => ("—".to_owned(), "—"),
        };
        let _ = writeln!(
            out,
            "| {scenario} | {:.2} ({:.2}–{:.2}) | {load} | {agree} |",
            oha.median, oha.low, oha.high
        );
    }
    if out.is_empty() {
        return out;
    }
    format!(
        "\nThe two load generators, ours against rmcp with `TCP_NODELAY` in calls per second at \
         {connections} connections: oha's median of the rounds' ratios (the least and the most \
         of them), beside `http-load`'s ratio of medians from the table above (its spread \
         running from the least to the most the two servers' rounds allow). They agree when \
         the two spreads meet.\n\n\
         | scenario | oha | http-load | agree |\n|---|---:|---:|---|\n{out}"
    )
}

/// The section, or nothing when no run was kept.
pub(crate) fn load_markdown(results: &Path, medians: &Medians) -> anyhow::Result<String> {
    let dir = results.join("http-load");
    let mut runs = Vec::new();
    for scenario in SCENARIOS {
        for style in STYLES {
            runs.push((scenario, style, rounds(&dir, scenario, style)?));
        }
    }
    let rows: Vec<LoadRow> = runs
        .iter()
        .filter_map(|(_, _, rounds)| merged(rounds))
        .collect();
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
         with `TCP_NODELAY`; {} connections kept alive; {} rounds of the stateless and session \
         scenarios, every server once a round in an order reversed every other round, each \
         figure the median of the rounds. *stateless*: calls without a session \
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
        get("rounds"),
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
    out.push_str(&agreement(medians, &runs, get("connections")));
    out.push_str(&authorization(results)?);
    Ok(out)
}

/// What authorization costs a stateless call under load (`benches/auth-load.sh`, wrk):
/// ours with a kept JWT against ours without authorization, judged at 0.9 of the calls
/// per second; nothing when the run kept no results.
fn authorization(results: &Path) -> anyhow::Result<String> {
    let path = results.join("auth-wrk.json");
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(String::new());
    };
    let run: Value = serde_json::from_str(&text).with_context(|| path.display().to_string())?;
    let figure = |group: &str, style: &str| {
        run[group][style]
            .as_f64()
            .with_context(|| format!("{}: no {group} of {style}", path.display()))
    };
    let ratio = run["ratio_calls_per_second_auth_over_plain"]
        .as_f64()
        .context("no ratio in auth-wrk.json")?;
    let (least, most) = (
        run["ratio_per_round"]["least"].as_f64().unwrap_or(ratio),
        run["ratio_per_round"]["most"].as_f64().unwrap_or(ratio),
    );
    let verdict = if ratio >= 0.9 { "met" } else { "**missed**" };
    let mut out = format!(
        "\nAuthorization under load (`benches/auth-load.sh`, wrk, {} connections, {} \
         interleaved rounds, each server started afresh): the stateless `add` of ours with a \
         `JwtVerifier` whose token is already accepted and kept, against the same server \
         without authorization. The target, at least 0.9 of the calls per second, is judged \
         on the median of the rounds; the rounds' own ratios run from {least:.2} to {most:.2}.\n\n\
         | server | calls/s | p50 | p99 |\n|---|---:|---:|---:|\n",
        run["connections"].as_u64().unwrap_or(16),
        run["rounds"].as_u64().unwrap_or(0),
    );
    for (style, words) in [("ours", "ours"), ("ours-auth", "ours, kept JWT")] {
        let _ = writeln!(
            out,
            "| {words} | {} | {:.0} µs | {:.0} µs |",
            thousands(figure("calls_per_second", style)?.round() as u64),
            figure("p50_us", style)?,
            figure("p99_us", style)?,
        );
    }
    let _ = writeln!(
        out,
        "\nWith a kept JWT / without: {ratio:.2} of the calls per second ({verdict}: ≥ 0.90)."
    );
    Ok(out)
}
