//! The URI templates of MCP resources (RFC 6570), as mcp-tool reads them: the attribute
//! `#[mcp_resource(template = "...")]` checks them at compile time and the server
//! matches requested URIs against them, both through [`parse`], so the two accept and
//! refuse the same templates. Depend on the `mcp-tool` crate, not on this one.
//!
//! A template starts with a scheme and holds at least one variable, each of them once,
//! as `{name}` (simple expansion: one path segment) or `{+name}` (reserved expansion: a
//! path that may hold `/`). A name is RFC 6570's `varname`: letters, digits, `_` and
//! percent-encoded octets, with `.` only between them.
//!
//! ```
//! use mcp_tool_uri_template::{Part, TemplateError, parse};
//!
//! let template = parse("files:///{+path}").unwrap();
//! assert_eq!(template.variables().map(|v| v.name).collect::<Vec<_>>(), ["path"]);
//! assert_eq!(template.parts()[0], Part::Literal("files:///"));
//! assert!(matches!(parse("q://{?x,y}"), Err(TemplateError::UnsupportedExpression { .. })));
//! ```
#![deny(missing_docs)]
#![warn(missing_debug_implementations, unreachable_pub)]

use std::fmt;

/// A template, split into its literal text and its variables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template<'a> {
    parts: Vec<Part<'a>>,
}

/// One piece of a template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part<'a> {
    /// Text a URI holds as written.
    Literal(&'a str),
    /// `{name}` or `{+name}`.
    Variable(Variable<'a>),
}

/// A variable of a template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Variable<'a> {
    /// Its name, as written.
    pub name: &'a str,
    /// `{+name}`: its text may hold `/` and is taken as sent; `{name}` is one path
    /// segment, percent-decoded.
    pub reserved: bool,
}

impl<'a> Template<'a> {
    /// The literal text and the variables, in order; no two literals follow each other.
    pub fn parts(&self) -> &[Part<'a>] {
        &self.parts
    }

    /// The variables, in order.
    pub fn variables(&self) -> impl Iterator<Item = Variable<'a>> + '_ {
        self.parts.iter().filter_map(|part| match part {
            Part::Variable(variable) => Some(*variable),
            Part::Literal(_) => None,
        })
    }
}

/// Why a template is refused; its text tells the author what to write instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TemplateError {
    /// The template does not start with a URI scheme.
    NoScheme {
        /// The template.
        template: String,
    },
    /// A `{` is never closed.
    Unclosed,
    /// A `}` is never opened.
    Unopened,
    /// An expression other than `{name}` and `{+name}`: another operator, a list of
    /// variables or a modifier.
    UnsupportedExpression {
        /// The expression, without its braces.
        expression: String,
    },
    /// A variable's name is not an RFC 6570 `varname`.
    InvalidName {
        /// The name.
        name: String,
    },
    /// A variable is in the template twice.
    Duplicate {
        /// The variable's name.
        name: String,
    },
    /// The template has no variable.
    NoVariable,
}

impl fmt::Display for TemplateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoScheme { template } => write!(
                f,
                "`{template}` is not a URI template: start it with a scheme, as in \
                 `notes://{{title}}`"
            ),
            Self::Unclosed => f.write_str("a `{` is never closed: close it with `}`"),
            Self::Unopened => {
                f.write_str("a `}` is never opened: open the variable with `{`, or remove the `}`")
            }
            Self::UnsupportedExpression { expression } => write!(
                f,
                "`{{{expression}}}` is not a variable a resource can bind: write `{{name}}` for \
                 one path segment or `{{+name}}` for a path that may hold `/`, where `name` is a \
                 parameter of the function"
            ),
            Self::InvalidName { name } => write!(
                f,
                "`{name}` is not a variable name: use letters, digits and `_`, with `.` only \
                 between them"
            ),
            Self::Duplicate { name } => {
                write!(
                    f,
                    "the variable `{name}` is in the template twice: keep one"
                )
            }
            Self::NoVariable => f.write_str(
                "this template has no variable: write `uri = \"...\"` for a resource with one URI",
            ),
        }
    }
}

impl std::error::Error for TemplateError {}

/// Reads `source` as a template, or says why it is refused.
pub fn parse(source: &str) -> Result<Template<'_>, TemplateError> {
    if !has_scheme(source) {
        return Err(TemplateError::NoScheme {
            template: source.to_owned(),
        });
    }
    let mut parts = Vec::new();
    let mut rest = source;
    while let Some(open) = rest.find(['{', '}']) {
        if rest[open..].starts_with('}') {
            return Err(TemplateError::Unopened);
        }
        if open > 0 {
            parts.push(Part::Literal(&rest[..open]));
        }
        let after = &rest[open + 1..];
        let close = after.find('}').ok_or(TemplateError::Unclosed)?;
        let variable = variable(&after[..close])?;
        let seen = |part: &Part<'_>| matches!(part, Part::Variable(v) if v.name == variable.name);
        if parts.iter().any(seen) {
            return Err(TemplateError::Duplicate {
                name: variable.name.to_owned(),
            });
        }
        parts.push(Part::Variable(variable));
        rest = &after[close + 1..];
    }
    if !parts.iter().any(|part| matches!(part, Part::Variable(_))) {
        return Err(TemplateError::NoVariable);
    }
    if !rest.is_empty() {
        parts.push(Part::Literal(rest));
    }
    Ok(Template { parts })
}

/// `name` or `+name`, the text between braces.
fn variable(expression: &str) -> Result<Variable<'_>, TemplateError> {
    let (reserved, name) = match expression.strip_prefix('+') {
        Some(name) => (true, name),
        None => (false, expression),
    };
    // RFC 6570's other operators, its reserved ones, lists and modifiers.
    let unsupported = name
        .starts_with(['+', '#', '.', '/', ';', '?', '&', '=', ',', '!', '@', '|'])
        || name.contains([',', ':', '*'])
        || name.is_empty();
    if unsupported {
        return Err(TemplateError::UnsupportedExpression {
            expression: expression.to_owned(),
        });
    }
    if !is_varname(name) {
        return Err(TemplateError::InvalidName {
            name: name.to_owned(),
        });
    }
    Ok(Variable { name, reserved })
}

/// RFC 6570: `varname = varchar *( ["."] varchar )`, `varchar = ALPHA / DIGIT / "_" /
/// pct-encoded`.
fn is_varname(name: &str) -> bool {
    let bytes = name.as_bytes();
    let mut index = 0;
    // Whether the previous character was a varchar (so a `.` may follow).
    let mut after_varchar = false;
    while index < bytes.len() {
        match bytes[index] {
            b'%' => {
                let hex = bytes.get(index + 1..index + 3);
                if !hex.is_some_and(|hex| hex.iter().all(u8::is_ascii_hexdigit)) {
                    return false;
                }
                index += 3;
                after_varchar = true;
            }
            b'.' if after_varchar => {
                index += 1;
                after_varchar = false;
            }
            byte if byte.is_ascii_alphanumeric() || byte == b'_' => {
                index += 1;
                after_varchar = true;
            }
            _ => return false,
        }
    }
    after_varchar
}

/// RFC 3986: `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`, then `:`.
fn has_scheme(uri: &str) -> bool {
    uri.split_once(':').is_some_and(|(scheme, _)| {
        scheme.starts_with(|c: char| c.is_ascii_alphabetic())
            && (scheme.chars()).all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    })
}
