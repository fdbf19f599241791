//! rmcp, the official SDK, in every generation from 0.1 to 3.x (sdk-error-apis.md §1).

use std::collections::HashSet;

use syn::{Expr, ExprCall, ExprStruct, GenericArgument, PathArguments, ReturnType, Type};

use super::content::{call_path, is_true};
use super::{
    roots_of, CodeUse, Construction, Dialect, ErrChannel, FixVocabulary, HandlerKind, Reader,
    ReturnFacts, Sdk, Version,
};
use crate::index::{FnItem, Index, Owner};
use crate::syntax::path_segments as segments;
use crate::syntax::{has_attr, type_name};

/// rmcp's crates.
pub static SDK: Sdk = Sdk {
    name: "rmcp",
    roots: &["rmcp"],
    reader: Reader::Code(|index, version| {
        Box::new(Rmcp {
            names: Names::resolve(index, version),
            version,
        })
    }),
};

/// A crate's rmcp: the version its manifest names and its names for rmcp's types.
#[derive(Debug)]
pub struct Rmcp {
    version: Option<Version>,
    names: Names,
}

impl Dialect for Rmcp {
    fn name(&self) -> &'static str {
        SDK.name
    }

    fn claims(&self, imports: &mut dyn Iterator<Item = &Vec<String>>) -> bool {
        roots_of(SDK.roots, imports)
    }

    fn handler_kind(&self, f: &FnItem<'_>) -> Option<HandlerKind> {
        handler_kind(f)
    }

    fn handler_closure<'e>(&self, call: &'e ExprCall) -> Option<&'e Expr> {
        handler_closure(call)
    }

    fn return_facts(
        &self,
        kind: Option<HandlerKind>,
        ret: &ReturnType,
        index: &Index<'_>,
    ) -> ReturnFacts {
        return_facts(&self.names, kind, ret, index)
    }

    /// `Content::json(v)` (every content type's `json`): `serde_json::to_string` of `v`,
    /// `internal_error("fail to serialize response to json", ..)` on failure.
    fn is_serializing_fn(&self, path: &[String]) -> bool {
        matches!(path, [.., ty, f] if f == "json" && ["Content", "ContentBlock", "RawContent"].contains(&ty.as_str()))
    }

    fn is_protocol_error_type(&self, ty: &Type) -> bool {
        self.names.is_error_type(ty)
    }

    fn is_tool_result_type(&self, ty: &Type, _index: &Index<'_>) -> bool {
        crate::syntax::type_name(ty).is_some_and(|n| RESULT_TYPES.contains(&n.as_str()))
    }

    /// A crate type with `impl IntoContents`: `.map_err(ToolError::from)` makes the error one.
    fn is_tool_error_type_name(&self, name: &str) -> bool {
        self.names.content_error_types.contains(name)
    }

    fn construction_of_call<'e>(
        &self,
        call: &'e ExprCall,
        index: &Index<'_>,
        _returns: &ReturnFacts,
    ) -> Option<Construction<'e>> {
        construction_of_call(&self.names, call, index)
    }

    fn construction_of_struct<'e>(
        &self,
        s: &'e ExprStruct,
        index: &Index<'_>,
    ) -> Option<Construction<'e>> {
        construction_of_struct(&self.names, s, index)
    }

    /// rmcp wraps codes in `ErrorCode`; a bare integer is not one.
    fn bare_codes(&self) -> bool {
        false
    }

    fn code_use(&self, expr: &Expr, index: &Index<'_>) -> Option<CodeUse> {
        code_use(expr, index)
    }

    fn is_code_constant(&self, path: &syn::Path) -> bool {
        matches!(segments(path).as_slice(), [.., ty, _] if ty == "ErrorCode")
    }

    /// rmcp ≥ 1.8 rewrites it to -32602 for 2026-07-28 peers, and older rmcp cannot negotiate
    /// 2026-07-28 at all (its peers still expect -32002).
    fn named_resource_not_found_fits_peer(&self) -> bool {
        true
    }

    fn tool_error_snippet(&self, message: &str, dispatcher: bool) -> String {
        tool_error_snippet(&self.names, message, dispatcher)
    }

    /// `RequestContext<RoleServer>` (its `peer`, `ct`, `meta` and `extensions`), and the HTTP
    /// request's `Parts` the streamable HTTP transport puts in its extensions (also taken as a
    /// tool parameter, `Extension(parts): Extension<http::request::Parts>`): the request's own
    /// data, not an argument the model wrote.
    fn is_request_context_type(&self, path: &[String]) -> bool {
        let last = |name: &str| path.last().is_some_and(|l| l == name);
        match path.first().map(String::as_str) {
            // The context, and the client's `Peer` it carries (a helper given `&Peer<RoleServer>`
            // makes round trips to the client: notifications, sampling, roots).
            Some("rmcp") => last("RequestContext") || last("Peer"),
            Some("http" | "axum" | "actix_web") => {
                last("Parts") && path.iter().any(|s| s == "request")
            }
            _ => false,
        }
    }

    fn unknown_tool_snippet(&self, name_binding: &str) -> String {
        unknown_tool_snippet(&self.names, name_binding)
    }

    fn fix_vocabulary(&self) -> Option<FixVocabulary> {
        Some(fix_vocabulary(&self.names, self.version))
    }
}

