//! The one place a failure message is cleaned before it leaves the server.
//!
//! Two channels, two strengths:
//!
//! - [`mask_failure`] is for the client: credentials become `***` and every
//!   absolute path is cut to its file's name, so `no such file:
//!   /home/alice/reports/q3.csv` reads `no such file: q3.csv`.
//! - [`mask_credentials`] is for the log: credentials become `***`, paths stay.
//! - [`mask_json_credentials`] cleans a call's arguments before they are logged.
//!
//! What counts as a credential:
//!
//! - `key=value`, `key: value`, `"key": "value"`, `key := value`, `key => value`,
//!   query strings (`?token=abc&x=1`), environment assignments (`DB_PASSWORD=…`,
//!   `export API_KEY=…`), headers (`X-Api-Key: …`) and command-line flags
//!   (`--password …`) whose key names a secret (see below);
//! - `Authorization: Bearer …` / `Basic …` (the scheme is kept), and a bare
//!   `Bearer`/`Basic` followed by something token-like;
//! - URL user-info: `postgres://bob:pw@host/db` → `postgres://***@host/db`;
//! - JSON Web Tokens and the keys services issue, known by their prefix whatever their
//!   length, so that a short test key goes as a live one does: AWS access keys
//!   (`AKIA`, `ASIA`), GitHub (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`, `github_pat_`),
//!   GitLab (`glpat-`), Slack (`xoxb-`, `xoxp-`, `xoxa-`, `xoxr-`, `xoxs-`), Stripe
//!   (`sk_live_`, `sk_test_`, `rk_live_`, `rk_test_`, `whsec_`), OpenAI and Anthropic
//!   (`sk-`, `sk-proj-`, `sk-ant-`), Google API keys (`AIza`); and, at their full
//!   length, Hugging Face and the npm, `PyPI` and `SendGrid` registries and services;
//! - PEM private-key blocks, whole, also when the END line is missing.
//!
//! A key names a secret when one of its segments (split at `_`, `-`, `.` and
//! camel-case humps, compared case-insensitively) is a secret word. Words such
//! as `password`, `secret` or `token` also count at the end of a segment
//! (`dbpassword`, `csrftoken`), never at its start (`tokenizer`). Short words
//! (`pass`, `pwd`, `auth`, `session`, `sig`) must be a whole segment, so
//! `passage=3`, `bypass=1` and `author: Jane` stay. A key whose last segment
//! describes the secret rather than holding it (`token_type`,
//! `password_length`, `auth_url`, `session_timeout`) stays too. An empty value
//! is left alone.
//!
//! Every pattern (see `masking/patterns.rs`) is a `regex` automaton compiled
//! once; each pass is linear in the message, and the rewriting never slices
//! inside a character. Clean text comes back borrowed.

use std::borrow::Cow;

use serde_json::Value;

use self::patterns::{
    KEY, KEY_QUALIFIERS, MULTI_PARAMETER_SCHEMES, PATH_AT_START, PATHS, PEM,
    SINGLE_CREDENTIAL_SCHEMES, TOKEN_AT_START, TOKENS, USERINFO, ends_with_ignore_case, is_listed,
    is_secret_key, segments,
};

mod patterns;

#[cfg(test)]
mod tests;

/// What a masked secret is replaced with.
const MASK: &str = "***";

/// Cleans a failure message for the client: credentials and directory names go.
///
/// ```
/// use mcp_tool::masking::mask_failure;
///
/// assert_eq!(
///     mask_failure("no such file: /home/alice/reports/q3.csv"),
///     "no such file: q3.csv"
/// );
/// assert_eq!(
///     mask_failure("connect to postgres://bob:s3cret@db.internal:5432/app failed"),
///     "connect to postgres://***@db.internal:5432/app failed"
/// );
/// ```
#[must_use]
pub fn mask_failure(message: &str) -> Cow<'_, str> {
    // PEM first so no path cut splits a key block, and again for markers a cut joined.
    run(
        message,
        &[
            mask_pem,
            mask_paths,
            mask_pem,
            mask_tokens,
            mask_userinfo,
            mask_key_values,
            mask_userinfo,
        ],
    )
}

