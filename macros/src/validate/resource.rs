//! `#[mcp_resource]`: what only a resource checks: its address (a URI, or an RFC 6570
//! template whose variables are the function's parameters, checked against them here)
//! and its MIME type. Its parameters are checked as a tool's are.

use syn::LitStr;

use super::{ItemKeys, Kind, item};
use crate::errors::Errors;
use crate::model::{Address, Resource};
use crate::parse::{self, ResourceArgs};

const RESOURCE: Kind = Kind {
    noun: "resource",
    attribute: "mcp_resource",
};

/// The valid resource, or `None` when `errors` holds any mistake (from parsing too).
pub(crate) fn resource(
    parsed: &parse::Tool<ResourceArgs>,
    errors: &mut Errors,
) -> Option<Resource> {
    let args = &parsed.args;
    let keys = ItemKeys {
        name: args.name.as_ref(),
        description: args.description.as_ref(),
        title: args.title.as_ref(),
        icons: args.icons.as_deref(),
        scopes: args.scopes.as_deref(),
        meta: args.meta.as_ref(),
        krate: args.krate.as_ref(),
    };
    let item = item(RESOURCE, parsed, keys, errors);
    let address = address(parsed, errors);
    let variables = address.as_ref().map_or(&[][..], |(_, variables)| variables);
    if let Some(template) = &args.template {
        for variable in variables {
            if item.params.iter().any(|param| param.ident == variable) {
                continue;
            }
            // RFC 6570 allows `a.b` and `%41`, which no parameter can be named.
            let problem = if syn::parse_str::<syn::Ident>(variable).is_ok() {
                format!(
                    "the template's variable `{{{variable}}}` names no parameter of the \
                     function: add a parameter `{variable}`, or remove the variable"
                )
            } else {
                format!(
                    "the template's variable `{{{variable}}}` cannot name a parameter of the \
                     function: name it after one, with letters, digits and `_` only"
                )
            };
            errors.push(syn::Error::new_spanned(template, problem));
        }
    }
    let mime_type = (args.mime_type.as_ref()).and_then(|lit| mime_type(lit, errors));
    let unbound = (item.params.iter().enumerate())
        .filter(|(_, param)| !variables.iter().any(|variable| param.ident == variable))
        .map(|(index, _)| index)
        .collect();
    if !errors.is_empty() {
        return None;
    }
    Some(Resource {
        item,
        address: address?.0,
        mime_type,
        unbound,
    })
}

/// `uri = "..."` or `template = "..."`: exactly one, well formed; with the template's
/// variables.
fn address(
    parsed: &parse::Tool<ResourceArgs>,
    errors: &mut Errors,
) -> Option<(Address, Vec<String>)> {
    match (&parsed.args.uri, &parsed.args.template) {
        (Some(uri), None) => {
            let text = uri.value();
            let problem = if text.contains('{') {
                Some(format!(
                    "`{text}` holds a variable: write `template = \"{text}\"` for a URI template"
                ))
            } else if !has_scheme(&text) {
                Some(format!(
                    "`{text}` is not a URI: start it with a scheme, as in `config://app` or \
                     `file:///notes.md`"
                ))
            } else {
                None
            };
            match problem {
                Some(problem) => {
                    errors.push(syn::Error::new_spanned(uri, problem));
                    None
                }
                None => Some((Address::Uri(text), Vec::new())),
            }
        }
        (None, Some(template)) => template_variables(template, errors)
            .map(|variables| (Address::Template(template.value()), variables)),
        (Some(_), Some(template)) => {
            errors.push(syn::Error::new_spanned(
                template,
                "a resource has `uri` or `template`, not both: `uri` for one resource, \
                 `template` for a family of them",
            ));
            None
        }
        (None, None) => {
            errors.push(syn::Error::new_spanned(
                &parsed.function.sig.ident,
                "a resource needs its address: `#[mcp_resource(uri = \"config://app\")]` for \
                 one resource, or `#[mcp_resource(template = \"notes://{title}\")]` for a family \
                 of them, each variable a parameter",
            ));
            None
        }
    }
}

fn has_scheme(uri: &str) -> bool {
    match uri.split_once(':') {
        Some((scheme, _)) => {
            scheme.starts_with(|c: char| c.is_ascii_alphabetic())
                && (scheme.chars()).all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        }
        None => false,
    }
}

/// The variables of an RFC 6570 template, read by the grammar the server matches with.
fn template_variables(template: &LitStr, errors: &mut Errors) -> Option<Vec<String>> {
    let text = template.value();
    match mcp_tool_uri_template::parse(&text) {
        Ok(parsed) => Some(parsed.variables().map(|v| v.name.to_owned()).collect()),
        Err(problem) => {
            errors.push(syn::Error::new_spanned(template, problem));
            None
        }
    }
}

fn mime_type(lit: &LitStr, errors: &mut Errors) -> Option<String> {
    let text = lit.value();
    let valid = text
        .split_once('/')
        .is_some_and(|(kind, sub)| !kind.is_empty() && !sub.is_empty() && !text.contains(' '));
    if valid {
        return Some(text);
    }
    errors.push(syn::Error::new_spanned(
        lit,
        format!("`{text}` is not a MIME type: write one such as `text/plain` or `image/png`"),
    ));
    None
}

#[cfg(test)]
mod tests {
    use proc_macro2::Span;
    use syn::LitStr;

    use super::template_variables;
    use crate::errors::Errors;

    /// The attribute judges each template of the table shared with the grammar and the
    /// server as the table says: the same templates bound, the same refused.
    #[test]
    fn judges_the_shared_table_of_templates() {
        let table = include_str!("../../../uri-template/tests/cases.txt");
        let mut cases = 0;
        for line in table
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let (template, expected) = line.split_once('\t').unwrap();
            let mut errors = Errors::default();
            let literal = LitStr::new(template, Span::call_site());
            let judged = match template_variables(&literal, &mut errors) {
                Some(variables) => {
                    assert!(errors.is_empty(), "{template}");
                    let reserved = |name: &str| template.contains(&format!("{{+{name}}}"));
                    let names: Vec<String> = (variables.iter())
                        .map(|v| format!("{}{v}", if reserved(v) { "+" } else { "" }))
                        .collect();
                    format!("= {}", names.join(","))
                }
                None => format!("! {}", errors.messages().join(" | ")),
            };
            assert_eq!(judged, expected, "{template}");
            cases += 1;
        }
        assert!(cases >= 30, "the table holds {cases} cases");
    }
}
