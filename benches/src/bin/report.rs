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
/// `file.json/command-name` for hyperfine's exports.
#[derive(Default)]
struct Medians(HashMap<String, f64>);

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
        self.0.insert(id.to_owned(), median * 1e-9);
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
                self.0.insert(format!("{name}.json/{command}"), median);
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
                totals
                    .entry(((*tool).to_owned(), (*style).to_owned()))
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
                self.0
                    .insert(format!("instructions/{tool}/{style}"), count - setup);
            }
        }
        Ok(())
    }

    fn get(&self, id: &str) -> Option<f64> {
        self.0.get(id).copied()
    }
}

#[derive(Clone, Copy)]
enum Target {
    /// Ours / rmcp macros at most the first, ours / hand-written at most the second.
    Ratios(f64, f64),
    /// Ours / rmcp macros at most this.
    VersusRmcp(f64),
    /// Ours at most this many seconds.
    Under(f64),
    None,
}

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
    rmcp_stored: Option<f64>,
    hand: Option<f64>,
    /// Whether "rmcp macros" means the default (router rebuilt per request) or the kept router.
    versus_stored: bool,
    target: Target,
}

impl Row {
    fn rmcp(&self) -> Option<f64> {
        if self.versus_stored {
            self.rmcp_stored
        } else {
            self.rmcp_default
        }
    }

    fn ratio_rmcp(&self) -> Option<f64> {
        Some(self.ours? / self.rmcp()?)
    }

    fn ratio_hand(&self) -> Option<f64> {
        Some(self.ours? / self.hand?)
    }

