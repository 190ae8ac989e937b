//! `#[mcp_prompt]`: a prompt's keys are a tool's, less what only a tool has; its
//! parameters are checked as a tool's are.

use super::{ItemKeys, Kind, item};
use crate::errors::Errors;
use crate::model::Prompt;
use crate::parse::{self, PromptArgs};

const PROMPT: Kind = Kind {
    noun: "prompt",
    attribute: "mcp_prompt",
};

/// The valid prompt, or `None` when `errors` holds any mistake (from parsing too).
pub(crate) fn prompt(parsed: &parse::Tool<PromptArgs>, errors: &mut Errors) -> Option<Prompt> {
    let args = &parsed.args;
    let keys = ItemKeys {
        name: args.name.as_ref(),
        description: args.description.as_ref(),
        title: args.title.as_ref(),
        icons: args.icons.as_deref(),
        scopes: args.scopes.as_deref(),
        meta: args.meta.as_ref(),
        krate: args.krate.as_ref(),
    };
    let item = item(PROMPT, parsed, keys, errors);
    errors.is_empty().then_some(Prompt { item })
}
