//! Tools defined at run time: `Arguments` fails with the texts attribute tools give, every
//! fault at once; tools added and removed while a client is connected, which hears of it
//! (`notifications/tools/list_changed`) and lists the new tools; a call in flight on a
//! tool removed finishes; duplicate names name both origins; the builder's checks.

use std::sync::Arc;
use std::time::Duration;

use mcp_tool::testing::{TestClient, TestError};
use mcp_tool::{Arguments, CallError, Context, RuntimeTool, Server, ServerError, ToolError};
use serde_json::{Value, json};
use tokio::sync::{Notify, Semaphore};

/// A place to find.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Span {
    start: u32,
    end: u32,
}

/// Reads one argument of each kind and returns them joined with `|`.
#[mcp_tool::mcp_tool]
fn typed(
    text: String,
    count: i64,
    ratio: f64,
    flag: bool,
    #[arg(range(min = 1, max = 100))] limit: Option<i64>,
    span: Span,
) -> String {
    format!(
        "{text}|{count}|{ratio}|{flag}|{limit:?}|{}-{}",
        span.start, span.end
    )
}

/// `typed`, defined at run time: the same arguments, read by name.
fn typed_at_run_time() -> RuntimeTool {
    RuntimeTool::new("typed_at_run_time", "Reads one argument of each kind.").handler(
        |mut args: Arguments, _ctx: Context| async move {
            let text = args.required_str("text");
            let count = args.required_i64("count");
            let ratio = args.required_f64("ratio");
            let flag = args.required_bool("flag");
            let limit = args.optional_bounded_i64("limit", 1, 100);
            let span = args.required::<Span>("span");
            args.finish()?;
            let span = span.ok_or("unreachable: `finish` reports a missing span")?;
            Ok::<_, ToolError>(format!(
                "{text}|{count}|{ratio}|{flag}|{limit:?}|{}-{}",
                span.start, span.end
            ))
        },
    )
}

/// Reads every optional accessor and returns what it read.
fn optionals() -> RuntimeTool {
    RuntimeTool::new("optionals", "Reads optional arguments of each kind.").handler(
        |mut args: Arguments, _ctx: Context| async move {
            let text = args.optional_str("text");
            let count = args.optional_i64("count");
            let ratio = args.optional_f64("ratio");
            let flag = args.optional_bool("flag");
            let span = args.optional::<Span>("span").map(|s| (s.start, s.end));
            args.finish()?;
            Ok::<_, ToolError>(format!("{text:?}|{count:?}|{ratio:?}|{flag:?}|{span:?}"))
        },
    )
}

/// Returns its input unchanged.
#[mcp_tool::mcp_tool]
fn echo(text: String) -> String {
    text
}

fn fixed(name: &str, text: &'static str) -> RuntimeTool {
    RuntimeTool::new(name, "Returns a fixed text.")
        .handler(move |_args: Arguments, _ctx: Context| async move { Ok::<_, ToolError>(text) })
}

async fn client() -> TestClient {
    let server = Server::from_registry("runtime", "1")
        .only(["typed"])
        .tool(typed_at_run_time())
        .tool(optionals())
        .build()
        .unwrap();
    TestClient::connect(server).await.unwrap()
}

async fn error_text(client: &TestClient, name: &str, args: Value) -> String {
    let result = client.call(name, args).await.unwrap();
    assert!(result.is_error, "{name}: {}", result.text());
    result.text()
}

#[tokio::test]
async fn every_accessor_reads_its_type() {
    let client = client().await;
    let args = json!({
        "text": "a", "count": 5.0, "ratio": 0.5, "flag": true, "limit": 7,
        "span": { "start": 1, "end": 2 }
    });
    let result = client
        .call("typed_at_run_time", args.clone())
        .await
        .unwrap();
    assert_eq!(result.text(), "a|5|0.5|true|Some(7)|1-2");
    let attribute = client.call("typed", args).await.unwrap();
    assert_eq!(attribute.text(), result.text());

    let some = json!({
        "text": "a", "count": 3, "ratio": 1.5, "flag": false, "span": { "start": 4, "end": 5 }
    });
    let result = client.call("optionals", some).await.unwrap();
    assert_eq!(
        result.text(),
        r#"Some("a")|Some(3)|Some(1.5)|Some(false)|Some((4, 5))"#
    );
    let none = json!({ "text": null });
    let result = client.call("optionals", none).await.unwrap();
    assert_eq!(result.text(), "None|None|None|None|None");
}

