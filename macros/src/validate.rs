//! Validation: every mistake that shows in the tokens, each a spanned error on the
//! offending token, all reported at once. What passes becomes the
//! [`model`](crate::model), with every decision code generation needs already made.
//!
//! What depends on what a type *is* (whether it deserializes, whether `range`, `length`
//! or `pattern` fits it) is left to the runtime's traits, whose diagnostics land on the
//! type and see through aliases, where a check on the type's name cannot.

use heck::ToSnakeCase as _;
use quote::ToTokens as _;
use syn::spanned::Spanned as _;
use syn::{FnArg, LitStr, ReturnType, Signature, Type};

use crate::errors::Errors;
use crate::model::{Annotations, Item, Output, Param, SchemaDialect, TaskSupport, Tool};
use crate::parse;

use self::duration::duration_ms;
use self::param::param;

mod duration;
mod metadata;
mod param;
mod prompt;
mod resource;

pub(crate) use self::prompt::prompt;
pub(crate) use self::resource::resource;

/// What an attribute makes of a function, for the words of its errors.
#[derive(Debug, Clone, Copy)]
struct Kind {
    /// `tool`, `prompt` or `resource`.
    noun: &'static str,
    /// `mcp_tool`, `mcp_prompt` or `mcp_resource`.
    attribute: &'static str,
}

const TOOL: Kind = Kind {
    noun: "tool",
    attribute: "mcp_tool",
};

/// The valid tool, or `None` when `errors` holds any mistake (from parsing too).
pub(crate) fn tool(parsed: &parse::Tool, errors: &mut Errors) -> Option<Tool> {
    let sig = &parsed.function.sig;
    check_signature(sig, TOOL, errors);
    let name = name(TOOL, parsed.args.name.as_ref(), sig, errors);
    let description = description(
        TOOL,
        parsed.args.description.as_ref(),
        parsed.doc.as_deref(),
        sig,
        errors,
    );
    let timeout_ms = parsed
        .args
        .timeout
        .as_ref()
        .and_then(|t| timeout(t, errors));
    let schema = (parsed.args.schema.as_ref())
        .map_or(SchemaDialect::Portable, |s| schema_dialect(s, errors));
    let args = &parsed.args;
    let task = (args.task.as_ref()).map_or(TaskSupport::Forbidden, |t| task(t, errors));
    let task_in_body = (args.task_begins.as_ref()).is_some_and(|t| task_begins(t, task, errors));
    let metadata = metadata::metadata(
        args.tags.as_deref(),
        args.icons.as_deref(),
        args.meta.as_ref(),
        args.scopes.as_deref(),
        errors,
    );
    let mut params: Vec<Param> = parsed.params.iter().map(|p| param(p, errors)).collect();
    param::lenient_tool(
        args.lenient.is_present(),
        &mut params,
        &parsed.params,
        errors,
    );
    for param in &parsed.params {
        if let Some(complete) = &param.arg.complete {
            errors.push(syn::Error::new_spanned(
                complete,
                "a tool's arguments are not completed: `complete` is for the arguments of \
                 `#[mcp_prompt]` functions and the template variables of `#[mcp_resource]` ones",
            ));
        }
    }
    check_headers(&params, errors);
    if !errors.is_empty() {
        return None;
    }
    Some(Tool {
        name,
        description,
        title: args.title.as_ref().map(LitStr::value),
        annotations: Annotations {
            read_only: args.read_only,
            destructive: args.destructive,
            idempotent: args.idempotent,
            open_world: args.open_world,
        },
        timeout_ms,
        schema,
        task,
        task_in_body,
        metadata,
        krate: args
            .krate
            .clone()
            .unwrap_or_else(|| syn::parse_quote!(::mcp_tool)),
        function: parsed.function.clone(),
        output: output(sig),
        params,
    })
}

/// The signature's qualifiers, parameters and return type.
fn check_signature(sig: &Signature, kind: Kind, errors: &mut Errors) {
    check_qualifiers(sig, kind, errors);
    check_inputs(sig, kind, errors);
    check_return(sig, kind, errors);
}

/// The keys a prompt and a resource have alike.
#[derive(Debug)]
struct ItemKeys<'a> {
    pub(crate) name: Option<&'a LitStr>,
    pub(crate) description: Option<&'a LitStr>,
    pub(crate) title: Option<&'a LitStr>,
    pub(crate) icons: Option<&'a [LitStr]>,
    pub(crate) meta: Option<&'a LitStr>,
    pub(crate) scopes: Option<&'a [LitStr]>,
    pub(crate) krate: Option<&'a syn::Path>,
}

