//! The link-time registry of tools: what `#[mcp_tool]` submits and the server collects.

use schemars::{Schema, SchemaGenerator};

use crate::call::future::{CallInput, ToolFuture};
use crate::call::param::ParamSpec;
use crate::call::schema::SchemaDialect;
use crate::model::TaskSupport;

/// One tool registered by `#[mcp_tool]`.
///
/// The attribute submits a static `ToolEntry` for every tool; [`registered`]
/// lists them all, and [`Server::from_registry`](crate::Server::from_registry)
/// serves them.
pub struct ToolEntry {
    spec: ToolSpec,
}

/// What the attribute knows about a tool at compile time.
#[doc(hidden)]
#[derive(Debug)]
pub struct ToolSpec {
    pub name: &'static str,
    pub description: &'static str,
    pub title: Option<&'static str>,
    pub read_only: Option<bool>,
    pub destructive: Option<bool>,
    pub idempotent: Option<bool>,
    pub open_world: Option<bool>,
    /// `timeout = "..."`, in milliseconds: over the server's.
    pub timeout_ms: Option<u64>,
    /// `schema = "..."`: how the tool's schemas are written.
    pub schema: SchemaDialect,
    /// `task = "..."`: whether a call may run as a task.
    pub task: TaskSupport,
    /// `task_begins = "in_body"`: the task begins at `ctx.begin_task()`.
    pub task_in_body: bool,
    pub tags: &'static [&'static str],
    /// `scopes = [...]`: what a token must grant to call it over HTTP.
    pub scopes: &'static [&'static str],
    /// Each icon's URI.
    pub icons: &'static [&'static str],
    /// `meta = "..."`: a JSON object's text, checked by the attribute.
    pub meta: Option<&'static str>,
    pub params: &'static [ParamSpec],
    pub output_schema: fn(&mut SchemaGenerator) -> Option<Schema>,
    pub call: fn(&CallInput<'_>) -> ToolFuture,
    pub file: &'static str,
    pub line: u32,
    pub module_path: &'static str,
}

impl ToolEntry {
    #[doc(hidden)]
    pub const fn __new(spec: ToolSpec) -> Self {
        Self { spec }
    }

    /// The tool's name, as clients call it.
    pub fn name(&self) -> &'static str {
        self.spec.name
    }

    /// The tool's description, as clients show it to the model.
    pub fn description(&self) -> &'static str {
        self.spec.description
    }

    /// The tool's tags, as `#[mcp_tool(tags = [...])]` gives them.
    ///
    /// ```standalone_crate
    /// /// Finds files whose name matches a pattern.
    /// #[mcp_tool::mcp_tool(tags = ["search", "files"])]
    /// fn find(pattern: String) -> Vec<String> { vec![pattern] }
    ///
    /// let find = mcp_tool::registered().into_iter().find(|t| t.name() == "find").unwrap();
    /// assert_eq!(find.tags(), ["search", "files"]);
    /// ```
    pub fn tags(&self) -> &'static [&'static str] {
        self.spec.tags
    }

    /// Where the tool is defined, as `file:line`.
    pub fn location(&self) -> String {
        format!("{}:{}", self.spec.file, self.spec.line)
    }

    /// The module path of the tool's function.
    pub fn module_path(&self) -> &'static str {
        self.spec.module_path
    }

    /// The types of the `State<T>` parameters the tool asks for, by id and name.
    pub(crate) fn states(&self) -> impl Iterator<Item = (std::any::TypeId, &'static str)> {
        crate::call::param::states(self.spec.params)
    }

    pub(crate) fn spec(&self) -> &ToolSpec {
        &self.spec
    }
}

impl std::fmt::Debug for ToolEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolEntry")
            .field("name", &self.spec.name)
            .field("location", &self.location())
            .finish_non_exhaustive()
    }
}

inventory::collect!(ToolEntry);

/// Every tool registered in this program, in a stable order (by name, then location).
///
/// Tools defined in a dependency crate that nothing else in the program uses
/// are dropped by the linker; [`link!`](crate::link) keeps them.
pub fn registered() -> Vec<&'static ToolEntry> {
    let mut entries: Vec<&'static ToolEntry> = inventory::iter::<ToolEntry>.into_iter().collect();
    entries.sort_by(|a, b| {
        (a.spec.name, a.spec.file, a.spec.line).cmp(&(b.spec.name, b.spec.file, b.spec.line))
    });
    entries
}
