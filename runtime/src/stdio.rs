//! Newline-delimited JSON-RPC (the stdio transport), with the faults `rmcp` leaves
//! unanswered answered: a line that is not JSON (`NaN` and `-Infinity` included) gets
//! a `-32700` reply, an over-long line a `-32600` one, and an error reply that lost its
//! `id` gets `"id": null`, as JSON-RPC 2.0 requires. Everything else is `rmcp`'s.

use tokio::io::{
    AsyncBufRead, AsyncBufReadExt as _, AsyncRead, AsyncWrite, AsyncWriteExt as _, BufReader,
};
use tokio::sync::mpsc;

use crate::error::ServerError;
use crate::server::ToolServer;

/// The longest line read; a longer one is refused and skipped.
pub(crate) const MAX_LINE: usize = 16 * 1024 * 1024;

/// Serves one session over a pair of byte streams carrying one JSON message a line.
pub(crate) async fn serve<R, W>(server: ToolServer, input: R, output: W) -> Result<(), ServerError>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (rmcp_side, our_side) = tokio::io::duplex(64 * 1024);
    let (from_rmcp, to_rmcp) = tokio::io::split(our_side);
    let (replies, replies_rx) = mpsc::unbounded_channel::<String>();
    let inbound = tokio::spawn(inbound(input, to_rmcp, replies));
    let outbound = tokio::spawn(outbound(from_rmcp, replies_rx, output));
    let running = server.serve(rmcp_side).await?;
    let outcome = running
        .waiting()
        .await
        .map(|_| ())
        .map_err(|e| ServerError::Transport(e.to_string()));
    inbound.abort();
    // Let the last replies out before returning.
    let _ = outbound.await;
    outcome
}

/// Client to server: well-formed lines go on to `rmcp`, the others are answered here.
async fn inbound<R, W>(input: R, mut to_rmcp: W, replies: mpsc::UnboundedSender<String>)
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut input = BufReader::new(input);
    let mut line = Vec::new();
    loop {
        let reply = match read_line(&mut input, &mut line).await {
            Ok(Line::End) | Err(_) => break,
            Ok(Line::TooLong) => error_reply(
                -32600,
                &format!("Invalid request: the message is longer than {MAX_LINE} bytes"),
            ),
            Ok(Line::Complete) if line.trim_ascii().is_empty() => continue,
            Ok(Line::Complete) => match serde_json::from_slice::<serde::de::IgnoredAny>(&line) {
                Ok(_) => {
                    if send_line(&mut to_rmcp, &mut line).await.is_err() {
                        break;
                    }
                    continue;
                }
                Err(error) => error_reply(
                    -32700,
                    &format!("Parse error: the message is not valid JSON ({error})"),
                ),
            },
        };
        if replies.send(reply).is_err() {
            break;
        }
    }
    // The client is gone: closing rmcp's input ends the session.
    let _ = to_rmcp.shutdown().await;
}

enum Line {
    Complete,
    TooLong,
    End,
}

/// Reads one line (without its newline) into `line`; a line over [`MAX_LINE`] is
/// skipped to its end, never held whole.
async fn read_line<R: AsyncBufRead + Unpin>(
    input: &mut R,
    line: &mut Vec<u8>,
) -> std::io::Result<Line> {
    line.clear();
    let mut too_long = false;
    loop {
        let available = input.fill_buf().await?;
        if available.is_empty() {
            return Ok(match (too_long, line.is_empty()) {
                (true, _) => Line::TooLong,
                (false, false) => Line::Complete,
                (false, true) => Line::End,
            });
        }
        let (chunk, found) = match available.iter().position(|&b| b == b'\n') {
            Some(end) => (&available[..end], Some(end + 1)),
            None => (available, None),
        };
        if !too_long && line.len() + chunk.len() > MAX_LINE {
            too_long = true;
            line.clear();
        }
        if !too_long {
            line.extend_from_slice(chunk);
        }
        let consumed = found.unwrap_or(available.len());
        input.consume(consumed);
        if found.is_some() {
            return Ok(if too_long {
                Line::TooLong
            } else {
                Line::Complete
            });
        }
    }
}

/// Server to client: `rmcp`'s lines and ours, one whole line at a time.
async fn outbound<R, W>(from_rmcp: R, mut replies: mpsc::UnboundedReceiver<String>, mut output: W)
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut lines = BufReader::new(from_rmcp).lines();
    loop {
        let line = tokio::select! {
            line = lines.next_line() => match line {
                Ok(Some(line)) => with_null_id(line),
                _ => break,
            },
            Some(reply) = replies.recv() => reply,
        };
        if send_line(&mut output, &mut line.into_bytes())
            .await
            .is_err()
        {
            return;
        }
    }
    while let Ok(reply) = replies.try_recv() {
        if send_line(&mut output, &mut reply.into_bytes())
            .await
            .is_err()
        {
            return;
        }
    }
}

/// Writes one message and its newline in a single write (tokio's stdout runs each
/// write on a blocking thread), then flushes.
async fn send_line<W: AsyncWrite + Unpin>(
    output: &mut W,
    line: &mut Vec<u8>,
) -> std::io::Result<()> {
    line.push(b'\n');
    output.write_all(line).await?;
    output.flush().await
}

fn error_reply(code: i64, message: &str) -> String {
    serde_json::json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": { "code": code, "message": message },
    })
    .to_string()
}

/// An error reply without an `id` gets `"id": null`; other lines pass untouched.
fn with_null_id(line: String) -> String {
    // Cheap test first: replies with an id (nearly all) are not parsed again.
    if !line.contains("\"error\"") || line.contains("\"id\"") {
        return line;
    }
    match serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(&line) {
        Ok(mut message) if message.contains_key("error") && !message.contains_key("id") => {
            message.insert("id".into(), serde_json::Value::Null);
            serde_json::Value::Object(message).to_string()
        }
        _ => line,
    }
}
