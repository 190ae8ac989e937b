//! What the `messages` target checks, for libFuzzer (`fuzz_targets/messages.rs`) and the
//! bounded run on stable (`tests/fuzz-stable`) alike. Feeds arbitrary bytes, as lines, to a
//! server's stdio transport and checks what must always hold: the server neither panics
//! nor hangs, every line it writes is one JSON-RPC message, and after the garbage a `ping`
//! on a line of its own still gets its reply.

use std::time::Duration;

use mcp_tool::{Server, mcp_tool};
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

/// Adds two integers and returns their sum.
#[mcp_tool]
fn add(a: i64, b: i64) -> i64 {
    a.wrapping_add(b)
}

const HANDSHAKE: &str = concat!(
    r#"{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"fuzz","version":"1"}}}"#,
    "\n",
    r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    "\n"
);
const PING: &str = "\n{\"jsonrpc\":\"2.0\",\"id\":\"last-ping\",\"method\":\"ping\"}\n";

pub(crate) fn check(data: &[u8]) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let server = Server::from_registry("fuzz", "1")
            .max_message_size(64 * 1024)
            .shutdown_grace(Duration::from_millis(100))
            .build()
            .unwrap();
        let (mut to_server, input) = tokio::io::duplex(1 << 20);
        let (output, from_server) = tokio::io::duplex(1 << 20);
        let session = tokio::spawn(server.serve_lines(input, output));
        to_server.write_all(HANDSHAKE.as_bytes()).await.unwrap();
        to_server.write_all(data).await.unwrap();
        to_server.write_all(PING.as_bytes()).await.unwrap();
        drop(to_server);
        let mut lines = BufReader::new(from_server).lines();
        let mut pinged = false;
        let read_all = async {
            while let Some(line) = lines.next_line().await.unwrap() {
                let message: Value = serde_json::from_str(&line).unwrap_or_else(|e| {
                    panic!("the server wrote a line that is not JSON ({e}): {line:?}")
                });
                assert_eq!(message["jsonrpc"], "2.0", "{line}");
                assert!(
                    message.get("id").is_some() || message.get("method").is_some(),
                    "neither a reply nor a notification: {line}"
                );
                pinged |= message["id"] == "last-ping" && message.get("result").is_some();
            }
        };
        tokio::time::timeout(Duration::from_secs(10), read_all)
            .await
            .expect("the session ends within 10 s of its input");
        // The ping starts a line of its own; an input without quotes cannot leave a string
        // open across it, so for such inputs it must be answered.
        if std::str::from_utf8(data).is_ok_and(|text| !text.contains('"')) {
            assert!(pinged, "the ping after the input got no reply");
        }
        let _ = session.await;
    });
}
