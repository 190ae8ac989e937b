//! The server card of SEP-2127 over HTTP: served at `/mcp/server-card` with the SEP's
//! media type, caching and CORS headers when the builder is given one, `404` otherwise;
//! every card holding the SEP's rules; the same bytes on every request, agreeing with
//! what a connected client is told; and never naming a tool, so never a scoped one.

#![cfg(feature = "http")]

mod common;

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use mcp_tool::{Server, ServerCard, ServerError, mcp_tool};
use serde_json::{Value, json};

use common::http::Running;

/// Adds two integers and returns their sum.
#[mcp_tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Deletes every record of the archive.
#[mcp_tool(scopes = ["archive:admin"])]
fn purge_archive() -> String {
    "purged".to_owned()
}

const MEDIA_TYPE: &str = "application/mcp-server-card+json";

/// The rules SEP-2127's card schema (its `schema.ts`, the `v1` family) sets on a card,
/// in our own words: the members it may have, which it must have, and what each holds.
fn assert_follows_sep_2127(card: &Value) {
    let card = card.as_object().expect("a card is a JSON object");
    let known = [
        "$schema",
        "name",
        "version",
        "description",
        "title",
        "websiteUrl",
        "repository",
        "icons",
        "remotes",
        "_meta",
    ];
    for key in card.keys() {
        assert!(
            known.contains(&key.as_str()),
            "the SEP's card has no `{key}`"
        );
    }
    for required in ["$schema", "name", "version", "description"] {
        assert!(card.contains_key(required), "a card must have `{required}`");
    }
    assert_eq!(
        card["$schema"],
        "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json"
    );
    let name = card["name"].as_str().expect("name is a string");
    assert!((3..=200).contains(&name.chars().count()), "{name}");
    let (namespace, server) = name.split_once('/').expect("name has a `/`");
    assert!(!namespace.is_empty() && !server.is_empty(), "{name}");
    assert!(
        (namespace.chars()).all(|c| c.is_ascii_alphanumeric() || ".-".contains(c)),
        "{name}"
    );
    assert!(
        (server.chars()).all(|c| c.is_ascii_alphanumeric() || "._-".contains(c)),
        "{name}"
    );
    let version = card["version"].as_str().expect("version is a string");
    assert!(version.chars().count() <= 255);
    assert!(
        !version.starts_with(['^', '~', '>', '<', '='])
            && !version.split('.').any(|part| part == "x" || part == "*"),
        "a version, not a range: {version}"
    );
    for short in ["description", "title"] {
        if let Some(text) = card.get(short) {
            let text = text.as_str().expect("a string");
            assert!((1..=100).contains(&text.chars().count()), "{short}: {text}");
        }
    }
    if let Some(website) = card.get("websiteUrl") {
        assert!(is_http_url(website.as_str().expect("a string")));
    }
    let Some(remotes) = card.get("remotes") else {
        return;
    };
    for remote in remotes.as_array().expect("remotes is an array") {
        let remote = remote.as_object().expect("a remote is an object");
        let fields = [
            "type",
            "url",
            "headers",
            "variables",
            "supportedProtocolVersions",
        ];
        for key in remote.keys() {
            assert!(fields.contains(&key.as_str()), "a remote has no `{key}`");
        }
        assert!(
            ["streamable-http", "sse"].contains(&remote["type"].as_str().unwrap()),
            "{remote:?}"
        );
        let url = remote["url"].as_str().expect("a remote has a url");
        assert!(is_http_url(url) || url.starts_with('{'), "{url}");
        if let Some(versions) = remote.get("supportedProtocolVersions") {
            for version in versions.as_array().expect("an array") {
                assert!(version.is_string(), "{version}");
            }
        }
        for header in (remote.get("headers").and_then(Value::as_array)).unwrap_or(&vec![]) {
            assert!(header["name"].is_string(), "a header has a name: {header}");
            for flag in ["isRequired", "isSecret"] {
                assert!(header.get(flag).is_none_or(Value::is_boolean), "{header}");
            }
        }
    }
}

fn is_http_url(url: &str) -> bool {
    let rest = (url.strip_prefix("https://")).or_else(|| url.strip_prefix("http://"));
    rest.is_some_and(|rest| !rest.is_empty() && !rest.contains(char::is_whitespace))
}

/// What one request got: status, headers and body.
struct Got {
    status: u16,
    headers: http::HeaderMap,
    body: Bytes,
}

async fn request(method: http::Method, url: &str, headers: &[(&str, &str)]) -> Got {
    let mut request = http::Request::builder().method(method).uri(url);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let request = request.body(Full::new(Bytes::new())).unwrap();
    let client = Client::builder(TokioExecutor::new()).build_http::<Full<Bytes>>();
    let response = client.request(request).await.expect("the server answers");
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    Got {
        status,
        headers,
        body,
    }
}

