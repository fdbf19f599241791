//! Crate `macro_rules!` calls: the walk goes on in what the call expands to
//! ([`crate::expand`]); what it finds there is reported at the call, with where the macro is
//! defined.

use syn::visit::Visit;

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
