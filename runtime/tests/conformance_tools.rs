//! The official conformance suite's sampling and elicitation tools (`test_sampling`,
//! `test_elicitation`, `test_elicitation_sep1034_defaults`,
//! `test_elicitation_sep1330_enums`), written with `#[mcp_tool]` as a fixture server
//! writes them, answered as the suite (0.1.16) answers them, and checked as it checks.

use std::sync::{Arc, Mutex};

use mcp_tool::model::{
    Content, Elicitation, ElicitationRequest, SamplingRequest, SamplingResponse,
};
use mcp_tool::testing::TestClient;
use mcp_tool::{Context, ToolError, mcp_tool};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

// --- The fixture tools ---------------------------------------------------------------

/// Asks the client's model to answer a prompt (`sampling/createMessage`).
#[mcp_tool]
async fn test_sampling(
    ctx: Context,
    /// The prompt to send to the LLM.
    prompt: String,
) -> Result<String, ToolError> {
    let request = mcp_tool::model::SamplingRequest::new(prompt).with_max_tokens(100);
    let answer = ctx.sample(request).await?;
    Ok(format!("LLM response: {answer}"))
}

/// What `test_elicitation` asks the user for.
#[derive(Serialize, Deserialize, JsonSchema)]
struct UserInfo {
    /// User's response
    username: String,
    /// User's email address
    email: String,
}

/// Asks the user for their name and email (`elicitation/create`).
#[mcp_tool]
async fn test_elicitation(
    ctx: Context,
    /// The message to show the user.
    message: String,
) -> Result<String, ToolError> {
    let outcome = ctx.elicit::<UserInfo>(message).await?;
    let action = outcome.action();
    let content = match outcome {
        Elicitation::Accepted(info) => json!(info),
        Elicitation::Declined | Elicitation::Cancelled => json!({}),
    };
    Ok(format!("User response: action={action}, content={content}"))
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum AccountStatus {
    Active,
    Inactive,
    Pending,
}

/// A form with a default for every primitive type (SEP-1034).
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(default)]
struct Defaults {
    name: String,
    age: i64,
    score: f64,
    status: AccountStatus,
    verified: bool,
}

impl Default for Defaults {
    fn default() -> Self {
        Self {
            name: "John Doe".into(),
            age: 30,
            score: 95.5,
            status: AccountStatus::Active,
            verified: true,
        }
    }
}

/// Asks for a form whose fields all have defaults (SEP-1034).
#[mcp_tool]
async fn test_elicitation_sep1034_defaults(ctx: Context) -> Result<String, ToolError> {
    let outcome = ctx.elicit::<Defaults>("Please review your profile").await?;
    let action = outcome.action();
    let content = outcome
        .accepted()
        .map_or_else(|| json!({}), |form| json!(form));
    Ok(format!(
        "Elicitation completed: action={action}, content={content}"
    ))
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum UntitledOption {
    Option1,
    Option2,
    Option3,
}

#[derive(Serialize, Deserialize, JsonSchema)]
enum TitledOption {
    #[serde(rename = "value1")]
    #[schemars(title = "First Option")]
    Value1,
    #[serde(rename = "value2")]
    #[schemars(title = "Second Option")]
    Value2,
    #[serde(rename = "value3")]
    #[schemars(title = "Third Option")]
    Value3,
}

#[derive(Serialize, Deserialize, JsonSchema)]
enum TitledChoice {
    #[serde(rename = "value1")]
    #[schemars(title = "First Choice")]
    Value1,
    #[serde(rename = "value2")]
    #[schemars(title = "Second Choice")]
    Value2,
    #[serde(rename = "value3")]
    #[schemars(title = "Third Choice")]
    Value3,
}

/// A form with every kind of choice (SEP-1330).
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Enums {
    untitled_single: UntitledOption,
    titled_single: TitledOption,
    #[schemars(extend(
        "enum" = ["opt1", "opt2", "opt3"],
        "enumNames" = ["Option One", "Option Two", "Option Three"]
    ))]
    legacy_enum: String,
    untitled_multi: Vec<UntitledOption>,
    titled_multi: Vec<TitledChoice>,
}

/// Asks for a form with every kind of choice (SEP-1330).
#[mcp_tool]
async fn test_elicitation_sep1330_enums(ctx: Context) -> Result<String, ToolError> {
    let outcome = ctx.elicit::<Enums>("Please choose your options").await?;
    let action = outcome.action();
    let content = outcome
        .accepted()
        .map_or_else(|| json!({}), |form| json!(form));
    Ok(format!(
        "Elicitation completed: action={action}, content={content}"
    ))
}

// --- The suite's side ----------------------------------------------------------------

/// What a suite client received: every sampling request and every form.
#[derive(Default)]
struct Received {
    samplings: Mutex<Vec<SamplingRequest>>,
    forms: Mutex<Vec<ElicitationRequest>>,
}

impl Received {
    /// The one form received.
    fn form(&self) -> ElicitationRequest {
        let mut forms = self.forms.lock().unwrap();
        assert_eq!(forms.len(), 1, "one form: {forms:?}");
        forms.pop().unwrap()
    }
}

/// A client that answers as the suite does, recording what it receives.
async fn suite_client(answer: Value) -> (TestClient, Arc<Received>) {
    let received = Arc::new(Received::default());
    let (sampled, asked) = (Arc::clone(&received), Arc::clone(&received));
    let client = TestClient::builder()
        .on_sampling(move |request| {
            sampled.samplings.lock().unwrap().push(request);
            let text = Content::text("This is a test response from the client");
            Ok(SamplingResponse::new("test-model", text).with_stop_reason("endTurn"))
        })
        .on_elicitation(move |form| {
            asked.forms.lock().unwrap().push(form);
            Ok(Elicitation::Accepted(answer.clone()))
        })
        .from_registry()
        .await
        .unwrap();
    (client, received)
}

