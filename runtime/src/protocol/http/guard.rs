//! The endpoint as an OAuth 2.1 resource server: each request's bearer token checked
//! before `rmcp` sees the request, each call's scopes checked against what it calls, and
//! the protected resource metadata (RFC 9728) served.
//!
//! A request without a valid token gets `401` with `WWW-Authenticate: Bearer
//! resource_metadata="..."`; a call without the scopes of its tool, prompt or resource,
//! `403` with `error="insufficient_scope"`. The scopes are checked here, on the body
//! already read, and not in the handler: once `rmcp` runs a request, its answer may be an
//! event stream whose status is sent, where `403` can no longer be said.

use std::sync::Arc;
use std::time::Instant;

use bytes::Bytes;
use http::request::Parts;
use http::{HeaderValue, Response, StatusCode, header};
use http_body_util::{BodyExt as _, Full};
use rmcp::model::{ClientJsonRpcMessage, ClientRequest, JsonRpcMessage, Reference};

use super::allowed::{AllowedHosts, origin_allowed};
use super::{Boxed, rpc_error};
use crate::model::Auth;
use crate::protocol::peer_session::SESSION_ID_HEADER;
use crate::protocol::wire::{self, Inbound};
use crate::server::authorization::Authorization;
use crate::server::pipeline::{Asked, Ended, Transport};
use crate::server::scopes::{Target, permits};
use crate::server::settings::HttpOptions;
use crate::server::tool_server::ToolServer;

/// Where the protected resource metadata is served, alone or followed by the endpoint's path.
pub(super) const METADATA_PATH: &str = "/.well-known/oauth-protected-resource";

/// The checks of an endpoint whose server has [`Authorization`].
#[derive(Clone)]
pub(super) struct Guard {
    authorization: Authorization,
    server: ToolServer,
    allowed_hosts: AllowedHosts,
    allowed_origins: Option<Vec<String>>,
}

/// Why a request's token was not accepted.
enum Missing {
    /// No `Authorization` header.
    Token,
    /// A header that holds no bearer token, or a token the verifier refused.
    Valid,
}

impl Guard {
    pub(super) fn new(server: &ToolServer, options: &HttpOptions) -> Option<Self> {
        Some(Self {
            authorization: options.authorization.clone()?,
            server: server.clone(),
            allowed_hosts: AllowedHosts::new(&options.allowed_hosts),
            allowed_origins: options.allowed_origins.clone(),
        })
    }

    /// Whether a request asks for the metadata, which needs no token.
    pub(super) fn is_metadata(parts: &Parts) -> bool {
        let path = parts.uri.path();
        (path.strip_prefix(METADATA_PATH))
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    }

    /// The protected resource metadata, as JSON.
    pub(super) fn metadata(&self, parts: &Parts) -> Response<Boxed> {
        let document = serde_json::json!({
            "resource": self.resource(parts),
            "authorization_servers": self.authorization.servers(),
            "scopes_supported": self.server.scopes_supported(),
            "bearer_methods_supported": ["header"],
        });
        let mut response = Response::new(Full::new(Bytes::from(document.to_string())).boxed());
        response.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        response
    }

    /// The caller the request's bearer token speaks for, or the response that refuses it.
    pub(super) async fn authenticate(&self, parts: &Parts) -> Result<Arc<Auth>, Response<Boxed>> {
        let began = Instant::now();
        if has_query_token(parts) {
            tracing::info!("refused a request with an access token in its URL");
            let message = "Invalid request: an access token is never read from the URL; send it \
                           in the Authorization header as `Bearer <token>`";
            return Err(rpc_error(
                StatusCode::BAD_REQUEST,
                wire::invalid_request(message.to_owned()),
            ));
        }
        let verifier = &self.authorization.verifier;
        let token = bearer(parts);
        // A token accepted a moment ago (a client's every call after its first) is
        // answered before its hundreds of bytes are read again.
        if let Ok(token) = token
            && let Some(auth) = verifier.kept(token)
        {
            return Ok(Arc::new(auth));
        }
        let missing = match token.and_then(b64token) {
            Ok(token) => match verifier.verify(token).await {
                Ok(auth) => return Ok(Arc::new(auth)),
                Err(refused) => {
                    tracing::info!(why = refused.reason(), "refused an access token");
                    Missing::Valid
                }
            },
            Err(missing) => missing,
        };
        let (header, target) = (
            mcp_header(parts, "mcp-method"),
            mcp_header(parts, "mcp-name"),
        );
        let method = header.unwrap_or_else(|| parts.method.as_str());
        if let Some(refusal) = self.refused_origin_or_host(parts) {
            self.audit(parts, (method, target), None, &refusal, began);
            return Err(refusal);
        }
        let refusal = self.unauthorized(parts, missing);
        self.audit(parts, (method, target), None, &refusal, began);
        Err(refusal)
    }

