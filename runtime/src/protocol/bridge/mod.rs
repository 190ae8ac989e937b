//! Where mcp-tool's own types meet `rmcp`'s: every conversion between the two, and
//! nowhere else. A new rmcp version that changes its model changes this file and its
//! children: `sampling` and `elicitation` (the requests a tool sends the client) and
//! `listing` (prompts, resources and completions).

use std::sync::Arc;

use rmcp::model as sdk;
use serde_json::Value;

use crate::model::{
    Annotations, ClientInfo, Content, Icon, LogLevel, Media, RequestId, Resource, ResourceContents,
    ResourceLink, Role, Text, ToolAnnotations, ToolInfo, ToolResult,
};
use crate::outcome::error::{CallError, INVALID_PARAMS};
use crate::outcome::output::ToolReply;
use crate::server::tool_server::Answer;

mod create_elicitation;
mod create_message;
mod listing;

pub(crate) use create_elicitation::{
    elicit_request, elicit_result, elicitation, elicitation_request,
};
pub(crate) use create_message::{
    create_message_params, create_message_result, sampling_request, sampling_response,
};
pub(crate) use listing::{
    Extras, complete_result, completion, get_prompt_result, prompt_info, prompt_result,
    read_contents, read_result, resource_info, sdk_prompt, sdk_resource, sdk_template,
    template_info,
};

impl From<ToolResult> for sdk::CallToolResult {
    fn from(result: ToolResult) -> Self {
        let content = result.content.into_iter().map(content_block).collect();
        let mut converted = sdk::CallToolResult::success(content);
        converted.structured_content = result.structured;
        converted.is_error = Some(result.is_error);
        converted
    }
}

impl From<sdk::CallToolResult> for ToolResult {
    fn from(result: sdk::CallToolResult) -> Self {
        ToolResult {
            content: result.content.into_iter().map(content).collect(),
            structured: result.structured_content,
            is_error: result.is_error.unwrap_or(false),
        }
    }
}

/// A call's answer as the result the client reads: a structured value with its JSON as
/// text for clients that read only content, a failure's message as an error result.
#[inline]
pub(crate) fn call_result(answer: Answer) -> sdk::CallToolResult {
    match answer {
        Answer::Reply(ToolReply::Content(result)) => result.into(),
        Answer::Reply(ToolReply::Structured(value)) => structured(value),
        Answer::Failed(message) => {
            sdk::CallToolResult::error(vec![sdk::ContentBlock::text(message)])
        }
    }
}

/// A structured result with its JSON as text, as `CallToolResult::structured` makes it,
/// but written straight into a byte buffer: `Value`'s `Display` (what that constructor
/// uses) goes through `fmt::Write` a token at a time, several times slower. The text is
/// the same, byte for byte.
fn structured(value: Value) -> sdk::CallToolResult {
    let text = serde_json::to_string(&value).unwrap_or_else(|_| value.to_string());
    let mut result = sdk::CallToolResult::success(vec![sdk::ContentBlock::text(text)]);
    result.structured_content = Some(value);
    result
}

/// Sets rmcp annotations on a block when ours has any.
macro_rules! annotate {
    ($block:expr, $annotations:expr) => {
        match $annotations {
            Some(annotations) => $block.with_annotations(sdk_annotations(annotations)),
            None => $block,
        }
    };
}
fn content_block(content: Content) -> sdk::ContentBlock {
    match content {
        Content::Text(Text { text, annotations }) => {
            sdk::ContentBlock::Text(annotate!(sdk::TextContent::new(text), annotations))
        }
        Content::Image(media) => {
            let (data, mime_type, annotations) = media.into_parts();
            sdk::ContentBlock::Image(annotate!(
                sdk::ImageContent::new(data, mime_type),
                annotations
            ))
        }
        Content::Audio(media) => {
            let (data, mime_type, annotations) = media.into_parts();
            sdk::ContentBlock::Audio(annotate!(
                sdk::AudioContent::new(data, mime_type),
                annotations
            ))
        }
        Content::Resource(Resource {
            contents,
            annotations,
        }) => sdk::ContentBlock::Resource(annotate!(
            sdk::EmbeddedResource::new(resource_contents(contents)),
            annotations
        )),
        Content::ResourceLink(link) => sdk::ContentBlock::ResourceLink(resource_link(link)),
    }
}

