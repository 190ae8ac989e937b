//! Code generation: the function as written, and in a `const _` block its
//! parameter table, its call adapter and its registration.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned as _;
use syn::{ItemFn, ReturnType, Type};

use crate::errors::Errors;
use crate::parse::{self, Tool};
use crate::validate::{self, Checked, Number};

pub(crate) fn tool(args: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = Errors::default();
    let tool = match parse::tool(args, item.clone(), &mut errors) {
        Ok(tool) => tool,
        // Not a function at all: nothing to recover but the error.
        Err(error) => {
            let error = error.to_compile_error();
            return quote!(#error #item);
        }
    };
    let checked = validate::tool(&tool, &mut errors);
    if !errors.is_empty() {
        // The function as written (less the parameter attributes rustc rejects), so the
        // rest of the crate and the IDE keep working, plus every error at once.
        let function = &tool.function;
        let errors = errors.to_compile_errors();
        return quote!(#errors #function);
    }
    generate(&tool, &checked)
}

fn generate(tool: &Tool, checked: &Checked) -> TokenStream {
    let krate = tool
        .args
        .krate
        .as_ref()
        .map(|path| quote!(#path))
        .unwrap_or_else(|| quote!(::mcp_tool));
    // Named once, by a `use` in the `const _` block: a wrong `crate = "..."` path gets one error.
    let p = quote!(__mcp_crate::__private);
    let function: &ItemFn = &tool.function;
    let fn_ident = &function.sig.ident;
    let count = tool.params.len();

    let mut statics = Vec::new();
    let mut specs = Vec::new();
    let mut reads = Vec::new();
    let mut checks = Vec::new();
    let mut values = Vec::new();
    for (index, param) in tool.params.iter().enumerate() {
        let name = param.ident.to_string();
        let value_ty = param.option_inner.as_ref().unwrap_or(&param.ty);
        let ty = &param.ty;
        let ty_span = value_ty.span();
        let description = option_str(param.doc.as_deref());
        let required = param.option_inner.is_none() && param.arg.default.is_none();
        let (min, max) = checked.ranges[index];
        let (min_len, max_len) = checked.lengths[index];
        let minimum = option_bound(&p, min);
        let maximum = option_bound(&p, max);
        let min_length = option_u64(min_len);
        let max_length = option_u64(max_len);
        let pattern = match &param.arg.pattern {
            Some(lit) => {
                let ident = format_ident!("__MCP_PATTERN_{}", index);
                statics.push(quote!(static #ident: #p::Pattern = #p::Pattern::new(#lit);));
                quote!(::core::option::Option::Some(&#ident))
            }
            None => quote!(::core::option::Option::None),
        };
        let default = match &param.arg.default {
            Some(expr) => {
                let value_fn = format_ident!("__mcp_default_{}", index);
                let json_fn = format_ident!("__mcp_default_json_{}", index);
                // A string literal becomes the parameter's string type; anything else
                // (numbers, paths, calls) must have the parameter's type already.
                let value = match expr {
                    syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(_),
                        ..
                    }) => quote!(::core::convert::Into::into(#expr)),
                    _ => quote!(#expr),
                };
                statics.push(quote_spanned! {expr.span()=>
                    fn #value_fn() -> #ty {
                        #value
                    }
                    fn #json_fn() -> #p::serde_json::Value {
                        #p::serde_json::to_value(#value_fn())
                            .unwrap_or(#p::serde_json::Value::Null)
                    }
                });
                quote!(::core::option::Option::Some(#json_fn))
            }
            None => quote!(::core::option::Option::None),
        };
        // The one place that requires `ToolParam`, so a type that is not gets one error.
        let param_type = format_ident!("__MCP_TYPE_{}", index);
        statics.push(quote_spanned! {ty_span=>
            const #param_type: #p::ParamType<#value_ty> = #p::param_type::<#value_ty>();
        });
        specs.push(quote! {
            #p::ParamSpec {
                name: #name,
                description: #description,
                required: #required,
                schema: #param_type.schema,
                minimum: #minimum,
                maximum: #maximum,
                min_length: #min_length,
                max_length: #max_length,
                pattern: #pattern,
                default: #default,
            }
        });

        let slot = format_ident!("__mcp_arg_{}", index);
        let read = if param.option_inner.is_some() {
            quote_spanned!(ty_span=> __mcp_args.optional(#index, #param_type))
        } else if param.arg.default.is_some() {
            let value_fn = format_ident!("__mcp_default_{}", index);
            quote_spanned!(ty_span=> __mcp_args.defaulted(#index, #param_type, #value_fn))
        } else {
            quote_spanned!(ty_span=> __mcp_args.required(#index, #param_type))
        };
        reads.push(quote!(let #slot = #read;));

        let mut param_checks = Vec::new();
        if param.arg.range.is_some() {
            param_checks.push(
                quote_spanned!(ty_span=> __mcp_args.check_range::<#value_ty>(#index, __mcp_value);),
            );
        }
        if param.arg.length.is_some() {
            param_checks
                .push(quote_spanned!(ty_span=> __mcp_args.check_length::<#value_ty>(#index, __mcp_value);));
        }
        if param.arg.pattern.is_some() {
            param_checks.push(
                quote_spanned!(ty_span=> __mcp_args.check_pattern::<#value_ty>(#index, __mcp_value);),
            );
        }
        if !param_checks.is_empty() {
            let binding = if param.option_inner.is_some() {
                quote!(::core::option::Option::Some(::core::option::Option::Some(
                    __mcp_value
                )))
            } else {
                quote!(::core::option::Option::Some(__mcp_value))
            };
            checks.push(quote! {
                if let #binding = &#slot {
                    #(#param_checks)*
                }
            });
        }
        values.push(slot);
    }

    let ret_ty: Type = match &function.sig.output {
        ReturnType::Default => syn::parse_quote!(()),
        ReturnType::Type(_, ty) => (**ty).clone(),
    };
    let ret_span = match &function.sig.output {
        ReturnType::Default => fn_ident.span(),
        ReturnType::Type(_, ty) => ty.span(),
    };
    let output_fn = quote_spanned! {ret_span=>
        fn __mcp_output() -> #p::OutputSpec<#ret_ty> {
            #[allow(unused_imports)]
            use #p::{
                ContentKind as _, ContentResultKind as _, ErrorResultKind as _, ResultKind as _,
                StructuredKind as _,
            };
            (&&&&&#p::Probe::<#ret_ty>::new()).__mcp_output()
        }
    };

    let unpack = if count == 0 {
        quote!()
    } else {
        let bound: Vec<_> = (0..count)
            .map(|i| format_ident!("__mcp_value_{}", i))
            .collect();
        let pattern = quote!((#(::core::option::Option::Some(#bound),)*));
        let result = quote!(let #pattern = (#(#values,)*) else {
            return #p::fail(#p::Failure::inconsistent_arguments());
        };);
        values = bound;
        result
    };
    let invoke = if function.sig.asyncness.is_some() {
        let span = function.sig.asyncness.span();
        quote_spanned!(span=> #p::async_reply(__mcp_output().convert, #fn_ident(#(#values),*)))
    } else {
        quote!(#p::sync_reply(__mcp_output().convert, move || #fn_ident(#(#values),*)))
    };

    let name = &checked.name;
    let description = &checked.description;
    let title = option_str(tool.args.title.as_ref().map(|t| t.value()).as_deref());
    let read_only = option_bool(tool.args.read_only);
    let destructive = option_bool(tool.args.destructive);
    let idempotent = option_bool(tool.args.idempotent);
    let open_world = option_bool(tool.args.open_world);
    let here = fn_ident.span();
    let file = quote_spanned!(here=> ::core::file!());
    let line = quote_spanned!(here=> ::core::line!());
    let module_path = quote_spanned!(here=> ::core::module_path!());
    let args_mut = if count == 0 { quote!() } else { quote!(mut) };

    quote! {
        #function

        #[doc(hidden)]
        #[allow(non_upper_case_globals, clippy::all)]
        const _: () = {
            use #krate as __mcp_crate;

            #(#statics)*

            static __MCP_PARAMS: [#p::ParamSpec; #count] = [#(#specs),*];

            #output_fn

            fn __mcp_output_schema(
                __mcp_generator: &mut #p::schemars::SchemaGenerator,
            ) -> ::core::option::Option<#p::schemars::Schema> {
                (__mcp_output().schema)(__mcp_generator)
            }

            fn __mcp_call(__mcp_input: &#p::CallInput) -> #p::ToolFuture {
                let #args_mut __mcp_args = #p::ArgReader::new(__mcp_input, &__MCP_PARAMS);
                #(#reads)*
                #(#checks)*
                if let ::core::result::Result::Err(__mcp_failure) = __mcp_args.finish() {
                    return #p::fail(__mcp_failure);
                }
                #unpack
                #invoke
            }

            #p::inventory::submit! {
                __mcp_crate::ToolEntry::__new(#p::ToolSpec {
                    name: #name,
                    description: #description,
                    title: #title,
                    read_only: #read_only,
                    destructive: #destructive,
                    idempotent: #idempotent,
                    open_world: #open_world,
                    params: &__MCP_PARAMS,
                    output_schema: __mcp_output_schema,
                    call: __mcp_call,
                    file: #file,
                    line: #line,
                    module_path: #module_path,
                })
            }
        };
    }
}

fn option_str(value: Option<&str>) -> TokenStream {
    match value {
        Some(text) => quote!(::core::option::Option::Some(#text)),
        None => quote!(::core::option::Option::None),
    }
}

fn option_bool(value: Option<bool>) -> TokenStream {
    match value {
        Some(flag) => quote!(::core::option::Option::Some(#flag)),
        None => quote!(::core::option::Option::None),
    }
}

fn option_u64(value: Option<u64>) -> TokenStream {
    match value {
        Some(n) => {
            let lit = Literal::u64_suffixed(n);
            quote!(::core::option::Option::Some(#lit))
        }
        None => quote!(::core::option::Option::None),
    }
}

fn option_bound(p: &TokenStream, value: Option<Number>) -> TokenStream {
    match value {
        Some(Number::Int(i)) => {
            let lit = Literal::i128_suffixed(i);
            quote!(::core::option::Option::Some(#p::Bound::Int(#lit)))
        }
        Some(Number::Float(f)) => {
            let lit = Literal::f64_suffixed(f);
            quote!(::core::option::Option::Some(#p::Bound::Float(#lit)))
        }
        None => quote!(::core::option::Option::None),
    }
}
