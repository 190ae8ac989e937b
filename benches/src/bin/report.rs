//! Reads what `compare.sh` measured (criterion's estimates, hyperfine's JSON exports and
//! the machine description) and writes the markdown table and the SVG chart.
//!
//! ```text
//! report --criterion DIR --results DIR --markdown FILE --svg FILE
//!        [--wall-seconds S] [--wall-note TEXT]
//! ```

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use serde_json::Value;

struct Options {
    criterion: PathBuf,
    results: PathBuf,
    markdown: PathBuf,
    svg: PathBuf,
    wall_seconds: Option<f64>,
    /// How the run started, said after its wall time ("from an empty target directory").
    wall_note: Option<String>,
}

fn options() -> anyhow::Result<Options> {
    let mut map = HashMap::new();
    let mut args = std::env::args().skip(1);
    while let Some(key) = args.next() {
        let value = args
            .next()
            .with_context(|| format!("{key} needs a value"))?;
        map.insert(key, value);
    }
    let mut path = |key: &str| {
        map.remove(key)
            .map(PathBuf::from)
            .with_context(|| format!("missing {key}"))
    };
    Ok(Options {
        criterion: path("--criterion")?,
        results: path("--results")?,
        markdown: path("--markdown")?,
        svg: path("--svg")?,
        wall_seconds: map
            .remove("--wall-seconds")
            .map(|s| s.parse())
            .transpose()?,
        wall_note: map.remove("--wall-note"),
    })
}

/// Medians in seconds, by criterion's full id (`group/function[/value]`) or by
/// `file.json/command-name` for hyperfine's exports; instruction counts by
/// `instructions/tool/style`.
#[derive(Default)]
struct Medians {
    values: HashMap<String, f64>,
    /// The `(tool, style)` pairs of `instructions.txt`, in the order they first appear.
    counted: Vec<(String, String)>,
}

impl Medians {
    fn read_criterion(&mut self, dir: &Path) -> anyhow::Result<()> {
        if !dir.exists() {
            return Ok(());
        }
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n == "new") {
                    self.read_estimate(&path)?;
                } else {
                    self.read_criterion(&path)?;
                }
            }
        }
        Ok(())
    }

    fn read_estimate(&mut self, dir: &Path) -> anyhow::Result<()> {
        let (Ok(benchmark), Ok(estimates)) = (
            std::fs::read_to_string(dir.join("benchmark.json")),
            std::fs::read_to_string(dir.join("estimates.json")),
        ) else {
            return Ok(());
        };
        let benchmark: Value = serde_json::from_str(&benchmark)?;
        let estimates: Value = serde_json::from_str(&estimates)?;
        let id = benchmark["full_id"].as_str().context("full_id")?;
        let median = estimates["median"]["point_estimate"]
            .as_f64()
            .context("median")?;
        self.values.insert(id.to_owned(), median * 1e-9);
        Ok(())
    }

    /// hyperfine exports: `NAME.json`, or rounds `NAME-1.json`, `NAME-2.json`, ... whose
    /// times are pooled; the median of each command goes under `NAME.json/command`.
    fn read_hyperfine(&mut self, dir: &Path, name: &str) -> anyhow::Result<()> {
        let mut times: HashMap<String, Vec<f64>> = HashMap::new();
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            let Some(file) = path.file_name().and_then(|n| n.to_str()) else {
                continue;
            };
            let Some(rest) = file.strip_prefix(name) else {
                continue;
            };
            let is_round = rest
                .strip_prefix('-')
                .and_then(|r| r.strip_suffix(".json"))
                .is_some_and(|r| r.parse::<u32>().is_ok());
            if rest != ".json" && !is_round {
                continue;
            }
            let export: Value = serde_json::from_str(&std::fs::read_to_string(&path)?)?;
            for result in export["results"].as_array().context("results")? {
                let command = result["command"].as_str().context("command")?;
                let runs = result["times"].as_array().context("times")?;
                times
                    .entry(command.to_owned())
                    .or_default()
                    .extend(runs.iter().filter_map(Value::as_f64));
            }
        }
        for (command, mut runs) in times {
            runs.sort_by(f64::total_cmp);
            let mid = runs.len() / 2;
            let median = if runs.len() % 2 == 1 {
                runs[mid]
            } else {
                (runs[mid - 1] + runs[mid]) / 2.0
            };
            if !runs.is_empty() {
                self.values.insert(format!("{name}.json/{command}"), median);
            }
        }
        Ok(())
    }

    /// `instructions.txt`: lines of `tool style calls total`; per call, less the setup.
    fn read_instructions(&mut self, path: &Path) -> anyhow::Result<()> {
        let Ok(text) = std::fs::read_to_string(path) else {
            return Ok(());
        };
        let mut totals: HashMap<(String, String), Vec<(f64, f64)>> = HashMap::new();
        for line in text.lines() {
            let fields: Vec<&str> = line.split_whitespace().collect();
            if let [tool, style, calls, total] = fields.as_slice() {
                let key = ((*tool).to_owned(), (*style).to_owned());
                if !self.counted.contains(&key) {
                    self.counted.push(key.clone());
                }
                totals
                    .entry(key)
                    .or_default()
                    .push((calls.parse()?, total.parse()?));
            }
        }
        let per_call = |points: &[(f64, f64)]| -> Option<f64> {
            let (low, high) = (points.first()?, points.last()?);
            (high.0 > low.0).then(|| (high.1 - low.1) / (high.0 - low.0))
        };
        for ((tool, style), points) in &totals {
            let setup = totals
                .get(&(tool.clone(), "setup".to_owned()))
                .and_then(|p| per_call(p))
                .unwrap_or(0.0);
            if let Some(count) = per_call(points) {
                self.values
                    .insert(format!("instructions/{tool}/{style}"), count - setup);
            }
        }
        Ok(())
    }

    fn get(&self, id: &str) -> Option<f64> {
        self.values.get(id).copied()
    }
}