fn resource_contents(contents: ResourceContents) -> sdk::ResourceContents {
    match contents {
        ResourceContents::Text {
            uri,
            mime_type,
            text,
        } => sdk::ResourceContents::TextResourceContents {
            uri,
            mime_type,
            text,
            meta: None,
        },
        ResourceContents::Blob {
            uri,
            mime_type,
            base64,
        } => sdk::ResourceContents::BlobResourceContents {
            uri,
            mime_type,
            blob: base64,
            meta: None,
        },
    }
}

fn resource_link(link: ResourceLink) -> sdk::Resource {
    let mut converted = sdk::Resource::new(link.uri, link.name);
    converted.title = link.title;
    converted.description = link.description;
    converted.mime_type = link.mime_type;
    converted.size = link.size;
    converted.annotations = link.annotations.map(sdk_annotations);
    converted
}

fn sdk_annotations(annotations: Annotations) -> sdk::Annotations {
    let mut converted = sdk::Annotations::default();
    converted.audience = annotations
        .audience
        .map(|roles| roles.into_iter().map(sdk_role).collect());
    converted.priority = annotations.priority;
    converted.last_modified = annotations.last_modified;
    converted
}

fn sdk_role(role: Role) -> sdk::Role {
    match role {
        Role::User => sdk::Role::User,
        Role::Assistant => sdk::Role::Assistant,
    }
}

fn content(block: sdk::ContentBlock) -> Content {
    match block {
        sdk::ContentBlock::Text(text) => Content::text(text.text).with_optional(text.annotations),
        sdk::ContentBlock::Image(image) => {
            Content::Image(Media::from_base64(image.data, image.mime_type))
                .with_optional(image.annotations)
        }
        sdk::ContentBlock::Audio(audio) => {
            Content::Audio(Media::from_base64(audio.data, audio.mime_type))
                .with_optional(audio.annotations)
        }
        sdk::ContentBlock::Resource(embedded) => {
            Content::resource(contents(embedded.resource)).with_optional(embedded.annotations)
        }
        sdk::ContentBlock::ResourceLink(link) => {
            let annotations = link.annotations.clone();
            Content::resource_link(ResourceLink {
                uri: link.uri,
                name: link.name,
                title: link.title,
                description: link.description,
                mime_type: link.mime_type,
                size: link.size,
                annotations: None,
            })
            .with_optional(annotations)
        }
        // A kind of block this version of mcp-tool does not know: its JSON, as text.
        other => Content::text(serde_json::to_string(&other).unwrap_or_default()),
    }
}

fn contents(contents: sdk::ResourceContents) -> ResourceContents {
    match contents {
        sdk::ResourceContents::TextResourceContents {
            uri,
            mime_type,
            text,
            ..
        } => ResourceContents::text_with(uri, text, mime_type),
        sdk::ResourceContents::BlobResourceContents {
            uri,
            mime_type,
            blob,
            ..
        } => ResourceContents::blob_base64(uri, blob, mime_type),
        other => ResourceContents::text_with(
            String::new(),
            serde_json::to_string(&other).unwrap_or_default(),
            None,
        ),
    }
}

trait WithOptional {
    fn with_optional(self, annotations: Option<sdk::Annotations>) -> Self;
}

impl WithOptional for Content {
    fn with_optional(self, annotations: Option<sdk::Annotations>) -> Self {
        match annotations {
            Some(annotations) => self.with_annotations(our_annotations(annotations)),
            None => self,
        }
    }
}

fn our_annotations(annotations: sdk::Annotations) -> Annotations {
    let mut converted = Annotations::new();
    converted.audience = annotations.audience.map(|roles| {
        roles
            .into_iter()
            .map(|role| match role {
                sdk::Role::User => Role::User,
                sdk::Role::Assistant => Role::Assistant,
            })
            .collect()
    });
    converted.priority = annotations.priority;
    converted.last_modified = annotations.last_modified;
    converted
}

