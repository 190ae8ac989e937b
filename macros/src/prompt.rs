//! `#[mcp_prompt]`: what only a prompt checks and generates. Its parameters are read,
//! checked and reported as a tool's are (`validate::param`, `expand::call_fn`); a
//! prompt's arguments travel as strings, which the runtime reads as the JSON each
//! parameter's type expects.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::{ItemFn, LitStr};

use crate::errors::Errors;
use crate::expand::{self, Names};
use crate::metadata::{self, Metadata};
use crate::model::{Output, Param};
use crate::parse::{self, PromptArgs};
use crate::validate::{self, Kind};

const PROMPT: Kind = Kind {
    noun: "prompt",
    attribute: "mcp_prompt",
};

/// One prompt, valid.
#[derive(Debug)]
pub(crate) struct Prompt {
    name: String,
    description: String,
    title: Option<String>,
    metadata: Metadata,
    krate: syn::Path,
    function: ItemFn,
    output: Output,
    params: Vec<Param>,
}

/// The valid prompt, or `None` when `errors` holds any mistake (from parsing too).
pub(crate) fn validate(parsed: &parse::Tool<PromptArgs>, errors: &mut Errors) -> Option<Prompt> {
    let sig = &parsed.function.sig;
    let args = &parsed.args;
    validate::check_signature(sig, PROMPT, errors);
    let name = validate::name(PROMPT, args.name.as_ref(), sig, errors);
    let description = validate::description(
        PROMPT,
        args.description.as_ref(),
        parsed.doc.as_deref(),
        sig,
        errors,
    );
    let metadata = metadata::metadata(None, args.icons.as_deref(), args.meta.as_ref(), errors);
    let params: Vec<Param> = (parsed.params.iter())
        .map(|p| validate::param(p, errors))
        .collect();
    if !errors.is_empty() {
        return None;
    }
    Some(Prompt {
        name,
        description,
        title: args.title.as_ref().map(LitStr::value),
        metadata,
        krate: (args.krate.clone()).unwrap_or_else(|| syn::parse_quote!(::mcp_tool)),
        function: parsed.function.clone(),
        output: validate::output(sig),
        params,
    })
}

/// The function, then the items that make it a prompt.
pub(crate) fn expand(prompt: &Prompt) -> TokenStream {
    let names = Names::new(&prompt.function.sig.ident);
    let p = names.private();
    let krate = &names.krate;
    let params = expand::param_items(&prompt.params, &prompt.function, &names);
    let ty = &prompt.output.ty;
    // The trait bound is checked here, so a type that is no prompt's result is an error on it.
    let convert = quote_spanned!(prompt.output.span=> #p::prompt_reply::<#ty>);
    let call = expand::call_fn(
        &prompt.params,
        &prompt.function,
        &names,
        quote!(#p::CallFuture<#krate::model::PromptResult>),
        convert,
    );
    let (completer_items, completers) = expand::completers(&prompt.params, &names);
    let (name, description) = (&prompt.name, &prompt.description);
    let title = expand::option_str(prompt.title.as_deref());
    let icons = &prompt.metadata.icons;
    let meta = expand::option_str(prompt.metadata.meta.as_deref());
    let (params_static, call_fn) = (&names.params, &names.call);
    let location = expand::location(&names);
    let registration = quote! {
        #p::inventory::submit! {
            #krate::PromptEntry::__new(#p::PromptSpec {
                name: #name,
                description: #description,
                title: #title,
                icons: &[#(#icons),*],
                meta: #meta,
                params: &#params_static,
                completions: &#completers,
                call: #call_fn,
                #location
            })
        }
    };
    expand::wrap(
        &prompt.function,
        &prompt.krate,
        &names,
        quote!(#params #call #completer_items #registration),
    )
}
