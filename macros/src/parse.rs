//! Parsing: the attribute's arguments (darling) and the function (syn).

use darling::FromMeta;
use darling::ast::NestedMeta;
use darling::util::Flag;
use proc_macro2::TokenStream;
use quote::quote;
use syn::ext::IdentExt as _;
use syn::{
    Attribute, Expr, ExprLit, FnArg, Ident, Item, ItemFn, Lit, LitInt, LitStr, Meta, Pat, PatType,
    Type,
};

use crate::errors::Errors;

/// `#[mcp_tool(...)]`'s arguments.
#[derive(Debug, Default, FromMeta)]
#[darling(default)]
pub(crate) struct ToolArgs {
    pub(crate) name: Option<LitStr>,
    pub(crate) description: Option<LitStr>,
    pub(crate) title: Option<LitStr>,
    pub(crate) read_only: Option<bool>,
    pub(crate) destructive: Option<bool>,
    pub(crate) idempotent: Option<bool>,
    pub(crate) open_world: Option<bool>,
    pub(crate) timeout: Option<LitStr>,
    /// `task = "optional"` or `"required"`: a call may run, or always runs, as a task.
    pub(crate) task: Option<LitStr>,
    /// `task_begins = "in_body"`: the call becomes a task where the body says.
    pub(crate) task_begins: Option<LitStr>,
    pub(crate) schema: Option<LitStr>,
    pub(crate) tags: Option<Vec<LitStr>>,
    pub(crate) icons: Option<Vec<LitStr>>,
    pub(crate) meta: Option<LitStr>,
    /// `scopes = ["files:read"]`: what an access token must grant to call it over HTTP.
    pub(crate) scopes: Option<Vec<LitStr>>,
    /// `lenient`: arguments sent as another JSON type are converted before the check.
    pub(crate) lenient: Flag,
    #[darling(rename = "crate")]
    pub(crate) krate: Option<syn::Path>,
}

/// `#[mcp_prompt(...)]`'s arguments.
#[derive(Debug, Default, FromMeta)]
#[darling(default)]
pub(crate) struct PromptArgs {
    pub(crate) name: Option<LitStr>,
    pub(crate) description: Option<LitStr>,
    pub(crate) title: Option<LitStr>,
    pub(crate) icons: Option<Vec<LitStr>>,
    pub(crate) meta: Option<LitStr>,
    pub(crate) scopes: Option<Vec<LitStr>>,
    #[darling(rename = "crate")]
    pub(crate) krate: Option<syn::Path>,
}

/// `#[mcp_resource(...)]`'s arguments.
#[derive(Debug, Default, FromMeta)]
#[darling(default)]
pub(crate) struct ResourceArgs {
    pub(crate) uri: Option<LitStr>,
    pub(crate) template: Option<LitStr>,
    pub(crate) name: Option<LitStr>,
    pub(crate) description: Option<LitStr>,
    pub(crate) title: Option<LitStr>,
    pub(crate) mime_type: Option<LitStr>,
    pub(crate) icons: Option<Vec<LitStr>>,
    pub(crate) meta: Option<LitStr>,
    pub(crate) scopes: Option<Vec<LitStr>>,
    #[darling(rename = "crate")]
    pub(crate) krate: Option<syn::Path>,
}

impl PromptArgs {
    /// Each key from `self`, or from `other` where `self` lacks it.
    pub(crate) fn or(self, other: Self) -> Self {
        Self {
            name: self.name.or(other.name),
            description: self.description.or(other.description),
            title: self.title.or(other.title),
            icons: self.icons.or(other.icons),
            meta: self.meta.or(other.meta),
            scopes: self.scopes.or(other.scopes),
            krate: self.krate.or(other.krate),
        }
    }
}

impl ResourceArgs {
    /// Each key from `self`, or from `other` where `self` lacks it.
    pub(crate) fn or(self, other: Self) -> Self {
        Self {
            uri: self.uri.or(other.uri),
            template: self.template.or(other.template),
            name: self.name.or(other.name),
            description: self.description.or(other.description),
            title: self.title.or(other.title),
            mime_type: self.mime_type.or(other.mime_type),
            icons: self.icons.or(other.icons),
            meta: self.meta.or(other.meta),
            scopes: self.scopes.or(other.scopes),
            krate: self.krate.or(other.krate),
        }
    }
}

/// `#[arg(...)]` on a parameter.
#[derive(Debug, Default, FromMeta)]
#[darling(default)]
pub(crate) struct ArgAttr {
    pub(crate) range: Option<Bounds<Expr>>,
    pub(crate) length: Option<Bounds<LitInt>>,
    pub(crate) pattern: Option<LitStr>,
    #[darling(with = darling::util::parse_expr::preserve_str_literal, map = Some)]
    pub(crate) default: Option<Expr>,
    /// `complete = a_function`: suggestions for a prompt argument or a template variable.
    pub(crate) complete: Option<syn::Path>,
    /// `header = "Region"`: the argument is mirrored in the `Mcp-Param-Region` HTTP header.
    pub(crate) header: Option<LitStr>,
    /// `lenient`: this argument sent as another JSON type is converted before the check.
    pub(crate) lenient: Flag,
    /// `strict`: this argument is never converted, in a lenient tool or on a lenient server.
    pub(crate) strict: Flag,
}

