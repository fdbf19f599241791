//! The semantic model of one package, or of packages that depend on each other by path (one
//! program, see [`crate::program`]), built once by [`Model::build`] in named phases: parse →
//! index and resolve names → syntactic types → SDK dialects → bodies → walk each body into
//! facts → call graph → per-fn summaries → tool context (reach) → the sites' final context.
//! Lints only read it. In a program every package keeps its own manifest, dependency names,
//! index (its `type` aliases and consts) and SDK dialects; names, the call graph, summaries and
//! tool context are the program's.
//!
//! Modules, in the order data flows (each imports only those before it):
//! [`ids`] · [`site`] (data only) · [`bodies`] · [`callgraph`] (call resolution and the
//! resolved edges) · [`walk`] (one body's facts) · [`summary`] · [`answers`] · [`reach`] · this
//! one.

pub mod answered_elsewhere;
pub mod answers;
pub mod bodies;
mod built_variants;
pub mod callgraph;
pub mod declared;
pub mod ids;
mod kept_walks;
pub mod reach;
pub mod shown_texts;
pub mod site;
pub mod summary;
pub mod walk;

#[cfg(test)]
mod declared_tests;
#[cfg(test)]
mod reuse_tests;

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::{Arc, OnceLock};

use crate::expand::Expander;
use crate::index::{FnItem, Index, Resolved};
use crate::macro_args::MacroArgs;
use crate::options::{CrateInput, Options};
use crate::parse;
use crate::resolve::crates::ExternCrates;
use crate::resolve::{DefMap, PackageFile, PackageFiles};
use crate::sdk::{self, Dialect, ErrChannel, HandlerKind};
use crate::source::{FileRole, SourceFile, Span};
use crate::syntax::{result_error_name, unwrap_future, BlockExtents};
use crate::types::{FnKey, Types};
use crate::unused_imports::WordCounts;

use bodies::BodyInfo;
use callgraph::{CallGraph, CrateCalls};
use declared::DeclaredProtocol;
use kept_walks::{item_fingerprint, KeptWalks, Rewalk, WalkEnv, WalkReuse};
use reach::Reach;
use site::{
    CallEdge, Callee, Channel, CodeSite, ErrorSite, FnFacts, PanicSite, SiteContext, VariantTag,
};
use summary::{ErrorVariants, Summaries};
use walk::Walker;

pub use ids::{BodyId, FileId, ItemId};

pub struct ModelFile {
    pub path: PathBuf,
    pub role: FileRole,
    pub report: bool,
    /// Not compiled: a package's file that no target root's module tree reaches (see
    /// [`DefMap::in_module_tree`]), that the user did not name, and that parsed (a file that
    /// does not keeps its `parse_error`). Analysed for context, not reported.
    pub unlinked: bool,
    /// See [`crate::source::SourceInput::package_path`].
    package_path: Option<PathBuf>,
    /// `None` when the bytes are not UTF-8.
    pub source: Option<Arc<SourceFile>>,
    /// `None` when the file did not parse.
    pub syntax: Option<syn::File>,
    /// The parsed arguments of its expression-taking macros, on first use.
    macro_args: OnceLock<MacroArgs>,
    /// Its words outside comments, counted on first use (by fixes, for the imports they leave
    /// unused).
    word_counts: OnceLock<WordCounts>,
    /// The crates its code names by a qualified path, on first use (kept with the tree by the
    /// language server, as the two above).
    code_roots: OnceLock<HashSet<String>>,
    pub failure: Option<parse::ParseFailure>,
}

/// A panic site with its resolved context.
#[derive(Clone, Debug)]
pub struct ContextPanic {
    pub site: PanicSite,
    pub context: SiteContext,
}

pub struct Model {
    pub files: Vec<ModelFile>,
    /// The SDK dialects the packages use (empty when none is an MCP server we understand):
    /// per package, the one its manifest names first.
    pub dialects: Vec<Box<dyn Dialect>>,
    /// Which dialect each file speaks (by its imports, else its package's first).
    pub file_dialect: Vec<Option<usize>>,
    /// Per dialect, the protocol version its package's source declares, for a dialect whose
    /// servers declare it ([`Dialect::declares_protocol`]; see [`Model::declared_protocol`]).
    declared: Vec<Option<DeclaredProtocol>>,
    pub sites: Vec<ErrorSite>,
    pub codes: Vec<CodeSite>,
    pub panics: Vec<ContextPanic>,
    /// Literal messages of crate fns that tools' answers show whole (see [`shown_texts`]).
    pub shown_texts: Vec<shown_texts::ShownText>,
    /// Per package, its dependencies by the names its code uses for them.
    crates: Vec<ExternCrates>,
    /// The package of each file (an index into the inputs).
    file_package: Vec<usize>,
    /// Receivers of `.map_err(..)` that call crate fns declared to return a `Result`, by the
    /// address of the call in `files` (see [`Model::returns_result`]).
    result_calls: std::collections::HashSet<usize>,
    /// The bodies of `impl From<X> for` the protocol error type (see [`Model::in_conversion`]),
    /// with the first tool calls into them (see [`Model::conversion_calls`]).
    conversions: HashMap<BodyId, Vec<(FileId, Span)>>,
    /// The bodies whose success wraps the tool result (see [`Model::ok_wrapper`]).
    ok_wrappers: HashMap<BodyId, &'static str>,
    /// The block extents of each fn body a fix searched, by the body's address (fixes search
    /// the same body once per site).
    block_extents: RefCell<HashMap<usize, Rc<BlockExtents>>>,
}

/// How many tool calls into a conversion [`Model::conversion_calls`] keeps.
pub const CONVERSION_CALLS: usize = 4;

/// What the phases after parsing produce.
#[derive(Default)]
struct Analysis {
    dialects: Vec<Box<dyn Dialect>>,
    file_dialect: Vec<Option<usize>>,
    declared: Vec<Option<DeclaredProtocol>>,
    sites: Vec<ErrorSite>,
    codes: Vec<CodeSite>,
    panics: Vec<ContextPanic>,
    shown_texts: Vec<shown_texts::ShownText>,
    result_calls: std::collections::HashSet<usize>,
    conversions: HashMap<BodyId, Vec<(FileId, Span)>>,
    ok_wrappers: HashMap<BodyId, &'static str>,
    /// Per file: in its package's module trees (see [`DefMap::in_module_tree`]).
    in_tree: Vec<bool>,
}

/// What walking every body found, in walk order.
#[derive(Default)]
struct Walked {
    sites: Vec<(ErrorSite, Option<SiteContext>)>,
    codes: Vec<CodeSite>,
    panics: Vec<(PanicSite, Option<SiteContext>)>,
    edges: Vec<CallEdge>,
    /// Per body, the error values it returns.
    returned: Vec<site::ReturnedErrors>,
    /// Per body, how its answers flow.
    answers: Vec<site::BodyAnswers>,
    result_calls: std::collections::HashSet<usize>,
    /// The closures stored in each Fn-typed field ([`Callee::Slot`]).
    slot_bodies: HashMap<(ItemId, String), Vec<BodyId>>,
}

/// Parsed files kept from one analysis of a crate to the next (the language server's), by
/// path: a file whose bytes, role and report flag are unchanged is not parsed again. The trees
/// hold proc-macro2 spans of the thread that parsed them: they are reused only on that thread
/// and while its span table was not released since (by anyone), and see
/// [`ParsedFiles::release_spans_if_due`]. With them, the last analysis's walk facts: after an
/// edit that keeps every file's items, the bodies of the unchanged files are not walked again
/// ([`kept_walks`]).
#[derive(Default)]
pub struct ParsedFiles {
    files: HashMap<PathBuf, ModelFile>,
    /// The span table the kept trees point into.
    table: Option<parse::SpanTable>,
    /// Analyses since the thread's span table was last released.
    runs: usize,
    /// Files the last analysis took from here instead of parsing them.
    reused: usize,
    /// The walk facts of the last analysis (of the kept trees).
    walks: Option<KeptWalks>,
    /// Bodies whose facts the last analysis took from `walks` instead of walking them: first
    /// walks, second walks.
    walks_reused: (usize, usize),
    /// The item fingerprint of each kept file that the running analysis parses anew.
    replaced_items: HashMap<PathBuf, u64>,
    /// A single analysis (`Model::build`): nothing is kept for a next one.
    one_shot: bool,
}

impl ParsedFiles {
    /// Every re-parsed file and every macro body the walker lexes adds its text to the thread's
    /// span table, which only a release of every span empties; after this many analyses the
    /// kept trees are dropped with it (the next analysis parses everything once).
    const RUNS_PER_RELEASE: usize = 64;

    /// How many files the last analysis took unchanged instead of parsing them.
    pub fn reused(&self) -> usize {
        self.reused
    }

    /// How many bodies the last analysis took the walk facts of unchanged instead of walking them.
    pub fn walks_reused(&self) -> usize {
        self.walks_reused.0
    }

    /// How many bodies walked again ([`kept_walks::Rewalk`]) the last analysis took the facts
    /// of unchanged instead of walking them again.
    pub fn rewalks_reused(&self) -> usize {
        self.walks_reused.1
    }

