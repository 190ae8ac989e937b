//! A built server: every tool's listing computed once and shared by every session,
//! the lookup of a called tool, and the call of one.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use serde_json::Value;
use tokio::sync::Semaphore;

use crate::call::future::{CallInput, Outcome};
use crate::call::schema::profiles;
use crate::call::session::{Outbox, Request};
use crate::call::state::StateMap;
use crate::model::{
    Content, PromptInfo, PromptResult, ResourceContents, ResourceInfo, ResourceTemplateInfo,
    SchemaProfile, ToolInfo, ToolResult,
};
use crate::outcome::error::{CallError, INTERNAL_ERROR, ServerError};
use crate::outcome::failure::Failure;
use crate::outcome::failure_report::{self, Detail, Subject};
use crate::outcome::log_filter::LogFilter;
use crate::outcome::output::ToolReply;
use crate::registry::runtime_tool::RuntimeTool;
use crate::registry::tool::ToolEntry;
use crate::server::catalog::Catalog;
use crate::server::driver;
use crate::server::invoke::Scope;
use crate::server::listeners::Listener;
use crate::server::mount::MountedTool;
use crate::server::pipeline::Layers;
#[cfg(feature = "http")]
use crate::server::settings::HttpOptions;
use crate::server::settings::{Limits, ProfileChoice, Rounds, Settings};

use crate::server::derived::Derived;
#[cfg(feature = "redis")]
use crate::server::fanout::{Change, Fanout};
use crate::server::tasks::Tasks;
use crate::server::tool_list::ToolList;
use crate::server::tools::Found;

/// A built server: the tool list computed once, shared by every session.
///
/// Serve it with [`serve_stdio`](Self::serve_stdio) or
/// [`serve_lines`](Self::serve_lines); call its tools directly with
/// [`call`](Self::call).
///
/// It implements rmcp's `ServerHandler` trait (reached through `mcp_tool::rmcp`, with the
/// feature `rmcp`), so a program may hand it to a transport of rmcp's that mcp-tool does
/// not wrap; that use is outside this crate's compatibility promise, as everything under
/// `mcp_tool::rmcp` is.
#[derive(Clone, Debug)]
pub struct ToolServer {
    pub(crate) shared: Arc<Shared>,
    /// The session's `logging/setLevel`; each session served gets its own.
    pub(crate) log_filter: LogFilter,
    /// Which session this is, for its subscriptions to resources.
    pub(crate) session: u64,
    /// The request this handle answers has passed the request pipeline.
    pub(crate) piped: bool,
    /// Where the session's notifications are written, when its transport is ours.
    pub(crate) outbox: Option<Arc<dyn Outbox>>,
}

#[derive(Debug)]
pub(crate) struct Shared {
    /// The server's name, version and instructions.
    pub(crate) about: About,
    /// The protocol layer's own form of what the server says of itself, made once.
    pub(crate) info: Derived,
    /// The tools listed now: `tools` until one is added or removed.
    pub(crate) list: ToolList,
    /// The servers mounted into this one, in the order mounted: a call may be theirs.
    pub(crate) mounts: Vec<ToolServer>,
    pub(crate) detail: Detail,
    /// Whether arguments sent as another JSON type are converted, unless a tool keeps
    /// them exact.
    pub(crate) lenient: bool,
    /// The server's time limit for a call, which prompts and resources keep to.
    pub(crate) timeout: Option<Duration>,
    pub(crate) limits: Limits,
    pub(crate) state: StateMap,
    /// The prompts and the resources.
    pub(crate) catalog: Catalog,
    /// The id of the last session begun.
    pub(crate) sessions: AtomicU64,
    /// `max_concurrent_calls`: a permit for each call a tool runs; `None` without a limit.
    pub(crate) calls: Option<Semaphore>,
    /// How the rounds of a call are carried (protocol 2026-07-28).
    pub(crate) rounds: Rounds,
    /// The protocol layer's seal of `requestState`, made on first use.
    pub(crate) seal: Derived,
    /// The server's tasks, when it serves them.
    pub(crate) tasks: Option<Arc<Tasks>>,
    /// The request pipeline's layers; empty, it is skipped.
    pub(crate) layers: Layers,
    /// Where notifications are shared with the server's other replicas, when they are.
    #[cfg(feature = "redis")]
    fanout: Option<Arc<Fanout>>,
    /// Which schema profile each client is shown.
    pub(crate) profiles: ProfileChoice,
    #[cfg(feature = "http")]
    http: HttpOptions,
}

