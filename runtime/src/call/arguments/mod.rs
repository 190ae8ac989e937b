//! Reading a call's arguments, by the three readers that share one set of faults (every
//! fault collected, named by its path, never echoing the value that was sent, which may
//! be a secret): [`reader`] for the code `#[mcp_tool]` generates, [`by_name`] for a tool
//! defined at run time ([`Arguments`]), and [`text`] for prompt arguments and URI
//! template variables, which travel as strings.

pub(crate) mod by_name;
pub(crate) mod lenient;
pub(crate) mod reader;
pub(crate) mod text;

pub use by_name::Arguments;
pub(crate) use by_name::CallArguments;
