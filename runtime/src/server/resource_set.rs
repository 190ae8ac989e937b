//! A server's resources, built once: their listings, the lookup of a requested URI
//! (a fixed URI first, then each template), its reading and the completion of template
//! variables.

use serde_json::{Map, Value};

use crate::call::arguments::text as text_arguments;
use crate::call::state::StateMap;
use crate::model::{Completion, ResourceContents, ResourceInfo, ResourceTemplateInfo};
use crate::outcome::error::{CallError, INVALID_PARAMS, ServerError};
use crate::outcome::failure_report::Subject;
use crate::outcome::masking;
use crate::registry::completion;
use crate::registry::resource::{Address, ResourceEntry};
use crate::registry::uri_template::UriTemplate;
use crate::server::invoke::{self, Scope};
use crate::server::mount::MountedEntry;

/// Every resource a server offers.
#[derive(Debug, Default)]
pub(crate) struct Resources {
    /// Sorted by URI.
    fixed: Vec<(&'static ResourceEntry, Origin)>,
    templates: Vec<BuiltTemplate>,
    infos: Vec<ResourceInfo>,
    template_infos: Vec<ResourceTemplateInfo>,
}

#[derive(Debug)]
struct BuiltTemplate {
    entry: &'static ResourceEntry,
    template: UriTemplate,
    /// For each parameter, whether its text is read as JSON.
    as_json: Vec<bool>,
    origin: Origin,
}

/// Where a resource comes from: this server, or a mounted one, whose state it reads and
/// which is named, with its namespace, in errors.
type Origin = Option<(StateMap, String, usize)>;

/// Where `entry` was made, and under which namespace it is mounted, for errors.
fn location(entry: &ResourceEntry, origin: &Origin) -> String {
    match origin {
        Some((_, mounted_as, _)) => format!("{}, {mounted_as}", entry.location()),
        None => entry.location(),
    }
}

/// The state a resource of `origin` reads: its server's.
fn in_scope<'a>(scope: Scope<'a>, origin: &'a Origin) -> Scope<'a> {
    match origin {
        Some((state, ..)) => Scope { state, ..scope },
        None => scope,
    }
}

/// The longest part of a requested URI that messages and logs show.
const SHOWN_URI_CHARS: usize = 256;

impl Resources {
    /// The resources of `entries`, and those of the servers mounted (listed after); two at
    /// one URI, or two templates of one URI template, once mounted are an error naming
    /// both.
    pub(crate) fn new(
        mut entries: Vec<&'static ResourceEntry>,
        mounted: Vec<MountedEntry<ResourceEntry>>,
    ) -> Result<Self, ServerError> {
        // By URI: looked up by halves, and listed in that order.
        entries.sort_by_key(|entry| entry.uri());
        let mounted =
            (mounted.into_iter()).map(|m| (m.entry, Some((m.state, m.mounted_as, m.mount.0))));
        let mut resources = Self::default();
        for (entry, origin) in entries
            .into_iter()
            .map(|entry| (entry, None))
            .chain(mounted)
        {
            let spec = entry.spec();
            match spec.address {
                Address::Uri(uri) => {
                    resources.infos.push(ResourceInfo {
                        uri: uri.to_owned(),
                        name: spec.name.to_owned(),
                        title: spec.title.map(str::to_owned),
                        description: Some(spec.description.to_owned()),
                        mime_type: spec.mime_type.map(str::to_owned),
                    });
                    resources.fixed.push((entry, origin));
                }
                Address::Template(source) => {
                    let template = UriTemplate::parse(source).map_err(|problem| {
                        ServerError::InvalidTemplate {
                            template: source.to_owned(),
                            location: entry.location(),
                            problem,
                        }
                    })?;
                    resources.template_infos.push(ResourceTemplateInfo {
                        uri_template: source.to_owned(),
                        name: spec.name.to_owned(),
                        title: spec.title.map(str::to_owned),
                        description: Some(spec.description.to_owned()),
                        mime_type: spec.mime_type.map(str::to_owned),
                    });
                    resources.templates.push(BuiltTemplate {
                        entry,
                        template,
                        as_json: text_arguments::parsed_as_json(spec.params),
                        origin,
                    });
                }
            }
        }
        resources.sorted()?;
        Ok(resources)
    }