#[tokio::test]
async fn every_fault_is_reported_at_once_in_the_words_of_attribute_tools() {
    let client = client().await;
    let bad = json!({
        "text": 1, "count": "many", "ratio": "half", "flag": "yes", "limit": 500,
        "span": { "start": 1, "end": -4 }, "limt": 3
    });
    let faults = "`text`: expected a string; `count`: expected an integer; \
                  `ratio`: expected a number; `flag`: expected `true` or `false`; \
                  `limit`: expected an integer from 1 to 100; \
                  `span.end`: expected an integer from 0 to 4294967295; \
                  unknown argument `limt` (did you mean `limit`?)";
    assert_eq!(
        error_text(&client, "typed_at_run_time", bad.clone()).await,
        format!("invalid arguments for tool `typed_at_run_time`: {faults}")
    );
    assert_eq!(
        error_text(&client, "typed", bad).await,
        format!("invalid arguments for tool `typed`: {faults}")
    );

    let missing = json!({ "span": { "start": 1 } });
    let faults = "missing argument `text`; missing argument `count`; missing argument \
                  `ratio`; missing argument `flag`; missing argument `span.end`";
    assert_eq!(
        error_text(&client, "typed_at_run_time", missing.clone()).await,
        format!("invalid arguments for tool `typed_at_run_time`: {faults}")
    );
    assert_eq!(
        error_text(&client, "typed", missing).await,
        format!("invalid arguments for tool `typed`: {faults}")
    );
}

#[tokio::test]
async fn each_optional_accessor_fails_with_its_expectation() {
    let client = client().await;
    let bad = json!({
        "text": [], "count": 1.5, "ratio": true, "flag": 0, "span": { "start": "x", "end": 1 }
    });
    assert_eq!(
        error_text(&client, "optionals", bad).await,
        "invalid arguments for tool `optionals`: `text`: expected a string; \
         `count`: expected an integer; `ratio`: expected a number; \
         `flag`: expected `true` or `false`; \
         `span.start`: expected an integer from 0 to 4294967295"
    );
}

#[tokio::test]
async fn a_value_sent_is_never_echoed() {
    let client = client().await;
    let secret = "password=hunter2";
    assert_eq!(
        error_text(&client, "optionals", json!({ "count": secret })).await,
        "invalid arguments for tool `optionals`: `count`: expected an integer"
    );
}

#[tokio::test]
async fn a_handler_that_skips_finish_still_fails_with_its_faults() {
    let careless = RuntimeTool::new("careless", "Reads a count and forgets to finish.").handler(
        |mut args: Arguments, _ctx: Context| async move {
            let count = args.required_i64("count");
            Ok::<_, ToolError>(format!("count {count}"))
        },
    );
    let server = Server::new("careless", "1").tool(careless).build().unwrap();
    let client = TestClient::connect(server).await.unwrap();
    assert_eq!(
        error_text(&client, "careless", json!({ "count": "x", "extra": 1 })).await,
        "invalid arguments for tool `careless`: `count`: expected an integer; \
         unknown argument `extra`"
    );
    let fine = client
        .call("careless", json!({ "count": 2 }))
        .await
        .unwrap();
    assert_eq!(fine.text(), "count 2");
}

#[tokio::test]
async fn arguments_listed_in_the_input_schema_are_not_unknown() {
    let lenient = RuntimeTool::new("lenient", "Reads nothing of what it lists.")
        .input_schema(json!({ "type": "object", "properties": { "note": { "type": "string" } } }))
        .handler(|args: Arguments, _ctx: Context| async move {
            args.finish()?;
            Ok::<_, ToolError>("ok")
        });
    let server = Server::new("lenient", "1").tool(lenient).build().unwrap();
    let client = TestClient::connect(server).await.unwrap();
    let result = client
        .call("lenient", json!({ "note": "x" }))
        .await
        .unwrap();
    assert_eq!(result.text(), "ok");
    assert_eq!(
        error_text(&client, "lenient", json!({ "nate": "x" })).await,
        "invalid arguments for tool `lenient`: unknown argument `nate` (did you mean `note`?)"
    );
}