    /// Forget the kept trees when their span table is gone: another thread, or a release on
    /// this one (a cold analysis on the same thread releases it when it ends).
    fn forget_if_stale(&mut self) {
        if self.table != Some(parse::SpanTable::current()) {
            self.files.clear();
            self.walks = None;
            self.runs = 0;
        }
        self.reused = 0;
        self.walks_reused = (0, 0);
        self.replaced_items.clear();
    }

    /// The file parsed as before when its text, role and report flag are the same.
    fn take(&mut self, f: &crate::source::SourceInput) -> Option<ModelFile> {
        let kept = self.files.remove(&f.path)?;
        let same = kept.role == f.role
            && kept.report == f.report
            && kept
                .source
                .as_ref()
                .is_some_and(|s| s.text.as_bytes() == f.contents.as_slice());
        self.reused += usize::from(same);
        if !same && self.walks.is_some() {
            if let Some(syntax) = &kept.syntax {
                self.replaced_items
                    .insert(kept.path.clone(), item_fingerprint(syntax));
            }
        }
        same.then_some(kept)
    }

    /// The last analysis's walk facts, when every file parsed anew (`changed`) is one it had,
    /// with the same items.
    fn kept_walks(&mut self, files: &[ModelFile], changed: &[bool]) -> Option<KeptWalks> {
        let walks = self.walks.take()?;
        let same_items = files
            .iter()
            .zip(changed)
            .filter(|(_, c)| **c)
            .all(|(f, _)| {
                let before = self.replaced_items.get(&f.path);
                f.syntax
                    .as_ref()
                    .is_some_and(|s| before == Some(&item_fingerprint(s)))
            });
        same_items.then_some(walks)
    }

    fn keep(&mut self, files: Vec<ModelFile>) {
        for f in files {
            self.files.insert(f.path.clone(), f);
        }
        self.table = Some(parse::SpanTable::current());
        self.runs += 1;
    }

    /// Drop every kept tree and release the thread's span table, every
    /// [`Self::RUNS_PER_RELEASE`] analyses (or `now`).
    pub fn release_spans_if_due(&mut self, now: bool) {
        if now || self.runs >= Self::RUNS_PER_RELEASE {
            self.files.clear();
            self.walks = None;
            self.runs = 0;
            parse::release_thread_spans();
        }
    }
}

impl Model {
    /// The model of `packages`, analysed as one program: the path dependencies between them
    /// resolve into each other ([`crate::program::links`]).
    pub fn build(packages: &[CrateInput], options: &Options) -> Model {
        let mut once = ParsedFiles {
            one_shot: true,
            ..ParsedFiles::default()
        };
        Model::build_reusing(packages, options, &mut once)
    }

    /// [`Model::build`], taking the files `parsed` kept unchanged instead of parsing them; give
    /// them back with [`Model::keep_files`].
    pub fn build_reusing(
        packages: &[CrateInput],
        options: &Options,
        parsed: &mut ParsedFiles,
    ) -> Model {
        // Phase: parse (what changed).
        parsed.forget_if_stale();
        let mut files = Vec::new();
        let mut file_package = Vec::new();
        let mut changed = Vec::new();
        for (p, input) in packages.iter().enumerate() {
            for f in &input.files {
                let kept = parsed.take(f);
                changed.push(kept.is_none());
                let mut file = kept.unwrap_or_else(|| parse_one(f));
                file.package_path.clone_from(&f.package_path);
                files.push(file);
            }
            file_package.resize(files.len(), p);
        }
        let kept = parsed.kept_walks(&files, &changed);
        let mut walks = WalkReuse::new(kept, changed, !parsed.one_shot);
        let crates: Vec<ExternCrates> = packages
            .iter()
            .map(|input| ExternCrates::of(input.manifest.as_ref()))
            .collect();
        let program = Program {
            packages,
            crates: &crates,
            file_package: &file_package,
        };
        let analysis = analyse(&files, &program, options, &mut walks);
        (parsed.walks, parsed.walks_reused) = walks.finish();
        let named = packages
            .iter()
            .flat_map(|p| p.files.iter().map(|f| f.named));
        for ((file, named), in_tree) in files.iter_mut().zip(named).zip(&analysis.in_tree) {
            // A file that does not parse keeps its `parse_error`: what mcp-lint skipped is said.
            file.unlinked = !named && !in_tree && file.syntax.is_some();
        }
        Model {
            files,
            dialects: analysis.dialects,
            file_dialect: analysis.file_dialect,
            declared: analysis.declared,
            sites: analysis.sites,
            codes: analysis.codes,
            panics: analysis.panics,
            shown_texts: analysis.shown_texts,
            crates,
            file_package,
            result_calls: analysis.result_calls,
            conversions: analysis.conversions,
            ok_wrappers: analysis.ok_wrappers,
            block_extents: RefCell::default(),
        }
    }

    /// The dependencies of a file's package, by the names its code uses for them.
    pub fn crates_of(&self, file: FileId) -> &ExternCrates {
        &self.crates[self.file_package[file.0]]
    }
}

/// The packages a model is built for, and which one each file is of.
struct Program<'p> {
    packages: &'p [CrateInput],
    crates: &'p [ExternCrates],
    file_package: &'p [usize],
}

impl Program<'_> {
    fn package_of(&self, file: FileId) -> usize {
        self.file_package[file.0]
    }

    fn input_of(&self, file: FileId) -> &CrateInput {
        &self.packages[self.package_of(file)]
    }
}

