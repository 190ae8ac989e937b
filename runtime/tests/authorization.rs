//! A server with authorization is an OAuth 2.1 resource server: a request without a
//! valid token gets `401` naming the protected resource metadata, which is served without
//! a token; a call lacking a scope gets `403`; a tool sees its caller; and why a token was
//! refused goes to the log, never to the client.

#![cfg(feature = "auth")]

mod common;

use std::time::Duration;

use mcp_tool::{Context, IntrospectionVerifier, JwtVerifier, Server, ToolError, mcp_tool};
use serde_json::{Value, json};

use common::authorized::{
    Setup, call, list_tools, metadata_url, send, setup, setup_verifying, setup_with_interval,
};
use common::http::Running;
use common::issuer::{self, CA, Issuer, KEY_A, KEY_A_PUBLIC, KEY_B};
use common::log::Captured;

/// Says who called, and with which scopes.
#[mcp_tool]
fn whoami(ctx: Context) -> String {
    match ctx.auth() {
        Some(auth) => format!(
            "{} via {} with [{}]",
            auth.subject().unwrap_or("-"),
            auth.client_id().unwrap_or("-"),
            auth.scopes().join(" ")
        ),
        None => "nobody".to_owned(),
    }
}

/// Reads a file of the index.
#[mcp_tool(scopes = ["files:read"])]
fn read_file(
    /// The file's name.
    name: String,
) -> String {
    format!("contents of {name}")
}

/// Deletes a file of the index.
#[mcp_tool(scopes = ["files:read", "files:write"])]
fn delete_file(
    /// The file's name.
    name: String,
) -> String {
    format!("deleted {name}")
}

/// Fails, quoting the credentials it was given.
#[mcp_tool]
fn upstream(
    /// A header to quote.
    header: String,
) -> Result<String, ToolError> {
    Err(ToolError::new(format!("the upstream refused {header}")))
}

#[tokio::test]
async fn a_request_without_a_token_gets_401_naming_the_metadata() {
    let setup = setup(|server| server).await;
    let reply = call(&setup.server.url(), None, "whoami", json!({})).await;
    assert_eq!(reply.status, 401, "{}", reply.body);
    let challenge = reply.challenge.clone().expect("a WWW-Authenticate header");
    assert!(challenge.starts_with("Bearer "), "{challenge}");
    let expected = format!("resource_metadata=\"{}\"", metadata_url(&setup));
    assert!(challenge.contains(&expected), "{challenge}");
    assert!(
        challenge.contains("scope=\"files:read files:write\""),
        "{challenge}"
    );
    assert!(!challenge.contains("invalid_token"), "{challenge}");
    assert_eq!(reply.json()["error"]["code"], -32001);
    // Nor does a GET for the server's stream get through.
    let get = send(http::Method::GET, &setup.server.url(), None, None).await;
    assert_eq!(get.status, 401);
    setup.server.stop().await;
}

#[tokio::test]
async fn the_metadata_is_served_without_a_token_at_both_paths() {
    let setup = setup(|server| server).await;
    let root = format!(
        "http://{}/.well-known/oauth-protected-resource",
        setup.server.address
    );
    for url in [metadata_url(&setup), root] {
        let reply = send(http::Method::GET, &url, None, None).await;
        assert_eq!(reply.status, 200, "{url}: {}", reply.body);
        assert_eq!(
            reply.json(),
            json!({
                "resource": setup.resource,
                "authorization_servers": [setup.issuer.url()],
                "scopes_supported": ["files:read", "files:write"],
                "bearer_methods_supported": ["header"],
            })
        );
    }
    setup.server.stop().await;
}

#[tokio::test]
async fn a_valid_token_calls_tools_that_see_their_caller() {
    let setup = setup(|server| server).await;
    let token = setup.token("files:read");
    let reply = call(&setup.server.url(), Some(&token), "whoami", json!({})).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let text = &reply.json()["result"]["content"][0]["text"];
    assert_eq!(text, "user-42 via test-client with [files:read]");
    let reply = call(
        &setup.server.url(),
        Some(&token),
        "read_file",
        json!({ "name": "a.txt" }),
    )
    .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(
        reply.json()["result"]["content"][0]["text"],
        "contents of a.txt"
    );
    // The keys were fetched once, for both calls.
    assert_eq!(setup.issuer.jwks_fetches(), 1);
    setup.server.stop().await;
}

