//! rmcp's request context as the [`Request`] and the [`Session`] a call sees: the seam
//! between a call's `Context` and rmcp's peer.

use std::sync::Arc;

use rmcp::model::{ProgressToken, RequestMetaObject};
use rmcp::service::RequestContext;
use rmcp::{Peer, RoleServer};
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

use crate::call::rounds::Round;
use crate::call::session::{Asked, Outbox, Pending, Request, Session};
use crate::model::{
    Auth, ClientInfo, Elicitation, ElicitationRequest, LogLevel, RequestId, Root, SamplingRequest,
    SamplingResponse,
};
use crate::protocol::{bridge, questions, wire};
use crate::server::tasks::Owner;

impl Request for RequestContext<RoleServer> {
    #[inline]
    fn cancellation(&self) -> &CancellationToken {
        &self.ct
    }

    fn refuses_missing_capability(&self) -> bool {
        self.protocol_version()
            .is_some_and(|version| !version.has_initialize())
    }

    fn session(&self) -> Box<dyn Session> {
        Box::new(PeerSession::new(self, None))
    }

    fn auth(&self) -> Option<Arc<Auth>> {
        auth(self)
    }
}

/// rmcp's request as a call on this server sees it: with the call's round when the
/// client is asked in rounds (2026-07-28), and the session's outbox when the server
/// writes the session's messages itself.
pub(crate) struct Served<'a> {
    context: &'a RequestContext<RoleServer>,
    round: Option<Arc<Round>>,
    outbox: Option<&'a Arc<dyn Outbox>>,
}

impl<'a> Served<'a> {
    pub(crate) fn new(
        context: &'a RequestContext<RoleServer>,
        round: Option<Arc<Round>>,
        outbox: Option<&'a Arc<dyn Outbox>>,
    ) -> Self {
        Self {
            context,
            round,
            outbox,
        }
    }
}

impl std::fmt::Debug for Served<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Served")
            .field("request", &self.context.id)
            .field("in_rounds", &self.round.is_some())
            .finish_non_exhaustive()
    }
}

impl Request for Served<'_> {
    #[inline]
    fn cancellation(&self) -> &CancellationToken {
        &self.context.ct
    }

    fn refuses_missing_capability(&self) -> bool {
        self.round.is_some() || self.context.refuses_missing_capability()
    }

    fn session(&self) -> Box<dyn Session> {
        let mut session = PeerSession::new(self.context, self.round.clone());
        session.outbox = self.outbox.cloned();
        Box::new(session)
    }

    fn round(&self) -> Option<&Round> {
        self.round.as_deref()
    }

    fn auth(&self) -> Option<Arc<Auth>> {
        auth(self.context)
    }
}

/// The header that names a request's HTTP session.
#[cfg(feature = "http")]
pub(crate) const SESSION_ID_HEADER: &str = "mcp-session-id";

/// The caller of an HTTP request whose token the endpoint verified: rmcp keeps the
/// request's parts in the context, where the endpoint put the caller.
pub(crate) fn auth(context: &RequestContext<RoleServer>) -> Option<Arc<Auth>> {
    #[cfg(feature = "http")]
    {
        let parts = context.extensions.get::<http::request::Parts>()?;
        parts.extensions.get::<Arc<Auth>>().cloned()
    }
    #[cfg(not(feature = "http"))]
    {
        let _ = context;
        None
    }
}

/// Whom what a request creates belongs to (a task, a `requestState`): the caller its
/// verified token speaks for on a server with authorization, as [`Owner::caller`] says
/// (`None` for a token that names no one); without one, the HTTP session the request came in, where there is one; on
/// stdio and on stateless HTTP without authorization, no one in particular.
pub(crate) fn owner(context: &RequestContext<RoleServer>) -> Option<Owner> {
    if let Some(auth) = auth(context) {
        return Owner::caller(&auth);
    }
    #[cfg(feature = "http")]
    {
        let parts = context.extensions.get::<http::request::Parts>()?;
        let session = parts.headers.get(SESSION_ID_HEADER)?;
        Some(Owner::session(session.to_str().ok()?))
    }
    #[cfg(not(feature = "http"))]
    None
}

/// What a `Context` keeps of rmcp's request: the peer, the request's id and `_meta`,
/// and the call's round when the client is asked in rounds (2026-07-28).
pub(crate) struct PeerSession {
    peer: Peer<RoleServer>,
    id: RequestId,
    meta: RequestMetaObject,
    cancel: CancellationToken,
    round: Option<Arc<Round>>,
    /// Where notifications go without rmcp's loop, when the transport is ours.
    outbox: Option<Arc<dyn Outbox>>,
}

