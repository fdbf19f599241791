//! Which `macro_rules!` a call `name!(..)` names, as rustc decides it: a macro is in scope
//! textually, after its definition, in its module and the modules declared below it there;
//! `#[macro_use] mod m;` keeps `m`'s macros in scope in the parent after the `mod` item; and
//! `#[macro_export]` makes it a path-scoped item of the crate root (`crate::name!`,
//! `$crate::name!`). A later definition of the same name shadows an earlier one.

use std::collections::HashMap;

use syn::spanned::Spanned;

use super::{Def, DefMap, ItemId, ItemKind, ModuleId, Ns};

/// Each module's textual macro definitions by name, in source order: (where the definition
/// ends in the module's file, the macro). A `#[macro_use]` child's sit at the child's `mod`
/// item.
#[derive(Clone, Debug, Default)]
pub struct TextualMacros {
    by_scope: HashMap<(ModuleId, String), Vec<(usize, ItemId)>>,
}

impl TextualMacros {
    pub fn build(defs: &DefMap<'_>) -> TextualMacros {
        let mut own: Vec<Vec<(usize, String, ItemId)>> = vec![Vec::new(); defs.modules.len()];
        for (i, item) in defs.items.iter().enumerate() {
            if item.kind == ItemKind::Macro {
                let end = item.syntax.span().byte_range().end;
                own[item.module.0 as usize].push((end, item.name.clone(), ItemId(i as u32)));
            }
        }
        // Children come after their parent: fold the deepest `#[macro_use]` modules first.
        for m in (0..defs.modules.len()).rev() {
            let data = &defs.modules[m];
            let (true, Some(parent)) = (data.macro_use, data.parent) else {
                continue;
            };
            let mut inner = std::mem::take(&mut own[m]);
            inner.sort_by_key(|(at, ..)| *at);
            let at = data.decl_end;
            own[parent.0 as usize].extend(inner.iter().map(|(_, n, id)| (at, n.clone(), *id)));
            own[m] = inner;
        }
        let mut by_scope: HashMap<(ModuleId, String), Vec<(usize, ItemId)>> = HashMap::new();
        for (m, list) in own.into_iter().enumerate() {
            for (at, name, id) in list {
                by_scope
                    .entry((ModuleId(m as u32), name))
                    .or_default()
                    .push((at, id));
            }
        }
        for list in by_scope.values_mut() {
            // Stable: a `#[macro_use]` child's macros keep their order at the `mod` item.
            list.sort_by_key(|(at, _)| *at);
        }
        TextualMacros { by_scope }
    }
}

impl DefMap<'_> {
    /// The crate macro a call `path!(..)` at byte `at` of module `module`'s file names; `None`
    /// for a macro of another crate, std's, or one the source does not define.
    pub fn macro_call(&self, module: ModuleId, at: usize, path: &syn::Path) -> Option<ItemId> {
        let def = match path.get_ident() {
            Some(name) if path.leading_colon.is_none() => {
                let name = name.to_string();
                if let Some(id) = self.textual_macro(module, at, &name) {
                    return Some(id);
                }
                // Path-scoped: `use crate::name;` of an exported macro, or the root's own.
                self.resolve_segments(module, false, &[name], Ns::Macros)?
            }
            _ => self.resolve_path(module, path, Ns::Macros)?,
        };
        match def {
            Def::Item(id) if self.item(id).kind == ItemKind::Macro => Some(id),
            _ => None,
        }
    }

    fn textual_macro(&self, mut module: ModuleId, mut at: usize, name: &str) -> Option<ItemId> {
        let tables = &self.macro_rules.by_scope;
        loop {
            let key = (module, name.to_string());
            if let Some(found) = tables
                .get(&key)
                .and_then(|list| list.iter().rev().find(|(end, _)| *end <= at))
            {
                return Some(found.1);
            }
            let data = self.module(module);
            at = data.decl_end;
            module = data.parent?;
        }
    }
}
