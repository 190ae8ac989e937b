//! The one connection to an upstream server: started, watched, restarted with backoff
//! when the child dies, and its tools listed again when they change.

use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rmcp::model::Tool;
use rmcp::service::{Peer, RoleClient, RunningService, ServiceExt};
use rmcp::transport::async_rw::AsyncRwTransport;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, ChildStderr, Command};

use crate::outcome::masking;
use crate::registry::runtime_tool::RuntimeTool;
use crate::registry::tool_name;
use crate::server::tool_list::WeakToolList;

use super::upstream_client::UpstreamClient;
use super::{Upstream, lock, proxied_call};

/// How long a connection must live for the next restart to wait the shortest pause again.
const HEALTHY: Duration = Duration::from_secs(60);

/// What runs the upstream: a command and its arguments.
#[derive(Debug, Clone)]
pub(super) struct Launch {
    pub(super) command: String,
    pub(super) args: Vec<String>,
}

/// The running connection, as rmcp keeps it.
pub(super) type Running = RunningService<RoleClient, UpstreamClient>;

/// Starts the child and initializes the connection, within the upstream's time limit.
pub(super) async fn connect(
    upstream: &Arc<Upstream>,
    launch: &Launch,
) -> Result<(Running, Child), String> {
    let mut child = Command::new(&launch.command)
        .args(&launch.args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .map_err(|error| {
            let command = masking::mask_failure(&launch.command).into_owned();
            format!("the command `{command}` does not start: {error}")
        })?;
    let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        return Err("the child's stdin or stdout is not piped".to_owned());
    };
    if let Some(stderr) = child.stderr.take() {
        tokio::spawn(log_stderr(upstream.name.clone(), stderr));
    }
    let transport =
        AsyncRwTransport::new_client(stdout, stdin).with_max_line_length(4 * upstream.max_result);
    let client = UpstreamClient::new(Arc::downgrade(upstream));
    match tokio::time::timeout(upstream.timeout, client.serve(transport)).await {
        Ok(Ok(running)) => Ok((running, child)),
        Ok(Err(error)) => Err(format!("it did not complete `initialize`: {error}")),
        Err(_) => Err(format!(
            "it did not answer `initialize` within {:?}",
            upstream.timeout
        )),
    }
}

/// The upstream's tools, as this server lists them: each one whose name the specification
/// allows (another is left out, with a warning in the log).
pub(super) async fn list(
    upstream: &Arc<Upstream>,
    peer: &Peer<RoleClient>,
) -> Result<Vec<Tool>, String> {
    let tools = match tokio::time::timeout(upstream.timeout, peer.list_all_tools()).await {
        Ok(Ok(tools)) => tools,
        Ok(Err(error)) => return Err(format!("it did not answer `tools/list`: {error}")),
        Err(_) => {
            return Err(format!(
                "it did not answer `tools/list` within {:?}",
                upstream.timeout
            ));
        }
    };
    let mut kept = Vec::with_capacity(tools.len());
    for tool in tools {
        match tool_name::foreign_problem(&tool.name) {
            Some(problem) => {
                tracing::warn!(upstream = %upstream.name, "a tool of the upstream is not served: {problem}")
            }
            None => kept.push(tool),
        }
    }
    *lock(&upstream.listed) = (kept.iter())
        .map(|tool| (tool.name.to_string(), tool.clone()))
        .collect();
    Ok(kept)
}

/// What watches one upstream's connection for as long as its server is served.
pub(super) struct Supervision {
    pub(super) upstream: Arc<Upstream>,
    pub(super) launch: Launch,
    /// The list of the server its tools are served by; gone once that server is.
    pub(super) list: WeakToolList,
    pub(super) backoff: (Duration, Duration),
}

impl Supervision {
    /// Serves the connection until it ends, then restarts the child after a pause, for
    /// as long as the server is served.
    pub(super) async fn run(self, mut running: Running, mut child: Child) {
        let mut pause = self.backoff.0;
        loop {
            let began = Instant::now();
            self.upstream
                .peer
                .send_replace(Some(running.peer().clone()));
            if !self.watch(running, &mut child).await {
                return;
            }
            self.upstream.peer.send_replace(None);
            if began.elapsed() >= HEALTHY {
                pause = self.backoff.0;
            }
            (running, child) = loop {
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(self.backoff.1);
                if self.list.upgrade().is_none() {
                    return;
                }
                let name = &self.upstream.name;
                match connect(&self.upstream, &self.launch).await {
                    Ok(connected) => {
                        tracing::info!(upstream = %name, "the upstream is restarted");
                        break connected;
                    }
                    Err(problem) => {
                        tracing::warn!(upstream = %name, "the upstream does not restart: {problem}")
                    }
                }
            };
            // What it serves may have changed while it was away.
            self.upstream.tools_changed.notify_one();
        }
    }

    /// Follows one connection until it ends (`true`) or the server is gone (`false`),
    /// listing the tools again each time the upstream says they changed.
    async fn watch(&self, running: Running, child: &mut Child) -> bool {
        let peer = running.peer().clone();
        let ended = running.waiting();
        tokio::pin!(ended);
        loop {
            tokio::select! {
                _ = &mut ended => break,
                () = self.upstream.tools_changed.notified() => {
                    let Some(list) = self.list.upgrade() else { return false };
                    self.relist(&peer, |tool| list.add(tool).is_ok(), |name| list.remove(name)).await;
                }
            }
        }
        let status = child.try_wait().ok().flatten();
        let _ = child.start_kill();
        tracing::warn!(
            upstream = %self.upstream.name,
            status = ?status,
            "the upstream's connection ended; it is restarted"
        );
        self.list.upgrade().is_some()
    }

    /// Lists the upstream's tools and brings the served ones in step: gone ones removed,
    /// new or changed ones (re)added.
    async fn relist(
        &self,
        peer: &Peer<RoleClient>,
        add: impl Fn(RuntimeTool) -> bool,
        remove: impl Fn(&str) -> bool,
    ) {
        let before = lock(&self.upstream.listed).clone();
        let tools = match list(&self.upstream, peer).await {
            Ok(tools) => tools,
            Err(problem) => {
                tracing::warn!(upstream = %self.upstream.name, "the upstream's tools are not listed again: {problem}");
                return;
            }
        };
        for name in before.keys() {
            if !tools.iter().any(|tool| tool.name == name.as_str()) {
                remove(name);
            }
        }
        for tool in tools {
            if before.get(tool.name.as_ref()) == Some(&tool) {
                continue;
            }
            remove(&tool.name);
            let name = tool.name.to_string();
            if !add(proxied_call::tool(&self.upstream, tool)) {
                tracing::warn!(upstream = %self.upstream.name, tool = %name, "a tool of the upstream is not served");
            }
        }
    }
}

/// Passes each line the child writes to its standard error to the log, masked.
async fn log_stderr(upstream: String, stderr: ChildStderr) {
    let mut lines = BufReader::new(stderr).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        let line = masking::mask_failure(&line);
        tracing::info!(target: "mcp_tool::upstream", upstream = %upstream, "{line}");
    }
}
