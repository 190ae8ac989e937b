//! A small notes service written against `clippy::pedantic`, using every key of
//! `#[mcp_tool]`, `#[mcp_prompt]` and `#[mcp_resource]` and every kind of parameter and
//! return type: what the attributes generate beside each function must add no lint of
//! its own, so a crate that denies pedantic lints can use them.
#![deny(warnings)]
#![deny(clippy::all, clippy::pedantic)]

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Mutex;

use mcp_tool::model::{Content, PromptMessage, ResourceContents};
use mcp_tool::{Context, State, ToolError, mcp_prompt, mcp_resource, mcp_tool};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The notes the server holds, by title.
#[derive(Debug, Default)]
pub struct Notebook {
    notes: Mutex<BTreeMap<String, String>>,
}

impl Notebook {
    /// A notebook holding `notes`, as `(title, text)` pairs.
    #[must_use]
    pub fn with_notes<const N: usize>(notes: [(&str, &str); N]) -> Self {
        let notes = notes
            .into_iter()
            .map(|(title, text)| (title.to_owned(), text.to_owned()))
            .collect();
        Self {
            notes: Mutex::new(notes),
        }
    }
}

/// The notebook as a tool is given it: a handle that the read consumes.
pub trait Notes {
    /// Runs `read` on the notes, under the notebook's lock.
    fn read<T>(self, read: impl FnOnce(&mut BTreeMap<String, String>) -> T) -> T;
}

impl Notes for State<Notebook> {
    fn read<T>(self, read: impl FnOnce(&mut BTreeMap<String, String>) -> T) -> T {
        let mut notes = self
            .notes
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        read(&mut notes)
    }
}

/// A failure of the notebook, shown to the model as the tool's error.
#[derive(Debug)]
pub enum NotebookError {
    /// No note has the title asked for.
    Missing(String),
}

impl fmt::Display for NotebookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotebookError::Missing(title) => write!(f, "no note is titled `{title}`"),
        }
    }
}

impl std::error::Error for NotebookError {}

/// What a search found: the matching titles and how many notes were searched.
#[derive(Debug, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
pub struct SearchReport {
    /// The titles of the notes that match, in order.
    pub titles: Vec<String>,
    /// How many notes were searched.
    pub searched: usize,
}

/// The order in which notes are listed.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Order {
    /// By title, A to Z.
    Title,
    /// By length, shortest first.
    Length,
}

/// Adds a note, or replaces the note of the same title; returns its shelf and title.
#[mcp_tool(
    title = "Write a note",
    destructive,
    idempotent,
    read_only = false,
    open_world = false,
    tags = ["notes", "write"],
    icons = ["https://example.com/pencil.png"],
    meta = r#"{"com.example/owner": "notes-team"}"#,
)]
#[must_use]
pub fn write_note(
    notebook: State<Notebook>,
    /// The note's title: lowercase words joined by `-`.
    #[arg(pattern = "^[a-z]+(-[a-z]+)*$", length(min = 1, max = 64))]
    title: String,
    /// The note's text.
    #[arg(length(max = 10_000))]
    text: String,
    /// The notebook's shelf, which gateways read from the `Mcp-Param-Shelf` header.
    #[arg(header = "Shelf", default = "main")]
    shelf: String,
) -> String {
    let path = shelf + "/" + &title;
    notebook.read(|notes| notes.insert(title, text));
    path
}

/// Returns the text of the note with a title.
///
/// # Errors
///
/// When no note has that title.
#[mcp_tool(name = "read-note", read_only, tags = ["notes"])]
pub fn read_note(notebook: State<Notebook>, title: String) -> Result<String, NotebookError> {
    notebook.read(|notes| {
        notes
            .get(&title)
            .cloned()
            .ok_or(NotebookError::Missing(title))
    })
}

/// Finds the notes whose text holds a word, reporting progress to the client.
///
/// # Errors
///
/// When the word is blank.
#[mcp_tool(
    description = "Finds the notes whose text holds a word.",
    read_only,
    timeout = "1m30s",
    schema = "2020-12"
)]
pub async fn search(
    ctx: Context,
    notebook: State<Notebook>,
    /// The word to look for.
    word: String,
    /// How many titles at most; 10 when left out.
    #[arg(range(min = 1, max = 100), default = 10)]
    limit: usize,
) -> Result<SearchReport, ToolError> {
    if word.trim().is_empty() {
        return Err(ToolError::new("the word is blank: give a word to look for"));
    }
    let (titles, searched) = notebook.read(|notes| {
        let titles = notes
            .iter()
            .filter(|(_, text)| text.contains(word.as_str()))
            .map(|(title, _)| title.clone())
            .take(limit)
            .collect();
        (titles, notes.len())
    });
    ctx.progress(1, 1).await;
    Ok(SearchReport { titles, searched })
}

