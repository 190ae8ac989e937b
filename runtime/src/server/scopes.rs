//! The scopes a request needs: those of the tool, prompt or resource it calls, as its
//! attribute (`scopes = [...]`) or [`RuntimeTool::scopes`](crate::RuntimeTool::scopes)
//! gives them; and which of the listed items a caller may call.

use crate::model::Auth;
use crate::server::tool_server::ToolServer;

/// What a request touches: the tool it calls, the prompt it gets or completes, the
/// resource it reads or subscribes to, the resource template it completes.
#[derive(Debug, Clone, Copy)]
// Without HTTP, a task's tool is the only target read: the others come from HTTP bodies.
#[cfg_attr(not(feature = "http"), allow(dead_code))]
pub(crate) enum Target<'a> {
    Tool(&'a str),
    Prompt(&'a str),
    Resource(&'a str),
    /// A resource template, by its URI template.
    Template(&'a str),
}

impl<'a> Target<'a> {
    /// The item's name, or its URI (template).
    #[cfg(feature = "http")]
    pub(crate) fn name(&self) -> &'a str {
        match self {
            Self::Tool(name) | Self::Prompt(name) | Self::Resource(name) | Self::Template(name) => {
                name
            }
        }
    }
}

/// Whether a caller with `auth` may call an item that needs `needed`.
pub(crate) fn permits<S: AsRef<str>>(auth: Option<&Auth>, needed: &[S]) -> bool {
    needed.is_empty() || auth.is_some_and(|auth| auth.has_scopes(needed))
}

impl ToolServer {
    /// The scopes calling `target` needs; none for a name the server does not know, which
    /// the call itself refuses.
    pub(crate) fn scopes_needed(&self, target: Target<'_>) -> Vec<String> {
        let owned = |scopes: &[&str]| scopes.iter().map(|s| (*s).to_owned()).collect();
        match target {
            Target::Tool(name) => {
                let listed = self.shared.list.listed();
                (listed.position(name))
                    .map(|at| listed.infos()[at].scopes.clone())
                    .unwrap_or_default()
            }
            Target::Prompt(name) => (self.shared.catalog.prompts.entry(name))
                .map(|entry| owned(entry.spec().scopes))
                .unwrap_or_default(),
            Target::Resource(uri) => (self.shared.catalog.resources.entry_for(uri))
                .map(|entry| owned(entry.spec().scopes))
                .unwrap_or_default(),
            Target::Template(template) => (self.shared.catalog.resources)
                .template_entry(template)
                .map(|entry| owned(entry.spec().scopes))
                .unwrap_or_default(),
        }
    }

    /// Every scope a tool, a prompt or a resource of the server needs, sorted, each once:
    /// the metadata's `scopes_supported`.
    #[cfg(feature = "http")]
    pub(crate) fn scopes_supported(&self) -> Vec<String> {
        let listed = self.shared.list.listed();
        let catalog = &self.shared.catalog;
        let tools = listed.infos().iter().flat_map(|info| info.scopes.clone());
        let prompts = (catalog.prompts.entries()).flat_map(|entry| entry.spec().scopes);
        let resources = (catalog.resources.fixed_entries())
            .chain(catalog.resources.template_entries())
            .flat_map(|entry| entry.spec().scopes);
        let mut all: Vec<String> = tools
            .chain(prompts.chain(resources).map(|scope| (*scope).to_owned()))
            .collect();
        all.sort_unstable();
        all.dedup();
        all
    }
}
