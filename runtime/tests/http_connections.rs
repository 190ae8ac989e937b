//! Slow and greedy clients over HTTP: a connection that sends half a request and stops is
//! closed after the header-read timeout, as is one left idle, while other clients are
//! served throughout; a body sent too slowly gets `408`; and no more connections than the
//! server's maximum are served at once.

#![cfg(feature = "http")]

mod common;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use mcp_tool::{Server, mcp_tool};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpStream;
use tokio::sync::oneshot;

/// Adds two integers and returns their sum.
#[mcp_tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

use common::http::Running;

async fn start(server: Server) -> Running {
    Running::start(server.stateless(true).build().expect("the server builds")).await
}

const PING: &str = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;

/// A ping from a well-behaved client, on a connection of its own; the status and reply.
async fn ping(address: SocketAddr) -> (u16, Value) {
    let client = Client::builder(TokioExecutor::new()).build_http();
    let request = http::Request::post(format!("http://{address}/mcp"))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(Full::new(Bytes::from_static(PING.as_bytes())))
        .unwrap();
    let response = client.request(request).await.expect("the server answers");
    let status = response.status().as_u16();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    let reply = serde_json::from_slice(&body)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&body)));
    (status, reply)
}

fn assert_pong((status, reply): (u16, Value)) {
    assert_eq!(status, 200, "{reply}");
    assert_eq!(reply, json!({ "jsonrpc": "2.0", "id": 1, "result": {} }));
}

/// A connection that sends `bytes` and then nothing more.
async fn send_and_stop(address: SocketAddr, bytes: &[u8]) -> TcpStream {
    let mut tcp = TcpStream::connect(address).await.unwrap();
    tcp.write_all(bytes).await.unwrap();
    tcp
}

/// What the server sends on `tcp` until it closes it (a reset counts as closed), or
/// `None` if it is still open after `limit`.
async fn until_closed(tcp: &mut TcpStream, limit: Duration) -> Option<String> {
    let mut received = Vec::new();
    let read = tokio::time::timeout(limit, async {
        let mut buffer = [0; 4096];
        loop {
            match tcp.read(&mut buffer).await {
                Ok(0) | Err(_) => return,
                Ok(n) => received.extend_from_slice(&buffer[..n]),
            }
        }
    });
    read.await
        .ok()
        .map(|()| String::from_utf8_lossy(&received).into_owned())
}

