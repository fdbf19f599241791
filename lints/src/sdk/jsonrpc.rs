//! Hand-rolled servers: JSON-RPC built with `serde_json::json!` or serde structs, no SDK. The
//! `"tools/call"` dispatch and the functions it reaches are tool context; error objects, results
//! with `"isError"` and their `"content"` are read from `json!` bodies.

use std::collections::HashSet;

use proc_macro2::{TokenStream, TokenTree};
use syn::visit::Visit;
use syn::{Expr, ExprCall, ExprStruct};

use super::{CodeUse, Construction, ContentFacts, Dialect, HandlerKind, MacroBuilt, ReturnFacts};
use crate::index::{FnItem, Index};
use crate::source::{FileId, SourceFile, Span};
use crate::text::{message_from_expr, MessageText};

/// The method name that routes tool calls.
pub const TOOLS_CALL: &str = "tools/call";
/// The root of jsonrpc-core (parity's JSON-RPC library), whose `IoHandler` such servers
/// register their methods on and whose `Error` they answer with.
const JSONRPC_CORE: &str = "jsonrpc_core";
/// [`TOOLS_CALL`] as a string literal in source text: what a hand-rolled server's text holds
/// (the route itself is looked for in the code only where the text has it).
pub const TOOLS_CALL_LITERAL: &str = "\"tools/call\"";

/// The fields of a JSON-RPC request object, as a hand-rolled server's request struct declares
/// them, and the ones that only frame it: a request whose `id` or `jsonrpc` is wrong breaks
/// JSON-RPC itself, before any tool runs (-32600 is right for it).
pub const REQUEST_FIELDS: &[&str] = &["jsonrpc", "id", "method"];
pub const FRAMING_FIELDS: &[&str] = &["jsonrpc", "id"];

/// A hand-rolled server: what its `"tools/call"` route reaches.
#[derive(Debug)]
pub struct JsonRpc {
    facts: Facts,
    /// Local names of jsonrpc-core's `Error` (`use jsonrpc_core::Error as RpcError`), a
    /// JSON-RPC library such servers answer with.
    rpc_errors: HashSet<String>,
    /// Local names of its `ErrorCode`: `ErrorCode::ServerError(-32000)` is a code, not an error.
    rpc_codes: HashSet<String>,
}

/// The crate fns (by signature address) a call in fn `f` goes to, as name resolution finds
/// them: none when the source does not say.
pub type ResolveCall<'r> = dyn Fn(&FnItem<'_>, &Expr) -> Vec<usize> + 'r;

impl JsonRpc {
    pub fn new(index: &Index<'_>, resolve: &ResolveCall<'_>) -> JsonRpc {
        let imported = |item: &str| -> HashSet<String> {
            index
                .all_imports()
                .filter(|(local, path)| {
                    path.first().is_some_and(|r| r == JSONRPC_CORE)
                        && path.last().is_some_and(|l| l == item)
                        && !index.local_types.contains(*local)
                })
                .map(|(local, _)| local.clone())
                .collect()
        };
        JsonRpc {
            facts: Facts::collect(index, resolve),
            rpc_errors: imported("Error"),
            rpc_codes: imported("ErrorCode"),
        }
    }

    /// `ErrorCode::ServerError(-32000)` of jsonrpc-core: a code an error is built with.
    fn is_rpc_code(&self, segs: &[String]) -> bool {
        match segs {
            [first, .., ty, _] if first == JSONRPC_CORE => ty == "ErrorCode",
            [ty, _] => self.rpc_codes.contains(ty),
            _ => false,
        }
    }

    /// `RpcError::invalid_params(msg)`, `jsonrpc_core::Error::method_not_found()`,
    /// `Error::new(ErrorCode::InternalError)`: jsonrpc-core's constructors (18.0
    /// `types/error.rs`), each with the code it sends.
    fn rpc_error_call<'e>(
        &self,
        call: &'e ExprCall,
        index: &Index<'_>,
    ) -> Option<Construction<'e>> {
        let Expr::Path(p) = &*call.func else {
            return None;
        };
        let segs = crate::syntax::path_segments(&p.path);
        let [.., ty, method] = segs.as_slice() else {
            return None;
        };
        let rooted = segs.first().is_some_and(|r| r == JSONRPC_CORE) && ty == "Error";
        if !(rooted || segs.len() == 2 && self.rpc_errors.contains(ty)) {
            return None;
        }
        let (code, message) = match method.as_str() {
            "parse_error" => (-32700, None),
            "invalid_request" | "invalid_version" => (-32600, None),
            "method_not_found" => (-32601, None),
            "invalid_params" | "invalid_params_with_details" => (-32602, call.args.first()),
            "internal_error" => (-32603, None),
            "new" => (rpc_error_code(call.args.first()?, index)?, None),
            _ => return None,
        };
        Some(Construction::ProtocolError {
            constructor: format!("{ty}::{method}"),
            code: Some(code),
            message,
        })
    }

    /// Whether the crate's code has a `"tools/call"` route (a match arm or an `if` on it).
    pub fn routes_tool_calls(&self) -> bool {
        !self.facts.routers.is_empty()
    }
}

