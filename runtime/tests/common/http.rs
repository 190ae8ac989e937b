//! A server on Streamable HTTP of the test's own: bound to a free port of 127.0.0.1,
//! served until the test stops it; and requests to it as a client sends them.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::Full;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;

use mcp_tool::{ServerError, ToolServer};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

pub struct Running {
    pub address: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    served: JoinHandle<Result<(), ServerError>>,
}

impl Running {
    /// Serves `server` on a free port of 127.0.0.1.
    pub async fn start(server: ToolServer) -> Self {
        Self::start_at(server, "127.0.0.1:0".parse().unwrap()).await
    }

    /// Serves `server` at `address` (a port just found free, for a server that must
    /// know its own URL before it is built).
    pub async fn start_at(server: ToolServer, address: SocketAddr) -> Self {
        let listener = tokio::net::TcpListener::bind(address).await.unwrap();
        let address = listener.local_addr().unwrap();
        let (stop, stopped) = oneshot::channel::<()>();
        let served = tokio::spawn(server.serve_http(listener, async {
            let _ = stopped.await;
        }));
        Self {
            address,
            stop: Some(stop),
            served,
        }
    }

    pub fn url(&self) -> String {
        format!("http://{}/mcp", self.address)
    }

    /// Starts the shutdown and waits for the server to return: how long it took.
    pub async fn stop(mut self) -> Duration {
        let started = Instant::now();
        let _ = self.stop.take().expect("stopped once").send(());
        tokio::time::timeout(Duration::from_secs(20), self.served)
            .await
            .expect("the server returns after its shutdown")
            .expect("the server task does not panic")
            .expect("the server returns Ok");
        started.elapsed()
    }
}

/// Sends a request of `method` with `body` to `url` as a client on 2025-11-25 sends it
/// (JSON, accepting JSON and SSE), with `headers` besides, on a connection of its own: the
/// response, its body unread.
pub async fn send(
    method: http::Method,
    url: &str,
    headers: &[(&str, &str)],
    body: impl Into<Bytes>,
) -> http::Response<hyper::body::Incoming> {
    let mut request = http::Request::builder()
        .method(method)
        .uri(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-11-25");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let request = request
        .body(Full::new(body.into()))
        .expect("a valid request");
    let client = Client::builder(TokioExecutor::new()).build_http::<Full<Bytes>>();
    client.request(request).await.expect("the server answers")
}