/// Every phase after parsing. Nothing but the parse-failure findings when no package is an
/// MCP server we understand.
fn analyse(
    files: &[ModelFile],
    program: &Program<'_>,
    options: &Options,
    walks: &mut WalkReuse,
) -> Analysis {
    let parsed: Vec<(FileId, &syn::File, bool)> = files
        .iter()
        .enumerate()
        .filter_map(|(i, f)| {
            let test = f.role == FileRole::Test && !options.include_tests;
            f.syntax.as_ref().map(|s| (FileId(i), s, test))
        })
        .collect();
    let own_sdk: Vec<bool> = program
        .packages
        .iter()
        .map(|input| sdk::own_sdk(input.manifest.as_ref()).is_some())
        .collect();
    // Phase: resolve names and index. Items crate macros generate live in `generated`.
    let generated = typed_arena::Arena::new();
    let defs = resolve_names(files, program, &parsed, &own_sdk, &generated);
    let in_tree: Vec<bool> = (0..files.len())
        .map(|i| defs.in_module_tree(FileId(i), program.package_of(FileId(i))))
        .collect();
    // Each package has its index: its names mean what they mean there.
    let indexes: Vec<Index> = (0..program.packages.len())
        .map(|p| {
            let files: Vec<(FileId, &syn::File, bool)> = parsed
                .iter()
                .filter(|(f, ..)| program.package_of(*f) == p)
                .copied()
                .collect();
            let mut index = Index::build(
                &files,
                &Resolved {
                    generated: &defs.generated,
                    nested_fns: &defs.nested_fns,
                },
            );
            // The SDK tables compare import paths by crate name (`mcp::` may be rmcp's).
            program.crates[p].canonical_imports(&mut index.imports);
            index
        })
        .collect();
    let index_of = |file: FileId| &indexes[program.package_of(file)];
    let fns: Vec<&FnItem> = indexes.iter().flat_map(|i| &i.fns).collect();
    // Phase: syntactic types.
    let types = Types::build(&defs);
    let expander = Expander::new(&defs);
    // Phase: SDK dialects, per package.
    let mut dialects = Vec::new();
    let mut file_dialect = vec![None; files.len()];
    let mut declared = Vec::new();
    for (p, index) in indexes.iter().enumerate() {
        let (found, file_roots) = detect_dialects(files, program, p, index, (&defs, &types));
        if found.is_empty() {
            continue;
        }
        // Phase: the protocol version the package declares, for its dialects that state one.
        let stated = found
            .iter()
            .any(|d| d.declares_protocol())
            .then(|| declared_protocol(files, program, p, index, (&defs, &types)))
            .flatten();
        declared.extend(
            found
                .iter()
                .map(|d| stated.clone().filter(|_| d.declares_protocol())),
        );
        for (i, d) in file_dialects(files.len(), index, &found, &file_roots)
            .into_iter()
            .enumerate()
        {
            if program.file_package[i] == p {
                file_dialect[i] = d.map(|d| d + dialects.len());
            }
        }
        dialects.extend(found);
    }
    if dialects.is_empty() {
        return Analysis {
            in_tree,
            ..Analysis::default()
        };
    }
    // A package of no SDK of its own (a helpers library the servers share) is walked as the
    // program's first server speaks: its errors and panics are what its callers get.
    for d in file_dialect.iter_mut().filter(|d| d.is_none()) {
        *d = Some(0);
    }
    let dialect_of = |file: FileId| file_dialect[file.0].map(|i| &*dialects[i]);
    let library = sdk_library_files(files, program, &defs, &own_sdk);
    let in_sdk_library = |file: FileId| library[file.0];
    // Phase: bodies.
    let mut bodies = bodies::fn_bodies(
        &fns,
        &index_of,
        &defs,
        &dialect_of,
        &in_sdk_library,
        options.include_tests,
    );
    let first_const = bodies.len();
    bodies.extend(bodies::const_bodies(&parsed, first_const, &in_sdk_library));
    // Phase: walk every body into facts.
    let calls = crate_calls(
        files,
        &fns,
        &index_of,
        &defs,
        &types,
        &expander,
        &dialect_of,
    );
    // A hand-rolled server's own error type (`RpcError::internal(..)`) is its protocol error: a
    // fn failing with it fails on the wire, and its `From` impls convert into it.
    for (body, f) in bodies.iter_mut().zip(&fns) {
        let crate_protocol =
            dialect_of(f.file).filter(|d| d.crate_errors_are_protocol() && !body.in_sdk_library);
        if let Some(dialect) = crate_protocol {
            if body.returns.err == ErrChannel::Unknown
                && fails_with_crate_protocol_error(
                    dialect,
                    f.sig,
                    &defs,
                    &types,
                    &calls.error_types,
                )
            {
                body.returns.err = ErrChannel::Protocol;
            }
            body.is_from_impl |= bodies::from_impl_target(f).is_some_and(|ty| {
                callgraph::Resolver {
                    defs: &defs,
                    types: &types,
                    scope: body.scope,
                }
                .type_item(&ty)
                .is_some_and(|t| calls.error_types.contains(&t))
            });
        }
        if body.is_from_impl {
            body.from_source_type = Some(bodies::from_source_type(body, f, &defs));
        }
    }
    walks.begin(walks.keeps().then(|| {
        WalkEnv::of(
            files
                .iter()
                .map(|f| (f.path.clone(), f.role, f.report))
                .collect(),
            program.packages,
            options,
            &dialects,
            &file_dialect,
            &library,
            &bodies,
            &calls,
        )
    }));
    let walked = walk_bodies(
        files,
        &mut bodies,
        &dialect_of,
        &index_of,
        &calls,
        options,
        walks,
    );
    // Phase: call graph.
    let graph = CallGraph::build(&bodies, &walked.edges);
    // Phase: per-fn summaries.
    // Values answered elsewhere take that answer's channel once every site is known.
    let (pending, walked_sites) = answered_elsewhere::Pending::split(walked.sites);
    let (mut sites, arms): (Vec<ErrorSite>, Vec<Option<SiteContext>>) =
        walked_sites.into_iter().unzip();
    let mut built = built_variants::BuiltVariants::new(
        files
            .iter()
            .filter_map(|f| Some((f.source.as_deref()?.text.as_str(), f.syntax.as_ref()?)))
            .collect(),
    );
    // The arm of a mapping (`AppError::Db(m) => McpError::internal_error(m, None)`) for
    // variants built only on the server's own faults (`lock().map_err(|_| AppError::Db(..))`),
    // or only where a tool checks an argument's value.
    let variant_builds = built.complete_builds(&defs, &walked.returned);
    for site in &mut sites {
        if all_builds(&variant_builds, site, |b| b.server_fault) {
            site.path.server_fault = true;
        }
    }
    let returned = ErrorVariants::compute(&walked.returned);
    let summaries = Summaries::compute(&graph.body_calls(&walked.edges, &returned), &sites);
    // Phase: tool context.
    let mut builds_tool_result = vec![false; bodies.len()];
    let mut builds_protocol_error = vec![false; bodies.len()];
    for s in &sites {
        match s.channel {
            Channel::ToolError => builds_tool_result[s.body.0] = true,
            Channel::Protocol => builds_protocol_error[s.body.0] = true,
            Channel::ToolSuccess => {}
        }
    }
    for (tool, protocol) in builds_tool_result.iter_mut().zip(&builds_protocol_error) {
        *tool &= !protocol;
    }
    let mut reach = Reach::compute(&bodies, &walked.edges, &graph, &builds_tool_result);
    // A constructor of a type that carries its wire code (`AppError::validation(..)` choosing
    // -32602) is where the code is chosen and the fix goes, whoever else calls it: its sites are
    // reported there, with the tool calls attached, not re-reported at each call.
    for b in &bodies {
        let carrier = b
            .scope
            .and_then(|scope| calls.types.self_type(scope))
            .is_some_and(|t| calls.carriers.contains(&t));
        if carrier {
            reach.shared[b.id.0] = false;
        }
    }
    let edges = &walked.edges;
    let body_of = |id: BodyId| -> &BodyInfo<'_> { &bodies[id.0] };
    let only_results_of: RefCell<HashMap<BodyId, bool>> = RefCell::default();
    let only_results = |b: BodyId| {
        *only_results_of
            .borrow_mut()
            .entry(b)
            .or_insert_with(|| reach.errors_only_become_results(b, &bodies, edges, 0))
    };
    let mut sites: Vec<ErrorSite> = sites
        .into_iter()
        .zip(arms)
        .map(|(mut site, arm)| {
            site.context = reach.context_of(body_of(site.body), arm.as_ref());
            // A crate fn only turbomcp `#[tool]`s call: its protocol error becomes their
            // isError result.
            if site.channel == Channel::Protocol
                && site.context.in_tools_helper()
                && only_results(site.body)
            {
                site.channel = Channel::ToolError;
            }
            let in_tools_helper = site.channel == Channel::Protocol
                && (site.context.in_tools_helper() || {
                    let body = body_of(site.body);
                    body.continues_dispatch && body.returns.err == ErrChannel::Protocol
                });
            // A helper (or a dispatch continued in one) whose every tool caller answers its
            // error itself (`Err(e) => return Ok(tool_error_result(&e))`): its protocol errors
            // never reach a tool's answer.
            if in_tools_helper && !reach.errors_reach_tool[site.body.0] {
                site.context = SiteContext::Unreached;
            } else if in_tools_helper && reach.only_server_faults_into(site.body, &bodies, edges) {
                // Called only on server faults (`spawn_blocking(..).await.map_err(internal)?`).
                site.path.server_fault = true;
            }
            site
        })
        .collect();
    // An arm of an error mapping (`From<AppError>`, `to_mcp(&self)`) is tool context only for
    // the variants tool code passes in.
    let mut variants: HashMap<BodyId, Option<Vec<(ItemId, String)>>> = HashMap::new();
    // Per body that builds a variant, whether only code outside the tools calls it (asked once).
    let outside_tools: RefCell<HashMap<BodyId, bool>> = RefCell::new(HashMap::new());
    // Built where the source shows no tool runs: code only `main` and other handlers call
    // (start-up, resources). Code no resolved call reaches proves nothing.
    let for_no_tool = |b: &site::VariantBuild| {
        matches!(
            reach.context_of(body_of(b.body), b.arm.as_ref()),
            SiteContext::Unreached | SiteContext::OtherHandler
        ) && *outside_tools
            .borrow_mut()
            .entry(b.body)
            .or_insert_with(|| called_only_outside_tools(b.body, &bodies, &graph, &walked.edges))
    };
    // Every build of the variant that a tool can meet is the server's own fault.
    let fault_only = |e: ItemId, v: &str| {
        variant_builds
            .get(&(e, v.to_string()))
            .is_some_and(|at| at.iter().all(|b| b.server_fault || for_no_tool(b)))
    };
    for site in &mut sites {
        // Only where a tool checks an argument's value (`if limit > 100 { return
        // Err(ToolError::InvalidArgument(..)) }`).
        site.path.variant_value_check = all_builds(&variant_builds, site, |b| {
            !b.server_fault
                && !b.schema_level
                && !b.request_failure
                && reach.context_of(body_of(b.body), b.arm.as_ref()).is_tool()
        });
        // `Renewal::Unknown => Ok(json!(..))` over a crate fn's value, where every
        // `Renewal::Unknown` is built on a lookup's miss: the arm answers that miss.
        if site.channel == Channel::ToolSuccess && !site.path.lookup_miss {
            let misses = all_builds(&variant_builds, site, |b| b.lookup_miss.is_some());
            if let (true, Some(VariantTag::Is(e, vs))) = (misses, &site.variant) {
                site.path.lookup_miss = true;
                site.path.lookup_names = vs
                    .first()
                    .and_then(|v| variant_builds.get(&(*e, v.clone())))
                    .and_then(|at| at.first())
                    .and_then(|b| b.lookup_miss.clone());
            }
        }
        let (Some(tag), true) = (&site.variant, site.context.is_tool()) else {
            continue;
        };
        // The arm of variants built only where the source shows no tool runs.
        if all_builds(&variant_builds, site, for_no_tool) {
            site.context = SiteContext::Unreached;
            continue;
        }
        let from_callee;
        let passed = match site.errors_of {
            Some(b) => {
                from_callee = returned
                    .of(b)
                    .map(|(e, vs)| vs.iter().map(|v| (e, v.clone())).collect());
                &from_callee
            }
            None => variants
                .entry(site.body)
                .or_insert_with(|| reach.tool_variants_into(site.body, &bodies, edges, &returned)),
        };
        if let Some(passed) = passed {
            if !passed.is_empty() && !passed.iter().any(|(e, v)| tag.admits(*e, v)) {
                site.context = SiteContext::Unreached;
            }
        }
        // `Io(_) | Poisoned(_) => internal_error(..)` where tool code passes in only `Poisoned`,
        // built only on the server's own faults: judged by what reaches it, call by call.
        let tool_calls =
            reach.tool_calls_passing(tag, site.body, &bodies, edges, &returned, &fault_only);
        if tool_calls.1.is_empty()
            && reach
                .tool_edges_into(site.body, &bodies, edges)
                .next()
                .is_some()
        {
            site.path.server_fault = true;
        }
        // The arm of variants no code ever builds.
        if let VariantTag::Is(e, vs) = tag {
            if !vs.iter().any(|v| built.is_built(&defs, *e, v)) {
                site.context = SiteContext::Unreached;
            }
        }
    }
    // A helper called only from arms of error mappings that no variant tool code passes in
    // reaches (`Sqlx(e) => convert_sqlx(e)` in a `From<AppError>` tools convert only
    // `Query` through) runs for no tool.
    let mut unreached_helpers: HashMap<BodyId, bool> = HashMap::new();
    for site in &mut sites {
        if !site.context.in_tools_helper() {
            continue;
        }
        let unreached = *unreached_helpers.entry(site.body).or_insert_with(|| {
            let mut into = reach.tool_edges_into(site.body, &bodies, edges).peekable();
            into.peek().is_some()
                && into.all(|e| {
                    let Some(tag) = &e.arm_variant else {
                        return false;
                    };
                    let passed = variants.entry(e.from).or_insert_with(|| {
                        reach.tool_variants_into(e.from, &bodies, edges, &returned)
                    });
                    passed.as_ref().is_some_and(|p| {
                        !p.is_empty() && !p.iter().any(|(en, v)| tag.admits(*en, v))
                    })
                })
        });
        if unreached {
            site.context = SiteContext::Unreached;
        }
    }
    // A finding at a helper names the tool calls that reach it; at an arm of an error mapping,
    // the tools and calls that pass in a variant of the arm (or one the source does not show).
    // The first few calls, and how many there are.
    const LISTED: usize = 4;
    let listed = |calls: Vec<(FileId, Span)>| {
        let total = calls.len();
        (calls.into_iter().take(LISTED).collect::<Vec<_>>(), total)
    };
    let mut callers: HashMap<BodyId, (Vec<(FileId, Span)>, usize)> = HashMap::new();
    for site in &mut sites {
        let SiteContext::Tool {
            helper: Some(helper),
            ..
        } = &site.context
        else {
            continue;
        };
        let (calls, total) = match &site.variant {
            Some(tag) if site.errors_of.is_none() => {
                let (tools, calls) = reach.tool_calls_passing(
                    tag,
                    site.body,
                    &bodies,
                    edges,
                    &returned,
                    &fault_only,
                );
                if !tools.is_empty() {
                    site.context = SiteContext::Tool {
                        tools,
                        helper: Some(helper.clone()),
                    };
                }
                listed(calls)
            }
            _ => callers
                .entry(site.body)
                .or_insert_with(|| listed(reach.tool_calls_into(site.body, &bodies, edges)))
                .clone(),
        };
        // The last listed says how many more there are.
        let last = calls.len();
        site.related
            .extend(calls.into_iter().enumerate().map(|(i, (f, s))| {
                let message = match total - last {
                    n if n > 0 && i + 1 == last => format!(
                        "called from tool code here (and {n} more tool call{})",
                        if n == 1 { "" } else { "s" }
                    ),
                    _ => "called from tool code here".to_string(),
                };
                (f, s, message)
            }));
    }
    let (delegated, handed) =
        reach.delegated_sites(&bodies, edges, &sites, &summaries, &returned, &fault_only);
    // Text a tool hands a crate helper that answers with it shows what it shows there.
    let handed_texts = delegated
        .iter()
        .filter(|s| matches!(s.origin, site::Origin::TextArgument { .. }));
    let shown_texts = shown_texts::shown_texts(
        sites.iter().chain(handed_texts),
        &walked.returned,
        &walked.edges,
    );
    for (i, file, span) in handed {
        let site = &mut sites[i];
        site.path.on_failure_path = true;
        if !site
            .related
            .iter()
            .any(|(f, s, _)| (*f, *s) == (file, span))
        {
            site.related.push((
                file,
                span,
                "a tool's error is handed to it here".to_string(),
            ));
        }
    }
    sites.extend(delegated);
    let through: Vec<&[BodyId]> = walked.returned.iter().map(|r| &r.through[..]).collect();
    // The bodies the calls inside a span of a body reach (a mapping called in an `Err` arm).
    let called_within = |b: BodyId, file: FileId, span: Span| -> Vec<BodyId> {
        graph.out_edges[b.0]
            .iter()
            .map(|&e| (e, &walked.edges[e]))
            .filter(|(_, e)| {
                bodies[e.from.0].file == file
                    && span.start <= e.span.start
                    && e.span.end <= span.end
            })
            .flat_map(|(i, _)| graph.callees[i].iter().copied())
            .collect()
    };
    pending.resolve(&mut sites, &through, &called_within);
    // Phase: answers. Failure text that reaches a tool's success answer through a `let` or a
    // helper's returned value.
    let context_of = |b: BodyId, arm: Option<&SiteContext>| reach.context_of(body_of(b), arm);
    let reached = answers::success_answers(&walked.answers, &context_of, &sites);
    sites.extend(reached);
    // Hand-rolled servers: only what an MCP handler reaches is MCP.
    let handler_only =
        |file: FileId| dialect_of(file).is_some_and(|d| d.only_handler_code_counts());
    sites.retain(|s| !(handler_only(s.file) && s.context == SiteContext::Unreached));
    // A const of the error type's own vocabulary is the server's error object's code wherever
    // the type is sent from; a code in a helper any MCP handler reaches is the server's
    // (the router's answer to an unknown method, a stdio bridge's), and so is one the serve
    // loop that calls the router sends a tool's failure with (its mapping of the returned
    // error).
    // The variant arm each code in a conversion sits in, by the code's start: the arm of the
    // site whose span holds it.
    let mut arm_sites: HashMap<BodyId, Vec<&ErrorSite>> = HashMap::new();
    for s in sites.iter().filter(|s| s.variant.is_some()) {
        if body_of(s.body).is_from_impl {
            arm_sites.entry(s.body).or_default().push(s);
        }
    }
    let mut conversion_arms: HashMap<(BodyId, usize), &VariantTag> = HashMap::new();
    for c in &walked.codes {
        let Some(in_body) = arm_sites.get(&c.body) else {
            continue;
        };
        let arm = in_body.iter().find_map(|s| {
            let holds = s.span.start <= c.span.start && c.span.end <= s.span.end;
            s.variant.as_ref().filter(|_| holds)
        });
        if let Some(arm) = arm {
            conversion_arms.insert((c.body, c.span.start), arm);
        }
    }
    let sent_for_tools: HashSet<(BodyId, i64)> = sites
        .iter()
        .filter(|s| s.channel == site::Channel::Protocol && s.context.is_tool())
        .filter_map(|s| Some((s.body, s.code?)))
        .collect();
    let codes = walked
        .codes
        .into_iter()
        .filter(|c| {
            !handler_only(c.file)
                || c.definition.is_some()
                || reach.reached_from_handler(c.body)
                || reach.context_of(body_of(c.body), None) != SiteContext::Unreached
                || sent_for_tools.contains(&(c.body, c.value))
        })
        // A code in a crate fn only turbomcp `#[tool]`s call rides in their isError results.
        .filter(|c| {
            c.definition.is_some() || body_of(c.body).kind.is_some() || !only_results(c.body)
        })
        // One in an arm of a conversion is sent only for the variants protocol-answering
        // callers pass in, not for arms only caught tools reach.
        .filter(|c| {
            let Some(arm) = conversion_arms.get(&(c.body, c.span.start)) else {
                return true;
            };
            reach
                .protocol_variants_into(c.body, &bodies, edges, &returned)
                .is_none_or(|vs| vs.iter().any(|(e, v)| arm.admits(*e, v)))
        })
        .collect();
    let codes = codes_at_definitions(codes, &defs, files);
    let panics = walked
        .panics
        .into_iter()
        .map(|(site, arm)| ContextPanic {
            context: reach.context_of(body_of(site.body), arm.as_ref()),
            site,
        })
        .collect();
    Analysis {
        dialects,
        file_dialect,
        declared,
        sites,
        codes,
        panics,
        shown_texts,
        result_calls: walked.result_calls,
        conversions: bodies
            .iter()
            .filter(|b| b.is_from_impl)
            .map(|b| {
                (
                    b.id,
                    reach
                        .tool_calls_into(b.id, &bodies, edges)
                        .into_iter()
                        .take(CONVERSION_CALLS)
                        .collect(),
                )
            })
            .collect(),
        ok_wrappers: bodies
            .iter()
            .filter_map(|b| Some((b.id, b.returns.ok_wrapper?)))
            .collect(),
        in_tree,
    }
}