    /// The target in words and whether today's figures meet it.
    fn verdict(&self) -> Option<(String, bool)> {
        match self.target {
            Target::Ratios(rmcp, hand) => {
                let met = self.ratio_rmcp()? <= rmcp && self.ratio_hand()? <= hand;
                Some((format!("ours/rmcp ≤ {rmcp:.2}, ours/hand ≤ {hand:.2}"), met))
            }
            Target::VersusRmcp(max) => {
                let met = self.ratio_rmcp()? <= max;
                let words = if max < 1.0 {
                    format!("≥ {:.0}× faster than rmcp", 1.0 / max)
                } else {
                    format!("ours/rmcp ≤ {max:.2}")
                };
                Some((words, met))
            }
            Target::Under(seconds) => {
                Some((format!("< {}", duration(seconds)), self.ours? < seconds))
            }
            Target::None => None,
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

fn rows(m: &Medians) -> Vec<Row> {
    let styles = |id: &dyn Fn(&str) -> String| {
        (
            m.get(&id("ours")),
            m.get(&id("rmcp-default")),
            m.get(&id("rmcp-stored")),
            m.get(&id("hand")),
        )
    };
    let row = |label: String, id: &dyn Fn(&str) -> String, target: Target, versus_stored| {
        let (ours, rmcp_default, rmcp_stored, hand) = styles(id);
        Row {
            label,
            unit: Unit::Seconds,
            ours,
            rmcp_default,
            rmcp_stored,
            hand,
            versus_stored,
            target,
        }
    };
    let per_call = Target::Ratios(1.0, 1.05);
    let mut rows = vec![
        row(
            "`add`, one call, rmcp client over duplex".into(),
            &|s| format!("call-add-duplex/{s}"),
            per_call,
            false,
        ),
        row(
            "`add`, one call, handler only".into(),
            &|s| format!("call-add-handler/{s}"),
            per_call,
            false,
        ),
        row(
            "`summarize` (1 KiB nested in, structured out), one call, duplex".into(),
            &|s| format!("call-summarize-duplex/{s}"),
            per_call,
            false,
        ),
        row(
            "`summarize`, one call, handler only".into(),
            &|s| format!("call-summarize-handler/{s}"),
            per_call,
            false,
        ),
    ];
    for tool in ["add", "summarize"] {
        let count = |style: &str| m.get(&format!("instructions/{tool}/{style}"));
        rows.push(Row {
            label: format!("`{tool}`, one call, handler only, instructions (callgrind)"),
            unit: Unit::Instructions,
            ours: count("ours"),
            rmcp_default: count("rmcp-default"),
            rmcp_stored: count("rmcp-stored"),
            hand: count("hand"),
            versus_stored: false,
            target: per_call,
        });
    }
    for n in [10, 100, 1000] {
        let target = if n == 1000 {
            Target::VersusRmcp(0.1)
        } else {
            Target::None
        };
        rows.push(row(
            format!("`tools/list`, {n} tools, duplex"),
            &|s| format!("list-duplex/{s}/{n}"),
            target,
            false,
        ));
        rows.push(row(
            format!("`tools/list`, {n} tools, handler only"),
            &|s| format!("list-handler/{s}/{n}"),
            target,
            false,
        ));
    }
    rows.push(row(
        "start-up with 1,000 tools, to handshake done".into(),
        &|s| format!("startup/{s}/1000"),
        Target::Under(0.020),
        true,
    ));
    for (file, label) in [
        (
            "stdio-add.json",
            "10,000 sequential `add` calls over stdio, whole process",
        ),
        (
            "stdio-summarize.json",
            "10,000 sequential `summarize` calls over stdio, whole process",
        ),
    ] {
        rows.push(row(
            label.into(),
            &|s| format!("{file}/{s}"),
            Target::Ratios(1.0, 1.05),
            false,
        ));
    }
    rows.push(row(
        "clean build of a crate with 200 tools (debug)".into(),
        &|s| format!("build-clean.json/{}", s.trim_end_matches("-default")),
        Target::VersusRmcp(1.0),
        false,
    ));
    rows.push(row(
        "rebuild after editing one tool's body, 200 tools (debug)".into(),
        &|s| format!("build-incremental.json/{}", s.trim_end_matches("-default")),
        Target::None,
        false,
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

fn markdown(
    rows: &[Row],
    machine: &[(String, String)],
    wall: Option<f64>,
    wall_note: Option<&str>,
) -> String {
    let get = |key: &str| {
        machine
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .unwrap_or("unknown")
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Measured by `benches/compare.sh` on {} ({} cores), {}, {}, commit {}{}. \
         Medians; a ratio below 1 means ours takes less time. \
         \"rmcp macros\" is `#[tool_router]` with the default `#[tool_handler]`, which rebuilds \
         the router on every request; \"router kept\" is `#[tool_handler(router = self.tool_router)]`. \
         Start-up compares with the kept router (the default builds nothing until a request).\n",
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
        "| benchmark | ours | rmcp macros | rmcp, router kept | hand-written | ours / rmcp macros | ours / hand-written | target |\n\
         |---|---:|---:|---:|---:|---:|---:|---|\n",
    );
    for row in rows {
        let target = match row.verdict() {
            Some((words, true)) => format!("met: {words}"),
            Some((words, false)) => format!("**missed**: {words}"),
            None => String::new(),
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {}{} | {} | {} |",
            row.label,
            cell(row.ours, row.unit),
            cell(row.rmcp_default, row.unit),
            cell(row.rmcp_stored, row.unit),
            cell(row.hand, row.unit),
            ratio(row.ratio_rmcp()),
            if row.versus_stored { " (kept)" } else { "" },
            ratio(row.ratio_hand()),
            target,
        );
    }
    out.push_str(
        "\n\"duplex\": an rmcp client and the server in one process over `tokio::io::duplex`, \
         client encode and decode included; \"handler only\": the server's `ServerHandler` method \
         called directly, without transport or JSON encoding; \"instructions\": the same handler call \
         counted by callgrind, which the other users of a shared machine do not disturb. Whole-process and build figures are \
         hyperfine medians (the whole-process runs interleaved, one run of each server a round); builds are of a generated crate with 200 tools in each style, \
         dependencies already built.\n\n\
         ![Time ratios of mcp-tool against rmcp's macros and a hand-written server](benches/perf.svg)\n",
    );
    out
}

fn svg(rows: &[Row]) -> String {
    let bars: Vec<(&str, Option<f64>, Option<f64>)> = rows
        .iter()
        .map(|r| (r.label.as_str(), r.ratio_rmcp(), r.ratio_hand()))
        .collect();
    let all: Vec<f64> = bars
        .iter()
        .flat_map(|(_, a, b)| [*a, *b])
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
    let (label_width, plot_width, row_height, top) = (440.0, 460.0, 34.0, 70.0);
    let width = label_width + plot_width + 40.0;
    let height = top + row_height * bars.len() as f64 + 50.0;
    let x = |r: f64| label_width + (r.log10() - low) / (high - low) * plot_width;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(
        out,
        r##"<rect width="100%" height="100%" fill="#ffffff"/>
<text x="10" y="22" font-size="15" font-weight="bold">mcp-tool: time of ours divided by time of the other (log scale; left of 1 = ours faster)</text>
<rect x="{lx}" y="34" width="12" height="12" fill="#3b6fb6"/><text x="{l1}" y="44">ours / rmcp macros</text>
<rect x="{lx2}" y="34" width="12" height="12" fill="#e08a2e"/><text x="{l2}" y="44">ours / hand-written</text>"##,
        lx = label_width,
        l1 = label_width + 16.0,
        lx2 = label_width + 170.0,
        l2 = label_width + 186.0,
    );
    let bottom = top + row_height * bars.len() as f64;
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
    for (i, (label, rmcp, hand)) in bars.iter().enumerate() {
        let y = top + row_height * i as f64;
        let text = label
            .replace('`', "")
            .replace('&', "&amp;")
            .replace('<', "&lt;");
        let _ = writeln!(
            out,
            r#"<text x="{tx}" y="{ty:.1}" text-anchor="end">{text}</text>"#,
            tx = label_width - 8.0,
            ty = y + row_height / 2.0 + 4.0,
        );
        for (offset, value, colour) in [(4.0, rmcp, "#3b6fb6"), (17.0, hand, "#e08a2e")] {
            let Some(r) = value else { continue };
            let (a, b) = (x(1.0), x(*r));
            let (left, w) = if b < a { (b, a - b) } else { (a, b - a) };
            let _ = writeln!(
                out,
                r#"<rect x="{left:.1}" y="{by:.1}" width="{w:.1}" height="11" fill="{colour}"/>"#,
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
    let rows = rows(&medians);
    if rows.is_empty() {
        bail!("no results under {}", options.criterion.display());
    }
    let text = markdown(
        &rows,
        &machine(&options.results),
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
