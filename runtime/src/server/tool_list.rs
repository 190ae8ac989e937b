//! The tools a running server lists: a snapshot shared by every session and swapped
//! whole when a tool is added or removed, after which every session is told
//! (`notifications/tools/list_changed`).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, RwLock};
use std::time::Duration;

use rmcp::model::{ServerNotification, Tool, ToolListChangedNotification};
use rmcp::service::SubscriptionSink;
use rmcp::{Peer, RoleServer};

use crate::model::ToolInfo;
use crate::outcome::error::ServerError;
use crate::protocol::bridge;
use crate::registry::runtime_tool::{AddedTool, RuntimeTool};

/// The tools a running server lists, to add tools to and remove tools from while it
/// serves: every session connected gets `notifications/tools/list_changed`, and lists
/// the new tools. A call in flight on a tool removed finishes.
///
/// Get it from a built server with [`ToolServer::tool_list`](crate::ToolServer::tool_list),
/// or in an attribute tool as a parameter `State<ToolList>`: every server gives it.
/// Clones share the list.
///
/// ```standalone_crate
/// use mcp_tool::{Arguments, Context, RuntimeTool, State, ToolError, ToolList, mcp_tool};
///
/// /// Adds a tool named `name` that returns `text`.
/// #[mcp_tool]
/// fn add_echo(tools: State<ToolList>, name: String, text: String) -> Result<String, ToolError> {
///     let tool = RuntimeTool::new(name, "Returns a fixed text.").handler(
///         move |args: Arguments, _ctx: Context| {
///             let text = text.clone();
///             async move {
///                 args.finish()?;
///                 Ok::<_, ToolError>(text)
///             }
///         },
///     );
///     tools.add(tool).map_err(|e| ToolError::new(e.to_string()))?;
///     Ok("added".to_owned())
/// }
/// # fn main() {}
/// ```
#[derive(Clone)]
pub struct ToolList {
    inner: Arc<Inner>,
}

struct Inner {
    current: RwLock<Arc<Snapshot>>,
    /// Whether the list ever changed: until it does, a call finds its tool among the
    /// server's built tools without reading the snapshot.
    changed: AtomicBool,
    /// The tools the server was built with, by position.
    built: Vec<Built>,
    /// The server's time limit for a call, for tools added without their own.
    timeout: Option<Duration>,
    /// Every session that may want `notifications/tools/list_changed`.
    sessions: Mutex<Vec<Peer<RoleServer>>>,
    /// The `subscriptions/listen` streams (protocol 2026-07-28) that asked for it.
    streams: Mutex<Vec<(u64, SubscriptionSink)>>,
    /// The number the next stream is known by.
    next_stream: AtomicU64,
}

/// A tool the server was built with.
pub(crate) struct Built {
    pub(crate) name: &'static str,
    /// `file:line` of its definition.
    pub(crate) location: String,
    pub(crate) tool: Tool,
}

/// Where a listed tool is: among the server's built tools, or added at run time.
#[derive(Clone)]
pub(crate) enum Slot {
    Built(usize),
    Added(Arc<AddedTool>),
}

