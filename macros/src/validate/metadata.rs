//! `tags`, `icons`, `meta` and `scopes`: what clients see of a tool besides its schema,
//! and what they must be granted to call it, checked here so that a mistake is a compile
//! error on its token.

use syn::LitStr;

use crate::errors::Errors;
use crate::model::Metadata;

/// The metadata given as `tags`, `icons`, `meta` and `scopes`; every mistake goes to
/// `errors`.
pub(crate) fn metadata(
    tags: Option<&[LitStr]>,
    icons: Option<&[LitStr]>,
    meta_lit: Option<&LitStr>,
    scopes: Option<&[LitStr]>,
    errors: &mut Errors,
) -> Metadata {
    let tags = tags.unwrap_or_default();
    let icons = icons.unwrap_or_default();
    let scopes = scopes.unwrap_or_default();
    Metadata {
        tags: distinct(tags, "tag", tag_problem, errors),
        icons: icons.iter().filter_map(|lit| icon(lit, errors)).collect(),
        meta: meta_lit.and_then(|lit| meta(lit, errors)),
        scopes: distinct(scopes, "scope", scope_problem, errors),
    }
}

/// The values of `lits` in order, each given once and without the problem `problem` finds
/// in it; any other is an error on its string, and left out.
fn distinct(
    lits: &[LitStr],
    kind: &str,
    problem: fn(&str) -> Option<String>,
    errors: &mut Errors,
) -> Vec<String> {
    let mut kept = Vec::with_capacity(lits.len());
    for (at, lit) in lits.iter().enumerate() {
        let value = lit.value();
        let twice = || {
            (lits[..at].iter().any(|other| other.value() == value))
                .then(|| format!("the {kind} \"{value}\" is given twice: give it once"))
        };
        match problem(&value).or_else(twice) {
            Some(problem) => errors.push(syn::Error::new_spanned(lit, problem)),
            None => kept.push(value),
        }
    }
    kept
}

/// What is wrong with a scope: it must be an RFC 6749 scope token (printable ASCII but
/// space, `"` and `\`).
fn scope_problem(scope: &str) -> Option<String> {
    if scope.is_empty() {
        return Some("a scope is empty: write one such as \"files:read\"".to_owned());
    }
    let bad = (scope.chars()).find(|c| !c.is_ascii_graphic() || matches!(c, '"' | '\\'))?;
    Some(format!(
        "a scope is one word of printable ASCII (RFC 6749), without spaces, quotes or \
         backslashes, not {bad:?}: give several scopes as several strings, such as \
         `scopes = [\"files:read\", \"files:write\"]`"
    ))
}

/// What is wrong with a tag: it must be a short word of letters, digits, `-`, `_`, `.` or
/// `/`.
fn tag_problem(tag: &str) -> Option<String> {
    if tag.is_empty() {
        return Some("a tag is empty: write a word such as \"search\"".to_owned());
    }
    let bad = tag
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/')))?;
    Some(format!(
        "a tag holds letters, digits, `-`, `_`, `.` and `/`, not {bad:?}"
    ))
}

/// An icon's URI: `https:` (or `http:`) for an image a client fetches, `data:` for one
/// carried inline.
fn icon(lit: &LitStr, errors: &mut Errors) -> Option<String> {
    let src = lit.value();
    let scheme_ok = ["https://", "http://", "data:image/"]
        .iter()
        .any(|scheme| src.starts_with(scheme) && src.len() > scheme.len());
    if scheme_ok && !src.chars().any(char::is_whitespace) {
        return Some(src);
    }
    errors.push(syn::Error::new_spanned(
        lit,
        "an icon is the URI of an image: `https://...` (or `http://...`), or a \
         `data:image/...;base64,...` URI, without spaces",
    ));
    None
}

/// `meta`: a JSON object, sent as the tool's `_meta`.
fn meta(lit: &LitStr, errors: &mut Errors) -> Option<String> {
    let text = lit.value();
    match serde_json::from_str::<serde_json::Value>(&text) {
        Ok(serde_json::Value::Object(object)) => {
            if let Some(key) = object.keys().find(|key| is_reserved(key)) {
                errors.push(syn::Error::new_spanned(
                    lit,
                    format!(
                        "the `_meta` key \"{key}\" is reserved by the MCP specification: use a \
                         prefix of your own, such as \"com.example/{}\"",
                        key.rsplit('/').next().unwrap_or(key)
                    ),
                ));
                return None;
            }
            Some(text)
        }
        Ok(_) => {
            errors.push(syn::Error::new_spanned(
                lit,
                "`meta` is a JSON object, such as `meta = r#\"{\"com.example/owner\": \"search-team\"}\"#`",
            ));
            None
        }
        Err(error) => {
            errors.push(syn::Error::new_spanned(
                lit,
                format!("`meta` is not valid JSON: {error}"),
            ));
            None
        }
    }
}

/// Keys under a prefix whose second label is `modelcontextprotocol` or `mcp`, which the
/// specification reserves (`io.modelcontextprotocol/...`, `dev.mcp/...`).
fn is_reserved(key: &str) -> bool {
    let Some((prefix, _)) = key.split_once('/') else {
        return false;
    };
    let labels: Vec<&str> = prefix.split('.').collect();
    labels.len() >= 2 && matches!(labels[1], "modelcontextprotocol" | "mcp")
}