async fn get_card(url: &str) -> Got {
    let accept = [("accept", MEDIA_TYPE)];
    request(http::Method::GET, &format!("{url}/server-card"), &accept).await
}

/// A JSON-RPC request of a client on 2025-11-25, without a token: the message answered.
async fn rpc(url: &str, method: &str, params: Value) -> Value {
    let body = json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params });
    let response = common::http::send(http::Method::POST, url, &[], body.to_string()).await;
    assert_eq!(response.status(), 200);
    let body = response.into_body().collect().await.unwrap().to_bytes();
    serde_json::from_slice(&body).unwrap()
}

fn card() -> ServerCard {
    ServerCard::new(
        "io.github.example/arithmetic",
        "Adds numbers for the model.",
    )
}

#[tokio::test]
async fn the_card_is_served_with_the_seps_media_type_caching_and_cors() {
    let server = (Server::from_registry("arithmetic", "1.4.0").only(["add"]))
        .server_card(card().website("https://example.com/arithmetic"))
        .build()
        .unwrap();
    let running = Running::start(server).await;
    let url = running.url();
    let got = get_card(&url).await;
    assert_eq!(got.status, 200, "{:?}", got.body);
    assert_eq!(got.headers["content-type"], MEDIA_TYPE);
    assert_eq!(got.headers["cache-control"], "public, max-age=3600");
    assert_eq!(got.headers["access-control-allow-origin"], "*");
    assert!(
        (got.headers["access-control-allow-methods"]
            .to_str()
            .unwrap())
        .contains("GET"),
        "{:?}",
        got.headers
    );
    let card: Value = serde_json::from_slice(&got.body).unwrap();
    assert_follows_sep_2127(&card);
    assert_eq!(card["name"], "io.github.example/arithmetic");
    assert_eq!(card["description"], "Adds numbers for the model.");
    assert_eq!(card["title"], "arithmetic");
    assert_eq!(card["version"], "1.4.0");
    assert_eq!(card["websiteUrl"], "https://example.com/arithmetic");
    let remote = &card["remotes"][0];
    assert_eq!(remote["type"], "streamable-http");
    assert_eq!(remote["url"], url.as_str());
    assert!(
        remote.get("headers").is_none(),
        "no token is needed: {remote}"
    );

    // A copy that is current is not sent again; HEAD has the headers and no body.
    let tag = got.headers["etag"].to_str().unwrap().to_owned();
    let again = [("if-none-match", tag.as_str())];
    let unchanged = request(http::Method::GET, &format!("{url}/server-card"), &again).await;
    assert_eq!(unchanged.status, 304);
    assert!(unchanged.body.is_empty());
    let head = request(http::Method::HEAD, &format!("{url}/server-card"), &[]).await;
    assert_eq!(head.status, 200);
    assert!(head.body.is_empty());
    assert_eq!(head.headers["content-type"], MEDIA_TYPE);
    assert_eq!(head.headers["etag"], tag.as_str());
    let preflight = request(http::Method::OPTIONS, &format!("{url}/server-card"), &[]).await;
    assert_eq!(preflight.status, 204);
    assert_eq!(preflight.headers["access-control-allow-origin"], "*");
    let posted = request(http::Method::POST, &format!("{url}/server-card"), &[]).await;
    assert_eq!(posted.status, 405);
    running.stop().await;
}

#[tokio::test]
async fn without_the_option_there_is_no_card() {
    let server = Server::from_registry("arithmetic", "1.4.0")
        .only(["add"])
        .build()
        .unwrap();
    let running = Running::start(server).await;
    let got = get_card(&running.url()).await;
    assert_eq!(got.status, 404);
    assert!(
        !String::from_utf8_lossy(&got.body).contains("arithmetic"),
        "{:?}",
        got.body
    );
    running.stop().await;
}

