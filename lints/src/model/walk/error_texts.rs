//! The messages a body fails with when its error is text (`anyhow::Error`, `eyre::Report`,
//! `String`): the literal each way out writes (`bail!("..")`, `ensure!(.., "..")`,
//! `Err("..".to_string())`, `.ok_or_else(|| anyhow!(".."))?`, `.context("..")?`) and the crate
//! fns whose text errors it passes on unchanged (`check(id)?`, a tail call). A tool that answers
//! such an error with its Display (`Err(e) => ContentBlock::text(e.to_string())`) says exactly
//! these words; the summaries close them over the calls (see [`ReturnedText`]).

use syn::Expr;

use super::Walker;
use crate::model::site::{ReturnedText, SiteContext};
use crate::resolve::{Def, Ns};
use crate::syntax::{last_segment, result_error_type, strip_await, tail_expr, unwrap_future};
use crate::text::{format_args_message, message_from_expr, MessageText};

/// Methods that make an `Option` (or take the error away): `.context(..)` on their value has no
/// cause to append under `{:#}`.
const OPTION_METHODS: &[&str] = &[
    "get",
    "get_mut",
    "first",
    "last",
    "find",
    "find_map",
    "next",
    "pop",
    "and_then",
    "as_str",
    "as_u64",
    "as_i64",
    "as_f64",
    "as_bool",
    "as_object",
    "as_array",
    "ok",
    "checked_add",
    "checked_sub",
    "strip_prefix",
    "strip_suffix",
    "parent",
    "file_name",
    "extension",
];