/// Cleans a message for the log: credentials go, paths stay.
///
/// ```
/// use mcp_tool::masking::mask_credentials;
///
/// assert_eq!(
///     mask_credentials("login failed for /etc/app.toml: password=hunter2"),
///     "login failed for /etc/app.toml: password=***"
/// );
/// ```
#[must_use]
pub fn mask_credentials(message: &str) -> Cow<'_, str> {
    run(
        message,
        &[
            mask_pem,
            mask_tokens,
            mask_userinfo,
            mask_key_values,
            mask_userinfo,
        ],
    )
}

/// Cleans a call's arguments for the log, in place.
///
/// A value under a key that names a secret becomes the string `"***"` (a
/// `null` stays `null`: it holds nothing), whatever its type; every other
/// string goes through [`mask_credentials`]. Keys are kept.
///
/// ```
/// use mcp_tool::masking::mask_json_credentials;
///
/// let mut args = serde_json::json!({"user": "bob", "db": {"password": "hunter2"}});
/// mask_json_credentials(&mut args);
/// assert_eq!(args, serde_json::json!({"user": "bob", "db": {"password": "***"}}));
/// ```
pub fn mask_json_credentials(value: &mut Value) {
    // An explicit stack: a value built in code can nest deeper than the call stack allows.
    let mut pending = vec![value];
    while let Some(value) = pending.pop() {
        match value {
            Value::Object(map) => {
                for (key, child) in map.iter_mut() {
                    if !is_secret_key(key) {
                        pending.push(child);
                    } else if !child.is_null() {
                        *child = Value::String(MASK.to_owned());
                    }
                }
            }
            Value::Array(items) => pending.extend(items.iter_mut()),
            Value::String(text) => {
                if let Cow::Owned(masked) = mask_credentials(text) {
                    *text = masked;
                }
            }
            Value::Null | Value::Bool(_) | Value::Number(_) => {}
        }
    }
}

/// One rewriting pass: `None` when it changed nothing.
///
/// No pass makes an earlier one match anew, so masking twice changes nothing more. User-info
/// goes before key values, so `https://token:x@host/` keeps its host, and again after them,
/// as a masked value can clear the `/` that ended an authority.
type Pass = fn(&str) -> Option<String>;

fn run<'a>(message: &'a str, passes: &[Pass]) -> Cow<'a, str> {
    let mut owned: Option<String> = None;
    for pass in passes {
        if let Some(next) = pass(owned.as_deref().unwrap_or(message)) {
            owned = Some(next);
        }
    }
    owned.map_or(Cow::Borrowed(message), Cow::Owned)
}

/// Copies the source lazily, so a pass that replaces nothing allocates nothing.
struct Rewrite<'a> {
    src: &'a str,
    out: Option<String>,
    copied: usize,
}

impl<'a> Rewrite<'a> {
    fn new(src: &'a str) -> Self {
        Rewrite {
            src,
            out: None,
            copied: 0,
        }
    }

    /// Replaces `src[start..end]`; spans come in increasing order.
    fn replace(&mut self, start: usize, end: usize, with: &str) {
        if start < self.copied || self.src.get(start..end) == Some(with) {
            return;
        }
        let src = self.src;
        let out = self
            .out
            .get_or_insert_with(|| String::with_capacity(src.len()));
        out.push_str(&src[self.copied..start]);
        out.push_str(with);
        self.copied = end;
    }

    fn finish(self) -> Option<String> {
        let mut out = self.out?;
        out.push_str(&self.src[self.copied..]);
        Some(out)
    }
}

// ---------------------------------------------------------------------------
// Private-key blocks

fn mask_pem(text: &str) -> Option<String> {
    let mut rewrite = Rewrite::new(text);
    for block in PEM.find_iter(text) {
        rewrite.replace(block.start(), block.end(), MASK);
    }
    rewrite.finish()
}

// ---------------------------------------------------------------------------
// Tokens recognisable by their shape

