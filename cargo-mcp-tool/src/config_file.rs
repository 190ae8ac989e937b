//! A client's configuration file, read, changed one server entry at a time, and written
//! back with everything else as it was: JSON and JSONC byte for byte outside the entry
//! (spliced in place, `json_text`; a file all on one line is written anew, without its
//! comments), TOML with its formatting and comments (`toml_edit`).

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};
use toml_edit::{Array, DocumentMut, InlineTable, Item, Table, value};

use crate::client::Format;
use crate::failure::{Failure, failure};
use crate::json_text::{self, Dialect, Layout};

/// The member of a Codex configuration that holds its servers.
const TOML_SERVERS_KEY: &str = "mcp_servers";

/// A configuration file as read, and its document as changed so far.
#[derive(Debug)]
pub(crate) struct ConfigFile {
    path: PathBuf,
    /// The file's text as read, `None` when it does not exist.
    original: Option<String>,
    document: Document,
}

#[derive(Debug)]
enum Document {
    /// The text as changed so far, always valid JSON with an object at the top.
    Json {
        text: String,
        servers_key: &'static str,
        layout: Layout,
    },
    Toml(DocumentMut),
}

impl ConfigFile {
    /// Reads and parses the file; a missing file is an empty document. A file that cannot be
    /// parsed is an error that names it, with the line and column of the fault.
    pub(crate) fn read(path: &Path, format: Format) -> Result<Self, Failure> {
        let original = match fs::read_to_string(path) {
            Ok(text) => Some(text),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => None,
            Err(error) => return Err(failure!("cannot read {}: {error}", path.display())),
        };
        let text = original.as_deref().unwrap_or("");
        let document = match format {
            Format::Json {
                servers_key,
                dialect,
            } => {
                let root = if text.trim().is_empty() {
                    Map::new()
                } else {
                    // Blanked, the text keeps every offset: a fault's line and column are the file's.
                    match serde_json::from_str::<Value>(&json_text::blank(text, dialect)) {
                        Ok(Value::Object(root)) => root,
                        Ok(_) => {
                            return Err(failure!(
                                "{}: the file is not a JSON object; it was left untouched",
                                path.display()
                            ));
                        }
                        Err(error) => return Err(json_fault(path, &error)),
                    }
                };
                let layout = layout_of(text);
                // An empty file is written as a client writes a new one.
                let text = if root.is_empty() && text.trim().is_empty() {
                    format!("{{}}{}", layout.newline)
                } else {
                    text.to_owned()
                };
                if let Some(servers) = root.get(servers_key)
                    && !servers.is_object()
                {
                    return Err(failure!(
                        "{}: `{servers_key}` is not a JSON object; the file was left untouched",
                        path.display()
                    ));
                }
                Document::Json {
                    text,
                    servers_key,
                    layout,
                }
            }
            Format::Toml => {
                let document: DocumentMut = text
                    .parse()
                    .map_err(|error| toml_fault(path, text, &error))?;
                if let Some(servers) = document.get(TOML_SERVERS_KEY)
                    && !servers.is_table()
                {
                    return Err(failure!(
                        "{}: `{TOML_SERVERS_KEY}` is not a table of the form [{TOML_SERVERS_KEY}.NAME]; the file was left untouched",
                        path.display()
                    ));
                }
                Document::Toml(document)
            }
        };
        Ok(Self {
            path: path.to_path_buf(),
            original,
            document,
        })
    }

    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    pub(crate) fn exists(&self) -> bool {
        self.original.is_some()
    }