/// Names this crate uses for rmcp's types.
#[derive(Clone, Debug)]
struct Names {
    /// Local names of `rmcp::ErrorData` (`McpError`, `ErrorData`, `rmcp::Error`'s alias…).
    error_types: HashSet<String>,
    /// The alias users write, for help texts.
    display_error: String,
    /// `ContentBlock` (rmcp 2+) rather than `Content`.
    content_block: bool,
    /// rmcp 3.x: `call_tool` returns `CallToolResponse`, results need `.into()`.
    response_wrapper: bool,
    /// Crate types with an `impl IntoContents` (`struct ToolError(ErrorData)`): a `#[tool]`'s
    /// `Err` of such a type is an isError result whose content that impl builds.
    content_error_types: HashSet<String>,
}

/// Constructors on `ErrorData`: name → (code, index of the message argument).
const PROTOCOL_CONSTRUCTORS: &[(&str, i64, Option<usize>)] = &[
    ("internal_error", -32603, Some(0)),
    ("invalid_params", -32602, Some(0)),
    ("invalid_request", -32600, Some(0)),
    ("parse_error", -32700, Some(0)),
    ("resource_not_found", -32002, Some(0)),
    ("url_elicitation_required", -32042, Some(0)),
    ("header_mismatch", -32020, Some(0)),
    ("unsupported_protocol_version", -32022, None),
    ("missing_required_client_capability", -32021, None),
    ("method_not_found", -32601, None),
];

/// `ErrorCode::NAME` constants and their values (all generations).
const CODE_CONSTANTS: &[(&str, i64)] = &[
    ("PARSE_ERROR", -32700),
    ("INVALID_REQUEST", -32600),
    ("METHOD_NOT_FOUND", -32601),
    ("INVALID_PARAMS", -32602),
    ("INTERNAL_ERROR", -32603),
    ("RESOURCE_NOT_FOUND", -32002),
    ("URL_ELICITATION_REQUIRED", -32042),
    ("HEADER_MISMATCH", -32020),
    ("MISSING_REQUIRED_CLIENT_CAPABILITY", -32021),
    ("UNSUPPORTED_PROTOCOL_VERSION", -32022),
];

/// Error types of `#[tool]` fns that rmcp turns into isError results (`IntoContents` and
/// friends, sdk-error-apis.md §1.5).
const TOOL_ERROR_TYPES: &[&str] = &[
    "String",
    "Content",
    "ContentBlock",
    "CallToolResult",
    "Json",
    "()",
];

const RESULT_TYPES: &[&str] = &["CallToolResult"];

