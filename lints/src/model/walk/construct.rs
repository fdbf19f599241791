//! Constructions: where the walk meets an SDK's way of building a protocol error or a tool
//! result (a constructor call, a method chain, a struct literal, a macro, `is_error = true`), or
//! text a text-returning tool gives back as its success on a failure path.

use syn::Expr;

use super::Walker;
use crate::codes;
use crate::model::site::{Channel, Origin, SiteContext};
use crate::sdk::{Construction, ContentFacts, HandlerKind};
use crate::syntax::{is_to_string, mentions_ident, tail_expr, TokensString};
use crate::text::{message_from_expr, MessageText};

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
                let text = message_from_expr(m, self.file).known_lowercase();
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
                    (Some(m), _) => message_from_expr(m, self.file),
                    (None, Some(value)) => MessageText::Literal {
                        value: value.to_string(),
                        span,
                    },
                    (None, None) => MessageText::Absent,
                };
                // A code the constructor's name carries (`resource_not_found`, `rate_limited`).
                let named_code = self.dialect.constructor_names_code()
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
                self.add_site(
                    expr,
                    span,
                    Channel::Protocol,
                    code,
                    content,
                    Origin::Constructor(constructor),
                );
                if let Some((site, _)) = self.facts.sites.last_mut() {
                    if let Some(m) = message {
                        let range = syn::spanned::Spanned::span(m).byte_range();
                        site.message_source = self.file.text.get(range).map(str::to_string);
                    }
                    // `McpError::cancelled(..)`, `transport(..)`, `server_overloaded()`: the name
                    // says the server, not the tool, failed.
                    if let Origin::Constructor(c) = &site.origin {
                        let c = c.to_lowercase();
                        if [
                            "cancel",
                            "overloaded",
                            "transport",
                            "serializ",
                            "shutdown",
                            "elicitation",
                        ]
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
                self.add_site(
                    expr,
                    span,
                    channel,
                    None,
                    facts,
                    Origin::Constructor(constructor),
                );
            }
        }
    }

    /// A string value returned as success by a text-returning tool, on a failure path.
    pub(super) fn text_success(&mut self, expr: &'a Expr) {
        let tail = tail_expr(expr);
        let text = message_from_expr(tail, self.file);
        let json = match tail {
            Expr::Macro(m) if m.mac.path.is_ident("json") => {
                Some(crate::text::json_texts(&m.mac, self.file))
            }
            _ => None,
        };
        // A typed output built from the error (`Ok(Stats { error: Some(e.to_string()), .. })`).
        let carries_error = matches!(tail, Expr::Struct(_))
            && self
                .frames
                .iter()
                .rev()
                .find_map(|f| f.binding.as_ref())
                .is_some_and(|b| mentions_ident(&tail.to_token_stream_string(), b));
        let stringish = !matches!(text, MessageText::Opaque)
            || is_to_string(tail)
            || json.is_some()
            || carries_error;
        if stringish && !self.frames.is_empty() && self.nested == 0 {
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
        }
    }

    /// An error value that the tool's error type turns into an isError result.
    pub(super) fn tool_error_value(&mut self, whole: &'a Expr, value: &'a Expr) {
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

    /// Whether an expression is itself an SDK tool-result construction.
    pub(super) fn builds_tool_result(&self, expr: &Expr) -> bool {
        let expr = match expr {
            Expr::MethodCall(m) if m.method == "into" && m.args.is_empty() => &*m.receiver,
            other => other,
        };
        match expr {
            Expr::Call(c) => matches!(
                self.dialect
                    .construction_of_call(c, self.index, &self.returns()),
                Some(Construction::ToolResult { .. })
            ),
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
}