impl ToolServer {
    /// A server of the attribute's tools `entries`, the run-time tools `added`, and the
    /// tools `mounted` of the servers `mounts`.
    pub(crate) fn new(
        (entries, added, mounted, mounts): Tools,
        catalog: Catalog,
        about: About,
        mut settings: Settings,
    ) -> Result<Self, ServerError> {
        let timeout = settings.timeout;
        let list = ToolList::new(&entries, added, mounted, timeout)?;
        check_profile(&list, settings.profiles.server)?;
        // A tool asks for `State<ToolList>` to add or remove tools.
        settings.state.insert(list.clone());
        #[cfg(feature = "redis")]
        let fanout = (settings.notifications.take()).map(|shared| Arc::new(Fanout::new(shared)));
        #[cfg(feature = "redis")]
        if let Some(fanout) = &fanout {
            list.share_through(Arc::clone(fanout));
        }
        let server = Self {
            shared: Arc::new(Shared {
                about,
                info: Derived::default(),
                list,
                mounts,
                detail: settings.detail,
                lenient: settings.lenient,
                timeout,
                limits: settings.limits,
                state: settings.state,
                catalog,
                sessions: AtomicU64::new(0),
                calls: settings.max_calls.map(Semaphore::new),
                rounds: settings.rounds,
                seal: Derived::default(),
                tasks: (settings.tasks.enabled).then(|| Arc::new(Tasks::new(settings.tasks))),
                layers: settings.layers,
                #[cfg(feature = "redis")]
                fanout,
                profiles: settings.profiles,
                #[cfg(feature = "http")]
                http: settings.http,
            }),
            log_filter: LogFilter::default(),
            session: 0,
            piped: false,
            outbox: None,
        };
        #[cfg(feature = "redis")]
        server.start_fanout();
        Ok(server)
    }

    /// Starts hearing the other replicas' notifications, once, if the server shares them
    /// and runs on an async runtime; the server's clients are told of each.
    #[cfg(feature = "redis")]
    fn start_fanout(&self) {
        let Some(fanout) = &self.shared.fanout else {
            return;
        };
        fanout.start(|| {
            let shared = Arc::downgrade(&self.shared);
            Box::new(move |change| {
                let shared = shared.clone();
                Box::pin(async move {
                    let Some(shared) = shared.upgrade() else {
                        return;
                    };
                    match change {
                        Change::Tools => shared.list.tell_listeners(),
                        Change::Resource { uri } => {
                            shared.catalog.updated(&uri).await;
                        }
                    }
                })
            })
        });
    }

    /// The tools this server lists now, with their schemas, as clients see them.
    pub fn tools(&self) -> Arc<[ToolInfo]> {
        self.shared.list.tools()
    }

    /// The server's list of tools, to add and remove tools while it serves: a handle
    /// that a program keeps, or gives to what changes the tools.
    pub fn tool_list(&self) -> ToolList {
        self.shared.list.clone()
    }

    /// Adds a tool defined at run time, as [`ToolList::add`] does: every session is told
    /// the tools changed (`notifications/tools/list_changed`). The tool is this process's:
    /// each replica of a server has the run-time tools it added, and with
    /// `Server::share_notifications` (feature `redis`) the clients of the others are told
    /// the list changed and see their own replica's list.
    ///
    /// ```standalone_crate
    /// use mcp_tool::{Arguments, Context, RuntimeTool, ToolError};
    ///
    /// # /// Returns its input unchanged.
    /// # #[mcp_tool::mcp_tool]
    /// # fn echo(text: String) -> String { text }
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let server = mcp_tool::Server::from_registry("echo", "1.0.0").build()?;
    /// let twice = RuntimeTool::new("twice", "Returns a text twice.").handler(
    ///     |mut args: Arguments, _ctx: Context| async move {
    ///         let text = args.required_str("text");
    ///         args.finish()?;
    ///         Ok::<_, ToolError>(text.repeat(2))
    ///     },
    /// );
    /// server.add_tool(twice)?;
    /// let arguments = serde_json::json!({ "text": "ab" });
    /// let result = server.call("twice", arguments.as_object().unwrap().clone()).await?;
    /// assert_eq!(result.text(), "abab");
    /// assert!(server.remove_tool("twice"));
    /// # Ok(())
    /// # }
    /// ```
    pub fn add_tool(&self, tool: RuntimeTool) -> Result<(), ServerError> {
        if tool.task_support().allows_tasks() && self.shared.tasks.is_none() {
            return Err(ServerError::TaskStore(format!(
                "the tool `{}` runs as a task, and this server was built without tasks: call \
                 Server::serve_tasks() before build()",
                tool.name()
            )));
        }
        self.shared.list.add(tool)
    }

