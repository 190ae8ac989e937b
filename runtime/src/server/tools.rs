//! An attribute tool as the server holds it (its listing and schemas computed once from
//! the attribute's entry), and a tool found for a call, with what its call needs: the
//! words of `tool_list.rs`.

use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;

use crate::call::arguments::CallArguments;
use crate::call::future::{CallInput, Outcome, ToolFuture};
use crate::call::param::{Leniency, ParamKind};
use crate::call::schema;
use crate::model::{Icon, TaskSupport, ToolAnnotations, ToolInfo};
use crate::outcome::argument_errors::ArgumentErrors;
use crate::outcome::error::CallError;
use crate::outcome::failure::Failure;
use crate::outcome::masking;
use crate::outcome::output::ToolReply;
use crate::outcome::suggest;
use crate::registry::runtime_tool::CheckedTool;
use crate::registry::tool::ToolEntry;
use crate::server::mount::MountedTool;

/// An attribute tool as the server holds it.
#[derive(Debug)]
pub(crate) struct AttributeTool {
    pub(crate) entry: &'static ToolEntry,
    /// What `tools/list` lists of it.
    pub(crate) info: ToolInfo,
    wrap_output: bool,
    /// The tool's own `timeout`, else the server's.
    pub(crate) timeout: Option<Duration>,
    /// Whether a call may run as a task.
    pub(crate) task: TaskSupport,
    /// Whether its task begins at `ctx.begin_task()`, not with the call.
    pub(crate) task_in_body: bool,
    /// Whether a call of it is answered by its reply alone: the tool takes no `Context`
    /// (so sends the client nothing while it runs) and never runs as a task.
    reply_only: bool,
    /// Which of its arguments may be converted before their check: `Own`, one that
    /// opted in; `Server`, one that follows the server's switch.
    converts: Converts,
}

/// Which arguments of an attribute tool may be converted before their check.
#[derive(Debug, Clone, Copy)]
struct Converts {
    own: bool,
    server: bool,
}

impl AttributeTool {
    pub(crate) fn new(entry: &'static ToolEntry, server_timeout: Option<Duration>) -> Self {
        let spec = entry.spec();
        let (output_schema, wrap_output) =
            match schema::output_schema(spec.output_schema, spec.schema) {
                Some((output, wrap)) => (Some(output), wrap),
                None => (None, false),
            };
        let has_annotations = spec.read_only.is_some()
            || spec.destructive.is_some()
            || spec.idempotent.is_some()
            || spec.open_world.is_some();
        let info = ToolInfo {
            name: spec.name.to_owned(),
            title: spec.title.map(str::to_owned),
            description: Some(spec.description.to_owned()),
            input_schema: schema::input_schema(spec.params, spec.schema),
            output_schema,
            annotations: has_annotations.then_some(ToolAnnotations {
                title: None,
                read_only: spec.read_only,
                destructive: spec.destructive,
                idempotent: spec.idempotent,
                open_world: spec.open_world,
            }),
            icons: spec.icons.iter().map(|src| Icon::new(*src)).collect(),
            meta: meta(entry),
            scopes: spec.scopes.iter().map(|s| (*s).to_owned()).collect(),
        };
        Self {
            entry,
            info,
            wrap_output,
            timeout: spec
                .timeout_ms
                .map(Duration::from_millis)
                .or(server_timeout),
            task: spec.task,
            task_in_body: spec.task_in_body,
            reply_only: spec.task == TaskSupport::Forbidden
                && !(spec.params.iter()).any(|param| matches!(param.kind, ParamKind::Context)),
            converts: Converts {
                own: (spec.params.iter()).any(|param| param.leniency == Leniency::Lenient),
                server: (spec.params.iter()).any(|param| {
                    matches!(param.kind, ParamKind::Argument) && param.leniency == Leniency::Server
                }),
            },
        }
    }

    /// The reply as the client reads it: a value that is not an object, wrapped as
    /// `{"result": ...}` when the output schema says so.
    fn reply(&self, reply: ToolReply) -> ToolReply {
        match reply {
            ToolReply::Structured(value) if self.wrap_output => {
                let mut object = serde_json::Map::with_capacity(1);
                object.insert("result".into(), value);
                ToolReply::Structured(Value::Object(object))
            }
            reply => reply,
        }
    }
}

/// A tool's `_meta`: the attribute's `meta`, with its tags under `"mcp-tool/tags"`.
fn meta(entry: &ToolEntry) -> Option<serde_json::Map<String, Value>> {
    let spec = entry.spec();
    let mut meta = match spec.meta.map(serde_json::from_str::<Value>) {
        Some(Ok(Value::Object(meta))) => meta,
        // The attribute checked it; a hand-made entry may still be wrong.
        Some(_) => {
            tracing::warn!(
                tool = spec.name,
                "the tool's `meta` is not a JSON object: left out"
            );
            serde_json::Map::new()
        }
        None => serde_json::Map::new(),
    };
    if !spec.tags.is_empty() {
        meta.insert("mcp-tool/tags".to_owned(), spec.tags.into());
    }
    (!meta.is_empty()).then_some(meta)
}

