//! Constructions: where the walk meets an SDK's way of building a protocol error or a tool
//! result (a constructor call, a method chain, a struct literal, a macro, `is_error = true`), or
//! text a text-returning tool gives back as its success on a failure path.

use syn::Expr;

use super::Walker;
use crate::codes;
use crate::model::callgraph::Target;
use crate::model::site::{Channel, Origin, ResultFlag, SiteContext};
use crate::sdk::{Construction, ContentFacts, HandlerKind, MacroBuilt};
use crate::syntax::{is_scalar_type, is_to_string, mentions_ident, tail_expr, TokensString};
use crate::text::{message_with_macros, MessageText};
use crate::types::FnKey;

impl<'a> Walker<'a, '_> {
    pub(super) fn construction(&mut self, expr: &'a Expr, built: Construction<'a>) {
        // `tool_not_found(name)`, `CallToolError::unknown_tool(name)`: the unknown-tool answer,
        // wherever a dispatcher builds it (`None => Err(tool_not_found(&p.name))`).
        let constructor = match &built {
            Construction::ProtocolError { constructor, .. }
            | Construction::ToolResult { constructor, .. } => constructor.to_lowercase(),
        };
        // …and an error whose own text says so (`invalid_params(format!("Unknown tool: {n}"))`).
        let message_says = match &built {
            Construction::ProtocolError {
                message: Some(m), ..
            } => {
                let text = message_with_macros(m, self.file, self.macros).known_lowercase();
                [
                    "unknown tool",
                    "tool not found",
                    "no tool named",
                    "no such tool",
                ]
                .iter()
                .any(|w| text.contains(w))
            }
            _ => false,
        };
        let names_unknown_tool = constructor.ends_with("tool_not_found")
            || constructor.ends_with("unknown_tool")
            || message_says;
        if names_unknown_tool
            && self.body.kind == Some(HandlerKind::Dispatcher)
            && !matches!(self.arm, Some(SiteContext::UnknownToolArm { .. }))
        {
            let outer = self.arm.replace(SiteContext::UnknownToolArm {
                binding: "name".to_string(),
            });
            self.construction_in_context(expr, built);
            self.arm = outer;
            return;
        }
        self.construction_in_context(expr, built);
    }

    pub(super) fn construction_in_context(&mut self, expr: &'a Expr, built: Construction<'a>) {
        // `ErrorData::new(fleet_core::error::CONFLICT, ..)`: a const of another package of the
        // workspace, which the package's own const table does not hold.
        let built = match built {
            Construction::ProtocolError {
                constructor,
                code: None,
                message,
            } => Construction::ProtocolError {
                code: self.const_code_argument(expr),
                constructor,
                message,
            },
            other => other,
        };
        // `McpError::new(code, ..)` with `code` picked per variant: one site per arm.
        if let Construction::ProtocolError {
            constructor,
            code: None,
            message,
        } = &built
        {
            if let Some(arms) = self.arm_codes_of(expr) {
                // Inside an arm of a `match` over the error (`let code = err.rpc_code(); match
                // err { NotFound(_) => new(code, ..), .. }`): only the codes of its variants.
                let outer = self.variant.clone();
                for arm in arms {
                    let variant = match (&outer, arm.variant) {
                        (Some(o), Some(v)) => match o.intersect(&v) {
                            Some(both) => Some(both),
                            None => continue,
                        },
                        (Some(o), None) => Some(o.clone()),
                        (None, v) => v,
                    };
                    // A code a fn returns (`e.rpc_code()`) is written as a code there.
                    let code_position = self.dialect.bare_codes() || arm.written_in.is_some();
                    if code_position && self.comparison == 0 && self.tool_values == 0 {
                        let at = arm.written_in.unwrap_or((self.body.file, self.body.id));
                        self.code_site_in(at, arm.span, arm.value, arm.written, false);
                    }
                    self.variant = variant;
                    self.code_one_of = arm.one_of;
                    let one = Construction::ProtocolError {
                        constructor: constructor.clone(),
                        code: Some(arm.value),
                        message: *message,
                    };
                    self.construction_in_context(expr, one);
                }
                self.variant = outer;
                self.code_one_of = Vec::new();
                return;
            }
        }
        let span = self.file.span_of(expr);
        match built {
            Construction::ProtocolError {
                constructor,
                code,
                message,
            } => {
                let default = match expr {
                    Expr::Call(call) if message.is_none() => self.dialect.default_message(call),
                    _ => None,
                };
                let text = match (message, default) {
                    (Some(m), _) => self.message_or_const(m),
                    (None, Some(value)) => MessageText::Literal {
                        value: value.to_string(),
                        span,
                    },
                    (None, None) => MessageText::Absent,
                };
                // Converted into the crate's isError type (rmcp `ErrorData::invalid_params(..)
                // .into()` in a fn returning `ToolError`): its code never reaches the wire.
                let wrapped = self.returns().wraps_protocol_errors;
                // A code the constructor's name carries (`resource_not_found`, `rate_limited`).
                // (Not where an argument writes the code, `mcp_error(McpErrorCode::Forbidden,
                // ..)`: that is the code's site.)
                let code_in_args = matches!(expr, Expr::Call(c)
                    if c.args.iter().any(|a| self.dialect.code_use(a, self.index).is_some()));
                let named_code = !wrapped
                    && !code_in_args
                    && self.dialect.constructor_names_code()
                    && code.is_some_and(|c| !codes::is_standard(c))
                    && !["::new", "{ .. }", "::protocol", "::from_rpc_code"]
                        .iter()
                        .any(|suffix| constructor.ends_with(suffix));
                if named_code && self.comparison == 0 && self.tool_values == 0 {
                    self.code_site(span, code.unwrap_or_default(), constructor.clone(), true);
                }
                let content = ContentFacts {
                    empty: false,
                    texts: vec![text],
                };
                let channel = if wrapped {
                    Channel::ToolError
                } else {
                    Channel::Protocol
                };
                let code = code.filter(|_| !wrapped);
                self.add_site(
                    expr,
                    span,
                    channel,
                    code,
                    content,
                    Origin::Constructor(constructor),
                );
                if let Some((site, _)) = self.facts.sites.last_mut() {
                    // In a macro expansion the span is the call's, not the message's.
                    if let (Some(m), None) = (message, self.expanded_from) {
                        let range = syn::spanned::Spanned::span(m).byte_range();
                        site.message_source =
                            self.file.text.get(range).map(|src| as_text_source(m, src));
                    }
                    // `McpError::cancelled(..)`, `transport(..)`, `server_overloaded()`: the name
                    // says the server, not the tool, failed.
                    if let Origin::Constructor(c) = &site.origin {
                        let c = c.to_lowercase();
                        if ["cancel", "overloaded", "transport", "serializ", "shutdown"]
                            .iter()
                            .any(|w| c.contains(w))
                        {
                            site.path.server_fault = true;
                        }
                    }
                }
            }
            Construction::ToolResult {
                constructor,
                is_error,
                content,
                never_empty,
            } => {
                // `CallToolResult::with_error(CallToolError::from_message(..))`: the inner
                // constructor is the site (it has the text).
                if content.is_some_and(|c| self.builds_tool_result(c)) {
                    return;
                }
                // rmcp ≥ 1.4 forces `Err(CallToolResult::success(..))` to isError.
                let forced_error = self.err_arg.is_some_and(|a| std::ptr::eq(a, expr));
                let mut facts = content.map_or_else(ContentFacts::unknown, |c| {
                    self.dialect.content_facts(c, self.file)
                });
                if never_empty {
                    facts.empty = false;
                }
                let channel = if is_error || forced_error {
                    Channel::ToolError
                } else {
                    Channel::ToolSuccess
                };
                // `if is_error { .. } else { CallToolResult::structured(v) }` on the caller's
                // flag: the caller says which answer it gives, not this success.
                if channel == Channel::ToolSuccess && self.flag_branches > 0 {
                    return;
                }
                // A success result built in a fn declared to return a number or a flag (`fn
                // response_bytes(..) -> usize` serialising one to measure it) cannot leave it.
                let returns_scalar = self.body.sig.is_some_and(
                    |s| matches!(&s.output, syn::ReturnType::Type(_, ty) if is_scalar_type(ty)),
                );
                if channel == Channel::ToolSuccess && returns_scalar {
                    return;
                }
                match (channel, content) {
                    (Channel::ToolSuccess, Some(c)) => self.note_success_content(c, span),
                    (Channel::ToolError, Some(c)) if self.nested == 0 => {
                        self.error_contents.push(c);
                    }
                    _ => {}
                }
                let sites_before = self.facts.sites.len();
                self.add_site(
                    expr,
                    span,
                    channel,
                    None,
                    facts,
                    Origin::Constructor(constructor),
                );
                // What a success result's one JSON block says (`{"success": false, ..}`); the
                // `vec![..]`'s items as the file's macro arguments were parsed.
                let block = match content {
                    Some(Expr::Macro(m))
                        if channel == Channel::ToolSuccess && m.mac.path.is_ident("vec") =>
                    {
                        match self.macros.parsed(&m.mac) {
                            Some([one]) => Some(one),
                            _ => None,
                        }
                    }
                    _ => None,
                };
                let json = block.and_then(|b| self.dialect.json_answer(b));
                if let (Some(mac), Some((site, _))) = (json, self.facts.sites.get_mut(sites_before))
                {
                    site.answer_members = crate::text::json_members(mac);
                }
            }
        }
    }

    /// `err.to_tool_result()` (through `.into()`): a crate method called on the error itself
    /// that returns the SDK's result (which says itself whether it is an error), not text or
    /// JSON (`err.to_json()`, the error's own rendering, is still an answer built from it).
    pub(super) fn error_method_answers(&self, expr: &Expr, binding: &str) -> bool {
        let m = crate::syntax::through_methods(expr, &["into"]);
        let Expr::MethodCall(mc) = m else {
            return false;
        };
        if !super::failure::is_error_named(&mc.receiver, binding) {
            return false;
        }
        let fns = match self.call_target(m) {
            Some(Target::Fn(f)) => vec![f],
            Some(Target::Candidates(fs) | Target::Dispatch(fs)) => fs,
            _ => return false,
        };
        let returns_result = |f| {
            matches!(self.calls.types.return_syntax(f), Some(syn::ReturnType::Type(_, ty))
                if self.dialect.is_tool_result_type(ty, self.index))
        };
        !fns.is_empty() && fns.into_iter().all(returns_result)
    }

    /// A string value returned as success by a text-returning tool, on a failure path.
    pub(super) fn text_success(&mut self, expr: &'a Expr) {
        let tail = through_output_wrapper(tail_expr(expr));
        // `Err(e) => Content::text(format!(..))` in a tool answering one content block.
        let tail = match tail {
            Expr::Call(_) => self.dialect.block_text_value(tail).unwrap_or(tail),
            other => other,
        };
        let text = message_with_macros(tail, self.file, self.macros);
        let json_macro = match strip_to_string(tail) {
            Expr::Macro(m) if crate::syntax::is_json_macro(&m.mac) => Some(&m.mac),
            _ => None,
        };
        let json = json_macro.map(|m| crate::text::json_texts(m, self.file));
        // An answer built from the error: a typed output (`Ok(Stats { error:
        // Some(e.to_string()), .. })`), or the error's own rendering (`Err(e) => e.to_json()`).
        let binding = self.frames.iter().rev().find_map(|f| f.binding.as_ref());
        // `Err(e) => return e` in a text tool: the error is the text (a helper's `Err(String)`).
        let carries_error = binding.is_some_and(|b| match tail {
            Expr::Struct(_) => mentions_ident(&tail.to_token_stream_string(), b),
            // `.unwrap_or_else(|e| e.into_inner())`: a poisoned lock's guard taken back.
            Expr::MethodCall(m) if m.method == "into_inner" => false,
            // Not a crate method of the error (`err.to_tool_result().into()`): that fn decides
            // what the answer is, and its own answers are judged where it builds them.
            Expr::MethodCall(_) => {
                method_chain_root(tail).is_some_and(|r| &r == b)
                    && !self.error_method_answers(tail, b)
            }
            Expr::Path(p) => p.path.is_ident(b),
            _ => false,
        });
        let stringish = !text.is_opaque() || is_to_string(tail) || json.is_some() || carries_error;
        // On a failure path, or an early `return` whose answer may say it failed.
        let failure_or_exit = !self.frames.is_empty() || self.returning > 0;
        if stringish && failure_or_exit && self.nested == 0 {
            let span = self.file.span_of(tail);
            let content = ContentFacts {
                empty: text.is_blank(),
                texts: json.unwrap_or_else(|| vec![text]),
            };
            self.add_site(
                tail,
                span,
                Channel::ToolSuccess,
                None,
                content,
                Origin::TextValue,
            );
            if let (Some((site, _)), Some(m)) = (self.facts.sites.last_mut(), json_macro) {
                site.answer_members = crate::text::json_members(m);
            }
        }
    }

    /// An error value that the tool's error type turns into an isError result.
    pub(super) fn tool_error_value(&mut self, whole: &'a Expr, value: &'a Expr) {
        if self.builds_tool_result(value) {
            return;
        }
        let content = self.dialect.error_value_text(value, self.file);
        let span = self.file.span_of(whole);
        self.add_site(
            whole,
            span,
            Channel::ToolError,
            None,
            content,
            Origin::ToolErr,
        );
    }

    /// Whether the body's declared `Ok` type is the SDK's tool result (`-> Result<CallToolResult>`).
    fn ok_is_tool_result(&self) -> bool {
        self.body.sig.is_some_and(|sig| match &sig.output {
            syn::ReturnType::Type(_, ty) => crate::types::ok_type(ty)
                .is_some_and(|ok| self.dialect.is_tool_result_type(ok, self.index)),
            syn::ReturnType::Default => false,
        })
    }

    /// Whether an expression is itself an SDK tool-result construction (or a protocol error
    /// converted into the crate's isError type here, which is its own site).
    pub(super) fn builds_tool_result(&self, expr: &Expr) -> bool {
        let expr = match expr {
            Expr::MethodCall(m) if m.method == "into" && m.args.is_empty() => &*m.receiver,
            other => other,
        };
        let returns = self.returns();
        match expr {
            Expr::Call(c) => match self.dialect.construction_of_call(c, self.index, &returns) {
                Some(Construction::ToolResult { .. }) => true,
                Some(Construction::ProtocolError { .. }) => returns.wraps_protocol_errors,
                None => false,
            },
            _ => false,
        }
    }

    pub(super) fn tool_error_value_call(&mut self, call: &'a syn::ExprCall, value: &'a Expr) {
        if self.builds_tool_result(value) {
            return;
        }
        let content = self.dialect.error_value_text(value, self.file);
        let span = self.file.span_of(call);
        self.add_site(
            call,
            span,
            Channel::ToolError,
            None,
            content,
            Origin::ToolErr,
        );
    }

    /// The SDK construction or code an expression is, if any, recorded as a site; whether it
    /// builds a tool result and whether it builds a protocol error (its arguments are walked
    /// inside that value).
    pub(super) fn constructions_at(&mut self, expr: &'a Expr) -> (bool, bool) {
        let mut tool_value = false;
        let mut protocol_value = false;
        // A unit or struct variant (`ApiError::NotConfigured`, `Error::Limit { .. }`): a build
        // of it (a call's is noted at the call, a point-free one at its `map_err`).
        let variant_value = match expr {
            // Not a local (`x`): a variant is qualified or, imported bare, capitalised.
            Expr::Path(p) => {
                (p.path.segments.len() > 1
                    || p.path.segments[0]
                        .ident
                        .to_string()
                        .starts_with(char::is_uppercase))
                    && !self.callee_paths.contains(&(p as *const syn::ExprPath))
                    && !self.point_free.contains(&(p as *const syn::ExprPath))
            }
            Expr::Struct(_) => true,
            _ => false,
        };
        if variant_value {
            if let Some((e, v)) = self.resolver.variant_of(expr, &self.locals) {
                self.variant_built(expr, e, v);
            }
        }
        match expr {
            Expr::Call(call) if !self.consumed.contains(&(call as *const syn::ExprCall)) => {
                if let Expr::Path(p) = &*call.func {
                    self.callee_paths.insert(p as *const syn::ExprPath);
                }
                if let Some(built) =
                    self.dialect
                        .construction_of_call(call, self.index, &self.returns())
                {
                    tool_value = matches!(built, Construction::ToolResult { .. });
                    protocol_value = !tool_value;
                    self.construction(expr, built);
                } else if let Some(built) = self.construction_with_returned_code(call) {
                    protocol_value = true;
                    self.construction(expr, built);
                } else if let Expr::Path(p) = &*call.func {
                    protocol_value = self.error_constructor_call(expr, p, Some(&call.args));
                    if !protocol_value {
                        tool_value = self.result_helper_call(expr, &call.args);
                    }
                }
            }
            Expr::MethodCall(mc) => {
                if let Some((built, inner)) =
                    self.dialect
                        .construction_of_method(mc, self.index, &self.returns())
                {
                    self.consumed.insert(inner as *const syn::ExprCall);
                    protocol_value = matches!(built, Construction::ProtocolError { .. });
                    self.construction(expr, built);
                } else if let Some(built) = self
                    .dialect
                    .construction_of_content_into(mc)
                    .filter(|_| self.ok_is_tool_result())
                {
                    tool_value = true;
                    self.construction(expr, built);
                } else {
                    protocol_value = self.error_helper_method_call(expr, mc);
                    if !protocol_value {
                        tool_value = self.result_helper_call(expr, &mc.args);
                    }
                }
            }
            Expr::Struct(s) => {
                // In an error type's own constructor the calls are the sites; its codes count
                // here.
                if self.in_error_constructor()
                    && (s.path.is_ident("Self")
                        || matches!(
                            self.dialect.construction_of_struct(s, self.index),
                            Some(Construction::ProtocolError { .. })
                        ))
                {
                    return (false, true);
                }
                // `Self { is_error: true, ..Self::text(t) }`: the literal's own flag decides; the
                // base only supplies the content.
                if let Some(Expr::Call(base)) = s.rest.as_deref() {
                    let field = |name| crate::syntax::field_value(s, name).is_some();
                    if field("is_error") || field("isError") {
                        self.consumed.insert(base as *const syn::ExprCall);
                    }
                }
                if let Some(built) = self.dialect.construction_of_struct(s, self.index) {
                    protocol_value = matches!(built, Construction::ProtocolError { .. });
                    self.construction(expr, built);
                }
            }
            // `Error::RateLimited`: a unit variant that is an error (not the callee of a call).
            Expr::Path(p)
                if !self.callee_paths.contains(&(p as *const syn::ExprPath))
                    && self
                        .dialect
                        .construction_of_path(&p.path, self.index, &self.returns(), false)
                        .is_some() =>
            {
                if let Some(built) =
                    self.dialect
                        .construction_of_path(&p.path, self.index, &self.returns(), false)
                {
                    self.construction(expr, built);
                }
            }
            // Hand-rolled servers: `-32001` or `LEGACY_CODE` where an error is built (an SDK's
            // named constant is the next arm's).
            Expr::Unary(_) | Expr::Path(_)
                if self.dialect.bare_codes()
                    && !matches!(expr, Expr::Path(p) if self.dialect.is_code_constant(&p.path))
                    && self.protocol_args > 0
                    && self.code_calls == 0
                    && self.comparison == 0 =>
            {
                // A const declared with a code type is reported at its definition.
                let typed_const = matches!(expr, Expr::Path(p) if p.path.get_ident().is_some_and(|id| {
                    self.index.consts.get(&id.to_string()).is_some_and(|c| c.typed_code)
                }));
                if let (Some(code), false) = (self.dialect.code_use(expr, self.index), typed_const)
                {
                    self.code_site(self.file.span_of(expr), code.value, code.written, false);
                    if let (Expr::Path(p), true) = (expr, self.in_error_type_impl()) {
                        self.const_code_use(p);
                    }
                }
            }
            // A named code constant counts where an error is built with it (or a const is defined
            // from it); elsewhere it is usually read (`e.is_error_code(ErrorCode::X)`).
            Expr::Path(p)
                if self.comparison == 0
                    && self.tool_values == 0
                    && (self.protocol_args > 0 || self.is_const_body())
                    && self.dialect.is_code_constant(&p.path) =>
            {
                if let Some(code) = self.dialect.code_use(expr, self.index) {
                    self.code_site(self.file.span_of(expr), code.value, code.written, true);
                }
            }
            _ => {}
        }
        (tool_value, protocol_value)
    }

    /// `.map_err(Error::invalid_params)`, `.map_err(AppError::busy)`: an SDK's or the crate's
    /// error constructor given as a value; the message is the error's own text.
    pub(super) fn point_free_constructor(&mut self, expr: &'a Expr, path: &'a syn::ExprPath) {
        let returns = self.returns();
        match self
            .dialect
            .construction_of_path(&path.path, self.index, &returns, true)
        {
            Some(built) => {
                self.construction(expr, built);
                if let Some((site, _)) = self.facts.sites.last_mut() {
                    site.texts = vec![MessageText::Opaque];
                }
            }
            None => {
                self.error_constructor_call(expr, path, None);
            }
        }
    }

    /// A call of a crate error type's own constructor (`RpcError::invalid_params(msg)`, or
    /// point-free in `.map_err(RpcError::invalid_params)` when `args` is `None`): the protocol
    /// error it builds, built here; whether it is one.
    pub(super) fn error_constructor_call(
        &mut self,
        expr: &'a Expr,
        path: &'a syn::ExprPath,
        args: Option<&'a syn::punctuated::Punctuated<Expr, syn::Token![,]>>,
    ) -> bool {
        // Constructors are `Type::name` / `Self::name`, or a hand-rolled server's free error
        // helper (`err(id, code, msg)`); most crates have none.
        if self.calls.error_constructors.is_empty() {
            return false;
        }
        let Target::Fn(f) = self.resolver.path_target(path, &self.locals) else {
            return false;
        };
        // In a constructor that delegates to another (`Self::new(INTERNAL_ERROR, m)`), its
        // calls are the sites, as in one that builds `Self { .. }`.
        if self.in_error_constructor() && self.calls.error_constructor(f).is_some() {
            return true;
        }
        // `Request::error(&req, code, ..)`: the receiver comes first.
        let receiver = self.calls.error_constructor(f).is_some_and(|c| c.receiver);
        let args = args.map(|a| a.iter().skip(usize::from(receiver)).collect());
        self.built_by_error_constructor(expr, f, args)
    }

    /// `req.error(-32603, msg, None)`: a crate error helper method (see
    /// [`crate::model::callgraph::error_constructor`]) called on a value; whether it is one.
    fn error_helper_method_call(&mut self, expr: &'a Expr, mc: &'a syn::ExprMethodCall) -> bool {
        if self.calls.error_constructors.is_empty() {
            return false;
        }
        let Some(Target::Fn(f)) = self.call_target(expr) else {
            return false;
        };
        self.built_by_error_constructor(expr, f, Some(mc.args.iter().collect()))
    }

    /// A call of error constructor `f` with `args` (its inputs after any receiver; `None`
    /// point-free): the protocol error it builds, built here; whether `f` is one.
    fn built_by_error_constructor(
        &mut self,
        expr: &'a Expr,
        f: FnKey,
        args: Option<Vec<&'a Expr>>,
    ) -> bool {
        let Some(ctor) = self.calls.error_constructor(f).cloned() else {
            return false;
        };
        let arg = |i: Option<usize>| i.and_then(|i| args.as_ref().and_then(|a| a.get(i).copied()));
        let code = ctor.code.or_else(|| {
            arg(ctor.code_param).and_then(|a| {
                self.dialect
                    .code_use(a, self.index)
                    .map(|c| c.value)
                    .or_else(|| self.index.eval_int(a))
            })
        });
        let built = Construction::ProtocolError {
            constructor: ctor.name.clone(),
            code,
            message: arg(ctor.message_param),
        };
        self.construction(expr, built);
        // Point-free, the message is the error's own text.
        if args.is_none() && ctor.message_param.is_some() {
            if let Some((site, _)) = self.facts.sites.last_mut() {
                site.texts = vec![MessageText::Opaque];
            }
        }
        true
    }

    /// `wrap(text, true)`, `common.wrap_mcp_response(&msg, true)`: the tool result a
    /// [`crate::model::site::ResultHelper`] builds with the literal flag it is given.
    /// `expr` is the call, `args` its arguments.
    fn result_helper_call(
        &mut self,
        expr: &'a Expr,
        args: &'a syn::punctuated::Punctuated<Expr, syn::Token![,]>,
    ) -> bool {
        if self.calls.result_helpers.is_empty() {
            return false;
        }
        let Some(Target::Fn(f)) = self.call_target(expr) else {
            return false;
        };
        let Some(helper) = self.calls.result_helper(f) else {
            return false;
        };
        let is_error = match helper.flag {
            ResultFlag::Fixed(is_error) => is_error,
            ResultFlag::Param(i) => match args.iter().nth(i) {
                Some(Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Bool(flag),
                    ..
                })) => flag.value,
                _ => return false,
            },
        };
        let built = Construction::ToolResult {
            constructor: helper.name.clone(),
            is_error,
            content: helper.text_param.and_then(|i| args.iter().nth(i)),
            never_empty: false,
        };
        self.construction(expr, built);
        true
    }

    /// Whether this body is a fn of a crate error type's own impl (`Self::new(CODE, msg)` in
    /// `fn server_busy(..) -> Self`): the codes there are the type's vocabulary.
    fn in_error_type_impl(&self) -> bool {
        self.resolver
            .self_type()
            .is_some_and(|t| self.calls.error_types.contains(&t))
    }

    /// The value of a crate const (of any package of the workspace) that an argument of the
    /// call names by path, resolved from this body's module.
    fn const_code_argument(&self, expr: &Expr) -> Option<i64> {
        let Expr::Call(call) = expr else {
            return None;
        };
        call.args.iter().find_map(|arg| match arg {
            Expr::Path(p) => self.resolved_const(p).map(|(_, value)| value),
            _ => None,
        })
    }

    /// A code written as a path in the error type's own impl: when the path resolves to a crate
    /// const, the code site just recorded is the const's, to be reported at its definition.
    fn const_code_use(&mut self, path: &syn::ExprPath) {
        if let (Some((id, value)), Some(site)) =
            (self.resolved_const(path), self.facts.codes.last_mut())
        {
            site.value = value;
            site.definition = Some(id);
        }
    }

    /// The crate const `path` names from this body's module, and its value (the value of that
    /// const, not of another by the same name).
    fn resolved_const(&self, path: &syn::ExprPath) -> Option<(crate::model::ids::ItemId, i64)> {
        let scope = self.body.scope?;
        if path.qself.is_some() {
            return None;
        }
        let crate::resolve::Def::Item(id) =
            self.calls
                .defs
                .resolve_path(scope.module, &path.path, crate::resolve::Ns::Values)?
        else {
            return None;
        };
        match self.calls.defs.item(id).syntax {
            syn::Item::Const(c) => Some((id, self.index.eval_int(&c.expr)?)),
            _ => None,
        }
    }

    /// Whether this body is a crate error type's own constructor.
    fn in_error_constructor(&self) -> bool {
        self.body
            .sig
            .is_some_and(|sig| self.calls.error_constructor(sig).is_some())
    }

    /// A const or discriminant of an SDK's library: the SDK's name for a code it sends
    /// (`pub const REQUEST_TIMEOUT: i32 = -32001`, `Self(-32001)` in `impl ErrorCode`) counts at
    /// its definition, as a named code.
    pub(super) fn sdk_code_definition(&mut self, init: &'a Expr) {
        if self.facts.codes.is_empty() {
            // A literal (through one constructor, `Self(..)`), not a copy of another const.
            let literal = match init {
                Expr::Call(c) if c.args.len() == 1 => &c.args[0],
                other => other,
            };
            let code = (!matches!(literal, Expr::Path(_)))
                .then(|| self.index.eval_int(literal))
                .flatten()
                .filter(|v| (-32768..=-32000).contains(v));
            if let Some(value) = code {
                let written = format!("{} = {value}", self.body.name);
                self.code_site(self.file.span_of(init), value, written, true);
            }
        }
        for code in &mut self.facts.codes {
            code.named = true;
        }
    }

    /// `r.is_error = Some(true)`: an isError result (and no longer the success result `r` was
    /// built as).
    pub(super) fn is_error_assignment(&mut self, a: &'a syn::ExprAssign) {
        if let Expr::Field(f) = &*a.left {
            let is_error_field =
                matches!(&f.member, syn::Member::Named(id) if id == self.dialect.is_error_field());
            if is_error_field && crate::sdk::is_true(&a.right) {
                let content = self
                    .let_init(&f.base)
                    .and_then(|init| match init {
                        Expr::Call(c) => match self.dialect.construction_of_call(
                            c,
                            self.index,
                            &self.body.returns,
                        ) {
                            Some(Construction::ToolResult {
                                content: Some(c),
                                never_empty,
                                ..
                            }) => {
                                // The result is an isError one: not a success answer.
                                self.success_contents
                                    .retain(|(content, ..)| !std::ptr::eq(*content, c));
                                let mut facts = self.dialect.content_facts(c, self.file);
                                facts.empty &= !never_empty;
                                Some(facts)
                            }
                            _ => None,
                        },
                        _ => None,
                    })
                    .unwrap_or_else(ContentFacts::unknown);
                let span = self.file.span_of(a);
                self.add_site(
                    a,
                    span,
                    Channel::ToolError,
                    None,
                    content,
                    Origin::IsErrorAssignment,
                );
                // `let mut r = CallToolResult::success(..); r.is_error = Some(true);` is an
                // error result, not a success one.
                if let Some(init) = self.let_init(&f.base) {
                    let init_span = self.file.span_of(init);
                    self.facts.sites.retain(|(s, _)| {
                        !(s.channel == Channel::ToolSuccess && s.span == init_span)
                    });
                }
            }
        }
    }

    /// A macro the dialect reads as building a protocol error or a tool result; whether it is.
    pub(super) fn macro_construction(&mut self, mac: &'a syn::Macro) -> bool {
        match self
            .dialect
            .construction_of_macro(mac, self.index, self.file, &self.returns())
        {
            Some(MacroBuilt::Protocol {
                code,
                code_span,
                code_expr,
                message,
                name,
            }) => {
                let span = self.file.span_of(mac);
                // `"code": code` with `code` picked per variant, or `"code": e.rpc_code()`: one
                // site per arm.
                let arms = code_expr
                    .filter(|_| code.is_none() && self.variant.is_none())
                    .and_then(|e| self.arm_codes_of_code(&e));
                if let Some(arms) = arms {
                    for arm in arms {
                        if self.comparison == 0 && self.tool_values == 0 {
                            let at = arm.written_in.unwrap_or((self.body.file, self.body.id));
                            self.code_site_in(at, arm.span, arm.value, arm.written, false);
                        }
                        self.variant = arm.variant;
                        self.code_one_of = arm.one_of;
                        let content = ContentFacts {
                            empty: false,
                            texts: vec![message.clone()],
                        };
                        self.add_site(
                            mac,
                            span,
                            Channel::Protocol,
                            Some(arm.value),
                            content,
                            Origin::Constructor(name.clone()),
                        );
                    }
                    self.variant = None;
                    self.code_one_of = Vec::new();
                    return true;
                }
                if let (Some(value), Some(code_span)) = (code, code_span) {
                    self.code_site(code_span, value, value.to_string(), false);
                }
                let content = ContentFacts {
                    empty: false,
                    texts: vec![message],
                };
                self.add_site(
                    mac,
                    span,
                    Channel::Protocol,
                    code,
                    content,
                    Origin::Constructor(name),
                );
            }
            Some(MacroBuilt::ToolResult {
                is_error,
                content,
                name,
            }) => {
                let span = self.file.span_of(mac);
                let channel = if is_error {
                    Channel::ToolError
                } else {
                    Channel::ToolSuccess
                };
                // A hand-rolled success result (`json!({"content": [{"type": "text", "text":
                // text}]})`): the values it is built from are what it answers with.
                if channel == Channel::ToolSuccess {
                    let macros = self.macros;
                    for value in macros.get(mac) {
                        if !matches!(value, Expr::Lit(_)) {
                            self.note_success_content(value, span);
                        }
                    }
                }
                self.add_site(mac, span, channel, None, content, Origin::Constructor(name));
            }
            None => return false,
        }
        true
    }
}