/// A tool's listing entry, as rmcp sends it.
/// Moves the schemas, never copies them: a server with a thousand tools builds a
/// thousand of these at start-up.
pub(crate) fn sdk_tool(info: ToolInfo) -> sdk::Tool {
    let description = info.description.unwrap_or_default();
    let mut tool = sdk::Tool::new(info.name, description, Arc::new(info.input_schema));
    tool.title = info.title;
    tool.output_schema = info.output_schema.map(Arc::new);
    tool.annotations = info.annotations.map(|a| {
        sdk::ToolAnnotations::from_raw(
            a.title,
            a.read_only,
            a.destructive,
            a.idempotent,
            a.open_world,
        )
    });
    if !info.icons.is_empty() {
        tool.icons = Some(
            (info.icons.into_iter())
                .map(|icon| {
                    let mut sdk_icon = sdk::Icon::new(icon.src);
                    sdk_icon.mime_type = icon.mime_type;
                    sdk_icon
                })
                .collect(),
        );
    }
    tool.meta = info.meta.map(sdk::MetaObject);
    tool
}

/// A listing entry rmcp received, in our terms.
pub(crate) fn tool_info(tool: sdk::Tool) -> ToolInfo {
    ToolInfo {
        name: tool.name.into_owned(),
        title: tool.title,
        description: tool.description.map(|d| d.into_owned()),
        input_schema: Arc::unwrap_or_clone(tool.input_schema),
        output_schema: tool.output_schema.map(Arc::unwrap_or_clone),
        annotations: tool.annotations.map(|a| ToolAnnotations {
            title: a.title,
            read_only: a.read_only_hint,
            destructive: a.destructive_hint,
            idempotent: a.idempotent_hint,
            open_world: a.open_world_hint,
        }),
        icons: (tool.icons.unwrap_or_default().into_iter())
            .map(|icon| Icon {
                src: icon.src,
                mime_type: icon.mime_type,
            })
            .collect(),
        meta: tool.meta.map(|meta| meta.0),
        scopes: Vec::new(),
    }
}

/// A call's JSON-RPC error, as rmcp sends it.
pub(crate) fn error_data(error: CallError) -> sdk::ErrorData {
    match error {
        CallError::UnknownTool {
            suggestions,
            message,
            ..
        } => sdk::ErrorData::invalid_params(
            message,
            Some(serde_json::json!({ "suggestions": suggestions })),
        ),
        CallError::Protocol {
            code,
            message,
            data,
        } => sdk::ErrorData::new(sdk::ErrorCode(code), message, data),
    }
}

/// A JSON-RPC error received for a call of `name`, in our terms: an unknown tool when
/// it has the shape this crate's servers give one (`-32602` with `suggestions`).
pub(crate) fn call_error(name: &str, error: sdk::ErrorData) -> CallError {
    let suggestions = error
        .data
        .as_ref()
        .and_then(|data| data.get("suggestions"))
        .and_then(Value::as_array);
    match suggestions {
        Some(suggestions) if error.code.0 == INVALID_PARAMS => CallError::UnknownTool {
            name: name.to_owned(),
            suggestions: suggestions
                .iter()
                .filter_map(|s| s.as_str().map(str::to_owned))
                .collect(),
            message: error.message.into_owned(),
        },
        _ => CallError::Protocol {
            code: error.code.0,
            message: error.message.into_owned(),
            data: error.data,
        },
    }
}

/// A request's id, in our terms.
pub(crate) fn request_id(id: &sdk::RequestId) -> RequestId {
    match id {
        sdk::NumberOrString::Number(number) => RequestId::Number(*number),
        sdk::NumberOrString::String(string) => RequestId::Text(string.to_string()),
    }
}

/// A level rmcp received, in our terms.
// Logging is deprecated by SEP-2577 (protocol 2026-07-28) but still served to older clients.
#[allow(deprecated)]
pub(crate) fn log_level(level: sdk::LoggingLevel) -> LogLevel {
    match level {
        sdk::LoggingLevel::Debug => LogLevel::Debug,
        sdk::LoggingLevel::Info => LogLevel::Info,
        sdk::LoggingLevel::Notice => LogLevel::Notice,
        sdk::LoggingLevel::Warning => LogLevel::Warning,
        sdk::LoggingLevel::Error => LogLevel::Error,
        sdk::LoggingLevel::Critical => LogLevel::Critical,
        sdk::LoggingLevel::Alert => LogLevel::Alert,
        sdk::LoggingLevel::Emergency => LogLevel::Emergency,
    }
}