const HALF_A_HEAD: &[u8] = b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Ty";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_open_connections_are_closed_after_the_header_timeout_while_others_are_served() {
    const TIMEOUT: Duration = Duration::from_millis(800);
    const HALF_OPEN: usize = 200;
    let server = start(Server::from_registry("slow", "1").header_read_timeout(TIMEOUT)).await;
    let address = server.address;
    // A well-behaved client pings all along, each time on a new connection.
    let (done, mut stop_pinging) = oneshot::channel::<()>();
    let pings = Arc::new(AtomicUsize::new(0));
    let pinging = tokio::spawn({
        let pings = Arc::clone(&pings);
        async move {
            while stop_pinging.try_recv().is_err() {
                // Far longer than a ping takes (milliseconds): a loaded machine may be slow,
                // but a server whose half-open connections starve others never answers.
                let answered = tokio::time::timeout(Duration::from_secs(10), ping(address));
                assert_pong(answered.await.expect("a ping is answered within 10 s"));
                pings.fetch_add(1, Ordering::SeqCst);
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
    });
    let opened = Instant::now();
    let mut half_open = Vec::new();
    for _ in 0..HALF_OPEN {
        half_open.push(send_and_stop(address, HALF_A_HEAD).await);
    }
    let pings_when_open = pings.load(Ordering::SeqCst);
    // A connection left idle after a request is closed after the same time.
    let mut idle = TcpStream::connect(address).await.unwrap();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n\r\n{PING}",
        PING.len()
    );
    // Taken before the request is sent: the server's idle time cannot begin earlier, so
    // the measured time is never shorter than the server's, however slow the reply's read.
    let idle_since = Instant::now();
    idle.write_all(request.as_bytes()).await.unwrap();
    let mut reply = [0; 12];
    idle.read_exact(&mut reply).await.unwrap();
    assert_eq!(&reply, b"HTTP/1.1 200");
    for tcp in &mut half_open {
        let closed = until_closed(tcp, TIMEOUT + Duration::from_secs(5)).await;
        assert!(closed.is_some(), "a half-open connection is still open");
    }
    let all_closed = opened.elapsed();
    let pings_while_held = pings.load(Ordering::SeqCst) - pings_when_open;
    assert!(
        all_closed >= TIMEOUT,
        "half-open connections were closed after {all_closed:?}, before the timeout"
    );
    assert!(
        until_closed(&mut idle, TIMEOUT * 4).await.is_some(),
        "the idle one stays open"
    );
    let idle_closed = idle_since.elapsed();
    assert!(
        idle_closed >= TIMEOUT,
        "the idle connection closed after {idle_closed:?}"
    );
    let _ = done.send(());
    pinging.await.expect("every ping is answered");
    let pings = pings.load(Ordering::SeqCst);
    eprintln!(
        "{HALF_OPEN} half-open connections closed after {all_closed:?}, an idle one after \
         {idle_closed:?} (timeout {TIMEOUT:?}); {pings} pings answered meanwhile, \
         {pings_while_held} while they were held"
    );
    // However slow the machine, the other client was served while the half-open
    // connections were held (from the last opened until all were closed).
    assert!(
        pings_while_held >= 1,
        "no ping was answered while the {HALF_OPEN} half-open connections were held"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_sent_too_slowly_gets_408_and_its_connection_closes() {
    const TIMEOUT: Duration = Duration::from_millis(500);
    let server = start(Server::from_registry("slow", "1").body_read_timeout(TIMEOUT)).await;
    let started = Instant::now();
    let head = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
                Accept: application/json, text/event-stream\r\nContent-Length: 60\r\n\r\n";
    let mut tcp = send_and_stop(server.address, format!("{head}{{\"jsonrpc\"").as_bytes()).await;
    let reply = until_closed(&mut tcp, TIMEOUT + Duration::from_secs(5))
        .await
        .expect("the connection is closed");
    let elapsed = started.elapsed();
    assert!(reply.starts_with("HTTP/1.1 408"), "{reply}");
    assert!(
        elapsed >= TIMEOUT,
        "refused after {elapsed:?}, before the timeout"
    );
    let body = reply.split("\r\n\r\n").nth(1).expect("a body");
    let refusal: Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {reply}"));
    assert_eq!(refusal["error"]["code"], -32600, "{refusal}");
    assert_eq!(
        refusal["error"]["message"],
        "Invalid request: the body was not sent within 0.5 seconds"
    );
    // Others are served as before.
    assert_pong(ping(server.address).await);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_more_connections_than_the_maximum_are_served_at_once() {
    const MAX: usize = 8;
    let server = Server::from_registry("greedy", "1")
        .max_connections(MAX)
        .header_read_timeout(Duration::from_secs(60));
    let server = start(server).await;
    let address = server.address;
    assert_pong(ping(address).await);
    let mut held = Vec::new();
    for _ in 0..MAX {
        held.push(send_and_stop(address, HALF_A_HEAD).await);
    }
    // The maximum is taken: a request waits, not answered, as long as they are held.
    let waiting = tokio::time::timeout(Duration::from_secs(1), ping(address)).await;
    assert!(waiting.is_err(), "a request was served beyond the maximum");
    let pinged = tokio::spawn(ping(address));
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(
        !pinged.is_finished(),
        "a request was served beyond the maximum"
    );
    // One connection closes: the one waiting is served.
    drop(held.pop());
    let answered = tokio::time::timeout(Duration::from_secs(5), pinged)
        .await
        .expect("the waiting request is served once a connection closes")
        .unwrap();
    assert_pong(answered);
    server.stop().await;
}
