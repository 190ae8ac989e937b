//! The rows of the table: what each measures, ours against the three baselines, and the
//! target each is judged by.

use crate::data::{Measure, Medians};

/// What a ratio divides ours by: one of the three ratio columns.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Versus {
    /// rmcp's macros with the default `#[tool_handler]` (router rebuilt per request).
    RmcpDefault,
    /// rmcp's macros with the router kept.
    RmcpKept,
    /// The hand-written `ServerHandler`.
    Hand,
}

impl Versus {
    /// The ratio's name in the target column.
    fn name(self) -> &'static str {
        match self {
            Versus::RmcpDefault => "ours/default",
            Versus::RmcpKept => "ours/kept",
            Versus::Hand => "ours/hand",
        }
    }
}

#[derive(Clone, Copy)]
pub(crate) enum Target {
    /// Every named ratio at most its bound.
    AtMost(&'static [(Versus, f64)]),
    /// Every named ratio at least its bound (a rate, where more is better).
    AtLeast(&'static [(Versus, f64)]),
    /// Ours at most this many seconds.
    Under(f64),
    /// Ours at most this many instructions.
    Fewer(f64),
    None,
}

/// Per call, and whole process in results without its instruction counts: no slower than
/// rmcp's macros, either way they are used, and within 10% of the hand-written floor (the
/// masked-argument failure log is worth the few percent past 5%).
const PER_CALL: Target = Target::AtMost(&[
    (Versus::RmcpDefault, 1.0),
    (Versus::RmcpKept, 1.0),
    (Versus::Hand, 1.10),
]);

/// Whole process, in instructions: client and server together no costlier than with
/// rmcp's macros and their default `#[tool_handler]`.
const WHOLE_PROCESS: Target = Target::AtMost(&[(Versus::RmcpDefault, 1.0)]);

/// The whole process on ours' own stdio transport, `add` as an `async fn`, against rmcp's
/// macros with the router kept.
const OWN_STDIO_ADD: Target = Target::AtMost(&[(Versus::RmcpKept, 0.75)]);

/// The whole process on ours' own stdio transport, `add` as an `async fn`, against the
/// floor: one loop that decodes, calls and writes, with no framework and no runtime.
const OVER_THE_FLOOR: Target = Target::AtMost(&[(Versus::Hand, 2.5)]);

/// The whole process on ours' own stdio transport: `add` as a plain `fn`, and `summarize`.
const OWN_STDIO: Target = Target::AtMost(&[(Versus::RmcpKept, 0.85)]);

/// The whole process over stateless Streamable HTTP, against rmcp's macros with the router
/// kept behind rmcp's own HTTP service.
const WHOLE_PROCESS_HTTP: Target = Target::AtMost(&[(Versus::RmcpKept, 0.85)]);

#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Unit {
    Seconds,
    Instructions,
    /// A rate: its ratio above 1 means ours does more.
    CallsPerSecond,
    /// Memory held.
    Bytes,
}

pub(crate) struct Row {
    pub(crate) label: String,
    pub(crate) unit: Unit,
    pub(crate) ours: Option<Measure>,
    pub(crate) rmcp_default: Option<Measure>,
    pub(crate) rmcp_kept: Option<Measure>,
    pub(crate) hand: Option<Measure>,
    target: Target,
}

impl Row {
    /// Ours against one baseline, with the spread of both.
    pub(crate) fn ratio_spread(&self, versus: Versus) -> Option<Measure> {
        let other = match versus {
            Versus::RmcpDefault => self.rmcp_default,
            Versus::RmcpKept => self.rmcp_kept,
            Versus::Hand => self.hand,
        }?;
        Some(self.ours?.ratio(other))
    }

    /// Ours against one baseline, median to median.
    pub(crate) fn ratio(&self, versus: Versus) -> Option<f64> {
        self.ratio_spread(versus).map(|r| r.median)
    }

