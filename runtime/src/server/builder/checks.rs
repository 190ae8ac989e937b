//! What `build` checks before it builds: the tools `only` and the tag filters keep, and
//! that no two tools, prompts or resources clash and every `State<T>` asked for was given.

use std::collections::HashMap;

use super::Server;
use crate::call::state::StateMap;
use crate::outcome::error::ServerError;
use crate::outcome::suggest;
use crate::registry::prompt_entry::PromptEntry;
use crate::registry::resource::ResourceEntry;
use crate::registry::tool::ToolEntry;
use crate::server::tool_list::ToolList;

impl Server {
    /// The entries `only` keeps; an error if it names an unknown tool or keeps none.
    pub(super) fn selected(&self) -> Result<Vec<&'static ToolEntry>, ServerError> {
        let mut entries = self.entries.clone();
        if let Some(only) = &self.only {
            for name in only {
                let added = self.added.iter().any(|tool| tool.name() == name);
                if !added && !entries.iter().any(|e| e.name() == name) {
                    let suggestion = suggest::closest(name, entries.iter().map(|e| e.name()))
                        .map(|s| format!(" (did you mean `{s}`?)"))
                        .unwrap_or_default();
                    return Err(ServerError::UnknownToolName {
                        name: name.clone(),
                        suggestion,
                    });
                }
            }
            entries.retain(|e| only.iter().any(|name| name == e.name()));
        }
        let named_tags = self.with_tags.iter().flatten().chain(&self.without_tags);
        let known_tags = || self.entries.iter().flat_map(|e| e.tags().iter().copied());
        for tag in named_tags {
            if !known_tags().any(|known| known == tag) {
                let suggestion = suggest::closest(tag, known_tags())
                    .map(|s| format!(" (did you mean `{s}`?)"))
                    .unwrap_or_default();
                return Err(ServerError::UnknownTag {
                    tag: tag.clone(),
                    suggestion,
                });
            }
        }
        let has_any = |entry: &ToolEntry, tags: &[String]| {
            (entry.tags().iter()).any(|tag| tags.iter().any(|t| t == tag))
        };
        if let Some(with_tags) = &self.with_tags {
            entries.retain(|e| has_any(e, with_tags));
        }
        entries.retain(|e| !has_any(e, &self.without_tags));
        if entries.is_empty()
            && self.added.is_empty()
            && self.mounts.is_empty()
            && self.prompts.is_empty()
            && self.resources.is_empty()
        {
            return Err(ServerError::NoTools {
                hint: if self.with_tags.is_some() || !self.without_tags.is_empty() {
                    "the tags given to `with_tags` and `without_tags` leave none"
                } else if self.from_registry {
                    "no function carries `#[mcp_tool]`, or the crate that defines the tools \
                     is never referenced; add `mcp_tool::link!(that_crate);` to the binary"
                } else {
                    "`Server::new` serves only the tools that `.tool(..)` adds, and none was added"
                },
            });
        }
        Ok(entries)
    }
}

/// Two tools with one name, two prompts with one name or two resources at one URI are an
/// error naming both definitions.
pub(super) fn check_unique(
    entries: &[&'static ToolEntry],
    prompts: &[&'static PromptEntry],
    resources: &[&'static ResourceEntry],
) -> Result<(), ServerError> {
    if let Some((first, second)) = first_duplicate(entries, |e| e.name()) {
        return Err(ServerError::DuplicateTool {
            name: second.name().to_owned(),
            first: first.location(),
            second: second.location(),
        });
    }
    if let Some((first, second)) = first_duplicate(prompts, |e| e.name()) {
        return Err(ServerError::DuplicatePrompt {
            name: second.name().to_owned(),
            first: first.location(),
            second: second.location(),
        });
    }
    if let Some((first, second)) = first_duplicate(resources, |e| e.uri()) {
        return Err(ServerError::DuplicateResource {
            uri: second.uri().to_owned(),
            first: first.location(),
            second: second.location(),
        });
    }
    Ok(())
}

/// The first two entries with one key.
fn first_duplicate<T: ?Sized>(
    entries: &[&'static T],
    key: impl Fn(&T) -> &'static str,
) -> Option<(&'static T, &'static T)> {
    let mut seen: HashMap<&str, &'static T> = HashMap::with_capacity(entries.len());
    for &entry in entries {
        if let Some(first) = seen.insert(key(entry), entry) {
            return Some((first, entry));
        }
    }
    None
}

/// A tool, a prompt or a resource that asks for a state never given is an error naming it
/// and the type.
pub(super) fn check_states(
    entries: &[&'static ToolEntry],
    prompts: &[&'static PromptEntry],
    resources: &[&'static ResourceEntry],
    state: &StateMap,
) -> Result<(), ServerError> {
    let missing =
        |kind: &'static str,
         name: &str,
         location: String,
         mut states: Box<dyn Iterator<Item = (std::any::TypeId, &'static str)> + '_>| {
            // Every server gives its `ToolList`.
            let given = |id: std::any::TypeId| {
                state.contains(id) || id == std::any::TypeId::of::<ToolList>()
            };
            match states.find(|(id, _)| !given(*id)) {
                Some((_, type_name)) => Err(ServerError::MissingState {
                    kind,
                    tool: name.to_owned(),
                    location,
                    type_name,
                }),
                None => Ok(()),
            }
        };
    for entry in entries {
        missing(
            "tool",
            entry.name(),
            entry.location(),
            Box::new(entry.states()),
        )?;
    }
    for entry in prompts {
        missing(
            "prompt",
            entry.name(),
            entry.location(),
            Box::new(entry.states()),
        )?;
    }
    for entry in resources {
        missing(
            "resource",
            entry.name(),
            entry.location(),
            Box::new(entry.states()),
        )?;
    }
    Ok(())
}
