//! The tools that ask the client during a call: its model (sampling) or its user
//! (elicitation), as the scenarios `tools-call-sampling`, `tools-call-elicitation`,
//! `elicitation-sep1034-defaults` and `elicitation-sep1330-enums` expect them, and the
//! two diagnostic tools of `server-stateless` that need a capability.

use mcp_tool::model::{Elicitation, SamplingRequest};
use mcp_tool::{Context, ToolError, mcp_tool};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

/// Asks the client's model to answer a prompt (`sampling/createMessage`).
#[mcp_tool]
async fn test_sampling(
    ctx: Context,
    /// The prompt to send to the LLM.
    prompt: String,
) -> Result<String, ToolError> {
    let answer = ctx
        .sample(SamplingRequest::new(prompt).with_max_tokens(100))
        .await?;
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

/// Asks the user for a name and an email address (`elicitation/create`).
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
    let content = (outcome.accepted()).map_or_else(|| json!({}), |form| json!(form));
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

/// A form with every kind of choice (SEP-1330): untitled and titled, single and
/// multiple, and the legacy `enumNames`.
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
    let content = (outcome.accepted()).map_or_else(|| json!({}), |form| json!(form));
    Ok(format!(
        "Elicitation completed: action={action}, content={content}"
    ))
}

/// Asks the client's model for a word: a tool that cannot run without the capability
/// `sampling`. A request of protocol 2026-07-28 from a client that did not declare it is
/// refused (MissingRequiredClientCapability).
#[mcp_tool]
async fn test_missing_capability(ctx: Context) -> Result<String, ToolError> {
    let answer = ctx.sample("Say one word.").await?;
    Ok(format!("LLM response: {answer}"))
}

/// Whether the user confirms.
#[derive(Serialize, Deserialize, JsonSchema)]
struct Confirmation {
    /// Whether to go on.
    confirmed: bool,
}

/// Asks the user to confirm during the call. On protocol 2026-07-28, where a server may
/// not send a request on the call's stream, the call fails with a tool error that says
/// so, and the stream carries that result alone.
#[mcp_tool]
async fn test_streaming_elicitation(ctx: Context) -> Result<String, ToolError> {
    let outcome = ctx.elicit::<Confirmation>("Please confirm").await?;
    Ok(format!("User response: action={}", outcome.action()))
}
