//! Code generation: the function as written, and in a `const _` block its parameter
//! table, its call adapter and its registration. Everything was decided by validation;
//! each function here writes out one generated item, reading the `model` alone.

use proc_macro2::{Literal, TokenStream};
use quote::{quote, quote_spanned};
use syn::Ident;
use syn::spanned::Spanned as _;

use crate::model::{DefaultValue, Leniency, Number, Param, Read, SchemaDialect, TaskSupport, Tool};

use self::item::item;
use self::names::Names;

mod item;
mod names;
mod prompt;
mod resource;

pub(crate) use self::prompt::prompt;
pub(crate) use self::resource::resource;

/// The function, then the items that make it a tool.
pub(crate) fn tool(tool: &Tool) -> TokenStream {
    let names = Names::new(&tool.function.sig.ident);
    let params = param_items(&tool.params, &tool.function, &names);
    let output = output_fn(tool, &names);
    let output_schema = output_schema_fn(&names);
    let call = call_adapter(tool, &names);
    let registration = registration(tool, &names);
    wrap(
        &tool.function,
        &tool.krate,
        &names,
        quote!(#params #output #output_schema #call #registration),
    )
}

/// The function as written, then `items` in a `const _` block where the runtime is
/// named once: a wrong `crate = "..."` path gets one error.
pub(crate) fn wrap(
    function: &syn::ItemFn,
    krate: &syn::Path,
    names: &Names,
    items: TokenStream,
) -> TokenStream {
    let crate_alias = &names.krate;
    quote! {
        #function

        #[doc(hidden)]
        const _: () = {
            use #krate as #crate_alias;
            #items
        };
    }
}

/// `const __MCP_TYPE_<i>_<fn>: ParamType<T>`: the one place that requires `ToolParam`, so a type
/// that is not one gets one error, on the type.
pub(crate) fn param_type_const(names: &Names, index: usize, param: &Param) -> TokenStream {
    let p = names.private();
    let ident = names.param_type(index);
    let ty = &param.value_ty;
    quote_spanned! {ty.span()=>
        const #ident: #p::ParamType<#ty> = #p::param_type::<#ty>();
    }
}

/// A constant that fails to compile when two parameters are `Context`s: only their types
/// tell, through any alias, so the check is on the kinds their types give.
pub(crate) fn at_most_one_context(
    params: &[Param],
    function: &syn::ItemFn,
    names: &Names,
) -> Option<TokenStream> {
    if params.len() < 2 {
        return None;
    }
    // Every token on the parameter list, so that the error points there.
    let span = function.sig.paren_token.span.join();
    let krate = Ident::new(&names.krate.to_string(), span);
    let kinds = (0..params.len()).map(|index| {
        let param_type = names.param_type(index);
        quote_spanned!(span=> #param_type.kind)
    });
    Some(quote_spanned! {span=>
        const _: () = #krate::__private::at_most_one_context(&[#(#kinds),*]);
    })
}

/// `static __MCP_PATTERN_<i>_<fn>: Pattern`, compiled on first use.
pub(crate) fn pattern_static(names: &Names, index: usize, param: &Param) -> Option<TokenStream> {
    let p = names.private();
    let ident = names.pattern(index);
    let pattern = param.pattern.as_ref()?;
    Some(quote!(static #ident: #p::Pattern = #p::Pattern::new(#pattern);))
}

/// The default's value, and its JSON for the schema; errors land on the expression.
pub(crate) fn default_fns(names: &Names, index: usize, param: &Param) -> Option<TokenStream> {
    let Read::Defaulted(DefaultValue { expr, into }) = &param.read else {
        return None;
    };
    let p = names.private();
    let value_fn = names.default_value(index);
    let json_fn = names.default_json(index);
    let ty = &param.ty;
    let value = if *into {
        quote!(::core::convert::Into::into(#expr))
    } else {
        quote!(#expr)
    };
    Some(quote_spanned! {expr.span()=>
        fn #value_fn() -> #ty {
            #value
        }
        fn #json_fn() -> #p::serde_json::Value {
            #p::serde_json::to_value(#value_fn())
                .unwrap_or(#p::serde_json::Value::Null)
        }
    })
}

/// One entry of the parameter table: what the schema and the checks read.
pub(crate) fn param_spec(names: &Names, index: usize, param: &Param) -> TokenStream {
    let p = names.private();
    let name = param.ident.to_string();
    let description = option_str(param.doc.as_deref());
    let required = matches!(param.read, Read::Required);
    let param_type = names.param_type(index);
    let range = param.range.map(|range| (range.min, range.max));
    let (minimum, maximum) = range.unwrap_or_default();
    let (minimum, maximum) = (option_bound(&p, minimum), option_bound(&p, maximum));
    let length = param.length.map(|length| (length.min, length.max));
    let (min_length, max_length) = length.unwrap_or_default();
    let (min_length, max_length) = (option_u64(min_length), option_u64(max_length));
    let pattern = match &param.pattern {
        Some(_) => {
            let pattern = names.pattern(index);
            quote!(::core::option::Option::Some(&#pattern))
        }
        None => quote!(::core::option::Option::None),
    };
    let default = match &param.read {
        Read::Defaulted(_) => {
            let json_fn = names.default_json(index);
            quote!(::core::option::Option::Some(#json_fn))
        }
        Read::Required | Read::Optional => quote!(::core::option::Option::None),
    };
    let header = option_str(param.header.as_ref().map(syn::LitStr::value).as_deref());
    let leniency = match param.leniency {
        Leniency::Server => quote!(#p::Leniency::Server),
        Leniency::Lenient => quote!(#p::Leniency::Lenient),
        Leniency::Strict => quote!(#p::Leniency::Strict),
    };
    quote! {
        #p::ParamSpec {
            name: #name,
            kind: #param_type.kind,
            description: #description,
            required: #required,
            schema: #param_type.schema,
            minimum: #minimum,
            maximum: #maximum,
            min_length: #min_length,
            max_length: #max_length,
            pattern: #pattern,
            default: #default,
            header: #header,
            leniency: #leniency,
        }
    }
}

/// `let __mcp_arg_<i> = __mcp_args.required(..)` (or `optional`, `defaulted`).
pub(crate) fn reader_statement(names: &Names, index: usize, param: &Param) -> TokenStream {
    let args = &names.args;
    let slot = names.slot(index);
    let param_type = names.param_type(index);
    let span = param.value_ty.span();
    let read = match &param.read {
        Read::Required => quote_spanned!(span=> #args.required(#index, #param_type)),
        Read::Optional => quote_spanned!(span=> #args.optional(#index, #param_type)),
        Read::Defaulted(_) => {
            let value_fn = names.default_value(index);
            quote_spanned!(span=> #args.defaulted(#index, #param_type, #value_fn))
        }
    };
    quote!(let #slot = #read;)
}

/// The `range`, `length` and `pattern` checks of a read argument. Each requires its
/// runtime trait on the type, so a constraint that does not fit it is an error there.
pub(crate) fn checks(names: &Names, index: usize, param: &Param) -> Option<TokenStream> {
    let (args, value) = (&names.args, &names.value);
    let ty = &param.value_ty;
    let span = ty.span();
    let mut checks = Vec::new();
    if param.range.is_some() {
        checks.push(quote_spanned!(span=> #args.check_range::<#ty>(#index, #value);));
    }
    if param.length.is_some() {
        checks.push(quote_spanned!(span=> #args.check_length::<#ty>(#index, #value);));
    }
    if param.pattern.is_some() {
        checks.push(quote_spanned!(span=> #args.check_pattern::<#ty>(#index, #value);));
    }
    if checks.is_empty() {
        return None;
    }
    let slot = names.slot(index);
    let binding = match param.read {
        Read::Optional => {
            quote!(::core::option::Option::Some(::core::option::Option::Some(#value)))
        }
        Read::Required | Read::Defaulted(_) => quote!(::core::option::Option::Some(#value)),
    };
    Some(quote! {
        if let #binding = &#slot {
            #(#checks)*
        }
    })
}

/// `fn __mcp_output_<fn>() -> OutputSpec<R>`: the ladder of the runtime's kind traits picks
/// how the return type becomes a result; a type that fits none is an error on it.
fn output_fn(tool: &Tool, names: &Names) -> TokenStream {
    let p = names.private();
    let output = &names.output;
    let ty = &tool.output.ty;
    if let Some((value, error)) = &tool.output.result {
        // Each half probed on its own tokens: a missing trait is reported on its type.
        let (value_span, error_span) = (value.span(), error.span());
        let value = quote_spanned!(value_span=> (&&#p::Probe::<#value>::new()).__mcp_value());
        let error = quote_spanned!(error_span=> (&&#p::Probe::<#error>::new()).__mcp_error());
        let (v, e, g) = (
            names.value.clone(),
            names.failure.clone(),
            names.generator.clone(),
        );
        let schema = quote_spanned!(value_span=> #value.schema(#g));
        let convert = quote_spanned!(value_span=> #value.convert(#v));
        let fail = quote_spanned!(error_span=> #error.fail(#e));
        return quote! {
            fn #output() -> #p::OutputSpec<#ty> {
                // Only the kind trait that fits the type is called; the others go unused.
                #[allow(unused_imports)]
                use #p::{
                    ContentValueKind as _, DisplayErrorKind as _, StdErrorKind as _,
                    StructuredValueKind as _,
                };
                #p::OutputSpec {
                    schema: |#g| #schema,
                    convert: |#v| match #v {
                        ::core::result::Result::Ok(#v) => #convert,
                        ::core::result::Result::Err(#e) => ::core::result::Result::Err(#fail),
                    },
                }
            }
        };
    }
    quote_spanned! {tool.output.span=>
        fn #output() -> #p::OutputSpec<#ty> {
            // Only the kind trait that fits the type is called; the others go unused.
            #[allow(unused_imports)]
            use #p::{
                ContentKind as _, ContentResultKind as _, ErrorResultKind as _, ResultKind as _,
                StructuredKind as _,
            };
            (&&&&&#p::Probe::<#ty>::new()).__mcp_output()
        }
    }
}

/// `fn __mcp_output_schema_<fn>(..)`: the output schema, if the return type has one.
fn output_schema_fn(names: &Names) -> TokenStream {
    let p = names.private();
    let (output, output_schema, generator) =
        (&names.output, &names.output_schema, &names.generator);
    quote! {
        fn #output_schema(
            #generator: &mut #p::schemars::SchemaGenerator,
        ) -> ::core::option::Option<#p::schemars::Schema> {
            (#output().schema)(#generator)
        }
    }
}

/// `fn __mcp_call_<fn>(..)`: reads and checks every argument, then calls the function.
fn call_adapter(tool: &Tool, names: &Names) -> TokenStream {
    let p = names.private();
    let output = &names.output;
    call_fn(
        &tool.params,
        &tool.function,
        names,
        quote!(#p::ToolFuture),
        quote!(#output().convert),
    )
}

/// The call adapter of any function: its future is `future`, and `convert` turns the
/// function's result into what that future yields.
pub(crate) fn call_fn(
    params: &[Param],
    function: &syn::ItemFn,
    names: &Names,
    future: TokenStream,
    convert: TokenStream,
) -> TokenStream {
    let p = names.private();
    let (call, input, args, failure) = (&names.call, &names.input, &names.args, &names.failure);
    let params_static = &names.params;
    let indexed = params.iter().enumerate();
    let reads = indexed
        .clone()
        .map(|(i, param)| reader_statement(names, i, param));
    let checks = indexed.filter_map(|(i, param)| checks(names, i, param));
    let args_mut = if params.is_empty() {
        quote!()
    } else {
        quote!(mut)
    };
    let unpack = unpack_statement(params, names);
    let invocation = invocation(function, params.len(), names, convert);
    quote! {
        fn #call(#input: &#p::CallInput<'_>) -> #future {
            let #args_mut #args = #p::ArgReader::new(#input, &#params_static);
            #(#reads)*
            #(#checks)*
            if let ::core::result::Result::Err(#failure) = #args.finish() {
                return #p::fail(#failure);
            }
            #unpack
            #invocation
        }
    }
}

/// `let (Some(__mcp_value_0), ..) = (__mcp_arg_0, ..) else { .. };`
pub(crate) fn unpack_statement(params: &[Param], names: &Names) -> TokenStream {
    if params.is_empty() {
        return quote!();
    }
    let p = names.private();
    let slots = (0..params.len()).map(|i| names.slot(i));
    let values = (0..params.len()).map(|i| names.value_at(i));
    quote! {
        let (#(::core::option::Option::Some(#values),)*) = (#(#slots,)*) else {
            return #p::fail(#p::Failure::inconsistent_arguments());
        };
    }
}

/// The call of the user's function, sync or async, its result converted.
fn invocation(
    function: &syn::ItemFn,
    count: usize,
    names: &Names,
    convert: TokenStream,
) -> TokenStream {
    let p = names.private();
    let (function_name, input) = (&names.function, &names.input);
    let values = (0..count).map(|i| names.value_at(i));
    match &function.sig.asyncness {
        Some(asyncness) => quote_spanned! {asyncness.span()=>
            #p::async_reply(#convert, #function_name(#(#values),*))
        },
        None => quote! {
            #p::sync_reply(#input, #convert, move || #function_name(#(#values),*))
        },
    }
}

/// The parameter items of a function: each parameter's type constant, pattern and
/// default, the parameter table, and the check that at most one is a `Context`.
pub(crate) fn param_items(params: &[Param], function: &syn::ItemFn, names: &Names) -> TokenStream {
    let p = names.private();
    let params_static = &names.params;
    let count = params.len();
    let items = params.iter().enumerate().map(|(index, param)| {
        let param_type = param_type_const(names, index, param);
        let pattern = pattern_static(names, index, param);
        let default = default_fns(names, index, param);
        quote!(#param_type #pattern #default)
    });
    let specs = params.iter().enumerate();
    let specs = specs.map(|(index, param)| param_spec(names, index, param));
    let one_context = at_most_one_context(params, function, names);
    quote! {
        #(#items)*
        static #params_static: [#p::ParamSpec; #count] = [#(#specs),*];
        #one_context
    }
}

/// `inventory::submit!` of the tool's entry, which the server collects.
fn registration(tool: &Tool, names: &Names) -> TokenStream {
    let p = names.private();
    let (krate, params, output_schema, call) = (
        &names.krate,
        &names.params,
        &names.output_schema,
        &names.call,
    );
    let (name, description) = (&tool.name, &tool.description);
    let title = option_str(tool.title.as_deref());
    let read_only = option_bool(tool.annotations.read_only);
    let destructive = option_bool(tool.annotations.destructive);
    let idempotent = option_bool(tool.annotations.idempotent);
    let open_world = option_bool(tool.annotations.open_world);
    let timeout_ms = option_u64(tool.timeout_ms);
    let schema = match tool.schema {
        SchemaDialect::Portable => quote!(#p::SchemaDialect::Portable),
        SchemaDialect::Draft2020_12 => quote!(#p::SchemaDialect::Draft2020_12),
    };
    let task = match tool.task {
        TaskSupport::Forbidden => quote!(#p::TaskSupport::Forbidden),
        TaskSupport::Optional => quote!(#p::TaskSupport::Optional),
        TaskSupport::Required => quote!(#p::TaskSupport::Required),
    };
    let task_in_body = tool.task_in_body;
    let (tags, icons, scopes) = (
        &tool.metadata.tags,
        &tool.metadata.icons,
        &tool.metadata.scopes,
    );
    let meta = option_str(tool.metadata.meta.as_deref());
    let here = names.function.span();
    let file = quote_spanned!(here=> ::core::file!());
    let line = quote_spanned!(here=> ::core::line!());
    let module_path = quote_spanned!(here=> ::core::module_path!());
    quote! {
        #p::inventory::submit! {
            #krate::ToolEntry::__new(#p::ToolSpec {
                name: #name,
                description: #description,
                title: #title,
                read_only: #read_only,
                destructive: #destructive,
                idempotent: #idempotent,
                open_world: #open_world,
                timeout_ms: #timeout_ms,
                schema: #schema,
                task: #task,
                task_in_body: #task_in_body,
                tags: &[#(#tags),*],
                scopes: &[#(#scopes),*],
                icons: &[#(#icons),*],
                meta: #meta,
                params: &#params,
                output_schema: #output_schema,
                call: #call,
                file: #file,
                line: #line,
                module_path: #module_path,
            })
        }
    }
}

pub(crate) fn option_str(value: Option<&str>) -> TokenStream {
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