#[tokio::test]
async fn the_card_is_the_same_on_every_request_and_agrees_with_a_connected_client() {
    let server = Server::from_registry("arithmetic", "1.4.0")
        .stateless(true)
        .server_card(card())
        .build()
        .unwrap();
    let running = Running::start(server).await;
    let url = running.url();
    let first = get_card(&url).await;
    for _ in 0..3 {
        let again = get_card(&url).await;
        assert_eq!(again.body, first.body);
        assert_eq!(again.headers["etag"], first.headers["etag"]);
    }
    let card: Value = serde_json::from_slice(&first.body).unwrap();
    assert_follows_sep_2127(&card);

    let initialize = json!({
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": { "name": "card-test", "version": "1" },
    });
    let answer = rpc(&url, "initialize", initialize).await;
    let result = &answer["result"];
    assert_eq!(result["serverInfo"]["name"], card["title"]);
    assert_eq!(result["serverInfo"]["version"], card["version"]);
    let versions = card["remotes"][0]["supportedProtocolVersions"]
        .as_array()
        .unwrap();
    assert!(
        versions.contains(&result["protocolVersion"]),
        "{versions:?}"
    );
    assert!(versions.contains(&json!("2026-07-28")), "{versions:?}");

    // The SEP's card lists no primitive: the tools a client without a token lists are
    // all its own to find, none named in the card.
    let listed = rpc(&url, "tools/list", json!({})).await;
    let tools = listed["result"]["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 2, "{listed}");
    let text = String::from_utf8_lossy(&first.body);
    for tool in tools {
        let name = tool["name"].as_str().unwrap();
        assert!(!text.contains(name), "the card names {name}: {text}");
    }
    running.stop().await;
}

#[tokio::test]
async fn a_foreign_host_gets_no_card() {
    let server = (Server::from_registry("arithmetic", "1.4.0").only(["add"]))
        .server_card(card())
        .build()
        .unwrap();
    let running = Running::start(server).await;
    let url = format!("{}/server-card", running.url());
    let got = request(http::Method::GET, &url, &[("host", "attacker.example")]).await;
    assert_eq!(got.status, 403);
    assert!(got.body.is_empty());
    running.stop().await;
}

#[tokio::test]
async fn a_set_url_is_the_cards_endpoint() {
    let server = (Server::from_registry("arithmetic", "1.4.0").only(["add"]))
        .server_card(card().url("https://mcp.example.com/mcp"))
        .build()
        .unwrap();
    let running = Running::start(server).await;
    let card: Value = serde_json::from_slice(&get_card(&running.url()).await.body).unwrap();
    assert_eq!(card["remotes"][0]["url"], "https://mcp.example.com/mcp");
    running.stop().await;
}

#[test]
fn a_card_that_breaks_the_seps_rules_is_refused_at_build() {
    let refused = |card: ServerCard, version: &str| {
        let built = Server::from_registry("arithmetic", version)
            .only(["add"])
            .server_card(card)
            .build();
        match built {
            Err(ServerError::ServerCard { reason }) => reason,
            other => panic!("expected a refused card, got {other:?}"),
        }
    };
    let reason = refused(ServerCard::new("arithmetic", "Adds."), "1.0.0");
    assert!(reason.contains("reverse-DNS"), "{reason}");
    let reason = refused(ServerCard::new("a/b/c", "Adds."), "1.0.0");
    assert!(reason.contains("`a/b/c`"), "{reason}");
    let reason = refused(ServerCard::new("com.example/a", ""), "1.0.0");
    assert!(reason.contains("0 characters"), "{reason}");
    let long = "x".repeat(101);
    let reason = refused(ServerCard::new("com.example/a", long), "1.0.0");
    assert!(reason.contains("101 characters"), "{reason}");
    let reason = refused(
        ServerCard::new("com.example/a", "Adds.").url("mcp.example.com"),
        "1",
    );
    assert!(reason.contains("http://"), "{reason}");
    let reason = refused(ServerCard::new("com.example/a", "Adds."), "^1.2");
    assert!(reason.contains("no range"), "{reason}");
}

#[cfg(feature = "auth")]
mod authorized {
    use super::*;
    use common::authorized::{list_tools, send, setup};

    #[tokio::test]
    async fn the_card_needs_no_token_says_one_is_needed_and_names_no_scoped_tool() {
        let setup = setup(|server| server.server_card(super::card())).await;
        let url = setup.server.url();
        let got = get_card(&url).await;
        assert_eq!(got.status, 200, "{:?}", got.body);
        let card: Value = serde_json::from_slice(&got.body).unwrap();
        assert_follows_sep_2127(&card);
        let remote = &card["remotes"][0];
        // The resource URI the verifier names is the endpoint.
        assert_eq!(remote["url"], setup.resource.as_str());
        assert_eq!(remote["headers"][0]["name"], "Authorization");
        assert_eq!(remote["headers"][0]["isSecret"], true);
        assert_eq!(remote["headers"][0]["isRequired"], true);

        // A client without a token is refused the list; one without the scope is not
        // shown the scoped tool; the card, public, names neither tool.
        let body = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list" });
        let unauthenticated = send(http::Method::POST, &url, None, Some(body)).await;
        assert_eq!(unauthenticated.status, 401);
        let listed = list_tools(&url, &setup.token("")).await;
        assert!(!listed.contains(&"purge_archive".to_owned()), "{listed:?}");
        let text = String::from_utf8_lossy(&got.body);
        assert!(!text.contains("purge_archive"), "{text}");
        assert!(!text.contains("archive:admin"), "{text}");
        assert!(!text.contains("add\""), "{text}");
        setup.server.stop().await;
    }
}
