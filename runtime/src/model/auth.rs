//! Who called: the identity a verified access token gives a call over HTTP.

use std::fmt;
use std::sync::Arc;

use serde_json::{Map, Value};

/// The caller of a request made with a verified access token: whom it speaks for (a
/// subject, or a client acting for itself), the scopes the token grants, the client it
/// was issued to, and every claim it carries.
///
/// A tool reads it with [`Context::auth`](crate::Context::auth); it is `None` over stdio
/// (whose client is the parent process) and on a server without
/// [`authorization`](crate::Server::authorization). A [`TokenVerifier`](crate::TokenVerifier)
/// of one's own makes one:
///
/// ```
/// use mcp_tool::model::{Auth, Principal};
///
/// let auth = Auth::new("user-42")
///     .with_scopes(["files:read", "files:write"])
///     .with_client_id("desktop-app");
/// assert_eq!(auth.subject(), Some("user-42"));
/// assert!(auth.has_scope("files:read"));
/// assert!(!auth.has_scope("admin"));
/// assert_eq!(auth.client_id(), Some("desktop-app"));
///
/// // A client that acts for itself (the client-credentials grant) has no subject: it is
/// // never taken for the user of the same name.
/// let machine = Auth::client("user-42");
/// assert_eq!(machine.subject(), None);
/// assert_eq!(machine.principal(), Principal::Client("user-42"));
/// assert_ne!(machine.principal(), auth.principal());
/// ```
#[derive(Clone, PartialEq)]
pub struct Auth {
    /// Shared: a caller is cloned for every request its kept token makes.
    inner: Arc<Caller>,
}

#[derive(Clone, PartialEq)]
struct Caller {
    /// `None` for a client acting for itself, whose `client_id` is then set.
    subject: Option<String>,
    scopes: Vec<String>,
    client_id: Option<String>,
    claims: Map<String, Value>,
}

/// Whom a token speaks for, with its kind: a subject (a token's `sub`, most often a
/// person) or a client acting for itself (a token with no `sub`, from the
/// client-credentials grant). Two principals of one name and different kinds are two
/// callers; key what belongs to a caller (a quota, a record, a cache) by the whole
/// principal, or by its [`Display`](fmt::Display), `sub:<subject>` or `client:<client_id>`.
///
/// ```
/// use mcp_tool::model::{Auth, Principal};
///
/// let person = Auth::new("alice").with_client_id("desktop-app");
/// let machine = Auth::client("alice");
/// assert_eq!(person.principal(), Principal::Subject("alice"));
/// assert_eq!(person.principal().to_string(), "sub:alice");
/// assert_eq!(machine.principal().to_string(), "client:alice");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Principal<'a> {
    /// The token's subject (`sub`).
    Subject(&'a str),
    /// The client the token was issued to, acting for itself: the token names no subject.
    Client(&'a str),
}

impl Principal<'_> {
    /// The kind, as the principal's `Display` writes it before its name: `sub` or `client`.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Subject(_) => "sub",
            Self::Client(_) => "client",
        }
    }

    /// The name: the subject, or the client's id.
    pub fn name(&self) -> &str {
        match self {
            Self::Subject(name) | Self::Client(name) => name,
        }
    }
}

impl fmt::Display for Principal<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.kind(), self.name())
    }
}

impl Auth {
    /// The identity of `subject` (a token's `sub`), with no scope, no client and no claim.
    pub fn new(subject: impl Into<String>) -> Self {
        Self::of(Some(subject.into()), None)
    }

    /// The identity of the client `client_id` acting for itself (a token with no `sub`,
    /// from the client-credentials grant): no subject, no scope, no claim.
    pub fn client(client_id: impl Into<String>) -> Self {
        Self::of(None, Some(client_id.into()))
    }

    fn of(subject: Option<String>, client_id: Option<String>) -> Self {
        Self {
            inner: Arc::new(Caller {
                subject,
                scopes: Vec::new(),
                client_id,
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

    /// The token's subject (its `sub` claim), most often a person; `None` for a client
    /// acting for itself, whose [`client_id`](Self::client_id) is then set. What belongs
    /// to a caller is keyed by its [`principal`](Self::principal), which tells the two
    /// apart.
    pub fn subject(&self) -> Option<&str> {
        self.inner.subject.as_deref()
    }

    /// Whom the token speaks for, with its kind: its subject, or else the client acting
    /// for itself.
    pub fn principal(&self) -> Principal<'_> {
        match (&self.inner.subject, &self.inner.client_id) {
            (Some(subject), _) => Principal::Subject(subject),
            (None, client) => Principal::Client(client.as_deref().unwrap_or_default()),
        }
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
