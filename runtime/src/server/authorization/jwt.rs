//! [`JwtVerifier`]: access tokens that are JWTs signed by their issuer, checked against
//! the keys it publishes.

use std::sync::Arc;
use std::time::Duration;

use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Algorithm, Validation};
use serde_json::{Map, Value};

use super::fetch::Fetcher;
use super::jwks::{KeySet, Source};
use super::kept::{self, Kept};
use super::{TokenRefused, TokenVerifier};
use crate::model::Auth;

/// Checks access tokens that are JWTs (RFC 9068) signed by an authorization server: the
/// signature against the keys the issuer publishes (its JWKS, found through its metadata
/// at `/.well-known/oauth-authorization-server` or `/.well-known/openid-configuration`),
/// the issuer (`iss`), the audience (`aud`, which must name the server's resource URI,
/// RFC 8707), and the token's lifetime (`exp`, `nbf`, with a leeway).
///
/// Only asymmetric algorithms are accepted, each only with a key of its kind (RSA for
/// `RS*` and `PS*`, P-256 and P-384 for `ES256` and `ES384`, Ed25519 for `EdDSA`): a token
/// signed with a shared secret (`HS*`) or unsigned (`none`) is refused. The keys are
/// fetched once and kept; a token that names a key not kept (the issuer rotated its keys)
/// has them fetched again, at most once every 10 seconds, and they are fetched again
/// after an hour in any case. An accepted token is taken as checked for a minute
/// ([`cache_for`](Self::cache_for)), never past its `exp` nor past a fetch of the keys.
/// Fetching uses HTTPS, trusting the Mozilla roots (and any
/// [`root_certificates`](Self::root_certificates) adds), within 5 seconds; plain `http://`
/// reaches this machine only (an issuer on 127.0.0.1, for development and tests).
///
/// The caller's [`Auth`] has the token's `sub`, its scopes (`scope`, space-separated, or
/// `scp`), its client (`client_id`, else `azp`) and every claim. A token with no `sub` is
/// a client acting for itself ([`Auth::client`]): its subject is `None`, and it is never
/// taken for the user whose name is its client's id.
///
/// ```
/// use std::time::Duration;
///
/// let verifier = mcp_tool::JwtVerifier::issuer("http://127.0.0.1:9000")
///     .audience("http://127.0.0.1:8000/mcp")
///     .leeway(Duration::from_secs(30));
/// let server = mcp_tool::Server::from_registry("files", "1.0.0").authorization(verifier);
/// # drop(server);
/// ```
#[derive(Clone)]
#[cfg_attr(docsrs, doc(cfg(feature = "auth")))]
pub struct JwtVerifier {
    source: Source,
    audience: Option<String>,
    leeway: Duration,
    fetcher: Fetcher,
    keys: Arc<KeySet>,
    cache_for: Duration,
    kept: Arc<Kept>,
}

impl std::fmt::Debug for JwtVerifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JwtVerifier")
            .field("issuer", &self.source.issuer)
            .field("audience", &self.audience)
            .field("leeway", &self.leeway)
            .finish_non_exhaustive()
    }
}

impl JwtVerifier {
    /// A verifier of the tokens `issuer` signs; `issuer` is the authorization server's
    /// issuer identifier, as its tokens' `iss` names it. Set the
    /// [`audience`](Self::audience): without it every token is refused.
    pub fn issuer(issuer: impl Into<String>) -> Self {
        Self {
            source: Source {
                issuer: issuer.into(),
                jwks_uri: None,
                refetch_interval: Duration::from_secs(10),
                max_age: Duration::from_secs(3600),
            },
            audience: None,
            leeway: Duration::from_secs(60),
            fetcher: Fetcher::new(Duration::from_secs(5)),
            keys: Arc::new(KeySet::new()),
            cache_for: Duration::from_secs(60),
            kept: Arc::default(),
        }
    }

    /// The audience a token must name: the server's resource URI, the full URL of its MCP
    /// endpoint (such as `https://mcp.example.com/mcp`), which the protected resource
    /// metadata then names too.
    #[must_use]
    pub fn audience(mut self, resource_url: impl Into<String>) -> Self {
        self.audience = Some(resource_url.into());
        self
    }

