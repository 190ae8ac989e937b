//! The `#[mcp_tool]` attribute. Depend on the `mcp-tool` crate, which re-exports it
//! with its documentation; generated code refers to that crate only.
#![cfg_attr(not(test), warn(clippy::unwrap_used))]

mod errors;
mod expand;
mod parse;
mod validate;

use proc_macro::TokenStream;

/// Turns a plain function into an MCP tool; see the `mcp-tool` crate's documentation.
#[proc_macro_attribute]
pub fn mcp_tool(args: TokenStream, item: TokenStream) -> TokenStream {
    expand::tool(args.into(), item.into()).into()
}