/// `Json(value)`: a tool's structured output wrapper around the value it answers with.
fn through_output_wrapper(expr: &Expr) -> &Expr {
    match expr {
        Expr::Call(c) if c.args.len() == 1 => match &*c.func {
            Expr::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "Json") => {
                &c.args[0]
            }
            _ => expr,
        },
        _ => expr,
    }
}

/// `json!(..).to_string()`: the value rendered as text.
fn strip_to_string(expr: &Expr) -> &Expr {
    match expr {
        Expr::MethodCall(m) if m.method == "to_string" && m.args.is_empty() => &m.receiver,
        _ => expr,
    }
}

/// The local a method chain starts from (`e` of `e.render().to_string()`).
fn method_chain_root(expr: &Expr) -> Option<String> {
    match expr {
        Expr::MethodCall(mc) => method_chain_root(&mc.receiver),
        Expr::Path(p) => p.path.get_ident().map(|i| i.to_string()),
        Expr::Paren(p) => method_chain_root(&p.expr),
        Expr::Reference(r) => method_chain_root(&r.expr),
        _ => None,
    }
}

impl<'a> Walker<'a, '_> {
    /// A message's text; a crate `const` of a string literal it names (`ERROR_INVALID_TIMEZONE`,
    /// through `&`, `.to_string()`, `.into()`) is that literal, reported where it is named.
    fn message_or_const(&self, message: &Expr) -> MessageText {
        let text = message_with_macros(message, self.file, self.macros);
        if !text.is_opaque() {
            return text;
        }
        let named = crate::syntax::through_methods(
            crate::syntax::strip_refs(message),
            &["to_string", "to_owned", "into"],
        );
        let (Expr::Path(p), Some(scope)) = (named, self.body.scope) else {
            return text;
        };
        let Some(crate::resolve::Def::Item(id)) =
            self.calls
                .defs
                .resolve_path(scope.module, &p.path, crate::resolve::Ns::Values)
        else {
            return text;
        };
        match self.calls.defs.item(id).syntax {
            syn::Item::Const(c) => match crate::syntax::str_literal(&c.expr) {
                Some(value) => MessageText::Literal {
                    value,
                    span: self.file.span_of(message),
                },
                None => text,
            },
            _ => text,
        }
    }
}

/// The source of a message as text: an `anyhow!(..)` / `eyre!(..)` error given as the message is
/// written `format!(..)` (the same arguments), which every text parameter takes.
fn as_text_source(message: &Expr, src: &str) -> String {
    let Expr::Macro(m) = message else {
        return src.to_string();
    };
    let report = matches!(
        crate::syntax::last_segment(&m.mac.path).as_deref(),
        Some("anyhow" | "eyre" | "format_err")
    );
    match src.find('!') {
        Some(bang) if report => format!("format{}", &src[bang..]),
        _ => src.to_string(),
    }
}