#[tokio::test]
async fn a_call_lacking_a_scope_gets_403_naming_it() {
    let setup = setup(|server| server).await;
    let token = setup.token("files:read");
    let reply = call(
        &setup.server.url(),
        Some(&token),
        "delete_file",
        json!({ "name": "a" }),
    )
    .await;
    assert_eq!(reply.status, 403, "{}", reply.body);
    let challenge = reply.challenge.expect("a WWW-Authenticate header");
    assert!(
        challenge.contains("error=\"insufficient_scope\""),
        "{challenge}"
    );
    assert!(
        challenge.contains("scope=\"files:read files:write\""),
        "{challenge}"
    );
    assert!(challenge.contains(&metadata_url(&setup)), "{challenge}");
    setup.server.stop().await;
}

#[tokio::test]
async fn tools_list_shows_only_what_the_token_may_call() {
    let setup = setup(|server| server).await;
    let url = setup.server.url();
    let none = list_tools(&url, &setup.token("")).await;
    assert_eq!(none, ["upstream", "whoami"]);
    let read = list_tools(&url, &setup.token("files:read")).await;
    assert_eq!(read, ["read_file", "upstream", "whoami"]);
    let all = list_tools(&url, &setup.token("files:read files:write")).await;
    assert_eq!(all, ["delete_file", "read_file", "upstream", "whoami"]);
    setup.server.stop().await;

    let everything = setup_listing_all().await;
    let listed = list_tools(&everything.server.url(), &everything.token("")).await;
    assert_eq!(listed.len(), 4, "{listed:?}");
    everything.server.stop().await;
}

async fn setup_listing_all() -> Setup {
    setup(|server| server.list_only_permitted(false)).await
}

#[tokio::test]
async fn refused_tokens_get_401_and_their_reason_goes_only_to_the_log() {
    let log = Captured::default();
    let _guard = log.install("mcp_tool=debug");
    let setup = setup(|server| server).await;
    let (issuer_url, resource) = (setup.issuer.url(), setup.resource.clone());
    let mut expired = issuer::claims(&issuer_url, &resource, "files:read");
    expired["exp"] = json!(issuer::now() - 3600);
    let mut early = issuer::claims(&issuer_url, &resource, "files:read");
    early["nbf"] = json!(issuer::now() + 3600);
    let good = issuer::claims(&issuer_url, &resource, "files:read");
    let valid = issuer::sign(&good, "a", KEY_A);
    let (head, rest) = valid.split_once('.').unwrap();
    let (payload, signature) = rest.split_once('.').unwrap();
    let tampered_payload = {
        use base64::Engine as _;
        let engine = base64::engine::general_purpose::URL_SAFE_NO_PAD;
        let mut claims: Value = serde_json::from_slice(&engine.decode(payload).unwrap()).unwrap();
        claims["scope"] = json!("files:read files:write");
        engine.encode(claims.to_string())
    };
    let cases = [
        ("expired", issuer::sign(&expired, "a", KEY_A), "has expired"),
        (
            "not yet valid",
            issuer::sign(&early, "a", KEY_A),
            "not valid yet",
        ),
        (
            "wrong audience",
            issuer::sign(
                &issuer::claims(&issuer_url, "http://elsewhere/mcp", "files:read"),
                "a",
                KEY_A,
            ),
            "another audience",
        ),
        (
            "wrong issuer",
            issuer::sign(
                &issuer::claims("http://evil.example", &resource, "files:read"),
                "a",
                KEY_A,
            ),
            "another issuer",
        ),
        (
            "tampered",
            format!("{head}.{tampered_payload}.{signature}"),
            "signature does not verify",
        ),
        ("alg none", unsigned(&good), "not a signed JWT"),
        (
            "HS256 with the public key",
            hmac_signed(&good, KEY_A_PUBLIC),
            "shared-secret",
        ),
        ("not a JWT", "garbage".to_owned(), "not a signed JWT"),
    ];
    for (case, token, reason) in &cases {
        let reply = call(&setup.server.url(), Some(token), "whoami", json!({})).await;
        assert_eq!(reply.status, 401, "{case}: {}", reply.body);
        let challenge = reply.challenge.unwrap();
        assert!(
            challenge.contains("error=\"invalid_token\""),
            "{case}: {challenge}"
        );
        assert!(
            !reply.body.contains(reason),
            "{case}: the reply says why: {}",
            reply.body
        );
        assert!(
            log.text().contains(reason),
            "{case}: the log misses {reason:?}:\n{}",
            log.text()
        );
    }
    let log = log.text();
    assert!(log.contains("refused an access token"), "{log}");
    for (case, token, _) in &cases {
        assert!(
            !log.contains(token.as_str()),
            "{case}: the token is in the log:\n{log}"
        );
    }
    setup.server.stop().await;
}

