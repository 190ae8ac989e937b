//! `rmcp`'s `ServerHandler` over a built server: each request of a session, answered
//! from the shared tools, prompts and resources.

#[allow(deprecated)] // `SetLevelRequestParams`: see `set_level`.
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CompleteRequestParams, CompleteResult, CustomRequest,
    CustomResult, ErrorCode, ErrorData, GetPromptRequestParams, GetPromptResponse,
    ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListToolsResult,
    PaginatedRequestParams, ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse,
    ServerConfig, SetLevelRequestParams, SubscribeRequestParams, SubscriptionFilter, Tool,
    UnsubscribeRequestParams,
};
use rmcp::service::{NotificationContext, RequestContext, SubscriptionContext};
use rmcp::{RoleServer, ServerHandler};

use crate::call::session::Request;
use crate::protocol::bridge;
use crate::protocol::wire;
use crate::server::tool_server::{Refusal, ToolServer};

impl ServerHandler for ToolServer {
    fn get_info(&self) -> ServerConfig {
        self.shared.info.clone()
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        one_page(request.as_ref())?;
        Ok(ListToolsResult::with_all_items(self.shared.list.listing()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.find(name).map(|t| t.tool().clone())
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.shared.list.session_started(context.peer);
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let arguments = request.arguments.unwrap_or_default();
        match self
            .run_tool(&request.name, arguments, Some(&context))
            .await
        {
            Ok(answer) => Ok(bridge::call_result(answer).into()),
            Err(Refusal::Call(error)) => Err(bridge::error_data(error)),
            Err(Refusal::Cancelled) => Err(cancelled(&request.name, &context)),
            Err(Refusal::MissingCapability(capability)) => {
                Err(bridge::missing_capability(capability))
            }
        }
    }

    // A request rmcp did not recognise: a known method whose `params` it could not
    // read gets `invalid params`, as over stdio, where the line transport answers it first;
    // a method the request's protocol removed, `method not found`.
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        let protocol = context.protocol_version();
        let protocol = protocol.as_ref().map(ProtocolVersion::as_str);
        Err(wire::custom_request_error(&request.method, protocol))
    }

    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        one_page(request.as_ref())?;
        self.shared.catalog.prompt_listing()
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let catalog = &self.shared.catalog;
        let result = catalog
            .get_prompt(request, self.scope(Some(&context as &dyn Request)))
            .await;
        Ok(bridge::get_prompt_result(result.map_err(bridge::error_data)?).into())
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        one_page(request.as_ref())?;
        self.shared.catalog.resource_listing()
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        one_page(request.as_ref())?;
        self.shared.catalog.template_listing()
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let read =
            (self.shared.catalog).read(&request.uri, self.scope(Some(&context as &dyn Request)));
        Ok(bridge::read_result(read.await.map_err(bridge::error_data)?).into())
    }

    #[allow(deprecated)] // Protocols before 2026-07-28 subscribe this way.
    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        (self.shared.catalog).subscribe(request.uri, self.session, context.peer);
        Ok(())
    }

    #[allow(deprecated)]
    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        (self.shared.catalog).unsubscribe(&request.uri, self.session);
        Ok(())
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        self.shared.catalog.accepted(requested)
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        self.shared.list.stream_started(context.sink().clone());
        self.shared.catalog.listen(context).await;
        Ok(())
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let completion = self.shared.catalog.complete(&request);
        Ok(bridge::complete_result(
            completion.map_err(bridge::error_data)?,
        ))
    }

    #[allow(deprecated)] // SEP-2577: logging stays for clients of earlier protocols.
    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.log_filter.set(bridge::log_level(request.level));
        Ok(())
    }
}

/// Refuses a cursor: every list is sent in one page.
fn one_page(request: Option<&PaginatedRequestParams>) -> Result<(), ErrorData> {
    match request.and_then(|r| r.cursor.as_ref()) {
        Some(_) => Err(ErrorData::invalid_params(
            "invalid cursor: this server sends every list in one page",
            None,
        )),
        None => Ok(()),
    }
}

/// A call the client cancelled: its tool's future was dropped; rmcp sends no reply to a
/// cancelled request, as the specification asks, so this error goes nowhere.
#[cold]
fn cancelled(tool: &str, context: &RequestContext<RoleServer>) -> ErrorData {
    tracing::info!(tool, request = %context.id, "the client cancelled the call; no reply is sent");
    ErrorData::new(ErrorCode(-32800), "the request was cancelled", None)
}
