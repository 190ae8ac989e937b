//! The one table of a server's tools, found for each call and listed as a snapshot shared
//! by every session, swapped whole when a tool is added or removed, after which every
//! session is told (`notifications/tools/list_changed`).
//!
//! Two words tell its tools apart, each for one thing:
//! - where a tool was defined: an **attribute** tool (`#[mcp_tool]`, held as an
//!   [`AttributeTool`]) or a **run-time** tool ([`RuntimeTool`], held as a
//!   [`CheckedTool`] once its `build` checked it); a [`Tool`] is either.
//! - when it joined the table: an **initial** tool, which the server was built with
//!   (attribute tools and run-time tools given to the builder alike), or an **added** one,
//!   added while the server serves. A [`Place`] in a [`Snapshot`] says which.
//!
//! Until the list first changes, a call finds its tool among the initial tools alone, by
//! name, without reading the snapshot; a [`Found`] tool is what a call holds.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock, Weak};
use std::time::Duration;

use crate::model::ToolInfo;
use crate::outcome::error::{CallError, ServerError};
use crate::registry::runtime_tool::{CheckedTool, RuntimeTool};
use crate::registry::tool::ToolEntry;
use crate::server::derived::Derived;
use crate::server::listeners::Listener;
use crate::server::mount::MountedTool;
use crate::server::tools::{AttributeTool, Found, RuntimeRef, unknown_tool};

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
    /// initial tools without reading the snapshot.
    changed: AtomicBool,
    /// The tools the server was built with, by position.
    initial: Vec<Tool>,
    /// Their names with their position in `initial`, sorted by name: looked up on every
    /// call, where comparing names beats hashing one.
    index: Vec<(&'static str, usize)>,
    /// The server's time limit for a call, for tools added without their own.
    timeout: Option<Duration>,
    /// Every session and stream that wants `notifications/tools/list_changed`, by the
    /// number each is known by.
    listeners: Mutex<Vec<(u64, Arc<dyn Listener>)>>,
    /// The servers this one is mounted into, each told at once when the list changes.
    followers: Mutex<Vec<Follower>>,
    /// The number the next listener is known by.
    next_listener: AtomicU64,
    /// Where a change is published for the server's other replicas, when they share them.
    #[cfg(feature = "redis")]
    fanout: std::sync::OnceLock<Arc<crate::server::fanout::Fanout>>,
}

/// What a server this one is mounted into does when this list changes: lists the tools
/// anew. `false` once that server is gone.
pub(crate) type Follower = Box<dyn Fn(&ToolList) -> bool + Send + Sync>;

/// A handle on a [`ToolList`] that does not keep it.
pub(crate) struct WeakToolList(Weak<Inner>);

impl WeakToolList {
    pub(crate) fn upgrade(&self) -> Option<ToolList> {
        self.0.upgrade().map(|inner| ToolList { inner })
    }
}

/// A tool as the table holds it: an attribute tool, or a run-time tool. The initial tools
/// are found on the fast path, until the list first changes.
pub(crate) enum Tool {
    Attribute(AttributeTool),
    Runtime(CheckedTool),
    /// A tool of a server mounted into this one.
    Mounted(Arc<MountedTool>),
}

impl Tool {
    fn name(&self) -> &'static str {
        match self {
            Tool::Attribute(tool) => tool.entry.name(),
            Tool::Runtime(tool) => tool.name,
            Tool::Mounted(tool) => tool.name,
        }
    }

    fn info(&self) -> &ToolInfo {
        match self {
            Tool::Attribute(tool) => &tool.info,
            Tool::Runtime(tool) => &tool.info,
            Tool::Mounted(tool) => &tool.info,
        }
    }

    /// Where it was made, for an error naming two tools of one name.
    fn location(&self) -> String {
        match self {
            Tool::Attribute(tool) => tool.entry.location(),
            Tool::Runtime(tool) => format!("{} (added at run time)", tool.location),
            Tool::Mounted(tool) => tool.location.clone(),
        }
    }

    #[inline]
    fn found(&self) -> Found<'_> {
        match self {
            Tool::Attribute(tool) => Found::Attribute(tool),
            Tool::Runtime(tool) => Found::Runtime(RuntimeRef::Initial(tool), None),
            Tool::Mounted(tool) => Found::Mounted(Arc::clone(tool)),
        }
    }
}

/// Where a listed tool is: among the initial tools, by position, or added while serving,
/// by a program or by a server mounted into this one.
#[derive(Clone)]
pub(crate) enum Place {
    Initial(usize),
    Added(Arc<CheckedTool>),
    Mounted(Arc<MountedTool>),
}

