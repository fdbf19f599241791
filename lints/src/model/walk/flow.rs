//! How a body's answers flow ([`BodyAnswers`]): the values it returns, traced back through its
//! `let`s, branches and calls to where each is built — its own values (text, JSON, an output
//! struct) that sit on a failure path or an early return, what a crate fn returns (with the
//! arguments it may pass on), or an input it passes on as it is — and the same for every success
//! answer it gives (a success result's content, a text tool's returned value). The model follows
//! these from each success answer ([`crate::model::answers`]): failure text that reaches one
//! through a local or a helper is a failure answered as success.
//!
//! Only whole values are followed: a value a `format!` embeds in other text, a `.len()` of it or
//! an item pushed into a list is part of another answer, not the answer.

use std::collections::HashMap;

use syn::visit::{self, Visit};
use syn::{Expr, Pat};

use super::{AnswerPoint, Walker};
use crate::model::bodies::BodyCode;
use crate::model::site::{
    AnswerSource, BodyAnswers, Callee, Channel, ErrorSite, Origin, SiteContext, SuccessAnswer,
};
use crate::resolve::{Def, Ns};
use crate::sdk::HandlerKind;
use crate::source::{SourceFile, Span};
use crate::syntax::{
    answered_json, is_to_string, mentions_ident, pat_ident, path_segments, tail_expr, TokensString,
};
use crate::text::{message_with_macros, MessageText};

/// How deep a value is followed through `let`s and branches of one body.
const MAX_DEPTH: usize = 32;

/// A `let` of the body: the name it binds, where it starts, where its block ends, its
/// initialiser.
struct Let<'a> {
    name: String,
    start: usize,
    scope_end: usize,
    init: &'a Expr,
    /// Bound by a tuple pattern (`let (content, prefix) = match .. { .. }`): the element of
    /// each tuple the initialiser evaluates to.
    elem: Option<usize>,
}

/// Methods whose value is their receiver's, as text or unwrapped (`.to_string()`, `.into()`,
/// `.unwrap()`).
const PASSING_METHODS: &[&str] = &[
    "into",
    "to_string",
    "to_owned",
    "clone",
    "as_str",
    "as_ref",
    "as_deref",
    "unwrap",
    "expect",
    "unwrap_or_default",
    // The `Ok` value as it is.
    "map_err",
    "context",
    "with_context",
];

/// Calls whose value is their argument's, whole: a wrapper, a conversion, the argument
/// serialised or parsed (`serde_json::to_string(&output)` is `output` as JSON).
fn passes_argument(segs: &[String]) -> bool {
    match segs {
        [one] => matches!(one.as_str(), "Ok" | "Some" | "Json"),
        [.., ty, f] if ty == "String" => f == "from",
        [.., m, f] if m.starts_with("serde") => {
            matches!(
                f.as_str(),
                "to_string" | "to_string_pretty" | "to_value" | "from_str" | "from_value"
            )
        }
        _ => false,
    }
}

