//! `Context::elicit`: the form a type asks with (defaults, choices, titled choices,
//! multiple choices), exactly as the client receives it; the three outcomes; an answer
//! that does not fit; a type that cannot be a form; and the errors that say why no
//! request was sent (on protocol 2026-07-28, MissingRequiredClientCapability for a client
//! without the capability).

mod common;

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_tool::model::{Elicitation, ElicitationRequest};
use mcp_tool::testing::TestClient;
use mcp_tool::{Context, Server, ToolError, mcp_tool};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// Who signs up.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
struct SignUp {
    /// The name to sign in with.
    username: String,
    /// Where to send the confirmation.
    #[schemars(email)]
    email: String,
    /// The user's age, if they say.
    age: Option<u8>,
}

/// Signs a user up, asking for their details.
#[mcp_tool]
async fn sign_up(ctx: Context) -> Result<String, ToolError> {
    Ok(match ctx.elicit::<SignUp>("Please sign up").await? {
        Elicitation::Accepted(form) => format!(
            "signed up {} <{}>, age {:?}",
            form.username, form.email, form.age
        ),
        Elicitation::Declined => "declined".into(),
        Elicitation::Cancelled => "cancelled".into(),
    })
}

#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Status {
    Active,
    Inactive,
    Pending,
}

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
enum Size {
    #[serde(rename = "s")]
    #[schemars(title = "Small")]
    Small,
    #[serde(rename = "l")]
    #[schemars(title = "Large")]
    Large,
}

/// Settings with a default for every field.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(default, rename_all = "camelCase")]
struct Settings {
    /// The display name.
    name: String,
    age: i64,
    /// A percentage.
    #[schemars(range(min = 0, max = 100))]
    score: f64,
    status: Status,
    verified: bool,
    #[schemars(title = "T-shirt size")]
    size: Size,
    topics: Vec<Status>,
    sizes: BTreeSet<Size>,
    #[schemars(extend("enum" = ["opt1", "opt2"], "enumNames" = ["Option One", "Option Two"]))]
    legacy: String,
    nickname: Option<String>,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            name: "John Doe".into(),
            age: 30,
            score: 95.5,
            status: Status::Active,
            verified: true,
            size: Size::Large,
            topics: vec![Status::Pending],
            sizes: BTreeSet::new(),
            legacy: "opt1".into(),
            nickname: None,
        }
    }
}

/// Asks for settings and returns them as JSON.
#[mcp_tool]
async fn configure(ctx: Context) -> Result<String, ToolError> {
    match ctx.elicit::<Settings>("Configure").await? {
        Elicitation::Accepted(settings) => Ok(serde_json::to_string(&settings).unwrap()),
        other => Ok(other.action().to_owned()),
    }
}

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)] // Only its schema is used.
struct Address {
    city: String,
}

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)] // Only its schema is used.
struct Customer {
    name: String,
    address: Address,
    tags: Vec<String>,
    extra: HashMap<String, String>,
}

/// Asks for a form that cannot be one.
#[mcp_tool]
async fn nested(ctx: Context) -> Result<String, ToolError> {
    ctx.elicit::<Customer>("Who are you?").await?;
    Ok("unreachable".into())
}

/// The forms a test client received.
type Seen = Arc<Mutex<Vec<ElicitationRequest>>>;

/// The one form a test client received.
fn one_form(seen: &Seen) -> ElicitationRequest {
    let mut forms = seen.lock().unwrap();
    assert_eq!(forms.len(), 1, "one form: {forms:?}");
    forms.pop().unwrap()
}

/// A client that answers every form with `answer`, recording each form.
async fn answering(answer: Elicitation<Value>) -> (TestClient, Seen) {
    let seen = Seen::default();
    let record = Arc::clone(&seen);
    let client = TestClient::builder()
        .on_elicitation(move |form| {
            record.lock().unwrap().push(form);
            Ok(answer.clone())
        })
        .from_registry()
        .await
        .unwrap();
    (client, seen)
}

/// Calls `name`, failing the test if the call takes more than five seconds.
async fn call(client: &TestClient, name: &str) -> (bool, String) {
    let call = client.call(name, json!({}));
    let result = tokio::time::timeout(Duration::from_secs(5), call)
        .await
        .expect("an answer within five seconds")
        .unwrap();
    (result.is_error, result.text())
}