/// The signature, name, description, metadata and parameters of a prompt or a resource;
/// every mistake goes to `errors`.
fn item<A>(kind: Kind, parsed: &parse::Tool<A>, keys: ItemKeys<'_>, errors: &mut Errors) -> Item {
    let sig = &parsed.function.sig;
    check_signature(sig, kind, errors);
    Item {
        name: name(kind, keys.name, sig, errors),
        description: description(kind, keys.description, parsed.doc.as_deref(), sig, errors),
        title: keys.title.map(LitStr::value),
        metadata: metadata::metadata(None, keys.icons, keys.meta, keys.scopes, errors),
        krate: (keys.krate.cloned()).unwrap_or_else(|| syn::parse_quote!(::mcp_tool)),
        function: parsed.function.clone(),
        output: output(sig),
        params: parsed.params.iter().map(|p| param(p, errors)).collect(),
    }
    .without_headers(kind, errors)
    .without_leniency(kind, &parsed.params, errors)
}

/// Two arguments mirrored in the same header (names compare without case, as HTTP's).
fn check_headers(params: &[Param], errors: &mut Errors) {
    let mut seen: Vec<String> = Vec::new();
    for header in params.iter().filter_map(|p| p.header.as_ref()) {
        let folded = header.value().to_ascii_lowercase();
        if seen.contains(&folded) {
            errors.push(syn::Error::new_spanned(
                header,
                format!(
                    "another argument is already mirrored in `Mcp-Param-{}`: each header \
                     carries one argument",
                    header.value()
                ),
            ));
        }
        seen.push(folded);
    }
}

impl Item {
    /// Refuses `lenient` and `strict` on a prompt's or a resource's argument: their
    /// arguments travel as strings, read as their schema says.
    fn without_leniency(self, kind: Kind, params: &[parse::Param], errors: &mut Errors) -> Self {
        for param in params {
            for flag in [&param.arg.lenient, &param.arg.strict] {
                if flag.is_present() {
                    errors.push(syn::Error::new(
                        flag.span(),
                        format!(
                            "a {}'s arguments are read from text as their type says: `lenient` \
                             and `strict` are for the arguments of `#[mcp_tool]` functions",
                            kind.noun
                        ),
                    ));
                }
            }
        }
        self
    }

    /// Refuses `header` on a prompt's or a resource's argument: only tool calls carry
    /// `Mcp-Param-*` headers.
    fn without_headers(self, kind: Kind, errors: &mut Errors) -> Self {
        for header in self.params.iter().filter_map(|p| p.header.as_ref()) {
            errors.push(syn::Error::new_spanned(
                header,
                format!(
                    "a {}'s arguments are not sent as headers: `header` is for the arguments \
                     of `#[mcp_tool]` functions",
                    kind.noun
                ),
            ));
        }
        self
    }
}

/// `const`, `unsafe`, `extern`, variadics and generics: none fits a tool.
fn check_qualifiers(sig: &Signature, kind: Kind, errors: &mut Errors) {
    let noun = kind.noun;
    if let Some(constness) = &sig.constness {
        errors.push(syn::Error::new_spanned(
            constness,
            format!("a {noun} cannot be a `const fn`: remove `const`"),
        ));
    }
    if let syn::Safety::Unsafe(unsafety) = &sig.safety {
        errors.push(syn::Error::new_spanned(
            unsafety,
            format!(
                "a {noun} cannot be an `unsafe fn`, since a client can call it with any \
                 arguments: remove `unsafe`, and check the arguments before any `unsafe` block \
                 in the body"
            ),
        ));
    }
    if let Some(abi) = &sig.abi {
        errors.push(syn::Error::new_spanned(
            abi,
            format!("a {noun} cannot have an `extern` ABI: remove it"),
        ));
    }
    if let Some(variadic) = &sig.variadic {
        errors.push(syn::Error::new_spanned(
            variadic,
            format!("a {noun} cannot be variadic"),
        ));
    }
    if !sig.generics.params.is_empty() || sig.generics.where_clause.is_some() {
        errors.push(syn::Error::new_spanned(
            &sig.generics,
            format!(
                "a {noun} cannot be generic: the schema is built from concrete parameter types; \
                 write one {noun} per type, or take an enum"
            ),
        ));
    }
}

fn check_inputs(sig: &Signature, kind: Kind, errors: &mut Errors) {
    for input in &sig.inputs {
        match input {
            FnArg::Receiver(receiver) => errors.push(syn::Error::new_spanned(
                receiver,
                format!(
                    "`#[{}]` goes on a free function, not a method: `self` cannot come from \
                     a {} call's arguments; move the body into a free function",
                    kind.attribute, kind.noun
                ),
            )),
            FnArg::Typed(pat_type) => check_param_type(&pat_type.ty, kind, errors),
        }
    }
}