impl Dialect for JsonRpc {
    fn name(&self) -> &'static str {
        "JSON-RPC by hand"
    }

    /// No crate to import: a file is hand-rolled as the crate's dialect, or by its router.
    fn claims(&self, _imports: &mut dyn Iterator<Item = &Vec<String>>) -> bool {
        false
    }

    fn claims_file(&self, file: FileId) -> bool {
        self.facts.routers.iter().any(|(f, _)| *f == file.0)
    }

    fn is_tool_call_test(&self, cond: &Expr) -> bool {
        matches!(tools_call_test(cond), Some(syn::BinOp::Eq(_)))
    }

    fn tool_call_route<'e>(&self, mc: &'e syn::ExprMethodCall) -> Option<&'e Expr> {
        registered_method(mc)
            .filter(|(method, _)| method == TOOLS_CALL)
            .map(|(_, handler)| handler)
    }

    fn routes_tool_calls_in(&self, f: crate::types::FnKey) -> bool {
        self.facts.routers.iter().any(|(_, key)| *key == f as usize)
    }

    fn handler_kind(&self, f: &FnItem<'_>) -> Option<HandlerKind> {
        self.facts.handler_kind(f)
    }

    fn crate_errors_are_protocol(&self) -> bool {
        true
    }

    fn is_tool_result_type(&self, ty: &syn::Type, index: &Index<'_>) -> bool {
        crate::syntax::type_name(ty).is_some_and(|n| is_tool_result_type(&n, index))
    }

    /// Its `initialize` answer states the version it speaks.
    fn declares_protocol(&self) -> bool {
        true
    }

    fn return_facts(
        &self,
        _kind: Option<HandlerKind>,
        _ret: &syn::ReturnType,
        _index: &Index<'_>,
    ) -> ReturnFacts {
        ReturnFacts::UNKNOWN
    }

    fn construction_of_call<'e>(
        &self,
        call: &'e ExprCall,
        index: &Index<'_>,
        _returns: &ReturnFacts,
    ) -> Option<Construction<'e>> {
        if matches!(&*call.func, Expr::Path(p)
            if self.is_rpc_code(&crate::syntax::path_segments(&p.path)))
        {
            return None;
        }
        self.rpc_error_call(call, index)
            .or_else(|| construction_of_call(call, index))
    }

    fn result_flag_params(
        &self,
        mac: &syn::Macro,
        params: &[String],
    ) -> Option<(usize, Option<usize>)> {
        if mac.path.segments.last()?.ident != "json"
            || crate::syntax::json_member(&mac.tokens, "content").is_none()
        {
            return None;
        }
        let flag = crate::syntax::json_member_param(&mac.tokens, "isError", params)?;
        Some((
            flag,
            crate::syntax::json_member_param(&mac.tokens, "text", params),
        ))
    }

    fn result_flag_set_params(
        &self,
        block: &syn::Block,
        params: &[String],
    ) -> Option<(usize, Option<usize>)> {
        // The local built as a tool result without its flag, then the flag set on it under a
        // parameter: `if is_error { result["isError"] = json!(true); }`.
        let mut built: Option<(String, &syn::Macro)> = None;
        for stmt in &block.stmts {
            match stmt {
                syn::Stmt::Local(l) => {
                    let init = l.init.as_ref().map(|i| &*i.expr);
                    if let (Some(name), Some(Expr::Macro(m))) =
                        (crate::syntax::pat_ident(&l.pat), init)
                    {
                        let result = crate::syntax::is_json_macro(&m.mac)
                            && crate::syntax::json_member(&m.mac.tokens, "content").is_some()
                            && crate::syntax::json_member(&m.mac.tokens, "isError").is_none();
                        if result {
                            built = Some((name, &m.mac));
                        }
                    }
                }
                syn::Stmt::Expr(Expr::If(i), _) if i.else_branch.is_none() => {
                    let Some((local, mac)) = &built else {
                        continue;
                    };
                    let Expr::Path(cond) = &*i.cond else {
                        continue;
                    };
                    let Some(flag) = cond
                        .path
                        .get_ident()
                        .and_then(|c| params.iter().position(|p| c == p))
                    else {
                        continue;
                    };
                    let [syn::Stmt::Expr(Expr::Assign(a), _)] = &i.then_branch.stmts[..] else {
                        continue;
                    };
                    if sets_is_error(a, local) {
                        let text = crate::syntax::json_member_param(&mac.tokens, "text", params);
                        return Some((flag, text));
                    }
                }
                _ => {}
            }
        }
        None
    }

    fn construction_of_macro(
        &self,
        mac: &syn::Macro,
        index: &Index<'_>,
        file: &SourceFile,
        _returns: &ReturnFacts,
    ) -> Option<MacroBuilt> {
        let name = "json!".to_string();
        construction_of_json(mac, file, index).map(|built| match built {
            JsonBuilt::Protocol {
                code,
                code_span,
                code_expr,
                message,
            } => MacroBuilt::Protocol {
                code,
                code_span,
                code_expr,
                message,
                name,
            },
            JsonBuilt::ToolResult { is_error, content } => MacroBuilt::ToolResult {
                is_error,
                content,
                name,
            },
        })
    }

    fn construction_of_struct<'e>(
        &self,
        s: &'e ExprStruct,
        index: &Index<'_>,
    ) -> Option<Construction<'e>> {
        let name = s.path.segments.last()?.ident.to_string();
        // `RpcError { code: ErrorCode::ServerError(-32000), message, data: None }`.
        let rooted = s
            .path
            .segments
            .first()
            .is_some_and(|r| r.ident == JSONRPC_CORE);
        if rooted || self.rpc_errors.contains(&name) {
            return Some(Construction::ProtocolError {
                constructor: format!("{name} {{ .. }}"),
                code: crate::syntax::field_value(s, "code").and_then(|c| rpc_error_code(c, index)),
                message: crate::syntax::field_value(s, "message"),
            });
        }
        construction_of_struct(s, &name, index)
    }

    fn construction_of_self_struct<'e>(
        &self,
        s: &'e ExprStruct,
        self_type: &str,
        index: &Index<'_>,
    ) -> Option<Construction<'e>> {
        construction_of_struct(s, self_type, index)
    }

    /// A helper such as `error_response(id, code, ..)` takes the code as an argument.
    fn constructor_names_code(&self) -> bool {
        false
    }

    fn only_handler_code_counts(&self) -> bool {
        true
    }

    fn construction_with_code_at<'e>(
        &self,
        call: &'e ExprCall,
        code_at: &dyn Fn() -> Option<usize>,
    ) -> Option<Construction<'e>> {
        let Expr::Path(p) = &*call.func else {
            return None;
        };
        let segs = crate::syntax::path_segments(&p.path);
        if !names_error_or_err(&segs)
            || segs.iter().any(|s| s.contains("ToolResult"))
            || self.is_rpc_code(&segs)
        {
            return None;
        }
        protocol_error_with_code_at(call, code_at()?, None)
    }

    fn is_tool_call_arm(&self, pat: &syn::Pat) -> bool {
        is_tools_call_pat(pat)
    }

    fn code_use(&self, expr: &Expr, index: &Index<'_>) -> Option<CodeUse> {
        code_use(expr, index)
    }

    /// Nothing rewrites a hand-rolled server's -32002.
    fn named_resource_not_found_fits_peer(&self) -> bool {
        false
    }

    fn tool_error_snippet(&self, message: &str, _dispatcher: bool) -> String {
        format!(
            "json!({{\"content\": [{{\"type\": \"text\", \"text\": {message}}}], \"isError\": true}})"
        )
    }

    fn unknown_tool_snippet(&self, name_binding: &str) -> String {
        format!(
            "json!({{\"code\": -32602, \"message\": format!(\"Unknown tool: {{}}\", {name_binding})}})"
        )
    }
    /// Every value such a server builds is a `serde_json::Value`; only the tool-failure fix
    /// applies (its unknown-tool snippet is a bare error object, not the response it belongs in).
    fn fix_vocabulary(&self) -> Option<super::FixVocabulary> {
        let value = super::SdkName {
            name: "Value".to_string(),
            path: vec!["serde_json".to_string(), "Value".to_string()],
        };
        Some(super::FixVocabulary {
            result: value.clone(),
            content: value.clone(),
            error: value,
            wrapped_results: Vec::new(),
            error_constructors: Vec::new(),
            tool_error: super::ToolErrorForm::JsonMember,
            others: Vec::new(),
            result_aliases: Vec::new(),
            message_drops_into: false,
            unknown_tool: false,
            preludes: Vec::new(),
        })
    }
}

