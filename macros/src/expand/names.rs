//! The names of generated items and locals, each derived from the function's name so
//! that none can hide it.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use syn::Ident;
use syn::ext::IdentExt as _;

/// Every name generated code introduces, none of which can hide the user's function from
/// the call adapter. An item's name is a fixed prefix and the function's name, so it is
/// longer than that name and never equal to it (`self::name` is no way out: it does not
/// reach a function declared in a block, as a doctest's are). Locals are hygienic
/// (`Span::mixed_site`), so no binding hides it either. Each name is in the case its item
/// wants (`__MCP_PARAMS_SEARCH`, `__mcp_call_search`), so it needs no lint allowed.
pub(crate) struct Names {
    pub(crate) function: Ident,
    pub(crate) krate: Ident,
    pub(crate) params: Ident,
    pub(crate) output: Ident,
    pub(crate) output_schema: Ident,
    pub(crate) call: Ident,
    pub(crate) input: Ident,
    pub(crate) args: Ident,
    pub(crate) failure: Ident,
    pub(crate) generator: Ident,
    pub(crate) value: Ident,
}

impl Names {
    pub(crate) fn new(function: &Ident) -> Self {
        let function = function.clone();
        let item = |prefix: &str| item_name(prefix, &function);
        let local = |name: &str| Ident::new(name, Span::mixed_site());
        Names {
            krate: item("__mcp_crate"),
            params: item("__MCP_PARAMS"),
            output: item("__mcp_output"),
            output_schema: item("__mcp_output_schema"),
            call: item("__mcp_call"),
            input: local("__mcp_input"),
            args: local("__mcp_args"),
            failure: local("__mcp_failure"),
            generator: local("__mcp_generator"),
            value: local("__mcp_value"),
            function,
        }
    }

    /// The runtime's items for generated code.
    pub(crate) fn private(&self) -> TokenStream {
        let krate = &self.krate;
        quote!(#krate::__private)
    }

    /// The item `prefix` of the function: `__MCP_COMPLETERS_<FN>`.
    pub(crate) fn item(&self, prefix: &str) -> Ident {
        item_name(prefix, &self.function)
    }

    /// The item `prefix` of the parameter at `index`: `__MCP_TYPE_<i>_<FN>`.
    pub(crate) fn param_item(&self, prefix: &str, index: usize) -> Ident {
        item_name(&format!("{prefix}_{index}"), &self.function)
    }

    fn param_local(&self, prefix: &str, index: usize) -> Ident {
        format_ident!("{}_{}", prefix, index, span = Span::mixed_site())
    }

    pub(crate) fn param_type(&self, index: usize) -> Ident {
        self.param_item("__MCP_TYPE", index)
    }

    pub(crate) fn pattern(&self, index: usize) -> Ident {
        self.param_item("__MCP_PATTERN", index)
    }

    pub(crate) fn default_value(&self, index: usize) -> Ident {
        self.param_item("__mcp_default", index)
    }

    pub(crate) fn default_json(&self, index: usize) -> Ident {
        self.param_item("__mcp_default_json", index)
    }

    /// The argument as read: `None` when reading it failed.
    pub(crate) fn slot(&self, index: usize) -> Ident {
        self.param_local("__mcp_arg", index)
    }

    /// The argument, once every read succeeded.
    pub(crate) fn value_at(&self, index: usize) -> Ident {
        self.param_local("__mcp_value", index)
    }
}

/// `<prefix>_<function>`, the function's name in the prefix's case: upper for a `static`
/// or a `const` (`__MCP_...`), lower for a function or an alias (`__mcp_...`).
fn item_name(prefix: &str, function: &Ident) -> Ident {
    let name = function.unraw().to_string();
    let upper = prefix.starts_with("__MCP");
    let cased = if upper {
        name.to_uppercase()
    } else {
        name.to_lowercase()
    };
    let text = format!("{prefix}_{cased}");
    // A letter whose other case is no identifier's keeps the case it was written in.
    match syn::parse_str::<Ident>(&text) {
        Ok(_) => Ident::new(&text, Span::call_site()),
        Err(_) => format_ident!("{}_{}", prefix, name, span = Span::call_site()),
    }
}
