//! The verifiers' HTTP client: a JSON document fetched, or a form posted, within a time
//! limit, its answer bounded in size, over HTTPS (the Mozilla roots and any the
//! application adds), or over plain HTTP to this machine only.

use std::io;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http::{Method, Request, StatusCode, Uri, header};
use http_body_util::{BodyExt as _, Full, Limited};
use hyper_rustls::{HttpsConnector, HttpsConnectorBuilder};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use rustls::RootCertStore;
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject as _;
use serde::de::DeserializeOwned;

/// The largest document read: a key set or an introspection answer is a few kilobytes.
const MAX_DOCUMENT: usize = 1024 * 1024;

/// A client over HTTPS (and plain HTTP to loopback), shared by a verifier's fetches.
#[derive(Clone)]
pub(crate) struct Fetcher {
    client: Client<HttpsConnector<HttpConnector>, Full<Bytes>>,
    /// The roots trusted besides the Mozilla ones.
    roots: Vec<CertificateDer<'static>>,
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
        Self {
            client: client(&[]),
            roots: Vec::new(),
            timeout,
        }
    }

    /// Also trusts the certificates of `pem` (one or more `CERTIFICATE` blocks) as roots.
    pub(crate) fn trust(mut self, pem: &[u8]) -> io::Result<Self> {
        let invalid = |why: String| io::Error::new(io::ErrorKind::InvalidData, why);
        let certificates = (CertificateDer::pem_slice_iter(pem))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|error| invalid(format!("the root certificates are not PEM: {error}")))?;
        if certificates.is_empty() {
            return Err(invalid(
                "the root certificates hold no `-----BEGIN CERTIFICATE-----` block".into(),
            ));
        }
        let mut store = RootCertStore::empty();
        for certificate in &certificates {
            store.add(certificate.clone()).map_err(|error| {
                invalid(format!("a root certificate cannot be trusted: {error}"))
            })?;
        }
        self.roots.extend(certificates);
        self.client = client(&self.roots);
        Ok(self)
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
        refuse_plain_remote(url, request.uri())?;
        let exchange = async {
            let response = (self.client.request(request).await)
                .map_err(|error| format!("{url} could not be reached: {}", causes(&error)))?;
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

/// A client trusting the Mozilla roots and `roots`, with the aws-lc-rs provider whatever else
/// the application's rustls may have.
fn client(roots: &[CertificateDer<'static>]) -> Client<HttpsConnector<HttpConnector>, Full<Bytes>> {
    let mut store = RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    };
    // Checked as `Fetcher::trust` took them.
    let _ = store.add_parsable_certificates(roots.iter().cloned());
    let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
    let tls = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap_or_else(|_| unreachable!("aws-lc-rs supports TLS 1.2 and 1.3"))
        .with_root_certificates(store)
        .with_no_client_auth();
    let connector = HttpsConnectorBuilder::new()
        .with_tls_config(tls)
        .https_or_http()
        .enable_http1()
        .build();
    Client::builder(TokioExecutor::new()).build(connector)
}

/// Refuses plain HTTP to another machine: OAuth 2.1 asks authorization servers for TLS, and
/// keys fetched over plain HTTP could be anyone's. This machine's loopback is allowed, for
/// development and tests.
fn refuse_plain_remote(url: &str, uri: &Uri) -> Result<(), String> {
    if uri.scheme_str() != Some("http") {
        return Ok(());
    }
    let host = uri.host().unwrap_or_default();
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let loopback = host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<IpAddr>()
            .is_ok_and(|address| address.is_loopback());
    if loopback {
        Ok(())
    } else {
        Err(format!(
            "{url} is plain http to another machine: an authorization server must be reached \
             over https (plain http is allowed to 127.0.0.1, ::1 and localhost only)"
        ))
    }
}

/// `error` and what caused it, down to the first cause, as `a: b: c`: the client's own
/// words ("client error (Connect)") say nothing of a refused certificate or a connection.
fn causes(error: &dyn std::error::Error) -> String {
    let mut words = error.to_string();
    let mut cause = error.source();
    while let Some(error) = cause {
        words.push_str(": ");
        words.push_str(&error.to_string());
        cause = error.source();
    }
    words
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
    fn plain_http_reaches_loopback_only() {
        let refused = |url: &str| super::refuse_plain_remote(url, &url.parse().unwrap()).is_err();
        for allowed in [
            "http://127.0.0.1:9000/jwks",
            "http://127.8.0.1/x",
            "http://[::1]:80/x",
            "http://localhost/x",
            "http://LOCALHOST:1/x",
            "https://auth.example.com/jwks",
            "https://192.0.2.1/jwks",
        ] {
            assert!(!refused(allowed), "{allowed}");
        }
        for remote in [
            "http://auth.example.com/jwks",
            "http://192.0.2.1:9000/jwks",
            "http://[2001:db8::1]/jwks",
            "http://localhost.example.com/jwks",
            "http://127.0.0.1.example.com/jwks",
        ] {
            assert!(refused(remote), "{remote}");
        }
    }

    #[test]
    fn roots_that_are_no_certificates_are_refused_saying_why() {
        let fetcher = || super::Fetcher::new(std::time::Duration::from_secs(1));
        let empty = fetcher().trust(b"").unwrap_err().to_string();
        assert!(
            empty.contains("no `-----BEGIN CERTIFICATE-----` block"),
            "{empty}"
        );
        let garbage = b"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n";
        let bad = fetcher().trust(garbage).unwrap_err().to_string();
        assert!(bad.contains("cannot be trusted"), "{bad}");
    }

    #[test]
    fn encodes_a_form_value() {
        assert_eq!(super::encode("a b&c=d/é"), "a+b%26c%3Dd%2F%C3%A9");
        assert_eq!(super::encode("token-1.x_y*"), "token-1.x_y*");
    }
}
