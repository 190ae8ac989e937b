//! What the masking passes recognise: the regex patterns, compiled once, and the words that
//! make a key name a secret.
//!
//! Every pattern is a finite automaton of the `regex` crate (no look-around, no
//! back-references), so each search is linear; each is also built so that a match never
//! waits on a longer, failing attempt that started earlier, which keeps whole passes linear.

use std::sync::LazyLock;

use regex::Regex;

fn compile(pattern: &str) -> Regex {
    Regex::new(pattern).expect("masking patterns are valid regex literals")
}

/// A PEM private-key block through its END line, or to the end of the text when it was cut off.
pub(super) static PEM: LazyLock<Regex> = LazyLock::new(|| {
    compile(concat!(
        r"-----BEGIN[ A-Z0-9]*PRIVATE KEY[ A-Z0-9]*(?:-----)?(?s:.*?)",
        r"(?:-----END[ A-Z0-9]*PRIVATE KEY[ A-Z0-9]*-----|\z)",
    ))
});

/// Token shapes, each anchored at its first character. A prefix only an issuer writes
/// (`sk_live_`, `sk-`, `ghp_`, `xoxb-`, `AKIA`) is masked with whatever follows it, however
/// short: a test key is as secret as a live one, and shorter than any length rule expects.
/// Only a bare prefix, with fewer than three characters after it, is not a key.
const TOKEN_SHAPES: &str = concat!(
    r"(?i:bearer|basic)[ \t]+[A-Za-z0-9._~+/:\-]+=*",
    // A JWT: a JSON header, then a payload that is JSON as well or at least base64url.
    r"|eyJ[A-Za-z0-9_\-]*\.eyJ[A-Za-z0-9_\-]*\.",
    r"|eyJ[A-Za-z0-9_\-]{4,}\.[A-Za-z0-9_\-]{4,}\.[A-Za-z0-9_\-]*",
    // AWS: access keys by prefix; the other unique ids at their full length of 16.
    r"|(?:AKIA|ASIA)[A-Z0-9]{4,}",
    r"|(?:ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|APKA|AROA)[A-Z0-9]{16,}",
    r"|gh[pousr]_[A-Za-z0-9]{3,}",
    r"|github_pat_[A-Za-z0-9_]{3,}",
    r"|glpat-[A-Za-z0-9_\-]{3,}",
    r"|xox[abeprs]-[A-Za-z0-9\-]{3,}",
    // Stripe's secret, restricted and publishable keys, live or test.
    r"|[rsp]k_(?:live|test)_[A-Za-z0-9]{3,}",
    r"|whsec_[A-Za-z0-9]{3,}",
    // OpenAI (`sk-`, `sk-proj-`), Anthropic (`sk-ant-`) and those who copied them.
    r"|sk-[A-Za-z0-9_\-]{3,}",
    r"|AIza[A-Za-z0-9_\-]{3,}",
    r"|hf_[A-Za-z0-9]{30,}",
    r"|npm_[A-Za-z0-9]{36,}",
    r"|pypi-[A-Za-z0-9_\-]{50,}",
    r"|SG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}",
);

/// A token shape after a non-word character. Starting only there keeps every search linear:
/// no token can begin inside a run that a longer, failing token attempt is still scanning.
pub(super) static TOKENS: LazyLock<Regex> = LazyLock::new(|| {
    compile(&format!(
        r"(?:^|[^A-Za-z0-9_.\-]|\\[nrt])(?:{TOKEN_SHAPES})"
    ))
});

/// A token shape at the very start of the text.
pub(super) static TOKEN_AT_START: LazyLock<Regex> =
    LazyLock::new(|| compile(&format!(r"^(?:{TOKEN_SHAPES})")));

