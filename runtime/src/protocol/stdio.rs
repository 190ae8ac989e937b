//! Serving a built server over stdio, or any pair of byte streams that carry one
//! JSON-RPC message a line: rmcp's session over our line transport.

use std::time::Instant;

use rmcp::ServiceExt;

use crate::outcome::error::ServerError;
use crate::protocol::lines::LineTransport;
use crate::server::pipeline::Transport;
use crate::server::pipeline::spans;
use crate::server::tool_server::ToolServer;

impl ToolServer {
    /// Serves over stdin and stdout until the client leaves.
    pub async fn serve_stdio(self) -> Result<(), ServerError> {
        self.serve_lines(tokio::io::stdin(), tokio::io::stdout())
            .await
    }

    /// Serves one session over any pair of byte streams that carry one JSON-RPC
    /// message a line, as stdio does: a pipe, a socket, an in-memory duplex. A line
    /// that is not JSON is answered with a `-32700` error (`"id": null`) and the
    /// session goes on.
    pub async fn serve_lines<R, W>(self, input: R, output: W) -> Result<(), ServerError>
    where
        R: tokio::io::AsyncRead + Unpin + Send + 'static,
        W: tokio::io::AsyncWrite + Unpin + Send + 'static,
    {
        let transport = LineTransport::new(input, output, self.limits()).answering(self.clone());
        let mut session = self.session();
        session.outbox = Some(transport.outbox());
        let began = Instant::now();
        let running = ServiceExt::serve(session, transport)
            .await
            .map_err(|e| ServerError::Transport(e.to_string()))?;
        let peer = running.peer().clone();
        let ended = running.waiting().await;
        if spans::listening() {
            let version = peer
                .peer_info()
                .map(|info| info.protocol_version.to_string());
            let error = ended.as_ref().err().map(|_| "transport_error");
            spans::session_ended(began, Transport::Stdio, version.as_deref(), error);
        }
        ended
            .map(|_| ())
            .map_err(|e| ServerError::Transport(e.to_string()))
    }
}
