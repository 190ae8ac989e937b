//! A tool of the upstream as this server serves it: a run-time tool whose handler sends
//! the call over the upstream's connection, passes its progress to the caller, cancels it
//! upstream when the caller does or time runs out, and turns what comes back (or does
//! not) into a result or an error naming the upstream.

use std::sync::Arc;

use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CallToolResult, CancelledNotificationParam,
    ClientRequest, ProgressToken, RequestId, ServerResult, Tool,
};
use rmcp::service::{Peer, PeerRequestOptions, RoleClient, ServiceError};
use serde_json::{Map, Value};
use tokio::sync::mpsc;
use tokio::time::Instant;

use crate::call::arguments::Arguments;
use crate::call::context::Context;
use crate::model::ToolResult;
use crate::outcome::error::ToolError;
use crate::protocol::bridge;
use crate::registry::runtime_tool::RuntimeTool;

use super::{Upstream, lock};

/// The run-time tool that serves `tool` of `upstream`: its listing as the upstream gives
/// it, its calls forwarded.
pub(super) fn tool(upstream: &Arc<Upstream>, tool: Tool) -> RuntimeTool {
    let info = bridge::tool_info(tool);
    let description = (info.description.clone())
        .filter(|text| !text.trim().is_empty())
        .unwrap_or_else(|| format!("A tool of the upstream server `{}`.", upstream.name));
    let mut served = RuntimeTool::new(info.name.clone(), description)
        .origin(format!("the upstream server `{}`", upstream.name))
        .foreign_name()
        .input_schema(Value::Object(info.input_schema));
    if let Some(title) = info.title {
        served = served.title(title);
    }
    if let Some(schema) = info.output_schema {
        served = served.output_schema(Value::Object(schema));
    }
    if let Some(hints) = info.annotations {
        let set =
            |tool: RuntimeTool, hint: Option<bool>, f: fn(RuntimeTool, bool) -> RuntimeTool| {
                match hint {
                    Some(hint) => f(tool, hint),
                    None => tool,
                }
            };
        served = set(served, hints.read_only, RuntimeTool::read_only);
        served = set(served, hints.destructive, RuntimeTool::destructive);
        served = set(served, hints.idempotent, RuntimeTool::idempotent);
        served = set(served, hints.open_world, RuntimeTool::open_world);
    }
    let upstream = Arc::clone(upstream);
    let name: Arc<str> = info.name.into();
    served.handler(move |args: Arguments, ctx: Context| {
        let (upstream, name) = (Arc::clone(&upstream), Arc::clone(&name));
        let args = args.as_map().clone();
        async move { call(&upstream, &name, args, &ctx).await }
    })
}

/// Sends the call upstream and waits for its answer, within the upstream's time limit.
async fn call(
    upstream: &Upstream,
    name: &str,
    args: Map<String, Value>,
    ctx: &Context,
) -> Result<ToolResult, ToolError> {
    let deadline = Instant::now() + upstream.timeout;
    let late = || {
        ToolError::new(format!(
            "the upstream server `{}` did not answer within {:?}",
            upstream.name, upstream.timeout
        ))
    };
    let mut connected = upstream.peer.subscribe();
    let peer = tokio::select! {
        peer = connected.wait_for(Option::is_some) => peer
            .ok()
            .and_then(|peer| peer.clone())
            .ok_or_else(|| closed(upstream))?,
        () = tokio::time::sleep_until(deadline) => return Err(late()),
        () = ctx.cancelled() => return Err(cancelled(upstream)),
    };
    let request = ClientRequest::CallToolRequest(CallToolRequest::new(
        CallToolRequestParams::new(name.to_owned()).with_arguments(args),
    ));
    let handle = peer
        .send_cancellable_request(request, PeerRequestOptions::no_options())
        .await
        .map_err(|_| closed(upstream))?;
    let (sender, mut progress) = mpsc::channel(super::PROGRESS_QUEUE);
    let _route = Route::new(upstream, handle.progress_token.clone(), sender);
    let mut pending = Pending {
        peer: Some(handle.peer.clone()),
        id: handle.id.clone(),
    };
    let mut answer = handle.rx;
    let answer = loop {
        tokio::select! {
            Some(report) = progress.recv() => send_progress(ctx, report).await,
            answer = &mut answer => break answer,
            () = tokio::time::sleep_until(deadline) => return Err(late()),
            () = ctx.cancelled() => return Err(cancelled(upstream)),
        }
    };
    pending.peer = None;
    // What came before the answer is sent before it: the reports queued by now (at most
    // the queue's length, however many the upstream sends). rmcp hands each notification
    // to a task of its own, so that one sent just before the answer may still be on its way.
    tokio::task::yield_now().await;
    while let Ok(report) = progress.try_recv() {
        send_progress(ctx, report).await;
    }
    match answer {
        Err(_) => Err(closed(upstream)),
        Ok(Err(error)) => Err(refused(upstream, error)),
        Ok(Ok(ServerResult::CallToolResult(result))) => complete(upstream, result),
        Ok(Ok(_)) => Err(ToolError::new(format!(
            "the upstream server `{}` answered with a result that is not a tool's (an \
             input-required or task result, which a proxy does not carry yet)",
            upstream.name
        ))),
    }
}

