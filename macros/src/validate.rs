//! Validation: every mistake a user can make, each a spanned error on the
//! offending token, all reported at once.

use heck::ToSnakeCase as _;
use quote::ToTokens as _;
use syn::{Expr, ExprLit, ExprUnary, FnArg, Lit, ReturnType, Type, UnOp};

use crate::errors::Errors;
use crate::parse::{Param, Tool};

/// A numeric bound of `range`, as written.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Number {
    Int(i128),
    Float(f64),
}

impl Number {
    fn as_f64(self) -> f64 {
        match self {
            Number::Int(i) => i as f64,
            Number::Float(f) => f,
        }
    }
}

/// What the expansion needs that validation worked out.
#[derive(Debug)]
pub(crate) struct Checked {
    pub(crate) name: String,
    pub(crate) description: String,
    pub(crate) ranges: Vec<(Option<Number>, Option<Number>)>,
    pub(crate) lengths: Vec<(Option<u64>, Option<u64>)>,
}

pub(crate) fn tool(tool: &Tool, errors: &mut Errors) -> Checked {
    let sig = &tool.function.sig;
    if let Some(constness) = &sig.constness {
        errors.push(syn::Error::new_spanned(
            constness,
            "a tool cannot be a `const fn`: remove `const`",
        ));
    }
    if let syn::Safety::Unsafe(unsafety) = &sig.safety {
        errors.push(syn::Error::new_spanned(
            unsafety,
            "a tool cannot be an `unsafe fn`, since a client can call it with any arguments: \
             remove `unsafe`, and check the arguments before any `unsafe` block in the body",
        ));
    }
    if let Some(abi) = &sig.abi {
        errors.push(syn::Error::new_spanned(
            abi,
            "a tool cannot have an `extern` ABI: remove it",
        ));
    }
    if let Some(variadic) = &sig.variadic {
        errors.push(syn::Error::new_spanned(
            variadic,
            "a tool cannot be variadic",
        ));
    }
    if !sig.generics.params.is_empty() || sig.generics.where_clause.is_some() {
        errors.push(syn::Error::new_spanned(
            &sig.generics,
            "a tool cannot be generic: the schema is built from concrete parameter types; \
             write one tool per type, or take an enum",
        ));
    }
    for input in &sig.inputs {
        match input {
            FnArg::Receiver(receiver) => errors.push(syn::Error::new_spanned(
                receiver,
                "`#[mcp_tool]` goes on a free function, not a method: `self` cannot come from \
                 a tool call's arguments; move the body into a free function",
            )),
            FnArg::Typed(pat_type) => check_param_type(&pat_type.ty, errors),
        }
    }
    if let ReturnType::Type(_, ty) = &sig.output
        && let Type::ImplTrait(_) = ty.as_ref()
    {
        errors.push(syn::Error::new_spanned(
            ty,
            "a tool cannot return `impl Trait`: name the type, so its output schema can be built",
        ));
    }

    let name = match &tool.args.name {
        Some(lit) => {
            let name = lit.value();
            if let Some(problem) = name_problem(&name, "write") {
                errors.push(syn::Error::new_spanned(lit, problem));
            }
            name
        }
        None => {
            let name = sig.ident.to_string();
            let name = name.strip_prefix("r#").unwrap_or(&name).to_owned();
            if let Some(problem) = name_problem(&name, "rename the function") {
                errors.push(syn::Error::new_spanned(
                    &sig.ident,
                    format!("{problem}, or set the tool's name with `#[mcp_tool(name = \"...\")]`"),
                ));
            }
            name
        }
    };

    let description = match (&tool.args.description, &tool.doc) {
        (Some(lit), _) => {
            let text = lit.value().trim().to_owned();
            if text.is_empty() {
                errors.push(syn::Error::new_spanned(
                    lit,
                    "the description is empty: say what the tool does, with which inputs and outputs",
                ));
            }
            text
        }
        (None, Some(doc)) => doc.clone(),
        (None, None) => {
            errors.push(syn::Error::new_spanned(
                &sig.ident,
                "a tool needs a description for the model: add a `///` doc comment saying what \
                 it does, with which inputs and outputs (or `#[mcp_tool(description = \"...\")]`)",
            ));
            String::new()
        }
    };

    let mut ranges = Vec::new();
    let mut lengths = Vec::new();
    for param in &tool.params {
        ranges.push(check_range(param, errors));
        lengths.push(check_length(param, errors));
        check_pattern(param, errors);
        check_default(param, errors);
    }

    Checked {
        name,
        description,
        ranges,
        lengths,
    }
}

