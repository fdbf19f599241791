//! Crate `macro_rules!` calls: the walk goes on in what the call expands to
//! ([`crate::expand`]); what it finds there is reported at the call, with where the macro is
//! defined.

use syn::visit::Visit;
use syn::Expr;

use crate::resolve::ItemId;
use crate::sdk::HandlerKind;
use crate::source::{FileId, Span};

use super::Walker;

impl<'a> Walker<'a, '_> {
    /// Inside a macro expansion: where the macro is defined, when that is in this file (a
    /// site inside an expansion is reported at the call).
    pub(super) fn expansion_note(&self) -> Option<(FileId, Span, String)> {
        let item = self.calls.defs.item(self.expanded_from?);
        let file = self.calls.defs.module(item.module).file;
        let syn::Item::Macro(m) = item.syntax else {
            return None;
        };
        (file == self.body.file).then(|| {
            let at = m
                .ident
                .as_ref()
                .map_or(self.file.span_of(m), |i| self.file.span_of(i));
            (
                file,
                at,
                format!("built in the expansion of `{}!`, defined here", item.name),
            )
        })
    }

    /// Inside the expansion of a crate macro that a tool fn's body calls, defined in the tool's
    /// own file (`tool_fn!(self.store, tools::workbook::open, i)` holding the tool's call and
    /// its `Err(e) => unexpected_error(e)` answer): what the walk finds there is the tool's own
    /// code, its calls edges and its answers the tool's. Elsewhere (a dispatch macro in a
    /// request handler) calls in an expansion are not followed.
    pub(super) fn in_tool_expansion(&self) -> bool {
        self.body.kind == Some(HandlerKind::Tool)
            && self.expanded_from.is_some_and(|m| self.in_body_file(m))
    }

    /// Whether crate item `item` (a `macro_rules!`) is written in this body's file.
    fn in_body_file(&self, item: ItemId) -> bool {
        let item = self.calls.defs.item(item);
        self.calls.defs.module(item.module).file == self.body.file
    }

    /// What a crate macro call in the body expands to, when the walk followed it there
    /// ([`Self::in_tool_expansion`]): the expansion is kept for the whole analysis, so its
    /// nodes are the ones the walk saw.
    pub(super) fn tool_expansion_of(&self, mac: &syn::Macro) -> Option<(&'a Expr, ItemId)> {
        if self.body.kind != Some(HandlerKind::Tool) {
            return None;
        }
        let scope = self.body.scope?;
        let expansion = self.calls.expander.expand(mac, scope.module, 0)?;
        self.in_body_file(expansion.macro_item)
            .then_some((expansion.expr, expansion.macro_item))
    }

    /// A call of a crate `macro_rules!`: walk what it expands to, when that is certain.
    pub(super) fn expand_macro(&mut self, mac: &'a syn::Macro) -> bool {
        let Some(scope) = self.body.scope else {
            return false;
        };
        let Some(expansion) = self
            .calls
            .expander
            .expand(mac, scope.module, self.expansion_depth)
        else {
            return false;
        };
        let item = self.calls.defs.item(expansion.macro_item);
        self.read_from(self.calls.defs.module(item.module).file);
        let outer = self.expanded_from.replace(expansion.macro_item);
        self.expansion_depth += 1;
        self.visit_expr(expansion.expr);
        self.expansion_depth -= 1;
        self.expanded_from = outer;
        true
    }
}
