//! An in-memory MCP session for testing tools: a real `rmcp` client talking to the
//! server over `tokio::io::duplex`, so a tool's test is a few lines.
//!
//! ```standalone_crate
//! use mcp_tool::{mcp_tool, testing::TestClient};
//!
//! /// Adds two integers and returns their sum.
//! #[mcp_tool]
//! fn add(a: i64, b: i64) -> i64 {
//!     a + b
//! }
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! let client = TestClient::from_registry().await.unwrap();
//! let sum: i64 = client.call_as("add", serde_json::json!({ "a": 2, "b": 3 })).await.unwrap();
//! assert_eq!(sum, 5);
//! # }
//! ```
//!
//! [`TestClient::builder`] gives a [`TestClientBuilder`] for a client that declares
//! capabilities (sampling, elicitation, roots) and answers the server's questions; a
//! call that does not give what the test asked for is a [`TestError`].

use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, RequestMetaObject};
use rmcp::service::{RoleClient, RunningService, ServiceError};
use serde::de::DeserializeOwned;
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::Notify;

use crate::model::{
    Elicitation, ElicitationRequest, LogLevel, Notification, SamplingRequest, SamplingResponse,
    ToolInfo, ToolResult,
};
use crate::outcome::error::CallError;
use crate::protocol::bridge;
use crate::server::builder::Server;
use crate::server::tool_server::ToolServer;

mod answers;
mod catalog_requests;

use answers::Answers;

