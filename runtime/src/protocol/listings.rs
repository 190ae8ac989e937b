//! What the server lists, in rmcp's types: converted once and kept beside the server's
//! own (see `server::derived`), and what it says of itself when a session begins.

use std::sync::Arc;

use rmcp::model as sdk;
use rmcp::service::{RequestContext, RoleServer};

use crate::call::schema::profiles;
use crate::model::SchemaProfile;
use crate::protocol::bridge::{self, Extras};
use crate::registry::prompt_entry::PromptEntry;
use crate::registry::resource::ResourceEntry;
use crate::server::catalog::Catalog;
use crate::server::settings::ProfileChoice;
use crate::server::tool_list::Snapshot;
use crate::server::tool_server::About;

/// The tools listed, as `tools/list` sends them under `profile`, in the order of
/// [`Snapshot::infos`]: each reshaped once a snapshot and profile. A tool that `profile`
/// cannot show (a recursive type, added while serving) is shown as the profile
/// `strict` shows it.
pub(crate) fn tools(listed: &Snapshot, profile: SchemaProfile) -> Arc<Vec<sdk::Tool>> {
    (listed.derived[profile.index()]).get_or_init(|| {
        (listed.infos().iter())
            .map(|info| {
                let shown = profiles::shown(info, profile).unwrap_or_else(|error| {
                    tracing::warn!(
                        tool = %info.name, profile = %profile, %error,
                        "the tool is listed as the profile strict shows it"
                    );
                    profiles::shown(info, SchemaProfile::Strict).unwrap_or_else(|_| info.clone())
                });
                bridge::sdk_tool(shown)
            })
            .collect()
    })
}

/// The schema profile the client of a request is shown, as `choice` says.
pub(crate) fn profile_of(
    choice: ProfileChoice,
    context: &RequestContext<RoleServer>,
) -> SchemaProfile {
    if !choice.by_client {
        return choice.server;
    }
    let name = match context.meta.client_info() {
        Some(implementation) => Some(implementation.name),
        None => (context.peer.peer_info()).map(|h| h.client_info.name.clone()),
    };
    choice.for_client(name.as_deref())
}

/// The prompts, resources and resource templates, as their lists send them.
#[derive(Debug)]
pub(crate) struct Listings {
    pub(crate) prompts: Vec<sdk::Prompt>,
    pub(crate) resources: Vec<sdk::Resource>,
    pub(crate) templates: Vec<sdk::ResourceTemplate>,
}

/// The catalog's listings, converted on first use.
pub(crate) fn listings(catalog: &Catalog) -> Arc<Listings> {
    catalog.listings.get_or_init(|| {
        let (prompts, resources) = (&catalog.prompts, &catalog.resources);
        // Each listing in the order of its infos, which the entries share.
        let prompt_extras = |entry: &PromptEntry| extras(entry.spec().icons, entry.spec().meta);
        let resource_extras = |entry: &ResourceEntry| extras(entry.spec().icons, entry.spec().meta);
        Listings {
            prompts: (prompts.infos().iter())
                .zip(prompts.entries())
                .map(|(info, entry)| bridge::sdk_prompt(info, prompt_extras(entry)))
                .collect(),
            resources: (resources.infos().iter())
                .zip(resources.fixed_entries())
                .map(|(info, entry)| bridge::sdk_resource(info, resource_extras(entry)))
                .collect(),
            templates: (resources.template_infos().iter())
                .zip(resources.template_entries())
                .map(|(info, entry)| bridge::sdk_template(info, resource_extras(entry)))
                .collect(),
        }
    })
}

/// A listing entry's icons and `_meta`, as the attribute gave them.
fn extras(icons: &'static [&'static str], meta: Option<&'static str>) -> Extras {
    Extras { icons, meta }
}

/// What the server says of itself when a session begins: its name, version and
/// instructions, and the capabilities of what it has (no `prompts` without prompts).
pub(crate) fn server_config(about: &About, catalog: &Catalog, tasks: bool) -> sdk::ServerConfig {
    // Logging is deprecated by SEP-2577 (protocol 2026-07-28); earlier clients use it.
    #[allow(deprecated)]
    let mut capabilities = sdk::ServerCapabilities::builder()
        .enable_tools()
        .enable_tool_list_changed()
        .enable_logging()
        .build();
    if !catalog.prompts.is_empty() {
        capabilities.prompts = Some(sdk::PromptsCapability::default());
    }
    if !catalog.resources.is_empty() {
        let mut resources = sdk::ResourcesCapability::default();
        resources.subscribe = Some(true);
        capabilities.resources = Some(resources);
    }
    if catalog.completes() {
        capabilities.completions = Some(Default::default());
    }
    if tasks {
        capabilities
            .extensions
            .get_or_insert_with(Default::default)
            .insert(sdk::TASKS_EXTENSION_ID.to_owned(), Default::default());
    }
    let implementation = sdk::Implementation::new(about.name.clone(), about.version.clone());
    let mut info = sdk::ServerConfig::new(capabilities).with_server_info(implementation);
    if let Some(instructions) = &about.instructions {
        info = info.with_instructions(instructions.clone());
    }
    info
}

/// What a `subscriptions/listen` stream may carry: changes of the tool list, and
/// updates of the resources it asks for on a server that has resources.
pub(crate) fn accepted(
    catalog: &Catalog,
    requested: &sdk::SubscriptionFilter,
) -> sdk::SubscriptionFilter {
    let mut accepted = sdk::SubscriptionFilter::new();
    accepted.tools_list_changed = requested.tools_list_changed;
    if !catalog.resources.is_empty() {
        accepted.resource_subscriptions = requested.resource_subscriptions.clone();
    }
    accepted
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::model::SchemaProfile;
    use crate::registry::runtime_tool::RuntimeTool;
    use crate::server::tool_list::ToolList;

    #[test]
    fn a_listing_is_reshaped_once_a_profile_and_anew_once_the_list_changes() {
        let tool = |name: &str| {
            RuntimeTool::new(name, "Returns nothing.")
                .input_schema(json!({"type": "object", "properties": {"a": {"const": 1}}}))
                .handler(|_args: crate::Arguments| async { Ok::<_, crate::ToolError>("") })
        };
        let list = ToolList::new(&[], vec![tool("first")], Vec::new(), None).unwrap();
        let listed = list.listed();
        for profile in SchemaProfile::ALL {
            let once = tools(&listed, profile);
            assert!(Arc::ptr_eq(&once, &tools(&listed, profile)), "{profile}");
        }
        let (strict, gemini) = (
            tools(&listed, SchemaProfile::Strict),
            tools(&listed, SchemaProfile::Gemini),
        );
        assert_eq!(
            strict[0].input_schema["properties"]["a"],
            json!({"const": 1})
        );
        assert_eq!(
            gemini[0].input_schema["properties"]["a"],
            json!({"description": "Must be 1."})
        );
        list.add(tool("second")).unwrap();
        let changed = list.listed();
        assert_eq!(tools(&changed, SchemaProfile::Gemini).len(), 2);
        assert_eq!(tools(&listed, SchemaProfile::Gemini).len(), 1);
    }
}