/// What a ratio divides ours by: one of the three ratio columns.
#[derive(Clone, Copy, PartialEq)]
enum Versus {
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
enum Target {
    /// Every named ratio at most its bound.
    AtMost(&'static [(Versus, f64)]),
    /// Ours at most this many seconds.
    Under(f64),
    None,
}

/// Per call and whole process: no slower than rmcp's macros, either way they are used,
/// and within 5% of the hand-written floor.
const PER_CALL: Target = Target::AtMost(&[
    (Versus::RmcpDefault, 1.0),
    (Versus::RmcpKept, 1.0),
    (Versus::Hand, 1.05),
]);

#[derive(Clone, Copy, PartialEq)]
enum Unit {
    Seconds,
    Instructions,
}

struct Row {
    label: String,
    unit: Unit,
    ours: Option<f64>,
    rmcp_default: Option<f64>,
    rmcp_kept: Option<f64>,
    hand: Option<f64>,
    target: Target,
}

impl Row {
    fn ratio(&self, versus: Versus) -> Option<f64> {
        let other = match versus {
            Versus::RmcpDefault => self.rmcp_default,
            Versus::RmcpKept => self.rmcp_kept,
            Versus::Hand => self.hand,
        }?;
        Some(self.ours? / other)
    }

    /// The target cell: which ratios it judges, with their bounds, and whether today's
    /// figures meet each.
    fn verdict(&self) -> String {
        match self.target {
            Target::AtMost(bounds) => {
                let (mut met, mut missed, mut unmeasured) = (vec![], vec![], vec![]);
                for &(versus, bound) in bounds {
                    let words = format!("{} ≤ {bound:.2}", versus.name());
                    match self.ratio(versus) {
                        Some(ratio) if ratio <= bound => met.push(words),
                        Some(_) => missed.push(words),
                        None => unmeasured.push(words),
                    }
                }
                [
                    ("**missed**", missed),
                    ("not measured", unmeasured),
                    ("met", met),
                ]
                .into_iter()
                .filter(|(_, list)| !list.is_empty())
                .map(|(verdict, list)| format!("{verdict}: {}", list.join(", ")))
                .collect::<Vec<_>>()
                .join("; ")
            }
            Target::Under(seconds) => {
                let words = format!("ours < {}", duration(seconds));
                match self.ours {
                    Some(ours) if ours < seconds => format!("met: {words}"),
                    Some(_) => format!("**missed**: {words}"),
                    None => format!("not measured: {words}"),
                }
            }
            Target::None => String::new(),
        }
    }
}

fn duration(seconds: f64) -> String {
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

/// `10000` as `10,000`.
fn thousands(n: u64) -> String {
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

/// How a row names a variant of ours counted by `call-count`.
fn variant_words(style: &str) -> String {
    match style {
        "ours" => String::new(),
        "ours-async" => ", ours as an `async fn`".into(),
        other => format!(", ours as `{other}`"),
    }
}

fn rows(m: &Medians, stdio_calls: Option<u64>) -> Vec<Row> {
    // The measurement of each column, by the name compare.sh gives its style.
    let row = |label: String, id: &dyn Fn(&str) -> String, ours: &str, target: Target| Row {
        label,
        unit: Unit::Seconds,
        ours: m.get(&id(ours)),
        rmcp_default: m.get(&id("rmcp-default")),
        rmcp_kept: m.get(&id("rmcp-stored")),
        hand: m.get(&id("hand")),
        target,
    };
    let mut rows = vec![
        row(
            "`add`, one call, rmcp client over duplex".into(),
            &|s| format!("call-add-duplex/{s}"),
            "ours",
            PER_CALL,
        ),
        row(
            "`add`, one call, handler only".into(),
            &|s| format!("call-add-handler/{s}"),
            "ours",
            PER_CALL,
        ),
        row(
            "`summarize` (1 KiB nested in, structured out), one call, duplex".into(),
            &|s| format!("call-summarize-duplex/{s}"),
            "ours",
            PER_CALL,
        ),
        row(
            "`summarize`, one call, handler only".into(),
            &|s| format!("call-summarize-handler/{s}"),
            "ours",
            PER_CALL,
        ),
    ];
    // One row per variant of ours in instructions.txt, each against the same baselines.
    for (tool, style) in &m.counted {
        if COUNT_BASELINES.contains(&style.as_str()) {
            continue;
        }
        let mut row = row(
            format!(
                "`{tool}`, one call, handler only, instructions (callgrind){}",
                variant_words(style)
            ),
            &|s| format!("instructions/{tool}/{s}"),
            style,
            PER_CALL,
        );
        row.unit = Unit::Instructions;
        rows.push(row);
    }
    for n in [10, 100, 1000] {
        // The listing target is against rmcp's default, which rebuilds the listing.
        let target = if n == 1000 {
            Target::AtMost(&[(Versus::RmcpDefault, 0.1)])
        } else {
            Target::None
        };
        rows.push(row(
            format!("`tools/list`, {n} tools, duplex"),
            &|s| format!("list-duplex/{s}/{n}"),
            "ours",
            target,
        ));
        rows.push(row(
            format!("`tools/list`, {n} tools, handler only"),
            &|s| format!("list-handler/{s}/{n}"),
            "ours",
            target,
        ));
    }
    rows.push(row(
        "start-up with 1,000 tools, to handshake done".into(),
        &|s| format!("startup/{s}/1000"),
        "ours",
        Target::Under(0.020),
    ));
    let calls = stdio_calls.map_or_else(|| "N".to_owned(), thousands);
    for tool in ["add", "summarize"] {
        let file = format!("stdio-{tool}.json");
        rows.push(row(
            format!(
                "{calls} sequential `{tool}` calls, whole process, all on rmcp's stdio transport"
            ),
            &|s| format!("{file}/{s}"),
            "ours-rmcp-io",
            PER_CALL,
        ));
        rows.push(row(
            format!(
                "{calls} sequential `{tool}` calls, whole process, ours on its own stdio (`serve_stdio`)"
            ),
            &|s| format!("{file}/{s}"),
            "ours",
            Target::None,
        ));
    }
    // The generated crates have one rmcp style, the default `#[tool_router(server_handler)]`.
    rows.push(row(
        "clean build of a crate with 200 tools (debug)".into(),
        &|s| format!("build-clean.json/{}", s.trim_end_matches("-default")),
        "ours",
        Target::AtMost(&[(Versus::RmcpDefault, 1.0)]),
    ));
    rows.push(row(
        "rebuild after editing one tool's body, 200 tools (debug)".into(),
        &|s| format!("build-incremental.json/{}", s.trim_end_matches("-default")),
        "ours",
        Target::None,
    ));
    rows.retain(|r| r.ours.is_some());
    rows
}

fn machine(results: &Path) -> Vec<(String, String)> {
    std::fs::read_to_string(results.join("machine.txt"))
        .unwrap_or_default()
        .lines()
        .filter_map(|line| line.split_once(": "))
        .map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned()))
        .collect()
}

fn lookup<'a>(machine: &'a [(String, String)], key: &str) -> Option<&'a str> {
    machine
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

fn markdown(
    rows: &[Row],
    machine: &[(String, String)],
    wall: Option<f64>,
    wall_note: Option<&str>,
) -> String {
    let get = |key: &str| lookup(machine, key).unwrap_or("unknown");
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Measured by `benches/compare.sh` on {} ({} cores), {}, {}, commit {}{}. \
         Medians; a ratio below 1 means ours takes less time. \
         \"rmcp macros (default)\" is `#[tool_router]` with the default `#[tool_handler]`, which \
         rebuilds the router on every request; \"rmcp (router kept)\" is the same tools with \
         `#[tool_handler(router = self.tool_router)]`; \"hand-written\" is a `ServerHandler` \
         written out, the floor. The target column names the ratios it judges: ours/default, \
         ours/kept and ours/hand are the three ratio columns.\n",
        get("cpu"),
        get("cores"),
        get("os"),
        get("rustc"),
        get("commit"),
        wall.map(|w| format!(
            "; the whole run took {:.1} min{}",
            w / 60.0,
            wall_note.map(|n| format!(", {n}")).unwrap_or_default()
        ))
        .unwrap_or_default(),
    );
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
         every server, ours included, runs on `rmcp::transport::stdio()`; the row below each shows \
         ours on the stdio transport its users get from `serve_stdio`. Start-up compares with the \
         kept router (the default builds nothing until a request). Whole-process and build figures \
         are hyperfine medians (whole process: {rounds}); builds are of a generated crate with \
         200 tools in each style, dependencies already built, rmcp's in its one style \
         (`#[tool_router(server_handler)]`, the default). Every style lists the same tools; the \
         hand-written server lists ours' schemas byte for byte, rmcp's macros their own (see \
         `benches/tests/same_tools.rs`).\n\n\
         ![Time ratios of mcp-tool against rmcp's macros and a hand-written server](benches/perf.svg)\n",
    );
    out
}

