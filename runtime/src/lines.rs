//! Newline-delimited JSON-RPC over a pair of byte streams (stdio, a pipe, a socket),
//! as an `rmcp` [`Transport`]: each line is read once and decoded once (see [`wire`]);
//! what does not decode, and a line over [`MAX_LINE`], is answered here, and the
//! session goes on.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::Transport;
use tokio::io::{AsyncBufReadExt as _, AsyncRead, AsyncWrite, AsyncWriteExt as _, BufReader};
use tokio::sync::Mutex;

use crate::wire::{self, Inbound};

/// The longest line read; a longer one is refused and skipped.
pub(crate) const MAX_LINE: usize = 16 * 1024 * 1024;

type Writing = Pin<Box<dyn Future<Output = std::io::Result<()>> + Send>>;

/// One session's transport over a reader and a writer.
pub(crate) struct LineTransport<R, W> {
    input: BufReader<R>,
    /// The line read so far; kept here because `receive` may be cancelled mid-line.
    line: Vec<u8>,
    /// Set while the rest of an over-long line is being skipped.
    skipping: bool,
    /// A reply of ours being written; kept here for the same reason.
    replying: Option<Writing>,
    output: Arc<Mutex<W>>,
}

impl<R, W> LineTransport<R, W>
where
    R: AsyncRead + Unpin + Send,
    W: AsyncWrite + Unpin + Send + 'static,
{
    pub(crate) fn new(input: R, output: W) -> Self {
        Self {
            input: BufReader::new(input),
            line: Vec::new(),
            skipping: false,
            replying: None,
            output: Arc::new(Mutex::new(output)),
        }
    }

    /// Reads up to the end of a line into `self.line`; `None` at the end of the input.
    /// A line over [`MAX_LINE`] is dropped as it arrives, never held whole.
    async fn read_line(&mut self) -> Option<Line> {
        loop {
            let available = match self.input.fill_buf().await {
                Ok(available) => available,
                Err(error) => {
                    tracing::warn!(%error, "reading the client's messages failed");
                    return None;
                }
            };
            if available.is_empty() {
                // A last line without its newline still counts.
                return match (self.skipping, self.line.is_empty()) {
                    (true, _) => {
                        self.skipping = false;
                        Some(Line::TooLong)
                    }
                    (false, false) => Some(Line::Complete),
                    (false, true) => None,
                };
            }
            let newline = available.iter().position(|&b| b == b'\n');
            let chunk = &available[..newline.unwrap_or(available.len())];
            if !self.skipping && self.line.len() + chunk.len() > MAX_LINE {
                self.skipping = true;
                self.line = Vec::new();
            }
            if !self.skipping {
                self.line.extend_from_slice(chunk);
            }
            // Copying and consuming happen with no await between them: cancel-safe.
            let consumed = newline.map_or(available.len(), |end| end + 1);
            self.input.consume(consumed);
            if newline.is_some() {
                let line = if self.skipping {
                    Line::TooLong
                } else {
                    Line::Complete
                };
                self.skipping = false;
                return Some(line);
            }
        }
    }
}

enum Line {
    Complete,
    TooLong,
}

impl<R, W> Transport<RoleServer> for LineTransport<R, W>
where
    R: AsyncRead + Unpin + Send,
    W: AsyncWrite + Unpin + Send + 'static,
{
    type Error = std::io::Error;

    fn send(
        &mut self,
        message: ServerJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let encoded = wire::encode(&message).map_err(std::io::Error::other);
        let output = Arc::clone(&self.output);
        async move { write(output, encoded?).await }
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        loop {
            if let Some(replying) = &mut self.replying {
                let written = replying.await;
                self.replying = None;
                if let Err(error) = written {
                    tracing::warn!(%error, "writing a reply failed");
                    return None;
                }
            }
            let line = self.read_line().await?;
            let inbound = match line {
                Line::TooLong => Inbound::Rejected(wire::too_long(MAX_LINE)),
                Line::Complete => {
                    let text = self.line.strip_suffix(b"\r").unwrap_or(&self.line);
                    let inbound = if text.trim_ascii().is_empty() {
                        Inbound::Ignored
                    } else {
                        wire::decode(text)
                    };
                    self.line.clear();
                    inbound
                }
            };
            match inbound {
                Inbound::Message(message) => return Some(*message),
                Inbound::Ignored => {}
                Inbound::Rejected(reply) => {
                    self.replying = Some(Box::pin(write(Arc::clone(&self.output), reply)));
                }
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        let mut output = self.output.lock().await;
        output.flush().await?;
        output.shutdown().await
    }
}

/// Writes one encoded message in a single write (tokio's stdout runs each write on a
/// blocking thread), then flushes.
async fn write<W: AsyncWrite + Unpin>(
    output: Arc<Mutex<W>>,
    bytes: Vec<u8>,
) -> std::io::Result<()> {
    let mut output = output.lock().await;
    output.write_all(&bytes).await?;
    output.flush().await
}