#[tokio::test]
async fn tools_added_and_removed_while_a_client_is_connected() {
    let server = Server::from_registry("changing", "1")
        .only(["echo"])
        .build()
        .unwrap();
    let client = TestClient::connect(server.clone()).await.unwrap();
    let names = |tools: Vec<mcp_tool::model::ToolInfo>| {
        tools.into_iter().map(|t| t.name).collect::<Vec<_>>()
    };
    assert_eq!(names(client.list().await.unwrap()), ["echo"]);

    server.add_tool(fixed("greet", "hello")).unwrap();
    assert!(client.tool_list_changed(Duration::from_secs(5)).await);
    assert_eq!(names(client.list().await.unwrap()), ["echo", "greet"]);
    assert_eq!(
        client.call("greet", json!({})).await.unwrap().text(),
        "hello"
    );
    // Attribute tools are still found once the list changed.
    let echoed = client.call("echo", json!({ "text": "hi" })).await.unwrap();
    assert_eq!(echoed.text(), "hi");

    assert!(server.remove_tool("greet"));
    assert!(client.tool_list_changed(Duration::from_secs(5)).await);
    assert_eq!(names(client.list().await.unwrap()), ["echo"]);
    let error = match client.call("greet", json!({})).await {
        Err(TestError::Call(error)) => error,
        other => panic!("expected an unknown tool, got {other:?}"),
    };
    assert_eq!(error.code(), -32602);
    assert_eq!(error.to_string(), "unknown tool `greet`");

    // An attribute tool is removed the same way; the list is empty until one is added.
    assert!(server.tool_list().remove("echo"));
    assert!(client.tool_list_changed(Duration::from_secs(5)).await);
    assert!(client.list().await.unwrap().is_empty());
    assert!(!server.remove_tool("echo"));
    server.add_tool(fixed("echo", "added")).unwrap();
    assert!(client.tool_list_changed(Duration::from_secs(5)).await);
    assert_eq!(
        client.call("echo", json!({})).await.unwrap().text(),
        "added"
    );
    assert_eq!(names(server.tools().to_vec()), ["echo"]);
    // Nothing changed, nothing sent.
    assert!(!client.tool_list_changed(Duration::from_millis(100)).await);
}

#[tokio::test]
async fn every_session_hears_of_a_change() {
    let server = Server::from_registry("changing", "1")
        .only(["echo"])
        .build()
        .unwrap();
    let first = TestClient::connect(server.clone()).await.unwrap();
    let second = TestClient::connect(server.clone()).await.unwrap();
    // Each session is known once it is initialized.
    first.list().await.unwrap();
    second.list().await.unwrap();
    server.add_tool(fixed("greet", "hello")).unwrap();
    assert!(first.tool_list_changed(Duration::from_secs(5)).await);
    assert!(second.tool_list_changed(Duration::from_secs(5)).await);
    second.close().await;
    assert!(server.remove_tool("greet"));
    assert!(first.tool_list_changed(Duration::from_secs(5)).await);
}

#[tokio::test]
async fn a_call_in_flight_on_a_removed_tool_finishes() {
    let started = Arc::new(Notify::new());
    let release = Arc::new(Semaphore::new(0));
    let (on_start, gate) = (Arc::clone(&started), Arc::clone(&release));
    let slow = RuntimeTool::new("slow", "Waits until the test lets it finish.").handler(
        move |args: Arguments, _ctx: Context| {
            let (on_start, gate) = (Arc::clone(&on_start), Arc::clone(&gate));
            async move {
                args.finish()?;
                on_start.notify_one();
                let _permit = gate.acquire().await.map_err(|e| e.to_string())?;
                Ok::<_, ToolError>("finished")
            }
        },
    );
    let server = Server::new("slow", "1").tool(slow).build().unwrap();
    let client = Arc::new(TestClient::connect(server.clone()).await.unwrap());
    let caller = Arc::clone(&client);
    let call = tokio::spawn(async move { caller.call("slow", json!({})).await });
    started.notified().await;
    assert!(server.remove_tool("slow"));
    assert!(client.tool_list_changed(Duration::from_secs(5)).await);
    release.add_permits(1);
    let result = call.await.unwrap().unwrap();
    assert!(!result.is_error, "{}", result.text());
    assert_eq!(result.text(), "finished");
    assert!(matches!(
        client.call("slow", json!({})).await,
        Err(TestError::Call(CallError::UnknownTool { .. }))
    ));
}

