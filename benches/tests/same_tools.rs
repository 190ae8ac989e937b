//! The styles serve the same tools with the same listings and the same wire output, so
//! that the benchmarks compare like with like.
//!
//! Ours come three times, as `async fn` (`ours`), as plain `fn` (`ours-sync`) and as
//! `async fn` that take a `Context` (`ours-context`); all list
//! exactly the same tools and answer alike. The hand-written server lists byte for byte
//! what `#[mcp_tool]` lists: names, descriptions, input and output schemas. rmcp's macros list schemas of their own
//! making, which is what a user of those macros serves; they are compared after undoing
//! each [`Difference`] below, and the test fails if one of them is no longer there, so
//! that the list stays true.

use std::collections::BTreeSet;

use mcp_tool_benches::hand::HandServer;
use mcp_tool_benches::payload::{add_arguments, summarize_arguments};
use mcp_tool_benches::rmcp_macros::{RmcpDefault, RmcpStored};
use mcp_tool_benches::session::Session;
use mcp_tool_benches::{TOOLS, descriptions, ours, runtime};
use rmcp::ServerHandler;
use rmcp::model::{CallToolResult, Tool};
use serde_json::{Map, Value, json};

struct Seen {
    /// The listing, by name.
    tools: Vec<Tool>,
    add: CallToolResult,
    summarize: CallToolResult,
}

async fn observe<S: ServerHandler>(server: S) -> Seen {
    let session = Session::connect(server).await.expect("connects");
    let mut tools = session.list().await.expect("lists").tools;
    tools.sort_by(|a, b| a.name.cmp(&b.name));
    let add = session.call("add", add_arguments(2, 3)).await.expect("add");
    let summarize = session
        .call("summarize", summarize_arguments())
        .await
        .expect("summarize");
    session.close().await;
    Seen {
        tools,
        add,
        summarize,
    }
}

/// The style `ours`: the tools as `async fn`, the reference the others are compared with.
async fn ours() -> Seen {
    observe(ours::server().expect("builds")).await
}

/// The style `ours-sync`: the same tools as plain `fn`.
async fn ours_sync() -> Seen {
    observe(ours::sync_server().expect("builds")).await
}

/// A listing as pretty JSON, to compare byte for byte and show a readable difference.
fn listing(tools: &[Tool]) -> String {
    serde_json::to_string_pretty(tools).expect("encodes")
}

fn names_and_descriptions(tools: &[Tool]) -> Vec<(String, Option<String>)> {
    tools
        .iter()
        .map(|t| {
            (
                t.name.to_string(),
                t.description.as_deref().map(str::to_owned),
            )
        })
        .collect()
}

#[tokio::test(flavor = "current_thread")]
async fn every_style_lists_the_same_tools_and_answers_alike() {
    let reference = ours().await;
    assert_eq!(
        names_and_descriptions(&reference.tools),
        vec![
            ("add".into(), Some(descriptions::ADD.into())),
            ("summarize".into(), Some(descriptions::SUMMARIZE.into())),
        ]
    );
    assert_eq!(TOOLS.len(), reference.tools.len());
    assert!(reference.tools.iter().all(|t| t.output_schema.is_some()));
    assert_eq!(
        reference.add.structured_content,
        Some(json!({ "result": 5 }))
    );
    let summary = reference
        .summarize
        .structured_content
        .clone()
        .expect("structured");
    assert_eq!(summary["sections"], 4);
    for (style, other) in [
        ("ours-sync", ours_sync().await),
        (
            "ours-context",
            observe(ours::context_server().expect("builds")).await,
        ),
        (
            "ours-runtime",
            observe(runtime::server().expect("builds")).await,
        ),
        (
            "ours-layer",
            observe(ours::layered_server("layer").expect("builds")).await,
        ),
        (
            "ours-rate-limit",
            observe(ours::layered_server("rate-limit").expect("builds")).await,
        ),
        (
            "ours-response-limit",
            observe(ours::layered_server("response-limit").expect("builds")).await,
        ),
        ("rmcp-default", observe(RmcpDefault).await),
        ("rmcp-stored", observe(RmcpStored::new()).await),
        ("hand", observe(HandServer::new()).await),
    ] {
        assert_eq!(
            names_and_descriptions(&other.tools),
            names_and_descriptions(&reference.tools),
            "{style}"
        );
        assert_eq!(other.add, reference.add, "{style}");
        assert_eq!(other.summarize, reference.summarize, "{style}");
    }
}

