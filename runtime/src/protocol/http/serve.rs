//! Serving the endpoint on a listener of its own: each connection served by `hyper` with
//! a header-read timeout, at most the server's maximum of connections at once, and a
//! graceful shutdown.
//!
//! A connection that sends no complete request head within the timeout, or stays idle
//! between requests as long, is closed by `hyper`'s timer; the body's own timeout is the
//! service's ([`HttpService`]). Past the maximum, no connection is accepted until one
//! closes: the ones waiting stay in the operating system's queue, costing the server
//! nothing.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use super::HttpService;
use crate::outcome::error::ServerError;
use crate::server::builder::Server;
use crate::server::tool_server::ToolServer;

impl ToolServer {
    /// Serves Streamable HTTP at `/mcp` on `listener` until `shutdown` completes; then
    /// takes no new connection, lets the requests being answered finish within the
    /// server's [`shutdown_grace`](crate::Server::shutdown_grace), and returns.
    ///
    /// ```no_run
    /// # /// Adds two integers and returns their sum.
    /// # #[mcp_tool::mcp_tool]
    /// # fn add(a: i64, b: i64) -> i64 { a + b }
    /// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
    /// let server = mcp_tool::Server::from_registry("calculator", "1.0.0").build()?;
    /// let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    /// println!("serving at http://{}/mcp", listener.local_addr()?);
    /// let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    /// let serving = tokio::spawn(server.serve_http(listener, async {
    ///     let _ = stopped.await;
    /// }));
    /// // ... later:
    /// let _ = stop.send(());
    /// serving.await??;
    /// # Ok(())
    /// # }
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    pub async fn serve_http(
        self,
        listener: tokio::net::TcpListener,
        shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServerError> {
        serve(self, listener, shutdown).await
    }
}

/// Serves `server` at `/mcp` on `listener` until `shutdown` completes, then lets the
/// requests being answered finish within the server's grace period.
pub(crate) async fn serve(
    server: ToolServer,
    listener: TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServerError> {
    let stop = CancellationToken::new();
    let service = HttpService::new(&server, stop.clone());
    let in_flight = service.in_flight().clone();
    let options = server.http_options();
    let connections = Connections {
        app: routes(
            service,
            options.authorization.is_some(),
            options.card.is_some(),
        ),
        header_read_timeout: options.header_read_timeout,
        slots: Arc::new(Semaphore::new(options.max_connections.max(1))),
        open: TaskTracker::new(),
    };
    let draining = CancellationToken::new();
    let grace = server.limits().grace;
    tokio::spawn({
        let (draining, stop) = (draining.clone(), stop.clone());
        async move {
            shutdown.await;
            // No new connections; the requests being answered get the grace period.
            draining.cancel();
            in_flight.close();
            if tokio::time::timeout(grace, in_flight.wait()).await.is_err() {
                tracing::warn!(
                    requests = in_flight.len(),
                    grace = ?grace,
                    "requests still running after the grace period end without a reply"
                );
            }
            stop.cancel();
        }
    });
    connections.accept(&listener, &draining).await;
    connections.open.close();
    tokio::select! {
        () = connections.open.wait() => {}
        () = async {
            stop.cancelled().await;
            tokio::time::sleep(Duration::from_secs(1)).await;
        } => {}
    }
    Ok(())
}

/// The endpoint at `/mcp`, with a card its server card at `/mcp/server-card`, and with
/// authorization its protected resource metadata at the well-known path, alone and
/// followed by `/mcp`.
fn routes(service: HttpService, authorization: bool, card: bool) -> axum::Router {
    let mut app = axum::Router::new().route_service("/mcp", service.clone());
    if card {
        app = app.route_service(&format!("/mcp{}", super::card::SUFFIX), service.clone());
    }
    if authorization {
        let metadata = super::guard::METADATA_PATH;
        app = app
            .route_service(metadata, service.clone())
            .route_service(&format!("{metadata}/mcp"), service);
    }
    app
}

/// The connections of one [`serve`]: how each is served, and how many may be open.
struct Connections {
    app: axum::Router,
    header_read_timeout: Duration,
    /// A permit for each connection open; accepting waits for one.
    slots: Arc<Semaphore>,
    open: TaskTracker,
}

impl Connections {
    /// Accepts connections, each once a slot is free, until `draining` is cancelled.
    async fn accept(&self, listener: &TcpListener, draining: &CancellationToken) {
        loop {
            let slot = tokio::select! {
                slot = Arc::clone(&self.slots).acquire_owned() => slot,
                () = draining.cancelled() => return,
            };
            // The semaphore is never closed.
            let Ok(slot) = slot else { return };
            let accepted = tokio::select! {
                accepted = listener.accept() => accepted,
                () = draining.cancelled() => return,
            };
            match accepted {
                Ok((tcp, address)) => self.serve(tcp, address, slot, draining.clone()),
                Err(error) => refused(error).await,
            }
        }
    }

    /// Serves one connection on a task of its own, which holds `slot` until it closes.
    fn serve(
        &self,
        tcp: TcpStream,
        address: std::net::SocketAddr,
        slot: OwnedSemaphorePermit,
        draining: CancellationToken,
    ) {
        // A reply written in two pieces is not held back for the client's delayed ACK.
        if let Err(error) = tcp.set_nodelay(true) {
            tracing::debug!(%error, "could not set TCP_NODELAY on a connection");
        }
        let mut builder = http1::Builder::new();
        builder
            .timer(TokioTimer::new())
            .header_read_timeout(self.header_read_timeout);
        // The client's address, where axum's `ConnectInfo` puts it, for the pipeline.
        let app = self
            .app
            .clone()
            .layer(axum::Extension(axum::extract::ConnectInfo(address)));
        let service = TowerToHyperService::new(app);
        self.open.spawn(async move {
            let _slot = slot;
            let connection = builder.serve_connection(TokioIo::new(tcp), service);
            let mut connection = std::pin::pin!(connection);
            let served = tokio::select! {
                served = connection.as_mut() => served,
                () = draining.cancelled() => {
                    // The request being answered finishes; an idle connection closes now.
                    connection.as_mut().graceful_shutdown();
                    connection.await
                }
            };
            if let Err(error) = served {
                tracing::debug!(%error, "an HTTP connection ended with an error");
            }
        });
    }
}

/// Waits after a failed `accept`: at once for a connection the client gave up on, a
/// second when the process is out of files or memory, so that the loop does not spin.
async fn refused(error: std::io::Error) {
    use std::io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    if !matches!(
        error.kind(),
        ConnectionAborted | ConnectionRefused | ConnectionReset
    ) {
        tracing::error!(%error, "could not accept a connection; trying again in a second");
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

/// Completes on Ctrl-C, or on SIGTERM where there are signals.
pub(crate) async fn shutdown_signal() {
    let interrupt = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {}
        () = terminate => {}
    }
    tracing::info!("shutting down: no new requests; running ones may finish");
}

impl Server {
    /// Builds the server and serves Streamable HTTP at `http://ADDRESS/mcp` until Ctrl-C
    /// or SIGTERM, from a program that runs its own async runtime; then takes no new
    /// request and gives the running ones the [`shutdown_grace`](Self::shutdown_grace)
    /// to finish. It prints the address it serves at on stderr. Bind to `127.0.0.1`
    /// (the loopback interface) unless clients on other machines must reach it, and
    /// then list the names they use with [`allowed_hosts`](Self::allowed_hosts).
    ///
    /// ```no_run
    /// #[tokio::main]
    /// async fn main() -> Result<(), mcp_tool::ServerError> {
    ///     mcp_tool::Server::from_registry("line-counter", env!("CARGO_PKG_VERSION"))
    ///         .serve_http("127.0.0.1:8000")
    ///         .await
    /// }
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    pub async fn serve_http(self, address: &str) -> Result<(), ServerError> {
        crate::outcome::logging::init_unless_set();
        let name = self.name.clone();
        let stateless = self.settings.http.stateless;
        let server = self.build()?;
        let listener = tokio::net::TcpListener::bind(address)
            .await
            .map_err(|source| ServerError::Bind {
                address: address.to_owned(),
                source,
            })?;
        let local = listener
            .local_addr()
            .map_err(|e| ServerError::Transport(e.to_string()))?;
        let mode = if stateless {
            "stateless"
        } else {
            "with sessions"
        };
        eprintln!("{name}: serving MCP over HTTP ({mode}) at http://{local}/mcp; Ctrl-C stops");
        server.serve_http(listener, shutdown_signal()).await
    }

    /// [`serve_http`](Self::serve_http) on an async runtime of its own, with a worker
    /// thread per core: a plain `fn main` can serve HTTP.
    ///
    /// ```no_run
    /// fn main() -> Result<(), mcp_tool::ServerError> {
    ///     mcp_tool::Server::from_registry("line-counter", env!("CARGO_PKG_VERSION"))
    ///         .run_http("127.0.0.1:8000")
    /// }
    /// ```
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    pub fn run_http(self, address: &str) -> Result<(), ServerError> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .map_err(ServerError::Runtime)?;
        let served = runtime.block_on(self.serve_http(address));
        runtime.shutdown_background();
        served
    }
}
