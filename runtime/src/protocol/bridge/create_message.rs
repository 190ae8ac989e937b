//! `sampling/createMessage` between our types and rmcp's, both ways: the server sends
//! a request and reads the response; the test client reads the request and answers.

// Sampling is deprecated by SEP-2577 (protocol 2026-07-28); earlier clients still offer it.
#![allow(deprecated)]

use rmcp::model as sdk;

use super::{content, content_block, sdk_role};
use crate::model::{
    Content, ModelPreferences, Role, SamplingMessage, SamplingRequest, SamplingResponse,
};

/// `sampling/createMessage`'s parameters, or why a message cannot be sent.
pub(crate) fn create_message_params(
    request: SamplingRequest,
) -> Result<sdk::CreateMessageRequestParams, String> {
    let messages = request
        .messages
        .into_iter()
        .enumerate()
        .map(|(index, message)| {
            let block = sampling_block(message.content)
                .map_err(|kind| format!("message {} is {kind}", index + 1))?;
            Ok(sdk::SamplingMessage::new(sdk_role(message.role), block))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let mut params = sdk::CreateMessageRequestParams::new(messages, request.max_tokens);
    params.system_prompt = request.system_prompt;
    params.temperature = request.temperature.map(|t| t as f32);
    if !request.stop_sequences.is_empty() {
        params.stop_sequences = Some(request.stop_sequences);
    }
    params.model_preferences = request.model_preferences.map(model_preferences);
    Ok(params)
}

/// A message block as sampling carries it; a resource or a link is the error.
fn sampling_block(content: Content) -> Result<sdk::SamplingMessageContentBlock, &'static str> {
    match content_block(content) {
        sdk::ContentBlock::Text(text) => Ok(sdk::SamplingMessageContentBlock::Text(text)),
        sdk::ContentBlock::Image(image) => Ok(sdk::SamplingMessageContentBlock::Image(image)),
        sdk::ContentBlock::Audio(audio) => Ok(sdk::SamplingMessageContentBlock::Audio(audio)),
        sdk::ContentBlock::Resource(_) => Err("an embedded resource"),
        sdk::ContentBlock::ResourceLink(_) => Err("a resource link"),
        _ => Err("a kind of content sampling does not carry"),
    }
}

fn model_preferences(preferences: ModelPreferences) -> sdk::ModelPreferences {
    let mut converted = sdk::ModelPreferences::new();
    if !preferences.hints.is_empty() {
        converted.hints = Some(
            preferences
                .hints
                .into_iter()
                .map(sdk::ModelHint::new)
                .collect(),
        );
    }
    converted.cost_priority = preferences.cost_priority.map(|p| p as f32);
    converted.speed_priority = preferences.speed_priority.map(|p| p as f32);
    converted.intelligence_priority = preferences.intelligence_priority.map(|p| p as f32);
    converted
}

/// The client's answer, in our terms, or what in it this crate cannot read.
pub(crate) fn sampling_response(
    result: sdk::CreateMessageResult,
) -> Result<SamplingResponse, String> {
    let mut blocks = result.message.content.into_vec();
    let content = match blocks.len() {
        0 => return Err("the client's answer has no content".into()),
        1 => our_block(blocks.remove(0))?,
        _ => {
            // Several blocks: their text, when they are all text.
            let texts = blocks
                .into_iter()
                .map(|block| match block {
                    sdk::SamplingMessageContentBlock::Text(text) => Ok(text.text),
                    _ => Err("the client's answer mixes text with other content".to_owned()),
                })
                .collect::<Result<Vec<_>, _>>()?;
            Content::text(texts.concat())
        }
    };
    let mut response = SamplingResponse::new(result.model, content);
    response.stop_reason = result.stop_reason;
    Ok(response)
}

fn our_block(block: sdk::SamplingMessageContentBlock) -> Result<Content, String> {
    let block = match block {
        sdk::SamplingMessageContentBlock::Text(text) => sdk::ContentBlock::Text(text),
        sdk::SamplingMessageContentBlock::Image(image) => sdk::ContentBlock::Image(image),
        sdk::SamplingMessageContentBlock::Audio(audio) => sdk::ContentBlock::Audio(audio),
        sdk::SamplingMessageContentBlock::ToolUse(_) => {
            return Err(
                "the client's model asked to use a tool, which this request did not offer".into(),
            );
        }
        _ => {
            return Err("the client's answer is a kind of content sampling does not return".into());
        }
    };
    Ok(content(block))
}

/// A request the test client received, in our terms.
pub(crate) fn sampling_request(params: sdk::CreateMessageRequestParams) -> SamplingRequest {
    let messages = params.messages.into_iter().flat_map(|message| {
        let role = match message.role {
            sdk::Role::User => Role::User,
            sdk::Role::Assistant => Role::Assistant,
        };
        message.content.into_vec().into_iter().map(move |block| {
            let block = match block {
                sdk::SamplingMessageContentBlock::Text(text) => sdk::ContentBlock::Text(text),
                sdk::SamplingMessageContentBlock::Image(image) => sdk::ContentBlock::Image(image),
                sdk::SamplingMessageContentBlock::Audio(audio) => sdk::ContentBlock::Audio(audio),
                other => sdk::ContentBlock::text(serde_json::to_string(&other).unwrap_or_default()),
            };
            SamplingMessage::new(role, content(block))
        })
    });
    let mut request = SamplingRequest::conversation(messages).with_max_tokens(params.max_tokens);
    request.system_prompt = params.system_prompt;
    request.temperature = params.temperature.map(f64::from);
    request.stop_sequences = params.stop_sequences.unwrap_or_default();
    request.model_preferences = params.model_preferences.map(|preferences| {
        let mut converted = ModelPreferences::new();
        converted.hints = preferences
            .hints
            .unwrap_or_default()
            .into_iter()
            .filter_map(|hint| hint.name)
            .collect();
        converted.cost_priority = preferences.cost_priority.map(f64::from);
        converted.speed_priority = preferences.speed_priority.map(f64::from);
        converted.intelligence_priority = preferences.intelligence_priority.map(f64::from);
        converted
    });
    request
}

/// The test client's answer, as rmcp sends it.
pub(crate) fn create_message_result(
    response: SamplingResponse,
) -> Result<sdk::CreateMessageResult, String> {
    let block = sampling_block(response.content).map_err(|kind| format!("the answer is {kind}"))?;
    let message = sdk::SamplingMessage::new(sdk::Role::Assistant, block);
    let mut result = sdk::CreateMessageResult::new(message, response.model);
    result.stop_reason = response.stop_reason;
    Ok(result)
}
