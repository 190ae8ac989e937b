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
struct Catalog {
    tools: Vec<Value>,
    prompts: Vec<Value>,
    resources: Vec<Value>,
    templates: Vec<Value>,
}

impl Catalog {
    fn of(session: &mut Session) -> Result<Self, Failure> {
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
        println!(
            "    {name}: {}, {need}{}",
            type_of(property),
            dash(property["description"].as_str())
        );
    }
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
