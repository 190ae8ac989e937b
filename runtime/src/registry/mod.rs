//! What a server can serve: the tools, prompts and resources the attributes register,
//! and the tools defined at run time.
//!
//! **Enters:** the static entries generated code submits to `inventory`, and
//! [`RuntimeTool`](crate::RuntimeTool)s built by a program. **Leaves:** entries the
//! [`server`](crate::server) lists and calls. **May import:** [`call`](crate::call),
//! [`outcome`](crate::outcome), [`model`](crate::model).

pub(crate) mod completion;
pub(crate) mod param_headers;
pub(crate) mod prompt_entry;
pub(crate) mod resource;
pub(crate) mod runtime_handler;
pub(crate) mod runtime_tool;
pub(crate) mod tool;
pub(crate) mod tool_name;
pub(crate) mod uri_template;
