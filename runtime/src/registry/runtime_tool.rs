//! Tools defined at run time: a name, a description, schemas given as JSON (or derived
//! from a type) and an async handler, checked as `#[mcp_tool]` checks its tools at
//! compile time, when they are added to a server.

use std::collections::HashSet;
use std::fmt;
use std::panic::Location;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use schemars::JsonSchema;
use serde_json::{Map, Value};

use crate::call::arguments::{Arguments, CallArguments, lenient};
use crate::call::future::{CallInput, ToolFuture};
use crate::call::param::Leniency;
use crate::call::schema;
use crate::model::{TaskSupport, ToolAnnotations, ToolInfo};
use crate::outcome::error::ServerError;
use crate::registry::param_headers;
use crate::registry::runtime_handler::{Handler, RuntimeHandler};
use crate::registry::tool_name;

/// A tool defined at run time, from a configuration file, a database table or an API
/// description, rather than with `#[mcp_tool]`: give it to
/// [`Server::tool`](crate::Server::tool) before the server is built, or to
/// [`ToolServer::add_tool`](crate::ToolServer::add_tool) while it serves.
///
/// Its handler is an async function of the call's [`Arguments`] (read by name, with every
/// fault reported at once as an attribute tool's are) and, if it asks for one, its
/// [`Context`](crate::Context) (see [`RuntimeHandler`]); it returns
/// content, as an attribute tool may: a `String`, `()`, a
/// [`Content`](crate::model::Content) block, a `Vec` of them, a
/// [`Structured`](crate::Structured) value (structured output with its JSON as text,
/// for a tool with an output schema, as an attribute tool's return value becomes), or a
/// whole [`ToolResult`](crate::model::ToolResult).
///
/// The checks `#[mcp_tool]` makes at compile time are made when the tool is added, and
/// fail with a [`ServerError`]: a snake_case name, a description, object schemas, a
/// handler.
///
/// ```
/// use mcp_tool::{Arguments, Context, RuntimeTool, ToolError};
///
/// let tool = RuntimeTool::new("shout", "Returns a text in capital letters.")
///     .input_schema(serde_json::json!({
///         "type": "object",
///         "properties": { "text": { "type": "string", "description": "The text." } },
///         "required": ["text"]
///     }))
///     .read_only(true)
///     .handler(|mut args: Arguments, _ctx: Context| async move {
///         let text = args.required_str("text");
///         args.finish()?;
///         Ok::<_, ToolError>(text.to_uppercase())
///     });
/// assert_eq!(tool.name(), "shout");
/// ```
#[must_use = "a tool does nothing until it is given to a server"]
pub struct RuntimeTool {
    name: String,
    description: String,
    title: Option<String>,
    input_schema: Value,
    output_schema: Option<Value>,
    annotations: ToolAnnotations,
    tags: Vec<String>,
    scopes: Vec<String>,
    timeout: Option<Duration>,
    task: TaskSupport,
    task_in_body: bool,
    handler: Option<Handler>,
    location: &'static Location<'static>,
    /// Where the tool comes from, in place of `location`.
    origin: Option<String>,
    /// Whether its name is another server's, held to the specification's rule alone.
    foreign_name: bool,
    leniency: Leniency,
    /// `(argument, header)`: each argument mirrored in its `Mcp-Param-{header}`.
    headers: Vec<(String, String)>,
}