/// Why a test call did not give what the test asked for.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TestError {
    /// The server could not be built.
    #[error(transparent)]
    Server(#[from] crate::ServerError),
    /// The server answered the call with a JSON-RPC error.
    #[error(transparent)]
    Call(#[from] CallError),
    /// The session broke down.
    #[error("the session failed: {0}")]
    Session(String),
    /// The client could not connect.
    #[error("the client could not connect: {0}")]
    Connect(String),
    /// The arguments were not a JSON object.
    #[error("arguments must be a JSON object, got {0}")]
    NotAnObject(&'static str),
    /// The tool answered with `isError: true`.
    #[error("the tool reported an error: {0}")]
    ToolFailed(String),
    /// The structured output did not decode as the requested type.
    #[error("the structured output did not decode: {0}")]
    Decode(String),
}

impl TestError {
    fn from_service(name: &str, error: ServiceError) -> Self {
        match error {
            ServiceError::McpError(error) => Self::Call(bridge::call_error(name, error)),
            other => Self::Session(other.to_string()),
        }
    }
}

/// A client session with a server, in memory.
///
/// A client made by [`from_registry`](Self::from_registry) or [`connect`](Self::connect)
/// declares no capability; one made through [`builder`](Self::builder) can answer the
/// server's sampling and elicitation requests.
#[derive(Debug)]
pub struct TestClient {
    client: RunningService<RoleClient, Answers>,
    server: tokio::task::JoinHandle<()>,
    tap: tokio::task::JoinHandle<()>,
    notifications: Arc<Mutex<Vec<Notification>>>,
    /// Woken at each notification recorded.
    arrived: Arc<Notify>,
}

/// A [`TestClient`] to be: the requests from the server it answers, and how.
///
/// Each handler declares its capability (`sampling`, `elicitation`) when the client
/// connects; a client without one declares none, and a tool that asks it gets an error.
/// A handler's `Err(message)` is sent as a JSON-RPC error, as a client refusing a
/// request sends one.
///
/// ```standalone_crate
/// use mcp_tool::model::{Content, Elicitation, SamplingResponse};
/// use mcp_tool::testing::TestClient;
/// use mcp_tool::{Context, ToolError, mcp_tool};
///
/// /// Greets the user by the name they give, in words the client's model picks.
/// #[mcp_tool]
/// async fn greet(ctx: Context) -> Result<String, ToolError> {
///     #[derive(serde::Deserialize, schemars::JsonSchema)]
///     struct Name {
///         name: String,
///     }
///     let Elicitation::Accepted(Name { name }) = ctx.elicit::<Name>("What is your name?").await? else {
///         return Ok("Hello, stranger.".into());
///     };
///     ctx.sample(format!("Write a one-line greeting for {name}.")).await
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let client = TestClient::builder()
///     .on_elicitation(|_form| Ok(Elicitation::Accepted(serde_json::json!({ "name": "Ada" }))))
///     .on_sampling(|request| {
///         let prompt = request.prompt().unwrap_or_default().to_owned();
///         assert_eq!(prompt, "Write a one-line greeting for Ada.");
///         Ok(SamplingResponse::new("test-model", Content::text("Welcome, Ada!")))
///     })
///     .from_registry()
///     .await
///     .unwrap();
/// let result = client.call("greet", serde_json::json!({})).await.unwrap();
/// assert_eq!(result.text(), "Welcome, Ada!");
/// # }
/// ```
#[derive(Debug, Default)]
#[must_use = "a builder does nothing until it connects"]
pub struct TestClientBuilder {
    answers: Answers,
}

impl TestClientBuilder {
    /// Declares the capability `sampling` and answers `sampling/createMessage` with
    /// `answer`: a [`SamplingResponse`], or an error message.
    pub fn on_sampling(
        mut self,
        answer: impl Fn(SamplingRequest) -> Result<SamplingResponse, String> + Send + Sync + 'static,
    ) -> Self {
        self.answers.sampling = Some(Arc::new(answer));
        self
    }

    /// Declares the capability `elicitation` and answers `elicitation/create` with
    /// `answer`: what the user did (an accepted answer is a JSON object of the form's
    /// fields), or an error message.
    pub fn on_elicitation(
        mut self,
        answer: impl Fn(ElicitationRequest) -> Result<Elicitation<Value>, String>
        + Send
        + Sync
        + 'static,
    ) -> Self {
        self.answers.elicitation = Some(Arc::new(answer));
        self
    }

    /// Connects to a server over every registered tool.
    pub async fn from_registry(self) -> Result<TestClient, TestError> {
        let server = Server::from_registry("test-server", "0.0.0").build()?;
        self.connect(server).await
    }

    /// Connects to a built server.
    pub async fn connect(self, server: ToolServer) -> Result<TestClient, TestError> {
        TestClient::start(server, self.answers).await
    }
}

impl TestClient {
    /// A client that answers the server's requests as the builder is told.
    pub fn builder() -> TestClientBuilder {
        TestClientBuilder::default()
    }

    /// Connects to a server over every registered tool.
    pub async fn from_registry() -> Result<Self, TestError> {
        Self::builder().from_registry().await
    }

    /// Connects to a built server.
    pub async fn connect(server: ToolServer) -> Result<Self, TestError> {
        Self::builder().connect(server).await
    }

    async fn start(server: ToolServer, answers: Answers) -> Result<Self, TestError> {
        let (server_io, tap_server) = tokio::io::duplex(64 * 1024);
        let (tap_client, client_io) = tokio::io::duplex(64 * 1024);
        let server = tokio::spawn(async move {
            let (read, write) = tokio::io::split(server_io);
            // The session's end or failure shows on the client's side.
            let _ = server.serve_lines(read, write).await;
        });
        let notifications = Arc::new(Mutex::new(Vec::new()));
        let arrived = Arc::new(Notify::new());
        let recorder = Recorder {
            notifications: Arc::clone(&notifications),
            arrived: Arc::clone(&arrived),
        };
        let tap = tokio::spawn(tap(tap_server, tap_client, recorder));
        let client = answers
            .serve(client_io)
            .await
            .map_err(|e| TestError::Connect(e.to_string()))?;
        Ok(Self {
            client,
            server,
            tap,
            notifications,
            arrived,
        })
    }

    /// Waits, at most `limit`, for `notifications/tools/list_changed`, and takes it from
    /// the notifications recorded; whether it came. The server sends it when a tool is
    /// added or removed ([`ToolServer::add_tool`](crate::ToolServer::add_tool)).
    pub async fn tool_list_changed(&self, limit: Duration) -> bool {
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            let arrived = self.arrived.notified();
            tokio::pin!(arrived);
            arrived.as_mut().enable();
            {
                let mut recorded = self
                    .notifications
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
                let found = (recorded.iter())
                    .position(|notification| *notification == Notification::ToolListChanged);
                if let Some(position) = found {
                    recorded.remove(position);
                    return true;
                }
            }
            if tokio::time::timeout_at(deadline, arrived).await.is_err() {
                return false;
            }
        }
    }

    /// The notifications (progress, log messages, tool list changes) the server sent since the last time
    /// this was asked, in the order sent. Every notification a call sent before its reply
    /// is here once the call has returned.
    ///
    /// ```standalone_crate
    /// use mcp_tool::model::Notification;
    /// use mcp_tool::{Context, mcp_tool, testing::TestClient};
    ///
    /// /// Says hello in the log and returns nothing.
    /// #[mcp_tool]
    /// async fn hello(ctx: Context) {
    ///     ctx.info("hello").await;
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let client = TestClient::from_registry().await.unwrap();
    /// client.call("hello", serde_json::json!({})).await.unwrap();
    /// let sent = client.take_notifications();
    /// assert!(matches!(&sent[..], [Notification::Log(message)] if message.data == "hello"));
    /// # }
    /// ```
    pub fn take_notifications(&self) -> Vec<Notification> {
        let mut recorded = self
            .notifications
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        std::mem::take(&mut *recorded)
    }

    /// Asks the server to send only log messages of `level` or more severe
    /// (`logging/setLevel`).
    pub async fn set_log_level(&self, level: LogLevel) -> Result<(), TestError> {
        #[allow(deprecated)] // SEP-2577: logging stays for clients of earlier protocols.
        let params = rmcp::model::SetLevelRequestParams::new(bridge::sdk_log_level(level));
        #[allow(deprecated)]
        let sent = self.client.set_level(params).await;
        sent.map_err(|e| TestError::from_service("", e))
    }

    /// The tools the server lists.
    pub async fn list(&self) -> Result<Vec<ToolInfo>, TestError> {
        let tools = self
            .client
            .list_all_tools()
            .await
            .map_err(|e| TestError::from_service("", e))?;
        Ok(tools.into_iter().map(bridge::tool_info).collect())
    }

    /// The tool named `name`, as listed.
    pub async fn tool(&self, name: &str) -> Result<Option<ToolInfo>, TestError> {
        Ok(self.list().await?.into_iter().find(|t| t.name == name))
    }

    /// Calls a tool; `arguments` must be a JSON object. A tool error is an `Ok`
    /// result with `is_error` set; a JSON-RPC error is an `Err`
    /// ([`TestError::Call`]).
    pub async fn call(&self, name: &str, arguments: Value) -> Result<ToolResult, TestError> {
        let arguments = match arguments {
            Value::Object(object) => object,
            Value::Null => serde_json::Map::new(),
            other => return Err(TestError::NotAnObject(json_kind(&other))),
        };
        let params = CallToolRequestParams::new(name.to_owned()).with_arguments(arguments);
        self.send_call(name, params).await
    }

    /// Calls a tool as [`call`](Self::call) does, asking for progress: the request
    /// carries the `progressToken` `token`.
    pub async fn call_with_progress(
        &self,
        name: &str,
        arguments: Value,
        token: &str,
    ) -> Result<ToolResult, TestError> {
        let arguments = match arguments {
            Value::Object(object) => object,
            Value::Null => serde_json::Map::new(),
            other => return Err(TestError::NotAnObject(json_kind(&other))),
        };
        let mut params = CallToolRequestParams::new(name.to_owned()).with_arguments(arguments);
        // rmcp's client puts a token of its own on every request; the tap puts this one.
        let mut meta = RequestMetaObject::new();
        meta.0.0.insert(WANTED_TOKEN.into(), token.into());
        params.meta = Some(meta);
        self.send_call(name, params).await
    }

    async fn send_call(
        &self,
        name: &str,
        params: CallToolRequestParams,
    ) -> Result<ToolResult, TestError> {
        match self.client.call_tool(params).await {
            Ok(result) => Ok(result.into()),
            Err(error) => Err(TestError::from_service(name, error)),
        }
    }

    /// Calls a tool that must succeed and decodes its structured output as `T`
    /// (a value wrapped as `{"result": ...}` is unwrapped).
    pub async fn call_as<T: DeserializeOwned>(
        &self,
        name: &str,
        arguments: Value,
    ) -> Result<T, TestError> {
        let result = self.call(name, arguments).await?;
        if result.is_error {
            return Err(TestError::ToolFailed(result.text()));
        }
        structured_as(&result)
    }

    /// Ends the session.
    pub async fn close(self) {
        let _ = self.client.cancel().await;
        self.server.abort();
        self.tap.abort();
    }
}

/// Where a test call puts the progress token it wants sent, in its `_meta`.
const WANTED_TOKEN: &str = "mcp-tool.testing/progressToken";

/// Where the tap records notifications, and whom it wakes.
struct Recorder {
    notifications: Arc<Mutex<Vec<Notification>>>,
    arrived: Arc<Notify>,
}

/// Passes the session through, recording every notification the server sends before
/// the client reads it; a call goes with the progress token the test asked for, or none.
async fn tap<S, C>(server: S, client: C, recorder: Recorder)
where
    S: AsyncRead + AsyncWrite + Send + 'static,
    C: AsyncRead + AsyncWrite + Send + 'static,
{
    let (server_read, mut server_write) = tokio::io::split(server);
    let (client_read, mut client_write) = tokio::io::split(client);
    let upstream = tokio::spawn(async move {
        let mut lines = BufReader::new(client_read).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            let line = with_wanted_token(line) + "\n";
            if server_write.write_all(line.as_bytes()).await.is_err() {
                break;
            }
        }
    });
    let mut lines = BufReader::new(server_read).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        let message = serde_json::from_str::<Value>(&line).ok();
        if let Some(notification) = message.as_ref().and_then(Notification::from_message) {
            let mut recorded =
                (recorder.notifications.lock()).unwrap_or_else(|poisoned| poisoned.into_inner());
            recorded.push(notification);
            drop(recorded);
            recorder.arrived.notify_waiters();
        }
        let line = line + "\n";
        if client_write.write_all(line.as_bytes()).await.is_err() {
            break;
        }
    }
    upstream.abort();
}