/// `scheme://user:password@`, up to the authority's last `@`: a password may hold one.
pub(super) static USERINFO: LazyLock<Regex> =
    LazyLock::new(|| compile(r#"[A-Za-z][A-Za-z0-9+.\-]*://[^\s/?#"'`<>()\[\]{}\\]+@"#));

/// A key and its separator. The value is read by hand, so a non-secret key's value is searched on.
pub(super) static KEY: LazyLock<Regex> = LazyLock::new(|| {
    compile(r#"[A-Za-z0-9_.\-]+(?:\\*["'])?[ \t]*(?::=|=>|[:=])[ \t]*|--[A-Za-z0-9_.\-]+[ \t]+"#)
});

/// Whole segments that name a secret.
const SECRET_SEGMENTS: &str =
    "pass auth oauth session sessid credential credentials creds sig signature jwt bearer secrets";

/// Words that name a secret also at the end of a segment (`dbpassword`, `csrftoken`).
const SECRET_SUFFIXES: &str = "password passwd pwd passphrase secret token apikey accesskey \
    privatekey secretkey sessionid sessid cookie authorization";

/// Words that make a following `key` segment a secret (`api_key`, `AccountKey`).
pub(super) const KEY_QUALIFIERS: &str =
    "api access private secret signing encryption master account client shared";

/// Last segments that say something about a secret without holding it (`token_type`).
const DESCRIPTORS: &str = "type kind count len length size limit max min ttl timeout expiry \
    expires expiration exp url uri endpoint path file dir name domain policy format header field \
    param required enabled provider method mode scheme version location prefix";

/// Authorization schemes followed by a single credential.
pub(super) const SINGLE_CREDENTIAL_SCHEMES: &str = "bearer basic token bot negotiate ntlm";

/// Authorization schemes that spread the secret over several parameters.
pub(super) const MULTI_PARAMETER_SCHEMES: &str = "digest aws4-hmac-sha256 hmac signature";

pub(super) fn is_listed(words: &str, word: &str) -> bool {
    words
        .split(' ')
        .any(|listed| listed.eq_ignore_ascii_case(word))
}

pub(super) fn is_secret_key(key: &str) -> bool {
    let mut secret = false;
    let mut previous: Option<&str> = None;
    let mut last = "";
    for segment in segments(key) {
        if names_secret(segment)
            || (segment.eq_ignore_ascii_case("key")
                && previous.is_some_and(|word| is_listed(KEY_QUALIFIERS, word)))
        {
            secret = true;
        }
        previous = Some(segment);
        last = segment;
    }
    secret && !is_listed(DESCRIPTORS, last)
}

fn names_secret(segment: &str) -> bool {
    is_listed(SECRET_SEGMENTS, segment)
        || SECRET_SUFFIXES
            .split(' ')
            .any(|suffix| ends_with_ignore_case(segment, suffix))
}

pub(super) fn ends_with_ignore_case(text: &str, suffix: &str) -> bool {
    text.len() >= suffix.len()
        && text.as_bytes()[text.len() - suffix.len()..].eq_ignore_ascii_case(suffix.as_bytes())
}

/// The words of a key: split at anything not ASCII alphanumeric, then at camel-case humps.
pub(super) fn segments(key: &str) -> impl Iterator<Item = &str> {
    key.split(|c: char| !c.is_ascii_alphanumeric())
        .flat_map(camel_humps)
}

fn camel_humps(word: &str) -> impl Iterator<Item = &str> {
    let bytes = word.as_bytes();
    let mut start = 0;
    std::iter::from_fn(move || {
        if start >= bytes.len() {
            return None;
        }
        let mut end = start + 1;
        while end < bytes.len() && !is_hump(bytes, end) {
            end += 1;
        }
        let hump = &word[start..end];
        start = end;
        Some(hump)
    })
}

/// `accessToken` and `APIKey` both break before the upper-case letter that starts a word.
fn is_hump(bytes: &[u8], i: usize) -> bool {
    let (before, here) = (bytes[i - 1], bytes[i]);
    here.is_ascii_uppercase()
        && (before.is_ascii_lowercase()
            || before.is_ascii_digit()
            || (before.is_ascii_uppercase()
                && bytes.get(i + 1).is_some_and(u8::is_ascii_lowercase)))
}

/// A character of a path component; none is a path boundary, so a cut name never starts a path.
const COMPONENT: &str = r#"[^\s/\\"'`<>|()\[\]{},;:=*?“”‘’«»]"#;
/// A character of a `file:` URL, which keeps its drive colons and backslashes.
const FILE_URL_CHAR: &str = r#"[^\s"'`<>|()\[\]{},;=*?“”‘’«»]"#;

/// The path forms, each anchored at its first character.
fn path_forms() -> String {
    // Separator runs (`a//b`, `C:\\x`) are absorbed, so no cut name is followed by a separator.
    format!(
        concat!(
            r"\\?/{c}+(?:(?:\\?/)+{c}+)*(?:\\?/)*",
            r"|~[A-Za-z0-9_.\-]*/+{c}+(?:/+{c}+)*/*",
            r"|(?:\\\\\?\\)?[A-Za-z]:{w}+(?:{c}+(?:{w}+{c}+)*{w}*)?",
            r"|\\\\(?:\\\\)?{c}+(?:{w}+{c}+)+{w}*",
            r"|(?i:file):/+{f}*",
        ),
        c = COMPONENT,
        w = r"(?:\\|/)",
        f = FILE_URL_CHAR,
    )
}

/// An absolute path after a boundary, or a whole quoted string that starts like one.
pub(super) static PATHS: LazyLock<Regex> = LazyLock::new(|| {
    let root = concat!(
        r#"(?:\\?/[^/\\\s"'`*]|~[A-Za-z0-9_.\-]*/"#,
        r"|(?:\\\\\?\\)?[A-Za-z]:(?:\\{1,2}|/)|\\\\|(?i:file):/)",
    );
    compile(&format!(
        concat!(
            r#""{root}{inner}*"|'{root}{inner}*'|`{root}{inner}*`"#,
            r#"|(?:^|[\s"'`=:(\[{{,;|>“‘«]|\\[nrt])(?:{forms})"#,
        ),
        root = root,
        // No quote inside, so a cut name never opens a quoted path; no `*`, so none spans a `***`.
        inner = r#"[^"'`*\r\n]"#,
        forms = path_forms(),
    ))
});

/// The path forms anchored at the start, to follow a cut name that starts another path.
pub(super) static PATH_AT_START: LazyLock<Regex> =
    LazyLock::new(|| compile(&format!("^(?:{})", path_forms())));