#[tokio::test]
async fn an_accepted_form_is_decoded_and_the_client_sees_the_message_and_schema() {
    let answer = json!({ "username": "ada", "email": "ada@example.com", "age": 36 });
    let (client, seen) = answering(Elicitation::Accepted(answer)).await;
    assert_eq!(
        call(&client, "sign_up").await,
        (
            false,
            "signed up ada <ada@example.com>, age Some(36)".into()
        )
    );
    let form = one_form(&seen);
    assert_eq!(form.message, "Please sign up");
    assert_eq!(
        Value::Object(form.requested_schema),
        json!({
            "type": "object",
            "properties": {
                "username": { "type": "string", "description": "The name to sign in with." },
                "email": {
                    "type": "string",
                    "description": "Where to send the confirmation.",
                    "format": "email"
                },
                "age": {
                    "type": "integer",
                    "description": "The user's age, if they say.",
                    "minimum": 0,
                    "maximum": 255
                }
            },
            "required": ["username", "email"]
        })
    );
}

#[tokio::test]
async fn declined_and_cancelled_reach_the_tool() {
    let (client, seen) = answering(Elicitation::Declined).await;
    assert_eq!(call(&client, "sign_up").await, (false, "declined".into()));
    assert_eq!(one_form(&seen).message, "Please sign up");
    let (client, seen) = answering(Elicitation::Cancelled).await;
    assert_eq!(call(&client, "sign_up").await, (false, "cancelled".into()));
    assert_eq!(one_form(&seen).message, "Please sign up");
}

#[tokio::test]
async fn defaults_choices_and_titles_are_sent_exactly() {
    let answer = json!({ "name": "Jane", "size": "s", "sizes": ["s", "l"], "topics": [] });
    let (client, seen) = answering(Elicitation::Accepted(answer)).await;
    let (is_error, text) = call(&client, "configure").await;
    assert!(!is_error, "{text}");
    // Every field not in the answer takes its default.
    assert_eq!(
        text,
        r#"{"name":"Jane","age":30,"score":95.5,"status":"active","verified":true,"size":"s","topics":[],"sizes":["s","l"],"legacy":"opt1","nickname":null}"#
    );
    let expected = json!({
        "type": "object",
        "properties": {
            "name": { "type": "string", "description": "The display name.", "default": "John Doe" },
            "age": { "type": "integer", "default": 30 },
            "score": {
                "type": "number",
                "description": "A percentage.",
                "minimum": 0.0,
                "maximum": 100.0,
                "default": 95.5
            },
            "status": {
                "type": "string",
                "enum": ["active", "inactive", "pending"],
                "default": "active"
            },
            "verified": { "type": "boolean", "default": true },
            "size": {
                "type": "string",
                "title": "T-shirt size",
                "oneOf": [
                    { "const": "s", "title": "Small" },
                    { "const": "l", "title": "Large" }
                ],
                "default": "l"
            },
            "topics": {
                "type": "array",
                "items": { "type": "string", "enum": ["active", "inactive", "pending"] },
                "default": ["pending"]
            },
            "sizes": {
                "type": "array",
                "items": {
                    "anyOf": [
                        { "const": "s", "title": "Small" },
                        { "const": "l", "title": "Large" }
                    ]
                },
                "default": []
            },
            "legacy": {
                "type": "string",
                "enum": ["opt1", "opt2"],
                "enumNames": ["Option One", "Option Two"],
                "default": "opt1"
            },
            "nickname": { "type": "string" }
        }
    });
    let form = one_form(&seen);
    assert_eq!(form.message, "Configure");
    let received = Value::Object(form.requested_schema);
    // Compared as text: the same keys in the same order, as the client reads them.
    assert_eq!(received.to_string(), expected.to_string());
    let built = ElicitationRequest::for_type::<Settings>("Configure").unwrap();
    assert_eq!(
        Value::Object(built.requested_schema).to_string(),
        expected.to_string()
    );
}

#[tokio::test]
async fn an_answer_that_does_not_fit_names_the_field_and_not_the_value() {
    let wrong_type = json!({ "username": 42, "email": "ada@example.com" });
    let (client, _) = answering(Elicitation::Accepted(wrong_type)).await;
    let (is_error, text) = call(&client, "sign_up").await;
    assert!(is_error);
    assert_eq!(
        text,
        "tool `sign_up` failed: the user's answer does not fit the form: `username`: \
         expected a string"
    );
    let out_of_range = json!({ "username": "ada", "email": "a@b.c", "age": 4000 });
    let (client, _) = answering(Elicitation::Accepted(out_of_range)).await;
    let (is_error, text) = call(&client, "sign_up").await;
    assert!(is_error);
    assert_eq!(
        text,
        "tool `sign_up` failed: the user's answer does not fit the form: `age`: expected \
         an integer from 0 to 255"
    );
    let missing = json!({ "username": "ada" });
    let (client, _) = answering(Elicitation::Accepted(missing)).await;
    let (is_error, text) = call(&client, "sign_up").await;
    assert!(is_error);
    assert_eq!(
        text,
        "tool `sign_up` failed: the user's answer does not fit the form: `email` is missing"
    );
}