/// Functions a `"tools/call"` branch calls (the crate's tool dispatchers) and functions that
/// route JSON-RPC methods (they hold that branch), by signature address: the calls are
/// resolved, so a same-named fn elsewhere is none of them.
#[derive(Clone, Debug, Default)]
struct Facts {
    dispatchers: HashSet<usize>,
    /// (file, fn) holding a `"tools/call"` branch.
    routers: HashSet<(usize, usize)>,
    /// Functions the router's other method branches call (`"resources/read" => read(..)`).
    method_handlers: HashSet<usize>,
}

impl Facts {
    fn collect(index: &Index<'_>, resolve: &ResolveCall<'_>) -> Facts {
        let mut facts = Facts::default();
        for f in &index.fns {
            let mut finder = ToolsCallBranches::default();
            finder.visit_block(f.block);
            if finder.branches > 0 {
                facts
                    .routers
                    .insert((f.file.0, f.sig as *const syn::Signature as usize));
            }
            facts
                .dispatchers
                .extend(finder.callees.iter().flat_map(|c| resolve(f, c)));
            facts
                .method_handlers
                .extend(finder.method_callees.iter().flat_map(|c| resolve(f, c)));
        }
        facts
    }

    fn handler_kind(&self, f: &FnItem<'_>) -> Option<HandlerKind> {
        let key = f.sig as *const syn::Signature as usize;
        // `RpcError::invalid_params(..)` in a `"tools/call"` arm builds an error: a type's own
        // constructor is never a dispatcher or a handler.
        if f.is_test || f.is_constructor() {
            None
        } else if self.dispatchers.contains(&key) {
            Some(HandlerKind::Dispatcher)
        } else if self.routers.contains(&(f.file.0, key)) || self.method_handlers.contains(&key) {
            Some(HandlerKind::Other)
        } else {
            None
        }
    }
}