    /// Where in the file the servers are, as `mcpServers` or `mcp_servers`.
    pub(crate) fn servers_key(&self) -> &'static str {
        match &self.document {
            Document::Json { servers_key, .. } => servers_key,
            Document::Toml(_) => TOML_SERVERS_KEY,
        }
    }

    /// The server's entry as a JSON value, whatever the file's format.
    pub(crate) fn entry(&self, name: &str) -> Option<Value> {
        match &self.document {
            Document::Json {
                text, servers_key, ..
            } => json_root(text).get(*servers_key)?.get(name).cloned(),
            Document::Toml(document) => document.get(TOML_SERVERS_KEY)?.get(name).map(toml_to_json),
        }
    }

    /// A setting of a JSON file by its JSON pointer (`/security/folderTrust/enabled`).
    pub(crate) fn setting(&self, pointer: &str) -> Option<Value> {
        match &self.document {
            Document::Json { text, .. } => Value::Object(json_root(text)).pointer(pointer).cloned(),
            Document::Toml(_) => None,
        }
    }

    /// Every server's name and `command`.
    pub(crate) fn commands(&self) -> Vec<(String, String)> {
        let command_of = |entry: &Value| {
            entry
                .get("command")
                .and_then(Value::as_str)
                .map(str::to_owned)
        };
        match &self.document {
            Document::Json {
                text, servers_key, ..
            } => json_root(text)
                .get(*servers_key)
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
                .filter_map(|(name, entry)| Some((name.clone(), command_of(entry)?)))
                .collect(),
            Document::Toml(document) => document
                .get(TOML_SERVERS_KEY)
                .and_then(Item::as_table)
                .into_iter()
                .flat_map(Table::iter)
                .filter_map(|(name, entry)| {
                    Some((name.to_owned(), command_of(&toml_to_json(entry))?))
                })
                .collect(),
        }
    }

    /// The entry as it reads in this file, for showing a change.
    pub(crate) fn entry_text(&self, name: &str) -> Option<String> {
        match &self.document {
            Document::Json {
                text, servers_key, ..
            } => json_text::entry_text(text, servers_key, name),
            Document::Toml(document) => {
                let table = document
                    .get(TOML_SERVERS_KEY)?
                    .get(name)?
                    .as_table()?
                    .clone();
                let mut shown = DocumentMut::new();
                let mut servers = Table::new();
                servers.set_implicit(true);
                servers.insert(name, Item::Table(table));
                shown.insert(TOML_SERVERS_KEY, Item::Table(servers));
                Some(shown.to_string().trim().to_owned())
            }
        }
    }

    /// Puts the entry in, in place of one of the same name or after the others.
    pub(crate) fn set_entry(&mut self, name: &str, entry: &Value) {
        match &mut self.document {
            Document::Json {
                text,
                servers_key,
                layout,
            } => {
                *text = json_text::set_entry(text, layout, servers_key, name, entry)
                    .unwrap_or_else(|| {
                        // A layout the splice cannot follow (all on one line, or `{}`): written anew.
                        let mut root = json_root(text);
                        let servers = root
                            .entry(*servers_key)
                            .or_insert_with(|| Value::Object(Map::new()));
                        if let Value::Object(servers) = servers {
                            servers.insert(name.to_owned(), entry.clone());
                        }
                        let ending = if text.ends_with('\n') {
                            layout.newline
                        } else {
                            ""
                        };
                        format!("{}{ending}", layout.pretty_at(&Value::Object(root), ""))
                    });
            }
            Document::Toml(document) => {
                let servers = document.entry(TOML_SERVERS_KEY).or_insert_with(|| {
                    let mut servers = Table::new();
                    // Only `[mcp_servers.NAME]` headers, never an empty `[mcp_servers]`.
                    servers.set_implicit(true);
                    Item::Table(servers)
                });
                let Some(servers) = servers.as_table_mut() else {
                    return;
                };
                let mut table = json_to_toml_table(entry);
                if let Some(Item::Table(old)) = servers.get(name) {
                    // In the old one's place, with the comments above its header.
                    table.set_position(old.position());
                    *table.decor_mut() = old.decor().clone();
                }
                servers.insert(name, Item::Table(table));
            }
        }
    }

    /// Takes the entry out; false when there was none.
    pub(crate) fn remove_entry(&mut self, name: &str) -> bool {
        match &mut self.document {
            Document::Json {
                text, servers_key, ..
            } => match json_text::remove_entry(text, servers_key, name) {
                Some(removed) => {
                    *text = removed;
                    true
                }
                None => false,
            },
            Document::Toml(document) => document
                .get_mut(TOML_SERVERS_KEY)
                .and_then(Item::as_table_mut)
                .and_then(|servers| servers.remove(name))
                .is_some(),
        }
    }

    /// The file's text with the changes made.
    pub(crate) fn render(&self) -> String {
        match &self.document {
            Document::Json { text, .. } => text.clone(),
            Document::Toml(document) => document.to_string(),
        }
    }

    /// Writes the changed file, keeping the one it replaces as `<file>.bak`. Returns the
    /// backup's path, if there was a file to back up.
    pub(crate) fn write(&self, create_folder: bool) -> Result<Option<PathBuf>, Failure> {
        let backup = match &self.original {
            Some(original) => {
                let mut name = self.path.as_os_str().to_owned();
                name.push(".bak");
                let backup = PathBuf::from(name);
                fs::write(&backup, original).map_err(|error| {
                    failure!("cannot write the backup {}: {error}", backup.display())
                })?;
                Some(backup)
            }
            None => None,
        };
        if create_folder && let Some(folder) = self.path.parent() {
            fs::create_dir_all(folder)
                .map_err(|error| failure!("cannot create {}: {error}", folder.display()))?;
        }
        // Written in place, so that the file keeps its permissions (`~/.claude.json` is private).
        fs::write(&self.path, self.render())
            .map_err(|error| failure!("cannot write {}: {error}", self.path.display()))?;
        Ok(backup)
    }
}