#[tokio::test(flavor = "current_thread")]
async fn every_variant_of_ours_and_the_hand_written_server_list_exactly_alike() {
    let ours = listing(&ours().await.tools);
    let sync = listing(&ours_sync().await.tools);
    assert_eq!(
        sync, ours,
        "the plain `fn` tools list otherwise than the `async fn` ones"
    );
    let context = listing(&observe(ours::context_server().expect("builds")).await.tools);
    assert_eq!(
        context, ours,
        "the tools that take a `Context` list otherwise than the others"
    );
    let run_time = listing(&observe(runtime::server().expect("builds")).await.tools);
    assert_eq!(
        run_time, ours,
        "the tools defined at run time list otherwise than the attribute tools"
    );
    let hand = listing(&observe(HandServer::new()).await.tools);
    // If `#[mcp_tool]` changes the schemas it writes, copy its new ones into
    // `src/hand/*.json` (they are ours' `inputSchema` and `outputSchema` of each tool).
    assert_eq!(hand, ours, "the hand-written listing differs from ours");
}

/// What rmcp's macros list differently from `#[mcp_tool]` for the same tools. Key order
/// is not compared either (rmcp writes `required` before `properties`); everything else
/// in each tool, schemas included, must be equal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Difference {
    /// rmcp's schemas declare their dialect, `"$schema":
    /// "https://json-schema.org/draft/2020-12/schema"`; ours leave it out (2020-12 is what
    /// MCP assumes without one). Undone by removing it.
    Dialect,
    /// rmcp's schemas list nested types once under `$defs` and point at them with
    /// `$ref`; ours write each in place. Undone by inlining, the keys beside a `$ref`
    /// (the field's description) winning over the definition's.
    Definitions,
    /// rmcp's integers and numbers carry a `format` (`int64`, `uint64`, `uint32`,
    /// `double`); ours carry none, but bound a `u32` with `"maximum": 4294967295`.
    /// Undone by turning `uint32` into that maximum and dropping every `format`.
    Formats,
    /// Ours close the arguments object with `"additionalProperties": false` (ours refuse
    /// unknown arguments); rmcp's schema of a serde struct leaves it open (serde ignores
    /// them). Undone by closing rmcp's.
    ClosedArguments,
    /// Ours keep the doc of the output type as the output schema's `description`
    /// (`summarize`: "What `summarize` returns."); rmcp's drop it. Undone by removing
    /// ours'.
    OutputDescription,
    /// rmcp's optional fields (an `Option` that `required` leaves out) also allow
    /// `null`, as `"type": ["integer", "null"]`; ours say optional through `required`
    /// alone, since single-`type` dialects cannot read a type array. Undone by dropping
    /// `null` from rmcp's.
    OptionalNull,
    /// rmcp's `add` returns a `Sum` struct, whose field doc ("The sum.") describes
    /// `result`; ours returns a bare `i64`, wrapped as `result`, with no doc. Undone by
    /// removing rmcp's.
    ResultDescription,
}

const ALL_DIFFERENCES: [Difference; 7] = [
    Difference::Dialect,
    Difference::Definitions,
    Difference::Formats,
    Difference::ClosedArguments,
    Difference::OutputDescription,
    Difference::OptionalNull,
    Difference::ResultDescription,
];

/// The largest `u32`, as ours bounds one.
const U32_MAX: u64 = u32::MAX as u64;

/// Calls `visit` on `schema` and on every schema nested in it (properties, items,
/// alternatives, definitions), parents first.
fn each_schema(schema: &mut Map<String, Value>, visit: &mut dyn FnMut(&mut Map<String, Value>)) {
    visit(schema);
    for key in ["properties", "$defs"] {
        if let Some(Value::Object(children)) = schema.get_mut(key) {
            for child in children.values_mut() {
                if let Value::Object(child) = child {
                    each_schema(child, visit);
                }
            }
        }
    }
    for key in ["items", "additionalProperties", "not"] {
        if let Some(Value::Object(child)) = schema.get_mut(key) {
            each_schema(child, visit);
        }
    }
    for key in ["oneOf", "anyOf", "allOf", "prefixItems"] {
        if let Some(Value::Array(children)) = schema.get_mut(key) {
            for child in children {
                if let Value::Object(child) = child {
                    each_schema(child, visit);
                }
            }
        }
    }
}

/// Replaces a `$ref` to `#/$defs/NAME` by the definition; keys beside the `$ref` win. A
/// schema without a `$ref` is left as it is: any difference it holds fails the comparison.
fn inline(schema: &mut Map<String, Value>, definitions: &Map<String, Value>) {
    let reference = match schema.remove("$ref") {
        None => return,
        Some(Value::String(reference)) => reference,
        Some(other) => panic!("a $ref that is not a string: {other}"),
    };
    let name = reference
        .strip_prefix("#/$defs/")
        .unwrap_or_else(|| panic!("a $ref outside $defs: {reference}"));
    let Some(Value::Object(definition)) = definitions.get(name) else {
        panic!("no definition {name}");
    };
    let beside = std::mem::replace(schema, definition.clone());
    schema.extend(beside);
}

#[derive(Clone, Copy, PartialEq)]
enum Side {
    Input,
    Output,
}

