//! A prompt's items: its parameters and call adapter as an item's, and its registration.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

use super::{Names, item, wrap};
use crate::model::Prompt;

/// The function, then the items that make it a prompt.
pub(crate) fn prompt(prompt: &Prompt) -> TokenStream {
    let prompt = &prompt.item;
    let names = Names::new(&prompt.function.sig.ident);
    let p = names.private();
    let krate = &names.krate;
    let ty = &prompt.output.ty;
    // The trait bound is checked here, so a type that is no prompt's result is an error on it.
    let convert = quote_spanned!(prompt.output.span=> #p::prompt_reply::<#ty>);
    let future = quote!(#p::CallFuture<#krate::model::PromptResult>);
    let (items, fields) = item(prompt, &names, future, convert);
    let registration = quote! {
        #p::inventory::submit! {
            #p::PromptEntry::__new(#p::PromptSpec { #fields })
        }
    };
    wrap(
        &prompt.function,
        &prompt.krate,
        &names,
        quote!(#items #registration),
    )
}
