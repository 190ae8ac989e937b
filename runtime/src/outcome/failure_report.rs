//! How a failed call is reported: a masked message for the client, and a log record
//! with the detail (credentials masked) under the same correlation id.

use std::hash::{BuildHasher as _, Hasher as _};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use serde_json::{Map, Value};

use crate::outcome::failure::Failure;
use crate::outcome::masking;

/// What the server shows of internal errors (anything but a [`ToolError`](crate::ToolError)
/// or an argument error).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Detail {
    /// The masked message.
    #[default]
    Masked,
    /// Only the correlation id.
    Hidden,
}

/// What failed: a tool or a prompt by its name, a resource by its URI.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Subject<'a> {
    Tool(&'a str),
    Prompt(&'a str),
    Resource(&'a str),
}

impl std::fmt::Display for Subject<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Subject::Tool(name) => write!(f, "tool `{name}`"),
            Subject::Prompt(name) => write!(f, "prompt `{name}`"),
            Subject::Resource(uri) => write!(f, "resource `{uri}`"),
        }
    }
}

/// Logs a failure and gives the masked message the client reads.
pub(crate) fn failure(
    subject: Subject<'_>,
    failure: Failure,
    args: &Map<String, Value>,
    detail: Detail,
) -> String {
    let id = correlation_id();
    let hidden = format!("{subject} failed: internal error (error id {id})");
    let (client, log, sources) = match failure {
        Failure::Arguments(errors) => {
            let text = format!("invalid arguments for {subject}: {errors}");
            (text.clone(), text, Vec::new())
        }
        Failure::Tool(error) => {
            let text = format!("{subject} failed: {error}");
            (text.clone(), text, Vec::new())
        }
        Failure::Internal { message, sources } => {
            let text = format!("{subject} failed: {message}");
            let client = match detail {
                Detail::Masked => text.clone(),
                Detail::Hidden => hidden,
            };
            (client, text, sources)
        }
        Failure::Panic { message, location } => {
            let text = format!("{subject} failed: it panicked: {message}");
            let client = match detail {
                Detail::Masked => text.clone(),
                Detail::Hidden => hidden,
            };
            let log = match location {
                Some(location) => format!("{text} (at {location})"),
                None => text,
            };
            (client, log, Vec::new())
        }
        Failure::Timeout(limit) => {
            let text = format!(
                "{subject} failed: it did not finish within {}",
                seconds(limit)
            );
            (text.clone(), text, Vec::new())
        }
        // The protocol layer answers such a call with its questions; this text is what
        // a caller that cannot would read.
        Failure::InputRequired => {
            let text = format!("{subject} waits for the client's answers to its questions");
            (text.clone(), text, Vec::new())
        }
    };
    let mut arguments = Value::Object(args.clone());
    masking::mask_json_credentials(&mut arguments);
    clip_for_log(&mut arguments);
    let caused_by: Vec<String> = sources
        .iter()
        .map(|source| masking::mask_credentials(source).into_owned())
        .collect();
    let log = masking::mask_credentials(&log);
    macro_rules! record {
        ($field:ident = $name:expr) => {
            tracing::warn!($field = $name, error_id = %id, arguments = %arguments,
                caused_by = ?caused_by, "{log}")
        };
    }
    match subject {
        Subject::Tool(name) => record!(tool = name),
        Subject::Prompt(name) => record!(prompt = name),
        Subject::Resource(uri) => record!(resource = uri),
    }
    masking::mask_failure(&client).into_owned()
}

/// The longest string value, and the longest key, a log record shows whole: the
/// arguments are the client's text, which may be megabytes.
const LOGGED_CHARS: usize = 256;
const LOGGED_KEY_CHARS: usize = 64;

/// Cuts long strings and keys of logged arguments (with `…`). An explicit stack, as in
/// masking: a value built in code may nest deeper than the call stack allows.
fn clip_for_log(value: &mut Value) {
    let mut pending = vec![value];
    while let Some(value) = pending.pop() {
        match value {
            Value::String(text) => clip(text, LOGGED_CHARS),
            Value::Array(items) => pending.extend(items.iter_mut()),
            Value::Object(map) => {
                if map
                    .keys()
                    .any(|key| key.chars().nth(LOGGED_KEY_CHARS).is_some())
                {
                    *map = std::mem::take(map)
                        .into_iter()
                        .map(|(mut key, child)| {
                            clip(&mut key, LOGGED_KEY_CHARS);
                            (key, child)
                        })
                        .collect();
                }
                pending.extend(map.values_mut());
            }
            _ => {}
        }
    }
}

fn clip(text: &mut String, chars: usize) {
    if let Some((end, _)) = text.char_indices().nth(chars) {
        text.truncate(end);
        text.push('…');
    }
}

fn seconds(limit: Duration) -> String {
    let millis = limit.as_millis();
    if millis.is_multiple_of(1000) {
        format!("{} s", millis / 1000)
    } else {
        format!("{millis} ms")
    }
}

/// A short id that ties a client's message to its log record.
fn correlation_id() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    format!("{:016x}", hasher.finish())
}