/// Code sites of consts used by an error type's own constructors, moved to the const's
/// definition: one per const, its uses attached.
fn codes_at_definitions(
    codes: Vec<CodeSite>,
    defs: &DefMap<'_>,
    files: &[ModelFile],
) -> Vec<CodeSite> {
    let mut out: Vec<CodeSite> = Vec::with_capacity(codes.len());
    let mut at: HashMap<crate::resolve::ItemId, usize> = HashMap::new();
    for code in codes {
        let Some(id) = code.definition else {
            out.push(code);
            continue;
        };
        let used = (
            code.file,
            code.span,
            "used as an error code here".to_string(),
        );
        if let Some(&i) = at.get(&id) {
            out[i].related.push(used);
            continue;
        }
        let item = defs.item(id);
        let file = defs.module(item.module).file;
        let (syn::Item::Const(c), Some(source)) = (item.syntax, &files[file.0].source) else {
            continue;
        };
        at.insert(id, out.len());
        out.push(CodeSite {
            file,
            span: source.span_of(&c.expr),
            written: format!("{} = {}", c.ident, code.value),
            related: vec![used],
            ..code
        });
    }
    out
}

/// A file's path relative to its package root; `None` without a package root. The front end's
/// when it gave one; otherwise from the shown path: paths are under
/// the root, or shown relative to it or to a directory above it (`server/src/lib.rs` of
/// `/ws/server` linted from `/ws`, `../server/src/lib.rs` from `/ws/helpers`): the longest
/// tail of the root they start with (after any `..`) is dropped
/// when what remains is a package's (`src/..`, `tests/..`, `benches/..`, `examples/..`,
/// `build.rs`).
fn package_relative(file: &ModelFile, input: &CrateInput) -> Option<PathBuf> {
    let root = input.root.as_ref()?;
    if let Some(known) = &file.package_path {
        return Some(known.clone());
    }
    let path = file.path.as_path();
    if let Ok(p) = path.strip_prefix(root) {
        return Some(p.to_path_buf());
    }
    if !path.is_relative() {
        return None;
    }
    let names: Vec<&std::ffi::OsStr> = root
        .components()
        .filter_map(|c| match c {
            std::path::Component::Normal(n) => Some(n),
            _ => None,
        })
        .collect();
    let in_package = |rest: &std::path::Path| {
        let first = rest
            .components()
            .next()
            .and_then(|c| c.as_os_str().to_str());
        matches!(first, Some("src" | "tests" | "benches" | "examples"))
            || rest == std::path::Path::new("build.rs")
    };
    // Shown from a sibling directory: `../helpers/src/lib.rs`.
    let shown: PathBuf = path
        .components()
        .skip_while(|c| {
            matches!(
                c,
                std::path::Component::ParentDir | std::path::Component::CurDir
            )
        })
        .collect();
    for k in (1..=names.len()).rev() {
        let tail: PathBuf = names[names.len() - k..].iter().collect();
        if let Ok(rest) = shown.strip_prefix(&tail) {
            if in_package(rest) {
                return Some(rest.to_path_buf());
            }
        }
    }
    Some(path.to_path_buf())
}