#[tokio::test]
async fn a_type_that_cannot_be_a_form_names_every_field_before_sending() {
    let (client, seen) = answering(Elicitation::Declined).await;
    let (is_error, text) = call(&client, "nested").await;
    assert!(is_error);
    assert_eq!(
        text,
        "tool `nested` failed: `Customer` cannot be asked for by elicitation: field \
         `address` is an object (a struct or a map); field `tags` is a list whose items are \
         not choices (each is a string); field `extra` is an object (a struct or a map); a form's fields \
         are strings, numbers, integers, booleans, enums of unit variants, or lists of \
         such enums"
    );
    assert!(seen.lock().unwrap().is_empty());
}

#[tokio::test]
async fn a_client_without_the_capability_is_named_and_never_asked() {
    let client = TestClient::from_registry().await.unwrap();
    let (is_error, text) = call(&client, "sign_up").await;
    assert!(is_error);
    assert_eq!(
        text,
        "tool `sign_up` failed: the client does not support elicitation (it did not \
         declare the capability `elicitation`)"
    );
}

#[tokio::test]
async fn a_client_that_refuses_is_a_tool_error_with_its_reason() {
    let client = TestClient::builder()
        .on_elicitation(|_| Err("no user at the keyboard".into()))
        .from_registry()
        .await
        .unwrap();
    let (is_error, text) = call(&client, "sign_up").await;
    assert!(is_error);
    assert_eq!(
        text,
        "tool `sign_up` failed: the client refused the elicitation request: no user at \
         the keyboard (JSON-RPC error -32603)"
    );
}

#[tokio::test]
async fn a_call_outside_a_session_fails_at_once() {
    let server = Server::from_registry("direct", "1").build().unwrap();
    let result = server
        .call("sign_up", serde_json::Map::new())
        .await
        .unwrap();
    assert!(result.is_error);
    assert_eq!(
        result.text(),
        "tool `sign_up` failed: elicitation needs a client to ask, and this call has none: \
         it was made through `ToolServer::call`, outside a session"
    );
}

#[test]
fn shapes_outside_a_form_are_named() {
    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)] // Only its schema is used.
    enum Shape {
        Circle { radius: f64 },
        Square(f64),
    }
    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)] // Only its schema is used.
    struct Odd {
        any: Value,
        shape: Shape,
        numbers: Vec<u32>,
    }
    let error = ElicitationRequest::for_type::<Odd>("?").unwrap_err();
    assert_eq!(
        error.message(),
        "`Odd` cannot be asked for by elicitation: field `any` accepts any JSON value; \
         field `shape` has several shapes (an enum with data, or an untagged enum); field \
         `numbers` is a list whose items are not choices (each is an integer from 0 to \
         4294967295); a form's fields \
         are strings, numbers, integers, booleans, enums of unit variants, or lists of \
         such enums"
    );
    let not_a_struct = ElicitationRequest::for_type::<Vec<String>>("?").unwrap_err();
    assert_eq!(
        not_a_struct.message(),
        "`Array_of_string` cannot be asked for by elicitation: it is not a struct with named \
         fields"
    );
}

#[test]
fn an_option_keeps_the_shape_of_what_it_holds_and_is_not_required() {
    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)] // Only its schema is used.
    struct Optional {
        size: Option<Size>,
        topics: Option<Vec<Status>>,
        status: Option<Status>,
        #[schemars(url)]
        homepage: Option<String>,
        #[schemars(length(max = 10))]
        code: String,
    }
    let form = ElicitationRequest::for_type::<Optional>("?").unwrap();
    assert_eq!(
        Value::Object(form.requested_schema).to_string(),
        json!({
            "type": "object",
            "properties": {
                "size": {
                    "type": "string",
                    "oneOf": [
                        { "const": "s", "title": "Small" },
                        { "const": "l", "title": "Large" }
                    ]
                },
                "topics": {
                    "type": "array",
                    "items": { "type": "string", "enum": ["active", "inactive", "pending"] }
                },
                "status": { "type": "string", "enum": ["active", "inactive", "pending"] },
                "homepage": { "type": "string", "format": "uri" },
                "code": { "type": "string", "maxLength": 10 }
            },
            "required": ["code"]
        })
        .to_string()
    );
}

#[tokio::test]
async fn on_protocol_2026_a_client_without_the_capability_gets_missing_required_capability() {
    let server = Server::from_registry("raw", "1")
        .only(["sign_up"])
        .build()
        .unwrap();
    let (mut client, _session) = common::RawClient::connect(server);
    let call = json!({
        "jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {
            "name": "sign_up", "arguments": {},
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": { "sampling": {} }
            }
        }
    });
    client.send(&call.to_string()).await;
    let reply = client.receive().await;
    assert_eq!(reply["id"], 3, "{reply}");
    assert_eq!(reply["error"]["code"], -32021, "{reply}");
    assert_eq!(
        reply["error"]["data"],
        json!({ "requiredCapabilities": { "elicitation": {} } })
    );
}