fn svg(rows: &[Row]) -> String {
    const SERIES: [(Versus, &str, &str); 3] = [
        (
            Versus::RmcpDefault,
            "ours / rmcp macros (default)",
            "#3b6fb6",
        ),
        (Versus::RmcpKept, "ours / rmcp (router kept)", "#5aa469"),
        (Versus::Hand, "ours / hand-written", "#e08a2e"),
    ];
    let all: Vec<f64> = rows
        .iter()
        .flat_map(|r| SERIES.map(|(versus, _, _)| r.ratio(versus)))
        .flatten()
        .filter(|r| *r > 0.0)
        .collect();
    let low = all
        .iter()
        .copied()
        .fold(1.0f64, f64::min)
        .log10()
        .floor()
        .min(-1.0);
    let high = all
        .iter()
        .copied()
        .fold(1.0f64, f64::max)
        .log10()
        .ceil()
        .max(1.0);
    let (label_width, plot_width, bar, top) = (560.0, 460.0, 11.0, 70.0);
    let row_height = 4.0 + (bar + 2.0) * SERIES.len() as f64 + 6.0;
    let width = label_width + plot_width + 40.0;
    let height = top + row_height * rows.len() as f64 + 50.0;
    let x = |r: f64| label_width + (r.log10() - low) / (high - low) * plot_width;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(
        out,
        r##"<rect width="100%" height="100%" fill="#ffffff"/>
<text x="10" y="22" font-size="15" font-weight="bold">mcp-tool: time of ours divided by time of the other (log scale; left of 1 = ours faster)</text>"##
    );
    let mut legend_x = 10.0;
    for (_, name, colour) in SERIES {
        let _ = writeln!(
            out,
            r#"<rect x="{legend_x}" y="34" width="12" height="12" fill="{colour}"/><text x="{tx}" y="44">{name}</text>"#,
            tx = legend_x + 16.0,
        );
        legend_x += 230.0;
    }
    let bottom = top + row_height * rows.len() as f64;
    let mut exponent = low as i32;
    while exponent <= high as i32 {
        for mantissa in [1.0, 2.0, 5.0] {
            let r = mantissa * 10f64.powi(exponent);
            if r.log10() > high + 1e-9 {
                continue;
            }
            let gx = x(r);
            let (stroke, dash) = if mantissa == 1.0 {
                (if r == 1.0 { "#000000" } else { "#999999" }, "")
            } else {
                ("#dddddd", r#" stroke-dasharray="3,3""#)
            };
            let _ = writeln!(
                out,
                r#"<line x1="{gx:.1}" y1="{top}" x2="{gx:.1}" y2="{bottom}" stroke="{stroke}"{dash}/>"#
            );
            let _ = writeln!(
                out,
                r##"<text x="{gx:.1}" y="{ty}" text-anchor="middle" fill="#444444">{r}</text>"##,
                ty = bottom + 16.0,
            );
        }
        exponent += 1;
    }
    for (i, row) in rows.iter().enumerate() {
        let y = top + row_height * i as f64;
        let text = row
            .label
            .replace('`', "")
            .replace('&', "&amp;")
            .replace('<', "&lt;");
        let _ = writeln!(
            out,
            r#"<text x="{tx}" y="{ty:.1}" text-anchor="end">{text}</text>"#,
            tx = label_width - 8.0,
            ty = y + row_height / 2.0 + 4.0,
        );
        for (k, (versus, _, colour)) in SERIES.iter().enumerate() {
            let Some(r) = row.ratio(*versus) else {
                continue;
            };
            let offset = 4.0 + (bar + 2.0) * k as f64;
            let (a, b) = (x(1.0), x(r));
            let (left, w) = if b < a { (b, a - b) } else { (a, b - a) };
            let _ = writeln!(
                out,
                r#"<rect x="{left:.1}" y="{by:.1}" width="{w:.1}" height="{bar}" fill="{colour}"/>"#,
                by = y + offset,
            );
            let (anchor, lx) = if b < a {
                ("end", b - 3.0)
            } else {
                ("start", b + 3.0)
            };
            let _ = writeln!(
                out,
                r#"<text x="{lx:.1}" y="{ly:.1}" text-anchor="{anchor}" font-size="10">{r:.2}</text>"#,
                ly = y + offset + 9.5,
            );
        }
    }
    out.push_str("</svg>\n");
    out
}

fn run(options: &Options) -> anyhow::Result<()> {
    let mut medians = Medians::default();
    medians.read_criterion(&options.criterion)?;
    for name in [
        "stdio-add",
        "stdio-summarize",
        "build-clean",
        "build-incremental",
    ] {
        medians.read_hyperfine(&options.results, name)?;
    }
    medians.read_instructions(&options.results.join("instructions.txt"))?;
    let machine = machine(&options.results);
    let stdio_calls = lookup(&machine, "stdio calls")
        .map(str::parse)
        .transpose()
        .context("stdio calls in machine.txt")?;
    let rows = rows(&medians, stdio_calls);
    if rows.is_empty() {
        bail!(
            "no results under {} or {}",
            options.criterion.display(),
            options.results.display()
        );
    }
    let text = markdown(
        &rows,
        &machine,
        options.wall_seconds,
        options.wall_note.as_deref(),
    );
    std::fs::write(&options.markdown, &text)?;
    std::fs::write(&options.svg, svg(&rows))?;
    print!("{text}");
    Ok(())
}

fn main() -> std::process::ExitCode {
    match options().and_then(|options| run(&options)) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("report: {error:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
