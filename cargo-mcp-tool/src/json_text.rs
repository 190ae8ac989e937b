//! Changes to a JSON text made in place: a server's entry added, replaced or removed by
//! splicing its bytes, so that every other byte of the file stays as the client or the
//! person wrote it, and removing what was added gives back the file as it was.
//!
//! The text has already been parsed by serde_json (a JSONC text once [`blank`] blanked
//! its comments and trailing commas): the scanner here only finds spans, passing over
//! comments and trailing commas as whitespace.

use serde_json::Value;

/// One member of an object: where its key starts and where its value starts and ends.
#[derive(Debug)]
struct Member {
    key: String,
    key_start: usize,
    value_start: usize,
    value_end: usize,
}

/// An object: the offsets of its braces, and its members in order.
#[derive(Debug)]
struct ObjectSpan {
    open: usize,
    close: usize,
    members: Vec<Member>,
}

/// How entries are laid out: the indentation unit and the line ending.
#[derive(Debug, Clone)]
pub(crate) struct Layout {
    pub(crate) indent: String,
    pub(crate) newline: &'static str,
}

impl Layout {
    /// The value pretty-printed, its lines after the first indented by `indent`.
    pub(crate) fn pretty_at(&self, value: &Value, indent: &str) -> String {
        let mut out = Vec::new();
        let formatter = serde_json::ser::PrettyFormatter::with_indent(self.indent.as_bytes());
        let mut serializer = serde_json::Serializer::with_formatter(&mut out, formatter);
        serde::Serialize::serialize(value, &mut serializer)
            .expect("a JSON value always serializes");
        let text = String::from_utf8(out).expect("serde_json writes UTF-8");
        text.replace('\n', &format!("{}{indent}", self.newline))
    }
}

/// The text with the entry `name` of the object `servers_key` set to `entry`; `None` when
/// the layout cannot be followed (no object at the top with members on lines of their own).
pub(crate) fn set_entry(
    text: &str,
    layout: &Layout,
    servers_key: &str,
    name: &str,
    entry: &Value,
) -> Option<String> {
    let nl = layout.newline;
    let root = object_at(text, skip_whitespace(text, 0))?;
    let quoted_name = Value::String(name.to_owned()).to_string();
    let Some(servers_member) = root.members.iter().find(|member| member.key == servers_key) else {
        let last = root.members.last()?;
        let indent = line_indent(text, last.key_start)?;
        let mut servers = serde_json::Map::new();
        servers.insert(name.to_owned(), entry.clone());
        let servers = layout.pretty_at(&Value::Object(servers), indent);
        let quoted_key = Value::String(servers_key.to_owned()).to_string();
        return Some(splice(
            text,
            last.value_end,
            last.value_end,
            &format!(",{nl}{indent}{quoted_key}: {servers}"),
        ));
    };
    let servers = object_at(text, servers_member.value_start)?;
    if let Some(old) = servers.members.iter().find(|member| member.key == name) {
        let indent = line_indent(text, old.key_start)?;
        return Some(splice(
            text,
            old.value_start,
            old.value_end,
            &layout.pretty_at(entry, indent),
        ));
    }
    if let Some(last) = servers.members.last() {
        let indent = line_indent(text, last.key_start)?;
        let added = format!(
            ",{nl}{indent}{quoted_name}: {}",
            layout.pretty_at(entry, indent)
        );
        return Some(splice(text, last.value_end, last.value_end, &added));
    }
    let outer = line_indent(text, servers_member.key_start)?;
    let indent = format!("{outer}{}", layout.indent);
    let inner = format!(
        "{nl}{indent}{quoted_name}: {}{nl}{outer}",
        layout.pretty_at(entry, &indent)
    );
    Some(splice(text, servers.open + 1, servers.close, &inner))
}