/// Collects the fns called directly inside `"tools/call" => ..` arms and `if m == "tools/call"`.
#[derive(Default)]
struct ToolsCallBranches<'v> {
    callees: Vec<&'v Expr>,
    /// Calls in the other method branches of a router.
    method_callees: Vec<&'v Expr>,
    /// How many `"tools/call"` branches were seen so far.
    branches: usize,
}

impl<'v> Visit<'v> for ToolsCallBranches<'v> {
    fn visit_expr_match(&mut self, m: &'v syn::ExprMatch) {
        if m.arms.iter().any(|a| is_tools_call_pat(&a.pat)) {
            // A router: its other `"x/y"` branches are MCP handlers too.
            for arm in m.arms.iter().filter(|a| !is_tools_call_pat(&a.pat)) {
                if is_method_pat(&arm.pat) {
                    collect_calls(&arm.body, &mut self.method_callees);
                }
            }
        }
        syn::visit::visit_expr_match(self, m);
    }

    fn visit_arm(&mut self, arm: &'v syn::Arm) {
        if is_tools_call_pat(&arm.pat) {
            self.branches += 1;
            // A call given nothing (`self.require_initialized()`) cannot pick a tool: it checks
            // the server's own state.
            let mut calls = Vec::new();
            collect_calls(&arm.body, &mut calls);
            self.callees.extend(calls.into_iter().filter(|c| match c {
                Expr::Call(c) => !c.args.is_empty(),
                Expr::MethodCall(m) => !m.args.is_empty(),
                _ => true,
            }));
        }
        syn::visit::visit_arm(self, arm);
    }

    /// `io.add_method("tools/call", |p| ..)`: the handler registered for `tools/call` is the
    /// route; those registered for other MCP methods are method handlers.
    fn visit_expr_method_call(&mut self, mc: &'v syn::ExprMethodCall) {
        if let Some((method, handler)) = registered_method(mc) {
            if method == TOOLS_CALL {
                self.branches += 1;
                collect_route_calls(handler, &mut self.callees);
            } else if method.contains('/') {
                collect_route_calls(handler, &mut self.method_callees);
            }
        }
        syn::visit::visit_expr_method_call(self, mc);
    }

    fn visit_expr_if(&mut self, i: &'v syn::ExprIf) {
        match tools_call_test(&i.cond) {
            Some(syn::BinOp::Eq(_)) => {
                self.branches += 1;
                collect_stmt_calls(&i.then_branch.stmts, &mut self.callees);
            }
            // `if m != "tools/call" { .. } else { <tools/call> }`: the else branch is the route.
            Some(syn::BinOp::Ne(_)) => {
                if let Some((_, e)) = &i.else_branch {
                    self.branches += 1;
                    collect_calls(e, &mut self.callees);
                }
            }
            _ => {}
        }
        syn::visit::visit_expr_if(self, i);
    }

    fn visit_block(&mut self, b: &'v syn::Block) {
        // `if m != "tools/call" { return other(..); }`: what follows the guard is the route.
        for (at, stmt) in b.stmts.iter().enumerate() {
            let syn::Stmt::Expr(Expr::If(i), _) = stmt else {
                continue;
            };
            if i.else_branch.is_none()
                && matches!(tools_call_test(&i.cond), Some(syn::BinOp::Ne(_)))
                && i.then_branch.stmts.last().is_some_and(diverges)
            {
                self.branches += 1;
                collect_stmt_calls(&b.stmts[at + 1..], &mut self.callees);
            }
        }
        syn::visit::visit_block(self, b);
    }
}

