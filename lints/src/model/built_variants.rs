//! Which variants of a crate enum the code ever builds: an arm of an error mapping for a variant
//! nothing builds (`PgMcpError::InternalError(ie) => McpError::internal_error(..)` where no
//! `InternalError(..)` is ever made) answers no tool call.

use std::collections::HashMap;

use syn::visit::Visit;

use crate::model::site::{BuildVia, ReturnedErrors, VariantBuild};
use crate::resolve::{DefMap, ItemId};

/// Answers [`BuiltVariants::is_built`], reading the files once per variant asked about.
pub struct BuiltVariants<'f> {
    /// Each parsed file's text and tree.
    files: Vec<(&'f str, &'f syn::File)>,
    known: HashMap<(ItemId, String), bool>,
    /// The crate's struct names (see [`struct_names`]), read on first use.
    structs: std::cell::OnceCell<std::collections::HashSet<String>>,
}

impl<'f> BuiltVariants<'f> {
    pub fn new(files: Vec<(&'f str, &'f syn::File)>) -> BuiltVariants<'f> {
        BuiltVariants {
            files,
            known: HashMap::new(),
            structs: std::cell::OnceCell::new(),
        }
    }

    /// Whether any code builds variant `variant` of enum `e`: an expression path, call or struct
    /// literal naming it (`Error::Internal(..)`, `Self::Internal`, a bare `Internal` of a glob
    /// import), a macro whose tokens name it, or a `#[from]` field (a `?` builds it). By name,
    /// so it errs towards "built": only a variant no code names counts as never built.
    pub fn is_built(&mut self, defs: &DefMap<'_>, e: ItemId, variant: &str) -> bool {
        let key = (e, variant.to_string());
        if let Some(&known) = self.known.get(&key) {
            return known;
        }
        let built = match defs.item(e).syntax {
            // Only an error enum's variants are all built by code: any other enum's may come
            // from the tool's arguments (`#[derive(Deserialize)] enum FileOp { Read, Write }`).
            syn::Item::Enum(item) if derives_error_only(item) => {
                from_field(item, variant)
                    || self.named_in_code(
                        &item.ident.to_string(),
                        variant,
                        self.structs.get_or_init(|| struct_names(defs)),
                    )
            }
            _ => true,
        };
        self.known.insert(key, built);
        built
    }

    /// Whether some place in the code names the variant outside patterns (a build, by name).
    fn named_in_code(
        &self,
        enum_name: &str,
        variant: &str,
        structs: &std::collections::HashSet<String>,
    ) -> bool {
        self.files
            .iter()
            .filter(|(text, _)| text.contains(variant))
            .any(|(_, syntax)| {
                let mut finder = Builds {
                    enum_name,
                    variant,
                    shadowed: structs.contains(variant),
                    found: 0,
                };
                finder.visit_file(syntax);
                finder.found > 0
            })
    }

    /// Per variant every build of which the walk saw, each walk's reading of each place (see
    /// [`VariantBuild`]). A variant some code builds where the walk did not look (a macro, a
    /// `#[from]` field's `?`) is not among them. One pass over the files for all variants.
    pub fn complete_builds<'r>(
        &self,
        defs: &DefMap<'_>,
        builds: &'r [ReturnedErrors],
    ) -> HashMap<(ItemId, String), Vec<&'r VariantBuild>> {
        let mut seen: HashMap<(ItemId, &str), Vec<&VariantBuild>> = HashMap::new();
        for b in builds.iter().flat_map(|r| &r.builds) {
            seen.entry((b.enum_id, b.variant.as_str()))
                .or_default()
                .push(b);
        }
        // The enum's name per variant asked about; variants of other items are none.
        let named: Vec<((ItemId, &str), String)> = seen
            .keys()
            .filter_map(|&(e, v)| match defs.item(e).syntax {
                syn::Item::Enum(item) if !from_field(item, v) => {
                    Some(((e, v), item.ident.to_string()))
                }
                _ => None,
            })
            .collect();
        let mut counter = NamingCounter {
            structs: struct_names(defs),
            ..NamingCounter::default()
        };
        for (_, v) in seen.keys() {
            counter.variants.insert(v.to_string());
        }
        if !counter.variants.is_empty() {
            for (_, syntax) in &self.files {
                counter.visit_file(syntax);
            }
        }
        named
            .into_iter()
            .filter_map(|((e, v), enum_name)| {
                let mut at = seen.remove(&(e, v))?;
                let places: std::collections::HashSet<_> = at
                    .iter()
                    .filter(|b| b.via != BuildVia::Question)
                    .map(|b| (b.file, b.span))
                    .collect();
                if counter.namings(&enum_name, v) != places.len() {
                    return None;
                }
                // A `fn from(e: io::Error) -> Self { Self::Io(e) }` builds the variant where a
                // `?` converts: those places are its builds, when the walk saw any.
                if at.iter().any(|b| b.via == BuildVia::Question) {
                    at.retain(|b| b.via != BuildVia::FromFn);
                }
                Some(((e, v.to_string()), at))
            })
            .collect()
    }
}