#[derive(Debug, FromMeta)]
pub(crate) struct Bounds<T: FromMeta> {
    #[darling(default)]
    pub(crate) min: Option<T>,
    #[darling(default)]
    pub(crate) max: Option<T>,
}

impl ToolArgs {
    /// Each key from `self`, or from `other` where `self` lacks it.
    pub(crate) fn or(self, other: Self) -> Self {
        Self {
            name: self.name.or(other.name),
            description: self.description.or(other.description),
            title: self.title.or(other.title),
            read_only: self.read_only.or(other.read_only),
            destructive: self.destructive.or(other.destructive),
            idempotent: self.idempotent.or(other.idempotent),
            open_world: self.open_world.or(other.open_world),
            timeout: self.timeout.or(other.timeout),
            task: self.task.or(other.task),
            task_begins: self.task_begins.or(other.task_begins),
            schema: self.schema.or(other.schema),
            tags: self.tags.or(other.tags),
            icons: self.icons.or(other.icons),
            meta: self.meta.or(other.meta),
            scopes: self.scopes.or(other.scopes),
            lenient: or_flag(self.lenient, other.lenient),
            krate: self.krate.or(other.krate),
        }
    }
}

/// `flag` when given, else `other`.
fn or_flag(flag: Flag, other: Flag) -> Flag {
    if flag.is_present() { flag } else { other }
}

impl ArgAttr {
    /// Each key from `self`, or from `other` where `self` lacks it.
    fn or(self, other: Self) -> Self {
        Self {
            range: self.range.or(other.range),
            length: self.length.or(other.length),
            pattern: self.pattern.or(other.pattern),
            default: self.default.or(other.default),
            complete: self.complete.or(other.complete),
            header: self.header.or(other.header),
            lenient: or_flag(self.lenient, other.lenient),
            strict: or_flag(self.strict, other.strict),
        }
    }
}

/// One parameter of the tool function.
#[derive(Debug)]
pub(crate) struct Param {
    pub(crate) ident: Ident,
    pub(crate) ty: Type,
    /// `T` of an `Option<T>` parameter.
    pub(crate) option_inner: Option<Type>,
    pub(crate) doc: Option<String>,
    pub(crate) arg: ArgAttr,
    /// The `#[arg(...)]` attribute, to point at.
    pub(crate) arg_attr: Option<Attribute>,
}

/// The whole tool (or prompt, or resource: `A` is its attribute's arguments), as parsed.
#[derive(Debug)]
pub(crate) struct Tool<A = ToolArgs> {
    pub(crate) args: A,
    /// The function with the attributes rustc does not accept on parameters removed.
    pub(crate) function: ItemFn,
    pub(crate) doc: Option<String>,
    pub(crate) params: Vec<Param>,
}

/// Parses the attribute `#[attribute(...)]` and the function, collecting every mistake;
/// `or` merges the keys that parse one by one when the list as a whole does not.
pub(crate) fn function<A: FromMeta + Default>(
    attribute: &str,
    args: TokenStream,
    item: TokenStream,
    errors: &mut Errors,
    or: fn(A, A) -> A,
) -> syn::Result<Tool<A>> {
    let mut function: ItemFn = syn::parse2(item.clone())
        .map_err(|error| not_a_function(attribute, item).unwrap_or(error))?;
    let args = match NestedMeta::parse_meta_list(args) {
        Ok(list) => from_list(&list, errors, or),
        Err(e) => {
            errors.push(e);
            A::default()
        }
    };
    let doc = doc_text(&function.attrs);
    let params = (function.sig.inputs.iter_mut())
        .filter_map(|input| match input {
            FnArg::Typed(pat_type) => param(pat_type, errors),
            // Validation reports a receiver.
            FnArg::Receiver(_) => None,
        })
        .collect();
    Ok(Tool {
        args,
        function,
        doc,
        params,
    })
}

/// One parameter; its `#[arg(...)]` and doc comment taken off the function, where rustc
/// would reject the first.
fn param(pat_type: &mut PatType, errors: &mut Errors) -> Option<Param> {
    let doc = doc_text(&pat_type.attrs);
    let mut arg = ArgAttr::default();
    let mut arg_attr = None;
    let mut kept = Vec::new();
    for attr in std::mem::take(&mut pat_type.attrs) {
        if attr.path().is_ident("doc") {
            continue;
        }
        if !attr.path().is_ident("arg") {
            kept.push(attr);
        } else if arg_attr.is_some() {
            errors.push(syn::Error::new_spanned(
                &attr,
                "duplicate `#[arg(...)]`: put every constraint in one attribute",
            ));
        } else {
            arg = arg_attr_of(&attr, errors);
            arg_attr = Some(attr);
        }
    }
    pat_type.attrs = kept;
    let Pat::Ident(pat_ident) = pat_type.pat.as_ref() else {
        errors.push(syn::Error::new_spanned(
            &pat_type.pat,
            "a tool parameter needs a plain name: its name is the argument's name",
        ));
        return None;
    };
    let ty = (*pat_type.ty).clone();
    Some(Param {
        ident: Ident::new(&pat_ident.ident.unraw().to_string(), pat_ident.ident.span()),
        option_inner: option_inner(&ty).cloned(),
        ty,
        doc,
        arg,
        arg_attr,
    })
}