fn mask_tokens(text: &str) -> Option<String> {
    let mut rewrite = Rewrite::new(text);
    let mut at = 0;
    while let Some(found) = TOKENS.find_at(text, at) {
        let token_start = found.start() + token_boundary_len(found.as_str());
        let token = &text[token_start..found.end()];
        // A token masks its whole word: a tail left after `***` would start a token of its own.
        let end = found.end()
            + text[found.end()..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
                .unwrap_or(text.len() - found.end());
        at = end;
        match auth_scheme_len(token) {
            Some(scheme) if looks_like_credential(&token[scheme..]) => {
                rewrite.replace(token_start + scheme, end, MASK);
            }
            // Not a credential, but maybe the next one's scheme: resume at the blank before it.
            Some(scheme) => at = token_start + scheme - 1,
            None => rewrite.replace(token_start, end, MASK),
        }
    }
    rewrite.finish()
}

/// Length of the boundary the token regex consumed before the token itself.
fn token_boundary_len(found: &str) -> usize {
    let mut chars = found.chars();
    match (chars.next(), chars.next()) {
        (Some(first), _) if first.is_ascii_alphanumeric() => 0,
        // `\n` before a token is an escaped newline, unless the token starts with the `n`.
        (Some('\\'), Some('n' | 'r' | 't')) if !TOKEN_AT_START.is_match(&found[1..]) => 2,
        (Some(first), _) => first.len_utf8(),
        (None, _) => 0,
    }
}

/// Length of a leading `Bearer `/`Basic ` (with its blanks).
fn auth_scheme_len(token: &str) -> Option<usize> {
    let word = token.find([' ', '\t'])?;
    let scheme = &token[..word];
    if !(scheme.eq_ignore_ascii_case("bearer") || scheme.eq_ignore_ascii_case("basic")) {
        return None;
    }
    let rest = &token[word..];
    Some(word + rest.len() - rest.trim_start_matches([' ', '\t']).len())
}

/// A bare `Bearer x` is masked when `x` looks issued, not written: "bearer authentication" stays.
fn looks_like_credential(value: &str) -> bool {
    let value = value.trim_end_matches('=');
    value.len() >= 8
        && (value.bytes().any(|b| !b.is_ascii_alphabetic())
            || value.bytes().skip(1).any(|b| b.is_ascii_uppercase()))
}

// ---------------------------------------------------------------------------
// URL user-info

fn mask_userinfo(text: &str) -> Option<String> {
    let mut rewrite = Rewrite::new(text);
    for found in USERINFO.find_iter(text) {
        if let Some(slashes) = found.as_str().find("://") {
            rewrite.replace(found.start() + slashes + 3, found.end() - 1, MASK);
        }
    }
    rewrite.finish()
}

// ---------------------------------------------------------------------------
// key=value, key: value, "key": "value", --key value

fn mask_key_values(text: &str) -> Option<String> {
    let mut rewrite = Rewrite::new(text);
    let mut at = 0;
    while let Some(found) = KEY.find_at(text, at) {
        at = found.end();
        let matched = found.as_str();
        let key_len = matched
            .find(|c: char| !is_key_char(c))
            .unwrap_or(matched.len());
        let key = &matched[..key_len];
        if !(is_secret_key(key) || is_two_word_secret(text, found.start(), key)) {
            continue;
        }
        let separator = &matched[key_len..];
        let flag = key.starts_with("--") && !separator.contains([':', '=']);
        if is_dangling_assignment(separator) {
            continue;
        }
        if let Some((start, end)) = secret_value(text, found.end(), key, flag) {
            rewrite.replace(start, end, MASK);
            at = end;
        }
    }
    rewrite.finish()
}

/// `password= next` assigns nothing: blanks may follow `=` only when they also precede it.
fn is_dangling_assignment(separator: &str) -> bool {
    let separator = separator.trim_start_matches(['\\', '"', '\'']);
    let blank_before = separator.starts_with([' ', '\t']);
    let sign = separator.trim_start_matches([' ', '\t']);
    let assigns = sign.starts_with('=') || sign.starts_with(":=");
    assigns && !blank_before && sign.ends_with([' ', '\t'])
}

fn is_key_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')
}