impl Place {
    /// The mounted tool it is, when it is one.
    fn mounted<'a>(&'a self, initial: &'a [Tool]) -> Option<&'a MountedTool> {
        match self {
            Place::Initial(position) => match &initial[*position] {
                Tool::Mounted(tool) => Some(tool),
                _ => None,
            },
            Place::Mounted(tool) => Some(tool),
            Place::Added(_) => None,
        }
    }

    fn location(&self, initial: &[Tool]) -> String {
        match self {
            Place::Initial(position) => initial[*position].location(),
            Place::Added(tool) => format!("{} (added at run time)", tool.location),
            Place::Mounted(tool) => tool.location.clone(),
        }
    }
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
pub(crate) struct Snapshot {
    /// In the order listed: the initial tools, then the added ones in the order added.
    places: Vec<Place>,
    /// Names with their position in `places`, sorted by name.
    index: Vec<(&'static str, usize)>,
    /// What `tools/list` lists, in the order of `places`.
    infos: Arc<[ToolInfo]>,
    /// The protocol layer's own form of `infos` under each schema profile, by the
    /// profile's place in `SchemaProfile::ALL`, each made on first use.
    pub(crate) derived: [Derived; 4],
}

impl Snapshot {
    fn new(places: Vec<Place>, initial: &[Tool]) -> Self {
        let name = |place: &Place| match place {
            Place::Initial(position) => initial[*position].name(),
            Place::Added(tool) => tool.name,
            Place::Mounted(tool) => tool.name,
        };
        let mut index: Vec<(&'static str, usize)> = (places.iter().enumerate())
            .map(|(position, place)| (name(place), position))
            .collect();
        index.sort_unstable();
        let infos = (places.iter())
            .map(|place| match place {
                Place::Initial(position) => initial[*position].info().clone(),
                Place::Added(tool) => tool.info.clone(),
                Place::Mounted(tool) => tool.info.clone(),
            })
            .collect();
        Self {
            places,
            index,
            infos,
            derived: Default::default(),
        }
    }

    fn find(&self, name: &str) -> Option<&Place> {
        self.places.get(self.position(name)?)
    }

    /// The tools listed, with their schemas, as clients see them.
    pub(crate) fn infos(&self) -> &[ToolInfo] {
        &self.infos
    }

    /// Where the tool named `name` is in [`infos`](Self::infos).
    pub(crate) fn position(&self, name: &str) -> Option<usize> {
        position_by_name(&self.index, name)
    }
}

impl ToolList {
    /// The list of a server built with the tools of `entries`, the run-time tools `added`
    /// and the tools of the servers `mounted`, whose time limit for a call is `timeout`.
    /// Two tools of one name are an error that names where each was made.
    pub(crate) fn new(
        entries: &[&'static ToolEntry],
        added: Vec<RuntimeTool>,
        mounted: Vec<MountedTool>,
        timeout: Option<Duration>,
    ) -> Result<Self, ServerError> {
        let mut initial: Vec<Tool> = (entries.iter())
            .map(|entry| Tool::Attribute(AttributeTool::new(entry, timeout)))
            .collect();
        for tool in added {
            initial.push(Tool::Runtime(tool.build(timeout)?));
        }
        initial.extend(
            mounted
                .into_iter()
                .map(|tool| Tool::Mounted(Arc::new(tool))),
        );
        let mut index: Vec<(&'static str, usize)> = (initial.iter().enumerate())
            .map(|(position, tool)| (tool.name(), position))
            .collect();
        index.sort_unstable();
        if let Some(pair) = index.windows(2).find(|pair| pair[0].0 == pair[1].0) {
            let (first, second) = (&initial[pair[0].1], &initial[pair[1].1]);
            let (first, second) = if pair[0].1 < pair[1].1 {
                (first, second)
            } else {
                (second, first)
            };
            return Err(match second {
                Tool::Mounted(_) => ServerError::MountConflict {
                    kind: "tool",
                    name: first.name().to_owned(),
                    first: first.location(),
                    second: second.location(),
                },
                Tool::Attribute(tool) => ServerError::ToolNameTaken {
                    name: first.name().to_owned(),
                    first: first.location(),
                    second: tool.entry.location(),
                },
                Tool::Runtime(tool) => ServerError::ToolNameTaken {
                    name: first.name().to_owned(),
                    first: first.location(),
                    second: tool.location.clone(),
                },
            });
        }
        let places = (0..initial.len()).map(Place::Initial).collect();
        let listed = Snapshot::new(places, &initial);
        Ok(Self {
            inner: Arc::new(Inner {
                current: RwLock::new(Arc::new(listed)),
                changed: AtomicBool::new(false),
                initial,
                index,
                timeout,
                listeners: Mutex::new(Vec::new()),
                next_listener: AtomicU64::new(0),
                followers: Mutex::new(Vec::new()),
                #[cfg(feature = "redis")]
                fanout: std::sync::OnceLock::new(),
            }),
        })
    }

    /// The tool named `name`, for a call.
    #[inline]
    pub(crate) fn find(&self, name: &str) -> Option<Found<'_>> {
        if self.changed() {
            return self.find_listed(name);
        }
        let position = position_by_name(&self.inner.index, name)?;
        self.inner.initial.get(position).map(Tool::found)
    }

    /// The tool named `name` once tools were added or removed.
    #[cold]
    #[inline(never)]
    fn find_listed(&self, name: &str) -> Option<Found<'_>> {
        let place = {
            let current =
                (self.inner.current.read()).unwrap_or_else(|poisoned| poisoned.into_inner());
            current.find(name)?.clone()
        };
        match place {
            Place::Initial(position) => self.inner.initial.get(position).map(Tool::found),
            Place::Added(tool) => Some(Found::Runtime(RuntimeRef::Added(tool), None)),
            Place::Mounted(tool) => Some(Found::Mounted(tool)),
        }
    }