/// Lists the titles of the notes, in the order asked for.
#[mcp_tool(read_only, schema = "portable")]
#[must_use]
pub fn list_notes(
    notebook: State<Notebook>,
    /// The order; by title when left out.
    order: Option<Order>,
) -> Vec<String> {
    notebook.read(|notes| {
        let mut entries: Vec<(&String, &String)> = notes.iter().collect();
        if let Some(Order::Length) = order {
            entries.sort_by_key(|(_, text)| text.len());
        }
        entries
            .into_iter()
            .map(|(title, _)| title.clone())
            .collect()
    })
}

/// Scales a temperature reading by a factor and offsets it, as a calibration does.
#[mcp_tool(idempotent)]
#[must_use]
pub fn calibrate(
    /// The reading, in degrees Celsius.
    #[arg(range(min = -273.15, max = 1000.0))]
    reading: f64,
    /// The factor; 1 when left out.
    #[arg(range(min = 0.5, max = 2.0), default = 1.0)]
    factor: f64,
    /// The offset in degrees.
    #[arg(range(min = -10, max = 10))]
    offset: Option<i32>,
) -> f64 {
    reading.mul_add(factor, f64::from(offset.unwrap_or(0)))
}

/// Counts the words of every note, as a task for a client that declares the extension.
#[mcp_tool(task = "optional", read_only)]
#[must_use]
pub fn word_count(notebook: State<Notebook>) -> usize {
    notebook.read(|notes| {
        notes
            .values()
            .map(|text| text.split_whitespace().count())
            .sum()
    })
}

/// The caller's answer to a yes-or-no question.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Confirm {
    /// Whether to go on.
    pub yes: bool,
}

/// Archives the notes once the caller confirms, going on as a task from there.
///
/// # Errors
///
/// When the confirmation cannot be asked or the task cannot begin.
#[mcp_tool(task = "required", task_begins = "in_body")]
pub async fn archive(ctx: Context, notebook: State<Notebook>) -> Result<String, ToolError> {
    let confirmed = ctx.elicit::<Confirm>("Archive every note?").await?;
    if !confirmed.accepted().is_some_and(|c| c.yes) {
        return Ok("nothing archived".to_owned());
    }
    ctx.begin_task().await?;
    let count = notebook.read(|notes| notes.len());
    Ok(format!("{count} notes archived"))
}

/// Greets someone, in the form of address asked for.
#[mcp_tool]
#[must_use]
pub fn greet(
    /// Who to greet.
    name: String,
    /// The greeting; `Hello` when left out.
    #[arg(default = "Hello")]
    greeting: String,
) -> String {
    [greeting, name].join(", ")
}

/// Returns the text of a note as a content block, and its title as a second one.
///
/// # Errors
///
/// When no note has that title.
#[mcp_tool(read_only)]
pub fn note_blocks(notebook: State<Notebook>, title: String) -> Result<Vec<Content>, ToolError> {
    let text = notebook.read(|notes| notes.get(&title).cloned());
    let text = text.ok_or_else(|| ToolError::new(format!("no note is titled `{title}`")))?;
    Ok(vec![Content::text(text), Content::text(title)])
}

/// Forgets every note, reporting whether the call was cancelled first.
#[mcp_tool(destructive)]
pub fn clear(ctx: Option<Context>, notebook: State<Notebook>) {
    if ctx.is_some_and(|ctx| ctx.is_cancelled()) {
        return;
    }
    notebook.read(BTreeMap::clear);
}

/// Counts the notes.
#[mcp_tool(read_only)]
#[must_use]
pub fn count(notebook: State<Notebook>) -> usize {
    notebook.read(|notes| notes.len())
}