/// `API Key: …` written as two words.
fn is_two_word_secret(text: &str, key_start: usize, key: &str) -> bool {
    if !key.eq_ignore_ascii_case("key") {
        return false;
    }
    let Some(before) = text[..key_start].strip_suffix(' ') else {
        return false;
    };
    let word_start = before
        .trim_end_matches(|c: char| c.is_ascii_alphabetic())
        .len();
    is_listed(KEY_QUALIFIERS, &before[word_start..])
}

/// Where the secret value after a key's separator is, if there is one.
fn secret_value(text: &str, start: usize, key: &str, flag: bool) -> Option<(usize, usize)> {
    let rest = &text[start..];
    if rest.is_empty() || (flag && rest.starts_with('-')) {
        return None;
    }
    if let Some((inner, end)) = quoted_value(text, start) {
        return non_empty(inner, end);
    }
    if segments(key).any(|s| ends_with_ignore_case(s, "cookie")) {
        // A cookie header lists several `name=value;` pairs, all of them secret.
        let end = rest
            .find(['\n', '\r', '"'])
            .map_or(text.len(), |i| start + i);
        return non_empty(start, give_back_escape(text, start, end));
    }
    // Only a scheme's letters, not the next blank: over `password=a;password=a;…` the search
    // must stop within the value, or every key would scan the rest of the text.
    let word_end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .unwrap_or(rest.len());
    let after_word = &rest[word_end..];
    let blanks = after_word.len() - after_word.trim_start_matches([' ', '\t']).len();
    let credential = start + word_end + blanks;
    let scheme = &rest[..word_end];
    let after_scheme = if blanks == 0 {
        None
    } else if is_listed(SINGLE_CREDENTIAL_SCHEMES, scheme) {
        match quoted_value(text, credential) {
            Some((inner, end)) => non_empty(inner, end),
            None => non_empty(credential, unquoted_end(text, credential)),
        }
    } else if is_listed(MULTI_PARAMETER_SCHEMES, scheme) {
        let end = text[credential..]
            .find(['\n', '\r'])
            .map_or(text.len(), |i| credential + i);
        non_empty(credential, end)
    } else {
        None
    };
    // Without a credential after it, the scheme word itself is the value.
    after_scheme.or_else(|| non_empty(start, unquoted_end(text, start)))
}

fn non_empty(start: usize, end: usize) -> Option<(usize, usize)> {
    (end > start).then_some((start, end))
}

/// The inside of a value in quotes, possibly escaped (`\"…\"` inside a JSON string).
fn quoted_value(text: &str, start: usize) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    let escapes = bytes[start..].iter().take_while(|&&b| b == b'\\').count();
    let quote = *bytes.get(start + escapes)?;
    if quote != b'"' && quote != b'\'' {
        return None;
    }
    let inner = start + escapes + 1;
    let mut i = inner;
    let mut run = 0;
    while let Some(&b) = bytes.get(i) {
        if b == b'\n' || b == b'\r' {
            break;
        }
        if b == quote {
            // Unescaped, a quote closes after an even backslash run; escaped, after the same run.
            if escapes == 0 && run % 2 == 0 {
                return Some((inner, i));
            }
            if escapes > 0 && run == escapes {
                return Some((inner, i - run));
            }
        }
        run = if b == b'\\' { run + 1 } else { 0 };
        i += 1;
    }
    // Never closed on its line: everything up to the line's end is the secret.
    Some((inner, i))
}

/// End of an unquoted value: at a blank, `&`, `;`, `,`, a quote, a bracket or an escaped blank.
fn unquoted_end(text: &str, start: usize) -> usize {
    let bytes = text.as_bytes();
    let mut end = start;
    for (offset, c) in text[start..].char_indices() {
        let at = start + offset;
        let escaped_blank = c == '\\' && matches!(bytes.get(at + 1), Some(b'n' | b'r' | b't'));
        if c.is_whitespace()
            || escaped_blank
            || matches!(
                c,
                '&' | ';' | ',' | '"' | '\'' | '`' | ')' | ']' | '}' | '<' | '>'
            )
        {
            break;
        }
        end = at + c.len_utf8();
    }
    give_back_escape(text, start, end)
}

