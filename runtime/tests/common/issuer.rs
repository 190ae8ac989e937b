//! An authorization server of the test's own on 127.0.0.1: its metadata, the key set it
//! publishes (which a test may change, to rotate keys), an introspection endpoint, and
//! tokens signed with the test keys under `tests/keys/`.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use axum::extract::State;
use axum::http::header;
use axum::routing::{get, post};
use jsonwebtoken::jwk::{Jwk, JwkSet};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{Value, json};

pub const KEY_A: &[u8] = include_bytes!("../keys/rsa-a.pem");
pub const KEY_A_PUBLIC: &[u8] = include_bytes!("../keys/rsa-a.pub.pem");
pub const KEY_B: &[u8] = include_bytes!("../keys/rsa-b.pem");
/// The test certificate authority, and the certificate and key it signed for 127.0.0.1.
pub const CA: &[u8] = include_bytes!("../keys/ca.pem");
const TLS_CERTIFICATE: &[u8] = include_bytes!("../keys/issuer-tls.pem");
const TLS_KEY: &[u8] = include_bytes!("../keys/issuer-tls.key");

/// What the issuer publishes and answers, shared with the test.
#[derive(Default)]
pub struct Published {
    /// The key set served at `/jwks`.
    pub jwks: Mutex<Value>,
    /// How many times `/jwks` was fetched.
    pub jwks_fetches: AtomicUsize,
    /// Introspection answers by token; any other token is inactive.
    pub introspection: Mutex<HashMap<String, Value>>,
    /// The bodies and `Authorization` headers posted to `/introspect`.
    pub introspected: Mutex<Vec<(String, Option<String>)>>,
}

pub struct Issuer {
    pub address: SocketAddr,
    pub published: Arc<Published>,
    scheme: &'static str,
}

impl Issuer {
    /// Serves an issuer on a free port of 127.0.0.1 that publishes `keys` (kid, PEM).
    pub async fn start(keys: &[(&str, &[u8])]) -> Self {
        Self::serve(keys, false).await
    }

    /// The same over HTTPS, with a certificate the test authority (`CA`) signed.
    pub async fn start_tls(keys: &[(&str, &[u8])]) -> Self {
        Self::serve(keys, true).await
    }

    async fn serve(keys: &[(&str, &[u8])], tls: bool) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let published = Arc::new(Published::default());
        *published.jwks.lock().unwrap() = jwks(keys);
        let scheme = if tls { "https" } else { "http" };
        let issuer = format!("{scheme}://{address}");
        let metadata = json!({
            "issuer": issuer,
            "jwks_uri": format!("{issuer}/jwks"),
            "introspection_endpoint": format!("{issuer}/introspect"),
            "token_endpoint": format!("{issuer}/token"),
        })
        .to_string();
        let app = axum::Router::new()
            .route(
                "/.well-known/oauth-authorization-server",
                get(
                    move || async move { ([(header::CONTENT_TYPE, "application/json")], metadata) },
                ),
            )
            .route("/jwks", get(serve_jwks))
            .route("/introspect", post(introspect))
            .with_state(Arc::clone(&published));
        if tls {
            tokio::spawn(serve_tls(listener, app));
        } else {
            tokio::spawn(async move { axum::serve(listener, app).await });
        }
        Self {
            address,
            published,
            scheme,
        }
    }

    pub fn url(&self) -> String {
        format!("{}://{}", self.scheme, self.address)
    }

    /// Publishes `keys` in place of the keys published before.
    pub fn publish(&self, keys: &[(&str, &[u8])]) {
        *self.published.jwks.lock().unwrap() = jwks(keys);
    }

    pub fn jwks_fetches(&self) -> usize {
        self.published.jwks_fetches.load(Ordering::SeqCst)
    }
}

/// Serves `app` over TLS, one connection at a time each on its own task.
async fn serve_tls(listener: tokio::net::TcpListener, app: axum::Router) {
    use tokio_rustls::rustls::pki_types::pem::PemObject as _;
    use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};

    let certificates = CertificateDer::pem_slice_iter(TLS_CERTIFICATE)
        .collect::<Result<Vec<_>, _>>()
        .unwrap();
    let key = PrivateKeyDer::from_pem_slice(TLS_KEY).unwrap();
    let provider = Arc::new(tokio_rustls::rustls::crypto::aws_lc_rs::default_provider());
    let config = tokio_rustls::rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(certificates, key)
        .unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            return;
        };
        let (acceptor, app) = (acceptor.clone(), app.clone());
        tokio::spawn(async move {
            // A client that refuses the certificate ends the handshake: nothing to serve.
            let Ok(stream) = acceptor.accept(stream).await else {
                return;
            };
            let service = hyper_util::service::TowerToHyperService::new(app);
            let io = hyper_util::rt::TokioIo::new(stream);
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(io, service)
                .await;
        });
    }
}

async fn serve_jwks(State(published): State<Arc<Published>>) -> impl axum::response::IntoResponse {
    published.jwks_fetches.fetch_add(1, Ordering::SeqCst);
    let jwks = published.jwks.lock().unwrap().to_string();
    ([(header::CONTENT_TYPE, "application/json")], jwks)
}

async fn introspect(
    State(published): State<Arc<Published>>,
    headers: axum::http::HeaderMap,
    body: String,
) -> impl axum::response::IntoResponse {
    let authorization =
        (headers.get(header::AUTHORIZATION)).map(|value| value.to_str().unwrap().to_owned());
    published
        .introspected
        .lock()
        .unwrap()
        .push((body.clone(), authorization));
    let token = (body.split('&'))
        .find_map(|pair| pair.strip_prefix("token="))
        .unwrap_or_default()
        .to_owned();
    let answer = (published.introspection.lock().unwrap().get(&token))
        .cloned()
        .unwrap_or_else(|| json!({ "active": false }));
    (
        [(header::CONTENT_TYPE, "application/json")],
        answer.to_string(),
    )
}

/// The key set of `keys` (kid, private key PEM): their public halves.
pub fn jwks(keys: &[(&str, &[u8])]) -> Value {
    let keys = keys
        .iter()
        .map(|(kid, pem)| {
            let key = EncodingKey::from_rsa_pem(pem).unwrap();
            let mut jwk = Jwk::from_encoding_key(&key, Algorithm::RS256).unwrap();
            jwk.common.key_id = Some((*kid).to_owned());
            jwk
        })
        .collect();
    serde_json::to_value(JwkSet { keys }).unwrap()
}

pub fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// Claims for `audience` from `issuer`, for `sub` with `scope`, valid for ten minutes.
pub fn claims(issuer: &str, audience: &str, scope: &str) -> Value {
    json!({
        "iss": issuer,
        "aud": audience,
        "sub": "user-42",
        "client_id": "test-client",
        "scope": scope,
        "iat": now(),
        "exp": now() + 600,
    })
}

/// `claims` signed with RS256 by the key `pem`, named `kid`.
pub fn sign(claims: &Value, kid: &str, pem: &[u8]) -> String {
    let mut header = Header::new(Algorithm::RS256);
    header.kid = Some(kid.to_owned());
    jsonwebtoken::encode(&header, claims, &EncodingKey::from_rsa_pem(pem).unwrap()).unwrap()
}