/// `m == "tools/call"` or `m != "tools/call"` (either side): which of the two.
fn tools_call_test(cond: &Expr) -> Option<syn::BinOp> {
    let Expr::Binary(b) = cond else {
        return None;
    };
    let lit = |e: &Expr| matches!(e, Expr::Lit(l) if matches!(&l.lit, syn::Lit::Str(s) if s.value() == TOOLS_CALL));
    (lit(&b.left) || lit(&b.right)).then_some(b.op)
}

/// A statement that leaves the block: `return ..`, `continue`, `break`.
fn diverges(stmt: &syn::Stmt) -> bool {
    matches!(
        stmt,
        syn::Stmt::Expr(Expr::Return(_) | Expr::Continue(_) | Expr::Break(_), _)
    )
}

/// The calls of crate fns in statements: their expressions and `let` initialisers.
fn collect_stmt_calls<'v>(stmts: &'v [syn::Stmt], out: &mut Vec<&'v Expr>) {
    for stmt in stmts {
        match stmt {
            syn::Stmt::Expr(e, _) => collect_calls(e, out),
            syn::Stmt::Local(l) => {
                if let Some(init) = &l.init {
                    collect_calls(&init.expr, out);
                }
            }
            _ => {}
        }
    }
}

/// The calls of crate fns inside `expr`: `f(..)` and `self.f(..)`; not those in the `else` of
/// a `let .. else` (`let Some(name) = params.get("name") else { return error(..) }`: the
/// route's answer to a request it cannot dispatch, not a dispatch).
fn collect_calls<'v>(expr: &'v Expr, out: &mut Vec<&'v Expr>) {
    struct Calls<'o, 'v>(&'o mut Vec<&'v Expr>);
    impl<'v> Visit<'v> for Calls<'_, 'v> {
        fn visit_expr(&mut self, e: &'v Expr) {
            match e {
                Expr::Call(c) if matches!(&*c.func, Expr::Path(_)) => self.0.push(e),
                Expr::MethodCall(m) if matches!(&*m.receiver, Expr::Path(p) if p.path.is_ident("self")) => {
                    self.0.push(e)
                }
                _ => {}
            }
            syn::visit::visit_expr(self, e);
        }
        fn visit_local(&mut self, l: &'v syn::Local) {
            if let Some(init) = &l.init {
                self.visit_expr(&init.expr);
            }
        }
    }
    Calls(out).visit_expr(expr);
}

/// The calls of crate fns inside a registered handler: `f(..)` and `x.f(..)` on any receiver
/// (the handler is a closure that captured the server: `server.call_tool(..)`), resolved by
/// the types the enclosing fn's locals state.
fn collect_route_calls<'v>(handler: &'v Expr, out: &mut Vec<&'v Expr>) {
    struct Calls<'o, 'v>(&'o mut Vec<&'v Expr>);
    impl<'v> Visit<'v> for Calls<'_, 'v> {
        fn visit_expr(&mut self, e: &'v Expr) {
            if matches!(e, Expr::MethodCall(_))
                || matches!(e, Expr::Call(c) if matches!(&*c.func, Expr::Path(_)))
            {
                self.0.push(e);
            }
            syn::visit::visit_expr(self, e);
        }
    }
    Calls(out).visit_expr(handler);
}

/// `io.add_method("tools/call", handler)`, `protocol.request_handler("tools/call", handler)`:
/// a method registered by its name, a string literal first, the handler last.
fn registered_method(mc: &syn::ExprMethodCall) -> Option<(String, &Expr)> {
    let (Some(Expr::Lit(l)), Some(handler)) = (mc.args.first(), mc.args.last()) else {
        return None;
    };
    let syn::Lit::Str(name) = &l.lit else {
        return None;
    };
    let handler_like = matches!(handler, Expr::Closure(_) | Expr::Path(_) | Expr::Call(_));
    (mc.args.len() >= 2 && handler_like).then(|| (name.value(), handler))
}

/// jsonrpc-core's `ErrorCode::InvalidParams`, `ErrorCode::ServerError(-32000)`: its code.
fn rpc_error_code(expr: &Expr, index: &Index<'_>) -> Option<i64> {
    let variant = |p: &syn::Path| p.segments.last().map(|s| s.ident.to_string());
    match expr {
        Expr::Path(p) => match variant(&p.path)?.as_str() {
            "ParseError" => Some(-32700),
            "InvalidRequest" => Some(-32600),
            "MethodNotFound" => Some(-32601),
            "InvalidParams" => Some(-32602),
            "InternalError" => Some(-32603),
            _ => None,
        },
        Expr::Call(c) => match &*c.func {
            Expr::Path(p) if variant(&p.path)? == "ServerError" && c.args.len() == 1 => {
                index.eval_int(&c.args[0])
            }
            _ => None,
        },
        _ => None,
    }
}