/// Reports one of the upstream's progress notifications to the caller.
async fn send_progress(ctx: &Context, (done, total, message): super::Progress) {
    ctx.forward_progress(done, total, message).await;
}

/// A result the upstream sent: passed on, or, an error result, failed with its text (which
/// the masking of this server's tool errors reads before the client does).
fn complete(upstream: &Upstream, result: CallToolResult) -> Result<ToolResult, ToolError> {
    let size = serde_json::to_vec(&result).map_or(usize::MAX, |bytes| bytes.len());
    if size > upstream.max_result {
        return Err(ToolError::new(format!(
            "the upstream server `{}` answered with {size} bytes, more than the {} a result \
             may have",
            upstream.name, upstream.max_result
        )));
    }
    let result = ToolResult::from(result);
    if !result.is_error {
        return Ok(result);
    }
    let text = result.text();
    Err(ToolError::new(format!(
        "the upstream server `{}` reported: {}",
        upstream.name,
        if text.is_empty() {
            "a failure without text"
        } else {
            &text
        }
    )))
}

fn closed(upstream: &Upstream) -> ToolError {
    ToolError::new(format!(
        "the upstream server `{}` closed its connection during the call; it is being \
         restarted, try again",
        upstream.name
    ))
}

fn cancelled(upstream: &Upstream) -> ToolError {
    ToolError::new(format!(
        "the call to the upstream server `{}` was cancelled",
        upstream.name
    ))
}

fn refused(upstream: &Upstream, error: ServiceError) -> ToolError {
    let reason = match error {
        ServiceError::McpError(error) => error.message.into_owned(),
        _ => "its answer could not be read".to_owned(),
    };
    ToolError::new(format!(
        "the upstream server `{}` refused the call: {reason}",
        upstream.name
    ))
}

/// A call's place among the upstream's progress routes, removed with it.
struct Route<'a> {
    upstream: &'a Upstream,
    token: ProgressToken,
}

impl<'a> Route<'a> {
    fn new(
        upstream: &'a Upstream,
        token: ProgressToken,
        sender: mpsc::Sender<super::Progress>,
    ) -> Self {
        lock(&upstream.progress).insert(token.clone(), sender);
        Self { upstream, token }
    }
}

impl Drop for Route<'_> {
    fn drop(&mut self) {
        lock(&self.upstream.progress).remove(&self.token);
    }
}

/// A request sent upstream and not answered: cancelled there when the call ends first (the
/// caller cancelled, time ran out, the call's future was dropped).
struct Pending {
    peer: Option<Peer<RoleClient>>,
    id: RequestId,
}

impl Drop for Pending {
    fn drop(&mut self) {
        let Some(peer) = self.peer.take() else {
            return;
        };
        let notice = CancelledNotificationParam::new(
            Some(self.id.clone()),
            Some("the caller's call ended".to_owned()),
        );
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                let _ = peer.notify_cancelled(notice).await;
            });
        }
    }
}
