//! The `#[mcp_tool]`, `#[mcp_prompt]` and `#[mcp_resource]` attributes. Depend on the
//! `mcp-tool` crate, which re-exports them with their documentation; generated code
//! refers to that crate only.
//!
//! One stage per module, each using only the ones before it: `parse` reads the attribute
//! and the function as written; `validate` reports every mistake at once and turns what
//! passes into the `model` (a `Tool`, a `Prompt` or a `Resource`); `expand` writes that
//! model out and reads nothing else. Each stage keeps what only a prompt or a resource
//! has (its keys, a resource's address) in a module of that name.
#![deny(missing_docs)]
#![warn(missing_debug_implementations, unreachable_pub)]
#![cfg_attr(not(test), warn(clippy::unwrap_used))]

mod errors;
mod expand;
mod model;
mod parse;
mod validate;

use darling::FromMeta;
use proc_macro::TokenStream;
use quote::quote;

use crate::errors::Errors;

/// Implemented by the `mcp-tool-macros` crate: depend on `mcp-tool`, which re-exports
/// this attribute with its full reference.
#[proc_macro_attribute]
pub fn mcp_tool(args: TokenStream, item: TokenStream) -> TokenStream {
    attribute(
        "mcp_tool",
        args.into(),
        item.into(),
        parse::ToolArgs::or,
        validate::tool,
        expand::tool,
    )
    .into()
}

/// Implemented by the `mcp-tool-macros` crate: depend on `mcp-tool`, which re-exports
/// this attribute with its full reference.
#[proc_macro_attribute]
pub fn mcp_prompt(args: TokenStream, item: TokenStream) -> TokenStream {
    attribute(
        "mcp_prompt",
        args.into(),
        item.into(),
        parse::PromptArgs::or,
        validate::prompt,
        expand::prompt,
    )
    .into()
}

/// Implemented by the `mcp-tool-macros` crate: depend on `mcp-tool`, which re-exports
/// this attribute with its full reference.
#[proc_macro_attribute]
pub fn mcp_resource(args: TokenStream, item: TokenStream) -> TokenStream {
    attribute(
        "mcp_resource",
        args.into(),
        item.into(),
        parse::ResourceArgs::or,
        validate::resource,
        expand::resource,
    )
    .into()
}

/// Parse, validate, expand: on any mistake, the function as written (less the parameter
/// attributes rustc rejects), so the rest of the crate and the IDE keep working, plus
/// every error at once.
fn attribute<A: FromMeta + Default, V>(
    name: &str,
    args: proc_macro2::TokenStream,
    item: proc_macro2::TokenStream,
    or: fn(A, A) -> A,
    validate: fn(&parse::Tool<A>, &mut Errors) -> Option<V>,
    expand: fn(&V) -> proc_macro2::TokenStream,
) -> proc_macro2::TokenStream {
    let mut errors = Errors::default();
    let parsed = match parse::function(name, args, item.clone(), &mut errors, or) {
        Ok(parsed) => parsed,
        // Not a function at all: nothing to recover but the error.
        Err(error) => {
            let error = error.to_compile_error();
            return quote!(#error #item);
        }
    };
    match validate(&parsed, &mut errors) {
        Some(valid) => expand(&valid),
        None => {
            let function = &parsed.function;
            let errors = errors.to_compile_errors();
            quote!(#errors #function)
        }
    }
}
