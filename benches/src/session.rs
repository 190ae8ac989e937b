//! An in-memory session: an rmcp client and a server over `tokio::io::duplex`, and a
//! way to call the server's handler directly, without the transport.

use rmcp::model::{CallToolRequestParams, CallToolResult, ListToolsResult, NumberOrString};
use rmcp::service::{RequestContext, RunningService, ServiceError};
use rmcp::{RoleClient, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Map, Value};

/// A connected client and server.
#[derive(Debug)]
pub struct Session<S: ServerHandler> {
    client: RunningService<RoleClient, ()>,
    server: RunningService<RoleServer, S>,
}

impl<S: ServerHandler> Session<S> {
    /// Connects a client to `server` and completes the handshake.
    pub async fn connect(server: S) -> anyhow::Result<Self> {
        let (server_io, client_io) = tokio::io::duplex(64 * 1024);
        let (server, client) = tokio::join!(server.serve(server_io), ().serve(client_io));
        Ok(Self {
            client: client?,
            server: server?,
        })
    }

    /// `tools/call` through the client.
    pub async fn call(
        &self,
        name: &'static str,
        arguments: Map<String, Value>,
    ) -> Result<CallToolResult, ServiceError> {
        self.client
            .call_tool(CallToolRequestParams::new(name).with_arguments(arguments))
            .await
    }

    /// `tools/list` through the client.
    pub async fn list(&self) -> Result<ListToolsResult, ServiceError> {
        self.client.list_tools(None).await
    }

    /// The server's handler, to call without the transport.
    pub fn handler(&self) -> &S {
        self.server.service()
    }

    /// A request context as the server's service loop would make one.
    pub fn context(&self) -> RequestContext<RoleServer> {
        RequestContext::new(NumberOrString::Number(1), self.server.peer().clone())
    }

    /// Ends both sides.
    pub async fn close(mut self) {
        let _ = self.client.close().await;
        let _ = self.server.close().await;
    }
}