    /// The error for a call of `name`, which is not listed: the closest names suggested.
    #[cold]
    pub(crate) fn unknown_tool(&self, name: &str) -> CallError {
        if self.changed() {
            return unknown_tool(name, self.sorted_names().into_iter());
        }
        unknown_tool(name, self.inner.index.iter().map(|(known, _)| *known))
    }

    /// Whether a tool was ever added or removed.
    #[inline]
    pub(crate) fn changed(&self) -> bool {
        self.inner.changed.load(Ordering::Acquire)
    }

    /// The tools listed now.
    pub(crate) fn listed(&self) -> Arc<Snapshot> {
        let current = (self.inner.current.read()).unwrap_or_else(|poisoned| poisoned.into_inner());
        Arc::clone(&current)
    }

    /// The tools listed now, each with its name, its listing and where it was made: what a
    /// server that mounts this one lists of it.
    pub(crate) fn located(&self) -> Vec<(&'static str, ToolInfo, String)> {
        let listed = self.listed();
        let initial = &self.inner.initial;
        let located = |place: &Place| match place {
            Place::Initial(position) => (initial[*position].name(), place.location(initial)),
            Place::Added(tool) => (tool.name, place.location(initial)),
            Place::Mounted(tool) => (tool.name, place.location(initial)),
        };
        (listed.places.iter().zip(listed.infos.iter()))
            .map(|(place, info)| {
                let (name, location) = located(place);
                (name, info.clone(), location)
            })
            .collect()
    }

    /// The names listed now, sorted.
    pub(crate) fn sorted_names(&self) -> Vec<&'static str> {
        let listed = self.listed();
        listed.index.iter().map(|(name, _)| *name).collect()
    }

    /// The tools listed now, with their schemas, as clients see them.
    pub fn tools(&self) -> Arc<[ToolInfo]> {
        Arc::clone(&self.listed().infos)
    }

    /// Whether a tool named `name` is listed now.
    pub fn contains(&self, name: &str) -> bool {
        self.listed().find(name).is_some()
    }

    /// Adds a tool, once checked (see [`RuntimeTool`]), and tells every session. A tool
    /// with the name of one listed is an error that names where each was made: remove
    /// the first to replace it.
    ///
    /// The tool is this process's: a server run as several replicas has it on the
    /// replica that added it only. With `Server::share_notifications` (feature `redis`),
    /// the other replicas' clients are told the list changed too, list again, and see
    /// their own replica's tools.
    pub fn add(&self, tool: RuntimeTool) -> Result<(), ServerError> {
        let added = tool.build(self.inner.timeout)?;
        {
            let mut current =
                (self.inner.current.write()).unwrap_or_else(|poisoned| poisoned.into_inner());
            if let Some(existing) = current.find(added.name) {
                return Err(ServerError::ToolNameTaken {
                    name: added.name.to_owned(),
                    first: existing.location(&self.inner.initial),
                    second: added.location.clone(),
                });
            }
            let mut places = current.places.clone();
            places.push(Place::Added(Arc::new(added)));
            *current = Arc::new(Snapshot::new(places, &self.inner.initial));
            self.inner.changed.store(true, Ordering::Release);
        }
        self.tell_followers();
        self.notify();
        Ok(())
    }