/// A tool found for a call: an attribute tool, or a run-time tool held until the call
/// ends, with the arguments it took once started.
pub(crate) enum Found<'a> {
    Attribute(&'a AttributeTool),
    Runtime(RuntimeRef<'a>, Option<Arc<CallArguments>>),
    /// A tool of a mounted server, which runs the call itself.
    Mounted(Arc<MountedTool>),
}

/// A run-time tool found for a call: an initial one, borrowed from the table, or an
/// added one, shared, so that a call in flight outlives its removal.
pub(crate) enum RuntimeRef<'a> {
    Initial(&'a CheckedTool),
    Added(Arc<CheckedTool>),
}

impl std::ops::Deref for RuntimeRef<'_> {
    type Target = CheckedTool;

    #[inline]
    fn deref(&self) -> &CheckedTool {
        match self {
            RuntimeRef::Initial(tool) => tool,
            RuntimeRef::Added(tool) => tool,
        }
    }
}

impl Found<'_> {
    #[inline]
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Found::Attribute(tool) => tool.entry.name(),
            Found::Runtime(tool, _) => tool.name,
            Found::Mounted(tool) => tool.name,
        }
    }

    #[inline]
    pub(crate) fn timeout(&self) -> Option<Duration> {
        match self {
            Found::Attribute(tool) => tool.timeout,
            Found::Runtime(tool, _) => tool.timeout,
            // The mounted server keeps its own.
            Found::Mounted(_) => None,
        }
    }

    /// Whether a call of it is answered by its reply alone, nothing sent to the client
    /// while it runs: an attribute tool without a `Context` that never runs as a task.
    /// A run-time tool's handler is given a `Context`, so is never one.
    pub(crate) fn reply_only(&self) -> bool {
        matches!(self, Found::Attribute(tool) if tool.reply_only)
    }

    /// Whether a call may convert an argument before its check, on a server that serves
    /// lenient arguments (`server`) or not: a conversion is reported with the client's
    /// name, which only a session's request carries.
    pub(crate) fn may_convert(&self, server: bool) -> bool {
        match self {
            Found::Attribute(tool) => tool.converts.own || (server && tool.converts.server),
            Found::Runtime(..) | Found::Mounted(_) => true,
        }
    }

    /// Whether a call may run as a task.
    pub(crate) fn task(&self) -> TaskSupport {
        match self {
            Found::Attribute(tool) => tool.task,
            Found::Runtime(tool, _) => tool.task,
            // A mount carries no tasks: its calls are plain calls.
            Found::Mounted(_) => TaskSupport::Forbidden,
        }
    }

    /// Whether its task begins at `ctx.begin_task()`, not with the call.
    pub(crate) fn task_in_body(&self) -> bool {
        match self {
            Found::Attribute(tool) => tool.task_in_body,
            Found::Runtime(tool, _) => tool.task_in_body,
            Found::Mounted(_) => false,
        }
    }

    #[inline]
    pub(crate) fn start(&mut self, input: &mut CallInput<'_>) -> ToolFuture {
        match self {
            Found::Attribute(tool) => (tool.entry.spec().call)(input),
            Found::Runtime(tool, taken) => tool.start(input, taken),
            // `ToolServer::run_found` hands its call to its server before this.
            Found::Mounted(tool) => crate::call::future::fail(Failure::internal(format!(
                "the tool `{}` is answered by the server it is mounted from",
                tool.name
            ))),
        }
    }

    /// The call's arguments as sent, for the log of a failed call.
    pub(crate) fn args<'a>(
        &'a self,
        input: &'a CallInput<'_>,
    ) -> &'a serde_json::Map<String, Value> {
        match self {
            Found::Runtime(_, Some(taken)) => taken.args(),
            Found::Attribute(_) | Found::Runtime(_, None) | Found::Mounted(_) => input.args(),
        }
    }

    /// The outcome of a call that ran to its end: for a run-time tool, the faults its
    /// arguments were dropped with and no `finish` reported fail it, whatever its handler
    /// returned. A panic or a timeout stays what it is.
    #[inline]
    pub(crate) fn settle(&self, outcome: &mut Outcome) {
        if let Found::Runtime(_, Some(taken)) = self
            && let Some(errors) = taken.unreported()
        {
            settle(errors, outcome);
        }
    }

    #[inline]
    pub(crate) fn reply(&self, reply: ToolReply) -> ToolReply {
        match self {
            Found::Attribute(tool) => tool.reply(reply),
            // Its output schema is an object: nothing is wrapped.
            Found::Runtime(..) => reply,
            // Its server wrapped it.
            Found::Mounted(_) => reply,
        }
    }
}

/// A run-time tool's call whose arguments were dropped with faults unreported: see
/// [`Found::settle`].
#[cold]
#[inline(never)]
fn settle(errors: &ArgumentErrors, outcome: &mut Outcome) {
    if !matches!(outcome, Err(Failure::Panic { .. } | Failure::Timeout(_))) {
        *outcome = Err(Failure::Arguments(errors.clone()));
    }
}

pub(crate) fn unknown_tool<'a>(name: &str, known: impl Iterator<Item = &'a str>) -> CallError {
    let suggestions = suggest::ranked(name, known);
    let hint = suggest::did_you_mean(&suggestions);
    // The requested name is echoed only as a key the client chose, clipped.
    let shown: String = name.chars().take(64).collect();
    CallError::UnknownTool {
        name: name.to_owned(),
        message: masking::mask_failure(&format!("unknown tool `{shown}`{hint}")).into_owned(),
        suggestions: suggestions.into_iter().map(str::to_owned).collect(),
    }
}
