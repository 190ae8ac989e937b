//! The SVG chart: each row's three ratios as bars on a log scale around 1; rows of time
//! and instructions only, as a rate's ratio runs the other way.

use std::fmt::Write as _;

use crate::table::{Row, Unit, Versus};

/// The bars of each row: which ratio, its legend, its colour.
const SERIES: [(Versus, &str, &str); 3] = [
    (
        Versus::RmcpDefault,
        "ours / rmcp macros (default)",
        "#3b6fb6",
    ),
    (Versus::RmcpKept, "ours / rmcp (router kept)", "#5aa469"),
    (Versus::Hand, "ours / hand-written", "#e08a2e"),
];

/// Where the labels, the plot and the rows go; the label column widens past
/// `LABEL_WIDTH` for labels longer than it holds, at about `CHAR_WIDTH` a character.
const LABEL_WIDTH: f64 = 560.0;
const CHAR_WIDTH: f64 = 6.6;
const PLOT_WIDTH: f64 = 460.0;
const BAR: f64 = 11.0;
const TOP: f64 = 70.0;
const ROW_HEIGHT: f64 = 4.0 + (BAR + 2.0) * SERIES.len() as f64 + 6.0;

/// The log scale: powers of ten from `low` to `high`, 1 always inside, drawn to the
/// right of the label column.
struct Scale {
    low: f64,
    high: f64,
    label_width: f64,
}

impl Scale {
    /// The scale that holds every ratio of `rows`, at least 0.1 to 10.
    fn of(rows: &[&Row]) -> Self {
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
        let longest = rows
            .iter()
            .map(|r| r.label.replace('`', "").chars().count())
            .max();
        let label_width = longest.map_or(LABEL_WIDTH, |n| {
            LABEL_WIDTH.max((12.0 + CHAR_WIDTH * n as f64).ceil())
        });
        Self {
            low,
            high,
            label_width,
        }
    }

    /// The x coordinate of ratio `r`.
    fn x(&self, r: f64) -> f64 {
        self.label_width + (r.log10() - self.low) / (self.high - self.low) * PLOT_WIDTH
    }
}

/// A label as SVG text: no backticks, `&` and `<` escaped.
fn text(label: &str) -> String {
    label
        .replace('`', "")
        .replace('&', "&amp;")
        .replace('<', "&lt;")
}

/// The opening tag, the background, the title and the legend.
fn head(out: &mut String, scale: &Scale, rows: usize) {
    let width = scale.label_width + PLOT_WIDTH + 40.0;
    let height = TOP + ROW_HEIGHT * rows as f64 + 50.0;
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
}

/// The vertical lines at 1, 2 and 5 times each power of ten, with their values below.
fn grid(out: &mut String, scale: &Scale, bottom: f64) {
    let mut exponent = scale.low as i32;
    while exponent <= scale.high as i32 {
        for mantissa in [1.0, 2.0, 5.0] {
            let r = mantissa * 10f64.powi(exponent);
            if r.log10() > scale.high + 1e-9 {
                continue;
            }
            let gx = scale.x(r);
            let (stroke, dash) = if mantissa == 1.0 {
                (if r == 1.0 { "#000000" } else { "#999999" }, "")
            } else {
                ("#dddddd", r#" stroke-dasharray="3,3""#)
            };
            let _ = writeln!(
                out,
                r#"<line x1="{gx:.1}" y1="{TOP}" x2="{gx:.1}" y2="{bottom}" stroke="{stroke}"{dash}/>"#
            );
            let _ = writeln!(
                out,
                r##"<text x="{gx:.1}" y="{ty}" text-anchor="middle" fill="#444444">{r}</text>"##,
                ty = bottom + 16.0,
            );
        }
        exponent += 1;
    }
}

/// One row: its label, then a bar from 1 to each ratio, with the ratio written at its end.
fn row(out: &mut String, scale: &Scale, row: &Row, y: f64) {
    let _ = writeln!(
        out,
        r#"<text x="{tx}" y="{ty:.1}" text-anchor="end">{text}</text>"#,
        text = text(&row.label),
        tx = scale.label_width - 8.0,
        ty = y + ROW_HEIGHT / 2.0 + 4.0,
    );
    for (k, (versus, _, colour)) in SERIES.iter().enumerate() {
        let Some(r) = row.ratio(*versus) else {
            continue;
        };
        let offset = 4.0 + (BAR + 2.0) * k as f64;
        let (a, b) = (scale.x(1.0), scale.x(r));
        let (left, w) = if b < a { (b, a - b) } else { (a, b - a) };
        let _ = writeln!(
            out,
            r#"<rect x="{left:.1}" y="{by:.1}" width="{w:.1}" height="{BAR}" fill="{colour}"/>"#,
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

/// The whole chart.
pub(crate) fn svg(rows: &[Row]) -> String {
    let rows: Vec<&Row> = rows
        .iter()
        .filter(|r| !matches!(r.unit, Unit::CallsPerSecond | Unit::Bytes))
        .collect();
    let scale = Scale::of(&rows);
    let mut out = String::new();
    head(&mut out, &scale, rows.len());
    grid(&mut out, &scale, TOP + ROW_HEIGHT * rows.len() as f64);
    for (i, r) in rows.iter().enumerate() {
        row(&mut out, &scale, r, TOP + ROW_HEIGHT * i as f64);
    }
    out.push_str("</svg>\n");
    out
}