    /// The fixed resources sorted by URI, with their listing; two at one URI, or two
    /// templates of one URI template, are an error naming both.
    fn sorted(&mut self) -> Result<(), ServerError> {
        let mut fixed: Vec<_> = (std::mem::take(&mut self.fixed).into_iter())
            .zip(std::mem::take(&mut self.infos))
            .collect();
        // Stable: at one URI, a resource of this server's own comes first.
        fixed.sort_by_key(|((entry, _), _)| entry.uri());
        (self.fixed, self.infos) = fixed.into_iter().unzip();
        let conflict = |kind, name: &str, first: String, second: String| {
            Err(ServerError::MountConflict {
                kind,
                name: name.to_owned(),
                first,
                second,
            })
        };
        if let Some(pair) = self.fixed.windows(2).find(|p| p[0].0.uri() == p[1].0.uri()) {
            let ((first, one), (second, other)) = (&pair[0], &pair[1]);
            return conflict(
                "resource",
                first.uri(),
                location(first, one),
                location(second, other),
            );
        }
        for (at, template) in self.templates.iter().enumerate() {
            let source = template.template.source();
            if let Some(other) =
                (self.templates[at + 1..].iter()).find(|other| other.template.source() == source)
            {
                let (first, second) = (
                    location(template.entry, &template.origin),
                    location(other.entry, &other.origin),
                );
                return conflict("resource template", source, first, second);
            }
        }
        Ok(())
    }

    /// The resources as a server that mounts this one holds them (at their own URIs), each
    /// with the state of the server it comes from (`state`, for this server's own).
    pub(crate) fn mounted(
        &self,
        mount: usize,
        state: &StateMap,
        mounted_as: &str,
    ) -> Vec<MountedEntry<ResourceEntry>> {
        let fixed = self.fixed.iter().map(|(entry, origin)| (*entry, origin));
        let templates = (self.templates.iter()).map(|template| (template.entry, &template.origin));
        (fixed.chain(templates))
            .map(|(entry, origin)| {
                let (state, from) = match origin {
                    Some((state, from, _)) => (state, format!("{from}, {mounted_as}")),
                    None => (state, mounted_as.to_owned()),
                };
                MountedEntry {
                    entry,
                    name: entry.uri(),
                    state: state.clone(),
                    mounted_as: from,
                    mount: (mount, entry.uri()),
                }
            })
            .collect()
    }

    pub(crate) fn infos(&self) -> &[ResourceInfo] {
        &self.infos
    }

    pub(crate) fn template_infos(&self) -> &[ResourceTemplateInfo] {
        &self.template_infos
    }

    /// The fixed resources, in the order of [`infos`](Self::infos).
    pub(crate) fn fixed_entries(&self) -> impl Iterator<Item = &'static ResourceEntry> + '_ {
        self.fixed.iter().map(|(entry, _)| *entry)
    }

    /// The templates, in the order of [`template_infos`](Self::template_infos).
    pub(crate) fn template_entries(&self) -> impl Iterator<Item = &'static ResourceEntry> + '_ {
        self.templates.iter().map(|template| template.entry)
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.fixed.is_empty() && self.templates.is_empty()
    }

    /// Whether any template variable has a completion function.
    pub(crate) fn complete_any(&self) -> bool {
        (self.templates.iter()).any(|t| !t.entry.spec().completions.is_empty())
    }

