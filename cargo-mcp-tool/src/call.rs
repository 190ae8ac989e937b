//! `call`: one tool call, its arguments read from `name=value` pairs by the tool's input
//! schema, its progress and log notifications shown as they come, its result printed.

use std::io::{IsTerminal, Write};

use clap::Args;
use serde_json::{Map, Value, json};

use crate::failure::{Failure, failure};
use crate::session::Launch;

/// `call`'s options.
#[derive(Debug, Args)]
pub(crate) struct CallOptions {
    /// The tool to call.
    pub(crate) tool: String,
    /// Arguments as name=value, each name once: a string is written as it is, a number as
    /// digits (`limit=5`), a boolean as `true` or `false`, an array or object as JSON
    /// (`tags='["a","b"]'`).
    #[arg(value_name = "NAME=VALUE")]
    pub(crate) arguments: Vec<String>,
    /// Arguments as a JSON object; NAME=VALUE pairs are added to it.
    #[arg(long = "json", value_name = "OBJECT")]
    pub(crate) json: Option<String>,
    #[command(flatten)]
    pub(crate) launch: Launch,
}

/// What the call came to: the process's exit code is 1 unless it succeeded.
pub(crate) enum Outcome {
    Succeeded,
    ToolFailed,
}

pub(crate) fn call(options: &CallOptions) -> Result<Outcome, Failure> {
    let mut session = options.launch.start()?;
    let tools = if session.has_capability("tools") {
        session.list_all("tools/list", "tools")?
    } else {
        Vec::new()
    };
    // An unknown tool is still called: the server's own error names the closest one.
    let schema = tools
        .iter()
        .find(|tool| tool["name"] == options.tool.as_str())
        .map(|tool| tool["inputSchema"].clone());
    let arguments = arguments(options, schema.as_ref().unwrap_or(&Value::Null))?;
    let params = json!({
        "name": options.tool,
        "arguments": arguments,
        "_meta": { "progressToken": "cargo-mcp-tool" },
    });
    let mut progress_shown = false;
    let answer = session.request("tools/call", params, None, &mut |notification| {
        show_notification(notification, &mut progress_shown);
    })?;
    if progress_shown {
        eprintln!();
    }
    let result = answer.map_err(|error| failure!("{} ({})", error.message, error.code))?;
    let text: Vec<&str> = result["content"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|item| item["text"].as_str())
        .collect();
    if result["isError"] == true {
        let message = if text.is_empty() {
            "the tool failed and said nothing".to_owned()
        } else {
            text.join("\n")
        };
        eprintln!("{}", red(&format!("tool error: {message}")));
        return Ok(Outcome::ToolFailed);
    }
    if let Some(structured) = result
        .get("structuredContent")
        .filter(|value| !value.is_null())
    {
        println!(
            "{}",
            serde_json::to_string_pretty(structured).unwrap_or_default()
        );
    } else {
        for item in result["content"].as_array().into_iter().flatten() {
            match item["type"].as_str() {
                Some("text") => println!("{}", item["text"].as_str().unwrap_or("")),
                Some("resource_link") => println!("[link] {}", item["uri"].as_str().unwrap_or("")),
                Some("resource") => {
                    let resource = &item["resource"];
                    println!("[resource] {}", resource["uri"].as_str().unwrap_or(""));
                    if let Some(text) = resource["text"].as_str() {
                        println!("{text}");
                    }
                }
                Some(kind) => {
                    let size = item["data"].as_str().map_or(0, |data| data.len() * 3 / 4);
                    println!(
                        "[{kind}, {}, about {size} bytes]",
                        item["mimeType"].as_str().unwrap_or("?")
                    );
                }
                None => println!("{item}"),
            }
        }
    }
    Ok(Outcome::Succeeded)
}

