//! The arguments and results of the benchmark tools, shared by every style.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

/// A report with nested sections: the ~1 KiB argument of `summarize`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Report {
    /// The report's title.
    pub title: String,
    /// Who wrote it.
    pub author: Person,
    /// Free-form tags.
    pub tags: Vec<String>,
    /// The sections, in reading order.
    pub sections: Vec<Section>,
    /// How the report is rendered.
    pub options: RenderOptions,
}

/// A person, by name and address.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Person {
    /// Full name.
    pub name: String,
    /// E-mail address.
    pub email: String,
}

/// One section of a report.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Section {
    /// The section heading.
    pub heading: String,
    /// The section text.
    pub body: String,
    /// Relative importance, 0 to 1.
    pub weight: f64,
    /// Reader statistics.
    pub metrics: Metrics,
}

/// Reader statistics of a section.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Metrics {
    /// Page views.
    pub views: u64,
    /// Likes.
    pub likes: u32,
    /// Shares.
    pub shares: u32,
}

/// Rendering options.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct RenderOptions {
    /// Output format.
    pub format: Format,
    /// Whether a table of contents is included.
    pub include_toc: bool,
    /// Cut the text after this many words.
    pub max_words: Option<u32>,
}

/// Output formats.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// Markdown.
    Markdown,
    /// HTML.
    Html,
    /// Plain text.
    Plain,
}

/// What `summarize` returns.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Summary {
    /// The report's title.
    pub title: String,
    /// How many sections it has.
    pub sections: u32,
    /// How many words its sections hold.
    pub words: u64,
    /// Views over all sections.
    pub views: u64,
    /// The heading of the most viewed section.
    pub busiest: String,
    /// The report's tags.
    pub tags: Vec<String>,
}

/// The body of `summarize`, the same in every style.
pub fn summarize(report: &Report) -> Summary {
    let busiest = report
        .sections
        .iter()
        .max_by_key(|s| s.metrics.views)
        .map(|s| s.heading.clone())
        .unwrap_or_default();
    Summary {
        title: report.title.clone(),
        sections: report.sections.len() as u32,
        words: report
            .sections
            .iter()
            .map(|s| s.body.split_whitespace().count() as u64)
            .sum(),
        views: report.sections.iter().map(|s| s.metrics.views).sum(),
        busiest,
        tags: report.tags.clone(),
    }
}

/// The structured output of `add`, for the styles that need a type for it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Sum {
    /// The sum.
    pub result: i64,
}

/// The arguments of `add`, for the styles that deserialize a struct.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct AddArgs {
    /// The first addend.
    pub a: i64,
    /// The second addend.
    pub b: i64,
}

/// The arguments of `summarize`, for the styles that deserialize a struct.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct SummarizeArgs {
    /// The report to summarize.
    pub report: Report,
}

/// Arguments of `add`.
pub fn add_arguments(a: i64, b: i64) -> Map<String, Value> {
    let mut args = Map::new();
    args.insert("a".into(), a.into());
    args.insert("b".into(), b.into());
    args
}

/// Arguments of `summarize`: `{"report": ...}`, about 1 KiB of JSON.
pub fn summarize_arguments() -> Map<String, Value> {
    let sections: Vec<Value> = (0..4)
        .map(|i| {
            json!({
                "heading": format!("Section {i}: findings and follow-up"),
                "body": "The quarterly numbers grew in every region; the team shipped two \
                         releases and closed the backlog of support tickets before the deadline.",
                "weight": 0.25 * f64::from(i + 1),
                "metrics": { "views": 1200 + 37 * i, "likes": 40 + i, "shares": 7 + i },
            })
        })
        .collect();
    let report = json!({
        "title": "Quarterly engineering report",
        "author": { "name": "Ada Lovelace", "email": "ada@example.com" },
        "tags": ["quarterly", "engineering", "release", "support"],
        "sections": sections,
        "options": { "format": "markdown", "include_toc": true, "max_words": 5000 },
    });
    let mut args = Map::new();
    args.insert("report".into(), report);
    args
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nested_argument_is_about_one_kibibyte() {
        let size = Value::Object(summarize_arguments()).to_string().len();
        assert!((900..=1300).contains(&size), "{size} bytes");
    }
}
