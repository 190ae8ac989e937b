//! The builder's option for composition: another server's tools served in this one,
//! under a namespace.

use crate::outcome::error::ServerError;
use crate::registry::prompt_entry::PromptEntry;
use crate::registry::resource::ResourceEntry;
use crate::registry::runtime_tool::intern;
use crate::server::builder::Server;
use crate::server::mount::{self, MountedEntry, MountedTool};
use crate::server::tool_list::ToolList;
use crate::server::tool_server::ToolServer;

impl Server {
    /// Serves the tools, prompts and resources of another server in this one, each tool
    /// and prompt under the name `namespace_name`: the tool `search` of a server mounted as
    /// `files` is listed and called as `files_search`. The namespace may hold
    /// `A-Z a-z 0-9 _ . -`, the characters of a tool's name; `_` joins it to the name.
    /// Resources and resource templates keep their URIs.
    ///
    /// The mounted server answers the calls of its tools itself: with its own
    /// [`state`](Self::state), its own time limit and its own [`layer`](Self::layer)s,
    /// which see the tool's own name (`search`), as its tool's
    /// [`Context`](crate::Context) does. This server's layers, authorization and scopes
    /// come first and see the name the client called (`files_search`), as for a tool of
    /// its own; a failure's message names that one too. A tool added to or removed from
    /// the mounted server later is added to or removed from this server's list too, and its
    /// sessions are told. Its prompts and resources are handed to it the same way.
    ///
    /// [`build`](Self::build) fails when a name or a URI is taken twice (by two mounts, or
    /// by a mount and an item of this server), naming both, when the namespace is not one a
    /// tool's name may begin with or makes a name longer than 128 characters, and when
    /// the mounted server serves tasks, which a mount does not carry yet.
    ///
    /// ```
    /// use mcp_tool::{Arguments, RuntimeTool, Server, ToolError};
    ///
    /// let search = RuntimeTool::new("search", "Finds files by name.").handler(|mut args: Arguments| async move {
    ///     let pattern = args.required_str("pattern");
    ///     args.finish()?;
    ///     Ok::<_, ToolError>(format!("found {pattern}"))
    /// });
    /// let files = Server::new("files", "1.0.0").tool(search).build()?;
    ///
    /// let server = Server::new("gateway", "1.0.0").mount("files", files).build()?;
    /// assert_eq!(server.tools()[0].name, "files_search");
    /// # Ok::<(), mcp_tool::ServerError>(())
    /// ```
    pub fn mount(mut self, namespace: impl Into<String>, server: ToolServer) -> Self {
        self.mounts.push((namespace.into(), server));
        self
    }

    /// What the mounted servers serve, as this server holds it: their tools, prompts and
    /// resources, and the servers.
    pub(super) fn mounted(&self) -> Result<Mounted, ServerError> {
        let mut mounted = Mounted::default();
        for (mount, (namespace, server)) in self.mounts.iter().enumerate() {
            mount::check_namespace(namespace)?;
            let (shared, name) = (&server.shared, &server.shared.about.name);
            if shared.tasks.is_some() {
                return Err(ServerError::InvalidNamespace {
                    namespace: namespace.clone(),
                    problem: format!(
                        "the server `{name}` mounted there serves tasks, which a mount does not \
                         carry yet"
                    ),
                });
            }
            let tools = mounted_tools(namespace, name, &shared.list, mount)?;
            mounted.tools.extend(tools);
            let mounted_as = format!("in the server `{name}` mounted as `{namespace}`");
            let catalog = &shared.catalog;
            (mounted.prompts).extend(catalog.prompts.mounted(
                (namespace, mount),
                &shared.state,
                &mounted_as,
            ));
            (mounted.resources).extend(catalog.resources.mounted(
                mount,
                &shared.state,
                &mounted_as,
            ));
            mounted.servers.push(server.clone());
        }
        Ok(mounted)
    }
}

/// What the mounted servers serve, as the server they are mounted into holds it.
#[derive(Default)]
pub(super) struct Mounted {
    pub(super) tools: Vec<MountedTool>,
    pub(super) prompts: Vec<MountedEntry<PromptEntry>>,
    pub(super) resources: Vec<MountedEntry<ResourceEntry>>,
    pub(super) servers: Vec<ToolServer>,
}

/// The tools `list` (of the server `server`) lists now, as the server that mounts it under
/// `namespace`, in the place `mount` among its mounts, lists them.
fn mounted_tools(
    namespace: &str,
    server: &str,
    list: &ToolList,
    mount: usize,
) -> Result<Vec<MountedTool>, ServerError> {
    let mounted_as =
        |location: &str| format!("{location}, in the server `{server}` mounted as `{namespace}`");
    let mut tools = Vec::new();
    for (own_name, mut info, location) in list.located() {
        let name = format!("{namespace}{}{own_name}", mount::SEPARATOR);
        if name.len() > mount::MAX_NAME {
            return Err(ServerError::InvalidNamespace {
                namespace: namespace.to_owned(),
                problem: format!(
                    "the tool `{own_name}` ({}) would be named `{name}`, longer than the {} \
                     characters a tool's name may have",
                    mounted_as(&location),
                    mount::MAX_NAME
                ),
            });
        }
        info.name.clone_from(&name);
        tools.push(MountedTool {
            name: intern(&name),
            own_name: own_name.to_owned(),
            info,
            location: mounted_as(&location),
            mount,
        });
    }
    Ok(tools)
}

/// Has every server mounted into `server` (under `namespaces`, in order) tell it when its
/// tools change, so that it lists them anew and tells its sessions.
pub(super) fn follow_mounts(server: &ToolServer, namespaces: Vec<String>) {
    for (mount, (namespace, mounted)) in namespaces
        .into_iter()
        .zip(&server.shared.mounts)
        .enumerate()
    {
        let parent = server.shared.list.downgrade();
        let name = mounted.shared.about.name.clone();
        mounted.shared.list.follow(Box::new(move |list: &ToolList| {
            let Some(parent) = parent.upgrade() else {
                return false;
            };
            match mounted_tools(&namespace, &name, list, mount) {
                Ok(tools) => parent.remount(mount, tools),
                Err(error) => {
                    tracing::warn!(%error, "the mounted server's new tools are not listed")
                }
            }
            true
        }));
    }
}
