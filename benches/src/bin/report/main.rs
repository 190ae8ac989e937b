//! Reads what `compare.sh` measured (criterion's estimates, hyperfine's JSON exports,
//! callgrind's counts, `http-load`'s summaries and the machine description) and writes
//! the markdown table and the SVG chart.
//!
//! ```text
//! report --criterion DIR --results DIR --markdown FILE --svg FILE
//!        [--wall-seconds S] [--wall-note TEXT]
//! ```

mod data;
mod markdown;
mod runtime;
mod svg;
mod table;

use std::collections::HashMap;
use std::path::PathBuf;

use anyhow::{Context, bail};

use data::{Medians, lookup, machine};
use markdown::markdown;
use runtime::runtime_rows;
use svg::svg;
use table::rows;

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
    medians.read_http(&options.results)?;
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
        &runtime_rows(&medians),
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