/// An MCP method name pattern (`"resources/read"`, `Some("prompts/get")`).
fn is_method_pat(pat: &syn::Pat) -> bool {
    match pat {
        syn::Pat::Lit(l) => matches!(&l.lit, syn::Lit::Str(s) if s.value().contains('/')),
        syn::Pat::Or(o) => o.cases.iter().any(is_method_pat),
        syn::Pat::TupleStruct(ts) if ts.path.is_ident("Some") && ts.elems.len() == 1 => {
            is_method_pat(&ts.elems[0])
        }
        _ => false,
    }
}

/// `"tools/call"` as a match arm pattern.
fn is_tools_call_pat(pat: &syn::Pat) -> bool {
    match pat {
        syn::Pat::Lit(l) => matches!(&l.lit, syn::Lit::Str(s) if s.value() == TOOLS_CALL),
        syn::Pat::Or(o) => o.cases.iter().any(is_tools_call_pat),
        // `Some("tools/call")` when matching on `request["method"].as_str()`.
        syn::Pat::TupleStruct(ts) if ts.path.is_ident("Some") && ts.elems.len() == 1 => {
            is_tools_call_pat(&ts.elems[0])
        }
        _ => false,
    }
}

/// A parsed `json!` value: enough structure to find error objects and tool results.
#[derive(Debug)]
enum Json {
    Object(Vec<(String, Json, Span)>),
    Array(Vec<Json>),
    /// A string literal.
    Str(String, Span),
    /// `true` / `false`.
    Bool(bool),
    /// An integer (possibly negative, possibly a const), with the tokens' span.
    Int(i64, Span),
    /// Any Rust expression.
    Expr(Expr),
}

fn parse_value(tokens: &[TokenTree], file: &SourceFile, index: &Index<'_>) -> Json {
    let span_of = |ts: &[TokenTree]| -> Span {
        let start = ts.first().map(|t| t.span().byte_range().start).unwrap_or(0);
        let end = ts
            .last()
            .map(|t| t.span().byte_range().end)
            .unwrap_or(start);
        file.span(start, end)
    };
    match tokens {
        [TokenTree::Group(g)] if g.delimiter() == proc_macro2::Delimiter::Brace => {
            parse_object(g.stream(), file, index)
        }
        [TokenTree::Group(g)] if g.delimiter() == proc_macro2::Delimiter::Bracket => Json::Array(
            split_commas(g.stream())
                .iter()
                .map(|item| parse_value(item, file, index))
                .collect(),
        ),
        [TokenTree::Ident(i)] if i == "true" || i == "false" => Json::Bool(i == "true"),
        [TokenTree::Literal(l)] => match syn::parse_str::<syn::Lit>(&l.to_string()) {
            Ok(syn::Lit::Str(s)) => Json::Str(s.value(), span_of(tokens)),
            Ok(syn::Lit::Int(i)) => i
                .base10_parse::<i64>()
                .map_or(Json::Bool(false), |v| Json::Int(v, span_of(tokens))),
            _ => Json::Bool(false),
        },
        _ => {
            let stream: TokenStream = tokens.iter().cloned().collect();
            match syn::parse2::<Expr>(stream) {
                Ok(e) => match index.eval_int(&e) {
                    Some(v) => Json::Int(v, span_of(tokens)),
                    None => Json::Expr(e),
                },
                Err(_) => Json::Bool(false),
            }
        }
    }
}

fn parse_object(stream: TokenStream, file: &SourceFile, index: &Index<'_>) -> Json {
    let mut members = Vec::new();
    for member in split_commas(stream) {
        let Some(colon) = member
            .iter()
            .position(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ':'))
        else {
            continue;
        };
        let key = match &member[..colon] {
            [TokenTree::Literal(l)] => syn::parse_str::<syn::LitStr>(&l.to_string())
                .map(|s| s.value())
                .unwrap_or_default(),
            _ => continue,
        };
        let value_tokens = &member[colon + 1..];
        let start = value_tokens
            .first()
            .map(|t| t.span().byte_range().start)
            .unwrap_or(0);
        let end = value_tokens
            .last()
            .map(|t| t.span().byte_range().end)
            .unwrap_or(start);
        members.push((
            key,
            parse_value(value_tokens, file, index),
            file.span(start, end),
        ));
    }
    Json::Object(members)
}

fn split_commas(stream: TokenStream) -> Vec<Vec<TokenTree>> {
    let mut out = vec![Vec::new()];
    for t in stream {
        match &t {
            TokenTree::Punct(p) if p.as_char() == ',' => out.push(Vec::new()),
            _ => out.last_mut().expect("never empty").push(t),
        }
    }
    out.retain(|v| !v.is_empty());
    out
}

