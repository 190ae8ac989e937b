//! A tool, a prompt or a resource as validation leaves it: every decision made, every
//! value checked, so code generation only writes it out. Validation builds these types;
//! code generation reads nothing else.

use proc_macro2::Span;
use syn::{Expr, Ident, ItemFn, LitStr, Type};

/// One tool, valid.
#[derive(Debug)]
pub(crate) struct Tool {
    /// The name clients call it by.
    pub(crate) name: String,
    pub(crate) description: String,
    pub(crate) title: Option<String>,
    pub(crate) annotations: Annotations,
    /// `timeout = "..."`, in milliseconds, not zero.
    pub(crate) timeout_ms: Option<u64>,
    /// `schema = "..."`: how the tool's schemas are written.
    pub(crate) schema: SchemaDialect,
    /// `task = "..."`: whether a call may run as a task.
    pub(crate) task: TaskSupport,
    /// `task_begins = "in_body"`: the task begins where the body calls
    /// `ctx.begin_task()`, not with the call.
    pub(crate) task_in_body: bool,
    pub(crate) metadata: Metadata,
    /// How generated code names the runtime: `::mcp_tool`, or `crate = "..."`.
    pub(crate) krate: syn::Path,
    /// The function as emitted: the parameter attributes rustc rejects removed.
    pub(crate) function: ItemFn,
    pub(crate) output: Output,
    pub(crate) params: Vec<Param>,
}

/// One prompt, valid.
#[derive(Debug)]
pub(crate) struct Prompt {
    pub(crate) item: Item,
}

/// One resource, valid.
#[derive(Debug)]
pub(crate) struct Resource {
    pub(crate) item: Item,
    pub(crate) address: Address,
    /// `mime_type = "..."`: a type and a subtype.
    pub(crate) mime_type: Option<String>,
    /// The index of each parameter that no template variable binds: the server must give
    /// it, which the runtime checks on its type.
    pub(crate) unbound: Vec<usize>,
}

/// Where a resource is.
#[derive(Debug)]
pub(crate) enum Address {
    /// `uri = "..."`: a URI with a scheme and no variable.
    Uri(String),
    /// `template = "..."`: an RFC 6570 template whose variables, each of them a
    /// parameter's name, are `{name}` or `{+name}`.
    Template(String),
}

/// What a prompt and a resource have alike, checked as a tool's are.
#[derive(Debug)]
pub(crate) struct Item {
    pub(crate) name: String,
    pub(crate) description: String,
    pub(crate) title: Option<String>,
    /// Their icons and `_meta`; a prompt and a resource have no tags.
    pub(crate) metadata: Metadata,
    /// How generated code names the runtime: `::mcp_tool`, or `crate = "..."`.
    pub(crate) krate: syn::Path,
    /// The function as emitted: the parameter attributes rustc rejects removed.
    pub(crate) function: ItemFn,
    pub(crate) output: Output,
    pub(crate) params: Vec<Param>,
}

/// `tags`, `icons`, `meta` and `scopes`, valid.
#[derive(Debug, Default)]
pub(crate) struct Metadata {
    pub(crate) tags: Vec<String>,
    /// Each icon's URI.
    pub(crate) icons: Vec<String>,
    /// `meta = r#"{...}"#`: the text of a JSON object.
    pub(crate) meta: Option<String>,
    /// `scopes = [...]`: RFC 6749 scope tokens, each once.
    pub(crate) scopes: Vec<String>,
}

/// The hints of `read_only`, `destructive`, `idempotent` and `open_world`; `None` where unset.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Annotations {
    pub(crate) read_only: Option<bool>,
    pub(crate) destructive: Option<bool>,
    pub(crate) idempotent: Option<bool>,
    pub(crate) open_world: Option<bool>,
}

/// How a tool's schemas are written.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SchemaDialect {
    /// Inlined, without `$schema`: the default.
    #[default]
    Portable,
    /// `schema = "2020-12"`: `$schema` and `$defs` kept.
    Draft2020_12,
}

/// What the function returns (`()` when it names nothing).
#[derive(Debug)]
pub(crate) struct Output {
    pub(crate) ty: Type,
    /// Where errors about the return type point: the type, or the function's name.
    pub(crate) span: Span,
    /// `T` and `E` of a return type written `Result<T, E>`, whose errors point at each.
    pub(crate) result: Option<(Type, Type)>,
}

/// One parameter: one argument of the tool.
#[derive(Debug)]
pub(crate) struct Param {
    /// Its name, which is the argument's name (without `r#`).
    pub(crate) ident: Ident,
    /// The type as written.
    pub(crate) ty: Type,
    /// The type an argument decodes to: `T` of an `Option<T>`, else the type as written.
    pub(crate) value_ty: Type,
    pub(crate) read: Read,
    pub(crate) doc: Option<String>,
    pub(crate) range: Option<Range>,
    pub(crate) length: Option<Length>,
    /// A regex that parses.
    pub(crate) pattern: Option<LitStr>,
    /// `complete = a_function` (prompts and resources only).
    pub(crate) complete: Option<syn::Path>,
    /// `header = "Region"` (tools only): a valid HTTP header-name token.
    pub(crate) header: Option<LitStr>,
    /// Whether an argument sent as another JSON type is converted before the check.
    pub(crate) leniency: Leniency,
}

/// `lenient` and `strict` (tools only), on the tool and on the parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Leniency {
    /// Neither: as the server says.
    Server,
    /// `#[mcp_tool(lenient)]` or `#[arg(lenient)]`.
    Lenient,
    /// `#[arg(strict)]`.
    Strict,
}

/// How an argument is read, and what an absent one means.
#[derive(Debug)]
pub(crate) enum Read {
    /// Absent is a fault.
    Required,
    /// An `Option<T>` parameter: absent is `None`.
    Optional,
    /// `#[arg(default = ...)]`: absent is the default.
    Defaulted(DefaultValue),
}

/// A parameter's default.
#[derive(Debug)]
pub(crate) struct DefaultValue {
    pub(crate) expr: Expr,
    /// A string literal, converted into the parameter's type with `Into` (so
    /// `default = "a"` fits a `String`); any other expression has that type already.
    pub(crate) into: bool,
}

/// `#[arg(range(...))]`, with at least one bound, not empty.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Range {
    pub(crate) min: Option<Number>,
    pub(crate) max: Option<Number>,
}

/// `#[arg(length(...))]`, with at least one bound, not empty.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Length {
    pub(crate) min: Option<u64>,
    pub(crate) max: Option<u64>,
}

/// A numeric bound of `range`, as written.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Number {
    Int(i128),
    Float(f64),
}

impl Number {
    pub(crate) fn as_f64(self) -> f64 {
        match self {
            Number::Int(i) => i as f64,
            Number::Float(f) => f,
        }
    }
}

/// `task = "..."` on a tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TaskSupport {
    /// No `task` key: every call runs within its request.
    Forbidden,
    /// `task = "optional"`.
    Optional,
    /// `task = "required"`.
    Required,
}
