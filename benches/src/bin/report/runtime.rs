//! The second table: the same tools defined at run time (`RuntimeTool`) against their
//! `#[mcp_tool]` versions, in the same run, with the goal of the first within 25 % of the
//! second (a run-time tool reads its arguments by name from a map, where the attribute's
//! code knows them); and the attribute tools once the server's list has changed, which must cost
//! the tools that are not defined at run time nothing.

use std::fmt::Write as _;

use crate::data::{Measure, Medians};
use crate::table::{Unit, cell, ratio};

/// The goal: a tool defined at run time within 25 % of the same attribute tool.
const GOAL: f64 = 1.25;

pub(crate) struct RuntimeRow {
    label: String,
    unit: Unit,
    attribute: Option<Measure>,
    runtime: Option<Measure>,
    /// The attribute tool on a server to which a tool was added and removed.
    changed: Option<Measure>,
}

impl RuntimeRow {
    fn ratio(&self, of: Option<Measure>) -> Option<Measure> {
        Some(of?.ratio(self.attribute?))
    }
}

/// The rows that have both figures: criterion's `runtime-tools` groups, then the
/// instruction counts of the styles `ours`, `ours-runtime` and `ours-changed`.
pub(crate) fn runtime_rows(medians: &Medians) -> Vec<RuntimeRow> {
    // A row of the figures `id(style)`, with the styles of the attribute tools, the
    // run-time tools and the attribute tools on a changed list named.
    let row = |label: String, unit, id: &dyn Fn(&str) -> String, styles: [&str; 3]| RuntimeRow {
        label,
        unit,
        attribute: medians.get(&id(styles[0])),
        runtime: medians.get(&id(styles[1])),
        changed: medians.get(&id(styles[2])),
    };
    let timed = ["attribute", "runtime", "attribute-changed"];
    let counted = ["ours", "ours-runtime", "ours-changed"];
    let instructions = "handler only, instructions (callgrind)";
    let mut rows = vec![];
    for (kind, words) in [("duplex", "duplex"), ("handler", "handler only")] {
        rows.push(row(
            format!("`tools/list`, 2 tools, {words}"),
            Unit::Seconds,
            &|style| format!("runtime-tools/list-{kind}/{style}"),
            timed,
        ));
    }
    rows.push(row(
        format!("`tools/list`, 2 tools, {instructions}"),
        Unit::Instructions,
        &|style| format!("instructions/list/{style}"),
        counted,
    ));
    for tool in ["add", "summarize"] {
        for (kind, words) in [("duplex", "duplex"), ("handler", "handler only")] {
            rows.push(row(
                format!("`{tool}`, one call, {words}"),
                Unit::Seconds,
                &|style| format!("runtime-tools/call-{tool}-{kind}/{style}"),
                timed,
            ));
        }
        rows.push(row(
            format!("`{tool}`, one call, {instructions}"),
            Unit::Instructions,
            &|style| format!("instructions/{tool}/{style}"),
            counted,
        ));
    }
    rows.retain(|row| row.attribute.is_some() && row.runtime.is_some());
    rows
}

/// The table with its paragraph, or nothing when no row was measured.
pub(crate) fn runtime_markdown(out: &mut String, rows: &[RuntimeRow]) {
    if rows.is_empty() {
        return;
    }
    out.push_str(
        "\nTools defined at run time (`RuntimeTool`, reading their arguments by name through \
         `Arguments` and returning `Structured` output) against the same tools written with \
         `#[mcp_tool]`, in the same run (criterion's benchmark `runtime_tools`, and the \
         instruction counts above); both list the same tools byte for byte and answer alike \
         (`benches/tests/same_tools.rs`). \"attribute, list changed\" is the attribute tools on a \
         server to which a tool was added and then removed, so that each call finds its tool \
         in the shared snapshot of a changed list: what tools that are not defined at run time \
         pay for the feature.\n\n\
         | benchmark | attribute | run time | attribute, list changed | run time / attribute \
         | list changed / attribute | goal |\n\
         |---|---:|---:|---:|---:|---:|---|\n",
    );
    for row in rows {
        let runtime = row.ratio(row.runtime);
        // Met or missed only when the run's whole spread is on one side of the goal.
        let words = format!("run time / attribute ≤ {GOAL:.2}");
        let verdict = match runtime {
            Some(r) if r.high <= GOAL => format!("met: {words}"),
            Some(r) if r.low > GOAL => format!("**missed**: {words}"),
            Some(r) => format!("within noise: {words} ({:.2}–{:.2})", r.low, r.high),
            None => String::new(),
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {verdict} |",
            row.label,
            cell(row.attribute, row.unit),
            cell(row.runtime, row.unit),
            cell(row.changed, row.unit),
            ratio(runtime.map(|r| r.median)),
            ratio(row.ratio(row.changed).map(|r| r.median)),
        );
    }
}