/// Returns the name of the tool called and the client's request id, for a trace.
#[mcp_tool(read_only, crate = "crate::tools")]
pub async fn trace(ctx: Context) -> Content {
    let trace = format!("{} {:?}", ctx.tool_name(), ctx.request_id());
    ctx.debug(&trace).await;
    Content::text(trace)
}

/// This crate under another name, for `crate = "..."`.
mod tools {
    pub(crate) use mcp_tool::*;
}

/// Asks the model to summarize a note at the length asked for.
///
/// # Errors
///
/// When no note has that title.
#[mcp_prompt(
    title = "Summarize a note",
    icons = ["https://example.com/summary.png"],
    meta = r#"{"com.example/owner": "notes-team"}"#
)]
pub async fn summarize(
    ctx: Context,
    notebook: State<Notebook>,
    /// The note's title.
    #[arg(complete = titles)]
    title: String,
    /// How many sentences at most, 1 to 5; 3 when left out.
    #[arg(range(min = 1, max = 5), default = 3)]
    sentences: u8,
) -> Result<Vec<PromptMessage>, NotebookError> {
    let text = notebook.read(|notes| notes.get(&title).cloned());
    let text = text.ok_or(NotebookError::Missing(title))?;
    ctx.progress(1, 1).await;
    Ok(vec![
        PromptMessage::user(format!(
            "Summarize this note in at most {sentences} sentences:\n\n{text}"
        )),
        PromptMessage::assistant("Here is the summary:"),
    ])
}

/// The titles of the notes a summary may be asked for that start with what was typed.
#[must_use]
pub fn titles(typed: &str) -> Vec<String> {
    ["groceries", "ideas", "todo"]
        .into_iter()
        .filter(|title| title.starts_with(typed))
        .map(str::to_owned)
        .collect()
}

/// Asks the model for a title for a text.
#[mcp_prompt(
    name = "suggest-title",
    description = "Asks the model for a title for a text."
)]
#[must_use]
pub fn suggest_title(
    /// The text to title.
    #[arg(length(min = 1))]
    text: String,
    /// The language of the title, as an ISO 639-1 code.
    #[arg(pattern = "^[a-z]{2}$", complete = languages)]
    language: Option<String>,
) -> String {
    let language = language.unwrap_or_else(|| "en".to_owned());
    [
        format!("Suggest a title, in the language `{language}`, for:\n\n"),
        text,
    ]
    .concat()
}

/// The languages a title may be asked in.
#[must_use]
pub fn languages(typed: &str) -> [&'static str; 2] {
    if typed.starts_with('f') {
        ["fr", "fi"]
    } else {
        ["en", "de"]
    }
}

/// The titles of every note, one a line.
#[mcp_resource(
    uri = "notes://index",
    name = "index",
    title = "Index of notes",
    mime_type = "text/plain",
    icons = ["https://example.com/index.png"],
    meta = r#"{"com.example/owner": "notes-team"}"#
)]
#[must_use]
pub fn index(notebook: State<Notebook>) -> String {
    notebook.read(|notes| notes.keys().cloned().collect::<Vec<_>>().join("\n"))
}

/// A note, by title.
///
/// # Errors
///
/// When no note has that title.
#[mcp_resource(template = "notes://{title}", mime_type = "text/markdown")]
pub async fn note(
    ctx: Context,
    notebook: State<Notebook>,
    #[arg(complete = titles)] title: String,
) -> Result<String, NotebookError> {
    ctx.debug(format!("reading the note `{title}`")).await;
    notebook.read(|notes| {
        notes
            .get(&title)
            .cloned()
            .ok_or(NotebookError::Missing(title))
    })
}

/// A file of the notebook's attachments, by path, as bytes.
#[mcp_resource(
    template = "attachments://{+path}",
    description = "An attachment, by its path under the notebook's attachments."
)]
pub async fn attachment(ctx: Context, path: String) -> Vec<u8> {
    ctx.debug(format!("reading the attachment `{path}`")).await;
    path.into_bytes()
}

/// The size of each note, as several contents.
#[mcp_resource(uri = "notes://sizes", crate = "crate::tools")]
#[must_use]
pub fn sizes(notebook: State<Notebook>) -> Vec<ResourceContents> {
    notebook.read(|notes| {
        notes
            .iter()
            .map(|(title, text)| {
                ResourceContents::text(format!("notes://{title}"), text.len().to_string())
            })
            .collect()
    })
}