/// The keys of an attribute. When the list fails as a whole (an unknown key, a malformed
/// value), its errors are reported and every key that parses on its own is still kept, so
/// the checks on those keys run too and a valid `description` is not reported missing.
fn from_list<T: FromMeta + Default>(
    list: &[NestedMeta],
    errors: &mut Errors,
    or: fn(T, T) -> T,
) -> T {
    match T::from_list(list) {
        Ok(parsed) => parsed,
        Err(error) => {
            errors.push_darling(error);
            list.iter()
                .filter_map(|item| T::from_list(std::slice::from_ref(item)).ok())
                .fold(T::default(), or)
        }
    }
}

/// `#[arg(...)]`'s keys.
fn arg_attr_of(attr: &Attribute, errors: &mut Errors) -> ArgAttr {
    let list = match &attr.meta {
        Meta::List(list) => NestedMeta::parse_meta_list(list.tokens.clone()),
        // `#[arg]` or `#[arg = ..]`: darling says how to write it.
        _ => {
            if let Err(error) = ArgAttr::from_meta(&attr.meta) {
                errors.push_darling(error);
            }
            return ArgAttr::default();
        }
    };
    match list {
        Ok(list) => from_list(&list, errors, ArgAttr::or),
        Err(error) => {
            errors.push(error);
            ArgAttr::default()
        }
    }
}

/// The error for an item that parses, but not as a function: on its keyword and name.
fn not_a_function(attribute: &str, item: TokenStream) -> Option<syn::Error> {
    let (what, tokens) = match syn::parse2::<Item>(item).ok()? {
        Item::Fn(_) => return None,
        Item::Struct(item) => {
            let (keyword, name) = (item.struct_token, item.ident);
            ("a struct", quote!(#keyword #name))
        }
        Item::Enum(item) => {
            let (keyword, name) = (item.enum_token, item.ident);
            ("an enum", quote!(#keyword #name))
        }
        Item::Impl(item) => {
            let (keyword, self_ty) = (item.impl_token, item.self_ty);
            ("an `impl` block", quote!(#keyword #self_ty))
        }
        Item::Trait(item) => {
            let (keyword, name) = (item.trait_token, item.ident);
            ("a trait", quote!(#keyword #name))
        }
        Item::Mod(item) => {
            let (keyword, name) = (item.mod_token, item.ident);
            ("a module", quote!(#keyword #name))
        }
        Item::Const(item) => {
            let (keyword, name) = (item.const_token, item.ident);
            ("a constant", quote!(#keyword #name))
        }
        Item::Static(item) => {
            let (keyword, name) = (item.static_token, item.ident);
            ("a static", quote!(#keyword #name))
        }
        _ => return None,
    };
    Some(syn::Error::new_spanned(
        tokens,
        format!(
            "`#[{attribute}]` goes on a function, and this is {what}: write the {noun} as a \
             free `fn` whose parameters are the {noun}'s arguments",
            noun = attribute.trim_start_matches("mcp_")
        ),
    ))
}

/// The doc comment, lines joined into paragraphs.
fn doc_text(attrs: &[Attribute]) -> Option<String> {
    let mut lines = Vec::new();
    for attr in attrs {
        if let Meta::NameValue(nv) = &attr.meta
            && nv.path.is_ident("doc")
            && let Expr::Lit(ExprLit {
                lit: Lit::Str(text),
                ..
            }) = &nv.value
        {
            lines.push(text.value());
        }
    }
    let mut text = String::new();
    let mut blank = false;
    for line in lines.iter().flat_map(|l| l.lines()) {
        let line = line.trim();
        if line.is_empty() {
            blank = !text.is_empty();
            continue;
        }
        if blank {
            text.push_str("\n\n");
            blank = false;
        } else if !text.is_empty() {
            text.push(' ');
        }
        text.push_str(line);
    }
    (!text.is_empty()).then_some(text)
}

/// `T` of `Option<T>` (also written `std::option::Option<T>` or `core::option::Option<T>`).
fn option_inner(ty: &Type) -> Option<&Type> {
    let Type::Path(path) = ty else {
        return None;
    };
    if path.qself.is_some() {
        return None;
    }
    let segments: Vec<String> = path
        .path
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    let is_option = match segments.as_slice() {
        [one] => one == "Option",
        [std, option, name] => {
            (std == "std" || std == "core") && option == "option" && name == "Option"
        }
        _ => false,
    };
    if !is_option {
        return None;
    }
    let syn::PathArguments::AngleBracketed(args) = &path.path.segments.last()?.arguments else {
        return None;
    };
    match args.args.first() {
        Some(syn::GenericArgument::Type(inner)) if args.args.len() == 1 => Some(inner),
        _ => None,
    }
}