impl Names {
    fn resolve(index: &Index<'_>, version: Option<Version>) -> Names {
        let mut error_types = HashSet::new();
        let mut display = None;
        for (local, path) in index.all_imports() {
            let rooted = path.first().is_some_and(|s| s == "rmcp");
            let last = path.last().map(String::as_str);
            let is_error =
                rooted && (last == Some("ErrorData") || (last == Some("Error") && path.len() == 2));
            if is_error {
                error_types.insert(local.clone());
                if local != "ErrorData" || display.is_none() {
                    display = Some(local.clone());
                }
            }
        }
        if index
            .all_globs()
            .any(|g| g.first().is_some_and(|s| s == "rmcp"))
        {
            error_types.insert("ErrorData".to_string());
        }
        // The conventional names, unless the crate defines a type of its own by that name.
        for conventional in ["McpError", "ErrorData"] {
            if !index.local_types.contains(conventional) {
                error_types.insert(conventional.to_string());
            }
        }
        // `type AppError = McpError;` and chains of such aliases.
        loop {
            let before = error_types.len();
            for (name, ty) in &index.type_aliases {
                if type_name(ty).is_some_and(|n| error_types.contains(&n)) {
                    error_types.insert(name.clone());
                }
            }
            if error_types.len() == before {
                break;
            }
        }
        let imports_name = |n: &str| {
            index
                .all_imports()
                .any(|(local, p)| local == n && p.first().is_some_and(|s| s == "rmcp"))
        };
        let content_block = match version {
            Some(v) => v.major >= 2,
            None => imports_name("ContentBlock") || !imports_name("Content"),
        };
        let response_wrapper = match version {
            Some(v) => v.major >= 3,
            None => imports_name("CallToolResponse"),
        };
        Names {
            error_types,
            display_error: display.unwrap_or_else(|| "McpError".to_string()),
            content_block,
            response_wrapper,
            content_error_types: content_error_types(index),
        }
    }

    /// A path whose last segment is this can name the error type ([`Self::is_error_path`]).
    fn may_be_error_name(&self, last: Option<&syn::PathSegment>) -> bool {
        last.is_some_and(|s| {
            s.ident == "ErrorData"
                || s.ident == "Error"
                || self.error_types.iter().any(|name| s.ident == name)
        })
    }

    /// A path names the error type: a local alias, or a qualified `rmcp::…::ErrorData`.
    fn is_error_path(&self, segments: &[String]) -> bool {
        match segments {
            [] => false,
            [one] => self.error_types.contains(one),
            [first, .., last] => {
                (first == "rmcp" && (last == "ErrorData" || last == "Error"))
                    || (first != "rmcp" && self.error_types.contains(last) && last != "Error")
                    || (first == "crate" || first == "self" || first == "super")
                        && self.error_types.contains(last)
            }
        }
    }

    fn is_error_type(&self, ty: &Type) -> bool {
        match ty {
            // Most types are none of these names: ruled out without allocating the path.
            Type::Path(p) if !self.may_be_error_name(p.path.segments.last()) => false,
            Type::Path(p) => self.is_error_path(&segments(&p.path)),
            Type::Paren(p) => self.is_error_type(&p.elem),
            Type::Group(g) => self.is_error_type(&g.elem),
            _ => false,
        }
    }

    fn content_type(&self) -> &'static str {
        if self.content_block {
            "ContentBlock"
        } else {
            "Content"
        }
    }
}