impl<'a> Walker<'a, '_> {
    /// Remember what the walk knows at `expr`, a value that may be an answer: on a failure path,
    /// in an early `return`, in a dispatcher's unknown-tool arm.
    pub(super) fn note_answer_point(&mut self, expr: &'a Expr) {
        let unknown_arm = matches!(self.arm, Some(SiteContext::UnknownToolArm { .. }));
        // `Err(e) => return e`: the failure's own value, bound by the frame it sits in.
        let failure_binding = matches!(expr, Expr::Path(p) if p.path.get_ident().is_some_and(|i| {
            self.frames.iter().any(|f| f.binding.as_ref().is_some_and(|b| i == b))
        }));
        if self.nested > 0
            || (self.expanded_from.is_some() && !self.in_tool_expansion())
            || !(unknown_arm || self.returning > 0 || self.cfg_off > 0 || !self.frames.is_empty())
            || !matches!(
                expr,
                Expr::Lit(_)
                    | Expr::Macro(_)
                    | Expr::MethodCall(_)
                    | Expr::Call(_)
                    | Expr::Struct(_)
            ) && !failure_binding
        {
            return;
        }
        self.answer_points.insert(
            expr as *const Expr,
            AnswerPoint {
                frames: self.frames.clone(),
                returning: self.returning,
                tests_other_value: self.other_value_branches > 0
                    && self.self_state_branches == 0
                    && self.flag_branches == 0,
                absent_optional: self.absent_optional,
                cfg_off: self.cfg_off > 0,
                arm: self.arm.clone(),
            },
        );
    }

    /// A success result's content (`vec![Content::text(x)]`) that this body answers with.
    pub(super) fn note_success_content(&mut self, content: &'a Expr, span: Span) {
        // `if is_error { structured_error(v) } else { structured(v) }` on a flag the caller
        // passes: which answer is the caller's to say, neither is this body's.
        if self.nested == 0 && self.expanded_from.is_none() && self.flag_branches == 0 {
            self.success_contents
                .push((content, self.arm.clone(), span));
        }
    }

    /// The body's answers, once the walk has seen all of it.
    pub(super) fn answers(&mut self) -> BodyAnswers {
        let mut flow = Flow {
            lets: Vec::new(),
            params: self.param_names(),
            answers: Vec::new(),
            answer_at: HashMap::new(),
            of_let: HashMap::new(),
            expansion: None,
        };
        let (tails, returns) = match self.body.code {
            BodyCode::Block(b) => {
                let mut lets = Lets(Vec::new(), self.file, Vec::new());
                lets.visit_block(b);
                flow.lets = lets.0;
                let mut returns = Returns(Vec::new());
                returns.visit_block(b);
                let tails = crate::syntax::block_values(b);
                (tails, returns.0)
            }
            BodyCode::Expr(e) => {
                let mut returns = Returns(Vec::new());
                returns.visit_expr(e);
                (vec![e], returns.0)
            }
        };
        let mut returned = Vec::new();
        for e in tails.into_iter().chain(returns) {
            returned.extend(self.sources(&mut flow, e, None, 0));
        }
        let mut success = Vec::new();
        // A text tool answers with the value it returns.
        if self.body.kind == Some(HandlerKind::Tool) && self.body.returns.ok_is_text {
            let span = self
                .body
                .sig
                .map_or_else(Span::default, |s| self.file.span_of(&s.ident));
            success.push(SuccessAnswer {
                sources: returned.clone(),
                arm: None,
                file: self.body.file,
                span,
            });
        }
        // `if is_error(&v) { structured_error(v) } else { structured(v) }`: a parameter this
        // body answers both ways is answered as its value says, at run time; neither answer.
        let mut both_ways = Vec::new();
        for content in std::mem::take(&mut self.error_contents) {
            for value in self.content_values(content) {
                for source in self.sources(&mut flow, value, None, 0) {
                    if let AnswerSource::Param(i) = source {
                        both_ways.push(i);
                    }
                }
            }
        }
        for (content, arm, span) in std::mem::take(&mut self.success_contents) {
            let mut sources = Vec::new();
            for value in self.content_values(content) {
                sources.extend(self.sources(&mut flow, value, None, 0));
            }
            sources.retain(|s| !matches!(s, AnswerSource::Param(i) if both_ways.contains(i)));
            success.push(SuccessAnswer {
                sources,
                arm,
                file: self.body.file,
                span,
            });
        }
        BodyAnswers {
            answers: flow.answers,
            returned,
            success,
        }
    }

    /// Where the value of `expr` comes from; `outer` is the whole value it is part of (an
    /// argument a crate fn passes on is reported where that call's value is).
    fn sources(
        &mut self,
        flow: &mut Flow<'a>,
        expr: &'a Expr,
        outer: Option<&'a Expr>,
        depth: usize,
    ) -> Vec<AnswerSource> {
        if depth > MAX_DEPTH {
            return Vec::new();
        }
        let depth = depth + 1;
        let whole = outer.unwrap_or(expr);
        match expr {
            Expr::Paren(p) => self.sources(flow, &p.expr, outer, depth),
            Expr::Group(g) => self.sources(flow, &g.expr, outer, depth),
            Expr::Await(a) => self.sources(flow, &a.base, outer, depth),
            Expr::Reference(r) => self.sources(flow, &r.expr, outer, depth),
            Expr::Try(t) => self.sources(flow, &t.expr, outer, depth),
            Expr::Block(b) => self.block_sources(flow, &b.block, depth),
            Expr::Unsafe(u) => self.block_sources(flow, &u.block, depth),
            // `if is_error { structured_error(v) } else { structured(v) }`: the caller's flag
            // picks the answer; neither is this body's own. A flag that picks between two
            // values of another kind (`if save_to_file { Ok(save(d)) } else { Ok(image(d)) }`)
            // picks no answer: both are followed.
            Expr::If(i) if self.tests_param_flag(&i.cond) && self.picks_answer(i) => Vec::new(),
            Expr::If(i) => {
                let mut out = self.block_sources(flow, &i.then_branch, depth);
                if let Some((_, e)) = &i.else_branch {
                    out.extend(self.sources(flow, e, None, depth));
                }
                out
            }
            Expr::Match(m) => {
                let mut out = Vec::new();
                for arm in &m.arms {
                    // `Ok(j) => j`: the payload of what the scrutinee holds, read from the
                    // structure (a crate macro's expansion has one position for all its nodes).
                    let passes_payload = payload_binding(&arm.pat).is_some_and(|name| {
                        matches!(tail_expr(&arm.body), Expr::Path(p) if p.path.is_ident(&name))
                    });
                    match passes_payload {
                        true => out.extend(self.sources(flow, &m.expr, None, depth)),
                        false => out.extend(self.sources(flow, &arm.body, None, depth)),
                    }
                }
                out
            }
            Expr::Path(p) => {
                let Some(name) = p.path.get_ident().map(|i| i.to_string()) else {
                    return Vec::new();
                };
                let at = self.file.span_of(p).start;
                if let Some((init, elem)) = flow.let_at(&name, at) {
                    let key = (init as *const Expr, elem);
                    if let Some(known) = flow.of_let.get(&key) {
                        return known.clone();
                    }
                    // A `let` read inside its own initialiser (`let x = x.trim()`) is the one
                    // before it; until then, it counts as nothing.
                    flow.of_let.insert(key, Vec::new());
                    let found = match elem {
                        None => self.sources(flow, init, None, depth),
                        // Each branch's tuple, at that element (a tuple from elsewhere: unknown).
                        Some(elem) => {
                            let mut leaves = Vec::new();
                            super::calls::value_leaves(init, &mut leaves, 0);
                            leaves
                                .into_iter()
                                .filter_map(|leaf| match leaf {
                                    Expr::Tuple(t) => t.elems.iter().nth(elem),
                                    _ => None,
                                })
                                .flat_map(|value| self.sources(flow, value, None, depth))
                                .collect()
                        }
                    };
                    flow.of_let.insert(key, found.clone());
                    return found;
                }
                match flow.params.iter().position(|n| *n == name) {
                    Some(i) => vec![AnswerSource::Param(i)],
                    // `Err(e) => return e`: the error value itself, when the walk saw it on
                    // that failure path.
                    None => self.own_answer(flow, expr, whole),
                }
            }
            Expr::Call(c) => {
                if let Expr::Path(p) = &*c.func {
                    let segs = path_segments(&p.path);
                    if segs.len() == 1 && segs[0] == "Err" {
                        return Vec::new();
                    }
                    // A wrapper is reported where its value is (`Ok(format!(..))` at the text).
                    if c.args.len() == 1 && passes_argument(&segs) {
                        return self.sources(flow, &c.args[0], outer, depth);
                    }
                }
                // A content block a local holds (`let content = ContentBlock::json(payload)?`):
                // its text's value.
                if let Some(value) = self.dialect.block_text_value(expr) {
                    return self.sources(flow, value, outer, depth);
                }
                let mut out = self.own_answer(flow, expr, whole);
                let address = c as *const syn::ExprCall as *const ();
                if let Some((callee, arm)) = self.crate_call(address) {
                    let args = c
                        .args
                        .iter()
                        .map(|a| self.sources(flow, a, Some(whole), depth))
                        .collect();
                    out.push(AnswerSource::Call { callee, arm, args });
                }
                out
            }
            Expr::MethodCall(mc) => {
                let method = mc.method.to_string();
                if PASSING_METHODS.contains(&method.as_str()) && mc.args.len() <= 1 {
                    let mut out = self.own_answer(flow, expr, whole);
                    out.extend(self.sources(flow, &mc.receiver, Some(whole), depth));
                    return out;
                }
                // `.unwrap_or(v)`, `.unwrap_or_else(|e| v)`: the receiver's value, or the fallback.
                if matches!(method.as_str(), "unwrap_or" | "unwrap_or_else" | "or_else")
                    && mc.args.len() == 1
                {
                    // `serde_json::to_string(&json!({..})).unwrap_or_else(..)`: the JSON is the
                    // answer, noted as the whole expression.
                    // Reported at the serialisation, apart from the fallback's own answer.
                    let mut out = if answered_json(expr).is_some() {
                        let at = if outer.is_some() {
                            whole
                        } else {
                            &*mc.receiver
                        };
                        self.own_answer(flow, expr, at)
                    } else {
                        self.sources(flow, &mc.receiver, Some(whole), depth)
                    };
                    let fallback = match &mc.args[0] {
                        Expr::Closure(c) => &*c.body,
                        other => other,
                    };
                    out.extend(self.sources(flow, fallback, None, depth));
                    return out;
                }
                let mut out = self.own_answer(flow, expr, whole);
                let address = mc as *const syn::ExprMethodCall as *const ();
                if let Some((callee, arm)) = self.crate_call(address) {
                    let args = std::iter::once(&*mc.receiver)
                        .chain(mc.args.iter())
                        .map(|a| self.sources(flow, a, Some(whole), depth))
                        .collect();
                    out.push(AnswerSource::Call { callee, arm, args });
                }
                out
            }
            // A crate macro the tool's body calls: its value is what it expands to.
            Expr::Macro(m) => match self.tool_expansion_of(&m.mac) {
                Some((expansion, macro_item)) => {
                    let around = flow.expansion.replace(macro_item);
                    let out = self.sources(flow, expansion, None, depth);
                    flow.expansion = around;
                    out
                }
                None => self.own_answer(flow, expr, whole),
            },
            Expr::Lit(_) | Expr::Struct(_) => self.own_answer(flow, expr, whole),
            _ => Vec::new(),
        }
    }

    fn block_sources(
        &mut self,
        flow: &mut Flow<'a>,
        block: &'a syn::Block,
        depth: usize,
    ) -> Vec<AnswerSource> {
        crate::syntax::block_values(block)
            .into_iter()
            .flat_map(|e| self.sources(flow, e, None, depth))
            .collect()
    }

    /// The crate fns a call (by address) resolved to, and the dispatch arm it sits in.
    fn crate_call(&self, address: *const ()) -> Option<(Callee, Option<SiteContext>)> {
        let edge = &self.facts.calls[*self.edge_of_call.get(&address)?];
        let callee = match &edge.callee {
            // Methods of that name whose receiver's type is not known: not followed.
            Callee::Candidates(_) | Callee::FromImpls(_) => return None,
            other => other.clone(),
        };
        Some((callee, edge.context_override.clone()))
    }

    /// `expr` as one of the body's own answer values, when the walk saw it on a failure path,
    /// in an early `return` or a dispatcher's unknown-tool arm, and it is text, JSON or an output
    /// struct (or built from the error); `whole` is where it is reported.
    fn own_answer(
        &mut self,
        flow: &mut Flow<'a>,
        expr: &'a Expr,
        whole: &'a Expr,
    ) -> Vec<AnswerSource> {
        let key = whole as *const Expr;
        if let Some(&i) = flow.answer_at.get(&key) {
            return vec![AnswerSource::Answer(i)];
        }
        let Some(point) = self.answer_points.get(&(expr as *const Expr)).cloned() else {
            return Vec::new();
        };
        let json = answered_json(expr);
        // `handed`: the texts a call hands a helper that builds the JSON answer.
        let (members, handed) = match (json, expr) {
            (Some(m), _) => (crate::text::json_members(m), None),
            (None, Expr::Struct(s)) => (struct_members(s), None),
            // `Err(_) => error_response("lock_error", "..")` on a failure path, or an early
            // `return not_connected()` in a branch taken on something the tool tested (`if
            // !client.is_connected()`): a crate helper whose value is a `json!` it builds
            // (`{"error": ..}`), read there. (An early `return disabled("mail")` on the server's
            // own setting is the helper's answer, not judged at each call.)
            (None, Expr::Call(_) | Expr::MethodCall(_))
                if !point.frames.is_empty()
                    || point.cfg_off
                    || (point.returning > 0 && point.tests_other_value) =>
            {
                let (members, inner) = self.helper_json_members(expr, 0);
                // The texts the call hands the helper; with none known, those the helper hands
                // the one that builds the JSON (`fn sheet_err(name: &str) -> String {
                // error(NotFound, &format!("Sheet '{}' not found", name), ..) }`).
                let handed = (!members.is_empty()).then(|| {
                    self.known_argument_texts(expr)
                        .or(inner)
                        .unwrap_or_else(|| vec![MessageText::Opaque])
                });
                (members, handed)
            }
            _ => (Vec::new(), None),
        };
        let text = match expr {
            Expr::Struct(s) => s
                .fields
                .iter()
                .find(|f| matches!(&f.member, syn::Member::Named(n) if n == "error" || n == "message"))
                .map_or(MessageText::Opaque, |f| {
                    message_with_macros(&f.expr, self.file, self.macros)
                }),
            _ => message_with_macros(expr, self.file, self.macros),
        };
        // `r#"{"error": ".."}"#.to_string()`: JSON written as text.
        let members = match (&text, members.is_empty()) {
            (MessageText::Literal { value, .. }, true) => crate::text::json_object_members(value),
            // `format!("{{\"error\": \"n must be 0-10, got {}\"}}", n)`: the same, with a
            // stand-in where each placeholder goes.
            (MessageText::Format { pieces, .. }, true) => {
                crate::text::json_object_members(&pieces.join("x"))
            }
            _ => members,
        };
        let texts = match (json, handed) {
            (Some(m), _) => crate::text::json_texts(m, self.file),
            // A helper's JSON answer carries the texts the call hands it
            // (`error_response("not_found", format!("Snapshot '{name}' not found"))`).
            (None, Some(handed)) => handed,
            (None, None) => vec![text],
        };
        let binding = point.frames.iter().rev().find_map(|f| f.binding.clone());
        // A crate fn handed the error itself (`Err(e) => Ok(undelivered(&e))`) decides what the
        // answer is: its own answers count, not the call.
        let uses_error = binding.as_ref().is_some_and(|b| {
            !self.hands_on_error(expr, b)
                && (mentions_ident(&expr.to_token_stream_string(), b)
                    || self.message_local_uses(flow, expr, b))
        });
        let known = texts.iter().any(|t| !t.is_opaque());
        if !(known || is_to_string(expr) || !members.is_empty() || uses_error) {
            return Vec::new();
        }
        // The path facts as the walk had them there.
        let frames = std::mem::replace(&mut self.frames, point.frames);
        let returning = std::mem::replace(&mut self.returning, point.returning);
        let absent = std::mem::replace(&mut self.absent_optional, point.absent_optional);
        let cfg_off = std::mem::replace(&mut self.cfg_off, usize::from(point.cfg_off));
        let mut path = self.path_facts(expr, &texts);
        path.uses_error = uses_error;
        self.frames = frames;
        self.returning = returning;
        self.absent_optional = absent;
        self.cfg_off = cfg_off;
        // An answer written in a crate macro's body is reported there, once for all the tools
        // whose bodies call it (where the fix goes), when its tokens say where.
        let span = flow
            .expansion
            .and_then(|m| self.calls.expander.written_at(m, whole))
            .map_or_else(|| self.file.span_of(whole), |(s, e)| self.file.span(s, e));
        let site = ErrorSite {
            file: self.body.file,
            span,
            channel: Channel::ToolSuccess,
            code: None,
            text_param: None,
            empty_content: texts.iter().all(MessageText::is_blank),
            texts,
            message_source: None,
            origin: Origin::ReachedAnswer,
            context: SiteContext::Unreached,
            path,
            body: self.body.id,
            variant: None,
            code_one_of: Vec::new(),
            result_arm: None,
            errors_of: None,
            answers_unknown_tool: false,
            related: Vec::new(),
            answer_members: members,
            shows_error_of: None,
        };
        let i = flow.answers.len();
        flow.answers.push((site, point.arm));
        flow.answer_at.insert(key, i);
        vec![AnswerSource::Answer(i)]
    }

    /// Whether an argument of the call `expr` is a local whose message is built from the error
    /// `binding` (`let msg = format!("..: {e}"); CacheResponse::error(msg)`).
    fn message_local_uses(&self, flow: &Flow<'a>, expr: &Expr, binding: &str) -> bool {
        let args: Vec<&Expr> = match expr {
            Expr::Call(c) => c.args.iter().collect(),
            Expr::MethodCall(mc) => std::iter::once(&*mc.receiver)
                .chain(mc.args.iter())
                .collect(),
            _ => return false,
        };
        args.into_iter()
            .any(|a| match crate::syntax::strip_refs(a) {
                Expr::Path(p) => p.path.get_ident().is_some_and(|name| {
                    let at = self.file.span_of(p).start;
                    let name = name.to_string();
                    flow.let_before(&name, at).is_some_and(|init| {
                        mentions_ident(&init.to_token_stream_string(), binding)
                            || self.filled_from(&name, binding)
                    })
                }),
                // `CacheResponse::error(msg).to_json()`: the receiver's own arguments.
                inner @ (Expr::Call(_) | Expr::MethodCall(_)) => {
                    self.message_local_uses(flow, inner, binding)
                }
                _ => false,
            })
    }

    /// Whether the body fills the local `name` with the error `binding` (`let mut obj =
    /// Map::new(); obj.insert("error".into(), json!(e.to_string()));`).
    fn filled_from(&self, name: &str, binding: &str) -> bool {
        struct Fills<'n> {
            name: &'n str,
            binding: &'n str,
            found: bool,
        }
        impl<'v> Visit<'v> for Fills<'_> {
            fn visit_expr_method_call(&mut self, mc: &'v syn::ExprMethodCall) {
                let fills = matches!(
                    mc.method.to_string().as_str(),
                    "insert" | "push" | "push_str" | "extend" | "append"
                );
                if fills
                    && super::failure::names_local(&mc.receiver, self.name)
                    && mc
                        .args
                        .iter()
                        .any(|a| mentions_ident(&a.to_token_stream_string(), self.binding))
                {
                    self.found = true;
                }
                visit::visit_expr_method_call(self, mc);
            }
            fn visit_item(&mut self, _: &'v syn::Item) {}
        }
        let BodyCode::Block(block) = self.body.code else {
            return false;
        };
        let mut fills = Fills {
            name,
            binding,
            found: false,
        };
        fills.visit_block(block);
        fills.found
    }

    /// Whether `expr` calls a crate fn whose only use of the error `binding` is being handed it
    /// as it is (`undelivered(&e)`, `self.answer(e)`).
    fn hands_on_error(&self, expr: &Expr, binding: &str) -> bool {
        // A crate method of the error itself that makes the SDK's result of it
        // (`err.to_tool_result().into()`).
        if self.error_method_answers(expr, binding) {
            return true;
        }
        let (address, receiver, args): (*const (), Option<&Expr>, Vec<&Expr>) = match expr {
            Expr::Call(c) => (
                c as *const syn::ExprCall as *const (),
                None,
                c.args.iter().collect(),
            ),
            Expr::MethodCall(mc) => (
                mc as *const syn::ExprMethodCall as *const (),
                Some(&*mc.receiver),
                mc.args.iter().collect(),
            ),
            _ => return false,
        };
        // By tokens: inside `format!` the error is in the macro's tokens.
        let mentions = |e: &Expr| mentions_ident(&e.to_token_stream_string(), binding);
        // The error itself, or an `Err` made of it (`json_result(Err(e))`, `json_result(Err(
        // AppleError::Transport(format!(".. {e}"))))`): the fn answers that failure its way.
        let handed = |a: &Expr| {
            super::failure::is_error_named(a, binding) || crate::syntax::err_payload(a).is_some()
        };
        self.edge_of_call.contains_key(&address)
            && !receiver.is_some_and(mentions)
            && args.iter().any(|a| mentions(a))
            && args.iter().filter(|a| mentions(a)).all(|a| handed(a))
    }

    /// The text values a success result's content holds (`x` of `vec![Content::text(x)]`), or
    /// the content itself when it is the text.
    fn content_values(&self, content: &'a Expr) -> Vec<&'a Expr> {
        match content {
            Expr::Macro(m) if m.mac.path.is_ident("vec") => self
                .macros
                .get(&m.mac)
                .iter()
                .map(|block| self.dialect.block_text_value(block).unwrap_or(block))
                .collect(),
            other => vec![other],
        }
    }

    /// The texts among a call's arguments (literals, `format!`s), in order; `None` when there
    /// is none.
    fn known_argument_texts(&self, call: &Expr) -> Option<Vec<MessageText>> {
        let args = match call {
            Expr::Call(c) => &c.args,
            Expr::MethodCall(m) => &m.args,
            _ => return None,
        };
        let texts: Vec<MessageText> = args
            .iter()
            .map(|a| message_with_macros(a, self.file, self.macros))
            .filter(|t| matches!(t, MessageText::Literal { .. } | MessageText::Format { .. }))
            .collect();
        (!texts.is_empty()).then_some(texts)
    }

    /// The members of the `json!` a crate fn called by `call` returns as its value
    /// (`json!({"error": ..}).to_string()`), through a helper that returns another's call
    /// (`fn not_connected() -> String { error_response(..) }`), a few levels deep.
    /// With the members, the texts known among the arguments of the innermost helper call in
    /// this body's file that hands them on (`None` when there is no such call).
    fn helper_json_members(
        &self,
        call: &Expr,
        depth: usize,
    ) -> (Vec<(String, String)>, Option<Vec<MessageText>>) {
        let Some(f) = self.called_fn(call) else {
            return (Vec::new(), None);
        };
        let Some((block, file, _)) = self.calls.blocks.get(&f) else {
            return (Vec::new(), None);
        };
        let values = crate::syntax::block_values(block);
        let [value] = values.as_slice() else {
            return (Vec::new(), None);
        };
        self.read_from(*file);
        match answered_json(value) {
            Some(m) => (crate::text::json_members(m), None),
            None => match crate::syntax::serialized_struct(value) {
                Some(s) => (self.serialized_members(s, f), None),
                None if depth < 2 && matches!(value, Expr::Call(_) | Expr::MethodCall(_)) => {
                    let (members, inner) = self.helper_json_members(value, depth + 1);
                    // Texts are read with this body's file: only a helper written there.
                    let texts = (*file == self.body.file)
                        .then(|| self.known_argument_texts(value))
                        .flatten();
                    (members, inner.or(texts))
                }
                None => (Vec::new(), None),
            },
        }
    }

    /// The top-level members of a crate struct literal serialised to JSON in crate fn `f`, as
    /// serde writes them: each field by its serde name, a unit variant of a crate enum as the
    /// string serde writes for it (`status: Status::Error` under `rename_all = "snake_case"`
    /// is `"status": "error"`), any other value as its tokens.
    fn serialized_members(
        &self,
        s: &syn::ExprStruct,
        f: crate::types::FnKey,
    ) -> Vec<(String, String)> {
        let Some(scope) = self.calls.types.scope_of(f) else {
            return Vec::new();
        };
        let defs = self.calls.defs;
        // Only a struct of the crate says how serde names its fields.
        let Some(Def::Item(id)) = defs.resolve_path(scope.module, &s.path, Ns::Types) else {
            return Vec::new();
        };
        let syn::Item::Struct(decl) = defs.item(id).syntax else {
            return Vec::new();
        };
        let syn::Fields::Named(fields) = &decl.fields else {
            return Vec::new();
        };
        s.fields
            .iter()
            .filter_map(|fv| {
                let syn::Member::Named(name) = &fv.member else {
                    return None;
                };
                let field = fields
                    .named
                    .iter()
                    .find(|d| d.ident.as_ref() == Some(name))?;
                let key = crate::syntax::serde_name(name, &field.attrs, &decl.attrs);
                let value = match crate::syntax::strip_parens(&fv.expr) {
                    Expr::Path(p) => self.unit_variant_json(scope.module, &p.path),
                    _ => None,
                };
                Some((
                    key,
                    value.unwrap_or_else(|| fv.expr.to_token_stream_string()),
                ))
            })
            .collect()
    }

    /// `Status::Error`, a unit variant of a crate enum, as the JSON string serde writes for it
    /// (`"error"` under the enum's `rename_all = "snake_case"`).
    fn unit_variant_json(
        &self,
        module: crate::resolve::ModuleId,
        path: &syn::Path,
    ) -> Option<String> {
        let defs = self.calls.defs;
        let Some(Def::Variant(e, variant)) = defs.resolve_path(module, path, Ns::Values) else {
            return None;
        };
        let syn::Item::Enum(decl) = defs.item(e).syntax else {
            return None;
        };
        let v = decl
            .variants
            .iter()
            .find(|v| v.ident == variant && v.fields.is_empty())?;
        let name = crate::syntax::serde_name(&v.ident, &v.attrs, &decl.attrs);
        Some(format!("\"{name}\""))
    }

    /// `if is_error { .. }`, `if !ok { .. }`: a condition that is one of this body's
    /// parameters, a flag its callers pass.
    pub(super) fn tests_param_flag(&self, cond: &Expr) -> bool {
        let (Expr::Path(p), _) = super::failure::without_not(cond) else {
            return false;
        };
        let (Some(flag), Some(sig)) = (p.path.get_ident(), self.body.sig) else {
            return false;
        };
        sig.inputs.iter().any(|input| {
            matches!(input, syn::FnArg::Typed(t)
                if matches!(&*t.pat, Pat::Ident(pi) if pi.ident == *flag))
        })
    }

    /// Either branch of the `if` ends in a tool result or an `Err(..)` (through `Ok(..)`): the
    /// `if` picks the answer, not only its content.
    fn picks_answer(&self, i: &syn::ExprIf) -> bool {
        let answers = |e: &Expr| {
            let tail = tail_expr(e);
            crate::syntax::err_payload(tail).is_some()
                || self.builds_tool_result(crate::syntax::ok_payload(tail).unwrap_or(tail))
        };
        crate::syntax::tail_of(&i.then_branch).is_some_and(answers)
            || i.else_branch.as_ref().is_some_and(|(_, e)| answers(e))
    }

    /// The names of the body's inputs, the receiver first (`self`); `_` for a pattern.
    pub(super) fn param_names(&self) -> Vec<String> {
        let Some(sig) = self.body.sig else {
            return Vec::new();
        };
        sig.inputs
            .iter()
            .map(|input| match input {
                syn::FnArg::Receiver(_) => "self".to_string(),
                syn::FnArg::Typed(t) => pat_ident(&t.pat).unwrap_or_else(|| "_".to_string()),
            })
            .collect()
    }
}