/// Where `name` is in `index` (names with their positions, sorted by name): among a few
/// names, found by comparing them one by one, the fastest; among many, by halves.
#[inline]
pub(crate) fn position_by_name(index: &[(&'static str, usize)], name: &str) -> Option<usize> {
    let found = if index.len() <= 16 {
        index.iter().position(|(known, _)| *known == name)
    } else {
        index.binary_search_by(|(known, _)| (*known).cmp(name)).ok()
    };
    Some(index[found?].1)
}

/// The tools listed at one time.
struct Snapshot {
    /// In the order listed: the built tools, then the added ones in the order added.
    slots: Vec<Slot>,
    /// Names with their position in `slots`, sorted by name.
    index: Vec<(&'static str, usize)>,
    /// What `tools/list` sends.
    listing: Vec<Tool>,
    /// The same in this crate's terms, made on first use.
    infos: OnceLock<Arc<[ToolInfo]>>,
}

impl Snapshot {
    fn new(slots: Vec<Slot>, built: &[Built]) -> Self {
        let name = |slot: &Slot| match slot {
            Slot::Built(position) => built[*position].name,
            Slot::Added(tool) => tool.name,
        };
        let mut index: Vec<(&'static str, usize)> = (slots.iter().enumerate())
            .map(|(position, slot)| (name(slot), position))
            .collect();
        index.sort_unstable();
        let listing = (slots.iter())
            .map(|slot| match slot {
                Slot::Built(position) => built[*position].tool.clone(),
                Slot::Added(tool) => tool.tool.clone(),
            })
            .collect();
        Self {
            slots,
            index,
            listing,
            infos: OnceLock::new(),
        }
    }

    fn find(&self, name: &str) -> Option<&Slot> {
        self.slots.get(position_by_name(&self.index, name)?)
    }
}

impl ToolList {
    /// The list of a server built with `built`, whose time limit for a call is `timeout`.
    pub(crate) fn new(built: Vec<Built>, timeout: Option<Duration>) -> Self {
        let slots = (0..built.len()).map(Slot::Built).collect();
        let snapshot = Snapshot::new(slots, &built);
        Self {
            inner: Arc::new(Inner {
                current: RwLock::new(Arc::new(snapshot)),
                changed: AtomicBool::new(false),
                built,
                timeout,
                sessions: Mutex::new(Vec::new()),
                streams: Mutex::new(Vec::new()),
                next_stream: AtomicU64::new(0),
            }),
        }
    }

    /// Whether a tool was ever added or removed.
    #[inline]
    pub(crate) fn changed(&self) -> bool {
        self.inner.changed.load(Ordering::Acquire)
    }

    fn snapshot(&self) -> Arc<Snapshot> {
        let current = (self.inner.current.read()).unwrap_or_else(|poisoned| poisoned.into_inner());
        Arc::clone(&current)
    }

    /// The tool named `name`, as listed now.
    pub(crate) fn find(&self, name: &str) -> Option<Slot> {
        let current = (self.inner.current.read()).unwrap_or_else(|poisoned| poisoned.into_inner());
        current.find(name).cloned()
    }

    /// What `tools/list` sends now.
    pub(crate) fn listing(&self) -> Vec<Tool> {
        let current = (self.inner.current.read()).unwrap_or_else(|poisoned| poisoned.into_inner());
        current.listing.clone()
    }

    /// The names listed now, sorted.
    pub(crate) fn sorted_names(&self) -> Vec<&'static str> {
        let snapshot = self.snapshot();
        snapshot.index.iter().map(|(name, _)| *name).collect()
    }

    /// The tools listed now, with their schemas, as clients see them.
    pub fn tools(&self) -> Arc<[ToolInfo]> {
        let snapshot = self.snapshot();
        Arc::clone(snapshot.infos.get_or_init(|| {
            (snapshot.listing.iter().cloned())
                .map(bridge::tool_info)
                .collect()
        }))
    }

    /// Whether a tool named `name` is listed now.
    pub fn contains(&self, name: &str) -> bool {
        self.snapshot().find(name).is_some()
    }

    /// Adds a tool, once checked (see [`RuntimeTool`]), and tells every session. A tool
    /// with the name of one listed is an error that names where each was made: remove
    /// the first to replace it.
    pub fn add(&self, tool: RuntimeTool) -> Result<(), ServerError> {
        let added = tool.build(self.inner.timeout)?;
        {
            let mut current =
                (self.inner.current.write()).unwrap_or_else(|poisoned| poisoned.into_inner());
            if let Some(existing) = current.find(added.name) {
                return Err(ServerError::ToolNameTaken {
                    name: added.name.to_owned(),
                    first: match existing {
                        Slot::Built(position) => self.inner.built[*position].location.clone(),
                        Slot::Added(tool) => format!("{} (added at run time)", tool.location),
                    },
                    second: added.location.clone(),
                });
            }
            let mut slots = current.slots.clone();
            slots.push(Slot::Added(Arc::new(added)));
            *current = Arc::new(Snapshot::new(slots, &self.inner.built));
            self.inner.changed.store(true, Ordering::Release);
        }
        self.notify();
        Ok(())
    }

    /// Removes the tool named `name`, whether built with the server or added, and tells
    /// every session; whether there was one. Calls of it in flight finish; later calls
    /// get "unknown tool".
    pub fn remove(&self, name: &str) -> bool {
        {
            let mut current =
                (self.inner.current.write()).unwrap_or_else(|poisoned| poisoned.into_inner());
            let Ok(found) = (current.index).binary_search_by(|(known, _)| (*known).cmp(name))
            else {
                return false;
            };
            let position = current.index[found].1;
            let mut slots = current.slots.clone();
            slots.remove(position);
            *current = Arc::new(Snapshot::new(slots, &self.inner.built));
            self.inner.changed.store(true, Ordering::Release);
        }
        self.notify();
        true
    }

    /// Remembers a session, to tell it when the list changes.
    pub(crate) fn session_started(&self, peer: Peer<RoleServer>) {
        let mut sessions =
            (self.inner.sessions.lock()).unwrap_or_else(|poisoned| poisoned.into_inner());
        sessions.retain(|peer| !peer.is_transport_closed());
        sessions.push(peer);
    }

    /// Remembers a `subscriptions/listen` stream that accepted
    /// `notifications/tools/list_changed`, to tell it when the list changes.
    pub(crate) fn stream_started(&self, sink: SubscriptionSink) {
        if sink.accepted().tools_list_changed == Some(true) {
            let mut streams =
                (self.inner.streams.lock()).unwrap_or_else(|poisoned| poisoned.into_inner());
            let number = self.inner.next_stream.fetch_add(1, Ordering::Relaxed);
            streams.push((number, sink));
        }
    }

    /// Sends `notifications/tools/list_changed` to every session and stream still open.
    fn notify(&self) {
        let peers: Vec<Peer<RoleServer>> = {
            let mut sessions =
                (self.inner.sessions.lock()).unwrap_or_else(|poisoned| poisoned.into_inner());
            sessions.retain(|peer| !peer.is_transport_closed());
            sessions.clone()
        };
        let streams: Vec<(u64, SubscriptionSink)> = {
            let streams =
                (self.inner.streams.lock()).unwrap_or_else(|poisoned| poisoned.into_inner());
            streams.clone()
        };
        if peers.is_empty() && streams.is_empty() {
            return;
        }
        // Sessions exist only on an async runtime, which sends for them.
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            tracing::debug!("no async runtime: the sessions are not told the tools changed");
            return;
        };
        let list = self.clone();
        runtime.spawn(async move {
            for peer in peers {
                if let Err(error) = peer.notify_tool_list_changed().await {
                    tracing::debug!(%error, "notifications/tools/list_changed not sent");
                }
            }
            for (number, sink) in streams {
                let changed = ToolListChangedNotification::default();
                let sent = sink.send(ServerNotification::ToolListChangedNotification(changed));
                if let Err(error) = sent.await {
                    // A stream that ended is forgotten.
                    tracing::debug!(%error, "notifications/tools/list_changed not sent");
                    let mut streams = (list.inner.streams.lock())
                        .unwrap_or_else(|poisoned| poisoned.into_inner());
                    streams.retain(|(kept, _)| *kept != number);
                }
            }
        });
    }
}

impl std::fmt::Debug for ToolList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolList")
            .field("tools", &self.sorted_names())
            .finish_non_exhaustive()
    }
}
