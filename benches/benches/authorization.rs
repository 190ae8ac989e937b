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
use jsonwebtoken::jwk::{Jwk, JwkSet};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use mcp_tool::{JwtVerifier, ToolServer};
use serde_json::json;
use tokio::runtime::Runtime;

const KEY: &[u8] = include_bytes!("../../runtime/tests/keys/rsa-a.pem");

type HttpClient = Client<HttpConnector, Full<Bytes>>;

/// Serves the issuer's metadata and key set; its URL.
async fn issuer() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("binds");
    let url = format!("http://{}", listener.local_addr().expect("an address"));
    let key = EncodingKey::from_rsa_pem(KEY).expect("a key");
    let mut jwk = Jwk::from_encoding_key(&key, Algorithm::RS256).expect("a JWK");
    jwk.common.key_id = Some("a".to_owned());
    let jwks = serde_json::to_string(&JwkSet { keys: vec![jwk] }).expect("JSON");
    let metadata = json!({ "issuer": url, "jwks_uri": format!("{url}/jwks") }).to_string();
    let app = axum::Router::new()
        .route(
            "/.well-known/oauth-authorization-server",
            axum::routing::get(move || async move { metadata }),
        )
        .route("/jwks", axum::routing::get(move || async move { jwks }));
    tokio::spawn(async move { axum::serve(listener, app).await });
    url
}

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
        let issuer = issuer().await;
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
        let claims = json!({
            "iss": issuer, "aud": resource, "sub": "bench", "scope": "",
            "exp": 4_000_000_000u64,
        });
        let mut header = Header::new(Algorithm::RS256);
        header.kid = Some("a".to_owned());
        let key = EncodingKey::from_rsa_pem(KEY).expect("a key");
        let token = jsonwebtoken::encode(&header, &claims, &key).expect("a token");
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