/// The indentation unit and line ending the file uses (two spaces and `\n` for a new file).
fn layout_of(text: &str) -> Layout {
    let indent = text
        .lines()
        .skip(1)
        .map(|line| &line[..line.len() - line.trim_start().len()])
        .find(|indent| !indent.is_empty())
        .unwrap_or("  ")
        .to_owned();
    Layout {
        indent,
        newline: if text.contains("\r\n") { "\r\n" } else { "\n" },
    }
}

/// The object at the top of a text already checked to hold one (JSONC's comments and
/// trailing commas passed over).
fn json_root(text: &str) -> Map<String, Value> {
    match serde_json::from_str(&json_text::blank(text, Dialect::Jsonc)) {
        Ok(Value::Object(root)) => root,
        _ => Map::new(),
    }
}

fn json_fault(path: &Path, error: &serde_json::Error) -> Failure {
    let fault = json_text::Fault::of(error);
    failure!(
        "{}:{}:{}: cannot parse the file as JSON: {}; the file was left untouched",
        path.display(),
        fault.line,
        fault.column,
        fault.what
    )
}

fn toml_fault(path: &Path, text: &str, error: &toml_edit::TomlError) -> Failure {
    let offset = error.span().map_or(0, |span| span.start).min(text.len());
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before
        .rsplit('\n')
        .next()
        .map_or(0, |line| line.chars().count())
        + 1;
    failure!(
        "{}:{line}:{column}: cannot parse the file as TOML: {}; the file was left untouched",
        path.display(),
        error.message().trim_end()
    )
}

fn toml_to_json(item: &Item) -> Value {
    match item {
        Item::None => Value::Null,
        Item::Value(value) => toml_value_to_json(value),
        Item::Table(table) => Value::Object(
            table
                .iter()
                .map(|(key, item)| (key.to_owned(), toml_to_json(item)))
                .collect(),
        ),
        Item::ArrayOfTables(tables) => Value::Array(
            tables
                .iter()
                .map(|table| toml_to_json(&Item::Table(table.clone())))
                .collect(),
        ),
    }
}

fn toml_value_to_json(value: &toml_edit::Value) -> Value {
    use toml_edit::Value as Toml;
    match value {
        Toml::String(text) => Value::String(text.value().clone()),
        Toml::Integer(number) => Value::from(*number.value()),
        Toml::Float(number) => Value::from(*number.value()),
        Toml::Boolean(flag) => Value::Bool(*flag.value()),
        Toml::Datetime(datetime) => Value::String(datetime.value().to_string()),
        Toml::Array(array) => Value::Array(array.iter().map(toml_value_to_json).collect()),
        Toml::InlineTable(table) => Value::Object(
            table
                .iter()
                .map(|(key, value)| (key.to_owned(), toml_value_to_json(value)))
                .collect(),
        ),
    }
}

/// An entry (strings, arrays of strings, objects of strings) as a TOML table; an object
/// inside it is an inline table, as Codex's documentation writes `env`.
fn json_to_toml_table(entry: &Value) -> Table {
    let mut table = Table::new();
    for (key, field) in entry.as_object().into_iter().flatten() {
        table.insert(key, value(json_to_toml_value(field)));
    }
    table
}

fn json_to_toml_value(field: &Value) -> toml_edit::Value {
    match field {
        Value::Array(items) => {
            toml_edit::Value::Array(items.iter().map(json_to_toml_value).collect::<Array>())
        }
        Value::Object(members) => toml_edit::Value::InlineTable(
            members
                .iter()
                .map(|(key, member)| (key.clone(), json_to_toml_value(member)))
                .collect::<InlineTable>(),
        ),
        Value::String(text) => text.as_str().into(),
        Value::Bool(flag) => (*flag).into(),
        Value::Number(number) => number
            .as_i64()
            .map_or_else(|| number.as_f64().unwrap_or(0.0).into(), Into::into),
        Value::Null => "".into(),
    }
}
