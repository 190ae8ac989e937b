//! Generated code names everything by absolute path, so a module that shadows
//! common names still compiles.

#![allow(dead_code, non_camel_case_types, unused_imports, unused_macros)]

mod tools {
    use mcp_tool::{ToolError, mcp_tool};

    mod serde {}
    mod schemars {}
    mod serde_json {}
    mod inventory {}
    mod rmcp {}
    mod core {}
    mod std {}

    struct Result;
    struct Option;
    struct Vec;
    struct Box;
    struct Default;
    struct Into;
    struct From;
    struct Ok;
    struct Err;
    struct Some;
    struct None;
    struct Send;
    struct Sync;
    struct Fn;

    macro_rules! file {
        () => {
            compile_error!("generated code used a shadowed `file!`")
        };
    }
    macro_rules! line {
        () => {
            compile_error!("generated code used a shadowed `line!`")
        };
    }
    macro_rules! module_path {
        () => {
            compile_error!("generated code used a shadowed `module_path!`")
        };
    }

    /// Returns the first lines of a text.
    #[mcp_tool(read_only, title = "First lines")]
    pub(crate) async fn head(
        /// The text to cut.
        text: ::std::string::String,
        /// How many lines to keep.
        #[arg(range(min = 1, max = 100))]
        lines: ::core::option::Option<usize>,
        /// Only lines with this prefix.
        #[arg(length(max = 8), pattern = "^[a-z]*$", default = "")]
        prefix: ::std::string::String,
    ) -> ::core::result::Result<::std::vec::Vec<::std::string::String>, ToolError> {
        ::core::result::Result::Ok(
            text.lines()
                .filter(|line| line.starts_with(prefix.as_str()))
                .take(lines.unwrap_or(usize::MAX))
                .map(::std::borrow::ToOwned::to_owned)
                .collect(),
        )
    }

    /// Returns a greeting.
    #[mcp_tool]
    pub(crate) fn greet(name: ::std::string::String) -> ::std::string::String {
        ::std::format!("Hello, {name}!")
    }

    /// Does nothing.
    #[mcp_tool]
    pub(crate) fn noop() {}
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let lines = tools::head("a\nb".to_owned(), Some(1), String::new()).await;
    assert_eq!(lines, Ok(vec!["a".to_owned()]));
    assert_eq!(tools::greet("Ada".to_owned()), "Hello, Ada!");
    tools::noop();
    assert_eq!(mcp_tool::registered().len(), 3);
}