    /// How far past its `exp` (or before its `nbf`) a token is still accepted, for clocks
    /// that disagree; 60 seconds unless set.
    #[must_use]
    pub fn leeway(mut self, leeway: Duration) -> Self {
        self.leeway = leeway;
        self
    }

    /// Where the issuer's key set is, in place of what its metadata says.
    #[must_use]
    pub fn jwks_uri(mut self, url: impl Into<String>) -> Self {
        self.source.jwks_uri = Some(url.into());
        self
    }

    /// How long fetching the issuer's metadata or keys may take; 5 seconds unless set.
    #[must_use]
    pub fn fetch_timeout(mut self, timeout: Duration) -> Self {
        self.fetcher = self.fetcher.with_timeout(timeout);
        self
    }

    /// Also trusts the certificates of `pem` (one or more `-----BEGIN CERTIFICATE-----`
    /// blocks) as roots when reaching the authorization server over HTTPS, beside the
    /// Mozilla roots trusted always: for an issuer whose certificate a private
    /// certificate authority signed. Plain `http://` reaches this machine only.
    ///
    /// # Errors
    ///
    /// When `pem` holds no certificate, or one that cannot be parsed, saying which.
    ///
    /// ```no_run
    /// # fn main() -> std::io::Result<()> {
    /// let verifier = mcp_tool::JwtVerifier::issuer("https://auth.internal.example")
    ///     .root_certificates(std::fs::read("/etc/ssl/internal-ca.pem")?)?;
    /// # drop(verifier);
    /// # Ok(())
    /// # }
    /// ```
    pub fn root_certificates(mut self, pem: impl AsRef<[u8]>) -> std::io::Result<Self> {
        self.fetcher = self.fetcher.trust(pem.as_ref())?;
        Ok(self)
    }

    /// How long an accepted token is taken as checked without checking its signature
    /// again; 60 seconds unless set, never past the token's `exp`, zero to check every
    /// time. Tokens are kept under a hash of the token and the audience, never the token
    /// itself.
    #[must_use]
    pub fn cache_for(mut self, duration: Duration) -> Self {
        self.cache_for = duration;
        self
    }

    /// The least time between two fetches of the keys, however many tokens name a key
    /// not kept; 10 seconds unless set.
    #[must_use]
    pub fn refetch_interval(mut self, interval: Duration) -> Self {
        self.source.refetch_interval = interval;
        self
    }

    async fn check(&self, token: &str) -> Result<Auth, TokenRefused> {
        let refused = |why: String| TokenRefused::new(why);
        let Some(audience) = &self.audience else {
            return Err(refused(
                "the verifier has no audience: set JwtVerifier::audience to the server's resource URL".into(),
            ));
        };
        let kept_as = kept::key(Some(audience), token.as_bytes());
        let generation = self.keys.generation();
        if let Some(auth) = self.kept.get(&kept_as, generation) {
            return Ok(auth);
        }
        // Boxed, so that the future of a kept token is a few words and not the size of a
        // key fetch: the server boxes each verifier's future.
        Box::pin(self.check_signed(token, audience, kept_as, generation)).await
    }

    /// The caller of `token` when it was accepted a moment ago, for this audience and
    /// with the keys the verifier holds now; `None` for any other token.
    pub(crate) fn kept(&self, token: &[u8]) -> Option<Auth> {
        let audience = self.audience.as_deref()?;
        (self.kept).get(&kept::key(Some(audience), token), self.keys.generation())
    }