impl Json {
    fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(m) => m.iter().find(|(k, _, _)| k == key).map(|(_, v, _)| v),
            _ => None,
        }
    }

    fn text(&self, file: &SourceFile) -> MessageText {
        match self {
            Json::Str(value, span) => MessageText::Literal {
                value: value.clone(),
                span: *span,
            },
            Json::Expr(e) => message_from_expr(e, file),
            _ => MessageText::Opaque,
        }
    }
}

/// What a `json!` body builds.
enum JsonBuilt {
    Protocol {
        code: Option<i64>,
        code_span: Option<Span>,
        /// `"code": code`, `"code": e.rpc_code()`: the expression the code is read from.
        code_expr: Option<Box<Expr>>,
        message: MessageText,
    },
    ToolResult {
        is_error: bool,
        content: ContentFacts,
    },
}

/// Read a `json!` body: an `"error": {"code", "message"}` member, or a tool result (`"content"`
/// with or without `"isError": true`), also inside `"result"`.
fn construction_of_json(
    mac: &syn::Macro,
    file: &SourceFile,
    index: &Index<'_>,
) -> Option<JsonBuilt> {
    if mac.path.segments.last()?.ident != "json" {
        return None;
    }
    let tokens: Vec<TokenTree> = mac.tokens.clone().into_iter().collect();
    let value = parse_value(&tokens, file, index);
    read(&value, file)
}

fn read(value: &Json, file: &SourceFile) -> Option<JsonBuilt> {
    if let Some(error @ Json::Object(_)) = value.get("error") {
        let code = error.get("code");
        let (code, code_span) = match code {
            Some(Json::Int(v, span)) => (Some(*v), Some(*span)),
            _ => (None, None),
        };
        let code_expr = match error.get("code") {
            Some(Json::Expr(e)) => Some(Box::new(e.clone())),
            _ => None,
        };
        // `{"error": {"code": 404, ..}}` is an HTTP API's error, not JSON-RPC's; beside
        // `"jsonrpc": "2.0"` any code is the application's JSON-RPC error code (1001).
        let jsonrpc_code = code.is_none_or(|c| c < 0) || value.get("jsonrpc").is_some();
        if jsonrpc_code && (code.is_some() || error.get("message").is_some()) {
            return Some(JsonBuilt::Protocol {
                code,
                code_span,
                code_expr,
                message: error
                    .get("message")
                    .map_or(MessageText::Absent, |m| m.text(file)),
            });
        }
    }
    // A bare error object (`Err(json!({"code": -32001, "message": ..}))` that the serve loop
    // sends as `"error": error`): a JSON-RPC code beside a message says what it is.
    if let (Some(Json::Int(code, span)), Some(message)) = (value.get("code"), value.get("message"))
    {
        if (-32768..=-32000).contains(code) && value.get("content").is_none() {
            return Some(JsonBuilt::Protocol {
                code: Some(*code),
                code_span: Some(*span),
                code_expr: None,
                message: message.text(file),
            });
        }
    }
    if let Some(result) = value.get("result") {
        if let Some(built) = read(result, file) {
            return Some(built);
        }
    }
    let content = value.get("content")?;
    let is_error = match value.get("isError") {
        None | Some(Json::Bool(false)) => false,
        Some(Json::Bool(true)) => true,
        // `"isError": is_error`: decided at run time, so neither answer is known here.
        Some(_) => return None,
    };
    let content = match content {
        Json::Array(items) => {
            let texts: Vec<MessageText> = items
                .iter()
                .filter_map(|item| item.get("text").map(|t| t.text(file)))
                .collect();
            ContentFacts {
                empty: items.is_empty()
                    || (texts.len() == items.len() && texts.iter().all(|t| t.is_blank())),
                texts,
            }
        }
        _ => ContentFacts::unknown(),
    };
    Some(JsonBuilt::ToolResult { is_error, content })
}

/// `JsonRpcError { code: -32603, message }`, user `CallToolResult { is_error: true, content }`,
/// of the struct named `name`.
fn construction_of_struct<'e>(
    s: &'e ExprStruct,
    name: &str,
    index: &Index<'_>,
) -> Option<Construction<'e>> {
    let field = |name: &str| crate::syntax::field_value(s, name);
    // `PdError::Rpc { code: -32001, message }`: a code in JSON-RPC's reserved range says what
    // the value is, whatever the type is called (an HTTP API's error carries 404, not -32001).
    let rpc_code = || {
        field("code")
            .and_then(|c| index.eval_int(c))
            .is_some_and(|c| (-32768..=-32000).contains(&c))
    };
    if (name.contains("Error") || rpc_code())
        && field("code").is_some()
        && field("message").is_some()
    {
        return Some(Construction::ProtocolError {
            constructor: format!("{name} {{ .. }}"),
            code: field("code").and_then(|c| index.eval_int(c)),
            message: field("message"),
        });
    }
    if is_tool_result_type(name, index) {
        let flag = field("is_error").or_else(|| field("isError"))?;
        // A flag serde writes as `"is_error"` sets nothing the client reads.
        let on_wire = field("isError").is_some() || !index.flag_off_wire_types.contains(name);
        return Some(Construction::ToolResult {
            constructor: format!("{name} {{ .. }}"),
            is_error: on_wire && super::is_true(flag),
            content: field("content"),
            never_empty: false,
        });
    }
    None
}