/// The targets of a package without a manifest: cargo's standard places.
static NO_TARGETS: crate::options::Targets = crate::options::Targets {
    lib: None,
    declared: Vec::new(),
    not_inferred: Vec::new(),
};

/// The packages' module trees and names, resolved together: a package's path dependencies on
/// the others resolve into them. In an SDK's own package the library's name (`pmcp::Error` in
/// an example) stays the SDK's: the dialect knows what its paths build, and the library's
/// implementation of them is not walked into as crate helpers.
fn resolve_names<'a>(
    files: &[ModelFile],
    program: &Program<'_>,
    parsed: &[(FileId, &'a syn::File, bool)],
    own_sdk: &[bool],
    arena: &'a typed_arena::Arena<Vec<syn::Item>>,
) -> DefMap<'a> {
    let refs: Vec<crate::program::PackageRef<'_>> = program
        .packages
        .iter()
        .map(|input| (input.root.as_deref(), input.manifest.as_ref()))
        .collect();
    let links = crate::program::links(&refs);
    // The files that did not parse still take their place in the module trees.
    let unparsed: Vec<Vec<(FileId, Option<PathBuf>)>> = (0..program.packages.len())
        .map(|p| {
            (0..files.len())
                .map(FileId)
                .filter(|id| program.package_of(*id) == p && files[id.0].syntax.is_none())
                .map(|id| (id, package_relative(&files[id.0], program.input_of(id))))
                .collect()
        })
        .collect();
    let per_package: Vec<Vec<PackageFile<'a>>> = (0..program.packages.len())
        .map(|p| {
            parsed
                .iter()
                .filter(|(id, ..)| program.package_of(*id) == p)
                .map(|(id, syntax, test)| {
                    let relative = package_relative(&files[id.0], program.input_of(*id));
                    (*id, relative, *syntax, *test)
                })
                .collect()
        })
        .collect();
    let packages: Vec<PackageFiles<'a, '_>> = program
        .packages
        .iter()
        .zip(&per_package)
        .zip(links)
        .enumerate()
        .map(|(p, ((input, files), linked))| {
            let package_name = input
                .manifest
                .as_ref()
                .and_then(|m| m.package_name.as_deref());
            let mut dependencies = program.crates[p].pairs();
            if let (true, Some(name)) = (own_sdk[p], package_name) {
                let lib = name.replace('-', "_");
                dependencies.push((lib.clone(), lib));
            }
            PackageFiles {
                files,
                package_name,
                targets: input.manifest.as_ref().map_or(&NO_TARGETS, |m| &m.targets),
                unparsed: &unparsed[p],
                dependencies,
                linked,
            }
        })
        .collect();
    let first = DefMap::build_program(&packages);
    if first.item_macro_calls.is_empty() {
        return first;
    }
    // Crate macros that generate items: resolve again with what they generate in their place.
    let generated = crate::expand::expand_item_macros(&first, arena);
    if generated.is_empty() {
        return first;
    }
    DefMap::build_program_with(&packages, generated)
}

/// Per file: whether it is the library code of an SDK's own package (its `src/` lib target, and
/// `src/` files no target reaches but a binary's): it defines the SDK, so tool rules do not apply
/// there, code rules do. Its examples, tests, benches and binaries are servers like any other.
fn sdk_library_files(
    files: &[ModelFile],
    program: &Program<'_>,
    defs: &DefMap<'_>,
    own_sdk: &[bool],
) -> Vec<bool> {
    (0..files.len())
        .map(|i| {
            let file = FileId(i);
            if !own_sdk[program.package_of(file)] {
                return false;
            }
            if defs.is_library_file(file) {
                return true;
            }
            // A `src/` file no root reaches (a module declared by a macro or a `cfg_attr`
            // path) is the library's.
            let orphan = defs
                .file_module(file)
                .is_some_and(|m| defs.module(defs.module(m).root).file == file);
            let relative = package_relative(&files[i], program.input_of(file));
            let parts: Vec<String> = relative
                .iter()
                .flat_map(|p| p.components())
                .filter_map(|c| c.as_os_str().to_str().map(str::to_string))
                .collect();
            let binary = matches!(parts.get(1).map(String::as_str), Some("main.rs" | "bin"));
            orphan && parts.first().is_some_and(|p| p == "src") && !binary
        })
        .collect()
}

/// Per file (by index), the crate roots its code names by a qualified path, each as a
/// one-segment path.
type FileRoots = HashMap<usize, Vec<Vec<String>>>;

/// The SDK dialects package `p` uses, by its manifest and its code, and per file of the
/// package the crate roots its code names by a qualified path (for [`file_dialects`]).
fn detect_dialects(
    files: &[ModelFile],
    program: &Program<'_>,
    p: usize,
    index: &Index<'_>,
    (defs, types): (&DefMap<'_>, &Types<'_>),
) -> (Vec<Box<dyn Dialect>>, FileRoots) {
    let crates = &program.crates[p];
    // `rmcp::` as the code spells it (`mcp::` when renamed; nothing when `rmcp` is another
    // crate's key).
    let spellings: Vec<String> = sdk::sdk_roots()
        .iter()
        .flat_map(|roots| roots.iter())
        .flat_map(|r| crates.spellings(&format!("{r}::")))
        .collect();
    let mut may_route = false;
    let mut file_roots = HashMap::new();
    let mut package_roots = HashSet::new();
    for (i, f) in files.iter().enumerate() {
        let (Some(source), Some(_)) = (&f.source, &f.syntax) else {
            continue;
        };
        if program.file_package[i] != p {
            continue;
        }
        may_route |= source.text.contains(sdk::jsonrpc::TOOLS_CALL_LITERAL);
        // The text search only decides which files are worth a walk of their paths.
        if !spellings.iter().any(|s| source.text.contains(s.as_str())) {
            continue;
        }
        let roots = f.code_roots();
        file_roots.insert(i, roots.iter().map(|r| vec![r.clone()]).collect());
        package_roots.extend(roots.iter().cloned());
    }
    // A call in fn `f` resolved as the walker resolves it: `f(..)` by its path, `self.f(..)`
    // by the impl's type.
    let resolve = |f: &FnItem<'_>, call: &syn::Expr| -> Vec<usize> {
        let resolver = callgraph::Resolver {
            defs,
            types,
            scope: defs.fn_scope(f.sig),
        };
        // `server.call_tool(..)` on a local: its type is what the fn's lets before it state.
        let mut locals = callgraph::Locals::default();
        if let syn::Expr::MethodCall(m) = call {
            if !matches!(&*m.receiver, syn::Expr::Path(p) if p.path.is_ident("self")) {
                let at = syn::spanned::Spanned::span(call).byte_range().start;
                callgraph::bind_lets_before(&resolver, &mut locals, (f.sig, f.block), at);
            }
        }
        match resolver.call_target(call, &locals) {
            Some(callgraph::Target::Fn(k)) => vec![k as usize],
            _ => Vec::new(),
        }
    };
    let found = sdk::detect_all(
        program.packages[p].manifest.as_ref(),
        index,
        |needle| {
            crates
                .spellings(needle)
                .iter()
                .any(|s| package_roots.contains(s.trim_end_matches("::")))
        },
        may_route,
        &resolve,
    );
    (found, file_roots)
}

