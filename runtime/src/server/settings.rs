//! What a server's builder sets, handed whole to the server it builds.

use std::time::Duration;

use crate::call::state::StateMap;
use crate::outcome::failure_report::Detail;
use crate::protocol::lines::Limits;

/// How a built server serves its tools: what [`Server`](crate::Server)'s options set, handed to
/// [`ToolServer`](crate::ToolServer) whole.
#[derive(Debug, Default)]
pub(crate) struct Settings {
    pub(crate) detail: Detail,
    /// The server's time limit for a call, unless a tool sets its own.
    pub(crate) timeout: Option<Duration>,
    pub(crate) max_calls: Option<usize>,
    pub(crate) limits: Limits,
    pub(crate) state: StateMap,
    #[cfg(feature = "http")]
    pub(crate) http: HttpOptions,
}

/// How a server answers over HTTP: set on [`Server`](crate::Server), kept by the built
/// [`ToolServer`](crate::ToolServer).
#[cfg(feature = "http")]
#[derive(Debug, Clone)]
pub(crate) struct HttpOptions {
    /// Stateless mode: no sessions, a JSON response to each request.
    pub(crate) stateless: bool,
    /// The `Host` values accepted; empty accepts any.
    pub(crate) allowed_hosts: Vec<String>,
}

#[cfg(feature = "http")]
impl Default for HttpOptions {
    fn default() -> Self {
        Self {
            stateless: false,
            allowed_hosts: ["localhost", "127.0.0.1", "::1"].map(String::from).to_vec(),
        }
    }
}
