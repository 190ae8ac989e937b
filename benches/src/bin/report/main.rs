//! Reads what `compare.sh` measured (criterion's estimates, hyperfine's JSON exports,
//! callgrind's counts of handler calls, of whole processes and of masking, `http-load`'s
//! summaries, oha's runs in `http-load/` and the machine description, all kept in
//! `benches/results/`) and writes the
//! report into `benches/RESULTS.md` and the SVG chart; or, with `--check`, says whether
//! those files are what the results give. Results without a file (a run of fewer steps, or
//! one older than the file) give a report without its rows.
//!
//! ```text
//! report --results DIR [--criterion DIR] --markdown FILE --svg FILE [--check]
//! ```
//!
//! The report goes between [`REPORT_BEGIN`] and [`REPORT_END`] of the markdown file, whose
//! prose around them is written by hand; a file that does not exist yet is the report alone.
//!
//! With `--criterion` (criterion's own directory, after a run) its figures are read there
//! and kept in `DIR/criterion.json`; without, they are read from that file, so that the
//! report can be written again, and checked, from committed results alone.

mod data;
mod load;
mod markdown;
mod masking;
mod runtime;
mod svg;
mod table;
mod tasks;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

use data::{Medians, lookup, machine};
use load::load_markdown;
use markdown::markdown;
use masking::masking_rows;
use runtime::runtime_rows;
use svg::svg;
use table::rows;
use tasks::task_rows;

struct Options {
    criterion: Option<PathBuf>,
    results: PathBuf,
    markdown: PathBuf,
    svg: PathBuf,
    /// Compare instead of writing.
    check: bool,
}

/// The lines around the report in the markdown file.
const REPORT_BEGIN: &str =
    "<!-- benchmark report: written by benches/compare.sh from benches/results/ -->\n";
const REPORT_END: &str = "<!-- end of benchmark report -->\n";

fn options() -> anyhow::Result<Options> {
    let mut map = HashMap::new();
    let mut args = std::env::args().skip(1);
    let mut check = false;
    while let Some(key) = args.next() {
        if key == "--check" {
            check = true;
            continue;
        }
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
    let options = Options {
        results: path("--results")?,
        markdown: path("--markdown")?,
        svg: path("--svg")?,
        criterion: map.remove("--criterion").map(PathBuf::from),
        check,
    };
    if let Some(unknown) = map.keys().next() {
        bail!("unknown option {unknown}");
    }
    Ok(options)
}

/// `document` with its report replaced by `report`.
fn with_report(document: &str, report: &str) -> anyhow::Result<String> {
    let begin = document
        .find(REPORT_BEGIN)
        .with_context(|| format!("no line {REPORT_BEGIN:?}"))?
        + REPORT_BEGIN.len();
    let end = document[begin..]
        .find(REPORT_END)
        .with_context(|| format!("no line {REPORT_END:?} after {REPORT_BEGIN:?}"))?
        + begin;
    Ok(format!(
        "{}{report}{}",
        &document[..begin],
        &document[end..]
    ))
}

/// The markdown file as it is to be: its report replaced, or the report alone where the
/// file does not exist yet.
fn document(path: &Path, report: &str) -> anyhow::Result<String> {
    match std::fs::read_to_string(path) {
        Ok(found) => with_report(&found, report).with_context(|| format!("in {}", path.display())),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(report.to_owned()),
        Err(error) => Err(error).with_context(|| format!("reading {}", path.display())),
    }
}

/// Writes `text` to `path`, or with `check` fails unless `path` holds it already.
fn put(path: &Path, text: &str, check: bool) -> anyhow::Result<()> {
    if !check {
        return Ok(std::fs::write(path, text)?);
    }
    let found =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    if found == text {
        return Ok(());
    }
    let line = found
        .lines()
        .zip(text.lines())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| found.lines().count().min(text.lines().count()));
    bail!(
        "{} is not what the results give, from line {}: it has\n  {}\nwhere the results give\n  {}\n\
         (benches/compare.sh writes it; a change to the report's code needs the report written \
         again from benches/results/: cargo run -p mcp-tool-benches --bin report -- --results \
         benches/results --markdown benches/RESULTS.md --svg benches/perf.svg)",
        path.display(),
        line + 1,
        found.lines().nth(line).unwrap_or("(the end of the file)"),
        text.lines().nth(line).unwrap_or("(the end of the file)"),
    )
}

fn run(options: &Options) -> anyhow::Result<()> {
    let mut medians = Medians::default();
    match &options.criterion {
        Some(dir) if !options.check => medians.read_criterion(dir, &options.results)?,
        _ => medians.read_criterion_summary(&options.results)?,
    }
    for name in [
        "stdio-add",
        "stdio-summarize",
        "build-clean",
        "build-incremental",
    ] {
        medians.read_hyperfine(&options.results, name)?;
    }
    medians.read_instructions(&options.results.join("instructions.txt"))?;
    let process = options.results.join("process-instructions.txt");
    if !medians.read_process_instructions(&process)? {
        eprintln!(
            "report: no {}, so the whole process's instructions per call were not measured",
            process.display()
        );
    }
    medians.read_http(&options.results)?;
    medians.read_session_memory(&options.results.join("session-memory.json"))?;
    let machine = machine(&options.results);
    let stdio_calls = lookup(&machine, "stdio calls")
        .map(str::parse)
        .transpose()
        .context("stdio calls in machine.txt")?;
    let rows = rows(&medians, stdio_calls);
    if rows.is_empty() {
        bail!("no results under {}", options.results.display());
    }
    let masking = masking_rows(&options.results)?;
    let text = markdown(
        &rows,
        medians.process,
        &runtime_rows(&medians),
        &task_rows(&medians),
        &masking,
        &machine,
    );
    let full = text + &load_markdown(&options.results, &medians)?;
    let document = document(&options.markdown, &full)?;
    put(&options.markdown, &document, options.check)?;
    put(&options.svg, &svg(&rows), options.check)?;
    if !options.check {
        print!("{full}");
    }
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