/// The protocol version package `p` declares in its source (see [`declared`]): its answers,
/// and the consts they name wherever they are (a path dependency's too). Only a package whose
/// text writes the member (or a field serde writes as it) is searched.
fn declared_protocol(
    files: &[ModelFile],
    program: &Program<'_>,
    p: usize,
    index: &Index<'_>,
    resolved: (&DefMap<'_>, &Types<'_>),
) -> Option<DeclaredProtocol> {
    let source_of = |file: FileId| {
        let f = files.get(file.0)?;
        (f.role != FileRole::Test)
            .then_some(f.source.as_deref())
            .flatten()
    };
    let mentions = (0..files.len())
        .map(FileId)
        .filter(|f| program.package_of(*f) == p)
        .filter_map(source_of)
        .any(|s| s.text.contains(declared::MEMBER) || s.text.contains(declared::FIELD));
    if !mentions {
        return None;
    }
    declared::declared_protocol(p, index, resolved, &source_of)
}

/// Which dialect each file speaks: the one its imports or qualified paths claim, else the one
/// its contents claim (a hand-rolled router), else the package's first.
fn file_dialects(
    files: usize,
    index: &Index<'_>,
    dialects: &[Box<dyn Dialect>],
    file_roots: &FileRoots,
) -> Vec<Option<usize>> {
    let no_roots = Vec::new();
    (0..files)
        .map(|i| {
            let imports = index.imports.get(i);
            let roots = file_roots.get(&i).unwrap_or(&no_roots);
            let claimed = dialects.iter().position(|d| {
                let mut paths = imports
                    .into_iter()
                    .flat_map(|imp| imp.names.values().chain(imp.globs.iter()))
                    .chain(roots);
                d.claims(&mut paths)
            });
            claimed
                .or_else(|| dialects.iter().position(|d| d.claims_file(FileId(i))))
                .or(Some(0))
        })
        .collect()
}

/// Whether `sig` fails with a crate type that the server sends as its JSON-RPC error (one of
/// `error_types`, whose constructors build error objects with codes), in a dialect with no
/// protocol error type of its own ([`Dialect::crate_errors_are_protocol`]).
fn fails_with_crate_protocol_error(
    dialect: &dyn Dialect,
    sig: &syn::Signature,
    defs: &DefMap<'_>,
    types: &Types<'_>,
    error_types: &HashSet<ItemId>,
) -> bool {
    dialect.crate_errors_are_protocol()
        && callgraph::Resolver {
            defs,
            types,
            scope: defs.fn_scope(sig),
        }
        .declared_error_item(sig)
        .is_some_and(|t| error_types.contains(&t))
}

/// What every body's walk shares: the resolver's tables, each fn's body and what its signature
/// says.
#[allow(clippy::too_many_arguments)]
fn crate_calls<'r, 'a, 'd, 'i>(
    files: &[ModelFile],
    fns: &[&FnItem<'a>],
    index_of: &dyn Fn(FileId) -> &'i Index<'a>,
    defs: &'r DefMap<'a>,
    types: &'r Types<'a>,
    expander: &'a Expander<'a>,
    dialect_of: &dyn Fn(FileId) -> Option<&'d dyn Dialect>,
) -> CrateCalls<'r, 'a>
where
    'a: 'i,
{
    let body_of: HashMap<FnKey, BodyId> = fns
        .iter()
        .enumerate()
        .map(|(i, f)| (f.sig as *const syn::Signature, BodyId(i)))
        .collect();
    let carriers = callgraph::code_carriers(fns, types, defs, dialect_of, index_of);
    let mut error_constructors: HashMap<FnKey, _> = fns
        .iter()
        .filter_map(|f| {
            let key = f.sig as *const syn::Signature;
            let carried = types
                .scope_of(key)
                .and_then(|scope| types.self_type(scope))
                .and_then(|t| carriers.get(&t))
                .map(String::as_str);
            let source = files[f.file.0].source.as_deref();
            let ctor = callgraph::error_constructor(
                f,
                dialect_of(f.file)?,
                index_of(f.file),
                source,
                carried,
            )?;
            Some((key, ctor))
        })
        .collect();
    // Constructors that call another with a code of their own (`Self::new(INTERNAL_ERROR, m)`),
    // a few delegations deep.
    for _ in 0..3 {
        let derived: Vec<(FnKey, _)> = fns
            .iter()
            .filter(|f| !error_constructors.contains_key(&(f.sig as FnKey)))
            .filter_map(|f| {
                let resolver = callgraph::Resolver {
                    defs,
                    types,
                    scope: defs.fn_scope(f.sig),
                };
                let ctor = callgraph::delegating_error_constructor(
                    f,
                    dialect_of(f.file)?,
                    index_of(f.file),
                    &resolver,
                    &error_constructors,
                    &carriers,
                )?;
                Some((f.sig as FnKey, ctor))
            })
            .collect();
        if derived.is_empty() {
            break;
        }
        error_constructors.extend(derived);
    }
    let result_helpers: HashMap<FnKey, _> = fns
        .iter()
        .filter_map(|f| {
            let helper = callgraph::result_helper(f, dialect_of(f.file)?, index_of(f.file))?;
            Some((f.sig as *const syn::Signature, helper))
        })
        .collect();
    // Types with a constructor of their own (`-> Self`), not those with an error helper method.
    let error_types: HashSet<ItemId> = fns
        .iter()
        .filter(|f| f.is_constructor())
        .map(|f| f.sig as FnKey)
        .filter(|k| error_constructors.contains_key(k))
        .filter_map(|k| types.self_type(types.scope_of(k)?))
        .collect();
    let facts: Vec<FnFacts> = fns
        .iter()
        .map(|f| {
            let Some(dialect) = dialect_of(f.file) else {
                return FnFacts::default();
            };
            FnFacts {
                protocol: dialect
                    .return_facts(None, &f.sig.output, index_of(f.file))
                    .err
                    == ErrChannel::Protocol
                    || fails_with_crate_protocol_error(dialect, f.sig, defs, types, &error_types),
                tool_error: matches!(&f.sig.output, syn::ReturnType::Type(_, ty)
                    if result_error_name(unwrap_future(ty))
                        .is_some_and(|e| dialect.is_tool_error_type_name(&e))),
                lookup_of_param: walk::dispatch::lookup_of_param(f),
            }
        })
        .collect();
    let blocks = fns
        .iter()
        .map(|f| (f.sig as FnKey, (f.block, f.file, f.sig)))
        .collect();
    CrateCalls {
        defs,
        types,
        expander,
        body_of,
        facts,
        error_constructors,
        result_helpers,
        error_types,
        carriers: carriers.into_keys().collect(),
        blocks,
        sources: files.iter().map(|f| f.source.clone()).collect(),
        never_errs: fns.iter().map(|_| std::sync::OnceLock::new()).collect(),
        from_fns: std::sync::OnceLock::new(),
        external_from_fns: std::sync::OnceLock::new(),
        registered_fns: std::sync::OnceLock::new(),
    }
}

/// Walk every body once; closures registered as tools become bodies and are walked too.
/// Then the helpers a dispatcher hands the request to before it has picked a tool, and that
/// pick one, are dispatchers too ([`CallEdge::continues_dispatch`]): walked again as such.
/// The fn and const bodies take the facts `walks` kept from the last analysis where they hold.
#[allow(clippy::too_many_arguments)]
fn walk_bodies<'a, 'd, 'i>(
    files: &'a [ModelFile],
    bodies: &mut Vec<BodyInfo<'a>>,
    dialect_of: &dyn Fn(FileId) -> Option<&'d dyn Dialect>,
    index_of: &dyn Fn(FileId) -> &'i Index<'a>,
    calls: &CrateCalls<'_, 'a>,
    options: &Options,
    walks: &mut WalkReuse,
) -> Walked
where
    'a: 'i,
{
    let mut walked = Walked::default();
    let planned = bodies.len();
    let mut next = 0;
    while next < bodies.len() {
        walked.returned.push(site::ReturnedErrors::default());
        walked.answers.push(site::BodyAnswers::default());
        let body = &bodies[next];
        let walk = || walk_body(files, body, dialect_of, index_of, calls, options);
        let facts = if next < planned {
            walks.facts(body.id, body.file, walk)
        } else {
            walk()
        };
        if let Some(facts) = facts {
            absorb(&mut walked, bodies, next, facts, dialect_of, index_of, true);
        }
        next += 1;
    }
    let mut tried = vec![false; bodies.len()];
    loop {
        let found = dispatch_continuations(bodies, &walked.edges);
        let known_names_only: HashSet<BodyId> =
            found.iter().filter(|(_, k)| *k).map(|(b, _)| *b).collect();
        let continuations = first_tries(found.into_iter().map(|(b, _)| b).collect(), &mut tried);
        if continuations.is_empty() {
            break;
        }
        let mut rewalked = Vec::new();
        for b in continuations {
            let mut body = bodies[b.0].clone();
            body.kind = Some(HandlerKind::Dispatcher);
            body.continues_dispatch = true;
            if let (Some(dialect), Some(sig)) = (dialect_of(body.file), body.sig) {
                body.returns = dialect.return_facts(body.kind, &sig.output, index_of(body.file));
                if body.returns.err == ErrChannel::Unknown
                    && fails_with_crate_protocol_error(
                        dialect,
                        sig,
                        calls.defs,
                        calls.types,
                        &calls.error_types,
                    )
                {
                    body.returns.err = ErrChannel::Protocol;
                }
            }
            let walk = || walk_body(files, &body, dialect_of, index_of, calls, options);
            let Some(mut facts) = walks.rewalk_facts(b, body.file, Rewalk::Dispatcher, walk) else {
                continue;
            };
            if known_names_only.contains(&b) {
                facts.unknown_names_unreached();
            }
            let picks_tool = facts
                .calls
                .iter()
                .map(|e| e.context_override.as_ref())
                .chain(facts.sites.iter().map(|(_, arm)| arm.as_ref()))
                .any(|arm| {
                    matches!(
                        arm,
                        Some(SiteContext::Tool { .. } | SiteContext::UnknownToolArm { .. })
                    )
                });
            // A helper that only hands the request on (`handle_analysis_tools` calling
            // `dispatch_analysis_tool(id, &params.name, ..)`) keeps the dispatch going: its
            // callees are walked in turn.
            let hands_on = facts.calls.iter().any(|e| e.continues_dispatch);
            if !picks_tool && !hands_on {
                continue;
            }
            rewalked.push((body, facts));
        }
        replace_walks(&mut walked, bodies, rewalked, dialect_of, index_of);
    }
    // The fns that build the protocol error value their callers return (`fn missing(field:
    // &str) -> McpError`), where what that value becomes depends on who returns it (turbomcp 3:
    // an isError result from a `#[tool]`, a JSON-RPC error from `McpHandler::call_tool`): walked
    // again as protocol errors once every caller is known to send its `Err` as one, as the
    // same construction inline in those callers is. Each is walked again at most once.
    let mut tried = vec![false; bodies.len()];
    loop {
        let helpers = first_tries(
            protocol_value_helpers(bodies, &walked.edges, dialect_of),
            &mut tried,
        );
        if helpers.is_empty() {
            break;
        }
        let mut rewalked = Vec::new();
        for b in helpers {
            let mut body = bodies[b.0].clone();
            body.returns.err = ErrChannel::Protocol;
            let walk = || walk_body(files, &body, dialect_of, index_of, calls, options);
            if let Some(facts) = walks.rewalk_facts(b, body.file, Rewalk::ProtocolValue, walk) {
                rewalked.push((body, facts));
            }
        }
        replace_walks(&mut walked, bodies, rewalked, dialect_of, index_of);
    }
    resolve_slots(&mut walked);
    walked
}

