//! A server mounted into another under a namespace: its tools listed by the other as
//! `namespace_name`, each call of one answered by the mounted server itself, with its own
//! state, time limit and layers.
//!
//! The client sees the namespaced name everywhere (`tools/list`, the span of its request,
//! the parent's layers, error messages); the mounted server's tool sees its own name (its
//! `Context`, its server's layers and spans), as it would served alone.

use crate::call::state::StateMap;
use crate::model::ToolInfo;
use crate::outcome::error::ServerError;

/// What joins a namespace and a mounted item's name: `files` and `search` make
/// `files_search`, a name every client's rules for tool names accept.
pub(crate) const SEPARATOR: char = '_';

/// The longest tool name the specification allows (2025-11-25: `[A-Za-z0-9_.-]{1,128}`).
pub(crate) const MAX_NAME: usize = 128;

/// A tool of a mounted server, as the server it is mounted into holds it.
#[derive(Debug)]
pub(crate) struct MountedTool {
    /// The name clients call it by: the namespace, [`SEPARATOR`], its own name.
    pub(crate) name: &'static str,
    /// Its name in the mounted server.
    pub(crate) own_name: String,
    /// What `tools/list` lists of it: the mounted server's listing, renamed.
    pub(crate) info: ToolInfo,
    /// Where it was made, and under which namespace it is mounted, for errors.
    pub(crate) location: String,
    /// Which of the mounted servers answers its calls, by its place among them.
    pub(crate) mount: usize,
}

/// A prompt or a resource of a mounted server, as the server it is mounted into holds it:
/// run there, with the state of the server it comes from.
#[derive(Debug)]
pub(crate) struct MountedEntry<E: 'static> {
    pub(crate) entry: &'static E,
    /// The name it is listed by: a prompt's, namespaced; a resource's own.
    pub(crate) name: &'static str,
    /// The state of the server it comes from.
    pub(crate) state: StateMap,
    /// The server it comes from and its namespace, for errors:
    /// "in the server `files` mounted as `files`".
    pub(crate) mounted_as: String,
    /// Which of the mounted servers it comes from, by its place among them, and the name
    /// (or URI) that server lists it by: a request in a session is handed to it.
    pub(crate) mount: (usize, &'static str),
}

/// A namespace clients' rules for names accept: one or more of `A-Z a-z 0-9 _ . -`.
pub(crate) fn check_namespace(namespace: &str) -> Result<(), ServerError> {
    let problem = if namespace.is_empty() {
        "it is empty".to_owned()
    } else if let Some(bad) =
        (namespace.chars()).find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')))
    {
        format!("it holds `{bad}`, and a tool's name may hold only A-Z, a-z, 0-9, `_`, `.` and `-`")
    } else if namespace.len() >= MAX_NAME {
        format!(
            "it is {} characters long, and a tool's name at most {MAX_NAME}",
            namespace.len()
        )
    } else {
        return Ok(());
    };
    Err(ServerError::InvalidNamespace {
        namespace: namespace.to_owned(),
        problem,
    })
}

impl MountedTool {
    /// A failure's message as the mounted server wrote it, naming the tool as the client
    /// called it.
    pub(crate) fn renamed(&self, message: String) -> String {
        let own = format!("tool `{}`", self.own_name);
        if !message.contains(&own) {
            return message;
        }
        message.replacen(&own, &format!("tool `{}`", self.name), 1)
    }
}