#[test]
fn a_duplicate_name_names_both_origins() {
    let echo = (mcp_tool::registered().into_iter())
        .find(|entry| entry.name() == "echo")
        .unwrap();
    let line = line!() + 1;
    let again = RuntimeTool::new("echo", "Returns its input.");
    let error = Server::from_registry("dup", "1")
        .only(["echo"])
        .tool(again.handler(|_a: Arguments, _c: Context| async { Ok::<_, ToolError>("") }))
        .build()
        .unwrap_err();
    let here = format!("{}:{line}", file!());
    assert_eq!(
        error.to_string(),
        format!(
            "two tools are named `echo`: one defined at {}, the other added at run time at \
             {here}; give one of them another name, or remove the first with `remove_tool` \
             before adding the second",
            echo.location()
        )
    );
    assert!(
        echo.location()
            .starts_with("runtime/tests/runtime_tools.rs:")
    );

    let server = Server::new("dup", "1")
        .tool(fixed("greet", "a"))
        .build()
        .unwrap();
    let line = line!() + 1;
    let error = server.add_tool(fixed_here("greet")).unwrap_err();
    let first = server_tool_origin();
    assert!(matches!(&error, ServerError::ToolNameTaken { .. }));
    assert_eq!(
        error.to_string(),
        format!(
            "two tools are named `greet`: one defined at {first} (added at run time), the other \
             added at run time at {}:{line}; give one of them another name, or remove the first \
             with `remove_tool` before adding the second",
            file!()
        )
    );

    // Two run-time tools given to the builder: the first is the one the server has.
    let error = Server::new("dup", "1")
        .tool(fixed("twin", "a"))
        .tool(fixed("twin", "b"))
        .build()
        .unwrap_err();
    let ServerError::ToolNameTaken { name, first, .. } = &error else {
        panic!("not a name taken: {error}");
    };
    assert_eq!(name, "twin");
    assert_eq!(
        *first,
        format!("{} (added at run time)", server_tool_origin())
    );
}

#[tokio::test]
async fn a_run_time_tool_given_to_the_builder_is_called_removed_and_added_again() {
    let server = Server::from_registry("built", "1")
        .only(["echo"])
        .tool(fixed("greet", "hello"))
        .build()
        .unwrap();
    let client = TestClient::connect(server.clone()).await.unwrap();
    assert_eq!(
        client.call("greet", json!({})).await.unwrap().text(),
        "hello"
    );
    assert!(server.remove_tool("greet"));
    assert!(matches!(
        client.call("greet", json!({})).await,
        Err(TestError::Call(CallError::UnknownTool { .. }))
    ));
    server.add_tool(fixed("greet", "again")).unwrap();
    assert_eq!(
        client.call("greet", json!({})).await.unwrap().text(),
        "again"
    );
    let names: Vec<String> = server
        .tools()
        .iter()
        .map(|tool| tool.name.clone())
        .collect();
    assert_eq!(names, ["echo", "greet"]);
}

/// Where `fixed` makes its tools.
fn server_tool_origin() -> String {
    fixed("probe", "").location()
}

#[track_caller]
fn fixed_here(name: &str) -> RuntimeTool {
    let location = std::panic::Location::caller();
    // `RuntimeTool::new` takes its caller's location through `#[track_caller]` frames.
    let tool = RuntimeTool::new(name, "Returns a fixed text.")
        .handler(|_a: Arguments, _c: Context| async { Ok::<_, ToolError>("") });
    assert_eq!(
        tool.location(),
        format!("{}:{}", location.file(), location.line())
    );
    tool
}