impl PeerSession {
    pub(crate) fn new(context: &RequestContext<RoleServer>, round: Option<Arc<Round>>) -> Self {
        Self {
            peer: context.peer.clone(),
            id: bridge::request_id(&context.id),
            meta: context.meta.clone(),
            cancel: context.ct.clone(),
            round,
            outbox: None,
        }
    }

    /// Writes a notification straight to the session's outbox when the transport is
    /// ours; `None` when it goes through rmcp's peer instead.
    async fn to_outbox<P: serde::Serialize>(
        &self,
        method: &'static str,
        params: &P,
    ) -> Option<Result<(), String>> {
        let outbox = self.outbox.as_ref()?;
        Some(match wire::encode_notification(method, params) {
            Ok(line) => outbox.send(line).await,
            Err(error) => Err(error.to_string()),
        })
    }

    fn progress_token(&self) -> Option<ProgressToken> {
        self.meta.get_progress_token()
    }
}

impl Session for PeerSession {
    fn request_id(&self) -> RequestId {
        self.id.clone()
    }

    fn meta(&self) -> &Map<String, Value> {
        &self.meta.0.0
    }

    fn cancellation(&self) -> &CancellationToken {
        &self.cancel
    }

    /// What `_meta` asks, on the protocol it names or else the handshake's (as
    /// `RequestContext::protocol_version` reads it).
    fn asked(&self) -> Asked {
        let protocol = (self.meta.protocol_version()).or_else(|| {
            self.peer
                .peer_info()
                .map(|info| info.protocol_version.clone())
        });
        Asked {
            progress: self.progress_token().is_some(),
            request_level: self.meta.log_level().map(bridge::log_level),
            level_per_request: protocol.is_some_and(|version| !version.has_initialize()),
        }
    }

    fn client_info(&self) -> Option<ClientInfo> {
        let handshake = self.peer.peer_info();
        bridge::client_info(&self.meta, handshake.as_deref())
    }

    fn progress(
        &self,
        done: f64,
        total: Option<f64>,
        message: Option<String>,
    ) -> Pending<'_, Result<(), String>> {
        Box::pin(async move {
            let token = self
                .progress_token()
                .ok_or("the request has no progress token")?;
            let param = bridge::progress(token, done, total, message);
            if let Some(sent) = self.to_outbox("notifications/progress", &param).await {
                return sent;
            }
            self.peer
                .notify_progress(param)
                .await
                .map_err(|e| e.to_string())
        })
    }

    fn log(
        &self,
        level: LogLevel,
        logger: &str,
        message: String,
    ) -> Pending<'_, Result<(), String>> {
        let param = bridge::log_message(level, logger, message);
        Box::pin(async move {
            if let Some(sent) = self.to_outbox("notifications/message", &param).await {
                return sent;
            }
            #[allow(deprecated)] // SEP-2577; still what clients of earlier protocols read.
            let sent = self.peer.notify_logging_message(param).await;
            sent.map_err(|e| e.to_string())
        })
    }

    fn sample(&self, request: SamplingRequest) -> Pending<'_, Result<SamplingResponse, String>> {
        if let Some(round) = &self.round {
            return Box::pin(questions::sample(round, request));
        }
        Box::pin(async move {
            let params = bridge::create_message_params(request)
                .map_err(|why| format!("the sampling request cannot be sent: {why}"))?;
            #[allow(deprecated)] // SEP-2577: sampling stays for clients of earlier protocols.
            let result = self.peer.create_message(params).await;
            let result = result.map_err(|error| bridge::request_failure("sampling", error))?;
            bridge::sampling_response(result)
        })
    }

    fn elicit(
        &self,
        request: ElicitationRequest,
    ) -> Pending<'_, Result<Elicitation<Value>, String>> {
        if let Some(round) = &self.round {
            return Box::pin(questions::elicit(round, request));
        }
        Box::pin(async move {
            let request = bridge::elicit_request(request)?;
            let result = self.peer.send_request(request).await;
            let result = result.map_err(|error| bridge::request_failure("elicitation", error))?;
            bridge::elicitation(result).ok_or_else(|| {
                "the client answered the elicitation request with a result of another kind"
                    .to_owned()
            })
        })
    }

    fn roots(&self) -> Pending<'_, Result<Vec<Root>, String>> {
        if let Some(round) = &self.round {
            return Box::pin(questions::roots(round));
        }
        Box::pin(async move {
            #[allow(deprecated)] // SEP-2577: roots stay for clients of earlier protocols.
            let result = self.peer.list_roots().await;
            let result = result.map_err(|error| bridge::request_failure("roots", error))?;
            Ok(questions::roots_of(result))
        })
    }

    fn round(&self) -> Option<&Round> {
        self.round.as_deref()
    }
}
