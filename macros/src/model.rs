//! The tool as validation leaves it: every decision made, every value checked, so code
//! generation only writes it out.

use proc_macro2::Span;
use syn::{Expr, Ident, ItemFn, LitStr, Type};

use crate::metadata::Metadata;

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
    pub(crate) metadata: Metadata,
    /// How generated code names the runtime: `::mcp_tool`, or `crate = "..."`.
    pub(crate) krate: syn::Path,
    /// The function as emitted: the parameter attributes rustc rejects removed.
    pub(crate) function: ItemFn,
    pub(crate) output: Output,
    pub(crate) params: Vec<Param>,
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