fn check_param_type(ty: &Type, kind: Kind, errors: &mut Errors) {
    let noun = kind.noun;
    match ty {
        Type::ImplTrait(_) => errors.push(syn::Error::new_spanned(
            ty,
            format!(
                "a {noun} parameter cannot be `impl Trait`: use a concrete type that implements \
                 `Deserialize` and `JsonSchema`"
            ),
        )),
        Type::Reference(reference) => {
            let owned = match reference.elem.as_ref() {
                Type::Path(p) if p.path.is_ident("str") => "String".to_owned(),
                Type::Slice(slice) => format!("Vec<{}>", slice.elem.to_token_stream()),
                other => other.to_token_stream().to_string(),
            };
            errors.push(syn::Error::new_spanned(
                ty,
                format!(
                    "a {noun} parameter must be owned: arguments are decoded from the request, \
                     so use `{owned}` instead of a reference"
                ),
            ));
        }
        Type::Paren(inner) => check_param_type(&inner.elem, kind, errors),
        Type::Group(inner) => check_param_type(&inner.elem, kind, errors),
        _ => {}
    }
}

fn check_return(sig: &Signature, kind: Kind, errors: &mut Errors) {
    if let ReturnType::Type(_, ty) = &sig.output
        && let Type::ImplTrait(_) = ty.as_ref()
    {
        let why = if kind.noun == "tool" {
            ", so its output schema can be built"
        } else {
            ""
        };
        errors.push(syn::Error::new_spanned(
            ty,
            format!(
                "a {} cannot return `impl Trait`: name the type{why}",
                kind.noun
            ),
        ));
    }
}

/// The return type; errors about `()` point at the function's name.
fn output(sig: &Signature) -> Output {
    match &sig.output {
        ReturnType::Default => Output {
            ty: syn::parse_quote!(()),
            span: sig.ident.span(),
            result: None,
        },
        ReturnType::Type(_, ty) => Output {
            ty: (**ty).clone(),
            span: ty.span(),
            result: result_parts(ty),
        },
    }
}

/// `T` and `E` of a type written `Result<T, E>` (any path ending in `Result` with two
/// type arguments); an alias such as `io::Result<T>` hides them and is probed whole.
fn result_parts(ty: &Type) -> Option<(Type, Type)> {
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    let mut types = args.args.iter().map(|arg| match arg {
        syn::GenericArgument::Type(ty) => Some(ty.clone()),
        _ => None,
    });
    match (
        last.ident == "Result",
        types.next(),
        types.next(),
        types.next(),
    ) {
        (true, Some(Some(value)), Some(Some(error)), None) => Some((value, error)),
        _ => None,
    }
}

/// `name = "..."`, or the function's name.
fn name(kind: Kind, lit: Option<&LitStr>, sig: &Signature, errors: &mut Errors) -> String {
    match lit {
        Some(lit) => {
            let name = lit.value();
            if let Some(problem) = explicit_name_problem(kind, &name) {
                errors.push(syn::Error::new_spanned(lit, problem));
            }
            name
        }
        None => {
            let name = sig.ident.to_string();
            let name = name.strip_prefix("r#").unwrap_or(&name).to_owned();
            if let Some(problem) = function_name_problem(kind, &name) {
                errors.push(syn::Error::new_spanned(
                    &sig.ident,
                    format!(
                        "{problem}, or set the {}'s name with `#[{}(name = \"...\")]`",
                        kind.noun, kind.attribute
                    ),
                ));
            }
            name
        }
    }
}

/// `description = "..."`, or the doc comment; one of them, not blank.
fn description(
    kind: Kind,
    lit: Option<&LitStr>,
    doc: Option<&str>,
    sig: &Signature,
    errors: &mut Errors,
) -> String {
    let (noun, attribute) = (kind.noun, kind.attribute);
    match (lit, doc) {
        (Some(lit), _) => {
            let text = lit.value().trim().to_owned();
            if text.is_empty() {
                let what = if noun == "resource" {
                    "what the resource holds".to_owned()
                } else {
                    format!("what the {noun} does, with which inputs and outputs")
                };
                errors.push(syn::Error::new_spanned(
                    lit,
                    format!("the description is empty: say {what}"),
                ));
            }
            text
        }
        (None, Some(doc)) => doc.to_owned(),
        (None, None) => {
            let what = if noun == "resource" {
                "what it holds"
            } else {
                "what it does, with which inputs and outputs"
            };
            errors.push(syn::Error::new_spanned(
                &sig.ident,
                format!(
                    "a {noun} needs a description for the model: add a `///` doc comment saying \
                     {what} (or `#[{attribute}(description = \"...\")]`)"
                ),
            ));
            String::new()
        }
    }
}

/// The longest tool name the MCP specification allows.
const MAX_NAME_LEN: usize = 128;

