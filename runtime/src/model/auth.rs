//! Who called: the identity a verified access token gives a call over HTTP.

use std::fmt;
use std::sync::Arc;

use serde_json::{Map, Value};

/// The caller of a request made with a verified access token: its subject, the scopes
/// the token grants, the client it was issued to, and every claim it carries.
///
/// A tool reads it with [`Context::auth`](crate::Context::auth); it is `None` over stdio
/// (whose client is the parent process) and on a server without
/// [`authorization`](crate::Server::authorization). A [`TokenVerifier`](crate::TokenVerifier)
/// of one's own makes one:
///
/// ```
/// use mcp_tool::model::Auth;
///
/// let auth = Auth::new("user-42")
///     .with_scopes(["files:read", "files:write"])
///     .with_client_id("desktop-app");
/// assert_eq!(auth.subject(), "user-42");
/// assert!(auth.has_scope("files:read"));
/// assert!(!auth.has_scope("admin"));
/// assert_eq!(auth.client_id(), Some("desktop-app"));
/// ```
#[derive(Clone, PartialEq)]
pub struct Auth {
    /// Shared: a caller is cloned for every request its kept token makes.
    inner: Arc<Caller>,
}

#[derive(Clone, PartialEq)]
struct Caller {
    subject: String,
    scopes: Vec<String>,
    client_id: Option<String>,
    claims: Map<String, Value>,
}

impl Auth {
    /// The identity of `subject` (a token's `sub`), with no scope, no client and no claim.
    pub fn new(subject: impl Into<String>) -> Self {
        Self {
            inner: Arc::new(Caller {
                subject: subject.into(),
                scopes: Vec::new(),
                client_id: None,
                claims: Map::new(),
            }),
        }
    }

    /// With the scopes the token grants, replacing any given before.
    #[must_use]
    pub fn with_scopes<I, S>(mut self, scopes: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Arc::make_mut(&mut self.inner).scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// With the client the token was issued to (`client_id`, or `azp`).
    #[must_use]
    pub fn with_client_id(mut self, client_id: impl Into<String>) -> Self {
        Arc::make_mut(&mut self.inner).client_id = Some(client_id.into());
        self
    }

    /// With the token's claims, as its issuer wrote them.
    #[must_use]
    pub fn with_claims(mut self, claims: Map<String, Value>) -> Self {
        Arc::make_mut(&mut self.inner).claims = claims;
        self
    }

    /// Whom the token speaks for: its `sub` claim.
    pub fn subject(&self) -> &str {
        &self.inner.subject
    }

    /// The scopes the token grants.
    pub fn scopes(&self) -> &[String] {
        &self.inner.scopes
    }

    /// Whether the token grants `scope`.
    pub fn has_scope(&self, scope: &str) -> bool {
        self.inner.scopes.iter().any(|granted| granted == scope)
    }

    /// Whether the token grants every one of `scopes`.
    pub fn has_scopes<S: AsRef<str>>(&self, scopes: &[S]) -> bool {
        scopes.iter().all(|scope| self.has_scope(scope.as_ref()))
    }

    /// The client the token was issued to, when the token says.
    pub fn client_id(&self) -> Option<&str> {
        self.inner.client_id.as_deref()
    }

    /// Every claim of the token (of a JWT, its payload; of an introspected token, the
    /// introspection's answer), for what the accessors above do not name.
    pub fn claims(&self) -> &Map<String, Value> {
        &self.inner.claims
    }
}

// The claims may hold personal data: a log line gets the subject and the scopes only.
impl fmt::Debug for Auth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Auth")
            .field("subject", &self.inner.subject)
            .field("scopes", &self.inner.scopes)
            .field("client_id", &self.inner.client_id)
            .finish_non_exhaustive()
    }
}
