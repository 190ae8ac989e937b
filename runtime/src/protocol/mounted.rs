//! A request for a mounted server's tool, prompt or resource through a session: handed to
//! the mounted server as its own client's request for the item by its own name, through
//! its own request pipeline. Each answer is boxed, with its type written out: the mounted
//! server's handler may lead here again, for a mount of its own.

use std::future::Future;
use std::pin::Pin;

use rmcp::model::ErrorData;

/// The answer of a mounted server's handler.
type Answering<'a, T> = Pin<Box<dyn Future<Output = Result<T, ErrorData>> + Send + 'a>>;

/// Returns, from the handler, the answer of the mounted server whose item a request of
/// `$kind` (`tool`, `prompt` or `resource`) is for, when it is a mounted server's.
macro_rules! hand_over {
    ($server:expr, $kind:ident, $request:ident, $context:ident) => {
        if !$server.shared.mounts.is_empty()
            && let Some(mount) = $crate::protocol::mounted::$kind::find($server, &$request)
        {
            let answering =
                $crate::protocol::mounted::$kind::answer($server, mount, $request, $context);
            return answering.await;
        }
    };
}

pub(crate) use hand_over;

/// `message`, an error of the mounted server naming its item `own` (as "prompt `own`"),
/// naming it `listed` instead.
fn renamed(message: &mut String, kind: &str, own: &str, listed: &str) {
    let own = format!("{kind} `{own}`");
    if message.contains(&own) {
        *message = message.replacen(&own, &format!("{kind} `{listed}`"), 1);
    }
}

pub(crate) mod tool {
    use std::sync::Arc;

    use rmcp::model::{CallToolRequestParams, CallToolResponse, ContentBlock};
    use rmcp::service::RequestContext;
    use rmcp::{RoleServer, ServerHandler};

    use super::Answering;
    use crate::server::mount::MountedTool;
    use crate::server::tool_server::ToolServer;
    use crate::server::tools::Found;

    /// The mounted tool `request` calls.
    pub(crate) fn find(
        server: &ToolServer,
        request: &CallToolRequestParams,
    ) -> Option<Arc<MountedTool>> {
        match server.find(&request.name)? {
            Found::Mounted(tool) => Some(tool),
            _ => None,
        }
    }

    /// Answers `request`, a call of `tool`, which `server` mounted: the mounted server runs
    /// it in `server`'s session, holding one of `server`'s calls while it runs.
    pub(crate) fn answer(
        server: &ToolServer,
        tool: Arc<MountedTool>,
        mut request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Answering<'_, CallToolResponse> {
        Box::pin(async move {
            // A semaphore is closed only when dropped: a permit is always given.
            let _permit = match &server.shared.calls {
                Some(calls) => calls.acquire().await.ok(),
                None => None,
            };
            request.name = tool.own_name.clone().into();
            let mounted = server.mounted(tool.mount);
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
}

pub(crate) mod prompt {
    use rmcp::model::{GetPromptRequestParams, GetPromptResponse};
    use rmcp::service::RequestContext;
    use rmcp::{RoleServer, ServerHandler};

    use super::{Answering, renamed};
    use crate::server::tool_server::ToolServer;

    /// The mount of the prompt `request` gets, and its name there.
    pub(crate) fn find(
        server: &ToolServer,
        request: &GetPromptRequestParams,
    ) -> Option<(usize, &'static str)> {
        server.shared.catalog.prompts.mount_of(&request.name)
    }

    /// Answers `request` for a prompt of the mounted server `mount`, named `own` there.
    pub(crate) fn answer<'a>(
        server: &'a ToolServer,
        (mount, own): (usize, &'static str),
        mut request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Answering<'a, GetPromptResponse> {
        Box::pin(async move {
            let listed = std::mem::replace(&mut request.name, own.to_owned());
            let mounted = server.mounted(mount);
            let answered = ServerHandler::get_prompt(&mounted, request, context).await;
            answered.map_err(|mut error| {
                let mut message = error.message.into_owned();
                renamed(&mut message, "prompt", own, &listed);
                error.message = message.into();
                error
            })
        })
    }
}

pub(crate) mod resource {
    use rmcp::model::{ReadResourceRequestParams, ReadResourceResponse};
    use rmcp::service::RequestContext;
    use rmcp::{RoleServer, ServerHandler};

    use super::Answering;
    use crate::server::tool_server::ToolServer;

    /// The mount of the resource `request` reads.
    pub(crate) fn find(server: &ToolServer, request: &ReadResourceRequestParams) -> Option<usize> {
        server.shared.catalog.resources.mount_of(&request.uri)
    }

    /// Answers `request` for a resource of the mounted server `mount`, at the same URI.
    pub(crate) fn answer(
        server: &ToolServer,
        mount: usize,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Answering<'static, ReadResourceResponse> {
        let mounted = server.mounted(mount);
        Box::pin(async move { ServerHandler::read_resource(&mounted, request, context).await })
    }
}