/// The longest name clients accept.
const MAX_NAME_LEN: usize = 64;

/// What is wrong with a tool name, and how to fix it (`fix` names the edit).
fn name_problem(name: &str, fix: &str) -> Option<String> {
    if is_valid_name(name) {
        return None;
    }
    let snake = name.to_snake_case();
    if name.len() > MAX_NAME_LEN && (snake == name || !is_valid_name(&snake)) {
        return Some(format!(
            "a tool's name has at most {MAX_NAME_LEN} characters, and `{name}` has {}: shorten it",
            name.len()
        ));
    }
    let suggestion = if is_valid_name(&snake) {
        format!(": {fix} `{snake}`")
    } else {
        String::new()
    };
    Some(format!(
        "a tool's name must be snake_case (lowercase letters, digits and `_`), and `{name}` is \
         not{suggestion}"
    ))
}

fn is_valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_NAME_LEN
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && name.to_snake_case() == name
}

fn check_param_type(ty: &Type, errors: &mut Errors) {
    match ty {
        Type::ImplTrait(_) => errors.push(syn::Error::new_spanned(
            ty,
            "a tool parameter cannot be `impl Trait`: use a concrete type that implements \
             `Deserialize` and `JsonSchema`",
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
                    "a tool parameter must be owned: arguments are decoded from the request, \
                     so use `{owned}` instead of a reference"
                ),
            ));
        }
        Type::Paren(inner) => check_param_type(&inner.elem, errors),
        Type::Group(inner) => check_param_type(&inner.elem, errors),
        _ => {}
    }
}

/// The last path segment of a type, for the checks that can be made on its name.
fn type_name(ty: &Type) -> Option<String> {
    match ty {
        Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    }
}

fn value_type(param: &Param) -> &Type {
    param.option_inner.as_ref().unwrap_or(&param.ty)
}

fn check_range(param: &Param, errors: &mut Errors) -> (Option<Number>, Option<Number>) {
    let Some(range) = &param.arg.range else {
        return (None, None);
    };
    if let Some(name) = type_name(value_type(param))
        && matches!(
            name.as_str(),
            "String" | "bool" | "char" | "Vec" | "HashMap" | "BTreeMap" | "HashSet" | "BTreeSet"
        )
    {
        errors.push(syn::Error::new_spanned(
            value_type(param),
            format!(
                "`range` applies to numeric parameters, and `{name}` is not a number; \
                 use `length(min = .., max = ..)` to bound a string or a collection"
            ),
        ));
    }
    let mut number = |expr: &Option<Expr>| {
        let expr = expr.as_ref()?;
        let parsed = parse_number(expr);
        if parsed.is_none() {
            errors.push(syn::Error::new_spanned(
                expr,
                "a range bound must be a number literal, such as `1`, `-5` or `0.5`",
            ));
        }
        parsed
    };
    let min = number(&range.min);
    let max = number(&range.max);
    if range.min.is_none() && range.max.is_none() {
        errors.push(at_arg(
            param,
            "`range` needs `min`, `max` or both: `range(min = 1, max = 100)`",
        ));
    }
    if let (Some(lo), Some(hi)) = (min, max)
        && lo.as_f64() > hi.as_f64()
        && let Some(expr) = &range.max
    {
        errors.push(syn::Error::new_spanned(
            expr,
            "the range is empty: `max` is below `min`",
        ));
    }
    (min, max)
}

/// An error on the parameter's `#[arg(...)]` attribute.
fn at_arg(param: &Param, message: &str) -> syn::Error {
    match &param.arg_attr {
        Some(attr) => syn::Error::new_spanned(attr, message),
        None => syn::Error::new_spanned(&param.ident, message),
    }
}

fn parse_number(expr: &Expr) -> Option<Number> {
    match expr {
        Expr::Lit(ExprLit { lit, .. }) => match lit {
            Lit::Int(int) => int.base10_parse::<i128>().ok().map(Number::Int),
            Lit::Float(float) => float.base10_parse::<f64>().ok().map(Number::Float),
            _ => None,
        },
        Expr::Unary(ExprUnary {
            op: UnOp::Neg(_),
            expr,
            ..
        }) => match parse_number(expr)? {
            Number::Int(i) => Some(Number::Int(-i)),
            Number::Float(f) => Some(Number::Float(-f)),
        },
        Expr::Group(group) => parse_number(&group.expr),
        Expr::Paren(paren) => parse_number(&paren.expr),
        _ => None,
    }
}