impl RuntimeTool {
    /// A tool named `name` (snake_case, as clients call it) that `description` describes
    /// to the model; without arguments until [`input_schema`](Self::input_schema) says.
    /// Where it is called is the tool's origin in errors.
    #[track_caller]
    pub fn new(name: impl Into<String>, description: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            description: description.into(),
            title: None,
            input_schema: serde_json::json!({
                "type": "object",
                "properties": {},
                "additionalProperties": false
            }),
            output_schema: None,
            annotations: ToolAnnotations::default(),
            tags: Vec::new(),
            scopes: Vec::new(),
            timeout: None,
            task: TaskSupport::Forbidden,
            task_in_body: false,
            handler: None,
            location: Location::caller(),
            origin: None,
            foreign_name: false,
            leniency: Leniency::Server,
            headers: Vec::new(),
        }
    }

    /// The tool's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether a call may run as a task.
    pub(crate) fn task_support(&self) -> TaskSupport {
        self.task
    }

    /// Where the tool was made, as `file:line` (of the call of [`new`](Self::new), or of
    /// the caller of a `#[track_caller]` function that called it), or as
    /// [`origin`](Self::origin) says.
    pub fn location(&self) -> String {
        match &self.origin {
            Some(origin) => origin.clone(),
            None => format!("{}:{}", self.location.file(), self.location.line()),
        }
    }

    /// Where the tool comes from, for errors that name it, in place of where it was made:
    /// a tool made from a configuration file names the file.
    ///
    /// ```
    /// let tool = mcp_tool::RuntimeTool::new("Bad", "Returns nothing.").origin("searches.toml");
    /// assert_eq!(tool.location(), "searches.toml");
    /// ```
    pub fn origin(mut self, origin: impl Into<String>) -> Self {
        self.origin = Some(origin.into());
        self
    }

    /// A title for people, shown by clients in place of the name.
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// The JSON Schema of the tool's arguments: an object schema (`"type": "object"`).
    pub fn input_schema(mut self, schema: Value) -> Self {
        self.input_schema = schema;
        self
    }

    /// The input schema of `T`'s fields, as schemars derives it and attribute tools' are
    /// shaped (inlined, with integer widths as bounds, closed with
    /// `"additionalProperties": false` since [`Arguments::finish`] fails on names it does
    /// not list): `T` is a struct.
    ///
    /// ```
    /// /// The arguments of `greet`.
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Greet {
    ///     /// Whom to greet.
    ///     name: String,
    /// }
    ///
    /// let tool = mcp_tool::RuntimeTool::new("greet", "Greets a person by name.")
    ///     .input_schema_for::<Greet>();
    /// # drop(tool);
    /// ```
    pub fn input_schema_for<T: JsonSchema>(self) -> Self {
        let mut schema = schema_of::<T>();
        // Closed, as an attribute tool's is: `Arguments::finish` fails on any other name.
        if let Value::Object(object) = &mut schema {
            object
                .entry("additionalProperties")
                .or_insert(Value::Bool(false));
        }
        self.input_schema(schema)
    }

    /// Converts the arguments a client sends as another JSON type than the input schema
    /// wants (`"10"` for an integer, `"true"` for a boolean, `1.0` for an integer, a
    /// string of JSON for an object or an array) with `true`; keeps them exact whatever
    /// the server's [`lenient_arguments`](crate::Server::lenient_arguments) with `false`.
    /// The same conversions as `#[mcp_tool(lenient)]`, each logged and counted.
    ///
    /// ```
    /// let tool = mcp_tool::RuntimeTool::new("repeat", "Repeats a word a number of times.")
    ///     .lenient(true);
    /// # drop(tool);
    /// ```
    pub fn lenient(mut self, lenient: bool) -> Self {
        self.leniency = if lenient {
            Leniency::Lenient
        } else {
            Leniency::Strict
        };
        self
    }

    /// Mirrors the argument `argument` (a string, integer or boolean property of the
    /// input schema) in the `Mcp-Param-{header}` HTTP header, as `#[arg(header = "...")]`
    /// does for an attribute tool: `x-mcp-header` in the schema (protocol 2026-07-28,
    /// SEP-2243); over HTTP, a call whose header and argument disagree is refused. The
    /// server refuses to build a tool whose header names are no HTTP tokens, repeat, or
    /// name an argument the schema does not have.
    ///
    /// ```
    /// let tool = mcp_tool::RuntimeTool::new("query", "Runs a query in a region.")
    ///     .input_schema(serde_json::json!({
    ///         "type": "object",
    ///         "properties": { "region": { "type": "string" } },
    ///         "required": ["region"]
    ///     }))
    ///     .header("region", "Region");
    /// # drop(tool);
    /// ```
    pub fn header(mut self, argument: impl Into<String>, header: impl Into<String>) -> Self {
        self.headers.push((argument.into(), header.into()));
        self
    }

    /// The JSON Schema of the tool's structured output: an object schema. A tool with
    /// one returns a [`Structured`](crate::Structured) value, or a
    /// [`ToolResult`](crate::model::ToolResult) with
    /// [`with_structured`](crate::model::ToolResult::with_structured).
    pub fn output_schema(mut self, schema: Value) -> Self {
        self.output_schema = Some(schema);
        self
    }

    /// The output schema of `T`, derived as [`input_schema_for`](Self::input_schema_for)
    /// derives one.
    pub fn output_schema_for<T: JsonSchema>(self) -> Self {
        self.output_schema(schema_of::<T>())
    }

    /// Tells clients the tool changes nothing (`readOnlyHint`).
    pub fn read_only(mut self, read_only: bool) -> Self {
        self.annotations.read_only = Some(read_only);
        self
    }

    /// Tells clients whether the tool may destroy data (`destructiveHint`).
    pub fn destructive(mut self, destructive: bool) -> Self {
        self.annotations.destructive = Some(destructive);
        self
    }

    /// Tells clients whether calling the tool twice does what calling it once does
    /// (`idempotentHint`).
    pub fn idempotent(mut self, idempotent: bool) -> Self {
        self.annotations.idempotent = Some(idempotent);
        self
    }

    /// Tells clients whether the tool reaches outside the server (`openWorldHint`).
    pub fn open_world(mut self, open_world: bool) -> Self {
        self.annotations.open_world = Some(open_world);
        self
    }

    /// Tags, listed under `_meta["mcp-tool/tags"]` as an attribute tool's are.
    pub fn tags<I, S>(mut self, tags: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.tags = tags.into_iter().map(Into::into).collect();
        self
    }

    /// The scopes an access token must grant to call the tool over HTTP, as
    /// `#[mcp_tool(scopes = [...])]` gives them; see
    /// [`Server::authorization`](crate::Server::authorization). A call without them gets
    /// `403` with `error="insufficient_scope"`.
    ///
    /// ```
    /// let tool = mcp_tool::RuntimeTool::new("purge", "Deletes the cache.").scopes(["cache:admin"]);
    /// # drop(tool);
    /// ```
    pub fn scopes<I, S>(mut self, scopes: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// Fails a call that runs longer than `limit`, in place of the server's timeout.
    pub fn timeout(mut self, limit: Duration) -> Self {
        self.timeout = Some(limit);
        self
    }

    /// Whether a call may run as a task (the tasks extension): as
    /// `#[mcp_tool(task = "...")]` says for an attribute tool. A task runs the same
    /// handler; its progress becomes the task's status message, its questions the task's
    /// input requests.
    ///
    /// ```
    /// use mcp_tool::model::TaskSupport;
    /// use mcp_tool::{Arguments, RuntimeTool, ToolError};
    ///
    /// let report = RuntimeTool::new("build_report", "Builds the quarterly report.")
    ///     .task(TaskSupport::Optional)
    ///     .handler(|args: Arguments| async move {
    ///         args.finish()?;
    ///         Ok::<_, ToolError>("report ready")
    ///     });
    /// # let _ = report;
    /// ```
    pub fn task(mut self, support: TaskSupport) -> Self {
        self.task = support;
        self
    }

    /// The call's task begins where the handler calls
    /// [`Context::begin_task`](crate::Context::begin_task), not with the call, as
    /// `#[mcp_tool(task_begins = "in_body")]` says for an attribute tool: until then
    /// the call runs within its request. Only for a tool that allows tasks.
    pub fn task_begins_in_body(mut self) -> Self {
        self.task_in_body = true;
        self
    }

    /// What a call runs: an async function of the call's [`Arguments`], and of its
    /// [`Context`](crate::Context) if it wants one (see [`RuntimeHandler`]), that returns content or a
    /// [`ToolError`](crate::ToolError). A panic in it fails the call, not the server.
    ///
    /// ```
    /// use mcp_tool::{Arguments, Context, RuntimeTool, ToolError};
    ///
    /// // Without a `Context`: the call makes none.
    /// let echo = RuntimeTool::new("echo", "Returns its text.").handler(|mut args: Arguments| async move {
    ///     let text = args.required_str("text");
    ///     args.finish()?;
    ///     Ok::<_, ToolError>(text)
    /// });
    /// // With one: it reports progress, logs, notices cancellation.
    /// let wait = RuntimeTool::new("wait", "Waits until cancelled.").handler(
    ///     |args: Arguments, ctx: Context| async move {
    ///         args.finish()?;
    ///         ctx.cancelled().await;
    ///         Ok::<_, ToolError>("cancelled")
    ///     },
    /// );
    /// # drop((echo, wait));
    /// ```
    pub fn handler<T>(mut self, handler: impl RuntimeHandler<T>) -> Self {
        self.handler = Some(handler.into_handler());
        self
    }

    /// Holds the name to the specification's rule (`[A-Za-z0-9_.-]{1,128}`), not to
    /// snake_case: the name an upstream server gave its tool.
    #[cfg(feature = "proxy")]
    pub(crate) fn foreign_name(mut self) -> Self {
        self.foreign_name = true;
        self
    }

    /// The tool as a server serves it, once checked; `timeout` is the server's.
    pub(crate) fn build(self, timeout: Option<Duration>) -> Result<CheckedTool, ServerError> {
        let invalid = |problem: String| ServerError::InvalidTool {
            name: self.name.clone(),
            location: self.location(),
            problem,
        };
        if let Some(problem) = match self.foreign_name {
            true => tool_name::foreign_problem(&self.name),
            false => tool_name::problem(&self.name),
        } {
            return Err(invalid(problem));
        }
        if self.description.trim().is_empty() {
            return Err(invalid(
                "its description is empty: say what the tool does, with which inputs and \
                 outputs"
                    .to_owned(),
            ));
        }
        let mut input_schema = object_schema(&self.input_schema)
            .map_err(|kind| invalid(format!("its input schema is {kind}, {NOT_AN_OBJECT}")))?;
        param_headers::mirror(&mut input_schema, &self.headers).map_err(invalid)?;
        let output_schema = match &self.output_schema {
            Some(schema) => Some(object_schema(schema).map_err(|kind| {
                invalid(format!("its output schema is {kind}, {NOT_AN_OBJECT}"))
            })?),
            None => None,
        };
        if let Some(problem) = scopes_problem(&self.scopes) {
            return Err(invalid(problem));
        }
        let Some(handler) = self.handler.clone() else {
            return Err(invalid(
                "it has no handler: give it the function its calls run with `.handler(...)`"
                    .to_owned(),
            ));
        };
        let declared: Arc<[String]> = match input_schema.get("properties") {
            Some(Value::Object(properties)) => properties.keys().cloned().collect(),
            _ => Arc::from([]),
        };
        let annotations = &self.annotations;
        let has_annotations = annotations.read_only.is_some()
            || annotations.destructive.is_some()
            || annotations.idempotent.is_some()
            || annotations.open_world.is_some();
        let meta = (!self.tags.is_empty()).then(|| {
            let mut meta = Map::new();
            meta.insert("mcp-tool/tags".to_owned(), self.tags.clone().into());
            meta
        });
        let info = ToolInfo {
            name: self.name.clone(),
            title: self.title.clone(),
            description: Some(self.description.clone()),
            input_schema,
            output_schema,
            annotations: has_annotations.then(|| self.annotations.clone()),
            icons: Vec::new(),
            meta,
            scopes: self.scopes.clone(),
        };
        Ok(CheckedTool {
            name: intern(&self.name),
            info,
            timeout: self.timeout.or(timeout),
            task: self.task,
            task_in_body: self.task_in_body,
            declared,
            handler,
            location: self.location(),
            leniency: self.leniency,
        })
    }
}

impl fmt::Debug for RuntimeTool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RuntimeTool")
            .field("name", &self.name)
            .field("location", &self.location())
            .finish_non_exhaustive()
    }
}

