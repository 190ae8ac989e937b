//! An OAuth issuer served in-process on 127.0.0.1: its metadata and its key set (the
//! runtime's test key `a`), and tokens it signs, for the servers with authorization.

use jsonwebtoken::jwk::{Jwk, JwkSet};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::json;

/// The runtime's test key, read where the workspace keeps it (not built into the crate,
/// whose package does not hold it).
fn key() -> EncodingKey {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../runtime/tests/keys/rsa-a.pem"
    );
    let pem = std::fs::read(path).unwrap_or_else(|error| panic!("{path}: {error}"));
    EncodingKey::from_rsa_pem(&pem).expect("a key")
}

/// Serves the issuer's metadata and key set on a task of the current runtime; its URL.
pub async fn serve() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("binds");
    let url = format!("http://{}", listener.local_addr().expect("an address"));
    let mut jwk = Jwk::from_encoding_key(&key(), Algorithm::RS256).expect("a JWK");
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

/// A token of `issuer`'s for `resource`, with no scope, valid for decades.
pub fn token(issuer: &str, resource: &str) -> String {
    let claims = json!({
        "iss": issuer, "aud": resource, "sub": "bench", "scope": "",
        "exp": 4_000_000_000u64,
    });
    let mut header = Header::new(Algorithm::RS256);
    header.kid = Some("a".to_owned());
    jsonwebtoken::encode(&header, &claims, &key()).expect("a token")
}
