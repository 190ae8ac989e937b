//! A resource's items: its parameters and call adapter as an item's, a check that each
//! parameter no template variable binds is one the server gives, and its registration.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

use super::{Names, item, option_str, wrap};
use crate::model::{Address, Resource};

/// The function, then the items that make it a resource.
pub(crate) fn resource(resource: &Resource) -> TokenStream {
    let names = Names::new(&resource.item.function.sig.ident);
    let p = names.private();
    let params = &resource.item.params;
    let unbound = (resource.unbound.iter()).map(|&index| {
        // Every token on the parameter, so that the error points there.
        let span = params[index].ident.span();
        let krate = syn::Ident::new(&names.krate.to_string(), span);
        let param_type = syn::Ident::new(&names.param_type(index).to_string(), span);
        quote_spanned! {span=>
            const _: () = #krate::__private::no_template_variable(#param_type.kind);
        }
    });
    let ty = &resource.item.output.ty;
    let convert = quote_spanned!(resource.item.output.span=> #p::resource_reply::<#ty>);
    let future = quote!(#p::CallFuture<#p::ResourceReply>);
    let (items, fields) = item(&resource.item, &names, future, convert);
    let address = match &resource.address {
        Address::Uri(uri) => quote!(#p::Address::Uri(#uri)),
        Address::Template(template) => quote!(#p::Address::Template(#template)),
    };
    let mime_type = option_str(resource.mime_type.as_deref());
    let registration = quote! {
        #p::inventory::submit! {
            #p::ResourceEntry::__new(#p::ResourceSpec {
                address: #address,
                mime_type: #mime_type,
                #fields
            })
        }
    };
    wrap(
        &resource.item.function,
        &resource.item.krate,
        &names,
        quote!(#(#unbound)* #items #registration),
    )
}