/// Crate types that implement rmcp's `IntoContents`: the impl names the trait by an rmcp path
/// (`rmcp::model::IntoContents`, or a first segment the file imports from rmcp), or by its bare
/// name imported from rmcp by name or by a glob. rmcp's `IntoCallToolResult for Result<T, E:
/// IntoContents>` makes such an `Err` an isError result (sdk-error-apis.md §1.3).
fn content_error_types(index: &Index<'_>) -> HashSet<String> {
    let from_rmcp = |path: &[String]| path.first().is_some_and(|s| s == "rmcp");
    index
        .fns
        .iter()
        .filter_map(|f| {
            let Owner::Trait { self_ty, .. } = &f.owner else {
                return None;
            };
            let path = segments(f.trait_path?);
            let (first, last) = (path.first()?, path.last()?);
            if last != "IntoContents" || !index.local_types.contains(self_ty) {
                return None;
            }
            let imported = |name: &str| index.resolve_name(f.file, name).is_some_and(from_rmcp);
            let rmcp = match path.len() {
                1 => {
                    imported(first)
                        || index
                            .imports
                            .get(f.file.0)
                            .is_some_and(|i| i.globs.iter().any(|g| from_rmcp(g)))
                }
                _ => first == "rmcp" || imported(first),
            };
            rmcp.then(|| self_ty.clone())
        })
        .collect()
}

/// `#[tool]` fns, `ServerHandler::call_tool`, trait tools and the other handler methods.
fn handler_kind(f: &FnItem<'_>) -> Option<HandlerKind> {
    if has_attr(f.attrs, "tool") {
        return Some(HandlerKind::Tool);
    }
    if has_attr(f.attrs, "prompt") || has_attr(f.attrs, "resource") {
        return Some(HandlerKind::Other);
    }
    match &f.owner {
        Owner::Trait { trait_name, .. } if trait_name == "ServerHandler" => {
            // rust-mcp-sdk's trait of the same name uses `handle_*` methods; only rmcp's
            // `call_tool` (with the request params as an argument) is the dispatcher.
            if f.name == "call_tool" && f.sig.inputs.len() >= 2 {
                Some(HandlerKind::Dispatcher)
            } else {
                Some(HandlerKind::Other)
            }
        }
        Owner::Trait { trait_name, .. }
            if (trait_name == "SyncTool" || trait_name == "AsyncTool") && f.name == "invoke" =>
        {
            Some(HandlerKind::Tool)
        }
        _ => None,
    }
}

/// `ToolRoute::new_dyn(attr, |ctx| Box::pin(async move { .. }))`, `ToolRoute::new(attr, |..| ..)`
/// and 0.1's `ToolBoxItem::new(attr, |ctx| ..)`: the closure is the tool.
fn handler_closure(call: &ExprCall) -> Option<&Expr> {
    let Expr::Path(p) = &*call.func else {
        return None;
    };
    let segs = segments(&p.path);
    let n = segs.len();
    let registers = n >= 2
        && matches!(
            (segs[n - 2].as_str(), segs[n - 1].as_str()),
            ("ToolRoute", "new_dyn") | ("ToolRoute", "new") | ("ToolBoxItem", "new")
        );
    if !registers {
        return None;
    }
    call.args.iter().find(|a| matches!(a, Expr::Closure(_)))
}

