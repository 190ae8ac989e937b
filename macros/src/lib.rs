//! The `#[mcp_tool]` attribute. Depend on the `mcp-tool` crate, which re-exports it
//! with its documentation; generated code refers to that crate only.
//!
//! One stage per module, each using only the ones before it: `parse` reads the attribute
//! and the function as written; `validate` reports every mistake at once and turns what
//! passes into a `model::Tool`; `expand` writes that model out.
#![deny(missing_docs)]
#![cfg_attr(not(test), warn(clippy::unwrap_used))]

mod duration;
mod errors;
mod expand;
mod metadata;
mod model;
mod parse;
mod validate;

use proc_macro::TokenStream;
use quote::quote;

use crate::errors::Errors;

/// Implemented by the `mcp-tool-macros` crate: depend on `mcp-tool`, which re-exports
/// this attribute with its full reference.
#[proc_macro_attribute]
pub fn mcp_tool(args: TokenStream, item: TokenStream) -> TokenStream {
    tool(args.into(), item.into()).into()
}

fn tool(
    args: proc_macro2::TokenStream,
    item: proc_macro2::TokenStream,
) -> proc_macro2::TokenStream {
    let mut errors = Errors::default();
    let parsed = match parse::tool(args, item.clone(), &mut errors) {
        Ok(parsed) => parsed,
        // Not a function at all: nothing to recover but the error.
        Err(error) => {
            let error = error.to_compile_error();
            return quote!(#error #item);
        }
    };
    match validate::tool(&parsed, &mut errors) {
        Some(tool) => expand::tool(&tool),
        // The function as written (less the parameter attributes rustc rejects), so the
        // rest of the crate and the IDE keep working, plus every error at once.
        None => {
            let function = &parsed.function;
            let errors = errors.to_compile_errors();
            quote!(#errors #function)
        }
    }
}
