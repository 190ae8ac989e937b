//! The verifiers' HTTP client: a JSON document fetched, or a form posted, within a time
//! limit, its answer bounded in size.

use std::time::Duration;

use bytes::Bytes;
use http::{Method, Request, StatusCode, header};
use http_body_util::{BodyExt as _, Full, Limited};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use serde::de::DeserializeOwned;

/// The largest document read: a key set or an introspection answer is a few kilobytes.
const MAX_DOCUMENT: usize = 1024 * 1024;

/// A client over plain HTTP connections, shared by a verifier's fetches.
#[derive(Clone)]
pub(crate) struct Fetcher {
    client: Client<HttpConnector, Full<Bytes>>,
    timeout: Duration,
}

impl std::fmt::Debug for Fetcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Fetcher")
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

impl Fetcher {
    pub(crate) fn new(timeout: Duration) -> Self {
        let client = Client::builder(TokioExecutor::new()).build_http();
        Self { client, timeout }
    }

    pub(crate) fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The JSON document at `url`; why not, in words, when it cannot be had.
    pub(crate) async fn get_json<T: DeserializeOwned>(&self, url: &str) -> Result<T, String> {
        let request = Request::get(url)
            .header(header::ACCEPT, "application/json")
            .body(Full::new(Bytes::new()))
            .map_err(|error| format!("{url} is no URL: {error}"))?;
        self.send(url, request).await
    }

    /// The JSON answer to `form` posted to `url`, with HTTP basic authentication as
    /// `credentials` when given.
    pub(crate) async fn post_form<T: DeserializeOwned>(
        &self,
        url: &str,
        form: &[(&str, &str)],
        credentials: Option<(&str, &str)>,
    ) -> Result<T, String> {
        let body = form
            .iter()
            .map(|(key, value)| format!("{}={}", encode(key), encode(value)))
            .collect::<Vec<_>>()
            .join("&");
        let mut request = Request::builder()
            .method(Method::POST)
            .uri(url)
            .header(header::ACCEPT, "application/json")
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded");
        if let Some((id, secret)) = credentials {
            use base64::Engine as _;
            // RFC 6749 §2.3.1: each part form-encoded before it is joined.
            let pair = format!("{}:{}", encode(id), encode(secret));
            let basic = base64::engine::general_purpose::STANDARD.encode(pair);
            request = request.header(header::AUTHORIZATION, format!("Basic {basic}"));
        }
        let request = (request.body(Full::new(Bytes::from(body))))
            .map_err(|error| format!("{url} is no URL: {error}"))?;
        self.send(url, request).await
    }

    async fn send<T: DeserializeOwned>(
        &self,
        url: &str,
        request: Request<Full<Bytes>>,
    ) -> Result<T, String> {
        let exchange = async {
            let response = (self.client.request(request).await)
                .map_err(|error| format!("{url} could not be reached: {error}"))?;
            let status = response.status();
            let body = Limited::new(response.into_body(), MAX_DOCUMENT)
                .collect()
                .await;
            let body = body.map_err(|error| format!("{url} sent no complete answer: {error}"))?;
            Ok::<_, String>((status, body.to_bytes()))
        };
        let (status, body) = tokio::time::timeout(self.timeout, exchange)
            .await
            .map_err(|_| format!("{url} did not answer within {:?}", self.timeout))??;
        if status != StatusCode::OK {
            return Err(format!("{url} answered {status}"));
        }
        serde_json::from_slice(&body)
            .map_err(|error| format!("{url} sent no valid document: {error}"))
    }
}

/// `text` as `application/x-www-form-urlencoded` writes it.
fn encode(text: &str) -> String {
    let mut encoded = String::with_capacity(text.len());
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'*' => {
                encoded.push(char::from(byte));
            }
            b' ' => encoded.push('+'),
            _ => encoded.push_str(&format!("%{byte:02X}")),
        }
    }
    encoded
}

#[cfg(test)]
mod tests {
    #[test]
    fn encodes_a_form_value() {
        assert_eq!(super::encode("a b&c=d/é"), "a+b%26c%3Dd%2F%C3%A9");
        assert_eq!(super::encode("token-1.x_y*"), "token-1.x_y*");
    }
}