/// What following one body's values has found so far.
struct Flow<'a> {
    lets: Vec<Let<'a>>,
    params: Vec<String>,
    answers: Vec<(ErrorSite, Option<SiteContext>)>,
    /// Each answer by the whole value it is reported at.
    answer_at: HashMap<*const Expr, usize>,
    /// Where each `let`'s value comes from, once followed: by its initialiser, and the tuple
    /// element for a name a tuple pattern binds.
    of_let: HashMap<(*const Expr, Option<usize>), Vec<AnswerSource>>,
    /// The crate macro whose expansion is being followed, if any.
    expansion: Option<crate::resolve::ItemId>,
}

impl<'a> Flow<'a> {
    /// The initialiser of the `let` binding `name` whole in scope at offset `at`: the last one
    /// before it in a block around it.
    fn let_before(&self, name: &str, at: usize) -> Option<&'a Expr> {
        match self.let_at(name, at)? {
            (init, None) => Some(init),
            (_, Some(_)) => None,
        }
    }

    /// The `let` of `name` in scope at `at`: its initialiser, and the tuple element it binds
    /// the name to, if a tuple pattern binds it.
    fn let_at(&self, name: &str, at: usize) -> Option<(&'a Expr, Option<usize>)> {
        self.lets
            .iter()
            .filter(|l| l.name == name && l.start < at && at < l.scope_end)
            .max_by_key(|l| l.start)
            .map(|l| (l.init, l.elem))
    }
}