const NOT_AN_OBJECT: &str = "not a JSON Schema of an object: write one with \
                             `\"type\": \"object\"` and the arguments under `\"properties\"`";

/// A schema that describes an object, as MCP requires of tool schemas; else what it is.
fn object_schema(schema: &Value) -> Result<Map<String, Value>, String> {
    match schema {
        Value::Object(object) => match object.get("type") {
            Some(Value::String(kind)) if kind == "object" => Ok(object.clone()),
            Some(other) => Err(format!("of type {other}")),
            None => Err("without `\"type\"`".to_owned()),
        },
        Value::Null => Err("`null`".to_owned()),
        Value::Bool(_) => Err("a boolean".to_owned()),
        Value::Number(_) => Err("a number".to_owned()),
        Value::String(_) => Err("a string".to_owned()),
        Value::Array(_) => Err("an array".to_owned()),
    }
}

/// The schema of `T`, shaped as attribute tools' schemas are.
fn schema_of<T: JsonSchema>() -> Value {
    let mut generator = schema::generator(schemars::generate::Contract::Deserialize);
    let mut value = generator.root_schema_for::<T>().to_value();
    schema::normalize(&mut value);
    // The type's name is Rust's, not the tool's.
    if let Value::Object(object) = &mut value {
        object.remove("title");
    }
    value
}

