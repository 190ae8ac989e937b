//! `list`: the server's tools, prompts and resources, for a person or as JSON.

use clap::Args;
use serde_json::{Value, json};

use crate::failure::Failure;
use crate::session::{Launch, PROTOCOL_VERSION, Session};

/// `list`'s options.
#[derive(Debug, Args)]
pub(crate) struct ListOptions {
    #[command(flatten)]
    pub(crate) launch: Launch,
    /// Print JSON: the server's own descriptions, as it sent them.
    #[arg(long)]
    pub(crate) json: bool,
}

/// Everything the server offers.
pub(crate) struct Catalog {
    pub(crate) tools: Vec<Value>,
    pub(crate) prompts: Vec<Value>,
    resources: Vec<Value>,
    templates: Vec<Value>,
}

impl Catalog {
    /// Lists each kind of item the server declared a capability for.
    pub(crate) fn of(session: &mut Session) -> Result<Self, Failure> {
        let tools = if session.has_capability("tools") {
            session.list_all("tools/list", "tools")?
        } else {
            Vec::new()
        };
        let prompts = if session.has_capability("prompts") {
            session.list_all("prompts/list", "prompts")?
        } else {
            Vec::new()
        };
        let (resources, templates) = if session.has_capability("resources") {
            (
                session.list_all("resources/list", "resources")?,
                session.list_all("resources/templates/list", "resourceTemplates")?,
            )
        } else {
            (Vec::new(), Vec::new())
        };
        Ok(Self {
            tools,
            prompts,
            resources,
            templates,
        })
    }
}

pub(crate) fn list(options: &ListOptions) -> Result<(), Failure> {
    let mut session = options.launch.start()?;
    let catalog = Catalog::of(&mut session)?;
    let initialized = &session.initialized;
    if options.json {
        let out = json!({
            "serverInfo": initialized["serverInfo"],
            "protocolVersion": initialized["protocolVersion"],
            "tools": catalog.tools,
            "prompts": catalog.prompts,
            "resources": catalog.resources,
            "resourceTemplates": catalog.templates,
        });
        println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
        return Ok(());
    }
    let server = &initialized["serverInfo"];
    let version = initialized["protocolVersion"]
        .as_str()
        .unwrap_or(PROTOCOL_VERSION);
    println!(
        "{} {} (protocol {version})",
        server["name"].as_str().unwrap_or("server"),
        server["version"].as_str().unwrap_or("")
    );
    println!("\nTools ({})", catalog.tools.len());
    for tool in &catalog.tools {
        print_tool(tool);
    }
    if !catalog.prompts.is_empty() {
        println!("\nPrompts ({})", catalog.prompts.len());
        for prompt in &catalog.prompts {
            println!(
                "  {}{}",
                prompt["name"].as_str().unwrap_or("?"),
                titled(prompt)
            );
            print_description(prompt, "    ");
            for argument in prompt["arguments"].as_array().into_iter().flatten() {
                let required = if argument["required"] == true {
                    "required"
                } else {
                    "optional"
                };
                println!(
                    "    {}: {required}{}",
                    argument["name"].as_str().unwrap_or("?"),
                    dash(argument["description"].as_str())
                );
            }
        }
    }
    if !catalog.resources.is_empty() {
        println!("\nResources ({})", catalog.resources.len());
        for resource in &catalog.resources {
            let mime = resource["mimeType"]
                .as_str()
                .map(|mime| format!(" [{mime}]"))
                .unwrap_or_default();
            println!(
                "  {}{mime}{}",
                resource["uri"].as_str().unwrap_or("?"),
                dash(resource["name"].as_str())
            );
        }
    }
    if !catalog.templates.is_empty() {
        println!("\nResource templates ({})", catalog.templates.len());
        for template in &catalog.templates {
            println!(
                "  {}{}",
                template["uriTemplate"].as_str().unwrap_or("?"),
                dash(template["name"].as_str())
            );
        }
    }
    Ok(())
}

fn dash(text: Option<&str>) -> String {
    text.map(|text| format!(" — {}", first_line(text)))
        .unwrap_or_default()
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("")
}

fn titled(item: &Value) -> String {
    let title = item["title"]
        .as_str()
        .or_else(|| item["annotations"]["title"].as_str());
    title.map(|title| format!(" — {title}")).unwrap_or_default()
}

fn print_description(item: &Value, indent: &str) {
    if let Some(description) = item["description"].as_str() {
        println!("{indent}{}", first_line(description));
    }
}

