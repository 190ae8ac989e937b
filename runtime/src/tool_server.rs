//! A built server: every tool's listing computed once and shared by every session,
//! the lookup of a called tool, and `rmcp`'s `ServerHandler` over them.

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ErrorData, ListToolsResult,
    PaginatedRequestParams, ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::{RequestContext, RunningService};
use rmcp::{RoleServer, ServerHandler, ServiceExt};
use serde_json::Value;

use crate::call::{CallInput, Outcome, ToolFuture};
use crate::error::ServerError;
use crate::failure::Failure;
use crate::failure_report::{self, Detail};
use crate::lines::LineTransport;
use crate::masking;
use crate::output::ToolReply;
use crate::registry::ToolEntry;
use crate::schema;
use crate::suggest;

/// A built server: the tool list computed once, shared by every session.
#[derive(Clone, Debug)]
pub struct ToolServer {
    shared: Arc<Shared>,
}

#[derive(Debug)]
struct Shared {
    info: ServerConfig,
    tools: Vec<BuiltTool>,
    /// Tool names with their position in `tools`, sorted by name.
    index: Vec<(&'static str, usize)>,
    listing: Vec<Tool>,
    detail: Detail,
    timeout: Option<Duration>,
}

#[derive(Debug)]
struct BuiltTool {
    entry: &'static ToolEntry,
    tool: Tool,
    wrap_output: bool,
}

impl BuiltTool {
    fn new(entry: &'static ToolEntry) -> Self {
        let spec = entry.spec();
        let mut tool = Tool::new(
            spec.name,
            spec.description,
            schema::input_schema(spec.params),
        );
        let mut wrap_output = false;
        if let Some((output, wrap)) = schema::output_schema(spec.output_schema) {
            tool = tool.with_raw_output_schema(Arc::new(output));
            wrap_output = wrap;
        }
        if let Some(title) = spec.title {
            tool = tool.with_title(title);
        }
        if spec.read_only.is_some()
            || spec.destructive.is_some()
            || spec.idempotent.is_some()
            || spec.open_world.is_some()
        {
            tool = tool.with_annotations(ToolAnnotations::from_raw(
                None,
                spec.read_only,
                spec.destructive,
                spec.idempotent,
                spec.open_world,
            ));
        }
        Self {
            entry,
            tool,
            wrap_output,
        }
    }

    fn reply(&self, reply: ToolReply) -> CallToolResult {
        match reply {
            ToolReply::Content(result) => result,
            ToolReply::Structured(value) => {
                let value = if self.wrap_output {
                    let mut object = serde_json::Map::with_capacity(1);
                    object.insert("result".into(), value);
                    Value::Object(object)
                } else {
                    value
                };
                CallToolResult::structured(value)
            }
        }
    }
}

impl ToolServer {
    pub(crate) fn new(
        entries: Vec<&'static ToolEntry>,
        info: ServerConfig,
        detail: Detail,
        timeout: Option<Duration>,
    ) -> Self {
        let tools: Vec<BuiltTool> = entries.iter().map(|entry| BuiltTool::new(entry)).collect();
        // Looked up on every call: comparing names beats hashing one.
        let mut index: Vec<(&'static str, usize)> = tools
            .iter()
            .enumerate()
            .map(|(position, tool)| (tool.entry.name(), position))
            .collect();
        index.sort_unstable();
        let listing = tools.iter().map(|t| t.tool.clone()).collect();
        Self {
            shared: Arc::new(Shared {
                info,
                tools,
                index,
                listing,
                detail,
                timeout,
            }),
        }
    }

    /// The tools this server lists, with their schemas, as clients see them.
    pub fn tools(&self) -> &[Tool] {
        &self.shared.listing
    }

    /// Serves one session over any `rmcp` transport (a duplex stream, a child's pipes, ...).
    pub async fn serve<T, E, A>(
        self,
        transport: T,
    ) -> Result<RunningService<RoleServer, Self>, ServerError>
    where
        T: rmcp::transport::IntoTransport<RoleServer, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        ServiceExt::serve(self, transport)
            .await
            .map_err(|e| ServerError::Transport(e.to_string()))
    }

    /// Serves over stdin and stdout until the client leaves.
    pub async fn serve_stdio(self) -> Result<(), ServerError> {
        self.serve_lines(tokio::io::stdin(), tokio::io::stdout())
            .await
    }

