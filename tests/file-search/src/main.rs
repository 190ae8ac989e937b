//! A file-search MCP server: finds files under one root directory with CEL filters. The
//! end-to-end tests' fixture and the server `scripts/demo.sh` shows: it uses every feature
//! of the runtime at once, with the flags the tests need; the runtime's `examples/` teach
//! one feature each.
//!
//! ```text
//! cargo run -p mcp-tool-file-search -- --root ~/projects   # serve over stdin and stdout
//! cargo run -p mcp-tool-file-search -- --http 127.0.0.1:8000   # serve at http://127.0.0.1:8000/mcp
//! cargo run -p mcp-tool-file-search -- --http 127.0.0.1:8000 --issuer http://127.0.0.1:9000 \
//!     --resource http://127.0.0.1:8000/mcp   # only for tokens that issuer signs for it
//! cargo run -p mcp-tool-file-search -- --list-tools        # print the tools and exit
//! cargo run -p mcp-tool-file-search -- --list-tools --markdown   # CONTRIBUTING.md's table
//! cargo run -p mcp-tool-file-search -- --tools searches.toml   # and saved searches as tools
//! cargo run -p mcp-tool-file-search --features redis -- --http 127.0.0.1:8001 --stateless \
//!     --redis redis://127.0.0.1:6379   # a replica that shares its tasks and notifications
//! OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 \
//!     cargo run -p mcp-tool-file-search --features opentelemetry   # spans and durations over OTLP
//! ```
//!
//! Three tools: `search` walks the tree and keeps the entries whose attributes match a
//! CEL expression such as `ext == "rs" && size > 1024`; `list_attributes` tells the
//! model which attributes it may use; `read_attributes` describes one file. Three more
//! ask the client during the call (`asking.rs`): `choose_file` asks the user
//! which file, `describe_file` asks the client's model what a file is, and
//! `choose_and_describe` does both. `index_files` (`indexing.rs`) reads every
//! file under a directory and counts its lines, as a task for a client that declares the
//! tasks extension: polled, answered and cancelled, through any replica when the
//! replicas share a Redis (`--redis`). Besides
//! them, the resource template `files:///{+path}` gives a file's contents, and the
//! prompt `find_files` sets the model to find files matching a description. `--tools FILE`
//! adds tools defined at run time: saved searches, each a name, a description and a CEL
//! filter in a TOML file (see `saved_searches.rs`).

mod asking;
mod catalog;
mod indexing;
mod saved_searches;
#[cfg(test)]
mod schema_profiles;

use std::fs::Metadata;
use std::path::{Component, Path, PathBuf};

use anyhow::Context as _;
use cel::common::ast::{EntryExpr, Expr, MapExpr, StructExpr};
use cel::{Context, ExecutionError, IdedExpr, Program, Value};
use chrono::{DateTime, FixedOffset, SecondsFormat, Utc};
use lexopt::ValueExt as _;
use mcp_tool::{State, ToolError, mcp_tool};
use schemars::JsonSchema;
use serde::Serialize;

/// The directory every path is relative to, canonicalized once at start-up and given
/// to the tools that ask for it as `State<Root>`.
struct Root(PathBuf);

const USAGE: &str = "\
file_search: an MCP server that finds files under a root directory with CEL filters,
served over stdin and stdout, or over HTTP.

Usage: file_search [--root DIR] [--tools FILE] [--http ADDR [--stateless]]
                   [--issuer URL [--resource URL] [--token-leeway S]]
                   [--redis URL] [--task-lease MS] [--list-tools [--markdown]]