/// The text without the entry `name` of the object `servers_key`, and the separator that
/// went with it; `None` when there is no such entry.
pub(crate) fn remove_entry(text: &str, servers_key: &str, name: &str) -> Option<String> {
    let root = object_at(text, skip_whitespace(text, 0))?;
    let servers_member = root
        .members
        .iter()
        .find(|member| member.key == servers_key)?;
    let servers = object_at(text, servers_member.value_start)?;
    let index = servers
        .members
        .iter()
        .position(|member| member.key == name)?;
    let members = &servers.members;
    let (start, end) = if index > 0 {
        (members[index - 1].value_end, members[index].value_end)
    } else if let Some(next) = members.get(1) {
        (members[0].key_start, next.key_start)
    } else {
        (servers.open + 1, servers.close)
    };
    Some(splice(text, start, end, ""))
}

/// The text of the entry `name` as it stands in the file, from its key to the end of its value.
pub(crate) fn entry_text(text: &str, servers_key: &str, name: &str) -> Option<String> {
    let root = object_at(text, skip_whitespace(text, 0))?;
    let servers_member = root
        .members
        .iter()
        .find(|member| member.key == servers_key)?;
    let servers = object_at(text, servers_member.value_start)?;
    let member = servers.members.iter().find(|member| member.key == name)?;
    let indent = line_indent(text, member.key_start).unwrap_or("");
    Some(format!(
        "{indent}{}",
        &text[member.key_start..member.value_end]
    ))
}

fn splice(text: &str, start: usize, end: usize, with: &str) -> String {
    format!("{}{with}{}", &text[..start], &text[end..])
}

/// The whitespace that opens the line `at` is on, if only whitespace comes before it.
fn line_indent(text: &str, at: usize) -> Option<&str> {
    let line_start = text[..at].rfind('\n').map_or(0, |newline| newline + 1);
    let indent = &text[line_start..at];
    (line_start > 0 && indent.chars().all(|c| c == ' ' || c == '\t')).then_some(indent)
}

/// Past whitespace and comments (JSONC's `//` and `/* */`; a JSON text has none).
fn skip_whitespace(text: &str, mut at: usize) -> usize {
    let bytes = text.as_bytes();
    // A byte order mark is whitespace to a reader of the file too.
    if at == 0 && text.starts_with('\u{feff}') {
        at = 3;
    }
    while at < bytes.len() {
        match bytes[at] {
            b' ' | b'\t' | b'\n' | b'\r' => at += 1,
            b'/' if opens_comment(bytes, at) => {
                at = comment_end(bytes, at);
            }
            _ => break,
        }
    }
    at
}

/// Whether a comment, `//` or `/*`, opens at the `/` at `at`.
fn opens_comment(bytes: &[u8], at: usize) -> bool {
    matches!(bytes.get(at + 1), Some(b'/' | b'*'))
}

/// The end of the comment opening at `at`: past a `//` comment's line, or past `*/`.
fn comment_end(bytes: &[u8], at: usize) -> usize {
    let rest = &bytes[at + 2..];
    let length = if bytes[at + 1] == b'/' {
        rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len())
    } else {
        (rest.windows(2).position(|pair| pair == b"*/")).map_or(rest.len(), |end| end + 2)
    };
    at + 2 + length
}

/// Where and why serde_json could not read a text, for a person: serde_json's message
/// without its position, and the position apart.
#[derive(Debug)]
pub(crate) struct Fault {
    pub(crate) what: String,
    pub(crate) line: usize,
    /// Counted from 1: serde_json's column 0 (a text that ends after a line break) is 1.
    pub(crate) column: usize,
}

impl Fault {
    pub(crate) fn of(error: &serde_json::Error) -> Self {
        let full = error.to_string();
        let suffix = format!(" at line {} column {}", error.line(), error.column());
        Self {
            what: full.strip_suffix(&suffix).unwrap_or(&full).to_owned(),
            line: error.line(),
            column: error.column().max(1),
        }
    }
}

/// Which JSON a client reads from its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// Plain JSON.
    Json,
    /// JSON with `//` and `/* */` comments, as Gemini CLI strips them before parsing.
    Comments,
    /// JSONC as VS Code reads it: comments and trailing commas.
    Jsonc,
}

/// The text as serde_json can read it in `dialect`: comments, and for JSONC trailing
/// commas, blanked (each of their bytes a space but for line breaks), so that every offset,
/// line and column stays as in the file.
pub(crate) fn blank(text: &str, dialect: Dialect) -> String {
    match dialect {
        Dialect::Json => text.to_owned(),
        Dialect::Comments => blank_jsonc(text, false),
        Dialect::Jsonc => blank_jsonc(text, true),
    }
}

