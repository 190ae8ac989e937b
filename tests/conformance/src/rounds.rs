//! The tools and the prompt of the input-required scenarios (SEP-2322, protocol
//! 2026-07-28): each asks as any tool asks, with `ctx.elicit`, `ctx.sample` and
//! `ctx.roots`, and the same bodies serve a 2025-11-25 session with requests to the
//! client. A request named by the scenario gets that name with `with_key`.

use mcp_tool::model::{Elicitation, ElicitationRequest, SamplingRequest};
use mcp_tool::{Context, ToolError, mcp_prompt, mcp_tool};
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema)]
struct Name {
    name: String,
}

#[derive(Deserialize, JsonSchema)]
struct Color {
    color: String,
}

#[derive(Deserialize, JsonSchema)]
struct Confirm {
    ok: bool,
}

#[derive(Deserialize, JsonSchema)]
struct PromptContext {
    context: String,
}

/// The form for `T`, asked under `key`.
fn form<T: JsonSchema>(key: &str, message: &str) -> Result<ElicitationRequest, ToolError> {
    Ok(ElicitationRequest::for_type::<T>(message)?.with_key(key))
}

/// What the user answered, in words.
fn answered<T>(outcome: Elicitation<T>, show: impl FnOnce(T) -> String) -> String {
    match outcome {
        Elicitation::Accepted(answer) => show(answer),
        other => format!("the user chose {}", other.action()),
    }
}

/// Greets the user by the name they give.
#[mcp_tool]
async fn test_input_required_result_elicitation(ctx: Context) -> Result<String, ToolError> {
    let name = ctx
        .elicit_with::<Name>(form::<Name>("user_name", "What is your name?")?)
        .await?;
    Ok(answered(name, |n| format!("Hello, {}!", n.name)))
}

/// Asks the client's model for the capital of France.
#[mcp_tool]
async fn test_input_required_result_sampling(ctx: Context) -> Result<String, ToolError> {
    let question = SamplingRequest::new("What is the capital of France?")
        .with_max_tokens(100)
        .with_key("capital_question");
    Ok(format!("The model says: {}", ctx.sample(question).await?))
}

/// Lists the roots the client shares.
#[mcp_tool]
async fn test_input_required_result_list_roots(ctx: Context) -> Result<String, ToolError> {
    let roots = ctx.roots().await?;
    let uris: Vec<String> = roots.into_iter().map(|root| root.uri).collect();
    Ok(format!("Roots: {}", uris.join(", ")))
}

/// Asks for a confirmation, with state carried across the rounds.
#[mcp_tool]
async fn test_input_required_result_request_state(ctx: Context) -> Result<String, ToolError> {
    let confirm = ctx
        .elicit_with::<Confirm>(form::<Confirm>("confirm", "Please confirm")?)
        .await?;
    Ok(answered(confirm, |c| format!("confirmed: {}", c.ok)))
}

/// Asks the user, the model and for the roots at once: one round with three requests.
#[mcp_tool]
async fn test_input_required_result_multiple_inputs(ctx: Context) -> Result<String, ToolError> {
    let name = form::<Name>("user_name", "What is your name?")?;
    let greeting = SamplingRequest::new("Generate a greeting")
        .with_max_tokens(50)
        .with_key("greeting");
    let (name, greeting, roots) = tokio::join!(
        ctx.elicit_with::<Name>(name),
        ctx.sample(greeting),
        ctx.roots()
    );
    let name = answered(name?, |n| n.name);
    Ok(format!("{} {name} ({} roots)", greeting?, roots?.len()))
}

/// Asks two questions, one round each.
#[mcp_tool]
async fn test_input_required_result_multi_round(ctx: Context) -> Result<String, ToolError> {
    let name = ctx
        .elicit_with::<Name>(form::<Name>("step1", "Step 1: What is your name?")?)
        .await?;
    let name = answered(name, |n| n.name);
    let color = ctx
        .elicit_with::<Color>(form::<Color>(
            "step2",
            "Step 2: What is your favorite color?",
        )?)
        .await?;
    Ok(format!("{name} likes {}", answered(color, |c| c.color)))
}

/// Asks for a confirmation; its `requestState` is signed, so a changed one is refused.
#[mcp_tool]
async fn test_input_required_result_tampered_state(ctx: Context) -> Result<String, ToolError> {
    let confirm = ctx
        .elicit_with::<Confirm>(form::<Confirm>("confirm", "Please confirm")?)
        .await?;
    Ok(answered(confirm, |c| format!("confirmed: {}", c.ok)))
}

/// Asks only what the client declared it can answer: the user if it has elicitation,
/// the model if it has sampling.
#[mcp_tool]
async fn test_input_required_result_capabilities(ctx: Context) -> Result<String, ToolError> {
    let has = |capability| ctx.client().is_some_and(|c| c.has_capability(capability));
    let mut said = Vec::new();
    if has("elicitation") {
        let name = ctx.elicit::<Name>("What is your name?").await?;
        said.push(answered(name, |n| n.name));
    }
    if has("sampling") {
        said.push(ctx.sample("Say hello.").await?);
    }
    Ok(said.join(" "))
}

/// A prompt written with the context the user gives.
#[mcp_prompt]
async fn test_input_required_result_prompt(ctx: Context) -> Result<String, ToolError> {
    let asked = form::<PromptContext>("user_context", "What context should the prompt use?")?;
    let context = ctx.elicit_with::<PromptContext>(asked).await?;
    Ok(answered(context, |c| {
        format!("Use this context: {}", c.context)
    }))
}
