//! What a server offers besides tools: its prompts and resources, the subscriptions to
//! resources, and the answers to the requests about them.

use std::sync::Arc;

use crate::model::{Completion, PromptResult, ResourceContents};
use crate::outcome::error::{CallError, ServerError};
use crate::registry::prompt_entry::PromptEntry;
use crate::registry::resource::ResourceEntry;
use crate::server::derived::Derived;
use crate::server::invoke::Scope;
use crate::server::listeners::Listener;
use crate::server::mount::MountedEntry;
use crate::server::prompt_set::Prompts;
use crate::server::resource_set::Resources;
use crate::server::subscriptions::Subscriptions;

/// A server's prompts and resources.
#[derive(Debug, Default)]
pub(crate) struct Catalog {
    pub(crate) prompts: Prompts,
    pub(crate) resources: Resources,
    /// The protocol layer's own form of the listings, made once.
    pub(crate) listings: Derived,
    subscriptions: Subscriptions,
}

impl Catalog {
    /// The catalog of `prompts` and `resources`, and of those of the servers mounted.
    pub(crate) fn new(
        (prompts, mounted_prompts): (Vec<&'static PromptEntry>, Vec<MountedEntry<PromptEntry>>),
        (resources, mounted_resources): (
            Vec<&'static ResourceEntry>,
            Vec<MountedEntry<ResourceEntry>>,
        ),
    ) -> Result<Self, ServerError> {
        let prompts = Prompts::new(prompts, mounted_prompts)?;
        let resources = Resources::new(resources, mounted_resources)?;
        Ok(Self {
            prompts,
            resources,
            listings: Derived::default(),
            subscriptions: Subscriptions::default(),
        })
    }

    /// Whether any prompt argument or template variable has a completion function.
    pub(crate) fn completes(&self) -> bool {
        self.prompts.complete_any() || self.resources.complete_any()
    }

    pub(crate) async fn get_prompt(
        &self,
        name: &str,
        arguments: serde_json::Map<String, serde_json::Value>,
        scope: Scope<'_>,
    ) -> Result<PromptResult, CallError> {
        self.prompts.get(name, arguments, scope).await
    }

    pub(crate) async fn read(
        &self,
        uri: &str,
        scope: Scope<'_>,
    ) -> Result<Vec<ResourceContents>, CallError> {
        self.resources.read(uri, scope).await
    }

    /// Suggestions for the argument `argument` of what `reference` names, given the
    /// user typed `value` so far.
    pub(crate) fn complete(
        &self,
        reference: Reference<'_>,
        argument: &str,
        value: &str,
    ) -> Result<Completion, CallError> {
        match reference {
            Reference::Prompt(name) => self.prompts.complete(name, argument, value),
            Reference::Resource(uri) => self.resources.complete(uri, argument, value),
        }
    }

    pub(crate) fn subscribe(&self, uri: String, session: u64, peer: Arc<dyn Listener>) {
        self.subscriptions.subscribe(uri, session, peer);
    }

    pub(crate) fn unsubscribe(&self, uri: &str, session: u64) {
        self.subscriptions.unsubscribe(uri, session);
    }

    pub(crate) async fn updated(&self, uri: &str) -> usize {
        self.subscriptions.updated(uri).await
    }

    /// Remembers a `subscriptions/listen` stream until it ends: the number it is known by.
    pub(crate) fn open_stream(&self, stream: Arc<dyn Listener>) -> u64 {
        self.subscriptions.open(stream)
    }

    /// Forgets a stream that ended.
    pub(crate) fn close_stream(&self, number: u64) {
        self.subscriptions.close(number);
    }
}

/// What a completion request completes an argument of.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Reference<'a> {
    /// The prompt of this name.
    Prompt(&'a str),
    /// The resource template of this URI template.
    Resource(&'a str),
}
