//! `rmcp`'s `ServerHandler` over a built server: each request of a session, answered
//! from the shared tools, prompts and resources.

use std::sync::Arc;

#[allow(deprecated)] // `SetLevelRequestParams`: see `set_level`.
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CompleteRequestParams, CompleteResult, CustomRequest,
    CustomResult, ErrorData, GetPromptRequestParams, GetPromptResponse, ListPromptsRequestMethod,
    ListPromptsResult, ListResourceTemplatesRequestMethod, ListResourceTemplatesResult,
    ListResourcesRequestMethod, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse, Reference, ServerConfig,
    SetLevelRequestParams, SubscribeRequestParams, SubscriptionFilter, Tool,
    UnsubscribeRequestParams,
};
use rmcp::model::{CancelTaskParams, GetTaskParams, GetTaskResult, UpdateTaskParams};
use rmcp::model::{
    CancelledNotificationParam, InitializeRequestParams, InitializeResult,
    ProgressNotificationParam,
};
use rmcp::service::{NotificationContext, RequestContext, SubscriptionContext};
use rmcp::{RoleServer, ServerHandler};

use crate::model::{Auth, SchemaProfile};
use crate::protocol::call_reply::respond;
use crate::protocol::peer_listeners::{PeerListener, StreamListener};
use crate::protocol::peer_session::Served;
use crate::protocol::task_methods::{self, Asker};
use crate::protocol::{bridge, listings, mounted, request_state, wire};
use crate::server::catalog;
use crate::server::scopes::permits;
use crate::server::tool_server::ToolServer;

/// Returns the answer of the server's `answer_` method through the pipeline when a layer
/// or a subscriber is there to see the request; else the handler goes on.
macro_rules! piped {
    ($server:ident . $answer:ident ($method:literal, $request:ident, $context:ident)) => {
        if !$server.unobserved() {
            let answer =
                async |server: ToolServer, request, context| server.$answer(request, context).await;
            return $server.piped($method, $request, $context, answer).await;
        }
    };
}

/// The answer to `tools/call`: written out in the handler's own future, where most calls
/// take it (a future of its own would be copied into the handler's on every call), and
/// in `answer_call_tool` for the pipeline's end.
macro_rules! answer_call_tool {
    ($server:ident, $request:ident, $context:ident) => {{
        mounted::hand_over!($server, tool, $request, $context);
        if let Some(tasks) = &$server.shared.tasks
            && let Some(response) =
                task_methods::call($server, tasks, &mut $request, &$context).await
        {
            return response;
        }
        let arguments = $request.arguments.unwrap_or_default();
        let (state, responses) = ($request.request_state.as_deref(), $request.input_responses);
        let begun = request_state::begin(
            &$server.shared,
            &$context,
            ("tools/call", &$request.name),
            &arguments,
            state,
            responses,
        )?;
        let served = $server.served(&$context, begun.as_ref());
        let outcome = $server
            .run_tool(&$request.name, arguments, Some(&served))
            .await;
        respond($server, outcome, begun.as_ref(), &$request.name, &$context)
    }};
}

impl ServerHandler for ToolServer {
    fn get_info(&self) -> ServerConfig {
        let shared = &self.shared;
        let info = (shared.info).get_or_init(|| {
            listings::server_config(&shared.about, &shared.catalog, shared.tasks.is_some())
        });
        ServerConfig::clone(&info)
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        piped!(self.answer_list_tools("tools/list", request, context));
        self.answer_list_tools(request, context).await
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        let listed = self.shared.list.listed();
        let position = listed.position(name)?;
        // Headers are checked against the schemas as generated, whatever a client is shown.
        listings::tools(&listed, SchemaProfile::Strict)
            .get(position)
            .cloned()
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        let peer = context.peer.clone();
        let answer = async move {
            let result = self.negotiate_initialize(&request);
            peer.set_peer_info(request);
            result
        };
        let agreed = |result: &InitializeResult| Some(result.protocol_version.to_string());
        self.spanned("initialize", context, answer, agreed).await
    }

    async fn ping(&self, context: RequestContext<RoleServer>) -> Result<(), ErrorData> {
        self.spanned("ping", context, async { Ok(()) }, |_| None)
            .await
    }

    async fn on_cancelled(
        &self,
        _cancelled: CancelledNotificationParam,
        context: NotificationContext<RoleServer>,
    ) {
        // rmcp has cancelled the request already: all that is left is its span.
        self.notified("notifications/cancelled", context).await;
    }

    async fn on_progress(
        &self,
        _progress: ProgressNotificationParam,
        context: NotificationContext<RoleServer>,
    ) {
        self.notified("notifications/progress", context).await;
    }

    async fn on_roots_list_changed(&self, context: NotificationContext<RoleServer>) {
        (self.notified("notifications/roots/list_changed", context)).await;
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        let initialized = async |server: ToolServer, context: NotificationContext<RoleServer>| {
            server.tell_of_tool_changes(Arc::new(PeerListener(context.peer)));
        };
        if self.unobserved() {
            initialized(self.clone(), context).await;
        } else {
            self.piped_notification("notifications/initialized", context, initialized)
                .await;
        }
        if let Some(outbox) = &self.outbox {
            outbox.initialized();
        }
    }

