//! rmcp's macros served over Streamable HTTP as rmcp's examples serve them: what the
//! HTTP benchmarks set ours against.

use std::future::Future;

use axum::serve::Listener;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio_util::sync::CancellationToken;

use crate::rmcp_macros::RmcpStored;

/// rmcp's service over `RmcpStored` on `listener`, mounted and served as rmcp's
/// `counter_streamhttp` example does, until `stop` completes.
pub async fn serve<L>(
    listener: L,
    stateless: bool,
    stop: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()>
where
    L: Listener,
    L::Addr: std::fmt::Debug,
{
    let cancel = CancellationToken::new();
    let mut config =
        StreamableHttpServerConfig::default().with_cancellation_token(cancel.child_token());
    if stateless {
        // What `Server::stateless(true)` gives rmcp on ours' side.
        config = config
            .with_legacy_session_mode(false)
            .with_json_response(true)
            .with_sse_keep_alive(None);
    }
    // Built once and cloned for each session (stateless: each request), so the router is
    // kept as in the "router kept" column; rmcp's examples build one per session.
    let server = RmcpStored::new();
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        LocalSessionManager::default().into(),
        config,
    );
    let router = axum::Router::new().nest_service("/mcp", service);
    axum::serve(listener, router)
        .with_graceful_shutdown(async move {
            stop.await;
            cancel.cancel();
        })
        .await?;
    Ok(())
}
