//! The test client's requests about prompts, resources and completion.

use rmcp::model::{
    ArgumentInfo, CompleteRequestParams, GetPromptRequestParams, ReadResourceRequestParams,
    Reference, SubscribeRequestParams, UnsubscribeRequestParams,
};
use serde_json::Value;

use super::{TestClient, TestError, json_kind};
use crate::model::{
    Completion, PromptInfo, PromptResult, ResourceContents, ResourceInfo, ResourceTemplateInfo,
};
use crate::protocol::bridge;

impl TestClient {
    /// The prompts the server lists.
    pub async fn prompts(&self) -> Result<Vec<PromptInfo>, TestError> {
        let prompts =
            (self.client.list_all_prompts().await).map_err(|e| TestError::from_service("", e))?;
        Ok(prompts.into_iter().map(bridge::prompt_info).collect())
    }

    /// Renders the prompt `name` (`prompts/get`); `arguments` must be a JSON object, its
    /// values strings, as prompt arguments travel. A JSON-RPC error is an `Err`
    /// ([`TestError::Call`]).
    pub async fn get_prompt(
        &self,
        name: &str,
        arguments: Value,
    ) -> Result<PromptResult, TestError> {
        let mut params = GetPromptRequestParams::new(name);
        params.arguments = match arguments {
            Value::Object(object) => Some(object),
            Value::Null => None,
            other => return Err(TestError::NotAnObject(json_kind(&other))),
        };
        let result =
            (self.client.get_prompt(params).await).map_err(|e| TestError::from_service(name, e))?;
        Ok(bridge::prompt_result(result))
    }

    /// The resources with a fixed URI the server lists.
    pub async fn resources(&self) -> Result<Vec<ResourceInfo>, TestError> {
        let resources =
            (self.client.list_all_resources().await).map_err(|e| TestError::from_service("", e))?;
        Ok(resources.into_iter().map(bridge::resource_info).collect())
    }

    /// The resource templates the server lists.
    pub async fn resource_templates(&self) -> Result<Vec<ResourceTemplateInfo>, TestError> {
        let templates = (self.client.list_all_resource_templates().await)
            .map_err(|e| TestError::from_service("", e))?;
        Ok(templates.into_iter().map(bridge::template_info).collect())
    }

    /// Reads the resource at `uri` (`resources/read`).
    pub async fn read_resource(&self, uri: &str) -> Result<Vec<ResourceContents>, TestError> {
        let result = (self
            .client
            .read_resource(ReadResourceRequestParams::new(uri))
            .await)
            .map_err(|e| TestError::from_service(uri, e))?;
        Ok(bridge::read_contents(result))
    }

    /// The server's suggestions for the argument `argument` of the prompt `prompt`, typed
    /// as far as `value` (`completion/complete`).
    pub async fn complete_prompt_argument(
        &self,
        prompt: &str,
        argument: &str,
        value: &str,
    ) -> Result<Completion, TestError> {
        self.complete(Reference::for_prompt(prompt), argument, value)
            .await
    }

    /// The server's suggestions for the variable `variable` of the resource template
    /// `template`, typed as far as `value` (`completion/complete`).
    pub async fn complete_template_variable(
        &self,
        template: &str,
        variable: &str,
        value: &str,
    ) -> Result<Completion, TestError> {
        self.complete(Reference::for_resource(template), variable, value)
            .await
    }

    async fn complete(
        &self,
        reference: Reference,
        argument: &str,
        value: &str,
    ) -> Result<Completion, TestError> {
        let params = CompleteRequestParams::new(reference, ArgumentInfo::new(argument, value));
        let result = (self.client.complete(params).await)
            .map_err(|e| TestError::from_service(argument, e))?;
        Ok(bridge::completion(result))
    }

    /// Asks to hear of changes to the resource at `uri` (`resources/subscribe`): the
    /// server's `notifications/resources/updated` then show among
    /// [`take_notifications`](Self::take_notifications).
    pub async fn subscribe(&self, uri: &str) -> Result<(), TestError> {
        #[allow(deprecated)] // Protocols before 2026-07-28 subscribe this way.
        let sent = self
            .client
            .subscribe(SubscribeRequestParams::new(uri))
            .await;
        sent.map_err(|e| TestError::from_service(uri, e))
    }

    /// Stops hearing of changes to the resource at `uri` (`resources/unsubscribe`).
    pub async fn unsubscribe(&self, uri: &str) -> Result<(), TestError> {
        #[allow(deprecated)]
        let sent = self
            .client
            .unsubscribe(UnsubscribeRequestParams::new(uri))
            .await;
        sent.map_err(|e| TestError::from_service(uri, e))
    }
}