/// The `Ok` and `Err` types of `Result<T, E>` (through local type aliases).
fn result_types<'t>(
    ty: &'t Type,
    index: &Index<'t>,
    depth: usize,
) -> Option<(Option<&'t Type>, Option<&'t Type>)> {
    let Type::Path(p) = ty else { return None };
    let last = p.path.segments.last()?;
    let name = last.ident.to_string();
    let generic_types = |args: &'t PathArguments| -> Vec<&'t Type> {
        match args {
            PathArguments::AngleBracketed(a) => a
                .args
                .iter()
                .filter_map(|g| match g {
                    GenericArgument::Type(t) => Some(t),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        }
    };
    if name == "Result" {
        let args = generic_types(&last.arguments);
        return Some((args.first().copied(), args.get(1).copied()));
    }
    if depth < 4 {
        if let Some(alias) = index.type_aliases.get(&name) {
            let (ok, err) = result_types(alias, index, depth + 1)?;
            // `type R<T> = Result<T, McpError>` used as `R<String>`: the use's argument is the Ok.
            let used = generic_types(&last.arguments);
            let ok = match (ok, used.first()) {
                (Some(Type::Path(tp)), Some(u))
                    if tp.path.segments.len() == 1
                        && tp.path.segments[0].ident.to_string().len() == 1 =>
                {
                    Some(*u)
                }
                (ok, _) => ok,
            };
            return Some((ok, err));
        }
    }
    None
}

fn return_facts(
    names: &Names,
    kind: Option<HandlerKind>,
    ret: &ReturnType,
    index: &Index<'_>,
) -> ReturnFacts {
    let unknown = ReturnFacts::UNKNOWN;
    let ReturnType::Type(_, ty) = ret else {
        return unknown;
    };
    let ty = crate::syntax::unwrap_future(ty);
    // Text, a JSON value (`Json<T>` structured output, `serde_json::Value`) or one content
    // block (`Content`, made a success result whole), as the answer.
    let is_text = |t: Option<&Type>| {
        t.and_then(type_name).is_some_and(|n| {
            matches!(
                n.as_str(),
                "String" | "Json" | "Value" | "Content" | "ContentBlock"
            )
        })
    };
    let wraps = |t: Option<&Type>| {
        t.and_then(type_name)
            .is_some_and(|n| names.content_error_types.contains(&n))
    };
    let Some((ok, err)) = result_types(ty, index, 0) else {
        return ReturnFacts {
            ok_is_text: is_text(Some(ty)),
            wraps_protocol_errors: wraps(Some(ty)),
            ..unknown
        };
    };
    let err_name = err.and_then(type_name);
    let channel = match err {
        Some(e) if names.is_error_type(e) => ErrChannel::Protocol,
        // A crate type with `impl IntoContents`: an isError result wherever it reaches a tool's
        // `Err`, so also in the helpers that pass it up.
        err if wraps(err) => ErrChannel::ToolError,
        // Only rmcp's tool macros turn these into isError results; a plain helper returning
        // `Result<_, String>` just passes a value up.
        Some(_)
            if kind == Some(HandlerKind::Tool)
                && err_name
                    .as_deref()
                    .is_some_and(|n| TOOL_ERROR_TYPES.contains(&n)) =>
        {
            ErrChannel::ToolError
        }
        _ => ErrChannel::Unknown,
    };
    ReturnFacts {
        err: channel,
        err_is_unit: err_name.as_deref() == Some("()"),
        ok_is_text: is_text(ok),
        wraps_protocol_errors: wraps(err),
        ok_wrapper: None,
        catches_protocol_error: false,
    }
}

fn construction_of_call<'e>(
    names: &Names,
    call: &'e ExprCall,
    index: &Index<'_>,
) -> Option<Construction<'e>> {
    let segs = call_path(call)?;
    let (ty, method) = match segs.as_slice() {
        [.., ty, method] => (ty.as_str(), method.as_str()),
        _ => return None,
    };
    let arg = |i: usize| call.args.iter().nth(i);
    if RESULT_TYPES.contains(&ty) {
        let (is_error, never_empty) = match method {
            "error" => (true, false),
            "structured_error" => (true, true),
            "success" => (false, false),
            "structured" => (false, true),
            _ => return None,
        };
        return Some(Construction::ToolResult {
            constructor: format!("{ty}::{method}"),
            is_error,
            content: arg(0),
            never_empty,
        });
    }
    if !names.is_error_path(&segs[..segs.len() - 1]) {
        return None;
    }
    let constructor = format!("{ty}::{method}");
    if method == "new" {
        return Some(Construction::ProtocolError {
            constructor,
            code: arg(0).and_then(|c| code_use(c, index)).map(|c| c.value),
            message: arg(1),
        });
    }
    let (_, code, message) = PROTOCOL_CONSTRUCTORS
        .iter()
        .find(|(n, _, _)| *n == method)?;
    Some(Construction::ProtocolError {
        constructor,
        code: Some(*code),
        message: message.and_then(arg),
    })
}