    /// Reads `body` once, with the decoder dispatch uses, and checks every item it touches
    /// against the scopes `auth` grants: the message as checked, or the refusal. A body the decoder cannot read is
    /// refused with its JSON-RPC error, never passed on unchecked.
    pub(super) fn authorize(
        &self,
        auth: &Auth,
        body: &[u8],
        parts: &Parts,
    ) -> Result<Checked, Box<Response<Boxed>>> {
        let began = Instant::now();
        let message = match wire::decode(body) {
            Inbound::Message(message) => message,
            // A notification this server does not know: nothing reads it.
            Inbound::Ignored => return Ok(Checked::Ignored),
            Inbound::Rejected(reply) => {
                tracing::info!("refused a body that does not read as an MCP message");
                return Err(Box::new(rpc_error(StatusCode::BAD_REQUEST, reply)));
            }
        };
        for target in targets(&message) {
            let needed = self.server.scopes_needed(target);
            if !permits(Some(auth), &needed) {
                tracing::info!(
                    principal = %auth.principal(),
                    needed = needed.join(" "),
                    "refused a request whose token lacks a scope it needs"
                );
                let refusal = self.forbidden(parts, &needed);
                let asked = (method_of(&message), Some(target.name()));
                self.audit(parts, asked, Some(auth), &refusal, began);
                return Err(Box::new(refusal));
            }
        }
        Ok(Checked::Message(message))
    }

    /// The server's resource URI: set, the verifier's audience, or the URL the request
    /// came to.
    fn resource(&self, parts: &Parts) -> String {
        if let Some(resource) = self.authorization.resource() {
            return resource.to_owned();
        }
        let host = (parts.headers.get(header::HOST))
            .and_then(|host| host.to_str().ok())
            .unwrap_or("localhost");
        let path = parts.uri.path();
        let path = path.strip_prefix(METADATA_PATH).unwrap_or(path);
        let path = if path.is_empty() { "/mcp" } else { path };
        format!("http://{host}{path}")
    }

    /// Where the metadata of the resource is: the well-known path inserted between the
    /// resource URI's origin and its path (RFC 9728 §3.1).
    fn metadata_url(&self, parts: &Parts) -> String {
        let resource = self.resource(parts);
        let start = resource.find("://").map_or(0, |at| at + 3);
        let (origin, path) = match resource[start..].find('/') {
            Some(slash) => resource.split_at(start + slash),
            None => (resource.as_str(), ""),
        };
        let path = path.trim_end_matches('/');
        format!("{origin}{METADATA_PATH}{path}")
    }

    fn unauthorized(&self, parts: &Parts, missing: Missing) -> Response<Boxed> {
        let mut challenge = format!("Bearer resource_metadata=\"{}\"", self.metadata_url(parts));
        if matches!(missing, Missing::Valid) {
            challenge.push_str(", error=\"invalid_token\"");
        }
        let scopes = self.server.scopes_supported();
        if !scopes.is_empty() {
            challenge.push_str(&format!(", scope=\"{}\"", scopes.join(" ")));
        }
        let message = match missing {
            Missing::Token => {
                "Unauthorized: this server needs an access token, sent as \
                               `Authorization: Bearer <token>`; its metadata says where to get one"
            }
            Missing::Valid => "Unauthorized: the access token is not valid for this server",
        };
        challenged(StatusCode::UNAUTHORIZED, message, challenge)
    }