/// A backslash that escapes the quote right after a span belongs to that quote, not to the span.
fn give_back_escape(text: &str, start: usize, end: usize) -> usize {
    if !matches!(text.as_bytes().get(end), Some(b'"' | b'\'')) {
        return end;
    }
    let run = text.as_bytes()[start..end]
        .iter()
        .rev()
        .take_while(|&&b| b == b'\\')
        .count();
    if run % 2 == 1 { end - 1 } else { end }
}

// ---------------------------------------------------------------------------
// Absolute paths

fn mask_paths(text: &str) -> Option<String> {
    let mut rewrite = Rewrite::new(text);
    let mut at = 0;
    while let Some(found) = PATHS.find_at(text, at) {
        at = found.end();
        let matched = found.as_str();
        let first = matched.chars().next().unwrap_or(' ');
        if matched.len() >= 2 && matches!(first, '"' | '\'' | '`') && matched.ends_with(first) {
            let inner = found.start() + 1;
            let end = give_back_escape(text, inner, found.end() - 1);
            if let Some((name, _)) = last_component(text, inner, end) {
                rewrite.replace(inner, end, &text[name.0..name.1]);
            }
            // The closing quote is also the boundary of whatever follows it.
            at = found.end() - 1;
            continue;
        }
        let start = found.start() + path_boundary_len(matched);
        let end = give_back_escape(text, start, found.end());
        if let Some((end, name)) = cut_path(text, start, end) {
            rewrite.replace(start, end, name);
            at = at.max(end);
        }
    }
    rewrite.finish()
}

/// Length of the boundary the path regex consumed before the path itself.
fn path_boundary_len(found: &str) -> usize {
    let mut chars = found.chars();
    match (chars.next(), chars.next()) {
        (Some('\\'), Some('n' | 'r' | 't')) => 2,
        (Some(first), _) if matches!(first, '/' | '~' | '\\') || first.is_ascii_alphabetic() => 0,
        (Some(first), _) => first.len_utf8(),
        (None, _) => 0,
    }
}

/// Where the path that starts at `start` really ends, and the name that replaces it.
fn cut_path(text: &str, start: usize, end: usize) -> Option<(usize, &str)> {
    let (mut name, mut is_dir) = last_component(text, start, end)?;
    let mut end = end;
    // A name `C` before `:\x` or `file` before `://x` would read as a new path: cut that too.
    while !is_dir && starts_path_after_colon(text, name, end) {
        let Some(next) = PATH_AT_START.find(&text[name.0..]) else {
            break;
        };
        let next_end = give_back_escape(text, name.0, name.0 + next.end());
        let Some((next_name, next_is_dir)) = last_component(text, name.0, next_end) else {
            break;
        };
        if next_end <= end {
            break;
        }
        (name, is_dir, end) = (next_name, next_is_dir, next_end);
    }
    // A directory keeps its separator where dropping it would glue a drive or scheme to a colon.
    let replacement_end = if is_dir && starts_path_after_colon(text, name, end) {
        end
    } else {
        name.1
    };
    Some((end, &text[name.0..replacement_end]))
}

fn starts_path_after_colon(text: &str, name: (usize, usize), end: usize) -> bool {
    let name = &text[name.0..name.1];
    let is_drive = name.len() == 1 && name.bytes().all(|b| b.is_ascii_alphabetic());
    (is_drive || name.eq_ignore_ascii_case("file")) && text[end..].starts_with(':')
}

/// The last component of `text[start..end]` and whether the path ended in a separator.
fn last_component(text: &str, start: usize, end: usize) -> Option<((usize, usize), bool)> {
    let trimmed = text[start..end].trim_end_matches(['/', '\\']);
    let name_end = start + trimmed.len();
    let name_start = start + trimmed.rfind(['/', '\\'])? + 1;
    (name_end > name_start).then_some(((name_start, name_end), name_end < end))
}