fn construction_of_struct<'e>(
    names: &Names,
    s: &'e ExprStruct,
    index: &Index<'_>,
) -> Option<Construction<'e>> {
    let segs = segments(&s.path);
    let last = segs.last()?.as_str();
    let field = |name: &str| crate::syntax::field_value(s, name);
    if RESULT_TYPES.contains(&last) {
        let is_error = field("is_error").is_some_and(is_true);
        return Some(Construction::ToolResult {
            constructor: format!("{last} {{ .. }}"),
            is_error,
            content: field("content"),
            never_empty: false,
        });
    }
    if names.is_error_path(&segs) {
        return Some(Construction::ProtocolError {
            constructor: format!("{last} {{ .. }}"),
            code: field("code")
                .and_then(|c| code_use(c, index))
                .map(|c| c.value),
            message: field("message"),
        });
    }
    None
}

/// `ErrorCode(n)`, `ErrorCode(CONST)`, `ErrorCode::NAME`, in rmcp's `ErrorCode` type.
fn code_use(expr: &Expr, index: &Index<'_>) -> Option<CodeUse> {
    let written = quote::ToTokens::to_token_stream(expr)
        .to_string()
        .replace(' ', "");
    match expr {
        Expr::Call(c) if c.args.len() == 1 => {
            let Expr::Path(p) = &*c.func else { return None };
            if p.path.segments.last()?.ident != "ErrorCode" {
                return None;
            }
            let value = index.eval_int(&c.args[0])?;
            Some(CodeUse { value, written })
        }
        Expr::Path(p) => {
            let segs = segments(&p.path);
            match segs.as_slice() {
                [.., ty, name] if ty == "ErrorCode" => {
                    let value = CODE_CONSTANTS
                        .iter()
                        .find(|(n, _)| n == name)
                        .map(|(_, v)| *v)?;
                    Some(CodeUse { value, written })
                }
                // A crate const used where a code goes.
                [.., name] => index.consts.get(name).map(|c| CodeUse {
                    value: c.value,
                    written,
                }),
                [] => None,
            }
        }
        Expr::Paren(p) => code_use(&p.expr, index),
        _ => None,
    }
}

fn tool_error_snippet(names: &Names, message: &str, dispatcher: bool) -> String {
    let into = if dispatcher && names.response_wrapper {
        ".into()"
    } else {
        ""
    };
    format!(
        "Ok(CallToolResult::error(vec![{}::text({message})]){into})",
        names.content_type()
    )
}

fn unknown_tool_snippet(names: &Names, name_binding: &str) -> String {
    let simple = name_binding
        .chars()
        .all(|c| c.is_alphanumeric() || c == '_');
    let message = if simple {
        format!("format!(\"Unknown tool: {{{name_binding}}}\")")
    } else {
        format!("format!(\"Unknown tool: {{}}\", {name_binding})")
    };
    format!(
        "Err({}::invalid_params({message}, None))",
        names.display_error
    )
}

/// The names rmcp fixes write: `CallToolResult`, `ContentBlock` (2.x+) or `Content`, and the
/// crate's name for `ErrorData` (`rmcp::Error` before 0.3, which has no root `ErrorData`).
fn fix_vocabulary(names: &Names, version: Option<Version>) -> FixVocabulary {
    let model = |name: &str| super::SdkName {
        name: name.to_string(),
        path: vec!["rmcp".into(), "model".into(), name.into()],
    };
    let error_path: &[&str] = match version {
        Some(v) if v.major == 0 && v.minor < 3 => &["rmcp", "Error"],
        Some(_) => &["rmcp", "ErrorData"],
        None => &["rmcp", "model", "ErrorData"],
    };
    FixVocabulary {
        result: model("CallToolResult"),
        content: model(names.content_type()),
        error: super::SdkName {
            name: names.display_error.clone(),
            path: error_path.iter().map(|s| s.to_string()).collect(),
        },
        wrapped_results: vec!["CallToolResponse".to_string()],
        error_constructors: vec![
            ("success".to_string(), "error".to_string()),
            ("structured".to_string(), "structured_error".to_string()),
        ],
        tool_error: super::ToolErrorForm::OkResult,
        others: Vec::new(),
        result_aliases: Vec::new(),
        message_drops_into: true,
        unknown_tool: true,
        preludes: Vec::new(),
    }
}
