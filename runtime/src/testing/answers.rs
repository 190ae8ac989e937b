//! The test client's side of the requests a server sends during a call: the
//! capabilities it declares and the handlers a test gave to answer them.

// Sampling is deprecated by SEP-2577 (protocol 2026-07-28); earlier servers still ask for it.
#![allow(deprecated)]

use std::fmt;
use std::sync::Arc;

use rmcp::ClientHandler;
use rmcp::model::{
    ClientCapabilities, ClientConfig, CreateMessageRequestParams, CreateMessageResult,
    ElicitRequestParams, ElicitResult, ErrorData,
};
use rmcp::service::{RequestContext, RoleClient};
use serde_json::{Value, json};

use crate::model::{Elicitation, ElicitationRequest, SamplingRequest, SamplingResponse};
use crate::protocol::bridge;

/// How a test answers `sampling/createMessage`.
pub(super) type SamplingHandler =
    Arc<dyn Fn(SamplingRequest) -> Result<SamplingResponse, String> + Send + Sync>;

/// How a test answers `elicitation/create`.
pub(super) type ElicitationHandler =
    Arc<dyn Fn(ElicitationRequest) -> Result<Elicitation<Value>, String> + Send + Sync>;

/// The test client's rmcp handler: it declares a capability for each handler it has.
#[derive(Clone, Default)]
pub(super) struct Answers {
    pub(super) sampling: Option<SamplingHandler>,
    pub(super) elicitation: Option<ElicitationHandler>,
}

impl fmt::Debug for Answers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Answers")
            .field("sampling", &self.sampling.is_some())
            .field("elicitation", &self.elicitation.is_some())
            .finish()
    }
}

/// A handler's refusal, as the client sends it: a JSON-RPC error.
fn refusal(message: String) -> ErrorData {
    ErrorData::internal_error(message, None)
}

impl ClientHandler for Answers {
    fn get_info(&self) -> ClientConfig {
        let mut capabilities = serde_json::Map::new();
        if self.sampling.is_some() {
            capabilities.insert("sampling".into(), json!({}));
        }
        if self.elicitation.is_some() {
            // `{}`: forms, as every protocol version reads it.
            capabilities.insert("elicitation".into(), json!({}));
        }
        let mut info = ClientConfig::default();
        info.capabilities =
            serde_json::from_value::<ClientCapabilities>(Value::Object(capabilities))
                .unwrap_or_default();
        info
    }

    async fn create_message(
        &self,
        params: CreateMessageRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, ErrorData> {
        let Some(answer) = &self.sampling else {
            return Err(refusal("this test client does not answer sampling".into()));
        };
        let response = answer(bridge::sampling_request(params)).map_err(refusal)?;
        bridge::create_message_result(response).map_err(refusal)
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let Some(answer) = &self.elicitation else {
            return Err(refusal(
                "this test client does not answer elicitation".into(),
            ));
        };
        let Some(request) = bridge::elicitation_request(request) else {
            return Ok(bridge::elicit_result(Elicitation::Declined));
        };
        answer(request).map(bridge::elicit_result).map_err(refusal)
    }
}
