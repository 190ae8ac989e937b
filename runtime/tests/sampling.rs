//! `Context::sample`: the model's text comes back; every option reaches the client; a
//! client without the capability, a client that refuses, a call outside a session and a
//! client on protocol 2026-07-28 each get an error that says why, at once; on that
//! protocol, a client without the capability gets MissingRequiredClientCapability.

mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_tool::model::{
    Content, ModelPreferences, Role, SamplingMessage, SamplingRequest, SamplingResponse,
};
use mcp_tool::testing::{TestClient, TestClientBuilder};
use mcp_tool::{Context, Server, ToolError, mcp_tool};
use serde_json::json;

/// Asks the client's model the prompt and returns its answer.
#[mcp_tool]
async fn ask(ctx: Context, prompt: String) -> Result<String, ToolError> {
    let answer = ctx.sample(prompt).await?;
    Ok(format!("LLM response: {answer}"))
}

/// Asks with every option set.
#[mcp_tool]
async fn ask_with_options(ctx: Context) -> Result<String, ToolError> {
    let request = SamplingRequest::conversation([
        SamplingMessage::user("Name a prime number."),
        SamplingMessage::assistant("7"),
        SamplingMessage::user("A larger one?"),
    ])
    .with_system_prompt("Answer with a number alone.")
    .with_max_tokens(100)
    .with_temperature(0.5)
    .with_stop_sequences(["\n\n"])
    .with_model_preferences(
        ModelPreferences::new()
            .with_hint("claude-haiku")
            .with_hint("gpt-mini")
            .with_cost_priority(0.25)
            .with_speed_priority(0.75)
            .with_intelligence_priority(1.0),
    );
    let response = ctx.sample_response(request).await?;
    Ok(format!(
        "{} by {} ({})",
        response.text().unwrap_or("-"),
        response.model,
        response.stop_reason.as_deref().unwrap_or("-")
    ))
}

/// Asks with a priority out of range.
#[mcp_tool]
async fn ask_too_cheaply(ctx: Context) -> Result<String, ToolError> {
    let preferences = ModelPreferences::new().with_cost_priority(2.0);
    ctx.sample(SamplingRequest::new("hi").with_model_preferences(preferences))
        .await
}

/// Asks from a sync tool, on its own thread.
#[mcp_tool]
fn ask_from_a_thread(ctx: Context, prompt: String) -> Result<String, ToolError> {
    tokio::runtime::Handle::current().block_on(ctx.sample(prompt))
}

/// The requests a test client received.
type Seen = Arc<Mutex<Vec<SamplingRequest>>>;

/// A client whose model answers `text`, recording each request.
fn answering(text: &'static str) -> (TestClientBuilder, Seen) {
    let seen = Seen::default();
    let record = Arc::clone(&seen);
    let builder = TestClient::builder().on_sampling(move |request| {
        record.lock().unwrap().push(request);
        Ok(SamplingResponse::new("test-model", Content::text(text)).with_stop_reason("endTurn"))
    });
    (builder, seen)
}

/// Calls `name`, failing the test if the call takes more than five seconds.
async fn call(client: &TestClient, name: &str, args: serde_json::Value) -> (bool, String) {
    let call = client.call(name, args);
    let result = tokio::time::timeout(Duration::from_secs(5), call)
        .await
        .expect("an answer within five seconds")
        .unwrap();
    (result.is_error, result.text())
}

#[tokio::test]
async fn the_models_text_is_the_answer() {
    let (builder, seen) = answering("Paris");
    let client = builder.from_registry().await.unwrap();
    let args = json!({ "prompt": "What is the capital of France?" });
    assert_eq!(
        call(&client, "ask", args).await,
        (false, "LLM response: Paris".into())
    );
    let seen = seen.lock().unwrap();
    let [request] = seen.as_slice() else {
        panic!("one request expected, got {seen:?}");
    };
    assert_eq!(request.prompt(), Some("What is the capital of France?"));
    assert_eq!(request.max_tokens, SamplingRequest::DEFAULT_MAX_TOKENS);
    assert_eq!(request.system_prompt, None);
    assert_eq!(request.model_preferences, None);
}

#[tokio::test]
async fn every_option_reaches_the_client() {
    let (builder, seen) = answering("11");
    let client = builder.from_registry().await.unwrap();
    assert_eq!(
        call(&client, "ask_with_options", json!({})).await,
        (false, "11 by test-model (endTurn)".into())
    );
    let request = seen.lock().unwrap().pop().unwrap();
    let roles: Vec<(Role, Option<&str>)> = request
        .messages
        .iter()
        .map(|m| (m.role, m.content.as_text()))
        .collect();
    assert_eq!(
        roles,
        [
            (Role::User, Some("Name a prime number.")),
            (Role::Assistant, Some("7")),
            (Role::User, Some("A larger one?")),
        ]
    );
    assert_eq!(
        request.system_prompt.as_deref(),
        Some("Answer with a number alone.")
    );
    assert_eq!(request.max_tokens, 100);
    assert_eq!(request.temperature, Some(0.5));
    assert_eq!(request.stop_sequences, ["\n\n"]);
    let preferences = request.model_preferences.unwrap();
    assert_eq!(preferences.hints, ["claude-haiku", "gpt-mini"]);
    assert_eq!(preferences.cost_priority, Some(0.25));
    assert_eq!(preferences.speed_priority, Some(0.75));
    assert_eq!(preferences.intelligence_priority, Some(1.0));
}