Options:
  --root DIR     the directory to search; defaults to the current directory
  --tools FILE   also serve the saved searches of a TOML file as tools: each a
                 [[search]] table with a name, a description and a CEL filter
  --http ADDR    serve Streamable HTTP at http://ADDR/mcp (say 127.0.0.1:8000)
                 instead of stdio, until Ctrl-C
  --stateless    with --http: keep no sessions, so that replicas behind a load
                 balancer can answer any request
  --allow-host H with --http: also accept requests for host name H (repeatable);
                 only loopback names are accepted otherwise
  --allow-origin O
                 with --http: also accept requests from the pages of browser
                 origin O, say https://app.example.com (repeatable); only pages
                 of the loopback interface are accepted otherwise
  --issuer URL   with --http: serve only requests with an access token that the
                 authorization server URL signed (a JWT checked against its
                 published keys); read_attributes then needs the scope files:read
  --resource URL with --issuer: the server's resource URL, which tokens must be
                 issued for; defaults to http://ADDR/mcp
  --token-leeway S
                 with --issuer: how many seconds past its expiry a token is still
                 accepted, for clocks that differ. Defaults to 60
  --redis URL    keep tasks in the Redis at URL (redis://HOST:PORT), and share
                 notifications (tool list changes, resource updates) through it,
                 with every replica given the same one; needs the server built
                 with `--features redis`. Both stay in memory otherwise
  --task-lease MS how long a running task's lease lasts, in milliseconds: a
                 replica that dies mid-task leaves its tasks failed once their
                 lease lapses. Defaults to 15000
  --list-tools   print the tools with their input schemas as JSON, then exit
  --markdown     with --list-tools: print a Markdown table of names and descriptions
  -h, --help     print this help

Environment:
  FILE_SEARCH_STATE_KEY  the key (32 bytes or more) that signs the requestState of a
                 call that asks the client something on protocol 2026-07-28; give
                 replicas behind a load balancer the same one";

const INSTRUCTIONS: &str = "\
Finds files under one root directory; every path is relative to that root. \
Call `list_attributes` to learn the attributes a filter can use, `search` with a CEL \
filter such as `ext == \"rs\" && size > 1024` to find files, and `read_attributes` for \
the details of one file.";

/// What the command line asks for.
#[derive(Debug)]
struct Options {
    root: PathBuf,
    tools: Option<PathBuf>,
    list_tools: bool,
    markdown: bool,
    http: Option<String>,
    stateless: bool,
    allowed_hosts: Vec<String>,
    allowed_origins: Vec<String>,
    redis: Option<String>,
    task_lease: Option<u64>,
    issuer: Option<String>,
    resource: Option<String>,
    token_leeway: Option<u64>,
}

fn parse_options() -> Result<Option<Options>, lexopt::Error> {
    let mut options = Options {
        root: PathBuf::from("."),
        tools: None,
        list_tools: false,
        markdown: false,
        http: None,
        stateless: false,
        allowed_hosts: Vec::new(),
        allowed_origins: Vec::new(),
        redis: None,
        task_lease: None,
        issuer: None,
        resource: None,
        token_leeway: None,
    };
    let mut args = lexopt::Parser::from_env();
    while let Some(arg) = args.next()? {
        match arg {
            lexopt::Arg::Long("root") => options.root = args.value()?.into(),
            lexopt::Arg::Long("tools") => options.tools = Some(args.value()?.into()),
            lexopt::Arg::Long("list-tools") => options.list_tools = true,
            lexopt::Arg::Long("markdown") => options.markdown = true,
            lexopt::Arg::Long("http") => options.http = Some(args.value()?.string()?),
            lexopt::Arg::Long("stateless") => options.stateless = true,
            lexopt::Arg::Long("allow-host") => options.allowed_hosts.push(args.value()?.string()?),
            lexopt::Arg::Long("allow-origin") => {
                options.allowed_origins.push(args.value()?.string()?);
            }
            lexopt::Arg::Long("redis") => options.redis = Some(args.value()?.string()?),
            lexopt::Arg::Long("task-lease") => options.task_lease = Some(args.value()?.parse()?),
            lexopt::Arg::Long("issuer") => options.issuer = Some(args.value()?.string()?),
            lexopt::Arg::Long("resource") => options.resource = Some(args.value()?.string()?),
            lexopt::Arg::Long("token-leeway") => {
                options.token_leeway = Some(args.value()?.parse()?)
            }
            lexopt::Arg::Short('h') | lexopt::Arg::Long("help") => return Ok(None),
            other => return Err(other.unexpected()),
        }
    }
    Ok(Some(options))
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let options = match parse_options() {
        Ok(Some(options)) => options,
        Ok(None) => {
            println!("{USAGE}");
            return Ok(());
        }
        Err(error) => {
            eprintln!("file_search: {error}\n\n{USAGE}");
            std::process::exit(2);
        }
    };
    let root = options
        .root
        .canonicalize()
        .with_context(|| format!("cannot open the root directory {}", options.root.display()))?;
    anyhow::ensure!(
        root.is_dir(),
        "the root {} is not a directory",
        root.display()
    );
    let root = std::sync::Arc::new(Root(root));
    // With `--features opentelemetry` and an OTLP endpoint named, each request's span and
    // duration go there; dropped as `main` returns, it exports what is left.
    #[cfg(feature = "opentelemetry")]
    let _telemetry = match std::env::var_os("OTEL_EXPORTER_OTLP_ENDPOINT") {
        Some(_) => Some(mcp_tool::telemetry::init().map_err(|error| anyhow::anyhow!(error))?),
        None => None,
    };
    let mut server = mcp_tool::Server::from_registry("file-search", env!("CARGO_PKG_VERSION"))
        .instructions(INSTRUCTIONS)
        .state(Root(root.0.clone()));
    if let Ok(key) = std::env::var("FILE_SEARCH_STATE_KEY") {
        anyhow::ensure!(
            key.len() >= 32,
            "FILE_SEARCH_STATE_KEY needs at least 32 bytes, not {}",
            key.len()
        );
        server = server.request_state_key(key);
    }
    server = task_store(server, &options)?;
    if let Some(file) = &options.tools {
        for tool in saved_searches::load(file, &root)? {
            server = server.tool(tool);
        }
    }
    if options.list_tools && options.markdown {
        print!("{}", tools_markdown(&server.build()?));
        return Ok(());
    }
    if options.list_tools {
        println!(
            "{}",
            serde_json::to_string_pretty(&*server.build()?.tools())?
        );
        return Ok(());
    }
    if let Some(address) = options.http.clone() {
        let mut server = authorization(server.stateless(options.stateless), &options, &address)?;
        if !options.allowed_hosts.is_empty() {
            let loopback = ["localhost", "127.0.0.1", "::1"].map(String::from);
            server = server.allowed_hosts(loopback.into_iter().chain(options.allowed_hosts));
        }
        if !options.allowed_origins.is_empty() {
            let loopback = ["localhost", "127.0.0.1", "[::1]"]
                .into_iter()
                .flat_map(|host| ["http", "https"].map(|scheme| format!("{scheme}://{host}:*")));
            server = server.allowed_origins(loopback.chain(options.allowed_origins));
        }
        server.serve_http(&address).await?;
        return Ok(());
    }
    anyhow::ensure!(
        options.issuer.is_none(),
        "--issuer needs --http: over stdio the client is the process that started the server"
    );
    // Stdout carries the protocol; the server logs to stderr, masked, at `RUST_LOG`.
    server.serve_stdio().await?;
    Ok(())
}

/// With `--issuer`, a server that serves only requests with a token that issuer signed for
/// its resource URL (`--resource`, else `http://ADDR/mcp`), allowing `--token-leeway`
/// seconds of clock difference.
fn authorization(
    server: mcp_tool::Server,
    options: &Options,
    address: &str,
) -> anyhow::Result<mcp_tool::Server> {
    let Some(issuer) = options.issuer.as_deref() else {
        anyhow::ensure!(options.resource.is_none(), "--resource needs --issuer");
        anyhow::ensure!(
            options.token_leeway.is_none(),
            "--token-leeway needs --issuer"
        );
        return Ok(server);
    };
    let resource = options
        .resource
        .clone()
        .unwrap_or_else(|| format!("http://{address}/mcp"));
    #[cfg(feature = "auth")]
    {
        let mut verifier = mcp_tool::JwtVerifier::issuer(issuer).audience(resource);
        if let Some(seconds) = options.token_leeway {
            verifier = verifier.leeway(std::time::Duration::from_secs(seconds));
        }
        Ok(server.authorization(verifier))
    }
    #[cfg(not(feature = "auth"))]
    anyhow::bail!(
        "--issuer {issuer} (for {resource}): this build has no JWT verifier; build the server \
         with its feature `auth`, a default one"
    )
}

/// Where the server keeps its tasks and shares its notifications: in Redis with `--redis`,
/// in memory otherwise.
fn task_store(server: mcp_tool::Server, options: &Options) -> anyhow::Result<mcp_tool::Server> {
    let server = match options.task_lease {
        Some(millis) => server.task_lease(std::time::Duration::from_millis(millis)),
        None => server,
    };
    let Some(url) = &options.redis else {
        return Ok(server);
    };
    #[cfg(feature = "redis")]
    return Ok(server
        .serve_tasks()
        .task_store(
            mcp_tool::tasks::RedisStore::new(url)
                .map_err(|error| anyhow::anyhow!("--redis: {error}"))?,
        )
        .share_notifications(
            mcp_tool::RedisNotifications::new(url)
                .map_err(|error| anyhow::anyhow!("--redis: {error}"))?,
        ));
    #[cfg(not(feature = "redis"))]
    anyhow::bail!(
        "--redis {url}: this build keeps tasks in memory only; build the server with its \
         feature `redis` (cargo run -p mcp-tool-file-search --features redis -- ...)"
    )
}

/// CONTRIBUTING.md's tables: the tools from the registry, in the order of their definitions,
/// then the prompts and resources as the server lists them.
fn tools_markdown(server: &mcp_tool::ToolServer) -> String {
    // This file's tools first, then those of its modules, each file in line order.
    let line = |location: String| {
        let (file, line) = location.rsplit_once(':').unwrap_or((&location, ""));
        let here = file.ends_with("file_search.rs");
        (
            !here,
            file.to_owned(),
            line.parse::<u32>().unwrap_or(u32::MAX),
        )
    };
    let cell = |text: &str| text.replace('|', "\\|").replace('\n', " ");
    let mut tools = mcp_tool::registered();
    tools.sort_by_key(|entry| line(entry.location()));
    let mut table = String::from("| tool | what it does |\n|---|---|\n");
    for entry in tools {
        let description = cell(entry.description());
        table.push_str(&format!("| `{}` | {description} |\n", entry.name()));
    }
    table.push_str("\n| prompt or resource | what it gives |\n|---|---|\n");
    for prompt in server.prompts() {
        let description = cell(prompt.description.as_deref().unwrap_or_default());
        table.push_str(&format!("| prompt `{}` | {description} |\n", prompt.name));
    }
    let resources = (server.resources().iter()).map(|r| (&r.uri, &r.description));
    let templates = (server.resource_templates().iter()).map(|t| (&t.uri_template, &t.description));
    for (uri, description) in resources.chain(templates) {
        let description = cell(description.as_deref().unwrap_or_default());
        table.push_str(&format!("| resource `{uri}` | {description} |\n"));
    }
    table
}

// ---------------------------------------------------------------------------
// The tools

/// What `search` found.
#[derive(Debug, Serialize, JsonSchema)]
struct SearchResults {
    /// The matching entries, in path order.
    matches: Vec<Match>,
    /// True when more entries matched than `max_results` allowed.
    truncated: bool,
}

/// One matching file or directory.
#[derive(Debug, Serialize, JsonSchema)]
struct Match {
    /// Path relative to the root, with `/` separators.
    path: String,
    /// Whether the entry is a directory.
    is_dir: bool,
    /// Size in bytes.
    size: u64,
    /// Last modification time, RFC 3339.
    modified: String,
}

/// Walks the tree under the root (or under `path`) and returns the relative paths, sizes and modification times of the entries whose attributes match the CEL `filter`.
#[mcp_tool(read_only, idempotent)]
fn search(
    call: mcp_tool::Context,
    root: State<Root>,
    /// A CEL expression over the attributes that `list_attributes` returns, e.g. `ext == "rs" && size > 1024`. Defaults to matching every entry.
    filter: Option<String>,
    /// A directory to search in, relative to the root. Defaults to the root.
    path: Option<String>,
    /// The most entries to return. Defaults to 100.
    #[arg(range(min = 1, max = 1000), default = 100)]
    max_results: u32,
) -> Result<SearchResults, ToolError> {
    let program = filter.as_deref().map(compile).transpose()?;
    walk(&call, &root, program.as_ref(), path.as_deref(), max_results)
}

/// What `search` does once its filter compiled; saved searches run it too. It blocks:
/// call it on the blocking thread pool.
fn walk(
    call: &mcp_tool::Context,
    root: &Root,
    program: Option<&Program>,
    path: Option<&str>,
    max_results: u32,
) -> Result<SearchResults, ToolError> {
    let start = resolve(root, "path", path.unwrap_or("."))?;
    if !start.is_dir() {
        return Err(ToolError::new("`path` must name a directory, not a file"));
    }
    let mut base = Context::default();
    base.add_variable_from_value("now", Value::Timestamp(Utc::now().fixed_offset()));

    // A plain `fn` runs on the blocking pool; it sends notifications through the runtime.
    let runtime = tokio::runtime::Handle::current();
    let mut matches = Vec::new();
    let mut walked = 0_usize;
    let walk = walkdir::WalkDir::new(&start)
        .min_depth(1)
        .sort_by_file_name()
        .into_iter()
        // Unreadable entries are skipped: a search reports what it can see.
        .filter_map(Result::ok);
    for found in walk {
        if call.is_cancelled() {
            // The client gets no reply to a cancelled call; this only ends the walk.
            return Err(ToolError::new("the search was cancelled"));
        }
        walked += 1;
        let Ok(metadata) = found.metadata() else {
            continue;
        };
        let Ok(relative) = found.path().strip_prefix(&root.0) else {
            continue;
        };
        let entry = Entry::new(relative, &metadata);
        if let Some(program) = program
            && !entry.matches(program, &base)?
        {
            continue;
        }
        if matches.len() == max_results as usize {
            return Ok(SearchResults {
                matches,
                truncated: true,
            });
        }
        matches.push(Match {
            modified: entry.modified_rfc3339(),
            path: entry.path,
            is_dir: entry.is_dir,
            size: entry.size,
        });
        // Progress: the matches found so far, of at most `max_results`.
        runtime.block_on(call.progress(matches.len(), max_results));
    }
    // The root's absolute path is masked to its name on its way to the client.
    runtime.block_on(call.info(format!(
        "searched {walked} entries under {}; {} matched",
        root.0.display(),
        matches.len()
    )));
    Ok(SearchResults {
        matches,
        truncated: false,
    })
}

/// The attributes a `search` filter can use.
#[derive(Debug, Serialize, JsonSchema)]
struct AttributeList {
    /// Every attribute, with its CEL type.
    attributes: Vec<AttributeInfo>,
    /// Filters that show the syntax.
    examples: Vec<&'static str>,
}

/// One attribute of a file.
#[derive(Debug, Serialize, JsonSchema)]
struct AttributeInfo {
    /// The name to use in a filter.
    name: &'static str,
    /// Its CEL type: string, int, bool or timestamp.
    #[serde(rename = "type")]
    kind: &'static str,
    /// What it holds.
    description: &'static str,
}

/// Returns the name, CEL type and description of every attribute a `search` filter can use, with example filters.
#[mcp_tool(read_only, idempotent)]
fn list_attributes() -> AttributeList {
    AttributeList {
        attributes: ATTRIBUTES
            .iter()
            .map(|a| AttributeInfo {
                name: a.name,
                kind: a.kind,
                description: a.description,
            })
            .chain([AttributeInfo {
                name: "now",
                kind: "timestamp",
                description: "The time the search started, to compare with `modified`.",
            }])
            .collect(),
        examples: vec![
            r#"ext == "rs" && size > 1024"#,
            r#"!is_dir && name.startsWith("test_")"#,
            r#"modified > now - duration("24h")"#,
            r#"content_type.startsWith("image/") && depth <= 2"#,
        ],
    }
}

/// Everything known about one file or directory.
#[derive(Debug, Serialize, JsonSchema)]
struct FileAttributes {
    /// Path relative to the root, with `/` separators.
    path: String,
    /// Content type guessed from the extension, e.g. `text/x-rust`.
    content_type: &'static str,
    /// Size in bytes.
    size: u64,
    /// Last modification time, RFC 3339.
    modified: String,
    /// Whether the entry is a directory.
    is_dir: bool,
    /// Whether the entry is a symbolic link (its target stays inside the root).
    is_symlink: bool,
    /// Whether the entry is read-only.
    readonly: bool,
    /// Number of lines, for UTF-8 text files up to 1 MiB.
    #[serde(skip_serializing_if = "Option::is_none")]
    lines: Option<u64>,
}

/// Returns the content type, size, modification time, kind, permissions and line count of one file or directory given by its path relative to the root, without running a filter.
#[mcp_tool(read_only, idempotent, scopes = ["files:read"])]
fn read_attributes(
    root: State<Root>,
    /// The file's path relative to the root, e.g. `src/main.rs`.
    path: String,
) -> Result<FileAttributes, ToolError> {
    let full = resolve(&root, "path", &path)?;
    let metadata = full
        .symlink_metadata()
        .map_err(|_| ToolError::new("`path` names an entry that cannot be read"))?;
    let relative = full.strip_prefix(&root.0).unwrap_or(Path::new("."));
    let entry = Entry::new(relative, &metadata);
    let lines = (metadata.is_file() && entry.size <= 1 << 20)
        .then(|| std::fs::read(&full).ok())
        .flatten()
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .map(|text| text.lines().count() as u64);
    Ok(FileAttributes {
        modified: entry.modified_rfc3339(),
        content_type: entry.content_type,
        size: entry.size,
        is_dir: entry.is_dir,
        is_symlink: metadata.is_symlink(),
        readonly: metadata.permissions().readonly(),
        lines,
        path: entry.path,
    })
}

// ---------------------------------------------------------------------------
// Attributes and filters

/// One file or directory, as a filter sees it.
#[derive(Debug)]
struct Entry {
    path: String,
    name: String,
    ext: String,
    content_type: &'static str,
    size: u64,
    modified: DateTime<FixedOffset>,
    is_dir: bool,
    is_symlink: bool,
    depth: usize,
}

impl Entry {
    fn new(relative: &Path, metadata: &Metadata) -> Self {
        let parts: Vec<_> = relative
            .components()
            .filter_map(|c| match c {
                Component::Normal(part) => Some(part.to_string_lossy()),
                _ => None,
            })
            .collect();
        let content_type = if metadata.is_dir() {
            "inode/directory"
        } else {
            mime_guess::from_path(relative)
                .first_raw()
                .unwrap_or("application/octet-stream")
        };
        Self {
            path: if parts.is_empty() {
                ".".into()
            } else {
                parts.join("/")
            },
            name: parts.last().map(|p| p.to_string()).unwrap_or_default(),
            ext: relative
                .extension()
                .map(|e| e.to_string_lossy().into_owned())
                .unwrap_or_default(),
            content_type,
            size: metadata.len(),
            modified: metadata
                .modified()
                .map(DateTime::<Utc>::from)
                .unwrap_or_default()
                .fixed_offset(),
            is_dir: metadata.is_dir(),
            is_symlink: metadata.is_symlink(),
            depth: parts.len(),
        }
    }

    fn modified_rfc3339(&self) -> String {
        self.modified.to_rfc3339_opts(SecondsFormat::Secs, true)
    }

    /// Runs the filter on this entry; an error names the `filter` argument.
    fn matches(&self, program: &Program, base: &Context<'_, '_>) -> Result<bool, ToolError> {
        let mut scope = base.new_inner_scope();
        for attribute in ATTRIBUTES {
            scope.add_variable_from_value(attribute.name, (attribute.value)(self));
        }
        match program.execute(&scope) {
            Ok(Value::Bool(keep)) => Ok(keep),
            Ok(other) => Err(ToolError::new(format!(
                "`filter` must evaluate to a boolean, but gave a value of type {} for `{}`; \
                 compare an attribute, e.g. `size > 1024`",
                other.type_of(),
                self.path
            ))),
            Err(ExecutionError::UndeclaredReference(name)) => Err(ToolError::new(format!(
                "`filter`: unknown attribute `{name}`; attributes: {}",
                attribute_names()
            ))),
            Err(error) => Err(ToolError::new(format!(
                "`filter` failed on `{}`: {}",
                self.path,
                evaluation_error(&error)
            ))),
        }
    }
}

/// What went wrong in evaluating a filter, in words for the model (CEL's own messages
/// print some values in Rust's debug notation).
fn evaluation_error(error: &ExecutionError) -> String {
    match error {
        ExecutionError::FunctionError { function, .. } if function == "timestamp" => {
            "`timestamp(...)` needs an RFC 3339 text such as \"2026-01-31T12:00:00Z\"".into()
        }
        ExecutionError::FunctionError { function, .. } if function == "duration" => {
            "`duration(...)` needs a text such as \"90s\" or \"1h30m\"".into()
        }
        ExecutionError::DivisionByZero(_) | ExecutionError::RemainderByZero(_) => {
            "division by zero".into()
        }
        ExecutionError::IndexOutOfBounds(index) => {
            format!("index {} is out of bounds", index_text(index))
        }
        ExecutionError::ValuesNotComparable(left, right)
        | ExecutionError::UnsupportedBinaryOperator(_, left, right) => format!(
            "a {} and a {} do not go together there",
            left.type_of(),
            right.type_of()
        ),
        other => other.to_string(),
    }
}

fn index_text(index: &Value) -> String {
    match index {
        Value::Int(i) => i.to_string(),
        Value::UInt(u) => u.to_string(),
        other => other.type_of().to_string(),
    }
}

/// An attribute that filters can use, and how to read it from an entry.
struct Attribute {
    name: &'static str,
    kind: &'static str,
    description: &'static str,
    value: fn(&Entry) -> Value,
}

/// The single list `search` binds and `list_attributes` reports, so they cannot drift.
const ATTRIBUTES: &[Attribute] = &[
    Attribute {
        name: "name",
        kind: "string",
        description: "The file name with its extension, e.g. `main.rs`.",
        value: |e| e.name.clone().into(),
    },
    Attribute {
        name: "ext",
        kind: "string",
        description: "The extension without its dot, e.g. `rs`; empty when there is none.",
        value: |e| e.ext.clone().into(),
    },
    Attribute {
        name: "path",
        kind: "string",
        description: "The path relative to the root, with `/` separators, e.g. `src/main.rs`.",
        value: |e| e.path.clone().into(),
    },
    Attribute {
        name: "size",
        kind: "int",
        description: "The size in bytes.",
        value: |e| Value::Int(i64::try_from(e.size).unwrap_or(i64::MAX)),
    },
    Attribute {
        name: "modified",
        kind: "timestamp",
        description: "The last modification time, e.g. `modified > timestamp(\"2025-01-01T00:00:00Z\")`.",
        value: |e| Value::Timestamp(e.modified),
    },
    Attribute {
        name: "content_type",
        kind: "string",
        description: "The content type guessed from the extension, e.g. `text/x-rust`; `inode/directory` for a directory.",
        value: |e| e.content_type.into(),
    },
    Attribute {
        name: "is_dir",
        kind: "bool",
        description: "Whether the entry is a directory.",
        value: |e| Value::Bool(e.is_dir),
    },
    Attribute {
        name: "is_symlink",
        kind: "bool",
        description: "Whether the entry is a symbolic link (links are listed, not followed).",
        value: |e| Value::Bool(e.is_symlink),
    },
    Attribute {
        name: "depth",
        kind: "int",
        description: "How many directories deep the entry is: 1 for an entry directly in the root.",
        value: |e| Value::Int(i64::try_from(e.depth).unwrap_or(i64::MAX)),
    },
];

fn attribute_names() -> String {
    let names: Vec<_> = ATTRIBUTES.iter().map(|a| a.name).chain(["now"]).collect();
    names.join(", ")
}

/// The longest filter accepted, in bytes: room for any real filter, too little for
/// the pathological ones.
const MAX_FILTER_BYTES: usize = 1_000;

/// The deepest nesting of brackets (and runs of `!` or `-`) a filter may have: CEL's
/// parser recurses on each, with large frames.
const MAX_FILTER_BRACKETS: usize = 12;

/// The deepest nesting a filter may have (each operator, member access, index and call
/// is a level). CEL evaluates a filter recursively, so an unbounded one could exhaust
/// the thread's stack and take the whole process down; a tool must bound the cost of
/// what it runs before it runs it.
const MAX_FILTER_DEPTH: usize = 32;

/// Compiles a filter; a syntax error names the `filter` argument and where it went
/// wrong, and a filter too long or too deep is refused before it is parsed or run.
fn compile(source: &str) -> Result<Program, ToolError> {
    if source.len() > MAX_FILTER_BYTES {
        return Err(ToolError::new(format!(
            "`filter` is {} bytes long; at most {MAX_FILTER_BYTES} are allowed: write a \
             shorter expression",
            source.len()
        )));
    }
    if brackets_over(source, MAX_FILTER_BRACKETS) {
        return Err(ToolError::new(format!(
            "`filter` nests brackets (or repeats `!` or `-`) more than \
             {MAX_FILTER_BRACKETS} deep: write a flatter expression"
        )));
    }
    let program = parse(source)?;
    if depth_over(program.expression(), MAX_FILTER_DEPTH) {
        return Err(ToolError::new(format!(
            "`filter` nests more than {MAX_FILTER_DEPTH} levels deep (operators, member \
             accesses, indexes and calls each add one): write a flatter expression"
        )));
    }
    Ok(program)
}

/// Whether a filter's text nests brackets, or repeats the prefix operators `!` and
/// `-`, deeper than `limit`, outside string literals: checked before parsing, since
/// the parser recurses on each.
fn brackets_over(source: &str, limit: usize) -> bool {
    let (mut depth, mut prefixes) = (0usize, 0usize);
    let mut quote: Option<char> = None;
    let mut chars = source.chars();
    while let Some(c) = chars.next() {
        if let Some(open) = quote {
            match c {
                '\\' => {
                    chars.next();
                }
                c if c == open => quote = None,
                _ => {}
            }
            continue;
        }
        match c {
            '"' | '\'' => quote = Some(c),
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            '!' | '-' => prefixes += 1,
            c if c.is_whitespace() => continue,
            _ => prefixes = 0,
        }
        if depth > limit || prefixes > limit {
            return true;
        }
    }
    false
}

/// Whether an expression nests deeper than `limit`. Walks with a stack of its own, so
/// that measuring a deep expression cannot exhaust the thread's stack either.
fn depth_over(root: &IdedExpr, limit: usize) -> bool {
    let mut pending = vec![(root, 1)];
    while let Some((node, depth)) = pending.pop() {
        if depth > limit {
            return true;
        }
        let below = depth + 1;
        match &node.expr {
            Expr::Call(call) => {
                pending.extend(call.target.iter().map(|target| (&**target, below)));
                pending.extend(call.args.iter().map(|arg| (arg, below)));
            }
            Expr::Comprehension(loop_) => pending.extend(
                [
                    &loop_.iter_range,
                    &loop_.accu_init,
                    &loop_.loop_cond,
                    &loop_.loop_step,
                    &loop_.result,
                ]
                .map(|part| (part, below)),
            ),
            Expr::List(list) => pending.extend(list.elements.iter().map(|e| (e, below))),
            Expr::Map(MapExpr { entries }) | Expr::Struct(StructExpr { entries, .. }) => {
                for entry in entries {
                    match &entry.expr {
                        EntryExpr::MapEntry(pair) => {
                            pending.extend([(&pair.key, below), (&pair.value, below)]);
                        }
                        EntryExpr::StructField(field) => pending.push((&field.value, below)),
                    }
                }
            }
            Expr::Select(select) => pending.push((&select.operand, below)),
            Expr::Ident(_) | Expr::Literal(_) | Expr::Unspecified => {}
        }
    }
    false
}

/// Parses a filter; a syntax error names the `filter` argument and where it went wrong.
fn parse(source: &str) -> Result<Program, ToolError> {
    Program::compile(source).map_err(|errors| {
        let detail = errors
            .errors
            .first()
            .map(|e| {
                let message = e.msg.strip_prefix("Syntax error: ").unwrap_or(&e.msg);
                format!(" at column {}: {message}", e.pos.1)
            })
            .unwrap_or_default();
        ToolError::new(format!(
            "`filter`: syntax error{detail}; write a CEL expression such as \
             `ext == \"rs\" && size > 1024` over the attributes {}",
            attribute_names()
        ))
    })
}

/// Text the client sent, cut to `chars` characters (with `…`) where a message echoes it.
fn clipped(text: &str, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}

/// Resolves a path given relative to the root, refusing anything that leads outside it.
fn resolve(root: &Root, argument: &str, path: &str) -> Result<PathBuf, ToolError> {
    let root = root.0.as_path();
    let outside = || {
        ToolError::new(format!(
            "`{argument}` must stay inside the root; give a path relative to it, like `src/main.rs`"
        ))
    };
    let requested = Path::new(path);
    let requested = match requested.strip_prefix(root) {
        Ok(inside) => inside,
        Err(_) => requested,
    };
    // Normalize by hand first, so nothing outside the root is ever touched.
    let mut relative = PathBuf::new();
    for component in requested.components() {
        match component {
            Component::Normal(part) => relative.push(part),
            Component::CurDir => {}
            Component::ParentDir => {
                if !relative.pop() {
                    return Err(outside());
                }
            }
            Component::RootDir | Component::Prefix(_) => return Err(outside()),
        }
    }
    let full = root.join(&relative);
    let resolved = full.canonicalize().map_err(|_| {
        // The name goes back as sent, unless it holds markup or control characters: an
        // error has no need to carry those back to a client that may render it.
        let name = relative.display().to_string();
        let plain = !name.chars().any(|c| c.is_control() || "<>".contains(c));
        let named = match plain {
            true => format!("named `{}`", clipped(&name, 200)),
            false => "by that name".to_owned(),
        };
        ToolError::new(format!(
            "`{argument}`: nothing {named} under the root; `search` lists what is there"
        ))
    })?;
    // A symbolic link may still lead elsewhere.
    if !resolved.starts_with(root) {
        return Err(outside());
    }
    Ok(full)
}