/// The name as a `&'static str`, which a call's [`Context`] gives: each distinct name is
/// kept once for the life of the process, however often a tool of that name is added.
pub(crate) fn intern(name: &str) -> &'static str {
    static NAMES: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let mut names = NAMES
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(known) = names.get(name) {
        return known;
    }
    let leaked: &'static str = Box::leak(name.to_owned().into_boxed_str());
    names.insert(leaked);
    leaked
}

/// A run-time tool as the server holds it: a [`RuntimeTool`] once `build` checked it.
pub(crate) struct CheckedTool {
    pub(crate) name: &'static str,
    /// What `tools/list` sends.
    pub(crate) info: ToolInfo,
    pub(crate) timeout: Option<Duration>,
    /// Whether a call may run as a task.
    pub(crate) task: TaskSupport,
    /// Whether its task begins at `ctx.begin_task()`, not with the call.
    pub(crate) task_in_body: bool,
    /// The properties of its input schema.
    declared: Arc<[String]>,
    handler: Handler,
    /// Where it was made, as `file:line`.
    pub(crate) location: String,
    leniency: Leniency,
}

impl CheckedTool {
    /// Starts a call, taking its arguments: the handler's future, with its panics caught;
    /// faults its arguments recorded and no `finish` reported fail the call as argument
    /// errors. The arguments are shared into `taken`, for the log if the call fails (the
    /// future, large, is returned alone, so that it is built where the caller keeps it).
    pub(crate) fn start(
        &self,
        input: &mut CallInput<'_>,
        taken: &mut Option<Arc<CallArguments>>,
    ) -> ToolFuture {
        let mut sent = input.take_args();
        if self.leniency.converts(input.lenient) {
            lenient::convert_call(&mut sent, &self.info.input_schema, input);
        }
        let args = Arguments::for_call(sent, Arc::clone(&self.declared));
        *taken = Some(args.call());
        (self.handler)(args, input)
    }
}

impl fmt::Debug for CheckedTool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CheckedTool")
            .field("name", &self.name)
            .field("location", &self.location)
            .finish_non_exhaustive()
    }
}

/// What is wrong with a run-time tool's scopes, by the rule `#[mcp_tool(scopes = [...])]`
/// applies at compile time: each an RFC 6749 scope token (printable ASCII but space, `"`
/// and `\`), none empty, none twice.
fn scopes_problem(scopes: &[String]) -> Option<String> {
    for (at, scope) in scopes.iter().enumerate() {
        if scope.is_empty() {
            return Some("a scope is empty: write one such as \"files:read\"".to_owned());
        }
        if let Some(bad) =
            (scope.chars()).find(|c| !c.is_ascii_graphic() || matches!(c, '"' | '\\'))
        {
            return Some(format!(
                "the scope {scope:?} is not one word of printable ASCII (RFC 6749), without \
                 spaces, quotes or backslashes ({bad:?}): give several scopes as several \
                 strings, such as `.scopes([\"files:read\", \"files:write\"])`"
            ));
        }
        if scopes[..at].contains(scope) {
            return Some(format!("the scope {scope:?} is given twice: give it once"));
        }
    }
    None
}

#[cfg(test)]
mod tests;