/// The `let`s of a body that bind one name (not in closures or nested items), and the ends of
/// the blocks around the one being visited.
struct Lets<'a, 'f>(Vec<Let<'a>>, &'f SourceFile, Vec<usize>);

impl<'a> Visit<'a> for Lets<'a, '_> {
    fn visit_block(&mut self, b: &'a syn::Block) {
        // Its braces' extent: a block's span would print the block (every nesting level again).
        self.2.push(crate::syntax::brace_extent(b).1);
        visit::visit_block(self, b);
        self.2.pop();
    }
    fn visit_local(&mut self, local: &'a syn::Local) {
        // A name bound whole, or each name of a tuple pattern with its element.
        let names: Vec<(String, Option<usize>)> = match &local.pat {
            Pat::Ident(_) | Pat::Type(_) => pat_ident(&local.pat)
                .map(|n| (n, None))
                .into_iter()
                .collect(),
            Pat::Tuple(t) => t
                .elems
                .iter()
                .enumerate()
                .filter_map(|(i, p)| Some((pat_ident(p)?, Some(i))))
                .collect(),
            _ => Vec::new(),
        };
        if let Some(init) = local.init.as_ref().filter(|i| i.diverge.is_none()) {
            let start = self.1.span_of(local).start;
            let scope_end = self.2.last().copied().unwrap_or(usize::MAX);
            for (name, elem) in names {
                self.0.push(Let {
                    name,
                    start,
                    scope_end,
                    init: &init.expr,
                    elem,
                });
            }
        }
        visit::visit_local(self, local);
    }
    /// `match result { Ok(value) => Ok(wrap(value)), .. }`: in its arm, `value` is the payload
    /// of what `result` holds, so it comes from where that value comes from (an `Err` has no
    /// answer of its own there).
    fn visit_expr_match(&mut self, m: &'a syn::ExprMatch) {
        for arm in &m.arms {
            if let Some(name) = payload_binding(&arm.pat) {
                let extent = self.1.span_of(arm);
                self.0.push(Let {
                    name,
                    start: extent.start,
                    scope_end: extent.end,
                    init: &m.expr,
                    elem: None,
                });
            }
        }
        visit::visit_expr_match(self, m);
    }
    fn visit_expr_closure(&mut self, _: &'a syn::ExprClosure) {}
    fn visit_expr_async(&mut self, _: &'a syn::ExprAsync) {}
    fn visit_item(&mut self, _: &'a syn::Item) {}
}

/// `Ok(value)` / `Some(value)`: the name bound to the payload.
fn payload_binding(pat: &Pat) -> Option<String> {
    match pat {
        Pat::TupleStruct(ts)
            if ts.elems.len() == 1 && (ts.path.is_ident("Ok") || ts.path.is_ident("Some")) =>
        {
            match &ts.elems[0] {
                Pat::Ident(i) if i.subpat.is_none() => Some(i.ident.to_string()),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The values of the body's `return`s (not in closures or nested items).
struct Returns<'a>(Vec<&'a Expr>);

impl<'a> Visit<'a> for Returns<'a> {
    fn visit_expr_return(&mut self, r: &'a syn::ExprReturn) {
        if let Some(v) = &r.expr {
            self.0.push(v);
        }
        visit::visit_expr_return(self, r);
    }
    fn visit_expr_closure(&mut self, _: &'a syn::ExprClosure) {}
    fn visit_expr_async(&mut self, _: &'a syn::ExprAsync) {}
    fn visit_item(&mut self, _: &'a syn::Item) {}
}

/// A struct literal's fields as key and value tokens (`Output::Error { error: msg }`): serialised,
/// they are the answer's members.
fn struct_members(s: &syn::ExprStruct) -> Vec<(String, String)> {
    s.fields
        .iter()
        .filter_map(|f| match &f.member {
            syn::Member::Named(n) => Some((n.to_string(), f.expr.to_token_stream_string())),
            syn::Member::Unnamed(_) => None,
        })
        .collect()
}