    /// Serves one session over any pair of byte streams that carry one JSON-RPC
    /// message a line, as stdio does: a pipe, a socket, an in-memory duplex. A line
    /// that is not JSON is answered with a `-32700` error (`"id": null`) and the
    /// session goes on.
    pub async fn serve_lines<R, W>(self, input: R, output: W) -> Result<(), ServerError>
    where
        R: tokio::io::AsyncRead + Unpin + Send + 'static,
        W: tokio::io::AsyncWrite + Unpin + Send + 'static,
    {
        let running = self.serve(LineTransport::new(input, output)).await?;
        running
            .waiting()
            .await
            .map(|_| ())
            .map_err(|e| ServerError::Transport(e.to_string()))
    }

    /// Runs one call outside any session, as `tools/call` would.
    pub async fn call(
        &self,
        name: &str,
        arguments: serde_json::Map<String, Value>,
    ) -> Result<CallToolResult, ErrorData> {
        let Some(tool) = self.find(name) else {
            return Err(self.unknown_tool(name));
        };
        let input = CallInput::new(arguments);
        let mut running = (tool.entry.spec().call)(&input);
        if let Some(failure) = running.ended() {
            return Ok(self.answer(tool, Err(failure), &input));
        }
        let outcome = match self.shared.timeout {
            Some(limit) => timed(limit, &mut running).await,
            None => (&mut running).await,
        };
        Ok(self.answer(tool, outcome, &input))
    }

    /// The reply to a call that ended with `outcome`.
    #[inline]
    fn answer(&self, tool: &BuiltTool, outcome: Outcome, input: &CallInput) -> CallToolResult {
        match outcome {
            Ok(reply) => tool.reply(reply),
            Err(failure) => failure_report::failure(
                tool.entry.name(),
                failure,
                input.args(),
                self.shared.detail,
            ),
        }
    }

    #[inline]
    fn find(&self, name: &str) -> Option<&BuiltTool> {
        let index = &self.shared.index;
        // A few names compare fastest one by one; many, by halves.
        let found = if index.len() <= 16 {
            index.iter().position(|(known, _)| *known == name)
        } else {
            index.binary_search_by(|(known, _)| (*known).cmp(name)).ok()
        };
        self.shared.tools.get(index.get(found?)?.1)
    }

    #[cold]
    fn unknown_tool(&self, name: &str) -> ErrorData {
        unknown_tool(name, self.shared.index.iter().map(|(known, _)| *known))
    }
}

fn unknown_tool<'a>(name: &str, known: impl Iterator<Item = &'a str>) -> ErrorData {
    let suggestions = suggest::ranked(name, known);
    let hint = match suggestions.as_slice() {
        [] => String::new(),
        [one] => format!("; did you mean `{one}`?"),
        many => format!(
            "; did you mean one of {}?",
            many.iter()
                .take(3)
                .map(|s| format!("`{s}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    // The requested name is echoed only as a key the client chose, clipped.
    let shown: String = name.chars().take(64).collect();
    ErrorData::invalid_params(
        masking::mask_failure(&format!("unknown tool `{shown}`{hint}")).into_owned(),
        Some(serde_json::json!({ "suggestions": suggestions })),
    )
}

impl ServerHandler for ToolServer {
    fn get_info(&self) -> ServerConfig {
        self.shared.info.clone()
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        if request.as_ref().and_then(|r| r.cursor.as_ref()).is_some() {
            return Err(ErrorData::invalid_params(
                "invalid cursor: this server lists every tool in one page",
                None,
            ));
        }
        Ok(ListToolsResult::with_all_items(self.shared.listing.clone()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.find(name).map(|t| t.tool.clone())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // As `call`, inline: a call that ended before its tool ran awaits no future.
        let Some(tool) = self.find(&request.name) else {
            return Err(self.unknown_tool(&request.name));
        };
        let input = CallInput::new(request.arguments.unwrap_or_default());
        let mut running = (tool.entry.spec().call)(&input);
        if let Some(failure) = running.ended() {
            return Ok(self.answer(tool, Err(failure), &input).into());
        }
        let outcome = match self.shared.timeout {
            Some(limit) => timed(limit, &mut running).await,
            None => (&mut running).await,
        };
        Ok(self.answer(tool, outcome, &input).into())
    }
}

/// A running call, ended by `limit` if it takes longer. Boxed, so that the timer's
/// state does not weigh on calls without one.
async fn timed(limit: Duration, running: &mut ToolFuture) -> Outcome {
    Box::pin(tokio::time::timeout(limit, running))
        .await
        .unwrap_or(Err(Failure::Timeout(limit)))
}