    /// The target cell: which ratios it judges, with their bounds, and whether today's
    /// figures meet each: met or missed only when the whole spread of the run is on one
    /// side of the bound, and otherwise within noise, with the spread.
    pub(crate) fn verdict(&self) -> String {
        match self.target {
            Target::AtMost(bounds) => self.verdict_bounds(bounds, false),
            Target::AtLeast(bounds) => self.verdict_bounds(bounds, true),
            Target::Under(seconds) => {
                let words = format!("ours < {}", duration(seconds));
                match self.ours {
                    Some(ours) if ours.high < seconds => format!("met: {words}"),
                    Some(ours) if ours.low >= seconds => format!("**missed**: {words}"),
                    Some(ours) => format!(
                        "within noise: {words} ({}–{})",
                        duration(ours.low),
                        duration(ours.high)
                    ),
                    None => format!("not measured: {words}"),
                }
            }
            Target::Fewer(count) => {
                let words = format!("ours ≤ {count:.0} instructions");
                match self.ours {
                    Some(ours) if ours.high <= count => format!("met: {words}"),
                    Some(ours) if ours.low > count => format!("**missed**: {words}"),
                    Some(_) => format!("within noise: {words}"),
                    None => format!("not measured: {words}"),
                }
            }
            Target::None => String::new(),
        }
    }

    /// The verdict on ratio bounds, upper or (`at_least`) lower: the missed ones first,
    /// then those within noise, the unmeasured, then the met.
    fn verdict_bounds(&self, bounds: &[(Versus, f64)], at_least: bool) -> String {
        let (mut met, mut missed, mut noise, mut unmeasured) = (vec![], vec![], vec![], vec![]);
        for &(versus, bound) in bounds {
            let sign = if at_least { "≥" } else { "≤" };
            let words = format!("{} {sign} {bound:.2}", versus.name());
            let Some(ratio) = self.ratio_spread(versus) else {
                unmeasured.push(words);
                continue;
            };
            // The side of the bound that meets the target, and the side that misses it.
            let (good, bad) = if at_least {
                (ratio.low >= bound, ratio.high < bound)
            } else {
                (ratio.high <= bound, ratio.low > bound)
            };
            match (good, bad) {
                (true, _) => met.push(words),
                (_, true) => missed.push(words),
                _ => noise.push(format!("{words} ({:.2}–{:.2})", ratio.low, ratio.high)),
            }
        }
        [
            ("**missed**", missed),
            ("within noise", noise),
            ("not measured", unmeasured),
            ("met", met),
        ]
        .into_iter()
        .filter(|(_, list)| !list.is_empty())
        .map(|(verdict, list)| format!("{verdict}: {}", list.join(", ")))
        .collect::<Vec<_>>()
        .join("; ")
    }
}

/// A measurement as a table cell, in its unit; `—` when there is none.
pub(crate) fn cell(value: Option<Measure>, unit: Unit) -> String {
    match (value.map(|m| m.median), unit) {
        (None, _) => "—".into(),
        (Some(seconds), Unit::Seconds) => duration(seconds),
        (Some(count), Unit::Instructions) => format!("{count:.0} instr."),
        (Some(rate), Unit::CallsPerSecond) => format!("{} calls/s", thousands(rate.round() as u64)),
        (Some(bytes), Unit::Bytes) => format!("{:.1} kB", bytes / 1000.0),
    }
}

/// A ratio as a table cell.
pub(crate) fn ratio(value: Option<f64>) -> String {
    value.map_or_else(|| "—".into(), |r| format!("{r:.2}"))
}

pub(crate) fn duration(seconds: f64) -> String {
    if seconds >= 1.0 {
        format!("{seconds:.2} s")
    } else if seconds >= 1e-3 {
        format!("{:.2} ms", seconds * 1e3)
    } else if seconds >= 1e-6 {
        format!("{:.1} µs", seconds * 1e6)
    } else {
        format!("{:.0} ns", seconds * 1e9)
    }
}

/// `10000` as `10,000`.
pub(crate) fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// The styles of `instructions.txt` that are baselines or a correction, not a variant
/// of ours.
const COUNT_BASELINES: [&str; 4] = ["setup", "rmcp-default", "rmcp-stored", "hand"];

/// How a row names the style `ours-sync`: the tools as plain `fn`, which the runtime
/// runs on the blocking thread pool, so every call pays a thread hop the other styles
/// do not; and how it says so.
const SYNC: &str = "ours as plain `fn`";
const HOP: &str = "blocking-pool hop included";

/// How a row names a variant of ours counted by `call-count`, and the target it is
/// judged by: only `ours`, whose tools run inline like the baselines', is judged.
fn variant(style: &str) -> (String, Target) {
    match style {
        "ours" => (String::new(), PER_CALL),
        "ours-sync" => (format!(", {SYNC}, {HOP}"), Target::None),
        "ours-context" => (
            ", ours taking a `Context` and sending one progress notification through rmcp's \
             peer and transport, as HTTP sessions send it (rmcp's client decoding it included)"
                .to_owned(),
            Target::None,
        ),
        "ours-runtime" => (
            ", ours, tool defined at run time (`RuntimeTool`)".to_owned(),
            Target::None,
        ),
        "ours-layer" => (
            ", ours behind a `from_fn` layer that passes every request on".to_owned(),
            Target::None,
        ),
        "ours-layer-twice" => (
            ", ours behind two such layers (the second's cost is one layer's own)".to_owned(),
            Target::None,
        ),
        "ours-audit" => (", ours behind `AuditLayer`".to_owned(), Target::None),
        "ours-rate-limit" => (
            ", ours behind `RateLimitLayer` (every request counted, none refused)".to_owned(),
            Target::None,
        ),
        "ours-response-limit" => (
            ", ours behind `ResponseLimitLayer` (every reply measured)".to_owned(),
            Target::None,
        ),
        other => (format!(", ours as `{other}`"), Target::None),
    }
}

/// Makes the rows: each column's measurement is looked up by the name `compare.sh`
/// gives its style.
struct Columns<'a> {
    medians: &'a Medians,
}

