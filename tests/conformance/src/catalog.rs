//! The prompts and resources the conformance suite's scenarios read, named and shaped as
//! the scenarios ask: `prompts-*`, `completion-complete`, `resources-*` and
//! `sep-2164-resource-not-found` (an unknown URI, answered by the runtime).

use mcp_tool::model::{Content, PromptMessage, ResourceContents};
use mcp_tool::{mcp_prompt, mcp_resource};

use crate::tools::RED_PIXEL_PNG;

/// A simple prompt without arguments.
#[mcp_prompt]
fn test_simple_prompt() -> &'static str {
    "This is a simple prompt for testing."
}

/// A prompt that puts its two arguments in its message.
#[mcp_prompt]
fn test_prompt_with_arguments(
    /// First test argument.
    #[arg(complete = first_words)]
    arg1: String,
    /// Second test argument.
    arg2: String,
) -> String {
    format!("Prompt with arguments: arg1='{arg1}', arg2='{arg2}'")
}

/// The suggestions for `arg1`: the words that start with what was typed.
fn first_words(typed: &str) -> Vec<&'static str> {
    ["paris", "park", "party", "test", "testing"]
        .into_iter()
        .filter(|word| word.starts_with(typed))
        .collect()
}

/// A prompt that embeds the resource it is given.
#[mcp_prompt]
#[allow(non_snake_case)] // The scenario names the argument so.
fn test_prompt_with_embedded_resource(
    /// URI of the resource to embed.
    resourceUri: String,
) -> Vec<PromptMessage> {
    let embedded = ResourceContents::text(resourceUri, "Embedded resource content for testing.")
        .with_mime_type("text/plain");
    vec![
        PromptMessage::user(Content::resource(embedded)),
        PromptMessage::user("Please process the embedded resource above."),
    ]
}

/// A prompt with an image.
#[mcp_prompt]
fn test_prompt_with_image() -> Vec<PromptMessage> {
    vec![
        PromptMessage::user(Content::image(RED_PIXEL_PNG, "image/png")),
        PromptMessage::user("Please analyze the image above."),
    ]
}

/// A static text resource.
#[mcp_resource(uri = "test://static-text", mime_type = "text/plain")]
fn static_text() -> &'static str {
    "This is the content of the static text resource."
}

/// A static binary resource: a PNG image.
#[mcp_resource(uri = "test://static-binary", mime_type = "image/png")]
fn static_binary() -> Vec<u8> {
    RED_PIXEL_PNG.to_vec()
}

/// A resource that clients subscribe to.
#[mcp_resource(uri = "test://watched-resource", mime_type = "text/plain")]
fn watched_resource() -> &'static str {
    "This resource is watched."
}

/// Data for one id, as JSON.
#[mcp_resource(template = "test://template/{id}/data", mime_type = "application/json")]
fn template_data(id: String) -> String {
    serde_json::json!({ "id": id, "templateTest": true, "data": format!("Data for ID: {id}") })
        .to_string()
}