fn check_length(param: &Param, errors: &mut Errors) -> (Option<u64>, Option<u64>) {
    let Some(length) = &param.arg.length else {
        return (None, None);
    };
    if let Some(name) = type_name(value_type(param))
        && is_numeric_name(&name)
    {
        errors.push(syn::Error::new_spanned(
            value_type(param),
            format!(
                "`length` applies to strings and collections, and `{name}` is a number; \
                 use `range(min = .., max = ..)` to bound a number"
            ),
        ));
    }
    let mut number = |lit: &Option<syn::LitInt>| {
        let lit = lit.as_ref()?;
        match lit.base10_parse::<u64>() {
            Ok(n) => Some(n),
            Err(_) => {
                errors.push(syn::Error::new_spanned(
                    lit,
                    "a length bound must be a non-negative integer",
                ));
                None
            }
        }
    };
    let min = number(&length.min);
    let max = number(&length.max);
    if length.min.is_none() && length.max.is_none() {
        errors.push(at_arg(
            param,
            "`length` needs `min`, `max` or both: `length(min = 1, max = 64)`",
        ));
    }
    if let (Some(lo), Some(hi), Some(lit)) = (min, max, &length.max)
        && lo > hi
    {
        errors.push(syn::Error::new_spanned(
            lit,
            "the length range is empty: `max` is below `min`",
        ));
    }
    (min, max)
}

fn is_numeric_name(name: &str) -> bool {
    matches!(
        name,
        "i8" | "i16"
            | "i32"
            | "i64"
            | "i128"
            | "isize"
            | "u8"
            | "u16"
            | "u32"
            | "u64"
            | "u128"
            | "usize"
            | "f32"
            | "f64"
            | "bool"
    )
}

fn check_pattern(param: &Param, errors: &mut Errors) {
    let Some(pattern) = &param.arg.pattern else {
        return;
    };
    if let Some(name) = type_name(value_type(param))
        && name != "String"
        && (is_numeric_name(&name)
            || matches!(
                name.as_str(),
                "char" | "Vec" | "HashMap" | "BTreeMap" | "HashSet" | "BTreeSet" | "PathBuf"
            ))
    {
        errors.push(syn::Error::new_spanned(
            value_type(param),
            format!(
                "`pattern` applies to string parameters, and `{name}` is not a string; \
                 declare the parameter as `String`"
            ),
        ));
    }
    if let Err(error) = regex_syntax::Parser::new().parse(&pattern.value()) {
        errors.push(syn::Error::new_spanned(
            pattern,
            format!("this pattern is not a valid regular expression: {error}"),
        ));
    }
}

fn check_default(param: &Param, errors: &mut Errors) {
    let Some(default) = &param.arg.default else {
        return;
    };
    if param.option_inner.is_some() {
        errors.push(syn::Error::new_spanned(
            default,
            "an `Option` parameter already defaults to `None`: either drop `default`, \
             or declare the parameter without `Option`",
        ));
    }
    // A quoted number would otherwise fail as "`From<&str>` is not implemented for `u32`".
    if let Expr::Lit(ExprLit {
        lit: Lit::Str(text),
        ..
    }) = default
        && let Some(name) = type_name(value_type(param))
        && is_numeric_name(&name)
    {
        let value = text.value();
        let unquoted = if name == "bool" {
            matches!(value.as_str(), "true" | "false")
        } else {
            let digits = value.strip_prefix('-').unwrap_or(&value);
            matches!(
                syn::parse_str::<Lit>(digits),
                Ok(Lit::Int(_) | Lit::Float(_))
            )
        };
        let hint = if unquoted {
            format!("write `default = {value}`")
        } else if name == "bool" {
            "write `default = true` or `default = false`".to_owned()
        } else {
            "write a number without quotes, such as `default = 10`".to_owned()
        };
        errors.push(syn::Error::new_spanned(
            text,
            format!(
                "`{}` is a `{name}`, and this default is a string: {hint}",
                param.ident
            ),
        ));
    }
}
