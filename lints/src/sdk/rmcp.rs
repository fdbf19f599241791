//! rmcp, the official SDK, in every generation from 0.1 to 3.x (sdk-error-apis.md §1).

use std::collections::HashSet;

use syn::{Expr, ExprCall, ExprStruct, GenericArgument, PathArguments, ReturnType, Type};

use super::{CodeUse, Construction, ContentFacts, ErrChannel, HandlerKind, ReturnFacts, Version};
use crate::index::{FnItem, Index, Owner};
use crate::source::SourceFile;
use crate::syntax::path_segments as segments;
use crate::syntax::{attr_name, has_attr, type_name};
use crate::text::{json_texts, message_from_expr, MessageText};

/// Names this crate uses for rmcp's types.
#[derive(Clone, Debug)]
pub struct Names {
    /// Local names of `rmcp::ErrorData` (`McpError`, `ErrorData`, `rmcp::Error`'s alias…).
    error_types: HashSet<String>,
    /// The alias users write, for help texts.
    display_error: String,
    /// `ContentBlock` (rmcp 2+) rather than `Content`.
    content_block: bool,
    /// rmcp 3.x: `call_tool` returns `CallToolResponse`, results need `.into()`.
    response_wrapper: bool,
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
    pub fn resolve(index: &Index<'_>, version: Option<Version>) -> Names {
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
        }
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