#[allow(deprecated)]
pub(crate) fn sdk_log_level(level: LogLevel) -> sdk::LoggingLevel {
    match level {
        LogLevel::Debug => sdk::LoggingLevel::Debug,
        LogLevel::Info => sdk::LoggingLevel::Info,
        LogLevel::Notice => sdk::LoggingLevel::Notice,
        LogLevel::Warning => sdk::LoggingLevel::Warning,
        LogLevel::Error => sdk::LoggingLevel::Error,
        LogLevel::Critical => sdk::LoggingLevel::Critical,
        LogLevel::Alert => sdk::LoggingLevel::Alert,
        LogLevel::Emergency => sdk::LoggingLevel::Emergency,
    }
}

/// The client of a request: from the request's `_meta` (protocol 2026-07-28), else from
/// the session's handshake.
pub(crate) fn client_info(
    meta: &sdk::RequestMetaObject,
    handshake: Option<&sdk::InitializeRequestParams>,
) -> Option<ClientInfo> {
    let implementation = meta
        .client_info()
        .or_else(|| handshake.map(|h| h.client_info.clone()))?;
    let capabilities = meta
        .client_capabilities()
        .or_else(|| handshake.map(|h| h.capabilities.clone()))
        .and_then(|c| serde_json::to_value(c).ok())
        .unwrap_or(Value::Object(serde_json::Map::new()));
    let protocol_version = meta
        .protocol_version()
        .or_else(|| handshake.map(|h| h.protocol_version.clone()))
        .map(|v| v.to_string());
    Some(ClientInfo {
        name: implementation.name,
        version: implementation.version,
        capabilities,
        protocol_version,
    })
}

/// `notifications/progress`'s parameters.
pub(crate) fn progress(
    token: sdk::ProgressToken,
    progress: f64,
    total: Option<f64>,
    message: Option<String>,
) -> sdk::ProgressNotificationParam {
    let mut param = sdk::ProgressNotificationParam::new(token, progress);
    param.total = total;
    param.message = message;
    param
}

/// `notifications/message`'s parameters.
#[allow(deprecated)]
pub(crate) fn log_message(
    level: LogLevel,
    logger: &str,
    message: String,
) -> sdk::LoggingMessageNotificationParam {
    let mut param =
        sdk::LoggingMessageNotificationParam::new(sdk_log_level(level), Value::String(message));
    param.logger = Some(logger.to_owned());
    param
}

/// Why a request to the client got no answer, in words for the tool's error.
/// The refusal of a call of `tool` that needs the client capability `capability`
/// (`"sampling"`), which the client did not declare: MissingRequiredClientCapability
/// (-32021), its message naming the tool and the capability.
pub(crate) fn missing_capability(tool: &str, capability: &str) -> sdk::ErrorData {
    let required = serde_json::json!({ capability: {} });
    let required = serde_json::from_value(required).unwrap_or_default();
    let mut error = sdk::ErrorData::missing_required_client_capability(required);
    error.message = format!(
        "Missing required client capability: the tool `{tool}` needs `{capability}`, which \
         the client did not declare"
    )
    .into();
    error
}

pub(crate) fn request_failure(what: &str, error: rmcp::ServiceError) -> String {
    match error {
        rmcp::ServiceError::McpError(error) => format!(
            "the client refused the {what} request: {} (JSON-RPC error {})",
            error.message, error.code.0
        ),
        rmcp::ServiceError::TransportClosed | rmcp::ServiceError::TransportSend(_) => {
            format!("the session with the client ended before it answered the {what} request")
        }
        rmcp::ServiceError::Timeout { timeout } => format!(
            "the client did not answer the {what} request within {} s",
            timeout.as_secs_f64()
        ),
        rmcp::ServiceError::UnexpectedResponse => {
            format!("the client answered the {what} request with a result of another kind")
        }
        other => format!("the {what} request failed: {other}"),
    }
}