/// Undoes the known differences between rmcp's schema and ours for one tool and side,
/// noting which it found.
fn undo_differences(
    tool: &str,
    side: Side,
    ours: &mut Map<String, Value>,
    rmcp: &mut Map<String, Value>,
    found: &mut BTreeSet<Difference>,
) {
    if rmcp.remove("$schema").is_some() {
        found.insert(Difference::Dialect);
    }
    if let Some(Value::Object(definitions)) = rmcp.remove("$defs") {
        found.insert(Difference::Definitions);
        // Parents first, so a definition's own references are inlined in turn.
        each_schema(rmcp, &mut |schema| inline(schema, &definitions));
    }
    each_schema(rmcp, &mut |schema| {
        let format = match schema.get("format") {
            Some(Value::String(format)) => format.clone(),
            _ => return,
        };
        found.insert(Difference::Formats);
        schema.remove("format");
        if format == "uint32" {
            schema.insert("maximum".into(), U32_MAX.into());
        }
    });
    each_schema(rmcp, &mut |schema| {
        let required = schema.get("required").cloned().unwrap_or_default();
        let Some(Value::Object(properties)) = schema.get_mut("properties") else {
            return;
        };
        for (name, property) in properties {
            let optional = !required
                .as_array()
                .is_some_and(|names| names.iter().any(|n| n == name.as_str()));
            let Some(Value::Array(types)) = property.get("type") else {
                continue;
            };
            if optional && types.iter().any(|t| t == "null") {
                found.insert(Difference::OptionalNull);
                let types: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
                property["type"] = match <[Value; 1]>::try_from(types) {
                    Ok([single]) => single,
                    Err(types) => Value::Array(types),
                };
            }
        }
    });
    if side == Side::Input
        && ours.get("additionalProperties") == Some(&Value::Bool(false))
        && !rmcp.contains_key("additionalProperties")
    {
        found.insert(Difference::ClosedArguments);
        rmcp.insert("additionalProperties".into(), false.into());
    }
    if side == Side::Output && ours.contains_key("description") && !rmcp.contains_key("description")
    {
        found.insert(Difference::OutputDescription);
        ours.remove("description");
    }
    if tool == "add" && side == Side::Output {
        let result = |schema: &mut Map<String, Value>| {
            schema
                .get_mut("properties")
                .and_then(|p| p.get_mut("result"))
                .and_then(Value::as_object_mut)
                .map(|r| r.contains_key("description"))
        };
        if result(rmcp) == Some(true) && result(ours) == Some(false) {
            found.insert(Difference::ResultDescription);
            if let Some(Value::Object(result)) =
                rmcp.get_mut("properties").and_then(|p| p.get_mut("result"))
            {
                result.remove("description");
            }
        }
    }
}

fn schemas(tool: &Tool) -> (Map<String, Value>, Map<String, Value>) {
    let input = (*tool.input_schema).clone();
    let output = tool
        .output_schema
        .as_deref()
        .cloned()
        .unwrap_or_else(|| panic!("{} has no output schema", tool.name));
    (input, output)
}

#[tokio::test(flavor = "current_thread")]
async fn rmcp_macros_list_the_same_schemas_but_for_the_named_differences() {
    for (ours_style, reference) in [("ours", ours().await), ("ours-sync", ours_sync().await)] {
        for (rmcp_style, tools) in [
            ("rmcp-default", observe(RmcpDefault).await.tools),
            ("rmcp-stored", observe(RmcpStored::new()).await.tools),
        ] {
            let style = format!("{rmcp_style} against {ours_style}");
            compare_with_rmcp(&style, &reference.tools, &tools);
        }
    }
}

/// Compares rmcp's listing with ours, tool by tool, after undoing each [`Difference`];
/// fails if one of them was not found.
fn compare_with_rmcp(style: &str, reference: &[Tool], tools: &[Tool]) {
    assert_eq!(tools.len(), reference.len(), "{style}");
    let mut found = BTreeSet::new();
    for (ours, rmcp) in reference.iter().zip(tools) {
        let name = ours.name.as_ref();
        let (mut ours_in, mut ours_out) = schemas(ours);
        let (mut rmcp_in, mut rmcp_out) = schemas(rmcp);
        undo_differences(name, Side::Input, &mut ours_in, &mut rmcp_in, &mut found);
        undo_differences(name, Side::Output, &mut ours_out, &mut rmcp_out, &mut found);
        assert_eq!(
            Value::Object(rmcp_in),
            Value::Object(ours_in),
            "{style}: input schema of {name}"
        );
        assert_eq!(
            Value::Object(rmcp_out),
            Value::Object(ours_out),
            "{style}: output schema of {name}"
        );
        // Everything but the schemas, exactly.
        let rest = |tool: &Tool| {
            let mut value = serde_json::to_value(tool).expect("encodes");
            if let Value::Object(object) = &mut value {
                object.remove("inputSchema");
                object.remove("outputSchema");
            }
            value
        };
        assert_eq!(rest(rmcp), rest(ours), "{style}: {name}");
    }
    assert_eq!(
        found,
        BTreeSet::from(ALL_DIFFERENCES),
        "{style}: a named difference is gone; take it off the list"
    );
}