    /// Removes a tool, as [`ToolList::remove`] does; whether there was one.
    pub fn remove_tool(&self, name: &str) -> bool {
        self.shared.list.remove(name)
    }

    /// The prompts this server lists, as clients see them.
    pub fn prompts(&self) -> &[PromptInfo] {
        self.shared.catalog.prompts.infos()
    }

    /// The resources with a fixed URI this server lists, as clients see them.
    pub fn resources(&self) -> &[ResourceInfo] {
        self.shared.catalog.resources.infos()
    }

    /// The resource templates this server lists, as clients see them.
    pub fn resource_templates(&self) -> &[ResourceTemplateInfo] {
        self.shared.catalog.resources.template_infos()
    }

    /// Tells every session that subscribed to `uri` (`resources/subscribe`), and every
    /// `subscriptions/listen` stream that asked for it, that the resource changed, with
    /// `notifications/resources/updated`; returns how many of this process's were told.
    /// A session that has ended is forgotten. With `Server::share_notifications` (feature
    /// `redis`), the other replicas tell theirs too, without waiting: the number counts
    /// this replica's only.
    ///
    /// ```standalone_crate
    /// /// The current settings.
    /// #[mcp_tool::mcp_resource(uri = "config://settings")]
    /// fn settings() -> String {
    ///     "verbose = true".to_owned()
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let server = mcp_tool::Server::from_registry("config", "1.0.0").build()?;
    /// // No session has subscribed yet.
    /// assert_eq!(server.notify_resource_updated("config://settings").await, 0);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn notify_resource_updated(&self, uri: &str) -> usize {
        #[cfg(feature = "redis")]
        if let Some(fanout) = &self.shared.fanout {
            self.start_fanout();
            fanout.publish(Change::Resource {
                uri: uri.to_owned(),
            });
        }
        self.shared.catalog.updated(uri).await
    }

    /// Renders a prompt outside any session, as `prompts/get` would.
    pub async fn get_prompt(
        &self,
        name: &str,
        arguments: serde_json::Map<String, Value>,
    ) -> Result<PromptResult, CallError> {
        let prompts = &self.shared.catalog.prompts;
        prompts.get(name, arguments, self.scope(None)).await
    }

    /// Reads a resource outside any session, as `resources/read` would.
    pub async fn read_resource(&self, uri: &str) -> Result<Vec<ResourceContents>, CallError> {
        self.shared.catalog.read(uri, self.scope(None)).await
    }

    pub(crate) fn scope<'a>(&'a self, request: Option<&'a dyn Request>) -> Scope<'a> {
        Scope {
            request,
            state: &self.shared.state,
            log_filter: &self.log_filter,
            detail: self.shared.detail,
            timeout: self.shared.timeout,
        }
    }

    /// A new session over the same tools, with its own `logging/setLevel`.
    pub(crate) fn session(&self) -> Self {
        #[cfg(feature = "redis")]
        self.start_fanout();
        Self {
            shared: Arc::clone(&self.shared),
            log_filter: LogFilter::default(),
            session: self.shared.sessions.fetch_add(1, Ordering::Relaxed) + 1,
            piped: false,
            outbox: None,
        }
    }

    /// Tells `listener`, a session or a stream, when the tools change, on this replica or,
    /// when they share notifications, on another.
    pub(crate) fn tell_of_tool_changes(&self, listener: Arc<dyn Listener>) {
        #[cfg(feature = "redis")]
        self.start_fanout();
        self.shared.list.listen(listener);
    }

    pub(crate) fn limits(&self) -> Limits {
        self.shared.limits
    }

    #[cfg(feature = "http")]
    pub(crate) fn http_options(&self) -> &HttpOptions {
        &self.shared.http
    }

    /// The server's name, version and instructions.
    #[cfg(feature = "http")]
    pub(crate) fn about(&self) -> &About {
        &self.shared.about
    }

    /// Runs one call outside any session, as `tools/call` would: a tool's failure is
    /// a result with `is_error` set, an unknown tool a [`CallError`].
    ///
    /// ```standalone_crate
    /// /// Adds two integers and returns their sum.
    /// #[mcp_tool::mcp_tool]
    /// fn add(a: i64, b: i64) -> i64 {
    ///     a + b
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let server = mcp_tool::Server::from_registry("calculator", "1.0.0").build()?;
    /// let arguments = serde_json::json!({ "a": 2, "b": 3 });
    /// let result = server.call("add", arguments.as_object().unwrap().clone()).await?;
    /// assert_eq!(result.structured, Some(serde_json::json!({ "result": 5 })));
    /// # Ok(())
    /// # }
    /// ```
    pub async fn call(
        &self,
        name: &str,
        arguments: serde_json::Map<String, Value>,
    ) -> Result<ToolResult, CallError> {
        match self.run_tool(name, arguments, None).await {
            Ok(answer) => Ok(answer.into()),
            Err(Refusal::Call(error)) => Err(error),
            // Neither happens without a request.
            Err(
                Refusal::Cancelled
                | Refusal::MissingCapability(_)
                | Refusal::InputRequired
                | Refusal::Crashed(_),
            ) => Err(CallError::Protocol {
                code: INTERNAL_ERROR,
                message: "the call was refused".to_owned(),
                data: None,
            }),
        }
    }

    /// Runs one call of the tool `name`, made through a session's `request` or directly:
    /// the answer the client reads, or why the request gets none.
    pub(crate) async fn run_tool(
        &self,
        name: &str,
        arguments: serde_json::Map<String, Value>,
        request: Option<&dyn Request>,
    ) -> Result<Answer, Refusal> {
        let Some(tool) = self.find(name) else {
            return Err(Refusal::Call(self.unknown_tool(name)));
        };
        self.run_found(tool, arguments, request).await
    }

    /// Runs one call of `tool`, found for it: what [`run_tool`](Self::run_tool) does once
    /// it has the tool, for a caller that chose the path by what it found.
    pub(crate) async fn run_found(
        &self,
        mut tool: Found<'_>,
        arguments: serde_json::Map<String, Value>,
        request: Option<&dyn Request>,
    ) -> Result<Answer, Refusal> {
        // A task's call waits on people and outlives requests: it takes no call slot.
        let calls = (self.shared.calls.as_ref())
            .filter(|_| !request.is_some_and(|request| request.runs_as_task()));
        if let Found::Mounted(tool) = &tool {
            return self.run_mounted(tool, arguments, request, calls).await;
        }
        let mut input = CallInput::new(
            tool.name(),
            arguments,
            request,
            &self.shared.state,
            &self.log_filter,
            calls.is_some(),
        );
        input.lenient = self.shared.lenient;
        let running = std::pin::pin!(tool.start(&mut input));
        let limits = driver::Limits {
            calls,
            timeout: tool.timeout(),
            cancel: request.map(|request| request.cancellation()),
            input: request.and_then(|request| request.round()),
        };
        let Some(outcome) = driver::drive(running, limits).await else {
            return Err(Refusal::Cancelled);
        };
        let mut outcome = outcome;
        tool.settle(&mut outcome);
        if let Err(Failure::InputRequired) = outcome {
            return Err(Refusal::InputRequired);
        }
        if let Err(Failure::Tool(error)) = &outcome
            && let Some(capability) = error.missing()
            && request.is_some_and(|request| request.refuses_missing_capability())
        {
            // From protocol 2026-07-28 on, the request is refused, not answered.
            tracing::info!(
                tool = tool.name(),
                capability,
                "the call needs a capability the client did not declare"
            );
            return Err(Refusal::MissingCapability(capability));
        }
        if let Err(Failure::Panic { .. }) = &outcome
            && request.is_some_and(|request| request.runs_as_task())
        {
            let Answer::Failed(message) = self.answer(&tool, outcome, &input) else {
                unreachable!("a panic is answered as a failure")
            };
            return Err(Refusal::Crashed(message));
        }
        Ok(self.answer(&tool, outcome, &input))
    }

    /// The answer to a call that ended with `outcome`.
    #[inline]
    fn answer(&self, tool: &Found<'_>, outcome: Outcome, input: &CallInput<'_>) -> Answer {
        match outcome {
            Ok(reply) => Answer::Reply(tool.reply(reply)),
            Err(failure) => Answer::Failed(failure_report::failure(
                Subject::Tool(tool.name()),
                failure,
                tool.args(input),
                self.shared.detail,
            )),
        }
    }

    /// The server mounted in the place `mount` among this one's mounts, in this handle's
    /// session: its session's log level, its notifications' way out.
    pub(crate) fn mounted(&self, mount: usize) -> ToolServer {
        ToolServer {
            shared: Arc::clone(&self.shared.mounts[mount].shared),
            log_filter: self.log_filter.clone(),
            session: self.session,
            piped: false,
            outbox: self.outbox.clone(),
        }
    }

    /// Runs a call of `tool` made outside its server's request pipeline (by
    /// [`call`](Self::call), or on a path that answers without a session), holding one of
    /// `calls` while it runs.
    async fn run_mounted(
        &self,
        tool: &MountedTool,
        arguments: serde_json::Map<String, Value>,
        request: Option<&dyn Request>,
        calls: Option<&Semaphore>,
    ) -> Result<Answer, Refusal> {
        // A semaphore is closed only when dropped: a permit is always given.
        let _permit = match calls {
            Some(calls) => calls.acquire().await.ok(),
            None => None,
        };
        let server = self.mounted(tool.mount);
        let answered = Box::pin(server.run_tool(&tool.own_name, arguments, request)).await;
        match answered {
            Ok(Answer::Failed(message)) => Ok(Answer::Failed(tool.renamed(message))),
            other => other,
        }
    }

    #[inline]
    pub(crate) fn find(&self, name: &str) -> Option<Found<'_>> {
        self.shared.list.find(name)
    }

    #[cold]
    pub(crate) fn unknown_tool(&self, name: &str) -> CallError {
        self.shared.list.unknown_tool(name)
    }
}