/// `claims` as a JWT with `alg: none` and no signature.
fn unsigned(claims: &Value) -> String {
    use base64::Engine as _;
    let engine = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let header = engine.encode(json!({ "alg": "none", "typ": "JWT", "kid": "a" }).to_string());
    format!("{header}.{}.", engine.encode(claims.to_string()))
}

/// `claims` signed with HS256, the secret being `secret` (an attacker's use of the public key).
fn hmac_signed(claims: &Value, secret: &[u8]) -> String {
    let mut header = jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS256);
    header.kid = Some("a".to_owned());
    let key = jsonwebtoken::EncodingKey::from_secret(secret).unwrap();
    jsonwebtoken::encode(&header, claims, &key).unwrap()
}

#[tokio::test]
async fn a_rotated_key_is_fetched_without_a_restart() {
    let setup = setup(|server| server).await;
    let url = setup.server.url();
    let first = setup.token("files:read");
    assert_eq!(
        call(&url, Some(&first), "whoami", json!({})).await.status,
        200
    );
    setup.issuer.publish(&[("a", KEY_A), ("b", KEY_B)]);
    let claims = issuer::claims(&setup.issuer.url(), &setup.resource, "files:read");
    let rotated = issuer::sign(&claims, "b", KEY_B);
    // Within the refetch interval of the first fetch, a key not kept is not fetched.
    assert_eq!(
        call(&url, Some(&rotated), "whoami", json!({})).await.status,
        401
    );
    assert_eq!(setup.issuer.jwks_fetches(), 1);
    setup.server.stop().await;

    let quick = setup_with_interval(Duration::from_secs(1)).await;
    let url = quick.server.url();
    let first = quick.token("");
    for _ in 0..2 {
        let reply = call(&url, Some(&first), "whoami", json!({})).await;
        assert_eq!(reply.status, 200, "{}", reply.body);
    }
    quick.issuer.publish(&[("b", KEY_B)]);
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let claims = issuer::claims(&quick.issuer.url(), &quick.resource, "files:read");
    let rotated = issuer::sign(&claims, "b", KEY_B);
    let reply = call(&url, Some(&rotated), "whoami", json!({})).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(quick.issuer.jwks_fetches(), 2);
    // The first token, accepted and kept before the keys were fetched again, is signed
    // with a key the issuer no longer publishes: it is checked again, and refused.
    let again = call(&url, Some(&first), "whoami", json!({})).await;
    assert_eq!(again.status, 401, "{}", again.body);
    // A burst of tokens naming an unknown key, just after a fetch, fetches nothing more.
    let unknown = issuer::sign(&claims, "c", KEY_B);
    for _ in 0..5 {
        assert_eq!(
            call(&url, Some(&unknown), "whoami", json!({})).await.status,
            401
        );
    }
    assert_eq!(quick.issuer.jwks_fetches(), 2);
    quick.server.stop().await;
}

#[tokio::test]
async fn a_token_in_the_query_string_is_refused() {
    let setup = setup(|server| server).await;
    let token = setup.token("files:read");
    let url = format!("{}?access_token={token}", setup.server.url());
    let reply = call(&url, None, "whoami", json!({})).await;
    assert_eq!(reply.status, 400, "{}", reply.body);
    // Even beside a valid header.
    let reply = call(&url, Some(&token), "whoami", json!({})).await;
    assert_eq!(reply.status, 400, "{}", reply.body);
    assert!(!reply.body.contains(&token));
    setup.server.stop().await;
}