/// `error_response(id, -32603, "..")`, `JsonRpcResponse::error(id, CODE, msg)`: a helper whose name
/// says error, given a JSON-RPC code.
fn construction_of_call<'e>(call: &'e ExprCall, index: &Index<'_>) -> Option<Construction<'e>> {
    let Expr::Path(p) = &*call.func else {
        return None;
    };
    let segs = crate::syntax::path_segments(&p.path);
    // The server's own result type: `CallToolResult::error(content)`, `::text(..)`.
    if let [.., ty, method] = segs.as_slice() {
        if is_tool_result_type(ty, index) {
            let is_error = match method.as_str() {
                "error" | "err" | "failure" => true,
                "text" | "success" | "ok" | "json" => false,
                _ => return None,
            };
            return Some(Construction::ToolResult {
                constructor: format!("{ty}::{method}"),
                is_error,
                content: call.args.first(),
                never_empty: false,
            });
        }
    }
    if !names_error(&segs) {
        return None;
    }
    let (code_at, code) = call.args.iter().enumerate().find_map(|(i, a)| {
        index
            .eval_int(a)
            .filter(|v| (-32768..=-32000).contains(v))
            .map(|v| (i, v))
    })?;
    protocol_error_with_code_at(call, code_at, Some(code))
}

/// The server's own tool-result type: a crate struct of that shape
/// ([`Index::tool_result_types`]), or one named for it whose shape the crate does not show (a
/// crate type named so but shaped otherwise, `ToolResponse { success, data, error }`, is the
/// tools' own outcome, which a caller answers one way or the other).
fn is_tool_result_type(name: &str, index: &Index<'_>) -> bool {
    index.tool_result_types.contains(name)
        || (!index.local_types.contains(name)
            && (name.contains("ToolResult") || name.contains("ToolResponse")))
}

/// `error_response(..)`, `McpResponse::error(..)`: a function or constructor named for an error.
fn names_error(segments: &[String]) -> bool {
    segments.join("::").to_lowercase().contains("error")
}

/// [`names_error`], or short-named for one (`err(id, code, msg)`, `rpc_err(..)`): enough for a
/// helper whose body is known to build an error object with the code it is given.
fn names_error_or_err(segments: &[String]) -> bool {
    names_error(segments)
        || segments
            .iter()
            .any(|s| s.to_lowercase().split('_').any(|word| word == "err"))
}

/// A protocol error built by `call` with its code at argument `code_at`: the message is the
/// first text-like argument after it.
fn protocol_error_with_code_at<'e>(
    call: &'e ExprCall,
    code_at: usize,
    code: Option<i64>,
) -> Option<Construction<'e>> {
    let Expr::Path(p) = &*call.func else {
        return None;
    };
    let message = call
        .args
        .iter()
        .skip(code_at + 1)
        .find(|a| !matches!(a, Expr::Path(_)) || matches!(a, Expr::Macro(_)));
    Some(Construction::ProtocolError {
        constructor: p.path.segments.last()?.ident.to_string(),
        code,
        message,
    })
}

/// A bare code where a helper or literal takes one: `-32001`, `LEGACY_CODE`.
fn code_use(expr: &Expr, index: &Index<'_>) -> Option<CodeUse> {
    let value = index
        .eval_int(expr)
        .filter(|v| (-32768..=-32000).contains(v))?;
    let written = quote::ToTokens::to_token_stream(expr)
        .to_string()
        .replace(' ', "");
    Some(CodeUse { value, written })
}

/// `result["isError"] = json!(true)` (or `true`) on the local `local`.
fn sets_is_error(a: &syn::ExprAssign, local: &str) -> bool {
    let Expr::Index(ix) = &*a.left else {
        return false;
    };
    let on_local = matches!(&*ix.expr, Expr::Path(p) if p.path.is_ident(local));
    let is_error_key = matches!(&*ix.index, Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(k), .. })
        if k.value() == "isError");
    let true_value = match &*a.right {
        Expr::Macro(m) => {
            crate::syntax::is_json_macro(&m.mac) && m.mac.tokens.to_string() == "true"
        }
        other => crate::sdk::is_true(other),
    };
    on_local && is_error_key && true_value
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_literal_is_the_method_name_quoted() {
        assert_eq!(
            super::TOOLS_CALL_LITERAL,
            format!("\"{}\"", super::TOOLS_CALL)
        );
    }
}