/// What a server is built with: the attribute's tools, the run-time tools, the tools of
/// the mounted servers, and the mounted servers.
pub(crate) type Tools = (
    Vec<&'static ToolEntry>,
    Vec<RuntimeTool>,
    Vec<MountedTool>,
    Vec<ToolServer>,
);

/// What a server says of itself when a session begins: its name and version, and the
/// instructions for the client's model.
#[derive(Debug, Clone)]
pub(crate) struct About {
    pub(crate) name: String,
    pub(crate) version: String,
    pub(crate) instructions: Option<String>,
}

/// How a call ended, as the client reads it: the tool's reply, or the masked message
/// of its failure (a result with `isError` set).
#[derive(Debug)]
pub(crate) enum Answer {
    Reply(ToolReply),
    Failed(String),
}

impl From<Answer> for ToolResult {
    fn from(answer: Answer) -> Self {
        match answer {
            Answer::Reply(ToolReply::Content(result)) => result,
            Answer::Reply(ToolReply::Structured(value)) => {
                let mut result = ToolResult::new(vec![Content::text(value.to_string())]);
                result.structured = Some(value);
                result
            }
            Answer::Failed(message) => ToolResult::error(vec![Content::text(message)]),
        }
    }
}

/// Why a call's request gets no answer.
#[derive(Debug)]
pub(crate) enum Refusal {
    /// An unknown tool.
    Call(CallError),
    /// The client cancelled the request: no reply is sent.
    Cancelled,
    /// The tool needs this client capability, which the client did not declare, on a
    /// protocol that refuses such a call (2026-07-28 on).
    MissingCapability(&'static str),
    /// The call asked the client questions it has no answers to yet (2026-07-28 on):
    /// the call's round holds them.
    InputRequired,
    /// A task's tool panicked: the task fails, with this masked message.
    Crashed(String),
}

/// Refuses a server whose profile cannot show one of its tools, naming the tool and why.
fn check_profile(list: &ToolList, profile: SchemaProfile) -> Result<(), ServerError> {
    if profile == SchemaProfile::Strict {
        return Ok(());
    }
    for info in list.tools().iter() {
        profiles::shown(info, profile).map_err(|error| ServerError::SchemaProfile {
            tool: info.name.clone(),
            profile,
            problem: error.to_string(),
        })?;
    }
    Ok(())
}