/// How many places name each of a set of variants outside patterns, in one pass: by owner
/// (`Error::Internal`), and unqualified or through `Self` (counted for every enum with that
/// variant, so a count errs high).
#[derive(Default)]
struct NamingCounter {
    variants: std::collections::HashSet<String>,
    /// The crate's struct names: a bare `Config { .. }` builds that struct, not a variant.
    structs: std::collections::HashSet<String>,
    /// (owner, variant) → places; owner `None` for a bare name, `Self`, or a macro's tokens.
    counts: HashMap<(Option<String>, String), usize>,
}

impl NamingCounter {
    fn namings(&self, enum_name: &str, variant: &str) -> usize {
        let get = |owner: Option<String>| {
            self.counts
                .get(&(owner, variant.to_string()))
                .copied()
                .unwrap_or(0)
        };
        get(Some(enum_name.to_string())) + get(None)
    }

    fn path(&mut self, path: &syn::Path) {
        let mut segs = path.segments.iter().rev();
        let Some(last) = segs.next() else {
            return;
        };
        let v = last.ident.to_string();
        if !self.variants.contains(&v) || (path.segments.len() == 1 && self.structs.contains(&v)) {
            return;
        }
        let owner = segs
            .next()
            .map(|o| o.ident.to_string())
            .filter(|o| o != "Self");
        *self.counts.entry((owner, v)).or_default() += 1;
    }

    fn tokens(&mut self, tokens: proc_macro2::TokenStream) {
        for t in tokens {
            match t {
                proc_macro2::TokenTree::Ident(i) => {
                    let v = i.to_string();
                    if self.variants.contains(&v) {
                        *self.counts.entry((None, v)).or_default() += 1;
                    }
                }
                proc_macro2::TokenTree::Group(g) => self.tokens(g.stream()),
                _ => {}
            }
        }
    }
}

impl<'ast> Visit<'ast> for NamingCounter {
    /// Patterns inspect a value; they build nothing.
    fn visit_pat(&mut self, _: &'ast syn::Pat) {}

    fn visit_expr_path(&mut self, p: &'ast syn::ExprPath) {
        self.path(&p.path);
    }

    fn visit_expr_struct(&mut self, s: &'ast syn::ExprStruct) {
        self.path(&s.path);
        syn::visit::visit_expr_struct(self, s);
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        self.tokens(m.tokens.clone());
    }
}

/// `#[derive(Debug, thiserror::Error)]`, and nothing that builds values from outside
/// (`Deserialize`, `FromStr`-like derives such as strum's `EnumString`).
fn derives_error_only(item: &syn::ItemEnum) -> bool {
    let derived = crate::syntax::derived_traits(&item.attrs);
    derived.iter().any(|d| d == "Error")
        && !derived
            .iter()
            .any(|d| d.contains("Deserialize") || d.contains("EnumString") || d.contains("FromStr"))
}

/// `Variant(#[from] io::Error)`: the derived `From` builds it.
fn from_field(item: &syn::ItemEnum, variant: &str) -> bool {
    item.variants.iter().any(|v| {
        v.ident == variant
            && v.fields
                .iter()
                .any(|f| f.attrs.iter().any(|a| a.path().is_ident("from")))
    })
}

struct Builds<'n> {
    enum_name: &'n str,
    variant: &'n str,
    /// A crate struct has the variant's name: a bare use of it is the struct.
    shadowed: bool,
    found: usize,
}

impl Builds<'_> {
    fn names(&self, path: &syn::Path) -> bool {
        let mut segs = path.segments.iter().rev();
        match (segs.next(), segs.next()) {
            (Some(last), _) if last.ident != self.variant => false,
            (Some(_), None) => !self.shadowed,
            (Some(_), Some(owner)) => owner.ident == self.enum_name || owner.ident == "Self",
            (None, _) => false,
        }
    }
}

impl<'ast> Visit<'ast> for Builds<'_> {
    /// Patterns inspect a value; they build nothing.
    fn visit_pat(&mut self, _: &'ast syn::Pat) {}

    fn visit_expr_path(&mut self, p: &'ast syn::ExprPath) {
        self.found += usize::from(self.names(&p.path));
    }

    fn visit_expr_struct(&mut self, s: &'ast syn::ExprStruct) {
        self.found += usize::from(self.names(&s.path));
        syn::visit::visit_expr_struct(self, s);
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        self.found += usize::from(m.tokens.to_string().contains(self.variant));
    }
}

/// The names of the crate's structs.
fn struct_names(defs: &DefMap<'_>) -> std::collections::HashSet<String> {
    defs.items
        .iter()
        .filter(|i| i.kind == crate::resolve::ItemKind::Struct)
        .map(|i| i.name.clone())
        .collect()
}