/// The structured output of a result decoded as `T` (a `{"result": ...}` wrapper is
/// unwrapped when `T` does not decode from the wrapper itself).
fn structured_as<T: DeserializeOwned>(result: &ToolResult) -> Result<T, TestError> {
    let value = result
        .structured
        .as_ref()
        .ok_or_else(|| TestError::Decode("the result has no structured content".into()))?;
    T::deserialize(value).or_else(|whole| match value.get("result") {
        Some(inner) if value.as_object().is_some_and(|o| o.len() == 1) => {
            T::deserialize(inner).map_err(|e| TestError::Decode(e.to_string()))
        }
        _ => Err(TestError::Decode(whole.to_string())),
    })
}

/// A `tools/call` line with the progress token the test asked for in place of rmcp's.
fn with_wanted_token(line: String) -> String {
    let Ok(mut message) = serde_json::from_str::<Value>(&line) else {
        return line;
    };
    if message.get("method").and_then(Value::as_str) != Some("tools/call") {
        return line;
    }
    let Some(meta) = message
        .get_mut("params")
        .and_then(|params| params.get_mut("_meta"))
        .and_then(Value::as_object_mut)
    else {
        return line;
    };
    meta.remove("progressToken");
    if let Some(wanted) = meta.remove(WANTED_TOKEN) {
        meta.insert("progressToken".into(), wanted);
    }
    message.to_string()
}

fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