    async fn call_tool(
        &self,
        mut request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        piped!(self.answer_call_tool("tools/call", request, context));
        answer_call_tool!(self, request, context)
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        piped!(self.answer_get_task("tasks/get", request, context));
        self.answer_get_task(request, context).await
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        piped!(self.answer_update_task("tasks/update", request, context));
        self.answer_update_task(request, context).await
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        piped!(self.answer_cancel_task("tasks/cancel", request, context));
        self.answer_cancel_task(request, context).await
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
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        piped!(self.answer_list_prompts("prompts/list", request, context));
        self.answer_list_prompts(request, context).await
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        piped!(self.answer_get_prompt("prompts/get", request, context));
        self.answer_get_prompt(request, context).await
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        piped!(self.answer_list_resources("resources/list", request, context));
        self.answer_list_resources(request, context).await
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        piped!(self.answer_list_resource_templates("resources/templates/list", request, context));
        self.answer_list_resource_templates(request, context).await
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        piped!(self.answer_read_resource("resources/read", request, context));
        self.answer_read_resource(request, context).await
    }

    #[allow(deprecated)] // Protocols before 2026-07-28 subscribe this way.
    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        piped!(self.answer_subscribe("resources/subscribe", request, context));
        self.answer_subscribe(request, context).await
    }

    #[allow(deprecated)]
    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        piped!(self.answer_unsubscribe("resources/unsubscribe", request, context));
        self.answer_unsubscribe(request, context).await
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        Some(listings::accepted(&self.shared.catalog, requested))
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let stream = Arc::new(StreamListener(context.sink().clone()));
        self.tell_of_tool_changes(stream.clone());
        let catalog = &self.shared.catalog;
        let number = catalog.open_stream(stream);
        context.cancelled().await;
        catalog.close_stream(number);
        Ok(())
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        piped!(self.answer_complete("completion/complete", request, context));
        self.answer_complete(request, context).await
    }

    #[allow(deprecated)] // SEP-2577: logging stays for clients of earlier protocols.
    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        piped!(self.answer_set_level("logging/setLevel", request, context));
        self.answer_set_level(request, context).await
    }
}

/// What each handler answers with, whether through the pipeline or not, and what the
/// answers share.
impl ToolServer {
    async fn answer_list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        one_page(request.as_ref())?;
        let listed = self.shared.list.listed();
        let profile = listings::profile_of(self.shared.profiles, &context);
        let tools = listings::tools(&listed, profile);
        let tools = match self.lister(&context) {
            Some(caller) => permitted(
                &tools,
                listed.infos().iter().map(|info| &info.scopes[..]),
                &caller,
            ),
            None => Vec::clone(&tools),
        };
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn answer_call_tool(
        &self,
        mut request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        answer_call_tool!(self, request, context)
    }

