//! [`IntrospectionVerifier`]: opaque access tokens, asked about at the authorization
//! server's introspection endpoint (RFC 7662).

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value};

use super::fetch::Fetcher;
use super::jwt;
use super::kept::{self, Kept};
use super::{TokenRefused, TokenVerifier};
use crate::model::Auth;

/// Checks access tokens by asking the authorization server (RFC 7662): each token is
/// posted to its introspection endpoint with the server's client credentials, and
/// accepted when the answer says it is `active`, has not expired (`exp`) and, when an
/// [`audience`](Self::audience) is set, names it in `aud`.
///
/// An accepted token's answer is kept for a short while ([`cache_for`](Self::cache_for),
/// 30 seconds unless set, never past the token's `exp`), under a hash of the token, never
/// the token itself, so that a client's calls do not each cost a round trip.
///
/// The caller's [`Auth`] is read from the answer as [`JwtVerifier`](crate::JwtVerifier)
/// reads a token's claims: an answer with no `sub` is a client acting for itself.
///
/// ```
/// let verifier = mcp_tool::IntrospectionVerifier::new("http://127.0.0.1:9000/introspect")
///     .client_credentials("mcp-server", "s3cret")
///     .audience("http://127.0.0.1:8000/mcp");
/// let server = mcp_tool::Server::from_registry("files", "1.0.0")
///     .authorization(verifier)
///     .authorization_servers(["http://127.0.0.1:9000"]);
/// # drop(server);
/// ```
#[derive(Clone)]
#[cfg_attr(docsrs, doc(cfg(feature = "auth")))]
pub struct IntrospectionVerifier {
    endpoint: String,
    credentials: Option<(String, String)>,
    audience: Option<String>,
    cache_for: Duration,
    fetcher: Fetcher,
    kept: Arc<Kept>,
}

impl std::fmt::Debug for IntrospectionVerifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IntrospectionVerifier")
            .field("endpoint", &self.endpoint)
            .field("audience", &self.audience)
            .field("cache_for", &self.cache_for)
            .finish_non_exhaustive()
    }
}

impl IntrospectionVerifier {
    /// A verifier that asks the introspection endpoint at `endpoint`.
    pub fn new(endpoint: impl Into<String>) -> Self {
        Self {
            endpoint: endpoint.into(),
            credentials: None,
            audience: None,
            cache_for: Duration::from_secs(30),
            fetcher: Fetcher::new(Duration::from_secs(5)),
            kept: Arc::default(),
        }
    }

    /// The server's own client id and secret at the authorization server, sent with
    /// HTTP basic authentication, as most introspection endpoints require.
    #[must_use]
    pub fn client_credentials(mut self, id: impl Into<String>, secret: impl Into<String>) -> Self {
        self.credentials = Some((id.into(), secret.into()));
        self
    }

    /// The audience an accepted token's `aud` must name: the server's resource URI.
    #[must_use]
    pub fn audience(mut self, resource_url: impl Into<String>) -> Self {
        self.audience = Some(resource_url.into());
        self
    }

    /// How long an accepted token is not asked about again; 30 seconds unless set, zero
    /// to ask every time. A token revoked meanwhile is accepted until then.
    #[must_use]
    pub fn cache_for(mut self, duration: Duration) -> Self {
        self.cache_for = duration;
        self
    }

    /// How long asking may take; 5 seconds unless set.
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
    /// let verifier = mcp_tool::IntrospectionVerifier::new("https://auth.internal.example/introspect")
    ///     .root_certificates(std::fs::read("/etc/ssl/internal-ca.pem")?)?;
    /// # drop(verifier);
    /// # Ok(())
    /// # }
    /// ```
    pub fn root_certificates(mut self, pem: impl AsRef<[u8]>) -> std::io::Result<Self> {
        self.fetcher = self.fetcher.trust(pem.as_ref())?;
        Ok(self)
    }

    async fn check(&self, token: &str) -> Result<Auth, TokenRefused> {
        let key = kept::key(self.audience.as_deref(), token.as_bytes());
        if let Some(auth) = self.kept.get(&key, 0) {
            return Ok(auth);
        }
        let credentials =
            (self.credentials.as_ref()).map(|(id, secret)| (id.as_str(), secret.as_str()));
        let form = [("token", token), ("token_type_hint", "access_token")];
        let answer: Map<String, Value> = (self.fetcher)
            .post_form(&self.endpoint, &form, credentials)
            .await
            .map_err(|why| {
                TokenRefused::new(format!("the token could not be introspected: {why}"))
            })?;
        if answer.get("active") != Some(&Value::Bool(true)) {
            return Err(TokenRefused::new(
                "the introspection endpoint says the token is not active",
            ));
        }
        let exp = answer.get("exp").and_then(Value::as_u64);
        if exp.is_some_and(|exp| exp <= kept::now()) {
            return Err(TokenRefused::new("the token has expired"));
        }
        if let Some(audience) = &self.audience
            && !names(answer.get("aud"), audience)
        {
            return Err(TokenRefused::new(
                "the token was issued for another audience than this server's resource URL",
            ));
        }
        let auth = jwt::auth(answer).map_err(TokenRefused::new)?;
        self.kept.keep(key, &auth, (self.cache_for, exp), 0);
        Ok(auth)
    }

    /// The caller of `token` when the endpoint said a moment ago that it is active;
    /// `None` for any other token.
    pub(crate) fn kept(&self, token: &[u8]) -> Option<Auth> {
        (self.kept).get(&kept::key(self.audience.as_deref(), token), 0)
    }
}

/// Whether an `aud` claim (a string or an array of strings) names `audience`.
fn names(aud: Option<&Value>, audience: &str) -> bool {
    match aud {
        Some(Value::String(one)) => one == audience,
        Some(Value::Array(many)) => many.iter().any(|one| one.as_str() == Some(audience)),
        _ => false,
    }
}

impl TokenVerifier for IntrospectionVerifier {
    async fn verify(&self, token: &str) -> Result<Auth, TokenRefused> {
        self.check(token).await
    }

    fn audience(&self) -> Option<&str> {
        self.audience.as_deref()
    }
}
