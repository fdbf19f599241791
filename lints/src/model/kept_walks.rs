//! The walk facts the language server keeps from one analysis of a crate to the next (in
//! [`super::ParsedFiles`], with the trees they were found in). After an edit that leaves every
//! file's items as they were (the common edit: inside a fn body), a body of an unchanged file
//! keeps its facts instead of being walked again, unless its walk read something of a changed
//! file (a fn body whose codes a call returns, a macro it expanded: [`BodyFacts::reads`]).
//!
//! What else a body's walk reads is the program's items (names, signatures, consts, macros:
//! unchanged when every changed file's [`item_fingerprint`] is) and what the phases before the
//! walk made of the whole program, some of it from bodies (the dialects found, the error
//! constructors, what each fn is to its dialect and what its body is looked up by): [`WalkEnv`], compared whole. Anything else
//! differing, every body is walked.

use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::path::PathBuf;

use syn::visit::Visit;

use crate::model::bodies::BodyInfo;
use crate::model::callgraph::CrateCalls;
use crate::model::ids::{BodyId, FileId};
use crate::model::site::{
    BodyAnswers, CallEdge, CodeSite, ErrorConstructor, ErrorSite, ErrorSource, PanicSite,
    ReturnedErrors, SiteContext,
};
use crate::model::walk::BodyFacts;
use crate::options::{CrateInput, Options};
use crate::resolve::FnScope;
use crate::sdk::{Dialect, HandlerKind, ReturnFacts};
use crate::source::FileRole;

/// One analysis's walk facts, per fn and const body (closures registered as tools are walked
/// every time), with what they were found under.
pub(super) struct KeptWalks {
    env: WalkEnv,
    /// `None` for a body that registers tool closures: it is walked again, so that they become
    /// bodies of the new analysis.
    facts: Vec<Option<KeptFacts>>,
    /// The second walks of bodies walked again as something else (their closures are not
    /// bodies of their own then, so every second walk is kept).
    rewalks: HashMap<(BodyId, Rewalk), KeptFacts>,
}

/// What a body is walked again as, once every body's first walk is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Rewalk {
    /// A helper a dispatcher hands the request to, which picks the tool.
    Dispatcher,
    /// A fn building the protocol error value its callers all send as one.
    ProtocolValue,
}

/// A body's walk facts without its closures (owned: no syntax).
#[derive(Clone, Default)]
struct KeptFacts {
    sites: Vec<(ErrorSite, Option<SiteContext>)>,
    codes: Vec<CodeSite>,
    panics: Vec<(PanicSite, Option<SiteContext>)>,
    calls: Vec<CallEdge>,
    returned: ReturnedErrors,
    answers: BodyAnswers,
    /// Addresses in the body's file's tree, which is kept with the facts.
    result_calls: Vec<usize>,
    reads: Vec<FileId>,
}

impl KeptFacts {
    /// `None` (nothing walked: not UTF-8, no dialect) is kept as no facts.
    fn of(facts: Option<&BodyFacts<'_>>) -> Option<KeptFacts> {
        let Some(f) = facts else {
            return Some(KeptFacts::default());
        };
        (f.closures.is_empty() && f.slot_closures.is_empty()).then(|| KeptFacts::of_walk(f))
    }

    /// All of a walk's facts but its closures.
    fn of_walk(f: &BodyFacts<'_>) -> KeptFacts {
        KeptFacts {
            sites: f.sites.clone(),
            codes: f.codes.clone(),
            panics: f.panics.clone(),
            calls: f.calls.clone(),
            returned: f.returned.clone(),
            answers: f.answers.clone(),
            result_calls: f.result_calls.clone(),
            reads: f.reads.clone(),
        }
    }

    fn to_facts<'a>(&self) -> BodyFacts<'a> {
        BodyFacts {
            sites: self.sites.clone(),
            codes: self.codes.clone(),
            panics: self.panics.clone(),
            calls: self.calls.clone(),
            closures: Vec::new(),
            slot_closures: Vec::new(),
            returned: self.returned.clone(),
            answers: self.answers.clone(),
            result_calls: self.result_calls.clone(),
            reads: self.reads.clone(),
        }
    }
}

/// What the phases before the walk made of the program, as far as a body's walk reads it.
#[derive(PartialEq)]
pub(super) struct WalkEnv {
    /// Each file's path, role and report flag, in order.
    files: Vec<(PathBuf, FileRole, bool)>,
    /// The options and each package's root and manifest, as `Debug` writes them.
    settings: String,
    dialects: Vec<&'static str>,
    file_dialect: Vec<Option<usize>>,
    sdk_library: Vec<bool>,
    bodies: Vec<BodyKey>,
    /// Per fn body: it returns the protocol error type, the tool error type; the parameter its
    /// value is a lookup of (read from its body).
    fn_facts: Vec<(bool, bool, Option<u8>)>,
    error_constructors: Vec<(BodyId, ErrorConstructor)>,
}