impl<'a> Walker<'a, '_> {
    /// Whether the body's signature says it fails with text: `anyhow::Result<T>`,
    /// `Result<T, anyhow::Error>`, `eyre::Result<T>`, `Result<T, String>`.
    pub(super) fn declares_text_error(&self) -> bool {
        let (Some(sig), Some(scope)) = (self.body.sig, self.body.scope) else {
            return false;
        };
        let syn::ReturnType::Type(_, ty) = &sig.output else {
            return false;
        };
        let ty = unwrap_future(ty);
        let external =
            |path: &syn::Path| match self.calls.defs.resolve_path(scope.module, path, Ns::Types) {
                Some(Def::External(segs)) => Some(segs),
                _ => None,
            };
        let is_report_crate = |c: &str| matches!(c, "anyhow" | "eyre" | "color_eyre");
        match result_error_type(ty) {
            Some(syn::Type::Path(err)) if err.qself.is_none() => {
                if err.path.is_ident("String") {
                    return true;
                }
                external(&err.path).is_some_and(|segs| {
                    segs.first().is_some_and(|c| is_report_crate(c))
                        && segs.last().is_some_and(|l| l == "Error" || l == "Report")
                })
            }
            Some(_) => false,
            // `anyhow::Result<T>`, or `Result<T>` imported from anyhow.
            None => match ty {
                syn::Type::Path(p) if p.qself.is_none() => external(&p.path).is_some_and(|segs| {
                    segs.first().is_some_and(|c| is_report_crate(c))
                        && segs.last().is_some_and(|l| l == "Result")
                }),
                _ => false,
            },
        }
    }

    /// A leaf of the value this body returns, when it fails with text: `Err(<literal>)`, a call
    /// whose error is passed on, or an operand as [`Self::text_operand`] reads it.
    pub(super) fn returned_text_leaf(&mut self, leaf: &'a Expr) {
        match strip_await(leaf) {
            Expr::Call(c)
                if c.args.len() == 1
                    && matches!(&*c.func, Expr::Path(p) if p.path.is_ident("Err")) =>
            {
                if let Some(text) = self.literal_error(&c.args[0]) {
                    self.returned_text(text, false);
                }
            }
            e if crate::syntax::is_ok_call(e) => {}
            other => self.text_operand(other),
        }
    }

    /// The operand of a `?` (or a returned call) in a body failing with text: a crate fn's
    /// errors passed on as they are, or a literal put in the error's place.
    pub(super) fn text_operand(&mut self, operand: &'a Expr) {
        let operand = strip_await(operand);
        let Expr::MethodCall(mc) = operand else {
            return self.text_through(operand);
        };
        let method = mc.method.to_string();
        // The message: the first argument, or the value of the closure there (`with_context`,
        // `ok_or_else`: the lazy forms).
        let lazy = method.ends_with("_with") || method.ends_with("_else");
        let message = match (lazy, mc.args.first()) {
            (false, arg) => arg,
            (true, Some(Expr::Closure(c))) => Some(tail_expr(&c.body)),
            (true, _) => None,
        };
        match method.as_str() {
            // `.context("..")`: under `{}` only the context shows; under `{:#}` the cause
            // follows it, unless the receiver is an `Option`.
            "context" | "with_context" | "wrap_err" | "wrap_err_with" => {
                let Some(text) = message.and_then(|v| self.literal_text(v)) else {
                    return;
                };
                let with_cause = !matches!(strip_await(&mc.receiver), Expr::MethodCall(r)
                    if OPTION_METHODS.contains(&r.method.to_string().as_str()));
                self.returned_text(text, with_cause);
            }
            "ok_or" | "ok_or_else" => {
                if let Some(text) = message.and_then(|v| self.literal_error(v)) {
                    self.returned_text(text, false);
                }
            }
            // `.map_err(|_| anyhow!(".."))`: the error dropped, the literal in its place.
            "map_err" => {
                let Some(Expr::Closure(c)) = mc.args.first() else {
                    return;
                };
                let drops_error = matches!(c.inputs.first(), Some(syn::Pat::Wild(_)));
                if let (true, Some(text)) = (drops_error, self.literal_error(tail_expr(&c.body))) {
                    self.returned_text(text, false);
                }
            }
            _ => self.text_through(operand),
        }
    }

    /// `bail!("..")`, `ensure!(cond, "..")` in this body (not in a closure).
    pub(super) fn text_macro(&mut self, mac: &'a syn::Macro) {
        let args: Vec<&Expr> = self.macros.get(mac).iter().collect();
        let message = match last_segment(&mac.path).as_deref() {
            Some("bail") => &args[..],
            Some("ensure") if args.len() > 1 => &args[1..],
            _ => return,
        };
        if let MessageText::Literal { value, span } = format_args_message(message, self.file) {
            self.returned_text((value, span), false);
        }
    }

    /// A crate fn called as `operand` whose text errors this body passes on.
    fn text_through(&mut self, operand: &Expr) {
        if let Some(b) = self.called_body(operand) {
            if b != self.body.id && !self.returned.texts_through.contains(&b) {
                self.returned.texts_through.push(b);
            }
        }
    }

    /// An error value made of a literal alone: `"..".to_string()`, `anyhow!("..")`,
    /// `anyhow::Error::msg("..")`, `format!("..")` with no placeholder.
    fn literal_error(&self, value: &Expr) -> Option<(String, crate::source::Span)> {
        let value = match value {
            Expr::Call(c) if c.args.len() == 1 => match &*c.func {
                Expr::Path(p) if last_segment(&p.path).as_deref() == Some("msg") => &c.args[0],
                _ => value,
            },
            _ => value,
        };
        if let Expr::Macro(m) = value {
            if matches!(
                last_segment(&m.mac.path).as_deref(),
                Some("anyhow" | "eyre" | "format_err")
            ) {
                let args: Vec<&Expr> = self.macros.get(&m.mac).iter().collect();
                return match format_args_message(&args, self.file) {
                    MessageText::Literal { value, span } => Some((value, span)),
                    _ => None,
                };
            }
        }
        self.literal_text(value)
    }

    fn literal_text(&self, value: &Expr) -> Option<(String, crate::source::Span)> {
        match message_from_expr(value, self.file) {
            MessageText::Literal { value, span } => Some((value, span)),
            _ => None,
        }
    }

    fn returned_text(&mut self, (value, span): (String, crate::source::Span), with_cause: bool) {
        // The unknown tool's answer is MCP007's and MCP011's to judge.
        if matches!(self.arm, Some(SiteContext::UnknownToolArm { .. })) {
            return;
        }
        let takes_inputs = self
            .body
            .sig
            .is_some_and(|sig| sig.inputs.iter().any(|i| matches!(i, syn::FnArg::Typed(_))));
        let text = ReturnedText {
            file: self.body.file,
            span,
            value,
            with_cause,
            takes_inputs,
        };
        if !self.returned.texts.contains(&text) {
            self.returned.texts.push(text);
        }
    }

    /// The crate fn whose error a message shows: the text (one of a site's texts) is the
    /// Display of the binding of an `Err` arm, directly (`e.to_string()`, `format!("failed:
    /// {e:#}")`) or through a local holding such a `format!`; the arm's `match` is over a call of
    /// that fn (or a local bound to one), or of one of the body's Fn-typed parameters (`match
    /// op(storage) { .. }`: the closure each caller hands it).
    pub(super) fn shown_error(
        &self,
        text: &MessageText,
    ) -> Option<(crate::model::site::ShownError, bool)> {
        use crate::model::site::ShownError;
        // Only an error a failure path binds is shown (every call's arguments are asked).
        if self.frames.is_empty() {
            return None;
        }
        let (binding, alternate) = match text {
            MessageText::Format {
                shown: Some((b, alt)),
                ..
            } => (b.clone(), *alt),
            MessageText::Local(name) => {
                let is_binding = self
                    .frames
                    .iter()
                    .any(|f| f.binding.as_deref() == Some(name.as_str()));
                if is_binding {
                    (name.clone(), false)
                } else {
                    let init = self.lets.get(name.as_str())?;
                    match crate::text::message_with_macros(init, self.file, self.macros) {
                        MessageText::Format {
                            shown: Some((b, alt)),
                            ..
                        } => (b, alt),
                        MessageText::Local(b) => (b, false),
                        _ => return None,
                    }
                }
            }
            _ => return None,
        };
        let frame = self.definite_frame_of(&binding)?;
        // A joined task's error is not followed: its closure often checks the server's stored
        // data, which the rejection shape cannot tell from a rejected argument.
        if frame.joined {
            return None;
        }
        let cause = frame.cause?;
        let call = self.let_init(cause).unwrap_or(cause);
        let shown = match self.called_body(call) {
            Some(body) => ShownError::Body(body),
            None => ShownError::ClosureParam(self.called_closure_param(call)?),
        };
        Some((shown, alternate))
    }

    /// `op(..)` where `op` is a parameter of this fn (receiver not counted): its index.
    pub(super) fn called_closure_param(&self, value: &Expr) -> Option<usize> {
        let Expr::Call(call) = strip_await(value) else {
            return None;
        };
        let Expr::Path(p) = &*call.func else {
            return None;
        };
        let name = p.path.get_ident()?.to_string();
        let receiver = self.body.sig?.receiver().is_some();
        self.param_names()
            .iter()
            .skip(usize::from(receiver))
            .position(|n| *n == name)
    }
}