/// What is wrong with a name given as `name = "..."`: the specification's rule, 1 to 128
/// characters from `A-Z`, `a-z`, `0-9`, `_`, `-` and `.`.
fn explicit_name_problem(kind: Kind, name: &str) -> Option<String> {
    let noun = kind.noun;
    if name.is_empty() {
        return Some(format!(
            "a {noun}'s name cannot be empty: write one, or leave `name` out to use the \
             function's name"
        ));
    }
    if let Some(bad) = name.chars().find(|&c| !is_name_char(c)) {
        let bad = if bad.is_whitespace() {
            "a space".to_owned()
        } else {
            format!("`{bad}`")
        };
        return Some(format!(
            "a {noun}'s name may hold only ASCII letters, digits, `_`, `-` and `.`, and `{name}` \
             holds {bad}: remove it or replace it with `_` or `-`"
        ));
    }
    too_long(kind, name)
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')
}

fn too_long(kind: Kind, name: &str) -> Option<String> {
    (name.len() > MAX_NAME_LEN).then(|| {
        format!(
            "a {}'s name has at most {MAX_NAME_LEN} characters, and `{name}` has {}: shorten it",
            kind.noun,
            name.len()
        )
    })
}

/// What is wrong with a function's name as a tool name: Rust's own snake_case, within the
/// specification's length.
fn function_name_problem(kind: Kind, name: &str) -> Option<String> {
    if is_snake_case(name) {
        return too_long(kind, name);
    }
    let snake = name.to_snake_case();
    let suggestion = if is_snake_case(&snake) {
        format!(": rename the function `{snake}`")
    } else {
        String::new()
    };
    Some(format!(
        "a function's name must be snake_case to name a {} (lowercase letters, digits and \
         `_`), and `{name}` is not{suggestion}",
        kind.noun
    ))
}

fn is_snake_case(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && name.to_snake_case() == name
}

/// `task = "..."`: `optional` or `required`.
fn task(lit: &LitStr, errors: &mut Errors) -> TaskSupport {
    match lit.value().as_str() {
        "optional" => TaskSupport::Optional,
        "required" => TaskSupport::Required,
        other => {
            errors.push(syn::Error::new_spanned(
                lit,
                format!(
                    "unknown task support `{other}`: write `task = \"optional\"` (a client \
                     that declares the tasks extension may run the call as a task) or \
                     `task = \"required\"` (every call runs as a task), or leave `task` out"
                ),
            ));
            TaskSupport::Forbidden
        }
    }
}

/// `task_begins = "..."`: `in_body`, on a tool that allows tasks.
fn task_begins(lit: &LitStr, task: TaskSupport, errors: &mut Errors) -> bool {
    if lit.value() != "in_body" {
        errors.push(syn::Error::new_spanned(
            lit,
            format!(
                "unknown `task_begins = \"{}\"`: write `task_begins = \"in_body\"` (the call \
                 runs within its request until the body calls `ctx.begin_task()`), or leave \
                 it out (the task begins with the call)",
                lit.value()
            ),
        ));
        return false;
    }
    if task == TaskSupport::Forbidden {
        errors.push(syn::Error::new_spanned(
            lit,
            "`task_begins` needs `task = \"optional\"` or `task = \"required\"`: a tool \
             without tasks has no task to begin",
        ));
        return false;
    }
    true
}

/// `timeout = "..."` in milliseconds; `None` after an error on the string.
fn timeout(lit: &LitStr, errors: &mut Errors) -> Option<u64> {
    let text = lit.value();
    let message = match duration_ms(&text) {
        Some(0) => "a timeout of zero fails every call: give the time the tool may take, \
                    such as `\"30s\"`"
            .to_owned(),
        Some(ms) => return Some(ms),
        None => format!(
            "`{text}` is not a duration: write a whole number and a unit, `ms`, `s`, `m` or \
             `h`, as in `\"500ms\"`, `\"30s\"`, `\"2m\"` or `\"1h\"`, or several, largest \
             first, as in `\"1m30s\"`"
        ),
    };
    errors.push(syn::Error::new_spanned(lit, message));
    None
}

/// `schema = "..."`: `"2020-12"` or `"portable"`; the default after an error on the string.
fn schema_dialect(lit: &LitStr, errors: &mut Errors) -> SchemaDialect {
    match lit.value().as_str() {
        "2020-12" => SchemaDialect::Draft2020_12,
        "portable" => SchemaDialect::Portable,
        other => {
            errors.push(syn::Error::new_spanned(
                lit,
                format!(
                    "`{other}` is not a schema dialect a tool can have: write `\"2020-12\"` for a \
                     full JSON Schema 2020-12 document, with `$schema` and named types under \
                     `$defs`, or leave `schema` out for the portable default, every type inlined"
                ),
            ));
            SchemaDialect::Portable
        }
    }
}
