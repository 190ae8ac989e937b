//! Authorization: the server as an OAuth 2.1 resource server over HTTP.
//!
//! **Enters:** the bearer token of an HTTP request. **Leaves:** the caller's [`Auth`], or
//! why the token was refused (for the log only); `server::scopes` says what a call needs.
//! The HTTP layer (`protocol/http`) asks these questions and answers `401` and `403`; [`jwt`] and [`introspection`] are the verifiers this crate
//! offers, fetching what they need with [`fetch`].
//! **May import:** [`model`](crate::model), [`outcome`](crate::outcome); never `rmcp`.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use crate::model::Auth;

#[cfg(feature = "auth")]
mod fetch;
#[cfg(feature = "auth")]
pub(crate) mod introspection;
#[cfg(feature = "auth")]
mod jwks;
#[cfg(feature = "auth")]
pub(crate) mod jwt;
#[cfg(feature = "auth")]
mod kept;

/// Checks an access token and says whom it speaks for: what
/// [`Server::authorization`](crate::Server::authorization) takes.
///
/// [`JwtVerifier`](crate::JwtVerifier) and [`IntrospectionVerifier`](crate::IntrospectionVerifier)
/// implement it; a verifier of one's own (a lookup in a database of API keys, a call to an
/// identity service) implements [`verify`](Self::verify). The token is a secret: a
/// verifier never logs it, nor puts it in the reason it refuses it for.
///
/// ```
/// use mcp_tool::model::Auth;
/// use mcp_tool::{TokenRefused, TokenVerifier};
///
/// /// Accepts one fixed key, as a development server might.
/// struct OneKey(String);
///
/// impl TokenVerifier for OneKey {
///     async fn verify(&self, token: &str) -> Result<Auth, TokenRefused> {
///         if token == self.0 {
///             Ok(Auth::new("developer").with_scopes(["files:read"]))
///         } else {
///             Err(TokenRefused::new("not the development key"))
///         }
///     }
/// }
///
/// let server = mcp_tool::Server::from_registry("files", "1.0.0")
///     .authorization(OneKey("dev-key".into()))
///     .resource_url("http://127.0.0.1:8000/mcp");
/// # drop(server);
/// ```
pub trait TokenVerifier: Send + Sync + 'static {
    /// The caller `token` speaks for, or why it is refused. The reason goes to the
    /// server's log (at `info`); the client is only told that its token was refused.
    fn verify(&self, token: &str) -> impl Future<Output = Result<Auth, TokenRefused>> + Send;

    /// The authorization server that issues the tokens, listed in the server's protected
    /// resource metadata unless [`Server::authorization_servers`](crate::Server::authorization_servers)
    /// names them; `None` unless the verifier knows it.
    fn issuer(&self) -> Option<&str> {
        None
    }

    /// The URI the tokens must be issued for (their audience), which is the server's
    /// resource URI unless [`Server::resource_url`](crate::Server::resource_url) names it;
    /// `None` unless the verifier knows it.
    fn audience(&self) -> Option<&str> {
        None
    }
}

/// Why a [`TokenVerifier`] refused a token: written to the server's log, never sent to
/// the client, and never holding the token itself.
///
/// ```
/// let refused = mcp_tool::TokenRefused::new("expired 5 minutes ago");
/// assert_eq!(refused.to_string(), "expired 5 minutes ago");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{reason}")]
pub struct TokenRefused {
    reason: String,
}

impl TokenRefused {
    /// A refusal for `reason`.
    pub fn new(reason: impl Into<String>) -> Self {
        Self {
            reason: reason.into(),
        }
    }

    /// Why the token was refused.
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

/// A future a [`Verify`] returns: boxed, as a trait object's must be.
pub(crate) type Verifying<'a> =
    Pin<Box<dyn Future<Output = Result<Auth, TokenRefused>> + Send + 'a>>;

/// A [`TokenVerifier`] the server holds behind a pointer, whatever its type.
pub(crate) trait Verify: Send + Sync {
    fn verify<'a>(&'a self, token: &'a str) -> Verifying<'a>;
    /// The caller of a token this crate's verifiers accepted a moment ago, asked before
    /// anything else is read of a request's token: such a token was read whole when it
    /// was accepted. `None` for any other token, and from a verifier of one's own.
    fn kept(&self, token: &[u8]) -> Option<Auth>;
    fn issuer(&self) -> Option<&str>;
    fn audience(&self) -> Option<&str>;
}

impl<V: TokenVerifier> Verify for V {
    fn verify<'a>(&'a self, token: &'a str) -> Verifying<'a> {
        Box::pin(TokenVerifier::verify(self, token))
    }

    // Known by type, and not by a method of `TokenVerifier`, so that the trait users
    // implement stays as it is; each `V`'s copy of this keeps one branch or none.
    #[cfg_attr(not(feature = "auth"), allow(unused_variables))]
    fn kept(&self, token: &[u8]) -> Option<Auth> {
        #[cfg(feature = "auth")]
        {
            let any: &dyn std::any::Any = self;
            if let Some(jwt) = any.downcast_ref::<jwt::JwtVerifier>() {
                return jwt.kept(token);
            }
            if let Some(introspection) = any.downcast_ref::<introspection::IntrospectionVerifier>()
            {
                return introspection.kept(token);
            }
        }
        None
    }

    fn issuer(&self) -> Option<&str> {
        TokenVerifier::issuer(self)
    }

    fn audience(&self) -> Option<&str> {
        TokenVerifier::audience(self)
    }
}

/// How a server checks the tokens of its HTTP requests: set on
/// [`Server`](crate::Server), kept by the built server.
#[derive(Clone)]
pub(crate) struct Authorization {
    pub(crate) verifier: Arc<dyn Verify>,
    /// The server's resource URI (RFC 9728's `resource`): set, or the verifier's audience.
    pub(crate) resource: Option<String>,
    /// The authorization servers listed in the metadata: set, or the verifier's issuer.
    pub(crate) servers: Vec<String>,
    /// Whether a list shows a caller only what its token's scopes let it call.
    pub(crate) list_only_permitted: bool,
}

impl Authorization {
    pub(crate) fn new(verifier: Arc<dyn Verify>) -> Self {
        Self {
            verifier,
            resource: None,
            servers: Vec::new(),
            list_only_permitted: true,
        }
    }

    /// The resource URI, when set or known to the verifier.
    pub(crate) fn resource(&self) -> Option<&str> {
        (self.resource.as_deref()).or_else(|| self.verifier.audience())
    }

    /// The authorization servers the metadata lists.
    pub(crate) fn servers(&self) -> Vec<String> {
        if !self.servers.is_empty() {
            return self.servers.clone();
        }
        self.verifier
            .issuer()
            .map(str::to_owned)
            .into_iter()
            .collect()
    }
}

impl std::fmt::Debug for Authorization {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Authorization")
            .field("resource", &self.resource())
            .field("servers", &self.servers())
            .field("list_only_permitted", &self.list_only_permitted)
            .finish_non_exhaustive()
    }
}