    pub fn is_error_type(&self, ty: &Type) -> bool {
        match ty {
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

/// `#[tool]` fns, `ServerHandler::call_tool`, trait tools and the other handler methods.
pub fn handler_kind(f: &FnItem<'_>) -> Option<HandlerKind> {
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
pub fn handler_closure(call: &ExprCall) -> Option<&Expr> {
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

pub fn return_facts(
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
    let is_text = |t: Option<&Type>| t.and_then(type_name).is_some_and(|n| n == "String");
    let Some((ok, err)) = result_types(ty, index, 0) else {
        return ReturnFacts {
            ok_is_text: is_text(Some(ty)),
            ..unknown
        };
    };
    let err_name = err.and_then(type_name);
    let channel = match err {
        Some(e) if names.is_error_type(e) => ErrChannel::Protocol,
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
    }
}

/// The last two segments of a call's path (`CallToolResult::error` → ("CallToolResult", "error")).
fn call_path(call: &ExprCall) -> Option<Vec<String>> {
    match &*call.func {
        Expr::Path(p) => Some(segments(&p.path)),
        _ => None,
    }
}

pub fn construction_of_call<'e>(
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

pub fn construction_of_struct<'e>(
    names: &Names,
    s: &'e ExprStruct,
    index: &Index<'_>,
) -> Option<Construction<'e>> {
    let segs = segments(&s.path);
    let last = segs.last()?.as_str();
    let field = |name: &str| {
        s.fields.iter().find_map(|f| match &f.member {
            syn::Member::Named(id) if id == name => Some(&f.expr),
            _ => None,
        })
    };
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

/// `true` or `Some(true)`.
pub fn is_true(expr: &Expr) -> bool {
    match expr {
        Expr::Lit(l) => matches!(&l.lit, syn::Lit::Bool(b) if b.value),
        Expr::Call(c) => {
            matches!(&*c.func, Expr::Path(p) if p.path.is_ident("Some"))
                && c.args.len() == 1
                && is_true(&c.args[0])
        }
        Expr::Paren(p) => is_true(&p.expr),
        _ => false,
    }
}

/// `vec![..]`, `Vec::new()`, `Some(vec![..])` (0.4–0.5) and their text blocks.
pub fn content_facts(expr: &Expr, file: &SourceFile) -> ContentFacts {
    match expr {
        Expr::Macro(m) if m.mac.path.is_ident("vec") => {
            let parsed = m.mac.parse_body_with(
                syn::punctuated::Punctuated::<Expr, syn::Token![,]>::parse_terminated,
            );
            let Ok(items) = parsed else {
                return ContentFacts::unknown();
            };
            let blocks: Vec<ContentFacts> = items.iter().map(|e| block_facts(e, file)).collect();
            ContentFacts {
                empty: blocks.iter().all(|b| b.empty),
                texts: blocks.into_iter().flat_map(|b| b.texts).collect(),
            }
        }
        Expr::Call(c) => match &*c.func {
            Expr::Path(p)
                if c.args.is_empty()
                    && matches!(segments(&p.path).as_slice(), [.., ty, m] if ty == "Vec" && (m == "new" || m == "default")) =>
            {
                ContentFacts {
                    empty: true,
                    texts: Vec::new(),
                }
            }
            Expr::Path(p) if p.path.is_ident("Some") && c.args.len() == 1 => {
                content_facts(&c.args[0], file)
            }
            // A text argument (`CallToolError::from_message(..)`, `ToolResult::error(..)`).
            _ => error_value_text(expr, file),
        },
        Expr::Paren(p) => content_facts(&p.expr, file),
        // `structured_error(json!({"error": ".."}))`: the value is serialised as the text.
        Expr::Macro(m) if m.mac.path.is_ident("json") => ContentFacts {
            empty: false,
            texts: json_texts(&m.mac, file),
        },
        // A text argument: a literal, `format!(..)`, `"..".to_string()`.
        Expr::Macro(_) | Expr::Lit(_) | Expr::MethodCall(_) | Expr::Reference(_) => {
            error_value_text(expr, file)
        }
        _ => ContentFacts::unknown(),
    }
}

/// One content block: `ContentBlock::text(..)`, `Content::text(..)`, `RawContent::text(..)
/// .no_annotation()`, `x.into()`.
fn block_facts(expr: &Expr, file: &SourceFile) -> ContentFacts {
    match expr {
        Expr::MethodCall(m)
            if m.args.is_empty() && (m.method == "no_annotation" || m.method == "into") =>
        {
            block_facts(&m.receiver, file)
        }
        Expr::Try(t) => block_facts(&t.expr, file),
        Expr::Call(c) => {
            let Some(segs) = call_path(c) else {
                return ContentFacts::unknown();
            };
            match segs.as_slice() {
                // rust-mcp-schema: `ContentBlock::TextContent(TextContent::new(text, None, None))`
                [.., ty, m] if ty == "ContentBlock" && m == "TextContent" && c.args.len() == 1 => {
                    block_facts(&c.args[0], file)
                }
                [.., ty, m] if ty == "TextContent" && (m == "new" || m == "from") => {
                    let text = c
                        .args
                        .first()
                        .map_or(MessageText::Opaque, |a| message_from_expr(a, file));
                    ContentFacts {
                        empty: text.is_blank(),
                        texts: vec![text],
                    }
                }
                [.., ty, m] if m == "json" && (ty.ends_with("Content") || ty == "ContentBlock") => {
                    let texts = match c.args.first() {
                        Some(Expr::Macro(mac)) => json_texts(&mac.mac, file),
                        _ => Vec::new(),
                    };
                    ContentFacts {
                        empty: false,
                        texts,
                    }
                }
                [.., ty, m] if m == "text" && (ty.ends_with("Content") || ty == "ContentBlock") => {
                    let text = c
                        .args
                        .first()
                        .map_or(MessageText::Opaque, |a| message_from_expr(a, file));
                    ContentFacts {
                        empty: text.is_blank(),
                        texts: vec![text],
                    }
                }
                _ => ContentFacts::unknown(),
            }
        }
        _ => ContentFacts::unknown(),
    }
}

/// The text of an error value that rmcp turns into an isError result: a string, a content block,
/// `()` (no content at all).
pub fn error_value_text(expr: &Expr, file: &SourceFile) -> ContentFacts {
    match expr {
        Expr::Tuple(t) if t.elems.is_empty() => ContentFacts {
            empty: true,
            texts: vec![MessageText::Absent],
        },
        Expr::Call(_) | Expr::MethodCall(_) => {
            let block = block_facts(expr, file);
            if !block.texts.is_empty() {
                return block;
            }
            let text = message_from_expr(expr, file);
            ContentFacts {
                empty: text.is_blank(),
                texts: vec![text],
            }
        }
        _ => {
            let text = message_from_expr(expr, file);
            ContentFacts {
                empty: text.is_blank(),
                texts: vec![text],
            }
        }
    }
}

/// `ErrorCode(n)`, `ErrorCode(CONST)`, `ErrorCode::NAME`, in rmcp's `ErrorCode` type.
pub fn code_use(expr: &Expr, index: &Index<'_>) -> Option<CodeUse> {
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

/// rmcp calls whose own `Err` is an `ErrorData` the SDK built (`Content::json(v)?`).
pub fn is_sdk_fallible_call(expr: &Expr) -> bool {
    match expr {
        Expr::Call(c) => call_path(c).is_some_and(|s| {
            matches!(s.as_slice(), [.., ty, m] if (ty == "Content" || ty == "ContentBlock") && m == "json")
        }),
        Expr::Await(a) => is_sdk_fallible_call(&a.base),
        _ => false,
    }
}

pub fn tool_error_snippet(names: &Names, message: &str, dispatcher: bool) -> String {
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

pub fn unknown_tool_snippet(names: &Names, name_binding: &str) -> String {
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
pub fn fix_vocabulary(names: &Names, version: Option<Version>) -> super::FixVocabulary {
    let model = |name: &str| super::SdkName {
        name: name.to_string(),
        path: vec!["rmcp".into(), "model".into(), name.into()],
    };
    let error_path: &[&str] = match version {
        Some(v) if v.major == 0 && v.minor < 3 => &["rmcp", "Error"],
        Some(_) => &["rmcp", "ErrorData"],
        None => &["rmcp", "model", "ErrorData"],
    };
    super::FixVocabulary {
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
    }
}

/// The wire name from `#[tool(name = "..")]`, else the fn name.
pub fn tool_name(f: &FnItem<'_>) -> String {
    use proc_macro2::TokenTree;
    f.attrs
        .iter()
        .filter(|a| attr_name(a) == "tool")
        .find_map(|a| {
            let list = a.meta.require_list().ok()?;
            let tokens: Vec<TokenTree> = list.tokens.clone().into_iter().collect();
            tokens.windows(3).find_map(|w| match w {
                [TokenTree::Ident(i), TokenTree::Punct(p), TokenTree::Literal(l)]
                    if i == "name" && p.as_char() == '=' =>
                {
                    syn::parse_str::<syn::LitStr>(&l.to_string())
                        .ok()
                        .map(|s| s.value())
                }
                _ => None,
            })
        })
        .unwrap_or_else(|| f.name.clone())
}