/// The text with its comments blanked, and its trailing commas where `trailing_commas`.
fn blank_jsonc(text: &str, trailing_commas: bool) -> String {
    let bytes = text.as_bytes();
    let mut blanked = bytes.to_vec();
    let mut at = 0;
    // A comma with nothing but whitespace and comments after it so far.
    let mut comma = None;
    while at < bytes.len() {
        match bytes[at] {
            b'"' => {
                at = string_end(bytes, at).unwrap_or(bytes.len());
                comma = None;
            }
            b'/' if opens_comment(bytes, at) => {
                let end = comment_end(bytes, at);
                for byte in &mut blanked[at..end] {
                    if !matches!(*byte, b'\n' | b'\r') {
                        *byte = b' ';
                    }
                }
                at = end;
            }
            b',' => {
                comma = Some(at);
                at += 1;
            }
            b'}' | b']' => {
                if let Some(trailing) = comma.take()
                    && trailing_commas
                {
                    blanked[trailing] = b' ';
                }
                at += 1;
            }
            b' ' | b'\t' | b'\n' | b'\r' => at += 1,
            _ => {
                comma = None;
                at += 1;
            }
        }
    }
    // Only whole comments and ASCII commas became spaces: still UTF-8.
    String::from_utf8(blanked).unwrap_or_else(|_| text.to_owned())
}

/// The end of the string opening at `at` (just past its closing quote).
fn string_end(bytes: &[u8], mut at: usize) -> Option<usize> {
    at += 1;
    while at < bytes.len() {
        match bytes[at] {
            b'\\' => at += 2,
            b'"' => return Some(at + 1),
            _ => at += 1,
        }
    }
    None
}

fn value_end(text: &str, at: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    match bytes.get(at)? {
        b'"' => string_end(bytes, at),
        b'{' => Some(object_at(text, at)?.close + 1),
        b'[' => {
            let mut cursor = skip_whitespace(text, at + 1);
            if bytes.get(cursor) == Some(&b']') {
                return Some(cursor + 1);
            }
            loop {
                cursor = skip_whitespace(text, value_end(text, cursor)?);
                match bytes.get(cursor)? {
                    b',' => cursor = skip_whitespace(text, cursor + 1),
                    b']' => return Some(cursor + 1),
                    _ => return None,
                }
                // A trailing comma (JSONC).
                if bytes.get(cursor) == Some(&b']') {
                    return Some(cursor + 1);
                }
            }
        }
        _ => {
            let length = bytes[at..].iter().position(|b| {
                matches!(b, b',' | b'}' | b']' | b'/' | b' ' | b'\t' | b'\n' | b'\r')
            });
            Some(at + length.unwrap_or(bytes.len() - at))
        }
    }
}

