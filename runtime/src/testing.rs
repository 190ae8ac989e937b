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

use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::service::{RoleClient, RunningService, ServiceError};
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::bridge;
use crate::error::CallError;
use crate::model::{ToolInfo, ToolResult};
use crate::server::Server;
use crate::tool_server::ToolServer;

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
#[derive(Debug)]
pub struct TestClient {
    client: RunningService<RoleClient, ()>,
    server: tokio::task::JoinHandle<()>,
}

impl TestClient {
    /// Connects to a server over every registered tool.
    pub async fn from_registry() -> Result<Self, TestError> {
        Self::connect(Server::from_registry("test-server", "0.0.0").build()?).await
    }

    /// Connects to a built server.
    pub async fn connect(server: ToolServer) -> Result<Self, TestError> {
        let (server_io, client_io) = tokio::io::duplex(64 * 1024);
        let server = tokio::spawn(async move {
            let (read, write) = tokio::io::split(server_io);
            // The session's end or failure shows on the client's side.
            let _ = server.serve_lines(read, write).await;
        });
        let client = ().serve(client_io).await.map_err(|e| TestError::Connect(e.to_string()))?;
        Ok(Self { client, server })
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
    }
}

/// The structured output of a result decoded as `T` (a `{"result": ...}` wrapper is
/// unwrapped when `T` does not decode from the wrapper itself).
pub fn structured_as<T: DeserializeOwned>(result: &ToolResult) -> Result<T, TestError> {
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
