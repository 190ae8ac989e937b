//! What a server sends a client besides replies: progress and log messages during a
//! call, news of a changed resource, and news that its tools changed.

use serde_json::Value;

use super::LogLevel;

/// A notification the server sent, as
/// [`TestClient::take_notifications`](crate::testing::TestClient::take_notifications) shows it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Notification {
    /// `notifications/progress`.
    Progress(Progress),
    /// `notifications/message`.
    Log(LogMessage),
    /// `notifications/resources/updated`: the resource at this URI changed.
    ResourceUpdated(String),
    /// `notifications/tools/list_changed`: the server added or removed tools.
    ToolListChanged,
}

/// One `notifications/progress`.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Progress {
    /// The `progressToken` of the request it reports on.
    pub token: Value,
    /// The work done so far.
    pub progress: f64,
    /// The work there is in all, when known.
    pub total: Option<f64>,
    /// A message about the progress.
    pub message: Option<String>,
}

/// One `notifications/message`.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct LogMessage {
    /// The message's severity.
    pub level: LogLevel,
    /// The logger's name: the tool's name for a tool's messages.
    pub logger: Option<String>,
    /// The message (a string for a tool's messages).
    pub data: Value,
}

impl Notification {
    /// The notification in a JSON-RPC message, if it is one of those a call sends.
    pub(crate) fn from_message(message: &Value) -> Option<Self> {
        let method = message.get("method")?.as_str()?;
        if method == "notifications/tools/list_changed" {
            return Some(Notification::ToolListChanged);
        }
        let params = message.get("params")?;
        match method {
            "notifications/progress" => Some(Notification::Progress(Progress {
                token: params.get("progressToken")?.clone(),
                progress: params.get("progress")?.as_f64()?,
                total: params.get("total").and_then(Value::as_f64),
                message: params
                    .get("message")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
            })),
            "notifications/message" => Some(Notification::Log(LogMessage {
                level: LogLevel::from_name(params.get("level")?.as_str()?)?,
                logger: params
                    .get("logger")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
                data: params.get("data")?.clone(),
            })),
            "notifications/resources/updated" => Some(Notification::ResourceUpdated(
                params.get("uri")?.as_str()?.to_owned(),
            )),
            _ => None,
        }
    }
}