fn object_at(text: &str, open: usize) -> Option<ObjectSpan> {
    let bytes = text.as_bytes();
    if bytes.get(open) != Some(&b'{') {
        return None;
    }
    let mut members = Vec::new();
    let mut cursor = skip_whitespace(text, open + 1);
    if bytes.get(cursor) == Some(&b'}') {
        return Some(ObjectSpan {
            open,
            close: cursor,
            members,
        });
    }
    loop {
        let key_start = cursor;
        let key_end = string_end(bytes, key_start)?;
        let key: String = serde_json::from_str(&text[key_start..key_end]).ok()?;
        cursor = skip_whitespace(text, key_end);
        if bytes.get(cursor) != Some(&b':') {
            return None;
        }
        let value_start = skip_whitespace(text, cursor + 1);
        let value_end = value_end(text, value_start)?;
        members.push(Member {
            key,
            key_start,
            value_start,
            value_end,
        });
        cursor = skip_whitespace(text, value_end);
        match bytes.get(cursor)? {
            b',' => cursor = skip_whitespace(text, cursor + 1),
            b'}' => {}
            _ => return None,
        }
        // The end, after a last member or a trailing comma (JSONC).
        if bytes.get(cursor) == Some(&b'}') {
            return Some(ObjectSpan {
                open,
                close: cursor,
                members,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn layout() -> Layout {
        Layout {
            indent: "  ".into(),
            newline: "\n",
        }
    }

    #[test]
    fn adds_after_the_last_entry_and_removes_it_again() {
        let text = "{\n  \"mcpServers\": {\n    \"a\": { \"command\": \"x\", \"args\": [\"-y\"] }\n  },\n  \"theme\": \"dark\"\n}\n";
        let added =
            set_entry(text, &layout(), "mcpServers", "b", &json!({"command": "y"})).unwrap();
        assert_eq!(
            added,
            "{\n  \"mcpServers\": {\n    \"a\": { \"command\": \"x\", \"args\": [\"-y\"] },\n    \"b\": {\n      \"command\": \"y\"\n    }\n  },\n  \"theme\": \"dark\"\n}\n"
        );
        assert_eq!(remove_entry(&added, "mcpServers", "b").unwrap(), text);
    }

    #[test]
    fn fills_an_empty_object_and_empties_it_again() {
        let text = "{\n\t\"servers\": {},\n\t\"x\": [1, {\"y\": \"}\"}]\n}";
        let layout = Layout {
            indent: "\t".into(),
            newline: "\n",
        };
        let added = set_entry(text, &layout, "servers", "b", &json!({"command": "y"})).unwrap();
        assert_eq!(
            added,
            "{\n\t\"servers\": {\n\t\t\"b\": {\n\t\t\t\"command\": \"y\"\n\t\t}\n\t},\n\t\"x\": [1, {\"y\": \"}\"}]\n}"
        );
        assert_eq!(remove_entry(&added, "servers", "b").unwrap(), text);
    }

    #[test]
    fn removes_a_first_entry_with_its_separator() {
        let text = "{\"s\": {\"a\": 1, \"b\": 2}}";
        assert_eq!(remove_entry(text, "s", "a").unwrap(), "{\"s\": {\"b\": 2}}");
    }

    #[test]
    fn blanks_comments_and_trailing_commas_and_nothing_in_strings() {
        let text =
            "{ // servers\n  \"a\": [1, 2,], /* é */\n  \"b\": \"// not, /* a */ comment,]\",\n}";
        let blanked = blank(text, Dialect::Jsonc);
        assert_eq!(blanked.len(), text.len());
        assert_eq!(blanked.lines().count(), text.lines().count());
        let value: serde_json::Value = serde_json::from_str(&blanked).unwrap();
        assert_eq!(
            value,
            json!({"a": [1, 2], "b": "// not, /* a */ comment,]"})
        );
    }

    #[test]
    fn adds_to_and_removes_from_a_jsonc_text_keeping_its_comments() {
        let text = "{\n  // Servers of this workspace.\n  \"servers\": {\n    /* the first */\n    \"a\": {\"command\": \"x\"}, // kept\n  },\n  \"inputs\": [],\n}\n";
        let added = set_entry(text, &layout(), "servers", "b", &json!({"command": "y"})).unwrap();
        assert_eq!(
            added,
            "{\n  // Servers of this workspace.\n  \"servers\": {\n    /* the first */\n    \"a\": {\"command\": \"x\"},\n    \"b\": {\n      \"command\": \"y\"\n    }, // kept\n  },\n  \"inputs\": [],\n}\n"
        );
        let parsed: serde_json::Value =
            serde_json::from_str(&blank(&added, Dialect::Jsonc)).unwrap();
        assert_eq!(parsed["servers"]["b"]["command"], "y");
        assert_eq!(remove_entry(&added, "servers", "b").unwrap(), text);
        // The last entry goes with what its object held, comments too: `{}` is left.
        assert_eq!(
            remove_entry(text, "servers", "a").unwrap(),
            "{\n  // Servers of this workspace.\n  \"servers\": {},\n  \"inputs\": [],\n}\n"
        );
    }

    #[test]
    fn declines_a_text_on_one_line() {
        assert!(set_entry("{\"s\": {\"a\": 1}}", &layout(), "s", "b", &json!(2)).is_none());
    }
}