/// The call's arguments: `--json`, then each `name=value` read as the schema types it.
fn arguments(options: &CallOptions, schema: &Value) -> Result<Map<String, Value>, Failure> {
    let mut arguments = match &options.json {
        Some(text) => match serde_json::from_str(text) {
            Ok(Value::Object(object)) => object,
            Ok(_) => {
                return Err(failure!(
                    "--json takes a JSON object, as {{\"name\": \"value\"}}"
                ));
            }
            Err(error) => {
                return Err(failure!(
                    "--json takes a JSON object, as {{\"name\": \"value\"}}: {}",
                    fault(&error)
                ));
            }
        },
        None => Map::new(),
    };
    let mut given: Vec<(&str, &str)> = Vec::new();
    for pair in &options.arguments {
        let (name, text) = pair
            .split_once('=')
            .ok_or_else(|| failure!("`{pair}` is not an argument: write NAME=VALUE"))?;
        if let Some((_, first)) = given.iter().find(|(seen, _)| *seen == name) {
            return Err(failure!(
                "`{name}` is given twice (`{name}={first}` and `{pair}`): give it once"
            ));
        }
        given.push((name, text));
        let property = &schema["properties"][name];
        let value = if takes_string(property) {
            Value::String(text.to_owned())
        } else {
            serde_json::from_str(text).map_err(|error| {
                let why = match text.trim_start().chars().next() {
                    // A value begun as an array or object: where its JSON goes wrong helps.
                    Some('[' | '{') => format!(": {}", fault(&error)),
                    _ => String::new(),
                };
                let given = if text.is_empty() {
                    "an empty value".to_owned()
                } else {
                    format!("`{text}`")
                };
                failure!(
                    "`{name}` takes {}, and {given} is not one{why}",
                    form_of(name, property)
                )
            })?
        };
        arguments.insert(name.to_owned(), value);
    }
    Ok(arguments)
}

/// A serde_json fault in a one-line value, said once: what is wrong and at which column.
fn fault(error: &serde_json::Error) -> String {
    let fault = crate::json_text::Fault::of(error);
    format!("{} at column {}", fault.what, fault.column)
}

/// How a value of this property is written on the command line, with an example.
fn form_of(name: &str, property: &Value) -> String {
    if let Some(values) = property["enum"].as_array() {
        let values: Vec<String> = values.iter().map(Value::to_string).collect();
        return format!("one of {}", values.join(", "));
    }
    let kinds = kinds(property);
    let forms: Vec<String> = kinds
        .iter()
        .map(|kind| match *kind {
            "integer" => format!("an integer, written as digits (`{name}=5`)"),
            "number" => format!("a number, written as digits (`{name}=2.5`)"),
            "boolean" => format!("`true` or `false` (`{name}=true`)"),
            "null" => format!("`null` (`{name}=null`)"),
            "array" => format!(
                "an array, written as `[...]` with strings in double quotes, the whole in single quotes (`{name}='[\"a\", \"b\"]'`)"
            ),
            "object" => format!(
                "an object, written as `{{...}}` with its keys in double quotes, the whole in single quotes (`{name}='{{\"key\": 1}}'`)"
            ),
            other => format!("a value of type {other}"),
        })
        .collect();
    if forms.is_empty() {
        crate::list::type_of(property)
    } else {
        forms.join(", or ")
    }
}

/// The JSON types a property's schema allows: its `type`, or each branch's of an `anyOf`
/// or `oneOf`.
fn kinds(property: &Value) -> Vec<&str> {
    match &property["type"] {
        Value::String(kind) => vec![kind.as_str()],
        Value::Array(kinds) => kinds.iter().filter_map(Value::as_str).collect(),
        _ => property["anyOf"]
            .as_array()
            .or_else(|| property["oneOf"].as_array())
            .into_iter()
            .flatten()
            .filter_map(|branch| branch["type"].as_str())
            .collect(),
    }
}

/// Whether a value for this property is taken as it is typed: a string, or a property
/// the schema does not describe (the server then says what is wrong with it).
fn takes_string(property: &Value) -> bool {
    let kinds = kinds(property);
    if let Some(values) = property["enum"].as_array() {
        return values.iter().all(Value::is_string);
    }
    kinds.is_empty() || kinds.contains(&"string")
}