fn print_tool(tool: &Value) {
    let hints: Vec<&str> = [
        ("readOnlyHint", "read-only"),
        ("destructiveHint", "destructive"),
        ("idempotentHint", "idempotent"),
        ("openWorldHint", "open-world"),
    ]
    .into_iter()
    .filter(|(key, _)| tool["annotations"][key] == true)
    .map(|(_, shown)| shown)
    .collect();
    let hints = if hints.is_empty() {
        String::new()
    } else {
        format!("  [{}]", hints.join(", "))
    };
    println!(
        "  {}{}{hints}",
        tool["name"].as_str().unwrap_or("?"),
        titled(tool)
    );
    print_description(tool, "    ");
    let schema = &tool["inputSchema"];
    let required: Vec<&str> = schema["required"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    for (name, property) in schema["properties"].as_object().into_iter().flatten() {
        let need = if required.contains(&name.as_str()) {
            "required"
        } else {
            "optional"
        };
        let mut said = vec![type_of(property), need.to_owned()];
        said.extend(constraints(property));
        println!(
            "    {name}: {}{}",
            said.join(", "),
            dash(property["description"].as_str())
        );
    }
}

/// What the schema asks of a property's value beyond its type, as a person says it:
/// `1 to 100`, `at most 64 characters`, `matching ^[a-z]+$`, `format date`, `default 10`.
fn constraints(property: &Value) -> Vec<String> {
    let number = |key: &str| property.get(key).filter(|value| value.is_number());
    let mut said = Vec::new();
    let low = (number("minimum").map(|low| (">=", low)))
        .or_else(|| number("exclusiveMinimum").map(|low| (">", low)));
    let high = (number("maximum").map(|high| ("<=", high)))
        .or_else(|| number("exclusiveMaximum").map(|high| ("<", high)));
    match (low, high) {
        (Some((">=", low)), Some(("<=", high))) => said.push(format!("{low} to {high}")),
        (Some((above, low)), Some((below, high))) => {
            said.push(format!("{above} {low} and {below} {high}"));
        }
        (Some((above, bound)), None) | (None, Some((above, bound))) => {
            said.push(format!("{above} {bound}"));
        }
        (None, None) => {}
    }
    if let Some(step) = number("multipleOf") {
        said.push(format!("a multiple of {step}"));
    }
    for (low, high, unit) in [
        ("minLength", "maxLength", "characters"),
        ("minItems", "maxItems", "items"),
        ("minProperties", "maxProperties", "properties"),
    ] {
        match (number(low), number(high)) {
            (Some(low), Some(high)) if low == high => said.push(format!("{low} {unit}")),
            (Some(low), Some(high)) => said.push(format!("{low} to {high} {unit}")),
            (Some(low), None) => said.push(format!("at least {low} {unit}")),
            (None, Some(high)) => said.push(format!("at most {high} {unit}")),
            (None, None) => {}
        }
    }
    if property["uniqueItems"] == true {
        said.push("no item twice".to_owned());
    }
    if let Some(pattern) = property["pattern"].as_str() {
        said.push(format!("matching {pattern}"));
    }
    if let Some(format) = property["format"].as_str() {
        said.push(format!("format {format}"));
    }
    if let Some(default) = property.get("default") {
        said.push(format!("default {default}"));
    }
    said
}

/// A property's type as a person says it: `integer`, `string | null`, `array of string`,
/// `one of "asc", "desc"`.
pub(crate) fn type_of(property: &Value) -> String {
    if let Some(values) = property["enum"].as_array() {
        let values: Vec<String> = values.iter().map(Value::to_string).collect();
        return format!("one of {}", values.join(", "));
    }
    match &property["type"] {
        Value::String(kind) if kind == "array" && property["items"].is_object() => {
            format!("array of {}", type_of(&property["items"]))
        }
        Value::String(kind) => kind.clone(),
        Value::Array(kinds) => kinds
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(" | "),
        _ => match property["anyOf"]
            .as_array()
            .or_else(|| property["oneOf"].as_array())
        {
            Some(branches) => branches.iter().map(type_of).collect::<Vec<_>>().join(" | "),
            None => "any".to_owned(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constraints_are_said_as_a_person_reads_them() {
        let said = |property: Value| constraints(&property).join(", ");
        assert_eq!(
            said(json!({"type": "integer", "minimum": 1, "maximum": 100, "default": 10})),
            "1 to 100, default 10"
        );
        assert_eq!(
            said(
                json!({"type": "number", "exclusiveMinimum": 0, "maximum": 1.5, "multipleOf": 0.5})
            ),
            "> 0 and <= 1.5, a multiple of 0.5"
        );
        assert_eq!(
            said(json!({"type": "string", "minLength": 1, "maxLength": 64, "pattern": "^[a-z]+$"})),
            "1 to 64 characters, matching ^[a-z]+$"
        );
        assert_eq!(
            said(json!({"type": "string", "format": "date", "default": "2025-01-01"})),
            "format date, default \"2025-01-01\""
        );
        assert_eq!(
            said(json!({"type": "array", "maxItems": 3, "uniqueItems": true})),
            "at most 3 items, no item twice"
        );
        assert_eq!(
            said(json!({"type": "string", "minLength": 2, "maxLength": 2})),
            "2 characters"
        );
        assert_eq!(said(json!({"type": "integer", "minimum": 0})), ">= 0");
        assert_eq!(said(json!({"type": "boolean"})), "");
    }
}
