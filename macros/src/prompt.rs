//! `#[mcp_prompt]`: what only a prompt checks and generates. Its parameters are read,
//! checked and reported as a tool's are (`validate::param`, `expand::call_fn`); a
//! prompt's arguments travel as strings, which the runtime reads as the JSON each
//! parameter's type expects.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

use crate::errors::Errors;
use crate::expand::{self, Names};
use crate::parse::{self, PromptArgs};
use crate::validate::{self, Item, ItemKeys, Kind};

const PROMPT: Kind = Kind {
    noun: "prompt",
    attribute: "mcp_prompt",
};

/// The valid prompt, or `None` when `errors` holds any mistake (from parsing too).
pub(crate) fn validate(parsed: &parse::Tool<PromptArgs>, errors: &mut Errors) -> Option<Item> {
    let args = &parsed.args;
    let keys = ItemKeys {
        name: args.name.as_ref(),
        description: args.description.as_ref(),
        title: args.title.as_ref(),
        icons: args.icons.as_deref(),
        meta: args.meta.as_ref(),
        krate: args.krate.as_ref(),
    };
    let prompt = validate::item(PROMPT, parsed, keys, errors);
    errors.is_empty().then_some(prompt)
}

/// The function, then the items that make it a prompt.
pub(crate) fn expand(prompt: &Item) -> TokenStream {
    let names = Names::new(&prompt.function.sig.ident);
    let p = names.private();
    let krate = &names.krate;
    let ty = &prompt.output.ty;
    // The trait bound is checked here, so a type that is no prompt's result is an error on it.
    let convert = quote_spanned!(prompt.output.span=> #p::prompt_reply::<#ty>);
    let future = quote!(#p::CallFuture<#krate::model::PromptResult>);
    let (items, fields) = expand::item(prompt, &names, future, convert);
    let registration = quote! {
        #p::inventory::submit! {
            #krate::PromptEntry::__new(#p::PromptSpec { #fields })
        }
    };
    expand::wrap(
        &prompt.function,
        &prompt.krate,
        &names,
        quote!(#items #registration),
    )
}