    /// Checks `token`'s signature and claims, and keeps the caller it speaks for.
    async fn check_signed(
        &self,
        token: &str,
        audience: &str,
        kept_as: [u8; 32],
        generation: u64,
    ) -> Result<Auth, TokenRefused> {
        let refused = |why: String| TokenRefused::new(why);
        let header = jsonwebtoken::decode_header(token)
            .map_err(|error| refused(format!("the token is not a signed JWT ({error})")))?;
        if matches!(
            header.alg,
            Algorithm::HS256 | Algorithm::HS384 | Algorithm::HS512
        ) {
            return Err(refused(format!(
                "the token is signed with {:?}, a shared-secret algorithm, never accepted",
                header.alg
            )));
        }
        let keys = (self
            .keys
            .find(header.kid.as_deref(), &self.source, &self.fetcher))
        .await
        .map_err(refused)?;
        let mut validation = Validation::new(header.alg);
        validation.set_issuer(&[&self.source.issuer]);
        validation.set_audience(&[audience]);
        validation.set_required_spec_claims(&["exp", "iss", "aud"]);
        validation.leeway = self.leeway.as_secs();
        validation.validate_nbf = true;
        let mut last = None;
        for key in keys
            .iter()
            .filter(|key| key.algorithms.contains(&header.alg))
        {
            match jsonwebtoken::decode::<Map<String, Value>>(token, &key.key, &validation) {
                Ok(data) => {
                    let exp = data.claims.get("exp").and_then(Value::as_u64);
                    let auth = auth(data.claims).map_err(refused)?;
                    self.kept
                        .keep(kept_as, &auth, (self.cache_for, exp), generation);
                    return Ok(auth);
                }
                Err(error) => last = Some(error),
            }
        }
        Err(refused(match last {
            Some(error) => reason(error.kind()),
            None => format!(
                "the token names {:?}, which no key of the issuer's is for",
                header.alg
            ),
        }))
    }
}

impl TokenVerifier for JwtVerifier {
    async fn verify(&self, token: &str) -> Result<Auth, TokenRefused> {
        self.check(token).await
    }

    fn issuer(&self) -> Option<&str> {
        Some(&self.source.issuer)
    }

    fn audience(&self) -> Option<&str> {
        self.audience.as_deref()
    }
}

/// Why `jsonwebtoken` refused a token, in the log's words.
fn reason(kind: &ErrorKind) -> String {
    match kind {
        ErrorKind::ExpiredSignature => "the token has expired".into(),
        ErrorKind::ImmatureSignature => "the token is not valid yet (nbf)".into(),
        ErrorKind::InvalidIssuer => "the token was issued by another issuer".into(),
        ErrorKind::InvalidAudience => {
            "the token was issued for another audience than this server's resource URL".into()
        }
        ErrorKind::InvalidSignature => "the token's signature does not verify".into(),
        ErrorKind::MissingRequiredClaim(claim) => format!("the token has no {claim} claim"),
        ErrorKind::InvalidAlgorithm => "the token names an algorithm its key is not for".into(),
        other => format!("the token is malformed ({other:?})"),
    }
}

/// The caller a token's claims name.
pub(crate) fn auth(claims: Map<String, Value>) -> Result<Auth, String> {
    let text = |name: &str| claims.get(name).and_then(Value::as_str).map(str::to_owned);
    let client_id = text("client_id").or_else(|| text("azp"));
    let scopes: Vec<String> = match claims.get("scope").or_else(|| claims.get("scp")) {
        Some(Value::String(scopes)) => scopes.split_whitespace().map(str::to_owned).collect(),
        Some(Value::Array(scopes)) => (scopes.iter())
            .filter_map(|scope| scope.as_str().map(str::to_owned))
            .collect(),
        _ => Vec::new(),
    };
    // A token without `sub` is a client acting for itself, never a subject of its name.
    let auth = match (text("sub"), client_id) {
        (Some(subject), Some(client_id)) => Auth::new(subject).with_client_id(client_id),
        (Some(subject), None) => Auth::new(subject),
        (None, Some(client_id)) => Auth::client(client_id),
        (None, None) => {
            return Err("the token names no subject (sub) and no client (client_id)".into());
        }
    };
    Ok(auth.with_scopes(scopes).with_claims(claims))
}

#[cfg(test)]
mod tests {
    use serde_json::{Map, Value, json};

    use super::auth;
    use crate::model::Principal;

    fn claims(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn a_token_without_a_subject_is_its_client_acting_for_itself() {
        let machine = auth(claims(json!({ "client_id": "alice", "scope": "a b" }))).unwrap();
        assert_eq!(machine.subject(), None);
        assert_eq!(machine.client_id(), Some("alice"));
        assert_eq!(machine.principal(), Principal::Client("alice"));
        assert_eq!(machine.scopes(), ["a", "b"]);
        let person = auth(claims(json!({ "sub": "alice", "azp": "alice" }))).unwrap();
        assert_eq!(person.subject(), Some("alice"));
        assert_eq!(person.principal(), Principal::Subject("alice"));
        assert_ne!(
            person.principal().to_string(),
            machine.principal().to_string()
        );
        assert!(auth(claims(json!({ "scope": "a" }))).is_err());
    }
}
