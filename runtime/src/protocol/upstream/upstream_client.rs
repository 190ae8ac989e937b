//! This server as the upstream's client: what it hears from the upstream, sent where it
//! belongs. Progress goes to the call that asked for it; a change of tools to the
//! supervisor; a log message to this program's log. It asks for no capability, so a
//! request for sampling, elicitation or roots is refused by rmcp's defaults.

use std::sync::Weak;

use rmcp::ClientHandler;
#[allow(deprecated)] // Logging (SEP-2577): an upstream of 2025-11-25 still sends it.
use rmcp::model::LoggingMessageNotificationParam;
use rmcp::model::{ClientConfig, ProgressNotificationParam};
use rmcp::service::{NotificationContext, RoleClient};

use crate::outcome::masking;

use super::{Upstream, lock};

/// The handler of the connection to one upstream.
#[derive(Debug, Clone)]
pub(crate) struct UpstreamClient {
    upstream: Weak<Upstream>,
}

impl UpstreamClient {
    pub(super) fn new(upstream: Weak<Upstream>) -> Self {
        Self { upstream }
    }
}

impl ClientHandler for UpstreamClient {
    fn get_info(&self) -> ClientConfig {
        let mut info = ClientConfig::default();
        info.client_info.name = "mcp-tool-proxy".to_owned();
        info.client_info.version = env!("CARGO_PKG_VERSION").to_owned();
        info
    }

    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let Some(upstream) = self.upstream.upgrade() else {
            return;
        };
        // A token no call of ours holds (a stale or a forged one) goes nowhere, and a
        // flood past the call's queue is dropped rather than kept.
        if let Some(call) = lock(&upstream.progress).get(&params.progress_token) {
            let _ = call.try_send((params.progress, params.total, params.message));
        }
    }

    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        if let Some(upstream) = self.upstream.upgrade() {
            upstream.tools_changed.notify_one();
        }
    }

    #[allow(deprecated)] // Logging (SEP-2577): an upstream of 2025-11-25 still sends it.
    async fn on_logging_message(
        &self,
        params: LoggingMessageNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let Some(upstream) = self.upstream.upgrade() else {
            return;
        };
        let text = match &params.data {
            serde_json::Value::String(text) => text.clone(),
            other => other.to_string(),
        };
        let text = masking::mask_failure(&text);
        tracing::info!(
            target: "mcp_tool::upstream",
            upstream = %upstream.name,
            level = ?params.level,
            "{text}"
        );
    }
}
