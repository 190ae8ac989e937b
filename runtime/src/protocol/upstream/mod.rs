//! An upstream MCP server served through this one: a child process spoken to over its
//! stdin and stdout, whose tools a [`ToolServer`] lists and calls, ready to be mounted.
//!
//! **Enters:** the upstream's listings, results and notifications, through one `rmcp`
//! client connection. **Leaves:** a [`ToolServer`] whose tools forward each call over that
//! connection ([`proxied_call`]), kept alive and in step by [`supervisor`]; the
//! upstream's progress goes to the call that asked ([`upstream_client`]).

mod proxied_call;
mod supervisor;
mod upstream_client;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use crate::outcome::error::ServerError;
use crate::server::builder::Server;
use crate::server::tool_server::ToolServer;

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};

use rmcp::model::{ProgressToken, Tool};
use rmcp::service::{Peer, RoleClient};
use tokio::sync::{Notify, mpsc, watch};

use self::supervisor::Launch;

/// An MCP server run as a child process and served through this one, as
/// [`Server::mount`] serves a server of this process: its tools are listed under the
/// namespace it is mounted at and called through this server's pipeline (authorization,
/// scopes, layers, limits), each call forwarded over one connection that every caller
/// shares.
///
/// [`start`](Self::start) runs the command, initializes the connection and lists the
/// upstream's tools; it gives a [`ToolServer`] to [`Server::mount`]. From then on:
///
/// - The child is restarted when it dies, after a pause that doubles from
///   [`restart_backoff`](Self::restart_backoff)'s first to its longest, and goes back to
///   the first once a connection has lived a minute. A call made while it restarts waits
///   for the new connection, within its time limit.
/// - Its standard error goes to this program's log (`tracing`, target
///   `mcp_tool::upstream`), line by line, masked as tool errors are.
/// - When the upstream says its tools changed (`notifications/tools/list_changed`), they
///   are listed again, and this server's sessions told.
/// - A call's progress reaches the client that made the call, and only that client; a
///   call the client cancels, or that runs out of time, is cancelled upstream.
/// - A call that fails gives its caller an error that names the upstream and not its
///   internals: the upstream did not answer within the [`timeout`](Self::timeout), it
///   closed the connection during the call, its result was larger than
///   [`max_result_size`](Self::max_result_size), or it refused the call; the upstream's
///   own error texts pass through this server's masking. Every other tool goes on being
///   served.
///
/// The upstream is never given a caller's token, nor anything else of the caller's but
/// the call's name and arguments: it runs with the environment of this program.
///
/// ```no_run
/// use mcp_tool::{Proxy, Server};
///
/// # async fn run() -> Result<(), mcp_tool::ServerError> {
/// let everything = Proxy::stdio("npx", ["-y", "@modelcontextprotocol/server-everything"])
///     .named("everything")
///     .start()
///     .await?;
/// Server::new("gateway", "1.0.0")
///     .mount("everything", everything)
///     .serve_stdio()
///     .await
/// # }
/// ```
#[derive(Debug, Clone)]
#[must_use = "a proxy does nothing until it is started"]
pub struct Proxy {
    launch: Launch,
    name: String,
    timeout: Duration,
    max_result: usize,
    backoff: (Duration, Duration),
}

impl Proxy {
    /// The MCP server that `command` runs with `args`, spoken to over its stdin and
    /// stdout. It is named after the command's file name until [`named`](Self::named).
    pub fn stdio<I, S>(command: impl Into<String>, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let command = command.into();
        let name = Path::new(&command).file_name().map_or_else(
            || command.clone(),
            |name| name.to_string_lossy().into_owned(),
        );
        Self {
            launch: Launch {
                command,
                args: args.into_iter().map(Into::into).collect(),
            },
            name,
            timeout: Duration::from_secs(60),
            max_result: 4 * 1024 * 1024,
            backoff: (Duration::from_millis(100), Duration::from_secs(10)),
        }
    }