    fn forbidden(&self, parts: &Parts, needed: &[String]) -> Response<Boxed> {
        let needed = needed.join(" ");
        let challenge = format!(
            "Bearer error=\"insufficient_scope\", scope=\"{needed}\", resource_metadata=\"{}\"",
            self.metadata_url(parts)
        );
        let message =
            format!("Forbidden: this call needs an access token with the scopes {needed}");
        challenged(StatusCode::FORBIDDEN, &message, challenge)
    }

    /// The audit record of a request refused with `refusal`, on a server with the
    /// [`AuditLayer`](crate::middleware::AuditLayer): `asked` is its method and its target.
    fn audit(
        &self,
        parts: &Parts,
        asked: (&str, Option<&str>),
        caller: Option<&Auth>,
        refusal: &Response<Boxed>,
        began: Instant,
    ) {
        if !self.server.shared.layers.audited() {
            return;
        }
        let outcome = match refusal.status() {
            StatusCode::UNAUTHORIZED => "unauthorized",
            StatusCode::FORBIDDEN => "forbidden",
            _ => "error",
        };
        let session = mcp_header(parts, SESSION_ID_HEADER);
        let (method, target) = asked;
        Asked::refused(method, target, caller, session, Transport::Http).record(&Ended {
            outcome,
            code: Some(i32::from(refusal.status().as_u16())),
            duration_ms: began.elapsed().as_secs_f64() * 1000.0,
        });
    }

    /// `403` for a request whose `Host` or `Origin` the server does not serve, as `rmcp`
    /// answers it: these checks come before the token's.
    fn refused_origin_or_host(&self, parts: &Parts) -> Option<Response<Boxed>> {
        let host_ok = self.allowed_hosts.admit(&parts.headers);
        let origin_ok = origin_allowed(&parts.headers, self.allowed_origins.as_deref());
        if host_ok && origin_ok {
            return None;
        }
        let what = if host_ok { "Origin" } else { "Host" };
        let message = format!("Forbidden: the server does not serve requests of this {what}");
        Some(rpc_error(
            StatusCode::FORBIDDEN,
            wire::invalid_request(message),
        ))
    }
}

fn challenged(status: StatusCode, message: &str, challenge: String) -> Response<Boxed> {
    let mut response = rpc_error(status, wire::unauthorized(message.to_owned()));
    if let Ok(value) = HeaderValue::from_str(&challenge) {
        response
            .headers_mut()
            .insert(header::WWW_AUTHENTICATE, value);
    }
    response
}

/// The value of the header `name` (one of MCP's), when it is there and readable.
fn mcp_header<'a>(parts: &'a Parts, name: &str) -> Option<&'a str> {
    parts
        .headers
        .get(name)
        .and_then(|value| value.to_str().ok())
}

/// The method of `message`, a request (only a request names what needs a scope).
fn method_of(message: &ClientJsonRpcMessage) -> &str {
    match message {
        JsonRpcMessage::Request(request) => request.request.method(),
        _ => "-",
    }
}

/// The bearer token of the request's one `Authorization` header, as bytes: not read yet.
fn bearer(parts: &Parts) -> Result<&[u8], Missing> {
    let mut values = parts.headers.get_all(header::AUTHORIZATION).iter();
    let value = values.next().ok_or(Missing::Token)?;
    if values.next().is_some() {
        return Err(Missing::Valid);
    }
    let value = value.as_bytes();
    let space = (value.iter())
        .position(|&b| b == b' ')
        .ok_or(Missing::Valid)?;
    let (scheme, token) = (&value[..space], value[space + 1..].trim_ascii());
    if !scheme.eq_ignore_ascii_case(b"bearer") || token.is_empty() {
        return Err(Missing::Valid);
    }
    Ok(token)
}

/// `token` as RFC 6750's `b64token`, the only form a verifier is given.
fn b64token(token: &[u8]) -> Result<&str, Missing> {
    // A table and no early exit: a byte a cycle, where a test per byte cost a dozen.
    let token68 = token
        .iter()
        .fold(true, |all, &b| all & TOKEN68[usize::from(b)]);
    if !token68 {
        return Err(Missing::Valid);
    }
    // Every byte is ASCII, as checked.
    std::str::from_utf8(token).map_err(|_| Missing::Valid)
}