#[test]
fn the_builder_checks_what_the_attribute_checks_at_compile_time() {
    let handler = |_a: Arguments, _c: Context| async { Ok::<_, ToolError>("") };
    let problem = |tool: RuntimeTool| -> String {
        let location = tool.location();
        let error = Server::new("checks", "1").tool(tool).build().unwrap_err();
        assert!(matches!(&error, ServerError::InvalidTool { .. }), "{error}");
        let text = error.to_string();
        let (head, problem) = text.split_once(" cannot be added: ").unwrap();
        assert!(head.ends_with(&format!("made at {location}")), "{text}");
        problem.to_owned()
    };
    assert_eq!(
        problem(RuntimeTool::new("searchFiles", "Finds files.").handler(handler)),
        "its name must be snake_case (lowercase letters, digits and `_`, starting with a \
         letter), and `searchFiles` is not: call it `search_files`"
    );
    assert_eq!(
        problem(RuntimeTool::new("find", "  ").handler(handler)),
        "its description is empty: say what the tool does, with which inputs and outputs"
    );
    let not_an_object = "not a JSON Schema of an object: write one with `\"type\": \"object\"` \
                         and the arguments under `\"properties\"`";
    assert_eq!(
        problem(
            RuntimeTool::new("find", "Finds files.")
                .input_schema(json!({ "type": "string" }))
                .handler(handler)
        ),
        format!("its input schema is of type \"string\", {not_an_object}")
    );
    assert_eq!(
        problem(
            RuntimeTool::new("find", "Finds files.")
                .input_schema(json!(["text"]))
                .handler(handler)
        ),
        format!("its input schema is an array, {not_an_object}")
    );
    assert_eq!(
        problem(
            RuntimeTool::new("find", "Finds files.")
                .output_schema(json!({ "items": {} }))
                .handler(handler)
        ),
        format!("its output schema is without `\"type\"`, {not_an_object}")
    );
    assert_eq!(
        problem(RuntimeTool::new("find", "Finds files.")),
        "it has no handler: give it the function its calls run with `.handler(...)`"
    );
    // Scopes, as `scopes = [...]` is checked: RFC 6749 tokens, none empty, none twice.
    let scoped = |scopes: &[&str]| {
        RuntimeTool::new("find", "Finds files.")
            .scopes(scopes.iter().copied())
            .handler(handler)
    };
    assert_eq!(
        problem(scoped(&["files:read", ""])),
        "a scope is empty: write one such as \"files:read\""
    );
    for bad in [
        "files:read files:write",
        "files\"read",
        "files\\read",
        "fichiers:lécture",
    ] {
        let text = problem(scoped(&[bad]));
        assert!(
            text.starts_with(&format!(
                "the scope {bad:?} is not one word of printable ASCII"
            )),
            "{text}"
        );
    }
    assert_eq!(
        problem(scoped(&["files:read", "files:read"])),
        "the scope \"files:read\" is given twice: give it once"
    );
    // Headers, as `#[arg(header = "...")]` is checked: a primitive property, a token, once.
    let headed = |argument: &str, header: &str| {
        RuntimeTool::new("find", "Finds files.")
            .input_schema(json!({
                "type": "object",
                "properties": { "region": { "type": "string" }, "filter": { "type": "object" } }
            }))
            .header(argument, header)
            .handler(handler)
    };
    assert!(problem(headed("region", "Re gion")).contains("cannot be an HTTP header name"));
    assert!(problem(headed("nowhere", "Region")).contains("has no property for"));
    assert!(problem(headed("filter", "Filter")).contains("only a string, an integer or a boolean"));
    assert!(
        problem(headed("region", "Region").header("region", "region"))
            .contains("already mirrored in `Mcp-Param-region`")
    );
    Server::new("checks", "1")
        .tool(scoped(&["files:read", "files:write"]))
        .build()
        .expect("well-formed scopes are accepted");
    let full = format!("the tool `searchFiles` made at {}", file!());
    let error = Server::new("checks", "1")
        .tool(RuntimeTool::new("searchFiles", "Finds files.").handler(handler))
        .build()
        .unwrap_err();
    assert!(error.to_string().starts_with(&full), "{error}");
}

#[tokio::test]
async fn a_tool_gets_its_schemas_annotations_and_tags_listed() {
    /// The arguments of `find`.
    #[derive(serde::Deserialize, schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Find {
        /// A pattern.
        pattern: String,
        /// At most this many. Defaults to 10.
        limit: Option<u8>,
    }
    let find = RuntimeTool::new("find", "Finds files by pattern.")
        .title("Find files")
        .input_schema_for::<Find>()
        .output_schema(
            json!({ "type": "object", "properties": { "count": { "type": "integer" } } }),
        )
        .read_only(true)
        .open_world(false)
        .tags(["files"])
        .handler(|args: Arguments, _ctx: Context| async move {
            args.finish()?;
            let result = mcp_tool::model::ToolResult::new(vec![mcp_tool::model::Content::text(
                "{\"count\":2}",
            )])
            .with_structured(json!({ "count": 2 }));
            Ok::<_, ToolError>(result)
        });
    let server = Server::new("find", "1").tool(find).build().unwrap();
    let client = TestClient::connect(server).await.unwrap();
    let listed = client.tool("find").await.unwrap().unwrap();
    assert_eq!(listed.title.as_deref(), Some("Find files"));
    assert_eq!(
        Value::Object(listed.input_schema),
        json!({
            "description": "The arguments of `find`.",
            "type": "object",
            "properties": {
                "pattern": { "description": "A pattern.", "type": "string" },
                "limit": {
                    "description": "At most this many. Defaults to 10.",
                    "type": "integer", "minimum": 0, "maximum": 255
                }
            },
            "required": ["pattern"],
            "additionalProperties": false
        })
    );
    let annotations = listed.annotations.unwrap();
    assert_eq!(
        (annotations.read_only, annotations.open_world),
        (Some(true), Some(false))
    );
    assert_eq!(listed.meta.unwrap()["mcp-tool/tags"], json!(["files"]));
    #[derive(serde::Deserialize)]
    struct Count {
        count: u32,
    }
    let counted: Count = client
        .call_as("find", json!({ "pattern": "*.rs" }))
        .await
        .unwrap();
    assert_eq!(counted.count, 2);
}