    /// The name errors and the log give the upstream: the namespace it is mounted at,
    /// usually.
    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// How long a call may wait for the upstream's answer (a minute unless told): after
    /// it, the call fails naming the upstream, and is cancelled upstream. It is also the
    /// limit of [`start`](Self::start)'s `initialize` and `tools/list`.
    pub fn timeout(mut self, limit: Duration) -> Self {
        self.timeout = limit;
        self
    }

    /// The largest result, in bytes of JSON, a call may bring back (4 MiB unless told):
    /// a larger one fails the call naming the upstream. A line of more than four times as
    /// many bytes is not even read, and the call runs out of time.
    pub fn max_result_size(mut self, bytes: usize) -> Self {
        self.max_result = bytes;
        self
    }

    /// How long to wait before restarting a child that died: `first`, doubled at each
    /// death in a row up to `longest` (100 ms and 10 s unless told).
    pub fn restart_backoff(mut self, first: Duration, longest: Duration) -> Self {
        self.backoff = (first, longest.max(first));
        self
    }

    /// Runs the command, initializes the connection and lists the upstream's tools: the
    /// server to [`mount`](Server::mount), whose tools forward their calls upstream.
    /// Fails with [`ServerError::Upstream`] when the command does not start or the
    /// upstream does not answer within the [`timeout`](Self::timeout).
    pub async fn start(self) -> Result<ToolServer, ServerError> {
        let upstream = Arc::new(Upstream::new(
            self.name.clone(),
            self.timeout,
            self.max_result,
        ));
        let (running, child) =
            supervisor::connect(&upstream, &self.launch)
                .await
                .map_err(|problem| ServerError::Upstream {
                    upstream: self.name.clone(),
                    problem,
                })?;
        let listed = supervisor::list(&upstream, running.peer())
            .await
            .map_err(|problem| ServerError::Upstream {
                upstream: self.name.clone(),
                problem,
            })?;
        let mut server = Server::new(self.name.clone(), "upstream")
            // The proxy's own limit answers first, naming the upstream.
            .timeout(self.timeout + Duration::from_secs(1));
        for tool in listed {
            server = server.tool(proxied_call::tool(&upstream, tool));
        }
        let server = server.build()?;
        let supervision = supervisor::Supervision {
            upstream,
            launch: self.launch,
            list: server.tool_list().downgrade(),
            backoff: self.backoff,
        };
        tokio::spawn(supervision.run(running, child));
        Ok(server)
    }
}

/// A progress notification of the upstream, as the call that asked for it reports it.
pub(crate) type Progress = (f64, Option<f64>, Option<String>);

/// How many of a call's progress reports may wait to be sent to its client; an upstream
/// that sends more at once than the client takes loses the extra ones.
pub(crate) const PROGRESS_QUEUE: usize = 64;

/// What the calls, the connection and its watcher share about one upstream.
#[derive(Debug)]
pub(crate) struct Upstream {
    /// The name errors and the log give it.
    pub(crate) name: String,
    pub(crate) timeout: Duration,
    pub(crate) max_result: usize,
    /// The live connection, `None` while the child is being restarted.
    pub(crate) peer: watch::Sender<Option<Peer<RoleClient>>>,
    /// Where each call in flight wants its progress, by the token it was sent with: a
    /// queue of [`PROGRESS_QUEUE`] reports, past which a flood is dropped.
    pub(crate) progress: Mutex<HashMap<ProgressToken, mpsc::Sender<Progress>>>,
    /// Told when the upstream says its tools changed.
    pub(crate) tools_changed: Notify,
    /// What the upstream listed last, by name.
    pub(crate) listed: Mutex<HashMap<String, Tool>>,
}

impl Upstream {
    pub(crate) fn new(name: String, timeout: Duration, max_result: usize) -> Self {
        Self {
            name,
            timeout,
            max_result,
            peer: watch::Sender::new(None),
            progress: Mutex::default(),
            tools_changed: Notify::new(),
            listed: Mutex::default(),
        }
    }
}

/// The lock, whether or not a holder panicked: what it guards stays consistent.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}
