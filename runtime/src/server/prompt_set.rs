//! A server's prompts, built once: their listing, the lookup of a requested prompt, its
//! rendering and the completion of its arguments.

use serde_json::{Map, Value};

use crate::call::arguments::text as text_arguments;
use crate::call::state::StateMap;
use crate::model::{Completion, PromptArgument, PromptInfo, PromptResult};
use crate::outcome::error::{CallError, INVALID_PARAMS, ServerError};
use crate::outcome::failure_report::Subject;
use crate::outcome::masking;
use crate::outcome::suggest;
use crate::registry::completion;
use crate::registry::prompt_entry::PromptEntry;
use crate::server::invoke::{self, Scope};
use crate::server::mount::MountedEntry;

/// Every prompt a server offers, sorted by name.
#[derive(Debug, Default)]
pub(crate) struct Prompts {
    prompts: Vec<BuiltPrompt>,
    infos: Vec<PromptInfo>,
}

#[derive(Debug)]
struct BuiltPrompt {
    /// The name it is listed by: its own, or namespaced for a mounted server's.
    name: &'static str,
    entry: &'static PromptEntry,
    /// For each parameter, whether its text is read as JSON.
    as_json: Vec<bool>,
    /// A mounted server's prompt: that server's state, where it is mounted, and the
    /// mount and name it has there.
    mounted: Option<(StateMap, String, (usize, &'static str))>,
}

impl BuiltPrompt {
    /// Where it was made, and under which namespace it is mounted, for errors.
    fn location(&self) -> String {
        match &self.mounted {
            Some((_, mounted_as, _)) => format!("{}, {mounted_as}", self.entry.location()),
            None => self.entry.location(),
        }
    }
}

impl Prompts {
    /// The prompts of `entries`, and those of the servers mounted; two of one name once
    /// mounted are an error naming both.
    pub(crate) fn new(
        entries: Vec<&'static PromptEntry>,
        mounted: Vec<MountedEntry<PromptEntry>>,
    ) -> Result<Self, ServerError> {
        let built = |entry: &'static PromptEntry, name, mounted| BuiltPrompt {
            name,
            entry,
            as_json: text_arguments::parsed_as_json(entry.spec().params),
            mounted,
        };
        let mut prompts: Vec<BuiltPrompt> = (entries.into_iter())
            .map(|entry| built(entry, entry.name(), None))
            .chain((mounted.into_iter()).map(|mounted| {
                let origin = Some((mounted.state, mounted.mounted_as, mounted.mount));
                built(mounted.entry, mounted.name, origin)
            }))
            .collect();
        prompts.sort_by_key(|prompt| prompt.name);
        if let Some(pair) = prompts.windows(2).find(|pair| pair[0].name == pair[1].name) {
            return Err(ServerError::MountConflict {
                kind: "prompt",
                name: pair[0].name.to_owned(),
                first: pair[0].location(),
                second: pair[1].location(),
            });
        }
        let infos = (prompts.iter())
            .map(|prompt| PromptInfo {
                name: prompt.name.to_owned(),
                ..info(prompt.entry)
            })
            .collect();
        Ok(Self { prompts, infos })
    }

    /// The prompts as a server that mounts this one under `namespace` holds them, each with
    /// the state of the server it comes from (`state`, for this server's own).
    pub(crate) fn mounted(
        &self,
        (namespace, mount): (&str, usize),
        state: &StateMap,
        mounted_as: &str,
    ) -> Vec<MountedEntry<PromptEntry>> {
        (self.prompts.iter())
            .map(|prompt| {
                let (state, from) = match &prompt.mounted {
                    Some((state, from, _)) => (state, format!("{from}, {mounted_as}")),
                    None => (state, mounted_as.to_owned()),
                };
                let separator = crate::server::mount::SEPARATOR;
                MountedEntry {
                    entry: prompt.entry,
                    name: String::leak(format!("{namespace}{separator}{}", prompt.name)),
                    state: state.clone(),
                    mounted_as: from,
                    mount: (mount, prompt.name),
                }
            })
            .collect()
    }

    /// The mounted server a prompt listed as `name` comes from, by its place among the
    /// mounts, and its name there; `None` for a prompt of this server's own, or none.
    pub(crate) fn mount_of(&self, name: &str) -> Option<(usize, &'static str)> {
        self.find(name)
            .ok()?
            .mounted
            .as_ref()
            .map(|(.., mount)| *mount)
    }

    /// The entry of the prompt listed as `name`.
    pub(crate) fn entry(&self, name: &str) -> Option<&'static PromptEntry> {
        self.find(name).ok().map(|prompt| prompt.entry)
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
        // Its function sees its own name; the client reads the name it asked for.
        let subject = Subject::Prompt(prompt.name);
        let scope = match &prompt.mounted {
            Some((state, ..)) => Scope { state, ..scope },
            None => scope,
        };
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
            .binary_search_by(|prompt| prompt.name.cmp(name))
            .is_ok()
    }

    fn find(&self, name: &str) -> Result<&BuiltPrompt, CallError> {
        match (self.prompts).binary_search_by(|prompt| prompt.name.cmp(name)) {
            Ok(found) => Ok(&self.prompts[found]),
            Err(_) => Err(self.unknown(name)),
        }
    }

    #[cold]
    fn unknown(&self, name: &str) -> CallError {
        let known = self.prompts.iter().map(|prompt| prompt.name);
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
