//! What a prompt and a resource generate alike: the parameter table, the call adapter,
//! the completion table, and the fields of their entry that follow from these.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::Ident;
use syn::spanned::Spanned as _;

use super::{Names, call_fn, option_str, param_items};
use crate::model::{Item, Param};

/// The items of a prompt or a resource (`future` is its call adapter's future, `convert`
/// turns its function's result into what that future yields), and the fields of its entry
/// they give: name to `call`, and where it is defined.
pub(crate) fn item(
    item: &Item,
    names: &Names,
    future: TokenStream,
    convert: TokenStream,
) -> (TokenStream, TokenStream) {
    let params = param_items(&item.params, &item.function, names);
    let call = call_fn(&item.params, &item.function, names, future, convert);
    let (completer_items, completers) = completers(&item.params, names);
    let (name, description) = (&item.name, &item.description);
    let title = option_str(item.title.as_deref());
    let (icons, scopes) = (&item.metadata.icons, &item.metadata.scopes);
    let meta = option_str(item.metadata.meta.as_deref());
    let (params_static, call_fn) = (&names.params, &names.call);
    let location = location(names);
    let fields = quote! {
        name: #name,
        description: #description,
        title: #title,
        icons: &[#(#icons),*],
        scopes: &[#(#scopes),*],
        meta: #meta,
        params: &#params_static,
        completions: &#completers,
        call: #call_fn,
        #location
    };
    (quote!(#params #call #completer_items), fields)
}

/// The completion functions of the parameters that name one (`#[arg(complete = f)]`),
/// each a wrapper that gives the runtime `Vec<String>`, and their table; the table's
/// name is returned with the items.
fn completers(params: &[Param], names: &Names) -> (TokenStream, Ident) {
    let p = names.private();
    let table = names.item("__MCP_COMPLETERS");
    let prefix = Ident::new("__mcp_prefix", Span::mixed_site());
    let mut functions = Vec::new();
    let mut entries = Vec::new();
    for (index, param) in params.iter().enumerate() {
        let Some(path) = &param.complete else {
            continue;
        };
        let wrapper = names.param_item("__mcp_complete", index);
        let argument = param.ident.to_string();
        functions.push(quote_spanned! {path.span()=>
            fn #wrapper(#prefix: &str) -> ::std::vec::Vec<::std::string::String> {
                #p::suggestions(#path(#prefix))
            }
        });
        entries.push(quote! {
            #p::Completer { argument: #argument, complete: #wrapper }
        });
    }
    let count = entries.len();
    let items = quote! {
        #(#functions)*
        static #table: [#p::Completer; #count] = [#(#entries),*];
    };
    (items, table)
}

/// `file`, `line` and `module_path` of the function, for its entry.
fn location(names: &Names) -> TokenStream {
    let here = names.function.span();
    let file = quote_spanned!(here=> ::core::file!());
    let line = quote_spanned!(here=> ::core::line!());
    let module_path = quote_spanned!(here=> ::core::module_path!());
    quote! {
        file: #file,
        line: #line,
        module_path: #module_path,
    }
}