#[tokio::test]
async fn a_tool_error_quoting_the_token_leaks_nothing() {
    let log = Captured::default();
    let _guard = log.install("mcp_tool=debug");
    let setup = setup(|server| server).await;
    let token = setup.token("files:read");
    let quoted = format!("Authorization: Bearer {token}");
    let reply = call(
        &setup.server.url(),
        Some(&token),
        "upstream",
        json!({ "header": quoted }),
    )
    .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.json()["result"]["isError"], true);
    let (_, signature) = token.rsplit_once('.').unwrap();
    assert!(!reply.body.contains(signature), "{}", reply.body);
    assert!(!log.text().contains(signature), "{}", log.text());
    setup.server.stop().await;
}

#[tokio::test]
async fn the_introspection_verifier_accepts_active_tokens_only() {
    let issuer = Issuer::start(&[]).await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    drop(listener);
    let resource = format!("http://{address}/mcp");
    issuer.published.introspection.lock().unwrap().insert(
        "opaque-active".to_owned(),
        json!({
            "active": true, "sub": "svc-7", "client_id": "batch", "scope": "files:read",
            "aud": [resource, "http://other"], "exp": issuer::now() + 600,
        }),
    );
    // A client acting for itself: no `sub`, and never taken for a subject of its name.
    issuer.published.introspection.lock().unwrap().insert(
        "opaque-machine".to_owned(),
        json!({
            "active": true, "client_id": "batch", "scope": "files:read",
            "aud": resource, "exp": issuer::now() + 600,
        }),
    );
    let verifier = IntrospectionVerifier::new(format!("{}/introspect", issuer.url()))
        .client_credentials("mcp-server", "s3cret")
        .audience(&resource);
    let server = Server::from_registry("auth-test", "1")
        .stateless(true)
        .authorization(verifier)
        .authorization_servers([issuer.url()])
        .build()
        .unwrap();
    let server = Running::start_at(server, address).await;
    let url = server.url();
    for _ in 0..2 {
        let reply = call(&url, Some("opaque-active"), "whoami", json!({})).await;
        assert_eq!(reply.status, 200, "{}", reply.body);
        let text = &reply.json()["result"]["content"][0]["text"];
        assert_eq!(text, "svc-7 via batch with [files:read]");
    }
    let reply = call(&url, Some("opaque-revoked"), "whoami", json!({})).await;
    assert_eq!(reply.status, 401, "{}", reply.body);
    let reply = call(&url, Some("opaque-machine"), "whoami", json!({})).await;
    let text = &reply.json()["result"]["content"][0]["text"];
    assert_eq!(text, "- via batch with [files:read]");
    let introspected = issuer.published.introspected.lock().unwrap().clone();
    // The active token was asked about once: its answer was kept for the second call.
    assert_eq!(introspected.len(), 3, "{introspected:?}");
    assert!(introspected[0].0.contains("token=opaque-active"));
    let basic = introspected[0].1.as_deref().unwrap();
    assert_eq!(basic, "Basic bWNwLXNlcnZlcjpzM2NyZXQ=");
    server.stop().await;
}

#[tokio::test]
async fn a_session_is_bound_to_the_caller_that_opened_it() {
    let setup = setup(|server| server.stateless(false)).await;
    let initialize = json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": { "name": "raw", "version": "1" }
        }
    });
    let owner = setup.token("files:read");
    let request = http::Request::post(setup.server.url())
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("authorization", format!("Bearer {owner}"))
        .body(http_body_util::Full::new(bytes::Bytes::from(
            initialize.to_string(),
        )))
        .unwrap();
    let client = hyper_util::client::legacy::Client::builder(hyper_util::rt::TokioExecutor::new())
        .build_http();
    let response = client.request(request).await.unwrap();
    assert_eq!(response.status(), 200);
    let session = response.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    drop(response);
    let mut other = issuer::claims(&setup.issuer.url(), &setup.resource, "files:read");
    other["sub"] = json!("user-7");
    let other = issuer::sign(&other, "a", KEY_A);
    let initialized = json!({ "jsonrpc": "2.0", "method": "notifications/initialized" });
    for (token, status) in [(&other, 404), (&owner, 202)] {
        let request = http::Request::post(setup.server.url())
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-session-id", &session)
            .header("mcp-protocol-version", "2025-11-25")
            .header("authorization", format!("Bearer {token}"))
            .body(http_body_util::Full::new(bytes::Bytes::from(
                initialized.to_string(),
            )))
            .unwrap();
        let response = client.request(request).await.unwrap();
        assert_eq!(response.status(), status);
    }
    setup.server.stop().await;
}

