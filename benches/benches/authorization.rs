//! One HTTP `tools/call` of `add` with a JWT (the issuer's keys already fetched and kept)
//! beside the same call to a server without authorization: what a token costs a call,
//! once accepted and kept (`jwt-rs256`, a client's calls after its first) and with its
//! signature checked at every call (`jwt-rs256-checked`, `cache_for(Duration::ZERO)`). The issuer is served in-process on 127.0.0.1, the key is the runtime's test key.

use std::hint::black_box;
use std::net::SocketAddr;

use bytes::Bytes;
use criterion::{Criterion, criterion_group, criterion_main};
use http_body_util::{BodyExt as _, Full};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use mcp_tool::{JwtVerifier, ToolServer};
use serde_json::json;
use tokio::runtime::Runtime;

type HttpClient = Client<HttpConnector, Full<Bytes>>;

/// Serves `server` statelessly on a free port; its endpoint's URL.
async fn serve(server: ToolServer, listener: tokio::net::TcpListener) -> String {
    let address: SocketAddr = listener.local_addr().expect("an address");
    tokio::spawn(server.serve_http(listener, std::future::pending()));
    format!("http://{address}/mcp")
}

async fn call(client: &HttpClient, url: &str, token: Option<&str>) -> Bytes {
    let body = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "name": "add", "arguments": { "a": 2, "b": 3 } }
    });
    let mut request = http::Request::post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-11-25");
    if let Some(token) = token {
        request = request.header("authorization", format!("Bearer {token}"));
    }
    let request = request
        .body(Full::new(Bytes::from(body.to_string())))
        .expect("a request");
    let response = client.request(request).await.expect("an answer");
    assert_eq!(response.status(), 200);
    response
        .into_body()
        .collect()
        .await
        .expect("a body")
        .to_bytes()
}

fn bench(c: &mut Criterion) {
    let rt = Runtime::new().expect("a tokio runtime");
    let (plain, secured, checked, token) = rt.block_on(async {
        let issuer = mcp_tool_benches::issuer::serve().await;
        let ours = mcp_tool_benches::ours::builder;
        let plain = ours().stateless(true).build().expect("builds");
        let plain = serve(
            plain,
            tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap(),
        )
        .await;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let resource = format!("http://{}/mcp", listener.local_addr().unwrap());
        let secured = ours()
            .stateless(true)
            .authorization(JwtVerifier::issuer(&issuer).audience(&resource))
            .build()
            .expect("builds");
        let secured = serve(secured, listener).await;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        // The same audience as `secured`'s, so that the same token serves both.
        let verifier = JwtVerifier::issuer(&issuer)
            .audience(&resource)
            .cache_for(std::time::Duration::ZERO);
        let checked = ours()
            .stateless(true)
            .authorization(verifier)
            .build()
            .expect("builds");
        let checked = serve(checked, listener).await;
        let token = mcp_tool_benches::issuer::token(&issuer, &resource);
        (plain, secured, checked, token)
    });
    let client: HttpClient = Client::builder(TokioExecutor::new()).build_http();
    // The first call fetches the keys; the timed ones find them kept.
    rt.block_on(call(&client, &secured, Some(&token)));
    rt.block_on(call(&client, &checked, Some(&token)));
    let mut group = c.benchmark_group("call-add-http");
    group.bench_function("without-auth", |b| {
        b.to_async(&rt)
            .iter(|| async { black_box(call(&client, &plain, None).await) })
    });
    group.bench_function("jwt-rs256", |b| {
        b.to_async(&rt)
            .iter(|| async { black_box(call(&client, &secured, Some(&token)).await) })
    });
    group.bench_function("jwt-rs256-checked", |b| {
        b.to_async(&rt)
            .iter(|| async { black_box(call(&client, &checked, Some(&token)).await) })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
