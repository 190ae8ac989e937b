//! Validation of one parameter and its `#[arg(...)]`: range, length, pattern and
//! default checked, and how an absent argument is read.

use syn::{Expr, ExprLit, ExprUnary, Lit, LitStr, Type, UnOp};

use crate::errors::Errors;
use crate::model::{DefaultValue, Length, Leniency, Number, Param, Range, Read};
use crate::parse;

/// One parameter, its `#[arg(...)]` checked.
pub(crate) fn param(param: &parse::Param, errors: &mut Errors) -> Param {
    let value_ty = param.option_inner.as_ref().unwrap_or(&param.ty);
    let arg = &param.arg;
    let range = arg.range.as_ref().map(|b| range(param, b, errors));
    let length = arg.length.as_ref().map(|b| length(param, b, errors));
    let pattern = arg.pattern.as_ref().map(|p| pattern(p, errors));
    let header = arg.header.as_ref().map(|h| header(h, errors));
    let read = read(param, value_ty, errors);
    let leniency = leniency(arg, errors);
    Param {
        ident: param.ident.clone(),
        ty: param.ty.clone(),
        value_ty: value_ty.clone(),
        read,
        doc: param.doc.clone(),
        range,
        length,
        pattern,
        complete: arg.complete.clone(),
        header,
        leniency,
    }
}

/// `#[mcp_tool(lenient)]` (`lenient` true): every parameter without `strict` converts,
/// and one that says `lenient` again is told that it need not.
pub(crate) fn lenient_tool(
    lenient: bool,
    params: &mut [Param],
    parsed: &[parse::Param],
    errors: &mut Errors,
) {
    if !lenient {
        return;
    }
    for (param, parsed) in params.iter_mut().zip(parsed) {
        match param.leniency {
            Leniency::Lenient => errors.push(syn::Error::new(
                parsed.arg.lenient.span(),
                "the tool is `lenient` already, which converts every argument: remove \
                 `lenient` from this one",
            )),
            Leniency::Server => param.leniency = Leniency::Lenient,
            Leniency::Strict => {}
        }
    }
}

/// `lenient` or `strict`: one of them, at most.
fn leniency(arg: &parse::ArgAttr, errors: &mut Errors) -> Leniency {
    match (arg.lenient.is_present(), arg.strict.is_present()) {
        (true, true) => {
            errors.push(syn::Error::new(
                arg.strict.span(),
                "an argument cannot be both `lenient` and `strict`: keep `lenient` to convert \
                 a value sent as another JSON type (`\"10\"` for an integer), or `strict` to \
                 keep it exact in a lenient tool",
            ));
            Leniency::Strict
        }
        (true, false) => Leniency::Lenient,
        (false, true) => Leniency::Strict,
        (false, false) => Leniency::Server,
    }
}

/// `header = "..."`: a name that fits in `Mcp-Param-{name}`, an HTTP token (RFC 9110).
fn header(header: &LitStr, errors: &mut Errors) -> LitStr {
    let name = header.value();
    let token = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c);
    if name.is_empty() || !name.chars().all(token) {
        errors.push(syn::Error::new_spanned(
            header,
            format!(
                "`{name}` cannot be an HTTP header name: `header` takes letters, digits and \
                 `-` (an RFC 9110 token), such as `header = \"Region\"`, which the client \
                 sends as `Mcp-Param-Region`"
            ),
        ));
    }
    header.clone()
}

fn range(param: &parse::Param, range: &parse::Bounds<Expr>, errors: &mut Errors) -> Range {
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
    Range { min, max }
}

/// An error on the parameter's `#[arg(...)]` attribute.
fn at_arg(param: &parse::Param, message: &str) -> syn::Error {
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

fn length(
    param: &parse::Param,
    length: &parse::Bounds<syn::LitInt>,
    errors: &mut Errors,
) -> Length {
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
    Length { min, max }
}

fn pattern(pattern: &LitStr, errors: &mut Errors) -> LitStr {
    if let Err(error) = regex_syntax::Parser::new().parse(&pattern.value()) {
        errors.push(syn::Error::new_spanned(
            pattern,
            format!("this pattern is not a valid regular expression: {error}"),
        ));
    }
    pattern.clone()
}

/// How the argument is read: `Option<T>` is optional, `default = ..` fills an absent one.
fn read(param: &parse::Param, value_ty: &Type, errors: &mut Errors) -> Read {
    let Some(default) = &param.arg.default else {
        return match param.option_inner {
            Some(_) => Read::Optional,
            None => Read::Required,
        };
    };
    if param.option_inner.is_some() {
        errors.push(syn::Error::new_spanned(
            default,
            "an `Option` parameter already defaults to `None`: either drop `default`, \
             or declare the parameter without `Option`",
        ));
    }
    let into = match default {
        Expr::Lit(ExprLit {
            lit: Lit::Str(text),
            ..
        }) => {
            check_quoted_default(param, value_ty, text, errors);
            true
        }
        _ => false,
    };
    Read::Defaulted(DefaultValue {
        expr: default.clone(),
        into,
    })
}

/// A quoted number or flag for a parameter spelled as one. Checked on the spelling because
/// no runtime trait covers a default's conversion: rustc alone would say "`From<&str>` is
/// not implemented for `u32`", which is what an alias of `u32` still gets.
fn check_quoted_default(param: &parse::Param, value_ty: &Type, text: &LitStr, errors: &mut Errors) {
    let Some(name) = type_name(value_ty).filter(|name| is_number_or_bool(name)) else {
        return;
    };
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

/// The last path segment of a type, as spelled.
fn type_name(ty: &Type) -> Option<String> {
    match ty {
        Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    }
}

/// A primitive number or `bool`, by name.
fn is_number_or_bool(name: &str) -> bool {
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
