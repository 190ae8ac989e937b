//! The server builder: which tools, with which options; `build` validates them once.

use std::time::Duration;

use tokio::sync::Semaphore;

use crate::outcome::error::ServerError;
use crate::outcome::failure_report::Detail;
use crate::registry::prompt_entry::{self, PromptEntry};
use crate::registry::resource::{self, ResourceEntry};
use crate::registry::runtime_tool::RuntimeTool;
use crate::registry::tool::{self as registry, ToolEntry};
use crate::server::catalog::Catalog;
use crate::server::settings::{Rounds, Settings};
use crate::server::tool_server::{About, ToolServer};

#[cfg(feature = "http")]
mod authorization_options;
mod checks;
mod composition;
#[cfg(feature = "http")]
mod http_options;
#[cfg(feature = "redis")]
mod replica_options;
mod schema_options;
mod task_options;
mod user_layers;

use checks::{check_states, check_unique};

/// Builds an MCP server from registered tools.
///
/// ```no_run
/// # async fn run() -> Result<(), mcp_tool::ServerError> {
/// mcp_tool::Server::from_registry("file-search", "1.0.0")
///     .instructions("Search files under the root with a filter.")
///     .serve_stdio()
///     .await
/// # }
/// ```
#[derive(Debug)]
#[must_use = "a server does nothing until it is served"]
pub struct Server {
    pub(crate) name: String,
    version: String,
    instructions: Option<String>,
    entries: Vec<&'static ToolEntry>,
    prompts: Vec<&'static PromptEntry>,
    resources: Vec<&'static ResourceEntry>,
    only: Option<Vec<String>>,
    with_tags: Option<Vec<String>>,
    without_tags: Vec<String>,
    from_registry: bool,
    pub(crate) settings: Settings,
    /// Tools defined at run time, added when the server is built.
    added: Vec<RuntimeTool>,
    /// The servers mounted into this one, with their namespaces, in the order mounted.
    mounts: Vec<(String, ToolServer)>,
}

impl Server {
    /// A server over every tool registered with `#[mcp_tool]` in this program.
    ///
    /// ```standalone_crate
    /// # /// Returns its input unchanged.
    /// # #[mcp_tool::mcp_tool]
    /// # fn echo(text: String) -> String { text }
    /// let server = mcp_tool::Server::from_registry("echo", "1.0.0").build()?;
    /// # drop(server);
    /// # Ok::<(), mcp_tool::ServerError>(())
    /// ```
    pub fn from_registry(name: impl Into<String>, version: impl Into<String>) -> Self {
        Self {
            entries: registry::registered(),
            prompts: prompt_entry::registered_prompts(),
            resources: resource::registered_resources(),
            from_registry: true,
            ..Self::new(name, version)
        }
    }