#[tokio::test]
async fn a_handler_error_and_a_panic_fail_the_call_only() {
    let fails = RuntimeTool::new("fails", "Always fails.").handler(
        |_args: Arguments, _ctx: Context| async {
            Err::<String, _>(ToolError::new("no quota left"))
        },
    );
    let panics = RuntimeTool::new("panics", "Always panics.").handler(
        |_args: Arguments, _ctx: Context| async {
            if true {
                panic!("boom");
            }
            Ok::<_, ToolError>("")
        },
    );
    let server = Server::new("failing", "1")
        .tool(fails)
        .tool(panics)
        .build()
        .unwrap();
    let client = TestClient::connect(server).await.unwrap();
    assert_eq!(
        error_text(&client, "fails", json!({})).await,
        "tool `fails` failed: no quota left"
    );
    assert_eq!(
        error_text(&client, "panics", json!({})).await,
        "tool `panics` failed: it panicked: boom"
    );
}

#[tokio::test]
async fn a_structured_value_reaches_the_client_as_an_attribute_tools_does() {
    #[derive(serde::Serialize)]
    struct Count {
        count: u32,
    }
    let counts = RuntimeTool::new("counts", "Counts to two.")
        .output_schema(
            json!({ "type": "object", "properties": { "count": { "type": "integer" } } }),
        )
        .handler(|_args: Arguments, _ctx: Context| async {
            Ok::<_, ToolError>(mcp_tool::Structured(Count { count: 2 }))
        });
    // A map with keys that are not strings has no JSON form.
    let unserializable = RuntimeTool::new("unserializable", "Returns what JSON cannot hold.")
        .handler(|_args: Arguments, _ctx: Context| async {
            let map = std::collections::BTreeMap::from([((1, 2), "secret-ish")]);
            Ok::<_, ToolError>(mcp_tool::Structured(map))
        });
    let server = Server::new("structured", "1")
        .tool(counts)
        .tool(unserializable)
        .build()
        .unwrap();
    let client = TestClient::connect(server).await.unwrap();
    let result = client.call("counts", json!({})).await.unwrap();
    assert!(!result.is_error);
    assert_eq!(result.structured, Some(json!({ "count": 2 })));
    assert_eq!(result.text(), r#"{"count":2}"#);
    let failed = client.call("unserializable", json!({})).await.unwrap();
    assert!(failed.is_error);
    // What serde says, never the value.
    assert_eq!(
        failed.text(),
        "tool `unserializable` failed: the result could not be serialized: key must be a string"
    );
}

#[tokio::test]
async fn the_server_declares_that_its_tool_list_changes() {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let server = Server::new("declares", "1")
        .tool(fixed("greet", "hi"))
        .build()
        .unwrap();
    let (client, server_io) = tokio::io::duplex(64 * 1024);
    let (read, write) = tokio::io::split(server_io);
    tokio::spawn(server.serve_lines(read, write));
    let (client_read, mut client_write) = tokio::io::split(client);
    let initialize = json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": { "name": "raw", "version": "0" }
        }
    });
    client_write
        .write_all(format!("{initialize}\n").as_bytes())
        .await
        .unwrap();
    let mut lines = BufReader::new(client_read).lines();
    let reply: Value = serde_json::from_str(&lines.next_line().await.unwrap().unwrap()).unwrap();
    assert_eq!(
        reply["result"]["capabilities"]["tools"],
        json!({ "listChanged": true })
    );
}