/// What the dialect and the signature say about a body (all of [`BodyInfo`] but its syntax).
#[derive(PartialEq)]
struct BodyKey {
    file: FileId,
    name: String,
    tool_name: Option<String>,
    kind: Option<HandlerKind>,
    inert: bool,
    returns: ReturnFacts,
    is_from_impl: bool,
    text_params: Vec<(usize, String)>,
    scope: Option<FnScope>,
    from_source_type: Option<ErrorSource>,
    in_sdk_library: bool,
    continues_dispatch: bool,
}

impl WalkEnv {
    #[allow(clippy::too_many_arguments)]
    /// `files`: each file's path, role and report flag, in order.
    pub(super) fn of(
        files: Vec<(PathBuf, FileRole, bool)>,
        packages: &[CrateInput],
        options: &Options,
        dialects: &[Box<dyn Dialect>],
        file_dialect: &[Option<usize>],
        sdk_library: &[bool],
        bodies: &[BodyInfo<'_>],
        calls: &CrateCalls<'_, '_>,
    ) -> WalkEnv {
        let manifests: Vec<_> = packages.iter().map(|p| (&p.root, &p.manifest)).collect();
        let mut error_constructors: Vec<(BodyId, ErrorConstructor)> = calls
            .error_constructors
            .iter()
            .filter_map(|(f, c)| Some((*calls.body_of.get(f)?, c.clone())))
            .collect();
        error_constructors.sort_by_key(|(b, _)| *b);
        WalkEnv {
            files,
            settings: format!("{options:?} {manifests:?}"),
            dialects: dialects.iter().map(|d| d.name()).collect(),
            file_dialect: file_dialect.to_vec(),
            sdk_library: sdk_library.to_vec(),
            bodies: bodies
                .iter()
                .map(|b| BodyKey {
                    file: b.file,
                    name: b.name.clone(),
                    tool_name: b.tool_name.clone(),
                    kind: b.kind,
                    inert: b.inert,
                    returns: b.returns,
                    is_from_impl: b.is_from_impl,
                    text_params: b.text_params.clone(),
                    scope: b.scope,
                    from_source_type: b.from_source_type.clone(),
                    in_sdk_library: b.in_sdk_library,
                    continues_dispatch: b.continues_dispatch,
                })
                .collect(),
            fn_facts: calls
                .facts
                .iter()
                .map(|f| (f.protocol, f.tool_error, f.lookup_of_param))
                .collect(),
            error_constructors,
        }
    }
}

/// The walk facts of one analysis: the last one's where they still hold, and what is kept for
/// the next.
pub(super) struct WalkReuse {
    /// The last analysis's, when every file it changed kept its items.
    kept: Option<KeptWalks>,
    /// Per file: parsed anew for this analysis (new, or its text changed).
    changed: Vec<bool>,
    /// Whether this analysis's facts are kept for the next.
    keep: bool,
    /// This analysis's, for the next (`None` when not kept).
    next: Option<KeptWalks>,
    /// Bodies that kept their facts.
    reused: usize,
    /// Second walks kept ([`Self::rewalk_facts`]).
    rewalks_reused: usize,
}

impl WalkReuse {
    /// `kept` applies only when no changed file changed its items; `keep` says whether this
    /// analysis's facts are kept for the next.
    pub(super) fn new(kept: Option<KeptWalks>, changed: Vec<bool>, keep: bool) -> WalkReuse {
        WalkReuse {
            kept,
            changed,
            keep,
            next: None,
            reused: 0,
            rewalks_reused: 0,
        }
    }

    /// Whether this analysis's facts are kept for the next.
    pub(super) fn keeps(&self) -> bool {
        self.keep
    }

    /// Start of the walk: `env` is this analysis's (`None` when its facts are not kept); the
    /// kept facts apply only under the same one.
    pub(super) fn begin(&mut self, env: Option<WalkEnv>) {
        if env.is_none() || self.kept.as_ref().map(|k| &k.env) != env.as_ref() {
            self.kept = None;
        }
        self.next = env.map(|env| KeptWalks {
            env,
            facts: Vec::new(),
            rewalks: HashMap::new(),
        });
    }

    /// The kept facts `take` takes out of the last analysis's, for a body of `file`, when they
    /// still hold: neither its file nor a file its walk read changed.
    fn take_kept(
        &mut self,
        file: FileId,
        take: impl FnOnce(&mut KeptWalks) -> Option<KeptFacts>,
    ) -> Option<KeptFacts> {
        let kept = take(self.kept.as_mut()?)?;
        let changed = |f: FileId| self.changed.get(f.0).copied().unwrap_or(true);
        (!changed(file) && !kept.reads.iter().any(|f| changed(*f))).then_some(kept)
    }