    /// A server with nothing registered in it: no tool, prompt or resource of the
    /// attributes, only the tools that [`tool`](Self::tool) adds. For a server whose tools
    /// are all defined at run time; [`from_registry`](Self::from_registry) with
    /// [`only`](Self::only) or [`with_tags`](Self::with_tags) serves some of the
    /// attribute's tools.
    ///
    /// ```
    /// use mcp_tool::{Arguments, RuntimeTool, Server, ToolError};
    ///
    /// let ping = RuntimeTool::new("ping", "Answers pong.").handler(|args: Arguments| async move {
    ///     args.finish()?;
    ///     Ok::<_, ToolError>("pong")
    /// });
    /// let server = Server::new("pings", "1.0.0").tool(ping).build()?;
    /// assert_eq!(server.tools().len(), 1);
    /// # Ok::<(), mcp_tool::ServerError>(())
    /// ```
    pub fn new(name: impl Into<String>, version: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            version: version.into(),
            instructions: None,
            entries: Vec::new(),
            prompts: Vec::new(),
            resources: Vec::new(),
            only: None,
            with_tags: None,
            without_tags: Vec::new(),
            from_registry: false,
            settings: Settings::default(),
            added: Vec::new(),
            mounts: Vec::new(),
        }
    }

    /// Instructions for the client on how to use this server's tools.
    ///
    /// ```
    /// let server = mcp_tool::Server::from_registry("file-search", "1.0.0")
    ///     .instructions("Call `list_attributes` before writing a `search` filter.");
    /// # drop(server);
    /// ```
    pub fn instructions(mut self, instructions: impl Into<String>) -> Self {
        self.instructions = Some(instructions.into());
        self
    }

    /// Hides the text of internal errors and panics from clients: they read only
    /// ``tool `name` failed: internal error (error id …)``, and the log record with
    /// the detail carries the same id. Messages of [`ToolError`](crate::ToolError)s
    /// and argument errors, written for the model, still pass (masked).
    ///
    /// ```
    /// let server = mcp_tool::Server::from_registry("billing", "1.0.0").hide_internal_errors(true);
    /// # drop(server);
    /// ```
    pub fn hide_internal_errors(mut self, hide: bool) -> Self {
        self.settings.detail = if hide { Detail::Hidden } else { Detail::Masked };
        self
    }

    /// Converts the arguments a client sends as another JSON type than the schema wants,
    /// for every tool: `"10"` or `1.0` for an integer, `"true"` for a boolean, a string of
    /// JSON for an object or an array. What the schema accepts as sent stays as sent, a
    /// boolean never becomes a number, and nothing is converted with a loss (`1.5` or
    /// `"1e400"` for an integer stay argument errors). A parameter with `#[arg(strict)]`
    /// stays exact; `#[mcp_tool(lenient)]` and `#[arg(lenient)]` convert for one tool or
    /// one parameter on any server. Each conversion is logged at debug with the client's
    /// name and counted: see the guide's [lenient arguments](crate::guide::tools#lenient-arguments).
    ///
    /// ```
    /// let server = mcp_tool::Server::from_registry("search", "1.0.0").lenient_arguments(true);
    /// # drop(server);
    /// ```
    pub fn lenient_arguments(mut self, lenient: bool) -> Self {
        self.settings.lenient = lenient;
        self
    }

    /// Fails a call that runs longer than `limit`. An async tool's future is dropped
    /// then; a sync tool runs on its own thread, which cannot be stopped: it runs to
    /// its end and its result is dropped. A tool's own `#[mcp_tool(timeout = "...")]`
    /// takes its place for that tool, shorter or longer.
    ///
    /// ```
    /// use std::time::Duration;
    ///
    /// let server = mcp_tool::Server::from_registry("search", "1.0.0").timeout(Duration::from_secs(30));
    /// # drop(server);
    /// ```
    pub fn timeout(mut self, limit: Duration) -> Self {
        self.settings.timeout = Some(limit);
        self
    }

    /// Runs at most `calls` tool calls at once, over every session; a call beyond them
    /// waits its turn, in the order calls arrived, and is not refused. A call holds its
    /// turn until its tool ends, runs out of time or is cancelled; its time limit starts
    /// with its turn. Calls whose arguments fail, and calls of unknown tools, never
    /// wait. Without it, calls run as they come.
    ///
    /// ```
    /// let server = mcp_tool::Server::from_registry("search", "1.0.0").max_concurrent_calls(8);
    /// # drop(server);
    /// ```
    ///
    /// # Panics
    ///
    /// If `calls` is zero, which would let no call run, or above tokio's limit of
    /// permits (`usize::MAX >> 3`).
    pub fn max_concurrent_calls(mut self, calls: usize) -> Self {
        assert!(
            calls > 0 && calls <= Semaphore::MAX_PERMITS,
            "max_concurrent_calls must be between 1 and {}, not {calls}",
            Semaphore::MAX_PERMITS
        );
        self.settings.max_calls = Some(calls);
        self
    }

    /// The longest message a client may send, in bytes; 4 MiB unless set. A longer one
    /// is answered with an error and skipped as it arrives, never held whole, and the
    /// session goes on.
    ///
    /// ```
    /// let server = mcp_tool::Server::from_registry("upload", "1.0.0").max_message_size(32 << 20);
    /// # drop(server);
    /// ```
    pub fn max_message_size(mut self, bytes: usize) -> Self {
        self.settings.limits.max_message = bytes;
        self
    }

    /// How long calls still running when the client closes its input may take to
    /// finish, so that their replies are written; 30 s unless set. Calls still running
    /// after it end without a reply, and the log says how many.
    ///
    /// ```
    /// use std::time::Duration;
    ///
    /// let server = mcp_tool::Server::from_registry("search", "1.0.0").shutdown_grace(Duration::from_secs(5));
    /// # drop(server);
    /// ```
    pub fn shutdown_grace(mut self, grace: Duration) -> Self {
        self.settings.limits.grace = grace;
        self
    }

    /// The key that signs the `requestState` of a call that asks the client something
    /// on protocol 2026-07-28, at least 32 random bytes. There, a tool's question ends
    /// the call with an input-required result, and the client calls again with the
    /// answer and the `requestState` it got; the key lets the server refuse a state the
    /// client changed, and lets every replica behind a load balancer accept the states
    /// the others issued, when they share it. Unless set, each process makes a random
    /// key when it first needs one, and says in its log that replicas need a shared one.
    ///
    /// ```
    /// let key = std::env::var("MCP_STATE_KEY").unwrap_or_else(|_| "x".repeat(32));
    /// let server = mcp_tool::Server::from_registry("files", "1.0.0").request_state_key(key);
    /// # drop(server);
    /// ```
    ///
    /// # Panics
    ///
    /// If `key` is shorter than 32 bytes.
    pub fn request_state_key(mut self, key: impl AsRef<[u8]>) -> Self {
        let key = key.as_ref();
        assert!(
            key.len() >= Rounds::MIN_KEY,
            "a request-state key needs at least {} bytes, not {}",
            Rounds::MIN_KEY,
            key.len()
        );
        self.settings.rounds.key = Some(key.into());
        self
    }

    /// How long the `requestState` of a call's round stays valid (protocol 2026-07-28):
    /// a client that answers later gets an error and starts the call over. 10 minutes
    /// unless set.
    ///
    /// ```
    /// use std::time::Duration;
    ///
    /// let server = mcp_tool::Server::from_registry("files", "1.0.0")
    ///     .request_state_ttl(Duration::from_secs(120));
    /// # drop(server);
    /// ```
    pub fn request_state_ttl(mut self, ttl: Duration) -> Self {
        self.settings.rounds.ttl = ttl;
        self
    }

    /// Gives every tool that asks for a [`State<T>`](crate::State) this value, shared by
    /// every call (a value given twice replaces the first). A tool that asks for a type
    /// never given fails [`build`](Self::build).
    ///
    /// ```standalone_crate
    /// use mcp_tool::{State, mcp_tool};
    ///
    /// struct Config {
    ///     greeting: String,
    /// }
    ///
    /// /// Greets a person by name, with the server's greeting.
    /// #[mcp_tool]
    /// fn greet(config: State<Config>, name: String) -> String {
    ///     format!("{}, {name}", config.greeting)
    /// }
    ///
    /// let server = mcp_tool::Server::from_registry("greeter", "1.0.0")
    ///     .state(Config { greeting: "Hello".into() })
    ///     .build()?;
    /// # drop(server);
    /// let missing = mcp_tool::Server::from_registry("greeter", "1.0.0").build();
    /// assert!(matches!(missing, Err(mcp_tool::ServerError::MissingState { .. })));
    /// # Ok::<(), mcp_tool::ServerError>(())
    /// ```
    pub fn state<T: Send + Sync + 'static>(mut self, value: T) -> Self {
        self.settings.state.insert(value);
        self
    }

    /// Serves only the tools with these names; naming a tool that does not exist
    /// is an error when the server is built.
    ///
    /// ```standalone_crate
    /// # /// Returns its input unchanged.
    /// # #[mcp_tool::mcp_tool]
    /// # fn echo(text: String) -> String { text }
    /// let server = mcp_tool::Server::from_registry("echo", "1.0.0").only(["echo"]).build()?;
    /// # drop(server);
    ///
    /// let unknown = mcp_tool::Server::from_registry("echo", "1.0.0").only(["ecko"]).build();
    /// assert!(unknown.unwrap_err().to_string().contains("did you mean `echo`?"));
    /// # Ok::<(), mcp_tool::ServerError>(())
    /// ```
    pub fn only<I, S>(mut self, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.only = Some(names.into_iter().map(Into::into).collect());
        self
    }

    /// Keeps only the attribute tools whose [`ToolEntry`] `keep` accepts (by name, tags,
    /// module path or location), for a choice that [`only`](Self::only) and the tag
    /// filters do not express, such as the tools of one module when two modules define
    /// tools of one name. Prompts and resources stay; a later `only` naming a tool left out
    /// is an error, as for any unknown name.
    ///
    /// ```standalone_crate
    /// mod english {
    ///     /// Says hello.
    ///     #[mcp_tool::mcp_tool]
    ///     pub fn greet() -> &'static str { "hello" }
    /// }
    /// mod french {
    ///     /// Says bonjour.
    ///     #[mcp_tool::mcp_tool]
    ///     pub fn greet() -> &'static str { "bonjour" }
    /// }
    ///
    /// let server = mcp_tool::Server::from_registry("greeter", "1.0.0")
    ///     .retain_tools(|tool| tool.module_path().ends_with("::french"))
    ///     .build()?;
    /// assert_eq!(server.tools()[0].description.as_deref(), Some("Says bonjour."));
    /// # Ok::<(), mcp_tool::ServerError>(())
    /// ```
    pub fn retain_tools(mut self, mut keep: impl FnMut(&ToolEntry) -> bool) -> Self {
        self.entries.retain(|entry| keep(entry));
        self
    }

    /// Serves only the tools that carry at least one of these tags
    /// (`#[mcp_tool(tags = [...])]`); naming a tag no tool carries is an error when the
    /// server is built. With [`only`](Self::only), a tool must pass both.
    ///
    /// ```standalone_crate
    /// /// Finds files whose name matches a pattern.
    /// #[mcp_tool::mcp_tool(tags = ["files", "read"])]
    /// fn find(pattern: String) -> Vec<String> { vec![pattern] }
    ///
    /// /// Deletes one file.
    /// #[mcp_tool::mcp_tool(tags = ["files", "write"])]
    /// fn delete(path: String) -> String { path }
    ///
    /// let server = mcp_tool::Server::from_registry("files", "1.0.0").with_tags(["read"]).build()?;
    /// assert_eq!(server.tools().len(), 1);
    /// # Ok::<(), mcp_tool::ServerError>(())
    /// ```
    pub fn with_tags<I, S>(mut self, tags: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.with_tags = Some(tags.into_iter().map(Into::into).collect());
        self
    }

    /// Leaves out the tools that carry any of these tags; naming a tag no tool carries
    /// is an error when the server is built.
    ///
    /// ```standalone_crate
    /// /// Finds files whose name matches a pattern.
    /// #[mcp_tool::mcp_tool(tags = ["files", "read"])]
    /// fn find(pattern: String) -> Vec<String> { vec![pattern] }
    ///
    /// /// Deletes one file.
    /// #[mcp_tool::mcp_tool(tags = ["files", "write"])]
    /// fn delete(path: String) -> String { path }
    ///
    /// let read_only = mcp_tool::Server::from_registry("files", "1.0.0").without_tags(["write"]);
    /// assert_eq!(read_only.build()?.tools()[0].name, "find");
    /// # Ok::<(), mcp_tool::ServerError>(())
    /// ```
    pub fn without_tags<I, S>(mut self, tags: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.without_tags.extend(tags.into_iter().map(Into::into));
        self
    }

    /// Serves a tool defined at run time as well (see [`RuntimeTool`]), checked when the
    /// server is built: a tool that fails the checks, or that has the name of another,
    /// fails [`build`](Self::build). `only` and the tag filters leave it in.
    ///
    /// ```standalone_crate
    /// use mcp_tool::{Arguments, Context, RuntimeTool, ToolError};
    ///
    /// let hello = RuntimeTool::new("hello", "Returns a greeting.")
    ///     .handler(|_args: Arguments, _ctx: Context| async { Ok::<_, ToolError>("hello") });
    /// let server = mcp_tool::Server::from_registry("hello", "1.0.0").tool(hello).build()?;
    /// assert_eq!(server.tools()[0].name, "hello");
    ///
    /// let bad = RuntimeTool::new("Hello", "Returns a greeting.");
    /// let error = mcp_tool::Server::from_registry("hello", "1.0.0").tool(bad).build().unwrap_err();
    /// assert!(error.to_string().contains("its name must be snake_case"));
    /// # Ok::<(), mcp_tool::ServerError>(())
    /// ```
    pub fn tool(mut self, tool: RuntimeTool) -> Self {
        self.added.push(tool);
        self
    }

    /// Validates the tools and computes every schema, once: two tools with one name, or
    /// no tools at all, are an error that says what to do.
    ///
    /// ```standalone_crate
    /// # /// Returns its input unchanged.
    /// # #[mcp_tool::mcp_tool]
    /// # fn echo(text: String) -> String { text }
    /// let server = mcp_tool::Server::from_registry("echo", "1.0.0").build()?;
    /// # drop(server);
    /// # Ok::<(), mcp_tool::ServerError>(())
    /// ```
    pub fn build(mut self) -> Result<ToolServer, ServerError> {
        crate::outcome::panics::install_hook();
        let entries = self.selected()?;
        // A server serves tasks when a tool allows them, or when it was told to.
        self.settings.tasks.enabled |= (entries.iter())
            .any(|entry| entry.spec().task.allows_tasks())
            || (self.added.iter()).any(|tool| tool.task_support().allows_tasks());
        self.settings.rounds.ensure_key()?;
        check_unique(&entries, &self.prompts, &self.resources)?;
        #[cfg(feature = "http")]
        if let Some(card) = &self.settings.http.card {
            card.check(&self.version)?;
        }
        check_states(
            &entries,
            &self.prompts,
            &self.resources,
            &self.settings.state,
        )?;
        let mounted = self.mounted()?;
        let namespaces = self
            .mounts
            .iter()
            .map(|(namespace, _)| namespace.clone())
            .collect();
        let catalog = Catalog::new(
            (self.prompts, mounted.prompts),
            (self.resources, mounted.resources),
        )?;
        let about = About {
            name: self.name,
            version: self.version,
            instructions: self.instructions,
        };
        // Run-time tools given here are built with the server: found on the fast path.
        let tools = (entries, self.added, mounted.tools, mounted.servers);
        let server = ToolServer::new(tools, catalog, about, self.settings)?;
        composition::follow_mounts(&server, namespaces);
        Ok(server)
    }

    /// Builds the server and serves it over stdin and stdout until the client leaves,
    /// from a program that runs its own async runtime. Unless the program has set up
    /// logging, it is set up as `logging::init` does it (with the feature `logging`, on by
    /// default).
    ///
    /// ```no_run
    /// #[tokio::main]
    /// async fn main() -> Result<(), mcp_tool::ServerError> {
    ///     mcp_tool::Server::from_registry("line-counter", env!("CARGO_PKG_VERSION"))
    ///         .serve_stdio()
    ///         .await
    /// }
    /// ```
    pub async fn serve_stdio(self) -> Result<(), ServerError> {
        crate::outcome::logging::init_unless_set();
        let (name, version) = (self.name.clone(), self.version.clone());
        let server = self.build()?;
        tracing::info!(server = %name, version = %version, "serving over stdio");
        server.serve_stdio().await
    }

    /// Builds the server and serves it over stdin and stdout until the client leaves, on
    /// an async runtime of its own: a plain `fn main` can serve, and the program's
    /// `Cargo.toml` need not name `tokio`. Async tools run on that runtime's one thread,
    /// plain `fn` tools on its blocking thread pool, as with
    /// [`serve_stdio`](Self::serve_stdio), which it calls.
    ///
    /// ```no_run
    /// fn main() -> Result<(), mcp_tool::ServerError> {
    ///     mcp_tool::Server::from_registry("line-counter", env!("CARGO_PKG_VERSION")).run_stdio()
    /// }
    /// ```
    pub fn run_stdio(self) -> Result<(), ServerError> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(ServerError::Runtime)?;
        let served = runtime.block_on(self.serve_stdio());
        // A sync tool past its timeout may still run: the process ends without it.
        runtime.shutdown_background();
        served
    }
}
