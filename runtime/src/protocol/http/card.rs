//! The server card of SEP-2127 ("MCP Server Cards", a draft of the MCP extensions track,
//! <https://github.com/modelcontextprotocol/modelcontextprotocol/pull/2127>): a JSON
//! document that tells a client, before it connects, who the server is and how to reach
//! it, served at `<endpoint>/server-card` (the location the SEP reserves) with the media
//! type `application/mcp-server-card+json`.
//!
//! The SEP's card lists no tools, prompts or resources (those stay with the protocol's
//! list requests, where a caller's scopes decide what it sees), so a card never reveals an
//! item a caller could not list. It is made once, from the server's name, version and
//! protocol versions; only the endpoint's URL, when none is set, is taken from each
//! request's (checked) `Host`.

use bytes::Bytes;
use http::request::Parts;
use http::{HeaderValue, Method, Response, StatusCode, header};
use http_body_util::{BodyExt as _, Full};
use rmcp::model::ProtocolVersion;
use sha2::{Digest as _, Sha256};

use super::Boxed;
use super::allowed::AllowedHosts;
use crate::server::tool_server::ToolServer;

/// The media type of a server card.
pub(super) const MEDIA_TYPE: &str = "application/mcp-server-card+json";
/// The schema a card names in its `$schema`.
const SCHEMA: &str = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json";
/// Appended to the endpoint's path: where the card is served.
pub(super) const SUFFIX: &str = "/server-card";

/// The card an endpoint serves: made once, its body and entity tag too when its URL is
/// known.
pub(super) struct Card {
    document: serde_json::Value,
    /// The body and tag, when the URL is fixed.
    fixed: Option<(Bytes, HeaderValue)>,
    /// The `Host` values answered: the endpoint's.
    hosts: AllowedHosts,
}

impl Card {
    /// The card of `server`, if it was given one.
    pub(super) fn new(server: &ToolServer) -> Option<Self> {
        let options = server.http_options();
        let card = options.card.as_ref()?;
        let about = server.about();
        let authorized = options.authorization.as_ref();
        let url = (card.url.clone())
            .or_else(|| authorized.and_then(|auth| auth.resource().map(str::to_owned)));
        let mut remote = serde_json::json!({
            "type": "streamable-http",
            "supportedProtocolVersions": ProtocolVersion::KNOWN_VERSIONS
                .iter()
                .map(ProtocolVersion::as_str)
                .collect::<Vec<_>>(),
        });
        if authorized.is_some() {
            // Only that a token is needed: where to get one is in the protected resource
            // metadata a `401` points to.
            remote["headers"] = serde_json::json!([{
                "name": "Authorization",
                "description": "`Bearer <access token>`; a request without one is answered \
                                `401` with the resource metadata's location",
                "isRequired": true,
                "isSecret": true,
            }]);
        }
        let mut document = serde_json::json!({
            "$schema": SCHEMA,
            "name": card.name,
            "version": about.version,
            "description": card.description,
            "remotes": [remote],
        });
        if (1..=100).contains(&about.name.chars().count()) {
            document["title"] = about.name.clone().into();
        }
        if let Some(website) = &card.website {
            document["websiteUrl"] = website.clone().into();
        }
        let mut made = Self {
            document,
            fixed: None,
            hosts: AllowedHosts::new(&options.allowed_hosts),
        };
        made.fixed = url.map(|url| made.render(url));
        Some(made)
    }

    /// Whether a request to `uri` asks for the card.
    pub(super) fn asked(uri: &http::Uri) -> bool {
        uri.path().ends_with(SUFFIX)
    }

    /// The answer to a request for the card: the card (or `304` when the client's copy is
    /// current) to GET and HEAD, the CORS preflight's answer to OPTIONS, else `405`.
    pub(super) fn answer(&self, parts: &Parts) -> Response<Boxed> {
        let mut response = Response::new(Full::new(Bytes::new()).boxed());
        if !self.hosts.admit(&parts.headers) {
            // As the endpoint answers: the card never names a host it does not serve.
            *response.status_mut() = StatusCode::FORBIDDEN;
            return response;
        }
        let headers = response.headers_mut();
        headers.insert(
            header::ACCESS_CONTROL_ALLOW_ORIGIN,
            HeaderValue::from_static("*"),
        );
        headers.insert(
            header::ACCESS_CONTROL_ALLOW_METHODS,
            HeaderValue::from_static("GET, HEAD"),
        );
        headers.insert(
            header::ACCESS_CONTROL_ALLOW_HEADERS,
            HeaderValue::from_static("Content-Type, If-None-Match"),
        );
        headers.insert(
            header::ACCESS_CONTROL_EXPOSE_HEADERS,
            HeaderValue::from_static("ETag"),
        );
        if parts.method == Method::OPTIONS {
            *response.status_mut() = StatusCode::NO_CONTENT;
            return response;
        }
        if parts.method != Method::GET && parts.method != Method::HEAD {
            headers.insert(
                header::ALLOW,
                HeaderValue::from_static("GET, HEAD, OPTIONS"),
            );
            *response.status_mut() = StatusCode::METHOD_NOT_ALLOWED;
            return response;
        }
        let (body, tag) = match &self.fixed {
            Some(fixed) => fixed.clone(),
            None => self.render(endpoint_of(parts)),
        };
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(MEDIA_TYPE));
        headers.insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static("public, max-age=3600"),
        );
        let current = (parts.headers.get_all(header::IF_NONE_MATCH).iter())
            .filter_map(|value| value.to_str().ok())
            .flat_map(|value| value.split(','))
            .any(|given| given.trim() == "*" || given.trim().as_bytes() == tag.as_bytes());
        headers.insert(header::ETAG, tag);
        if current {
            *response.status_mut() = StatusCode::NOT_MODIFIED;
        } else if parts.method == Method::GET {
            *response.body_mut() = Full::new(body).boxed();
        } else {
            headers.insert(header::CONTENT_LENGTH, HeaderValue::from(body.len()));
        }
        response
    }

    /// The card's body with `url` as its endpoint, and its strong entity tag.
    fn render(&self, url: String) -> (Bytes, HeaderValue) {
        let mut document = self.document.clone();
        document["remotes"][0]["url"] = url.into();
        let body = Bytes::from(document.to_string());
        let digest = Sha256::digest(&body);
        let hex: String = digest[..16]
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .collect();
        // Hex digits between quotes always make a valid header value.
        let tag = HeaderValue::from_str(&format!("\"{hex}\""))
            .unwrap_or_else(|_| HeaderValue::from_static("\"card\""));
        (body, tag)
    }
}

/// The endpoint's URL as the request reached it: its `Host`, which the allowed hosts
/// admitted, and its path without the card's suffix.
fn endpoint_of(parts: &Parts) -> String {
    let host = (parts.headers.get(header::HOST))
        .and_then(|host| host.to_str().ok())
        .unwrap_or("localhost");
    let path = parts.uri.path();
    let path = path.strip_suffix(SUFFIX).unwrap_or(path);
    let path = if path.is_empty() { "/mcp" } else { path };
    format!("http://{host}{path}")
}