    /// The facts of fn or const body `body` (bodies come in order): the kept ones when neither
    /// its file nor a file its walk read changed, else `walk`'s.
    pub(super) fn facts<'a>(
        &mut self,
        body: BodyId,
        file: FileId,
        walk: impl FnOnce() -> Option<BodyFacts<'a>>,
    ) -> Option<BodyFacts<'a>> {
        let kept = self.take_kept(file, |k| k.facts.get_mut(body.0)?.take());
        self.reused += usize::from(kept.is_some());
        let (facts, keep) = self.kept_or_walked(kept, walk, KeptFacts::of);
        if let Some(next) = &mut self.next {
            debug_assert_eq!(next.facts.len(), body.0);
            next.facts.push(keep);
        }
        facts
    }

    /// The facts of `body` walked again as `rewalk`: the last analysis's second walk of it when
    /// they hold (as [`Self::facts`]), else `walk`'s.
    pub(super) fn rewalk_facts<'a>(
        &mut self,
        body: BodyId,
        file: FileId,
        rewalk: Rewalk,
        walk: impl FnOnce() -> Option<BodyFacts<'a>>,
    ) -> Option<BodyFacts<'a>> {
        let kept = self.take_kept(file, |k| k.rewalks.remove(&(body, rewalk)));
        self.rewalks_reused += usize::from(kept.is_some());
        // A second walk's closures are not bodies of their own: all of it is kept.
        let keep_of = |f: Option<&BodyFacts<'a>>| f.map(KeptFacts::of_walk);
        let (facts, keep) = self.kept_or_walked(kept, walk, keep_of);
        if let (Some(next), Some(keep)) = (&mut self.next, keep) {
            next.rewalks.insert((body, rewalk), keep);
        }
        facts
    }

    /// `kept`'s facts, else `walk`'s; with what to keep of them for the next analysis
    /// (`keep_of` picks it from a walk, when this analysis keeps any).
    fn kept_or_walked<'a>(
        &self,
        kept: Option<KeptFacts>,
        walk: impl FnOnce() -> Option<BodyFacts<'a>>,
        keep_of: impl FnOnce(Option<&BodyFacts<'a>>) -> Option<KeptFacts>,
    ) -> (Option<BodyFacts<'a>>, Option<KeptFacts>) {
        match kept {
            Some(k) => (Some(k.to_facts()), Some(k)),
            None => {
                let facts = walk();
                let keep = self.next.as_ref().and_then(|_| keep_of(facts.as_ref()));
                (facts, keep)
            }
        }
    }

    /// What to keep for the next analysis, and how many bodies kept their facts in this one
    /// (first walks, second walks).
    pub(super) fn finish(self) -> (Option<KeptWalks>, (usize, usize)) {
        (self.next, (self.reused, self.rewalks_reused))
    }
}

/// A digest of what the index, the resolver, the types and the dialects read of a file: all of
/// it but the statements of fn bodies (items written inside a body count).
pub(super) fn item_fingerprint(file: &syn::File) -> u64 {
    let mut h = DefaultHasher::new();
    file.shebang.hash(&mut h);
    file.attrs.hash(&mut h);
    for item in &file.items {
        hash_item(item, &mut h);
    }
    h.finish()
}

fn hash_item(item: &syn::Item, h: &mut DefaultHasher) {
    match item {
        syn::Item::Fn(f) => {
            0u8.hash(h);
            (&f.attrs, &f.vis, &f.sig).hash(h);
            hash_nested_items(&f.block, h);
        }
        syn::Item::Impl(i) => {
            1u8.hash(h);
            (&i.attrs, &i.defaultness, &i.unsafety, &i.generics).hash(h);
            (&i.trait_, &i.self_ty).hash(h);
            for ii in &i.items {
                match ii {
                    syn::ImplItem::Fn(f) => {
                        0u8.hash(h);
                        (&f.attrs, &f.vis, &f.defaultness, &f.sig).hash(h);
                        hash_nested_items(&f.block, h);
                    }
                    other => {
                        1u8.hash(h);
                        other.hash(h);
                    }
                }
            }
        }
        syn::Item::Trait(t) => {
            2u8.hash(h);
            (&t.attrs, &t.vis, &t.unsafety, &t.auto_token).hash(h);
            (&t.ident, &t.generics, &t.supertraits).hash(h);
            for ti in &t.items {
                match ti {
                    syn::TraitItem::Fn(f) => {
                        0u8.hash(h);
                        (&f.attrs, &f.sig, f.default.is_some()).hash(h);
                        if let Some(block) = &f.default {
                            hash_nested_items(block, h);
                        }
                    }
                    other => {
                        1u8.hash(h);
                        other.hash(h);
                    }
                }
            }
        }
        syn::Item::Mod(m) => {
            3u8.hash(h);
            (&m.attrs, &m.vis, &m.unsafety, &m.ident, m.semi.is_some()).hash(h);
            if let Some((_, items)) = &m.content {
                items.len().hash(h);
                for item in items {
                    hash_item(item, h);
                }
            }
        }
        other => {
            4u8.hash(h);
            other.hash(h);
        }
    }
}

/// The items written anywhere inside a fn body, each whole.
fn hash_nested_items(block: &syn::Block, h: &mut DefaultHasher) {
    struct Nested<'h>(&'h mut DefaultHasher);
    impl<'ast> Visit<'ast> for Nested<'_> {
        fn visit_item(&mut self, item: &'ast syn::Item) {
            item.hash(self.0);
        }
    }
    Nested(h).visit_block(block);
}