/// Whether `body` is `main`, another handler than a tool, or called (transitively, through
/// resolved calls) only from those: what it builds reaches no tool.
fn called_only_outside_tools(
    body: BodyId,
    bodies: &[BodyInfo<'_>],
    graph: &CallGraph,
    edges: &[site::CallEdge],
) -> bool {
    let mut seen = HashSet::new();
    let mut stack = vec![body];
    while let Some(b) = stack.pop() {
        if !seen.insert(b) {
            continue;
        }
        let info = &bodies[b.0];
        if info.kind == Some(HandlerKind::Tool) || info.kind == Some(HandlerKind::Dispatcher) {
            return false;
        }
        let callers: Vec<BodyId> = graph.in_edges[b.0].iter().map(|&e| edges[e].from).collect();
        if callers.is_empty() {
            let root = info.kind.is_some() || (info.name == "main" && info.scope.is_some());
            if !root {
                return false;
            }
        }
        stack.extend(callers);
    }
    true
}

/// Whether every build of the variants a site is tagged with (`VariantTag::Is`) is known and
/// passes `test`.
fn all_builds(
    builds: &HashMap<(ItemId, String), Vec<&site::VariantBuild>>,
    site: &ErrorSite,
    test: impl Fn(&site::VariantBuild) -> bool,
) -> bool {
    let Some(VariantTag::Is(e, vs)) = &site.variant else {
        return false;
    };
    !vs.is_empty()
        && vs.iter().all(|v| {
            builds
                .get(&(*e, v.clone()))
                .is_some_and(|at| at.iter().all(|b| test(b)))
        })
}

/// The bodies of `found` not walked again yet, now marked as walked again.
fn first_tries(found: Vec<BodyId>, tried: &mut [bool]) -> Vec<BodyId> {
    found
        .into_iter()
        .filter(|b| !std::mem::replace(&mut tried[b.0], true))
        .collect()
}

/// Put each body walked again, with its new facts, in place of its first walk. One pass over
/// the facts for all of them: a pass per body was quadratic (hundreds of helpers walked again,
/// thousands of sites).
fn replace_walks<'a, 'd, 'i>(
    walked: &mut Walked,
    bodies: &mut Vec<BodyInfo<'a>>,
    rewalked: Vec<(BodyInfo<'a>, walk::BodyFacts<'a>)>,
    dialect_of: &dyn Fn(FileId) -> Option<&'d dyn Dialect>,
    index_of: &dyn Fn(FileId) -> &'i Index<'a>,
) where
    'a: 'i,
{
    if rewalked.is_empty() {
        return;
    }
    let mut replaced = vec![false; bodies.len()];
    for (body, _) in &rewalked {
        replaced[body.id.0] = true;
    }
    let kept = |b: BodyId| !replaced[b.0];
    walked.sites.retain(|(s, _)| kept(s.body));
    walked.codes.retain(|c| kept(c.body));
    walked.panics.retain(|(p, _)| kept(p.body));
    walked.edges.retain(|e| kept(e.from));
    for (body, facts) in rewalked {
        let b = body.id;
        bodies[b.0] = body;
        absorb(walked, bodies, b.0, facts, dialect_of, index_of, false);
    }
}

/// The fns declared to return the SDK's protocol error type itself (not a `Result`), walked
/// with no error channel, that some body calls and that only bodies sending their `Err` as a
/// JSON-RPC error call, each by its one resolved path (a by-name candidate, a trait-object
/// call or an inert caller leaves it as it is: what the value becomes is not known).
fn protocol_value_helpers<'d>(
    bodies: &[BodyInfo<'_>],
    edges: &[CallEdge],
    dialect_of: &dyn Fn(FileId) -> Option<&'d dyn Dialect>,
) -> Vec<BodyId> {
    // Asked per edge: each body's answer is worked out once.
    let mut candidates: Vec<Option<bool>> = vec![None; bodies.len()];
    let mut candidate = |b: BodyId| {
        *candidates[b.0].get_or_insert_with(|| {
            let body = &bodies[b.0];
            body.kind.is_none()
                && !body.inert
                && !body.in_sdk_library
                && body.returns.err == ErrChannel::Unknown
                && body.sig.is_some_and(|sig| match &sig.output {
                    syn::ReturnType::Type(_, ty) => dialect_of(body.file)
                        .is_some_and(|d| d.is_protocol_error_type(unwrap_future(ty))),
                    syn::ReturnType::Default => false,
                })
        })
    };
    // Per candidate: called at all, and only by protocol-error callers, by its path.
    let mut only_protocol: HashMap<BodyId, bool> = HashMap::new();
    for e in edges {
        let caller = &bodies[e.from.0];
        let fits = !caller.inert && caller.returns.err == ErrChannel::Protocol;
        match e.callee {
            Callee::Body(callee) if candidate(callee) => {
                *only_protocol.entry(callee).or_insert(true) &= fits;
            }
            _ => {
                for &b in e.callee.bodies() {
                    if candidate(b) {
                        only_protocol.insert(b, false);
                    }
                }
            }
        }
    }
    let mut out: Vec<BodyId> = only_protocol
        .into_iter()
        .filter(|&(_, only)| only)
        .map(|(b, _)| b)
        .collect();
    out.sort_by_key(|b| b.0);
    out
}

/// The facts of `body`; `None` when its file is not UTF-8 or speaks no dialect.
fn walk_body<'a, 'd, 'i>(
    files: &'a [ModelFile],
    body: &BodyInfo<'a>,
    dialect_of: &dyn Fn(FileId) -> Option<&'d dyn Dialect>,
    index_of: &dyn Fn(FileId) -> &'i Index<'a>,
    calls: &CrateCalls<'_, 'a>,
    options: &Options,
) -> Option<walk::BodyFacts<'a>>
where
    'a: 'i,
{
    let (Some(source), Some(dialect)) = (files[body.file.0].source.clone(), dialect_of(body.file))
    else {
        return None;
    };
    let walker = Walker::new(
        dialect,
        index_of(body.file),
        &source,
        body,
        calls,
        &options.server_fault_markers,
        files[body.file.0].macro_args(),
    );
    Some(walker.walk())
}

