//! The builder's HTTP options: sessions or stateless, which hosts and origins are served,
//! and the bounds that keep a greedy or slow client from starving the others.

use std::time::Duration;

use super::Server;

impl Server {
    /// Serves a server card (SEP-2127, "MCP Server Cards", a draft:
    /// <https://github.com/modelcontextprotocol/modelcontextprotocol/pull/2127>) at
    /// `/mcp/server-card`, the location the SEP reserves beside the endpoint, with the
    /// media type `application/mcp-server-card+json`: what a client needs before it
    /// connects (name, version, description, transport, protocol versions, whether a
    /// bearer token is needed). The card is public and lists no tool, prompt or
    /// resource, as the SEP's card does not. Off unless set: `/mcp/server-card` is `404`.
    /// The card's name and description are checked by [`build`](Self::build).
    ///
    /// ```
    /// let server = mcp_tool::Server::from_registry("search", "1.0.0").server_card(
    ///     mcp_tool::ServerCard::new("io.github.example/search", "Searches the team's notes."),
    /// );
    /// # drop(server);
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    pub fn server_card(mut self, card: crate::ServerCard) -> Self {
        self.settings.http.card = Some(card);
        self
    }

    /// Serves HTTP statelessly: no session is kept between requests, and each request
    /// gets one JSON response (or an SSE stream when its tool sends notifications first),
    /// so that any replica behind a load balancer can answer any request. Off unless
    /// set: sessions are kept, each with its own `logging/setLevel` and its stream of
    /// server messages. (Clients of protocol 2026-07-28 are always served statelessly.)
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), mcp_tool::ServerError> {
    /// mcp_tool::Server::from_registry("search", "1.0.0")
    ///     .stateless(true)
    ///     .serve_http("127.0.0.1:8000")
    ///     .await
    /// # }
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    pub fn stateless(mut self, stateless: bool) -> Self {
        self.settings.http.stateless = stateless;
        self
    }

    /// The `Host` header values HTTP requests may carry, as host names or `host:port`;
    /// any other gets `403 Forbidden`. Unless set, only loopback names are accepted
    /// (`localhost`, `127.0.0.1`, `::1`): a web page that points its own domain name at
    /// 127.0.0.1 (DNS rebinding) cannot reach a server on a developer's machine. A
    /// server that others reach by name lists that name.
    ///
    /// ```
    /// let server = mcp_tool::Server::from_registry("search", "1.0.0")
    ///     .allowed_hosts(["mcp.example.com", "localhost"]);
    /// # drop(server);
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    pub fn allowed_hosts<I, S>(mut self, hosts: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.settings.http.allowed_hosts = hosts.into_iter().map(Into::into).collect();
        self
    }

    /// Accepts HTTP requests whatever their `Host` header: for a server behind a proxy
    /// that checks it already. See [`allowed_hosts`](Self::allowed_hosts) for why the
    /// check exists.
    ///
    /// ```
    /// let server = mcp_tool::Server::from_registry("search", "1.0.0").allow_any_host();
    /// # drop(server);
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    pub fn allow_any_host(mut self) -> Self {
        self.settings.http.allowed_hosts.clear();
        self
    }

    /// The browser origins whose pages may call the server, as `scheme://host:port`
    /// (`:*` for any port, no port for the scheme's default one, `"null"` for the
    /// `Origin: null` of sandboxed pages); a request
    /// that carries any other `Origin` gets `403 Forbidden` and opens no session, and one
    /// without `Origin` (any client that is not a browser) is served. Unless set, only
    /// pages of the loopback interface are accepted (`http://localhost:*`,
    /// `http://127.0.0.1:*`, `http://[::1]:*` and their `https` twins): a page of another
    /// site open in a developer's browser cannot call a server on the developer's machine.
    /// The list replaces that default; an empty list refuses every `Origin`.
    ///
    /// ```
    /// let server = mcp_tool::Server::from_registry("search", "1.0.0")
    ///     .allowed_origins(["https://app.example.com", "http://localhost:*"]);
    /// # drop(server);
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    pub fn allowed_origins<I, S>(mut self, origins: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.settings.http.allowed_origins = Some(origins.into_iter().map(Into::into).collect());
        self
    }

    /// Accepts HTTP requests whatever their `Origin` header: for a server behind a proxy
    /// that checks it already. See [`allowed_origins`](Self::allowed_origins) for why the
    /// check exists.
    ///
    /// ```
    /// let server = mcp_tool::Server::from_registry("search", "1.0.0").allow_any_origin();
    /// # drop(server);
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    pub fn allow_any_origin(mut self) -> Self {
        self.settings.http.allowed_origins = None;
        self
    }

    /// The most HTTP sessions held at once; 1,000 unless set. An `initialize` beyond it
    /// gets `503 Service Unavailable` with `Retry-After: 5` and a JSON-RPC error, and
    /// the sessions open go on undisturbed: a client that opens session after session
    /// cannot make the server's memory grow past this many (a session holds about
    /// 60 kB), nor take a session away from another client. A slot frees when a session
    /// ends: closed by its client (`DELETE`), or idle past
    /// [`session_idle_timeout`](Self::session_idle_timeout). Stateless serving keeps no
    /// session, and clients of protocol 2026-07-28 open none.
    ///
    /// ```
    /// let server = mcp_tool::Server::from_registry("search", "1.0.0").max_sessions(10_000);
    /// # drop(server);
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    pub fn max_sessions(mut self, max: usize) -> Self {
        self.settings.http.max_sessions = max;
        self
    }

    /// How long an HTTP session lives without a request from its client; 5 minutes
    /// unless set. Then the session ends, its slot among the
    /// [`max_sessions`](Self::max_sessions) frees, and its client's next request gets
    /// `404`, upon which a client opens a new session.
    ///
    /// ```
    /// use std::time::Duration;
    ///
    /// let server = mcp_tool::Server::from_registry("search", "1.0.0")
    ///     .session_idle_timeout(Duration::from_secs(60));
    /// # drop(server);
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    pub fn session_idle_timeout(mut self, idle: Duration) -> Self {
        self.settings.http.session_idle_timeout = idle;
        self
    }

    /// How long a connection may take to send the head of a request (its request line
    /// and headers), and may stay idle between requests; 10 seconds unless set. Then
    /// [`serve_http`](Self::serve_http) closes the connection, so that a client that sends
    /// half a request and stops holds no connection for long. A response being sent, such
    /// as a long call's event stream, is not cut: the time counts only while the server
    /// waits for a request. (An application that mounts
    /// [`http_service`](crate::ToolServer::http_service) in its own server sets its own.)
    ///
    /// ```
    /// use std::time::Duration;
    ///
    /// let server = mcp_tool::Server::from_registry("search", "1.0.0")
    ///     .header_read_timeout(Duration::from_secs(5));
    /// # drop(server);
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    pub fn header_read_timeout(mut self, timeout: Duration) -> Self {
        self.settings.http.header_read_timeout = timeout;
        self
    }

    /// How long a request may take to send its body once its head has arrived; 30 seconds
    /// unless set. A body still incomplete then gets `408 Request Timeout` with a
    /// JSON-RPC error, and its connection is closed.
    ///
    /// ```
    /// use std::time::Duration;
    ///
    /// let server = mcp_tool::Server::from_registry("search", "1.0.0")
    ///     .body_read_timeout(Duration::from_secs(10));
    /// # drop(server);
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    pub fn body_read_timeout(mut self, timeout: Duration) -> Self {
        self.settings.http.body_read_timeout = timeout;
        self
    }

    /// The most connections [`serve_http`](Self::serve_http) serves at once; 1,024 unless
    /// set. One more waits, in the operating system's queue of connections not yet
    /// accepted, until a connection closes: a client that opens connections without end
    /// cannot make the server run out of memory or of files. Let the process open more
    /// files than this (`ulimit -n`).
    ///
    /// ```
    /// let server = mcp_tool::Server::from_registry("search", "1.0.0").max_connections(256);
    /// # drop(server);
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    pub fn max_connections(mut self, max: usize) -> Self {
        self.settings.http.max_connections = max;
        self
    }
}