#[tokio::test]
async fn keys_are_fetched_over_https_from_an_issuer_the_roots_given_vouch_for() {
    let issuer = Issuer::start_tls(&[("a", KEY_A)]).await;
    assert!(issuer.url().starts_with("https://127.0.0.1:"));
    let trusting = |verifier: JwtVerifier| verifier.root_certificates(CA).unwrap();
    let setup = setup_verifying(issuer, |server| server, trusting).await;
    let reply = call(
        &setup.server.url(),
        Some(&setup.token("files:read")),
        "whoami",
        json!({}),
    )
    .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(setup.issuer.jwks_fetches(), 1);
    setup.server.stop().await;
}

#[tokio::test]
async fn an_https_issuer_no_root_vouches_for_is_not_trusted() {
    let log = Captured::default();
    let _guard = log.install("mcp_tool=debug");
    let issuer = Issuer::start_tls(&[("a", KEY_A)]).await;
    let setup = setup_verifying(issuer, |server| server, |verifier| verifier).await;
    let reply = call(
        &setup.server.url(),
        Some(&setup.token("files:read")),
        "whoami",
        json!({}),
    )
    .await;
    assert_eq!(reply.status, 401, "{}", reply.body);
    // The keys were never served: the handshake failed on the certificate.
    assert_eq!(setup.issuer.jwks_fetches(), 0);
    let text = log.text();
    assert!(
        text.contains("could not be reached") && text.contains("certificate"),
        "{text}"
    );
    assert!(!reply.body.contains("certificate"), "{}", reply.body);
    setup.server.stop().await;
}

#[tokio::test]
async fn an_issuer_on_another_machine_over_plain_http_is_refused_before_any_request() {
    let log = Captured::default();
    let _guard = log.install("mcp_tool=debug");
    let setup = setup(|server| server).await;
    // An address reserved for documentation (RFC 5737): never contacted.
    let remote = "http://192.0.2.1:9000";
    let verifier = JwtVerifier::issuer(remote).audience(&setup.resource);
    let server = Server::from_registry("auth-test", "1")
        .stateless(true)
        .authorization(verifier)
        .build()
        .unwrap();
    let running = Running::start(server).await;
    let reply = call(
        &running.url(),
        Some(&setup.token("files:read")),
        "whoami",
        json!({}),
    )
    .await;
    assert_eq!(reply.status, 401, "{}", reply.body);
    let text = log.text();
    assert!(
        text.contains("http://192.0.2.1:9000/.well-known/oauth-authorization-server is plain http to another machine"),
        "{text}"
    );
    running.stop().await;
    setup.server.stop().await;
}

#[tokio::test(flavor = "current_thread")]
async fn an_authorized_stateless_call_takes_the_direct_path_and_keeps_its_scope_check() {
    let log = Captured::default();
    let _guard = log.install("mcp_tool=trace");
    let setup = setup(|server| server).await;
    let url = setup.server.url();
    let token = setup.token("files:read");
    let read = call(&url, Some(&token), "read_file", json!({"name": "a.txt"})).await;
    assert_eq!(read.status, 200, "{}", read.body);
    assert_eq!(
        read.json()["result"]["content"][0]["text"],
        "contents of a.txt"
    );
    assert!(
        log.text().contains("a tools/call answered directly"),
        "an authorized call is answered without rmcp's service: {}",
        log.text()
    );
    // The scope check stays before it: a token without `files:write` is refused.
    let refused = call(&url, Some(&token), "delete_file", json!({"name": "a.txt"})).await;
    assert_eq!(refused.status, 403, "{}", refused.body);
    // A tool that reads its caller is left to rmcp's service, which gives it its caller.
    let whoami = call(&url, Some(&token), "whoami", json!({})).await.json();
    let text = whoami["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("user-42 via test-client"), "{text}");
}