#[tokio::test]
async fn test_sampling_returns_the_models_text() {
    let (client, received) = suite_client(json!({})).await;
    let args = json!({ "prompt": "Test prompt for sampling" });
    let result = client.call("test_sampling", args).await.unwrap();
    assert!(!result.is_error, "{}", result.text());
    assert_eq!(
        result.text(),
        "LLM response: This is a test response from the client"
    );
    assert_eq!(
        *received.samplings.lock().unwrap(),
        [SamplingRequest::new("Test prompt for sampling").with_max_tokens(100)]
    );
}

#[tokio::test]
async fn test_elicitation_asks_with_the_documented_schema() {
    let answer = json!({ "username": "testuser", "email": "test@example.com" });
    let (client, received) = suite_client(answer).await;
    let args = json!({ "message": "Please provide your information" });
    let result = client.call("test_elicitation", args).await.unwrap();
    assert!(!result.is_error, "{}", result.text());
    assert_eq!(
        result.text(),
        r#"User response: action=accept, content={"username":"testuser","email":"test@example.com"}"#
    );
    let form = received.form();
    assert_eq!(form.message, "Please provide your information");
    assert_eq!(
        Value::Object(form.requested_schema),
        json!({
            "type": "object",
            "properties": {
                "username": { "type": "string", "description": "User's response" },
                "email": { "type": "string", "description": "User's email address" }
            },
            "required": ["username", "email"]
        })
    );
}

#[tokio::test]
async fn test_elicitation_sep1034_defaults_sends_every_default() {
    let answer = json!({ "name": "Jane Smith", "age": 25, "score": 88, "status": "inactive", "verified": false });
    let (client, received) = suite_client(answer).await;
    let result = client
        .call("test_elicitation_sep1034_defaults", json!({}))
        .await
        .unwrap();
    assert!(!result.is_error, "{}", result.text());
    assert_eq!(
        result.text(),
        r#"Elicitation completed: action=accept, content={"name":"Jane Smith","age":25,"score":88.0,"status":"inactive","verified":false}"#
    );
    let form = received.form();
    assert_eq!(form.message, "Please review your profile");
    let schema = Value::Object(form.requested_schema);
    assert_eq!(
        schema.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["type", "properties"],
        "{schema}"
    );
    let properties = &schema["properties"];
    assert_eq!(properties.as_object().unwrap().len(), 5, "{properties}");
    assert_eq!(
        properties["name"],
        json!({ "type": "string", "default": "John Doe" })
    );
    assert_eq!(
        properties["age"],
        json!({ "type": "integer", "default": 30 })
    );
    assert_eq!(
        properties["score"],
        json!({ "type": "number", "default": 95.5 })
    );
    assert_eq!(
        properties["status"],
        json!({ "type": "string", "enum": ["active", "inactive", "pending"], "default": "active" })
    );
    assert_eq!(
        properties["verified"],
        json!({ "type": "boolean", "default": true })
    );
}

#[tokio::test]
async fn test_elicitation_sep1330_enums_sends_every_kind_of_choice() {
    let answer = json!({
        "untitledSingle": "option1",
        "titledSingle": "value1",
        "legacyEnum": "opt1",
        "untitledMulti": ["option1", "option2"],
        "titledMulti": ["value1", "value2"]
    });
    let (client, received) = suite_client(answer).await;
    let result = client
        .call("test_elicitation_sep1330_enums", json!({}))
        .await
        .unwrap();
    assert!(!result.is_error, "{}", result.text());
    assert_eq!(
        result.text(),
        r#"Elicitation completed: action=accept, content={"untitledSingle":"option1","titledSingle":"value1","legacyEnum":"opt1","untitledMulti":["option1","option2"],"titledMulti":["value1","value2"]}"#
    );
    let form = received.form();
    assert_eq!(form.message, "Please choose your options");
    let schema = Value::Object(form.requested_schema);
    assert_eq!(
        schema.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["type", "properties", "required"],
        "{schema}"
    );
    let properties = &schema["properties"];
    assert_eq!(properties.as_object().unwrap().len(), 5, "{properties}");
    let options = json!(["option1", "option2", "option3"]);
    assert_eq!(
        properties["untitledSingle"],
        json!({ "type": "string", "enum": options })
    );
    assert_eq!(
        properties["titledSingle"],
        json!({ "type": "string", "oneOf": [
            { "const": "value1", "title": "First Option" },
            { "const": "value2", "title": "Second Option" },
            { "const": "value3", "title": "Third Option" }
        ] })
    );
    assert_eq!(
        properties["legacyEnum"],
        json!({
            "type": "string",
            "enum": ["opt1", "opt2", "opt3"],
            "enumNames": ["Option One", "Option Two", "Option Three"]
        })
    );
    assert_eq!(
        properties["untitledMulti"],
        json!({ "type": "array", "items": { "type": "string", "enum": options } })
    );
    assert_eq!(
        properties["titledMulti"],
        json!({ "type": "array", "items": { "anyOf": [
            { "const": "value1", "title": "First Choice" },
            { "const": "value2", "title": "Second Choice" },
            { "const": "value3", "title": "Third Choice" }
        ] } })
    );
    assert_eq!(
        schema["required"],
        json!([
            "untitledSingle",
            "titledSingle",
            "legacyEnum",
            "untitledMulti",
            "titledMulti"
        ])
    );
}