impl Columns<'_> {
    /// A row whose measurements are `id(style)`, ours being the style `ours`.
    fn row(&self, label: String, id: &dyn Fn(&str) -> String, ours: &str, target: Target) -> Row {
        let m = self.medians;
        Row {
            label,
            unit: Unit::Seconds,
            ours: m.get(&id(ours)),
            rmcp_default: m.get(&id("rmcp-default")),
            rmcp_kept: m.get(&id("rmcp-stored")),
            hand: m.get(&id("hand")),
            target,
        }
    }

    /// One call of each tool, through the client and at the handler (criterion): ours
    /// judged, then ours as plain `fn`.
    fn calls(&self, rows: &mut Vec<Row>) {
        for (label, short, id) in [
            (
                "`add`, one call, rmcp client over duplex",
                "`add`, one call, duplex",
                "call-add-duplex",
            ),
            (
                "`add`, one call, handler only",
                "`add`, one call, handler only",
                "call-add-handler",
            ),
            (
                "`summarize` (1 KiB nested in, structured out), one call, duplex",
                "`summarize`, one call, duplex",
                "call-summarize-duplex",
            ),
            (
                "`summarize`, one call, handler only",
                "`summarize`, one call, handler only",
                "call-summarize-handler",
            ),
        ] {
            let id = |s: &str| format!("{id}/{s}");
            rows.push(self.row(label.into(), &id, "ours", PER_CALL));
            let label = format!("{short}, {SYNC}, {HOP}");
            rows.push(self.row(label, &id, "ours-sync", Target::None));
        }
    }

    /// One row per variant of ours in `instructions.txt`, each against the same baselines.
    fn counts(&self, rows: &mut Vec<Row>) {
        for (tool, style) in &self.medians.counted {
            // `tools/list` and the changed list are the run-time table's rows.
            if COUNT_BASELINES.contains(&style.as_str())
                || tool == "list"
                || style == "ours-changed"
                || style.starts_with("ours-lines")
            {
                if style == "ours-lines-progress" {
                    rows.push(self.notification(tool));
                }
                continue;
            }
            let (words, target) = variant(style);
            let mut row = self.row(
                format!("`{tool}`, one call, handler only, instructions (callgrind){words}"),
                &|s| format!("instructions/{tool}/{s}"),
                style,
                target,
            );
            row.unit = Unit::Instructions;
            rows.push(row);
        }
    }

    /// What one progress notification costs a session over ours' line transport: its
    /// calls with a progress token less the same calls without, client reading included.
    fn notification(&self, tool: &str) -> Row {
        Row {
            label: format!(
                "`{tool}`, one progress notification, written by ours' line transport \
                 (stdio's), instructions (callgrind), with a progress token less without"
            ),
            unit: Unit::Instructions,
            ours: self
                .medians
                .get(&format!("instructions/{tool}/notification")),
            rmcp_default: None,
            rmcp_kept: None,
            hand: None,
            target: if tool == "add" {
                Target::Fewer(10_000.0)
            } else {
                Target::None
            },
        }
    }

    /// `tools/list` at three sizes, then start-up with the largest.
    fn listings(&self, rows: &mut Vec<Row>) {
        for n in [10, 100, 1000] {
            // The listing target is against rmcp's default, which rebuilds the listing.
            let target = if n == 1000 {
                Target::AtMost(&[(Versus::RmcpDefault, 0.1)])
            } else {
                Target::None
            };
            for (kind, words) in [("duplex", "duplex"), ("handler", "handler only")] {
                rows.push(self.row(
                    format!("`tools/list`, {n} tools, {words}"),
                    &|s| format!("list-{kind}/{s}/{n}"),
                    "ours",
                    target,
                ));
            }
        }
        rows.push(self.row(
            "start-up with 1,000 tools, to handshake done".into(),
            &|s| format!("startup/{s}/1000"),
            "ours",
            Target::Under(0.020),
        ));
    }

    /// Sequential calls over stdio, whole process (hyperfine): ours judged on rmcp's
    /// transport, like the baselines; then ours on its own transport, with `async fn`
    /// tools and with plain `fn` tools.
    fn stdio(&self, rows: &mut Vec<Row>, stdio_calls: Option<u64>) {
        let calls = stdio_calls.map_or_else(|| "N".to_owned(), thousands);
        // The whole process is judged on its instructions where they were counted, which
        // the machine's load does not move; on wall time only in results without them.
        let target = if self.medians.process.is_some() {
            Target::None
        } else {
            PER_CALL
        };
        for tool in ["add", "summarize"] {
            let file = format!("stdio-{tool}.json");
            let id = |s: &str| format!("{file}/{s}");
            let label =
                |words: &str| format!("{calls} sequential `{tool}` calls, whole process, {words}");
            let rmcp_io = label("all on rmcp's stdio transport");
            rows.push(self.row(rmcp_io, &id, "ours-rmcp-io", target));
            let own = label("ours on its own stdio (`serve_stdio`)");
            rows.push(self.row(own, &id, "ours", Target::None));
            let sync = label(&format!("{SYNC} on its own stdio, {HOP}"));
            rows.push(self.row(sync, &id, "ours-sync", Target::None));
        }
    }

    /// Sequential calls over stdio, whole process, counted by callgrind: instructions per
    /// call of the client and the server together, judged on rmcp's transport like the
    /// timed rows; then ours on its own transport, with `async fn` and plain `fn` tools.
    fn process(&self, rows: &mut Vec<Row>) {
        for tool in ["add", "summarize"] {
            let id = |s: &str| format!("process/{tool}/{s}");
            let label = |words: &str| {
                format!(
                    "`{tool}`, one call, whole process (client and server), instructions \
                     (callgrind), {words}"
                )
            };
            let rmcp_io = label("all on rmcp's stdio transport");
            let mut judged = self.row(rmcp_io, &id, "ours-rmcp-io", WHOLE_PROCESS);
            // As users serve it, on its own stdio: well under rmcp with the router kept.
            let (own_target, sync_target) = match tool {
                "add" => (OWN_STDIO_ADD, OWN_STDIO),
                _ => (OWN_STDIO, Target::None),
            };
            let own = label("ours on its own stdio (`serve_stdio`)");
            let mut own = self.row(own, &id, "ours", own_target);
            let sync = label(&format!("{SYNC} on its own stdio, {HOP}"));
            let mut sync = self.row(sync, &id, "ours-sync", sync_target);
            // Ours on its own stdio against the floor, in the hand-written column: one loop
            // with no framework and no runtime (`bench-server floor`).
            let mut floor = Row {
                label: label(
                    "ours on its own stdio against the floor (hand-written column: one loop, no framework, no runtime)",
                ),
                unit: Unit::Instructions,
                ours: self.medians.get(&id("ours")),
                rmcp_default: None,
                rmcp_kept: None,
                hand: self.medians.get(&id("floor")),
                target: match tool {
                    "add" => OVER_THE_FLOOR,
                    _ => Target::None,
                },
            };
            for row in [&mut judged, &mut own, &mut sync, &mut floor] {
                row.unit = Unit::Instructions;
            }
            rows.extend([judged, own, sync, floor]);
        }
        // Over Streamable HTTP, stateless: http-load and the http-server it starts, ours
        // against rmcp's StreamableHttpService over rmcp's macros with the router kept.
        let mut http = self.row(
            "`add`, one call, whole process (client and server), instructions (callgrind), \
             Streamable HTTP, stateless"
                .to_owned(),
            &|s| format!("process/add-http/{s}"),
            "ours",
            WHOLE_PROCESS_HTTP,
        );
        http.unit = Unit::Instructions;
        rows.push(http);
    }

    /// `add` over Streamable HTTP (`http-load`), per mode and number of clients: calls/s,
    /// p50 and p99 of ours against rmcp's service on plain `axum::serve` (in the kept
    /// column: rmcp's macros with the router kept), judged; then the same figures against
    /// rmcp's service with `TCP_NODELAY`, which tell how much is Nagle's alone.
    fn http(&self, rows: &mut Vec<Row>) {
        for (mode, clients) in &self.medians.http {
            let mode_words = match mode.as_str() {
                "stateful" => "with sessions (SSE replies)",
                "stateless" => "stateless (JSON replies)",
                other => other,
            };
            let client_words = match clients {
                1 => "1 client".to_owned(),
                n => format!("{n} concurrent clients"),
            };
            // p50 is judged with one client: with n at once, a call also waits for the
            // others', and p50 approaches n / (calls per second) on any server.
            let p50 = if *clients == 1 {
                Target::Under(0.001)
            } else {
                Target::None
            };
            for (baseline, against) in [
                ("rmcp", ""),
                ("rmcp-nodelay", ", against rmcp with `TCP_NODELAY`"),
            ] {
                for (figure, words, unit, target) in [
                    (
                        "calls_per_second",
                        "calls/s",
                        Unit::CallsPerSecond,
                        Target::AtLeast(&[(Versus::RmcpKept, 1.0)]),
                    ),
                    ("p50", "p50 latency", Unit::Seconds, p50),
                    (
                        "p99",
                        "p99 latency",
                        Unit::Seconds,
                        Target::AtMost(&[(Versus::RmcpKept, 1.0)]),
                    ),
                ] {
                    let id = |style: &str| format!("http/{mode}/{clients}/{style}/{figure}");
                    let m = self.medians;
                    rows.push(Row {
                        label: format!(
                            "`add` over HTTP, {mode_words}, {client_words}, {words}{against}"
                        ),
                        unit,
                        ours: m.get(&id("ours")),
                        rmcp_default: None,
                        rmcp_kept: m.get(&id(baseline)),
                        hand: None,
                        target: if baseline == "rmcp" {
                            target
                        } else {
                            Target::None
                        },
                    });
                }
            }
        }
    }

    /// What one idle session holds on each server (`session-memory`), allocated and
    /// resident, against rmcp's service over its macros with the router kept.
    fn session_memory(&self, rows: &mut Vec<Row>) {
        for (kind, words) in [
            ("allocated", "bytes allocated (counting allocator)"),
            ("resident", "resident memory (`VmRSS`)"),
        ] {
            let m = self.medians;
            let id = |style: &str| format!("session-memory/{kind}/{style}");
            rows.push(Row {
                label: format!("one idle HTTP session (500 open), {words} per session"),
                unit: Unit::Bytes,
                ours: m.get(&id("ours")),
                rmcp_default: None,
                rmcp_kept: m.get(&id("rmcp")),
                hand: None,
                target: Target::None,
            });
        }
    }

    /// Builds of the generated crates (hyperfine). They have one rmcp style, the default
    /// `#[tool_router(server_handler)]`.
    fn builds(&self, rows: &mut Vec<Row>) {
        rows.push(self.row(
            "clean build of a crate with 200 tools (debug)".into(),
            &|s| format!("build-clean.json/{}", s.trim_end_matches("-default")),
            "ours",
            Target::AtMost(&[(Versus::RmcpDefault, 1.0)]),
        ));
        rows.push(self.row(
            "rebuild after editing one tool's body, 200 tools (debug)".into(),
            &|s| format!("build-incremental.json/{}", s.trim_end_matches("-default")),
            "ours",
            Target::None,
        ));
    }
}

/// Every row that has a measurement of ours, in the table's order.
pub(crate) fn rows(medians: &Medians, stdio_calls: Option<u64>) -> Vec<Row> {
    let columns = Columns { medians };
    let mut rows = vec![];
    columns.calls(&mut rows);
    columns.counts(&mut rows);
    columns.listings(&mut rows);
    columns.stdio(&mut rows, stdio_calls);
    columns.process(&mut rows);
    columns.http(&mut rows);
    columns.session_memory(&mut rows);
    columns.builds(&mut rows);
    rows.retain(|r| r.ours.is_some());
    rows
}
