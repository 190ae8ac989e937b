//! The builder's authorization options: the verifier of the tokens of HTTP requests, and
//! what the server's protected resource metadata says.

use std::sync::Arc;

use super::Server;
use crate::server::authorization::{Authorization, TokenVerifier};

impl Server {
    /// Makes the server an OAuth 2.1 resource server over HTTP: every request to the MCP
    /// endpoint must carry an access token (`Authorization: Bearer ...`) that `verifier`
    /// accepts, and a call of a tool, prompt or resource that has `scopes` needs a token
    /// that grants them all. A request without a token, or with a token refused, gets
    /// `401 Unauthorized` with `WWW-Authenticate: Bearer resource_metadata="..."`, which
    /// tells the client where to learn how to get one; a call without the scopes gets
    /// `403 Forbidden` with `error="insufficient_scope"`. Why a token was refused goes to
    /// the log, never to the client; the token goes nowhere.
    ///
    /// The server's protected resource metadata (RFC 9728) is served, without a token, at
    /// `/.well-known/oauth-protected-resource` and at the same path followed by the MCP
    /// endpoint's (`/.well-known/oauth-protected-resource/mcp`). A tool reads the caller
    /// with [`Context::auth`](crate::Context::auth). Over stdio nothing changes: its
    /// client is the process that started the server.
    ///
    /// ```no_run
    /// use mcp_tool::{JwtVerifier, mcp_tool};
    ///
    /// /// Deletes a file from the index.
    /// #[mcp_tool(scopes = ["index:write"], destructive)]
    /// fn forget(path: String) -> String {
    ///     format!("forgot {path}")
    /// }
    ///
    /// # async fn run() -> Result<(), mcp_tool::ServerError> {
    /// let issuer = "https://auth.example.com";
    /// let resource = "https://mcp.example.com/mcp";
    /// mcp_tool::Server::from_registry("search", "1.0.0")
    ///     .authorization(JwtVerifier::issuer(issuer).audience(resource))
    ///     .allowed_hosts(["mcp.example.com"])
    ///     .serve_http("0.0.0.0:8000")
    ///     .await
    /// # }
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    pub fn authorization(mut self, verifier: impl TokenVerifier) -> Self {
        let http = &mut self.settings.http;
        let mut authorization = Authorization::new(Arc::new(verifier));
        if let Some(before) = http.authorization.take() {
            authorization.resource = before.resource;
            authorization.servers = before.servers;
            authorization.list_only_permitted = before.list_only_permitted;
        }
        http.authorization = Some(authorization);
        self
    }

    /// The server's resource URI: the full URL clients reach its MCP endpoint at (such as
    /// `https://mcp.example.com/mcp`), which its metadata names as `resource` and tokens
    /// must be issued for. Unless set, the verifier's audience
    /// ([`JwtVerifier::audience`](crate::JwtVerifier::audience)), else the URL a request
    /// came to. Takes effect with [`authorization`](Self::authorization).
    ///
    /// ```
    /// let server = mcp_tool::Server::from_registry("search", "1.0.0")
    ///     .resource_url("https://mcp.example.com/mcp");
    /// # drop(server);
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    pub fn resource_url(mut self, url: impl Into<String>) -> Self {
        self.authorization_options().resource = Some(url.into());
        self
    }

    /// The authorization servers the metadata lists (their issuer identifiers), where
    /// clients get tokens. Unless set, the verifier's issuer
    /// ([`JwtVerifier::issuer`](crate::JwtVerifier::issuer)).
    ///
    /// ```
    /// let server = mcp_tool::Server::from_registry("search", "1.0.0")
    ///     .authorization_servers(["https://auth.example.com"]);
    /// # drop(server);
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    pub fn authorization_servers<I, S>(mut self, servers: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.authorization_options().servers = servers.into_iter().map(Into::into).collect();
        self
    }

    /// Whether `tools/list`, `prompts/list`, `resources/list` and
    /// `resources/templates/list` show a caller only what its token's scopes let it call;
    /// `true` unless set. With `false`, every caller sees everything, and a call it may
    /// not make gets `403`.
    ///
    /// ```
    /// let server = mcp_tool::Server::from_registry("search", "1.0.0").list_only_permitted(false);
    /// # drop(server);
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    pub fn list_only_permitted(mut self, only: bool) -> Self {
        self.authorization_options().list_only_permitted = only;
        self
    }

    /// The authorization options, made with a verifier that refuses every token until
    /// [`authorization`](Self::authorization) gives one.
    fn authorization_options(&mut self) -> &mut Authorization {
        let http = &mut self.settings.http;
        http.authorization
            .get_or_insert_with(|| Authorization::new(Arc::new(RefuseAll)))
    }
}

/// The verifier of a server given authorization options but no verifier: no token passes.
struct RefuseAll;

impl TokenVerifier for RefuseAll {
    async fn verify(&self, _token: &str) -> Result<crate::model::Auth, crate::TokenRefused> {
        Err(crate::TokenRefused::new(
            "the server has authorization options but no verifier: call Server::authorization",
        ))
    }
}