#[tokio::test]
async fn a_sync_tool_samples_from_its_thread() {
    let (builder, _) = answering("from a thread");
    let client = builder.from_registry().await.unwrap();
    let args = json!({ "prompt": "hi" });
    assert_eq!(
        call(&client, "ask_from_a_thread", args).await,
        (false, "from a thread".into())
    );
}

#[tokio::test]
async fn a_client_without_the_capability_is_named_and_never_asked() {
    let client = TestClient::from_registry().await.unwrap();
    let (is_error, text) = call(&client, "ask", json!({ "prompt": "hi" })).await;
    assert!(is_error);
    assert_eq!(
        text,
        "tool `ask` failed: the client does not support sampling (it did not declare the capability `sampling`)"
    );
}

#[tokio::test]
async fn a_client_that_refuses_is_a_tool_error_with_its_reason() {
    let client = TestClient::builder()
        .on_sampling(|_| Err("User rejected sampling request".into()))
        .from_registry()
        .await
        .unwrap();
    let (is_error, text) = call(&client, "ask", json!({ "prompt": "hi" })).await;
    assert!(is_error);
    assert_eq!(
        text,
        "tool `ask` failed: the client refused the sampling request: User rejected sampling request \
         (JSON-RPC error -32603)"
    );
}

#[tokio::test]
async fn an_answer_that_is_not_text_is_named() {
    let client = TestClient::builder()
        .on_sampling(|_| {
            let png = Content::image(b"\x89PNG\r\n\x1a\n", "image/png");
            Ok(SamplingResponse::new("painter", png))
        })
        .from_registry()
        .await
        .unwrap();
    let (is_error, text) = call(&client, "ask", json!({ "prompt": "draw" })).await;
    assert!(is_error);
    assert_eq!(
        text,
        "tool `ask` failed: the client's model answered with an image, not text"
    );
}

#[tokio::test]
async fn a_priority_out_of_range_is_refused_before_sending() {
    let (builder, seen) = answering("unused");
    let client = builder.from_registry().await.unwrap();
    let (is_error, text) = call(&client, "ask_too_cheaply", json!({})).await;
    assert!(is_error);
    assert_eq!(
        text,
        "tool `ask_too_cheaply` failed: the cost priority of a sampling request must be from 0 to 1, not 2"
    );
    assert!(seen.lock().unwrap().is_empty());
}

#[tokio::test]
async fn a_call_outside_a_session_fails_at_once() {
    let server = Server::from_registry("direct", "1").build().unwrap();
    let mut args = serde_json::Map::new();
    args.insert("prompt".into(), "hi".into());
    let result = server.call("ask", args).await.unwrap();
    assert!(result.is_error);
    assert_eq!(
        result.text(),
        "tool `ask` failed: sampling needs a client to ask, and this call has none: it was made through \
         `ToolServer::call`, outside a session"
    );
}

#[tokio::test]
async fn a_client_on_protocol_2026_is_asked_in_an_input_required_result() {
    // Protocol 2026-07-28 has no handshake: each request carries the client's metadata,
    // and the question goes back in the result, not as a request during the call.
    let (mut client, _session) = common::RawClient::connect(common::server());
    let call = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {
            "name": "ask", "arguments": { "prompt": "hi" },
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientInfo": { "name": "modern", "version": "1" },
                "io.modelcontextprotocol/clientCapabilities": { "sampling": {} }
            }
        }
    });
    client.send(&call.to_string()).await;
    let reply = client.receive().await;
    let result = &reply["result"];
    assert_eq!(result["resultType"], "input_required", "{reply}");
    let request = &result["inputRequests"]["sampling-1"];
    assert_eq!(request["method"], "sampling/createMessage", "{reply}");
    assert_eq!(
        request["params"]["messages"][0]["content"]["text"], "hi",
        "{reply}"
    );
    assert!(result["requestState"].is_string(), "{reply}");
}

#[tokio::test]
async fn on_protocol_2026_a_client_without_the_capability_gets_missing_required_capability() {
    let (mut client, _session) = common::RawClient::connect(common::server());
    let call = json!({
        "jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {
            "name": "ask", "arguments": { "prompt": "hi" },
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientInfo": { "name": "modern", "version": "1" },
                "io.modelcontextprotocol/clientCapabilities": {}
            }
        }
    });
    client.send(&call.to_string()).await;
    assert_eq!(
        client.receive().await,
        json!({
            "jsonrpc": "2.0", "id": 2,
            "error": {
                "code": -32021,
                "message": "Missing required client capability: the tool `ask` needs \
                            `sampling`, which the client did not declare",
                "data": { "requiredCapabilities": { "sampling": {} } }
            }
        })
    );
}
