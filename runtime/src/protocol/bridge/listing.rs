//! Prompts, resources and completions: their listings, results and suggestions, between
//! this crate's types and rmcp's.

use rmcp::model as sdk;
use serde_json::Value;

use super::{content, content_block, contents, resource_contents, sdk_role};
use crate::model::{
    Completion, PromptArgument, PromptInfo, PromptMessage, PromptResult, ResourceContents,
    ResourceInfo, ResourceTemplateInfo, Role,
};

/// What a listing entry carries beyond our info types: icons and `_meta`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Extras {
    pub(crate) icons: &'static [&'static str],
    pub(crate) meta: Option<&'static str>,
}

impl Extras {
    fn icons(self) -> Option<Vec<sdk::Icon>> {
        (!self.icons.is_empty())
            .then(|| self.icons.iter().map(|src| sdk::Icon::new(*src)).collect())
    }

    fn meta(self) -> Option<sdk::MetaObject> {
        match serde_json::from_str::<Value>(self.meta?) {
            Ok(Value::Object(meta)) => Some(sdk::MetaObject(meta)),
            // The attribute checked it; a hand-made entry may still be wrong.
            _ => None,
        }
    }
}

pub(crate) fn sdk_prompt(info: &PromptInfo, extras: Extras) -> sdk::Prompt {
    let arguments = (info.arguments.iter())
        .map(|argument| {
            let mut converted = sdk::PromptArgument::new(&argument.name);
            converted.description = argument.description.clone();
            converted.required = Some(argument.required);
            converted
        })
        .collect::<Vec<_>>();
    let mut prompt = sdk::Prompt::new(
        &info.name,
        info.description.as_deref(),
        (!arguments.is_empty()).then_some(arguments),
    );
    prompt.title = info.title.clone();
    prompt.icons = extras.icons();
    prompt.meta = extras.meta();
    prompt
}

pub(crate) fn prompt_info(prompt: sdk::Prompt) -> PromptInfo {
    PromptInfo {
        name: prompt.name,
        title: prompt.title,
        description: prompt.description,
        arguments: (prompt.arguments.unwrap_or_default().into_iter())
            .map(|argument| PromptArgument {
                name: argument.name,
                description: argument.description,
                required: argument.required.unwrap_or(false),
            })
            .collect(),
    }
}

pub(crate) fn get_prompt_result(result: PromptResult) -> sdk::GetPromptResult {
    let messages = (result.messages.into_iter())
        .map(|message| {
            sdk::PromptMessage::new(sdk_role(message.role), content_block(message.content))
        })
        .collect();
    let mut converted = sdk::GetPromptResult::new(messages);
    converted.description = result.description;
    converted
}

pub(crate) fn prompt_result(result: sdk::GetPromptResult) -> PromptResult {
    let messages = result.messages.into_iter().map(|message| {
        let role = match message.role {
            sdk::Role::User => Role::User,
            sdk::Role::Assistant => Role::Assistant,
        };
        PromptMessage::new(role, content(message.content))
    });
    PromptResult {
        description: result.description,
        messages: messages.collect(),
    }
}

pub(crate) fn sdk_resource(info: &ResourceInfo, extras: Extras) -> sdk::Resource {
    let mut resource = sdk::Resource::new(&info.uri, &info.name);
    resource.title = info.title.clone();
    resource.description = info.description.clone();
    resource.mime_type = info.mime_type.clone();
    resource.icons = extras.icons();
    resource.meta = extras.meta();
    resource
}

pub(crate) fn resource_info(resource: sdk::Resource) -> ResourceInfo {
    ResourceInfo {
        uri: resource.uri,
        name: resource.name,
        title: resource.title,
        description: resource.description,
        mime_type: resource.mime_type,
    }
}

pub(crate) fn sdk_template(info: &ResourceTemplateInfo, extras: Extras) -> sdk::ResourceTemplate {
    let mut template = sdk::ResourceTemplate::new(&info.uri_template, &info.name);
    template.title = info.title.clone();
    template.description = info.description.clone();
    template.mime_type = info.mime_type.clone();
    template.icons = extras.icons();
    template.meta = extras.meta();
    template
}

pub(crate) fn template_info(template: sdk::ResourceTemplate) -> ResourceTemplateInfo {
    ResourceTemplateInfo {
        uri_template: template.uri_template,
        name: template.name,
        title: template.title,
        description: template.description,
        mime_type: template.mime_type,
    }
}

pub(crate) fn read_result(read: Vec<ResourceContents>) -> sdk::ReadResourceResult {
    sdk::ReadResourceResult::new(read.into_iter().map(resource_contents).collect())
}

pub(crate) fn read_contents(result: sdk::ReadResourceResult) -> Vec<ResourceContents> {
    result.contents.into_iter().map(contents).collect()
}

pub(crate) fn complete_result(completion: Completion) -> sdk::CompleteResult {
    let mut info = sdk::CompletionInfo::default();
    info.values = completion.values;
    info.total = completion.total;
    info.has_more = Some(completion.has_more);
    sdk::CompleteResult::new(info)
}

pub(crate) fn completion(result: sdk::CompleteResult) -> Completion {
    Completion {
        values: result.completion.values,
        total: result.completion.total,
        has_more: result.completion.has_more.unwrap_or(false),
    }
}