/// Add the facts of body `at` to `walked` (its closures become bodies when `add_closures`).
#[allow(clippy::too_many_arguments)]
fn absorb<'a, 'd, 'i>(
    walked: &mut Walked,
    bodies: &mut Vec<BodyInfo<'a>>,
    at: usize,
    mut facts: walk::BodyFacts<'a>,
    dialect_of: &dyn Fn(FileId) -> Option<&'d dyn Dialect>,
    index_of: &dyn Fn(FileId) -> &'i Index<'a>,
    add_closures: bool,
) where
    'a: 'i,
{
    let body = &bodies[at];
    walked.returned[at] = std::mem::take(&mut facts.returned);
    let (file, inert) = (body.file, body.inert);
    // A closure's captures are the values of the fn it is written in (a closure in a closure:
    // the outer one's fn).
    let home = bodies::ClosureHome {
        file,
        inert,
        scope: body.scope,
        enclosing: match (body.sig, body.code) {
            (Some(sig), bodies::BodyCode::Block(block)) => Some((sig, block)),
            _ => body.enclosing,
        },
    };
    // An SDK's library defines its constructors: only its codes are judged.
    let library = body.in_sdk_library;
    let answers = std::mem::take(&mut facts.answers);
    if !inert {
        walked.codes.extend(facts.codes);
        if !library {
            walked.sites.extend(facts.sites);
            walked.panics.extend(facts.panics);
            walked.answers[at] = answers;
        }
    }
    walked.edges.extend(facts.calls);
    walked.result_calls.extend(facts.result_calls);
    let dialect = match dialect_of(file) {
        Some(d) if !library && add_closures => d,
        _ => return,
    };
    for c in facts.closures {
        let id = BodyId(bodies.len());
        bodies.push(bodies::closure_body(
            id, home, c.closure, c.name, c.kind, c.returns,
        ));
    }
    for (closure, slot) in facts.slot_closures {
        let syn::Expr::Closure(c) = closure else {
            continue;
        };
        let id = BodyId(bodies.len());
        let returns = dialect.return_facts(None, &c.output, index_of(file));
        bodies.push(bodies::stored_closure_body(
            id, home, closure, &slot.1, returns,
        ));
        walked.slot_bodies.entry(slot).or_default().push(id);
    }
}

/// `(self.handler)(args)` runs any closure a constructor stored in that field: each
/// [`Callee::Slot`] becomes a dispatch over the closures the walk found passed to it.
fn resolve_slots(walked: &mut Walked) {
    let slots = std::mem::take(&mut walked.slot_bodies);
    let resolve = |callee: &mut Callee| {
        if let Callee::Slot(ty, field) = callee {
            let bodies = slots
                .get(&(*ty, field.clone()))
                .cloned()
                .unwrap_or_default();
            *callee = Callee::Dispatch(bodies);
        }
    };
    fn sources(s: &mut [site::AnswerSource], resolve: &dyn Fn(&mut Callee)) {
        for source in s {
            if let site::AnswerSource::Call { callee, args, .. } = source {
                resolve(callee);
                for a in args {
                    sources(a, resolve);
                }
            }
        }
    }
    for e in &mut walked.edges {
        resolve(&mut e.callee);
        if let Some(c) = &mut e.error_passed_to {
            resolve(c);
        }
    }
    for a in &mut walked.answers {
        sources(&mut a.returned, &resolve);
        for s in &mut a.success {
            sources(&mut s.sources, &resolve);
        }
    }
    walked.slot_bodies = slots;
}

/// The bodies that only dispatchers call, each time handing over the request before picking a
/// tool (`self.call_tool_impl(request)` in `call_tool`): they pick the tool.
fn dispatch_continuations(bodies: &[BodyInfo<'_>], edges: &[CallEdge]) -> Vec<(BodyId, bool)> {
    // Per body: called at all, and only by continuing calls; and only from arms that let known
    // tool names in.
    let mut only_continuing: HashMap<BodyId, (bool, bool)> = HashMap::new();
    for e in edges {
        if bodies[e.from.0].inert {
            continue;
        }
        let Callee::Body(callee) = e.callee else {
            for b in e.callee.bodies() {
                only_continuing.insert(*b, (false, false));
            }
            continue;
        };
        let (only, known) = only_continuing.entry(callee).or_insert((true, true));
        *only &= e.continues_dispatch;
        *known &= e.known_names;
    }
    let mut out: Vec<(BodyId, bool)> = only_continuing
        .into_iter()
        .filter(|&(b, (only, _))| {
            let body = &bodies[b.0];
            only && body.kind.is_none() && !body.inert && body.sig.is_some()
        })
        .map(|(b, (_, known))| (b, known))
        .collect();
    out.sort_by_key(|(b, _)| b.0);
    out
}

impl Model {
    /// Whether `call` (an expression of this model's files, `.await` stripped) calls crate fns
    /// that are all declared to return a `Result`, its future's output included: resolved as
    /// the walk resolves calls, recorded where it is the receiver of `.map_err(..)`.
    pub fn returns_result(&self, call: &syn::Expr) -> bool {
        self.result_calls
            .contains(&(call as *const syn::Expr as usize))
    }

    /// Whether `site` is built where a crate error becomes the protocol error: in `impl From<X>
    /// for McpError`, or in an arm of a mapping over a crate enum's variants (`fn to_mcp(&self)`)
    /// that tools reach. Its value must stay the protocol error: the fix goes where a tool meets
    /// the failure, before it is converted.
    pub fn in_conversion(&self, site: &ErrorSite) -> bool {
        self.conversions.contains_key(&site.body)
            || (site.variant.is_some() && site.context.in_tools_helper())
    }

    /// What `body`'s success wraps its tool result in (`RequestOutcome::Complete`), if anything:
    /// a tool error it returns goes inside.
    pub fn ok_wrapper(&self, body: BodyId) -> Option<&'static str> {
        self.ok_wrappers.get(&body).copied()
    }

    /// The tool calls (`?`) into the conversion `body` is, whatever variant they pass: up to
    /// [`CONVERSION_CALLS`] of them (as many means there may be more).
    pub fn conversion_calls(&self, body: BodyId) -> &[(FileId, Span)] {
        self.conversions.get(&body).map_or(&[], |c| &c[..])
    }

    /// Hand the parsed files to `parsed` for the next analysis of the crate.
    pub fn keep_files(self, parsed: &mut ParsedFiles) {
        parsed.keep(self.files);
    }

    /// The extent of every block of `body`, a fn body of this model's syntax, computed on first
    /// use.
    pub fn block_extents(&self, body: &syn::Block) -> Rc<BlockExtents> {
        let key = body as *const syn::Block as usize;
        self.block_extents
            .borrow_mut()
            .entry(key)
            .or_insert_with(|| Rc::new(BlockExtents::of(body)))
            .clone()
    }

    /// The dialect a file speaks; `None` when the crate is not an MCP server we understand.
    pub fn dialect_of(&self, file: FileId) -> Option<&dyn Dialect> {
        self.file_dialect
            .get(file.0)
            .copied()
            .flatten()
            .map(|i| &*self.dialects[i])
    }

    /// The protocol version the source of `file`'s server declares, when its dialect states
    /// one ([`Dialect::declares_protocol`]) and it names a version mcp-lint knows: the newest
    /// it declares. A file of a package with no SDK of its own is its program's first
    /// server's, as for its dialect.
    pub fn declared_protocol(&self, file: FileId) -> Option<&DeclaredProtocol> {
        let dialect = self.file_dialect.get(file.0).copied().flatten()?;
        self.declared.get(dialect)?.as_ref()
    }

    /// Whether the crate uses an MCP SDK (or hand-rolls the protocol) at all.
    pub fn is_mcp(&self) -> bool {
        !self.dialects.is_empty()
    }
}

fn parse_one(f: &crate::source::SourceInput) -> ModelFile {
    let (source, syntax, failure) = match parse::decode(&f.contents) {
        Err(e) => (None, None, Some(e)),
        Ok(text) => {
            let source = Arc::new(SourceFile::new(f.path.clone(), text));
            let result = parse::parse(&source).map(|mut file| {
                parse::compact(&mut file);
                file
            });
            // proc-macro2 keeps every parsed file's text per thread: release it now that the
            // spans we need are plain offsets.
            match result {
                Ok(file) => (Some(source), Some(file), None),
                Err(e) => (Some(source), None, Some(e)),
            }
        }
    };
    ModelFile {
        path: f.path.clone(),
        role: f.role,
        report: f.report,
        unlinked: false,
        package_path: f.package_path.clone(),
        source,
        syntax,
        macro_args: OnceLock::new(),
        word_counts: OnceLock::new(),
        code_roots: OnceLock::new(),
        failure,
    }
}

impl ModelFile {
    /// Whether its findings are reported: asked for, and compiled or named by the user.
    pub fn is_reported(&self) -> bool {
        self.report && !self.unlinked
    }

    /// The arguments of the file's `format!`, `vec!`, `json!`, `tokio::select!` … as expressions.
    pub fn macro_args(&self) -> &MacroArgs {
        self.macro_args.get_or_init(|| {
            self.syntax
                .as_ref()
                .map(MacroArgs::of_file)
                .unwrap_or_default()
        })
    }

    /// The crates its code names by a qualified path ([`sdk::code_roots`]).
    fn code_roots(&self) -> &HashSet<String> {
        self.code_roots.get_or_init(|| {
            self.syntax
                .as_ref()
                .map(sdk::code_roots)
                .unwrap_or_default()
        })
    }

    /// How often each word of the file appears outside comments.
    pub fn word_counts(&self) -> &WordCounts {
        self.word_counts.get_or_init(|| {
            self.source
                .as_ref()
                .map(|s| WordCounts::of(&s.text))
                .unwrap_or_default()
        })
    }
}
