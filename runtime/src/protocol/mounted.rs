//! A call of a mounted server's tool through a session: handed to the mounted server as
//! its own client's call of the tool's own name, through its own request pipeline.

use std::future::Future;
use std::pin::Pin;

use rmcp::model::{CallToolRequestParams, CallToolResponse, ContentBlock, ErrorData};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler};

use crate::server::mount::MountedTool;
use crate::server::tool_server::ToolServer;

/// Answers `request`, a call of `tool`, which `server` mounted: the mounted server runs it
/// in `server`'s session, holding one of `server`'s calls while it runs. Boxed, with its
/// type written out: the mounted server's handler may lead here again, for a mount of its
/// own.
pub(crate) fn call_tool<'a>(
    server: &'a ToolServer,
    tool: &'a MountedTool,
    mut request: CallToolRequestParams,
    context: RequestContext<RoleServer>,
) -> Pin<Box<dyn Future<Output = Result<CallToolResponse, ErrorData>> + Send + 'a>> {
    Box::pin(async move {
        // A semaphore is closed only when dropped: a permit is always given.
        let _permit = match &server.shared.calls {
            Some(calls) => calls.acquire().await.ok(),
            None => None,
        };
        request.name = tool.own_name.clone().into();
        let mounted = server.mounted(tool);
        let mut answered = ServerHandler::call_tool(&mounted, request, context).await;
        if let Ok(CallToolResponse::Complete(result)) = &mut answered
            && result.is_error == Some(true)
            && let Some(ContentBlock::Text(text)) = result.content.first_mut()
        {
            text.text = tool.renamed(std::mem::take(&mut text.text));
        }
        answered
    })
}