/// The bytes of RFC 6750's `b64token`: letters, digits and `-._~+/=`.
static TOKEN68: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 256 {
        let b = byte as u8;
        table[byte] = b.is_ascii_alphanumeric()
            || matches!(b, b'-' | b'.' | b'_' | b'~' | b'+' | b'/' | b'=');
        byte += 1;
    }
    table
};

/// Whether the URL carries `access_token=`, which RFC 6750 lets a server refuse and
/// OAuth 2.1 forbids.
fn has_query_token(parts: &Parts) -> bool {
    (parts.uri.query()).is_some_and(|query| {
        query
            .split('&')
            .any(|pair| pair.split('=').next() == Some("access_token"))
    })
}

/// What a message the guard checked comes to.
pub(super) enum Checked {
    /// The message as it was decoded and checked: answered directly, or encoded again
    /// for `rmcp` to read (so that it reads exactly what was checked, whatever a second
    /// parser would make of duplicate keys or escapes).
    Message(Box<ClientJsonRpcMessage>),
    /// A notification this server does not know, which nothing reads.
    Ignored,
}

/// Everything `message` touches whose scopes it needs: the tool it calls, the prompt it
/// gets or completes, the resource it reads or subscribes to (alone or in a
/// `subscriptions/listen` filter), the template it completes. A task operation needs its
/// task's tool's scopes, which only the task's record names: the task layer checks those.
fn targets(message: &ClientJsonRpcMessage) -> Vec<Target<'_>> {
    let JsonRpcMessage::Request(request) = message else {
        return Vec::new();
    };
    match &request.request {
        ClientRequest::CallToolRequest(call) => vec![Target::Tool(&call.params.name)],
        ClientRequest::GetPromptRequest(get) => vec![Target::Prompt(&get.params.name)],
        ClientRequest::ReadResourceRequest(read) => vec![Target::Resource(&read.params.uri)],
        ClientRequest::SubscribeRequest(subscribe) => {
            vec![Target::Resource(&subscribe.params.uri)]
        }
        ClientRequest::CompleteRequest(complete) => match &complete.params.r#ref {
            Reference::Prompt(prompt) => vec![Target::Prompt(&prompt.name)],
            Reference::Resource(template) => vec![Target::Template(&template.uri)],
            _ => Vec::new(),
        },
        ClientRequest::SubscriptionsListenRequest(listen) => {
            let uris = listen.params.notifications.resource_subscriptions.iter();
            uris.flatten().map(|uri| Target::Resource(uri)).collect()
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::{Guard, Missing, b64token, bearer};

    fn parts(uri: &str, authorization: &[&str]) -> http::request::Parts {
        let mut request = http::Request::builder().uri(uri);
        for value in authorization {
            request = request.header(http::header::AUTHORIZATION, *value);
        }
        request.body(()).unwrap().into_parts().0
    }

    #[test]
    fn reads_a_bearer_token_of_token68_bytes_only() {
        let token = |values: &[&str]| {
            bearer(&parts("/mcp", values))
                .and_then(b64token)
                .map(str::to_owned)
                .map_err(|missing| matches!(missing, Missing::Token))
        };
        assert_eq!(token(&["Bearer abc.DEF-_~+/="]), Ok("abc.DEF-_~+/=".into()));
        assert_eq!(token(&["bearer  xyz "]), Ok("xyz".into()));
        assert_eq!(token(&[]), Err(true));
        for refused in [
            "Bearer a b",
            "Bearer é",
            "Bearer a\"c",
            "Basic abc",
            "Bearer ",
            "Bearer",
        ] {
            assert_eq!(token(&[refused]), Err(false), "{refused}");
        }
        assert_eq!(token(&["Bearer a", "Bearer b"]), Err(false));
    }

    #[test]
    fn the_metadata_is_its_path_and_what_lies_under_it() {
        assert!(Guard::is_metadata(&parts(
            "/.well-known/oauth-protected-resource",
            &[]
        )));
        assert!(Guard::is_metadata(&parts(
            "/.well-known/oauth-protected-resource/mcp",
            &[]
        )));
        assert!(!Guard::is_metadata(&parts(
            "/.well-known/oauth-protected-resourcex",
            &[]
        )));
        assert!(!Guard::is_metadata(&parts("/mcp", &[])));
    }
}
