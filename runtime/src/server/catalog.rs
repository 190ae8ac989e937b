//! What a server offers besides tools: its prompts and resources, their listings as rmcp
//! sends them (converted once), the subscriptions to resources, and the answers to the
//! requests about them.

use rmcp::model as sdk;
use rmcp::service::SubscriptionContext;
use rmcp::{Peer, RoleServer};

use crate::model::{Completion, PromptResult, ResourceContents};
use crate::outcome::error::{CallError, ServerError};
use crate::protocol::bridge::{self, Extras};
use crate::protocol::subscriptions::Subscriptions;
use crate::registry::prompt::PromptEntry;
use crate::registry::resource::ResourceEntry;
use crate::server::invoke::Scope;
use crate::server::prompt_set::Prompts;
use crate::server::resource_set::Resources;

/// A server's prompts and resources.
#[derive(Debug, Default)]
pub(crate) struct Catalog {
    pub(crate) prompts: Prompts,
    pub(crate) resources: Resources,
    prompt_listing: Vec<sdk::Prompt>,
    resource_listing: Vec<sdk::Resource>,
    template_listing: Vec<sdk::ResourceTemplate>,
    subscriptions: Subscriptions,
}

impl Catalog {
    pub(crate) fn new(
        prompts: Vec<&'static PromptEntry>,
        resources: Vec<&'static ResourceEntry>,
    ) -> Result<Self, ServerError> {
        let prompts = Prompts::new(prompts);
        let resources = Resources::new(resources)?;
        // Each listing in the order of its infos, which the entries share.
        let prompt_listing = (prompts.infos().iter())
            .zip(prompts.entries())
            .map(|(info, entry)| {
                bridge::sdk_prompt(info, extras(entry.spec().icons, entry.spec().meta))
            })
            .collect();
        let resource_extras = |entry: &ResourceEntry| extras(entry.spec().icons, entry.spec().meta);
        let resource_listing = (resources.infos().iter())
            .zip(resources.fixed_entries())
            .map(|(info, entry)| bridge::sdk_resource(info, resource_extras(entry)))
            .collect();
        let template_listing = (resources.template_infos().iter())
            .zip(resources.template_entries())
            .map(|(info, entry)| bridge::sdk_template(info, resource_extras(entry)))
            .collect();
        Ok(Self {
            prompts,
            resources,
            prompt_listing,
            resource_listing,
            template_listing,
            subscriptions: Subscriptions::default(),
        })
    }

    /// Whether any prompt argument or template variable has a completion function.
    pub(crate) fn completes(&self) -> bool {
        self.prompts.complete_any() || self.resources.complete_any()
    }

    pub(crate) fn prompt_listing(&self) -> Result<sdk::ListPromptsResult, sdk::ErrorData> {
        if self.prompts.is_empty() {
            return Err(sdk::ErrorData::method_not_found::<
                sdk::ListPromptsRequestMethod,
            >());
        }
        Ok(sdk::ListPromptsResult::with_all_items(
            self.prompt_listing.clone(),
        ))
    }

    pub(crate) fn resource_listing(&self) -> Result<sdk::ListResourcesResult, sdk::ErrorData> {
        if self.resources.is_empty() {
            return Err(sdk::ErrorData::method_not_found::<
                sdk::ListResourcesRequestMethod,
            >());
        }
        Ok(sdk::ListResourcesResult::with_all_items(
            self.resource_listing.clone(),
        ))
    }

    pub(crate) fn template_listing(
        &self,
    ) -> Result<sdk::ListResourceTemplatesResult, sdk::ErrorData> {
        if self.resources.is_empty() {
            return Err(sdk::ErrorData::method_not_found::<
                sdk::ListResourceTemplatesRequestMethod,
            >());
        }
        Ok(sdk::ListResourceTemplatesResult::with_all_items(
            self.template_listing.clone(),
        ))
    }

    pub(crate) async fn get_prompt(
        &self,
        request: sdk::GetPromptRequestParams,
        scope: Scope<'_>,
    ) -> Result<PromptResult, CallError> {
        let arguments = request.arguments.unwrap_or_default();
        self.prompts.get(&request.name, arguments, scope).await
    }

    pub(crate) async fn read(
        &self,
        uri: &str,
        scope: Scope<'_>,
    ) -> Result<Vec<ResourceContents>, CallError> {
        self.resources.read(uri, scope).await
    }

    pub(crate) fn complete(
        &self,
        request: &sdk::CompleteRequestParams,
    ) -> Result<Completion, CallError> {
        let argument = &request.argument;
        match &request.r#ref {
            sdk::Reference::Prompt(prompt) => {
                (self.prompts).complete(&prompt.name, &argument.name, &argument.value)
            }
            sdk::Reference::Resource(template) => {
                (self.resources).complete(&template.uri, &argument.name, &argument.value)
            }
            // A kind of reference this version does not know: nothing to suggest.
            _ => Ok(Completion::default()),
        }
    }

    pub(crate) fn subscribe(&self, uri: String, session: u64, peer: Peer<RoleServer>) {
        self.subscriptions.subscribe(uri, session, peer);
    }

    pub(crate) fn unsubscribe(&self, uri: &str, session: u64) {
        self.subscriptions.unsubscribe(uri, session);
    }

    pub(crate) async fn updated(&self, uri: &str) -> usize {
        self.subscriptions.updated(uri).await
    }

    /// What a `subscriptions/listen` stream may carry: changes of the tool list, and
    /// updates of the resources it asks for on a server that has resources.
    pub(crate) fn accepted(
        &self,
        requested: &sdk::SubscriptionFilter,
    ) -> Option<sdk::SubscriptionFilter> {
        let mut accepted = sdk::SubscriptionFilter::new();
        accepted.tools_list_changed = requested.tools_list_changed;
        if !self.resources.is_empty() {
            accepted.resource_subscriptions = requested.resource_subscriptions.clone();
        }
        Some(accepted)
    }

    /// Serves one `subscriptions/listen` stream until the client ends it.
    pub(crate) async fn listen(&self, context: SubscriptionContext) {
        let stream = self.subscriptions.open(context.sink().clone());
        context.cancelled().await;
        self.subscriptions.close(stream);
    }
}

/// A listing entry's icons and `_meta`, as the attribute gave them.
fn extras(icons: &'static [&'static str], meta: Option<&'static str>) -> Extras {
    Extras { icons, meta }
}