    /// The resource `uri` reads: a fixed one, else the first template that matches.
    pub(crate) fn entry_for(&self, uri: &str) -> Option<&'static ResourceEntry> {
        if let Ok(found) = self
            .fixed
            .binary_search_by(|(entry, _)| entry.uri().cmp(uri))
        {
            return Some(self.fixed[found].0);
        }
        (self.templates.iter())
            .find(|template| template.template.matches(uri).is_some())
            .map(|template| template.entry)
    }

    /// The mounted server the resource `uri` reads comes from, by its place among the
    /// mounts; `None` for a resource of this server's own, or none.
    pub(crate) fn mount_of(&self, uri: &str) -> Option<usize> {
        let origin = match self
            .fixed
            .binary_search_by(|(entry, _)| entry.uri().cmp(uri))
        {
            Ok(found) => &self.fixed[found].1,
            Err(_) => {
                let template = (self.templates.iter()).find(|t| t.template.matches(uri).is_some());
                &template?.origin
            }
        };
        origin.as_ref().map(|(.., mount)| *mount)
    }

    /// The template whose URI template is `template`, as a completion names it.
    pub(crate) fn template_entry(&self, template: &str) -> Option<&'static ResourceEntry> {
        (self.templates.iter())
            .find(|t| t.template.source() == template)
            .map(|t| t.entry)
    }

    /// Reads the resource at `uri`.
    pub(crate) async fn read(
        &self,
        uri: &str,
        scope: Scope<'_>,
    ) -> Result<Vec<ResourceContents>, CallError> {
        let shown = clipped(uri);
        let subject = Subject::Resource(&shown);
        if let Ok(found) = self
            .fixed
            .binary_search_by(|(entry, _)| entry.uri().cmp(uri))
        {
            let (entry, origin) = &self.fixed[found];
            let spec = entry.spec();
            let scope = in_scope(scope, origin);
            let reply = invoke::run(subject, spec.name, spec.call, Map::new(), scope).await?;
            return Ok(reply.into_contents(uri, spec.mime_type));
        }
        for template in &self.templates {
            let Some(bound) = template.template.matches(uri) else {
                continue;
            };
            let spec = template.entry.spec();
            let arguments: Map<String, Value> = (bound.into_iter())
                .map(|(name, text)| (name.to_owned(), Value::String(text)))
                .collect();
            let arguments = text_arguments::typed(arguments, spec.params, &template.as_json);
            let scope = in_scope(scope, &template.origin);
            let reply = invoke::run(subject, spec.name, spec.call, arguments, scope).await?;
            return Ok(reply.into_contents(uri, spec.mime_type));
        }
        Err(not_found(&shown))
    }

    /// The suggestions for the variable `argument` of `template`, typed as far as `prefix`.
    pub(crate) fn complete(
        &self,
        template: &str,
        argument: &str,
        prefix: &str,
    ) -> Result<Completion, CallError> {
        match (self.templates.iter()).find(|t| t.template.source() == template) {
            Some(found) => Ok(completion::complete(
                found.entry.spec().completions,
                argument,
                prefix,
            )),
            None => Err(CallError::Protocol {
                code: INVALID_PARAMS,
                message: masking::mask_failure(&format!(
                    "no resource template is `{}`: `resources/templates/list` lists them",
                    clipped(template)
                ))
                .into_owned(),
                data: None,
            }),
        }
    }
}

/// An unknown URI: invalid params with the URI in `data` (SEP-2164), credentials masked.
#[cold]
fn not_found(shown: &str) -> CallError {
    let masked = masking::mask_credentials(shown);
    CallError::Protocol {
        code: INVALID_PARAMS,
        message: masking::mask_failure(&format!(
            "resource not found: no resource of this server is at `{shown}`; \
             `resources/list` and `resources/templates/list` name the ones it has"
        ))
        .into_owned(),
        data: Some(serde_json::json!({ "uri": masked })),
    }
}

fn clipped(uri: &str) -> String {
    match uri.char_indices().nth(SHOWN_URI_CHARS) {
        Some((end, _)) => format!("{}…", &uri[..end]),
        None => uri.to_owned(),
    }
}
