//! The tools the conformance suite's scenarios call, named and shaped as the scenarios
//! ask: `tools-call-*`, `json-schema-2020-12`, `server-sse-polling`, and the diagnostic
//! tools of `server-stateless`.

use std::time::Duration;

use mcp_tool::model::{Content, ResourceContents};
use mcp_tool::{Arguments, Context, RuntimeTool, State, ToolError, ToolList, mcp_tool};
use schemars::JsonSchema;
use serde::Deserialize;

/// A one-pixel red PNG.
pub(crate) const RED_PIXEL_PNG: &[u8] = b"\x89PNG\r\n\x1a\n\
    \x00\x00\x00\x0dIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00\x90\x77\x53\xde\
    \x00\x00\x00\x0cIDAT\x78\x9c\x63\xf8\xcf\xc0\x00\x00\x03\x01\x01\x00\xc9\xfe\x92\xef\
    \x00\x00\x00\x00IEND\xae\x42\x60\x82";

/// A WAV file of `samples` samples of silence: 8 kHz, mono, 8 bits.
fn silent_wav(samples: u32) -> Vec<u8> {
    const RATE: u32 = 8_000;
    let mut wav = Vec::with_capacity(44 + samples as usize);
    wav.extend_from_slice(b"RIFF");
    wav.extend_from_slice(&(36 + samples).to_le_bytes());
    wav.extend_from_slice(b"WAVEfmt ");
    wav.extend_from_slice(&16u32.to_le_bytes()); // size of the fmt chunk
    wav.extend_from_slice(&1u16.to_le_bytes()); // PCM
    wav.extend_from_slice(&1u16.to_le_bytes()); // channels
    wav.extend_from_slice(&RATE.to_le_bytes());
    wav.extend_from_slice(&RATE.to_le_bytes()); // bytes per second
    wav.extend_from_slice(&1u16.to_le_bytes()); // bytes per frame
    wav.extend_from_slice(&8u16.to_le_bytes()); // bits per sample
    wav.extend_from_slice(b"data");
    wav.extend_from_slice(&samples.to_le_bytes());
    wav.resize(44 + samples as usize, 0x80); // 8-bit PCM is unsigned: 0x80 is silence
    wav
}

/// Returns a fixed sentence of text.
#[mcp_tool(read_only)]
fn test_simple_text() -> String {
    "This is a simple text response for testing.".to_owned()
}

/// Returns a one-pixel red PNG image.
#[mcp_tool(read_only)]
fn test_image_content() -> Vec<Content> {
    vec![Content::image(RED_PIXEL_PNG, "image/png")]
}

/// Returns a tenth of a second of silence as a WAV file.
#[mcp_tool(read_only)]
fn test_audio_content() -> Vec<Content> {
    vec![Content::audio(silent_wav(800), "audio/wav")]
}

/// Returns a text resource embedded in the result.
#[mcp_tool(read_only)]
fn test_embedded_resource() -> Vec<Content> {
    vec![Content::resource(
        ResourceContents::text(
            "test://embedded-resource",
            "This is an embedded resource content.",
        )
        .with_mime_type("text/plain"),
    )]
}

/// Returns text, an image and an embedded JSON resource in one result.
#[mcp_tool(read_only)]
fn test_multiple_content_types() -> Vec<Content> {
    vec![
        Content::text("Multiple content types test:"),
        Content::image(RED_PIXEL_PNG, "image/png"),
        Content::resource(
            ResourceContents::text(
                "test://mixed-content-resource",
                r#"{"test":"data","value":123}"#,
            )
            .with_mime_type("application/json"),
        ),
    ]
}

/// Sends three info log messages, 50 ms apart, while it runs.
#[mcp_tool(read_only)]
async fn test_tool_with_logging(ctx: Context) -> String {
    ctx.info("Tool execution started").await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    ctx.info("Tool processing data").await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    ctx.info("Tool execution completed").await;
    "Tool with logging executed successfully".to_owned()
}

/// Sends one info log message; a client that asked for no log level receives none.
#[mcp_tool(read_only)]
async fn test_logging_tool(ctx: Context) -> String {
    ctx.info("Logging tool called").await;
    "Logging tool executed".to_owned()
}

/// Always fails, with a message for the model.
#[mcp_tool(read_only)]
fn test_error_handling() -> Result<String, ToolError> {
    Err(ToolError::new(
        "This tool intentionally returns an error for testing",
    ))
}

/// Runs a query in a region; the region travels in the `Mcp-Param-Region` header too, so
/// that a gateway can route the call without reading its body (SEP-2243).
#[mcp_tool(read_only)]
fn test_custom_headers(
    /// The region to run the query in.
    #[arg(header = "Region")]
    region: String,
    /// The query.
    query: Option<String>,
) -> String {
    format!("ran {:?} in {region}", query.unwrap_or_default())
}

/// Reports progress 0, 50 and 100 of 100, 50 ms apart.
#[mcp_tool(read_only)]
async fn test_tool_with_progress(ctx: Context) -> String {
    ctx.progress(0, 100).await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    ctx.progress(50, 100).await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    ctx.progress(100, 100).await;
    "Progress tool completed".to_owned()
}

/// Answers at once. The SSE polling scenario asks a server to close the call's stream
/// before the result and replay it after the client reconnects with `Last-Event-ID`;
/// a server that keeps the stream open and answers on it passes as well.
#[mcp_tool(read_only)]
fn test_reconnection() -> String {
    "Reconnection test completed".to_owned()
}

/// A postal address.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(rename = "address", extend("$anchor" = "addressDef"))]
pub(crate) struct Address {
    street: Option<String>,
    city: Option<String>,
}

/// Takes a name and an address; its input schema is a full JSON Schema 2020-12
/// document, `$schema` and `$defs` included.
#[mcp_tool(read_only, schema = "2020-12")]
fn json_schema_2020_12_tool(
    /// A person's name.
    name: Option<String>,
    /// Where the person lives.
    address: Option<Address>,
) -> String {
    let city = address.and_then(|a| a.city.or(a.street));
    format!(
        "name: {}, city: {}",
        name.as_deref().unwrap_or("-"),
        city.as_deref().unwrap_or("-")
    )
}

/// The name of the tool `test_trigger_tool_change` adds and removes.
const ADDED_TOOL: &str = "test_added_at_run_time";

/// Adds a tool to the server's list, or removes it when it is there: the suite's hook to
/// see `notifications/tools/list_changed` reach the sessions and `subscriptions/listen`
/// streams that asked for it.
#[mcp_tool]
fn test_trigger_tool_change(tools: State<ToolList>) -> Result<String, ToolError> {
    if tools.remove(ADDED_TOOL) {
        return Ok(format!("removed `{ADDED_TOOL}`"));
    }
    let tool = RuntimeTool::new(ADDED_TOOL, "Returns a fixed text; added at run time.").handler(
        |arguments: Arguments, _ctx: Context| async move {
            arguments.finish()?;
            Ok::<_, ToolError>("added at run time")
        },
    );
    tools
        .add(tool)
        .map_err(|error| ToolError::new(error.to_string()))?;
    Ok(format!("added `{ADDED_TOOL}`"))
}