fn show_notification(notification: &Value, progress_shown: &mut bool) {
    let params = &notification["params"];
    match notification["method"].as_str() {
        Some("notifications/progress") => {
            let done = params["progress"].as_f64().unwrap_or(0.0);
            let message = params["message"].as_str().unwrap_or("");
            let line = match params["total"].as_f64() {
                Some(total) if total > 0.0 => {
                    let filled = ((done / total).clamp(0.0, 1.0) * 20.0).round() as usize;
                    format!(
                        "[{}{}] {done}/{total} {message}",
                        "#".repeat(filled),
                        " ".repeat(20 - filled)
                    )
                }
                _ => format!("[{done}] {message}"),
            };
            if std::io::stderr().is_terminal() {
                eprint!("\r\x1b[2K{line}");
                let _ = std::io::stderr().flush();
                *progress_shown = true;
            } else {
                eprintln!("{line}");
            }
        }
        Some("notifications/message") => {
            if *progress_shown {
                eprintln!();
                *progress_shown = false;
            }
            let level = params["level"].as_str().unwrap_or("info");
            let logger = params["logger"]
                .as_str()
                .map(|logger| format!(" {logger}"))
                .unwrap_or_default();
            let data = match &params["data"] {
                Value::String(text) => text.clone(),
                other => other.to_string(),
            };
            eprintln!("[{level}{logger}] {data}");
        }
        _ => {}
    }
}

fn red(text: &str) -> String {
    if std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none() {
        format!("\x1b[31m{text}\x1b[0m")
    } else {
        text.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(arguments: &[&str]) -> CallOptions {
        let line = ["cargo-mcp-tool", "call", "search"].iter().chain(arguments);
        match <crate::cli::Cli as clap::Parser>::parse_from(line).command {
            crate::cli::Command::Call(options) => options,
            _ => unreachable!("parsed as `call`"),
        }
    }

    fn schema() -> Value {
        json!({"type": "object", "properties": {
            "query": {"type": "string"},
            "limit": {"type": "integer"},
            "ratio": {"type": ["number", "null"]},
            "tags": {"type": "array", "items": {"type": "string"}},
        }})
    }

    fn refusal(arguments: &[&str]) -> String {
        match super::arguments(&options(arguments), &schema()) {
            Ok(read) => panic!("{arguments:?} read as {read:?}"),
            Err(failure) => failure.to_string(),
        }
    }

    #[test]
    fn a_name_given_twice_is_refused_naming_it() {
        let message = refusal(&["query=a", "limit=1", "query=b"]);
        assert_eq!(
            message,
            "`query` is given twice (`query=a` and `query=b`): give it once"
        );
    }

    #[test]
    fn a_value_not_of_its_form_says_how_it_is_written() {
        let message = refusal(&["limit=many"]);
        assert_eq!(
            message,
            "`limit` takes an integer, written as digits (`limit=5`), and `many` is not one"
        );
        let message = refusal(&["ratio="]);
        assert!(
            message
                .starts_with("`ratio` takes a number, written as digits (`ratio=2.5`), or `null`")
                && message.ends_with("and an empty value is not one"),
            "{message}"
        );
        let message = refusal(&["tags=[a, b]"]);
        assert!(
            message.contains("an array, written as `[...]`"),
            "{message}"
        );
        assert!(
            message.ends_with(": expected value at column 2"),
            "{message}"
        );
        for message in [message, refusal(&["limit="])] {
            assert!(!message.contains("JSON"), "{message}");
            assert!(!message.contains("line"), "{message}");
            assert!(!message.contains("column 0"), "{message}");
        }
    }

    #[test]
    fn strings_are_taken_as_written_and_the_rest_as_their_form() {
        let read = super::arguments(
            &options(&["query=5", "limit=5", "ratio=null", r#"tags=["a"]"#]),
            &schema(),
        )
        .unwrap();
        assert_eq!(
            Value::Object(read),
            json!({"query": "5", "limit": 5, "ratio": null, "tags": ["a"]})
        );
    }
}
