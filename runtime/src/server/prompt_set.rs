//! A server's prompts, built once: their listing, the lookup of a requested prompt, its
//! rendering and the completion of its arguments.

use serde_json::{Map, Value};

use crate::call::arguments::text as text_arguments;
use crate::model::{Completion, PromptArgument, PromptInfo, PromptResult};
use crate::outcome::error::{CallError, INVALID_PARAMS};
use crate::outcome::failure_report::Subject;
use crate::outcome::masking;
use crate::outcome::suggest;
use crate::registry::completion;
use crate::registry::prompt::PromptEntry;
use crate::server::invoke::{self, Scope};

/// Every prompt a server offers, sorted by name.
#[derive(Debug, Default)]
pub(crate) struct Prompts {
    prompts: Vec<BuiltPrompt>,
    infos: Vec<PromptInfo>,
}

#[derive(Debug)]
struct BuiltPrompt {
    entry: &'static PromptEntry,
    /// For each parameter, whether its text is read as JSON.
    as_json: Vec<bool>,
}

impl Prompts {
    pub(crate) fn new(mut entries: Vec<&'static PromptEntry>) -> Self {
        entries.sort_by_key(|entry| entry.name());
        let infos = entries.iter().map(|entry| info(entry)).collect();
        let prompts = (entries.into_iter())
            .map(|entry| BuiltPrompt {
                entry,
                as_json: text_arguments::parsed_as_json(entry.spec().params),
            })
            .collect();
        Self { prompts, infos }
    }

    pub(crate) fn infos(&self) -> &[PromptInfo] {
        &self.infos
    }

    /// The entries, in the order of [`infos`](Self::infos).
    pub(crate) fn entries(&self) -> impl Iterator<Item = &'static PromptEntry> + '_ {
        self.prompts.iter().map(|prompt| prompt.entry)
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.prompts.is_empty()
    }

    /// Whether any argument has a completion function.
    pub(crate) fn complete_any(&self) -> bool {
        (self.prompts.iter()).any(|prompt| !prompt.entry.spec().completions.is_empty())
    }

    /// Renders the prompt `name` with `arguments`.
    pub(crate) async fn get(
        &self,
        name: &str,
        arguments: Map<String, Value>,
        scope: Scope<'_>,
    ) -> Result<PromptResult, CallError> {
        let prompt = self.find(name)?;
        let spec = prompt.entry.spec();
        let arguments = text_arguments::typed(arguments, spec.params, &prompt.as_json);
        let subject = Subject::Prompt(spec.name);
        invoke::run(subject, spec.name, spec.call, arguments, scope).await
    }

    /// The suggestions for `argument` of the prompt `name`, typed as far as `prefix`.
    pub(crate) fn complete(
        &self,
        name: &str,
        argument: &str,
        prefix: &str,
    ) -> Result<Completion, CallError> {
        let prompt = self.find(name)?;
        Ok(completion::complete(
            prompt.entry.spec().completions,
            argument,
            prefix,
        ))
    }

    /// Whether the server has a prompt named `name`.
    pub(crate) fn contains(&self, name: &str) -> bool {
        (self.prompts)
            .binary_search_by(|prompt| prompt.entry.name().cmp(name))
            .is_ok()
    }

    fn find(&self, name: &str) -> Result<&BuiltPrompt, CallError> {
        match (self.prompts).binary_search_by(|prompt| prompt.entry.name().cmp(name)) {
            Ok(found) => Ok(&self.prompts[found]),
            Err(_) => Err(self.unknown(name)),
        }
    }

    #[cold]
    fn unknown(&self, name: &str) -> CallError {
        let known = self.prompts.iter().map(|prompt| prompt.entry.name());
        let hint = suggest::did_you_mean(&suggest::ranked(name, known));
        let shown: String = name.chars().take(64).collect();
        CallError::Protocol {
            code: INVALID_PARAMS,
            message: masking::mask_failure(&format!("unknown prompt `{shown}`{hint}")).into_owned(),
            data: None,
        }
    }
}

fn info(entry: &PromptEntry) -> PromptInfo {
    let spec = entry.spec();
    PromptInfo {
        name: spec.name.to_owned(),
        title: spec.title.map(str::to_owned),
        description: Some(spec.description.to_owned()),
        arguments: (spec.params.iter())
            .filter(|param| param.kind.is_argument())
            .map(|param| PromptArgument {
                name: param.name.to_owned(),
                description: param.description.map(str::to_owned),
                required: param.required,
            })
            .collect(),
    }
}