    async fn answer_get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        task_methods::get(self, self.tasks()?, request, &Asker::of(&context)).await
    }

    async fn answer_update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        task_methods::update(self, self.tasks()?, request, &Asker::of(&context)).await
    }

    async fn answer_cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        task_methods::cancel(self, self.tasks()?, request, &Asker::of(&context)).await
    }

    async fn answer_list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        one_page(request.as_ref())?;
        if self.shared.catalog.prompts.is_empty() {
            return Err(ErrorData::method_not_found::<ListPromptsRequestMethod>());
        }
        let listings = listings::listings(&self.shared.catalog);
        let prompts = match self.lister(&context) {
            Some(caller) => {
                let entries = self.shared.catalog.prompts.entries();
                permitted(&listings.prompts, entries.map(|e| e.spec().scopes), &caller)
            }
            None => listings.prompts.clone(),
        };
        Ok(ListPromptsResult::with_all_items(prompts))
    }

    async fn answer_get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        mounted::hand_over!(self, prompt, request, context);
        let catalog = &self.shared.catalog;
        let arguments = request.arguments.unwrap_or_default();
        let (state, responses) = (request.request_state.as_deref(), request.input_responses);
        let begun = request_state::begin(
            &self.shared,
            &context,
            ("prompts/get", &request.name),
            &arguments,
            state,
            responses,
        )?;
        let served = self.served(&context, begun.as_ref());
        let result = catalog
            .get_prompt(&request.name, arguments, self.scope(Some(&served)))
            .await;
        if let Some(begun) = begun.as_ref().filter(|begun| begun.suspended()) {
            return Ok(begun.input_required(&self.shared)?.into());
        }
        Ok(bridge::get_prompt_result(result.map_err(bridge::error_data)?).into())
    }

    async fn answer_list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        one_page(request.as_ref())?;
        if self.shared.catalog.resources.is_empty() {
            return Err(ErrorData::method_not_found::<ListResourcesRequestMethod>());
        }
        let listings = listings::listings(&self.shared.catalog);
        let resources = match self.lister(&context) {
            Some(caller) => {
                let entries = self.shared.catalog.resources.fixed_entries();
                permitted(
                    &listings.resources,
                    entries.map(|e| e.spec().scopes),
                    &caller,
                )
            }
            None => listings.resources.clone(),
        };
        Ok(ListResourcesResult::with_all_items(resources))
    }

    async fn answer_list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        one_page(request.as_ref())?;
        if self.shared.catalog.resources.is_empty() {
            return Err(ErrorData::method_not_found::<
                ListResourceTemplatesRequestMethod,
            >());
        }
        let listings = listings::listings(&self.shared.catalog);
        let templates = match self.lister(&context) {
            Some(caller) => {
                let entries = self.shared.catalog.resources.template_entries();
                permitted(
                    &listings.templates,
                    entries.map(|e| e.spec().scopes),
                    &caller,
                )
            }
            None => listings.templates.clone(),
        };
        Ok(ListResourceTemplatesResult::with_all_items(templates))
    }

    async fn answer_read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        mounted::hand_over!(self, resource, request, context);
        let (state, responses) = (request.request_state.as_deref(), request.input_responses);
        let none = serde_json::Map::new();
        let begun = request_state::begin(
            &self.shared,
            &context,
            ("resources/read", &request.uri),
            &none,
            state,
            responses,
        )?;
        let served = self.served(&context, begun.as_ref());
        let read = (self.shared.catalog).read(&request.uri, self.scope(Some(&served)));
        let read = read.await;
        if let Some(begun) = begun.as_ref().filter(|begun| begun.suspended()) {
            return Ok(begun.input_required(&self.shared)?.into());
        }
        Ok(bridge::read_result(read.map_err(bridge::error_data)?).into())
    }

    #[allow(deprecated)] // Protocols before 2026-07-28 subscribe this way.
    async fn answer_subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let listener = Arc::new(PeerListener(context.peer));
        (self.shared.catalog).subscribe(request.uri, self.session, listener);
        Ok(())
    }

    #[allow(deprecated)]
    async fn answer_unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        (self.shared.catalog).unsubscribe(&request.uri, self.session);
        Ok(())
    }

    async fn answer_complete(
        &self,
        request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let argument = &request.argument;
        let reference = match &request.r#ref {
            Reference::Prompt(prompt) => catalog::Reference::Prompt(&prompt.name),
            Reference::Resource(template) => catalog::Reference::Resource(&template.uri),
            // A kind of reference this version does not know: nothing to suggest.
            _ => return Ok(bridge::complete_result(Default::default())),
        };
        let completion = (self.shared.catalog).complete(reference, &argument.name, &argument.value);
        Ok(bridge::complete_result(
            completion.map_err(bridge::error_data)?,
        ))
    }

    #[allow(deprecated)] // SEP-2577: logging stays for clients of earlier protocols.
    async fn answer_set_level(
        &self,
        request: SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.log_filter.set(bridge::log_level(request.level));
        Ok(())
    }

    /// rmcp's request as a call sees it: with the call's round, when it has `begun` one,
    /// and this session's outbox, when the transport is ours.
    fn served<'a>(
        &'a self,
        context: &'a RequestContext<RoleServer>,
        begun: Option<&request_state::Begun>,
    ) -> Served<'a> {
        Served::new(
            context,
            begun.map(request_state::Begun::round),
            self.outbox.as_ref(),
        )
    }

    /// The caller a list shows only what it may call to: on a server with authorization
    /// and `list_only_permitted`, for a request over HTTP; `None` lists everything.
    fn lister(&self, context: &RequestContext<RoleServer>) -> Option<Caller> {
        #[cfg(feature = "http")]
        {
            let authorization = self.http_options().authorization.as_ref()?;
            // Over stdio, rmcp gives no HTTP request: the parent process is trusted.
            context.extensions.get::<http::request::Parts>()?;
            authorization
                .list_only_permitted
                .then(|| crate::protocol::peer_session::auth(context))
        }
        #[cfg(not(feature = "http"))]
        {
            let _ = context;
            None
        }
    }

    /// The server's tasks; rmcp asks only a server that declares the extension.
    fn tasks(&self) -> Result<&crate::server::tasks::Tasks, ErrorData> {
        (self.shared.tasks.as_deref())
            .ok_or_else(|| ErrorData::internal_error("this server serves no tasks", None))
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

/// The items of a list whose scopes (`needed`, in the list's order) `caller` holds.
fn permitted<'a, T: Clone, S: AsRef<str> + 'a>(
    items: &[T],
    needed: impl Iterator<Item = &'a [S]>,
    caller: &Caller,
) -> Vec<T> {
    (items.iter().zip(needed))
        .filter(|(_, needed)| permits(caller.as_deref(), needed))
        .map(|(item, _)| item.clone())
        .collect()
}

/// Whom a list is filtered for: the caller of an HTTP request, `None` without a token.
type Caller = Option<Arc<Auth>>;
