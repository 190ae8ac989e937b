//! Every mistake found in one expansion, reported together, each spanned on its token.

use proc_macro2::TokenStream;

/// How each key is written, for darling's messages about a malformed value.
const USAGE: &[(&str, &str)] = &[
    ("name", "name = \"tool_name\""),
    ("description", "description = \"...\""),
    ("title", "title = \"...\""),
    ("read_only", "read_only` or `read_only = false"),
    ("destructive", "destructive` or `destructive = false"),
    ("idempotent", "idempotent` or `idempotent = false"),
    ("open_world", "open_world` or `open_world = false"),
    ("timeout", "timeout = \"30s\""),
    ("task", "task = \"optional\"` or `task = \"required\""),
    ("task_begins", "task_begins = \"in_body\""),
    ("schema", "schema = \"2020-12\""),
    ("tags", "tags = [\"search\", \"files\"]"),
    ("icons", "icons = [\"https://example.com/icon.png\"]"),
    (
        "meta",
        "meta = r#\"{\"com.example/owner\": \"search-team\"}\"#",
    ),
    ("crate", "crate = \"path::to::mcp_tool\""),
    ("uri", "uri = \"config://app\""),
    ("template", "template = \"notes://{title}\""),
    ("mime_type", "mime_type = \"text/plain\""),
    ("complete", "complete = a_function"),
    ("range", "range(min = 1, max = 100)"),
    ("length", "length(min = 1, max = 64)"),
    ("pattern", "pattern = \"^[a-z]+$\""),
    ("default", "default = 10"),
];

/// Darling's message, plus how the key is written when its value was malformed
/// ("Unexpected type `int` at title" says what is wrong, not what is right).
fn with_usage(message: String) -> String {
    if message.starts_with("Unknown field") {
        return message;
    }
    if message.starts_with("Duplicate field") {
        return format!("{message}: set it once");
    }
    let usage = message
        .rsplit_once(" at ")
        .and_then(|(_, at)| at.split('/').next())
        .and_then(|key| USAGE.iter().find(|(name, _)| *name == key));
    match usage {
        Some((_, usage)) => format!("{message}; write `{usage}`"),
        None => message,
    }
}

/// Every mistake found, reported together.
#[derive(Default)]
pub(crate) struct Errors {
    errors: Vec<syn::Error>,
}

impl Errors {
    pub(crate) fn push(&mut self, error: syn::Error) {
        self.errors.push(error);
    }

    pub(crate) fn push_darling(&mut self, error: darling::Error) {
        for e in error.flatten() {
            let span = e.span();
            self.errors
                .push(syn::Error::new(span, with_usage(e.to_string())));
        }
    }

    /// Each mistake's message, in order.
    #[cfg(test)]
    pub(crate) fn messages(&self) -> Vec<String> {
        self.errors.iter().map(ToString::to_string).collect()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.errors.is_empty()
    }

    pub(crate) fn to_compile_errors(&self) -> TokenStream {
        self.errors
            .iter()
            .map(syn::Error::to_compile_error)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use darling::FromMeta;
    use darling::ast::NestedMeta;
    use proc_macro2::TokenStream;
    use quote::quote;

    use super::Errors;
    use crate::parse::{ArgAttr, ToolArgs};

    /// What a user reads for `args`, darling's own messages passed through `with_usage`.
    fn messages<A: FromMeta + std::fmt::Debug>(args: TokenStream) -> Vec<String> {
        let items = NestedMeta::parse_meta_list(args).unwrap();
        let mut errors = Errors::default();
        errors.push_darling(A::from_list(&items).unwrap_err());
        errors.messages()
    }

    #[test]
    fn darling_names_an_unknown_key_with_a_suggestion() {
        assert_eq!(
            messages::<ToolArgs>(quote!(nme = "add")),
            ["Unknown field: `nme`. Did you mean `name`?"]
        );
    }

    #[test]
    fn a_duplicate_key_is_to_be_set_once() {
        assert_eq!(
            messages::<ToolArgs>(quote!(name = "a", name = "b")),
            ["Duplicate field `name`: set it once"]
        );
    }

    #[test]
    fn a_malformed_value_gets_the_way_its_key_is_written() {
        assert_eq!(
            messages::<ToolArgs>(quote!(title = 5)),
            ["Unexpected type `int` at title; write `title = \"...\"`"]
        );
        assert_eq!(
            messages::<ToolArgs>(quote!(read_only = "yes")),
            ["Unknown value: `yes` at read_only; write `read_only` or `read_only = false`"]
        );
    }

    #[test]
    fn a_malformed_nested_value_gets_the_way_its_outer_key_is_written() {
        assert_eq!(
            messages::<ArgAttr>(quote!(length(min = "a"))),
            ["Unexpected type `string` at length/min; write `length(min = 1, max = 64)`"]
        );
    }
}