    /// Removes the tool named `name`, one the server was built with or one added since,
    /// and tells every session; whether there was one. Calls of it in flight finish;
    /// later calls get "unknown tool".
    pub fn remove(&self, name: &str) -> bool {
        {
            let mut current =
                (self.inner.current.write()).unwrap_or_else(|poisoned| poisoned.into_inner());
            let Ok(found) = (current.index).binary_search_by(|(known, _)| (*known).cmp(name))
            else {
                return false;
            };
            let position = current.index[found].1;
            let mut places = current.places.clone();
            places.remove(position);
            *current = Arc::new(Snapshot::new(places, &self.inner.initial));
            self.inner.changed.store(true, Ordering::Release);
        }
        self.tell_followers();
        self.notify();
        true
    }

    /// Remembers a server this one is mounted into, to tell it at once when the list changes.
    pub(crate) fn follow(&self, follower: Follower) {
        let mut followers =
            (self.inner.followers.lock()).unwrap_or_else(|poisoned| poisoned.into_inner());
        followers.push(follower);
    }

    /// A handle on the list that does not keep it.
    pub(crate) fn downgrade(&self) -> WeakToolList {
        WeakToolList(Arc::downgrade(&self.inner))
    }

    /// Tells each server this one is mounted into that the list changed; forgets one gone.
    fn tell_followers(&self) {
        let mut followers =
            (self.inner.followers.lock()).unwrap_or_else(|poisoned| poisoned.into_inner());
        followers.retain(|follow| follow(self));
    }

    /// Puts `tools` in the place of the tools of the mount `mount`, listed now, and tells
    /// every session. A tool whose name another has is left out, and the log says so.
    pub(crate) fn remount(&self, mount: usize, tools: Vec<MountedTool>) {
        {
            let initial = &self.inner.initial;
            let mut current =
                (self.inner.current.write()).unwrap_or_else(|poisoned| poisoned.into_inner());
            let mut places: Vec<Place> = (current.places.iter())
                .filter(|place| {
                    place
                        .mounted(initial)
                        .is_none_or(|tool| tool.mount != mount)
                })
                .cloned()
                .collect();
            let kept = Snapshot::new(places.clone(), initial);
            for tool in tools {
                if let Some(existing) = kept.find(tool.name) {
                    tracing::warn!(
                        tool = tool.name,
                        first = %existing.location(initial),
                        second = %tool.location,
                        "a tool added to a mounted server has the name of another: left out"
                    );
                    continue;
                }
                places.push(Place::Mounted(Arc::new(tool)));
            }
            *current = Arc::new(Snapshot::new(places, initial));
            self.inner.changed.store(true, Ordering::Release);
        }
        self.tell_followers();
        self.notify();
    }

    /// Remembers a session or a stream, to tell it when the list changes, unless it
    /// does not want to hear of it.
    pub(crate) fn listen(&self, listener: Arc<dyn Listener>) {
        if !listener.wants_tool_changes() {
            return;
        }
        let mut listeners =
            (self.inner.listeners.lock()).unwrap_or_else(|poisoned| poisoned.into_inner());
        listeners.retain(|(_, listener)| listener.is_open());
        let number = self.inner.next_listener.fetch_add(1, Ordering::Relaxed);
        listeners.push((number, listener));
    }

    /// Publishes the change for the other replicas, when they share notifications, and
    /// tells this replica's sessions and streams.
    fn notify(&self) {
        #[cfg(feature = "redis")]
        if let Some(fanout) = self.inner.fanout.get() {
            fanout.publish(crate::server::fanout::Change::Tools);
        }
        self.tell_listeners();
    }

    /// Publishes every change of the list through `fanout`, from now on.
    #[cfg(feature = "redis")]
    pub(crate) fn share_through(&self, fanout: Arc<crate::server::fanout::Fanout>) {
        let _ = self.inner.fanout.set(fanout);
    }

    /// Sends `notifications/tools/list_changed` to every session and stream still open;
    /// one that cannot be told is forgotten.
    pub(crate) fn tell_listeners(&self) {
        let listeners: Vec<(u64, Arc<dyn Listener>)> = {
            let mut listeners =
                (self.inner.listeners.lock()).unwrap_or_else(|poisoned| poisoned.into_inner());
            listeners.retain(|(_, listener)| listener.is_open());
            listeners.clone()
        };
        if listeners.is_empty() {
            return;
        }
        // Sessions exist only on an async runtime, which sends for them.
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            tracing::debug!("no async runtime: the sessions are not told the tools changed");
            return;
        };
        let list = self.clone();
        runtime.spawn(async move {
            for (number, listener) in listeners {
                if let Err(error) = listener.tools_changed().await {
                    tracing::debug!(%error, "notifications/tools/list_changed not sent");
                    let mut listeners = (list.inner.listeners.lock())
                        .unwrap_or_else(|poisoned| poisoned.into_inner());
                    listeners.retain(|(kept, _)| *kept != number);
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
