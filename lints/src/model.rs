//! The semantic model of one crate, built once: parsed files, the crate index, the SDK dialect,
//! tool context and every error site. Lints only read it.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use crate::context::{self, BodyInfo, Reach};
use crate::diagnostic::Diagnostic;
use crate::index::Index;
use crate::options::{CrateInput, Options};
use crate::parse;
use crate::resolve::{DefMap, PackageFiles};
use crate::sdk::{Dialect, ErrChannel};
use crate::sites::{CodeSite, CrateCalls, ErrorSite, FnFacts, PanicSite, SiteContext, Walker};
use crate::source::{FileRole, SourceFile, Span};
use crate::types::{FnKey, Types};

/// Index of a file in [`Model::files`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(pub usize);

pub struct ModelFile {
    pub path: PathBuf,
    pub role: FileRole,
    pub report: bool,
    /// `None` when the bytes are not UTF-8.
    pub source: Option<Arc<SourceFile>>,
    /// `None` when the file did not parse.
    pub syntax: Option<syn::File>,
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
    /// The SDK dialects the crate uses (empty when it is not an MCP server we understand),
    /// the one its manifest names first.
    pub dialects: Vec<Dialect>,
    /// Which dialect each file speaks (by its imports, else the crate's first).
    pub file_dialect: Vec<Option<usize>>,
    pub sites: Vec<ErrorSite>,
    pub codes: Vec<CodeSite>,
    pub panics: Vec<ContextPanic>,
    /// Fn name → whether each fn of that name is declared to return a `Result` (on first use).
    fn_returns_result: OnceLock<HashMap<String, Vec<bool>>>,
}

impl Model {
    pub fn build(input: &CrateInput, options: &Options) -> Model {
        let files: Vec<ModelFile> = input.files.iter().map(parse_one).collect();
        let mut model = Model {
            files,
            dialects: Vec::new(),
            file_dialect: Vec::new(),
            sites: Vec::new(),
            codes: Vec::new(),
            panics: Vec::new(),
            fn_returns_result: OnceLock::new(),
        };
        model.analyse(input, options);
        model
    }

    fn analyse(&mut self, input: &CrateInput, options: &Options) {
        let parsed: Vec<(FileId, &syn::File, bool)> = self
            .files
            .iter()
            .enumerate()
            .filter_map(|(i, f)| {
                let test = f.role == FileRole::Test && !options.include_tests;
                f.syntax.as_ref().map(|s| (FileId(i), s, test))
            })
            .collect();
        let index = Index::build(&parsed);
        let package: Vec<(FileId, Option<PathBuf>, &syn::File, bool)> = parsed
            .iter()
            .map(|(id, syntax, test)| {
                let path = &self.files[id.0].path;
                // Paths are under the package root, or already relative to it.
                let relative = match &input.root {
                    Some(root) => match path.strip_prefix(root) {
                        Ok(p) => Some(p.to_path_buf()),
                        Err(_) => path.is_relative().then(|| path.clone()),
                    },
                    None => None,
                };
                (*id, relative, *syntax, *test)
            })
            .collect();
        let dependencies: Vec<(String, String)> = input
            .manifest
            .iter()
            .flat_map(|m| m.dependencies.iter())
            .map(|d| (d.name.clone(), d.name.clone()))
            .collect();
        let package_name = input
            .manifest
            .as_ref()
            .and_then(|m| m.package_name.as_deref());
        let defs = DefMap::build(&PackageFiles {
            files: &package,
            package_name,
            dependencies,
        });
        let types = Types::build(&defs);
        let texts: Vec<&str> = self
            .files
            .iter()
            .filter_map(|f| f.source.as_ref().map(|s| s.text.as_str()))
            .collect();
        let dialects = Dialect::detect_all(input.manifest.as_ref(), &index, |needle| {
            texts.iter().any(|t| t.contains(needle))
        });
        if dialects.is_empty() {
            return;
        }
        let file_dialect: Vec<Option<usize>> = (0..self.files.len())
            .map(|i| {
                let imports = index.imports.get(i);
                let claimed = imports.and_then(|imp| {
                    dialects
                        .iter()
                        .position(|d| d.claims(&mut imp.names.values().chain(imp.globs.iter())))
                });
                claimed.or(Some(0))
            })
            .collect();
        let dialect_of = |file: FileId| file_dialect[file.0].map(|i| &dialects[i]);

        let mut bodies = context::fn_bodies(&index, &defs, &dialect_of, options.include_tests);
        for (body, f) in bodies.iter_mut().zip(&index.fns) {
            if body.is_from_impl {
                body.from_source_type = Some(context::from_source_type(body, f, &defs));
            }
        }
        let first_const = bodies.len();
        bodies.extend(context::const_bodies(&parsed, first_const));
        let facts: Vec<FnFacts> = index
            .fns
            .iter()
            .map(|f| {
                let Some(dialect) = dialect_of(f.file) else {
                    return FnFacts::default();
                };
                FnFacts {
                    protocol: dialect.return_facts(None, &f.sig.output, &index).err
                        == ErrChannel::Protocol,
                    tool_error: matches!(&f.sig.output, syn::ReturnType::Type(_, ty)
                        if crate::index::result_error_name(crate::index::unwrap_future(ty))
                            .is_some_and(|e| dialect.is_tool_error_type_name(&e))),
                }
            })
            .collect();
        let body_of: HashMap<FnKey, context::BodyId> = index
            .fns
            .iter()
            .enumerate()
            .map(|(i, f)| (f.sig as *const syn::Signature, context::BodyId(i)))
            .collect();
        let calls = CrateCalls {
            defs: &defs,
            types: &types,
            body_of,
            facts,
        };

        // Walk every body once; closures registered as tools become bodies and are walked too.
        let mut raw_sites = Vec::new();
        let mut raw_panics = Vec::new();
        let mut edges = Vec::new();
        let mut next = 0;
        while next < bodies.len() {
            let body = &bodies[next];
            next += 1;
            let (Some(source), Some(dialect)) = (
                self.files[body.file.0].source.clone(),
                dialect_of(body.file),
            ) else {
                continue;
            };
            let walker = Walker::new(
                dialect,
                &index,
                &source,
                body,
                &calls,
                &options.server_fault_markers,
            );
            let facts = walker.walk();
            let (file, is_test, scope) = (body.file, body.is_test, body.scope);
            if !is_test {
                self.codes.extend(facts.codes);
                raw_sites.extend(facts.sites);
                raw_panics.extend(facts.panics);
            }
            edges.extend(facts.calls);
            for closure in facts.closures {
                let id = context::BodyId(bodies.len());
                let returns = dialect.closure_returns();
                bodies.push(context::closure_body(
                    id, file, closure, is_test, returns, scope,
                ));
            }
        }

        let reach = Reach::compute(&bodies, &edges);
        let body_of = |id: context::BodyId| -> &BodyInfo<'_> { &bodies[id.0] };
        let mut sites: Vec<ErrorSite> = raw_sites
            .into_iter()
            .map(|(mut site, arm)| {
                site.context = reach.context_of(body_of(site.body), arm.as_ref());
                site
            })
            .collect();
        // An arm of an error mapping (`From<AppError>`, `to_mcp(&self)`) is tool context only for
        // the variants tool code passes in.
        let mut variants: HashMap<context::BodyId, Option<Vec<(crate::resolve::ItemId, String)>>> =
            HashMap::new();
        for site in &mut sites {
            let (Some(tag), true) = (&site.variant, site.context.is_tool()) else {
                continue;
            };
            let passed = variants
                .entry(site.body)
                .or_insert_with(|| reach.tool_variants_into(site.body, &bodies, &edges));
            if let Some(passed) = passed {
                if !passed.is_empty() && !passed.iter().any(|(e, v)| tag.admits(*e, v)) {
                    site.context = SiteContext::Unreached;
                }
            }
        }
        // A finding at a helper names the tool calls that reach it.
        let mut callers: HashMap<context::BodyId, Vec<(FileId, Span)>> = HashMap::new();
        for site in &mut sites {
            if !matches!(
                site.context,
                SiteContext::Tool {
                    helper: Some(_),
                    ..
                }
            ) {
                continue;
            }
            let calls = callers
                .entry(site.body)
                .or_insert_with(|| reach.tool_calls_into(site.body, &bodies, &edges, 4));
            site.related.extend(
                calls
                    .iter()
                    .map(|(f, s)| (*f, *s, "called from tool code here".to_string())),
            );
        }
        let delegated = reach.delegated_sites(&bodies, &edges, &sites);
        sites.extend(delegated);
        // Hand-rolled servers: only what an MCP handler reaches is MCP.
        let handler_only =
            |file: FileId| dialect_of(file).is_some_and(|d| d.only_handler_code_counts());
        sites.retain(|s| !(handler_only(s.file) && s.context == SiteContext::Unreached));
        let codes = std::mem::take(&mut self.codes);
        self.codes = codes
            .into_iter()
            .filter(|c| {
                !handler_only(c.file)
                    || reach.context_of(body_of(c.body), None) != SiteContext::Unreached
            })
            .collect();
        self.panics = raw_panics
            .into_iter()
            .map(|(site, arm)| ContextPanic {
                context: reach.context_of(body_of(site.body), arm.as_ref()),
                site,
            })
            .collect();
        self.sites = sites;
        self.dialects = dialects;
        self.file_dialect = file_dialect;
    }

    /// The dialect a file speaks; `None` when the crate is not an MCP server we understand.
    /// Whether every fn of the crate named `name` (items, impls, traits, nested fns) is declared
    /// to return a `Result`, its future's output included; false when there is none.
    pub fn fns_return_result(&self, name: &str) -> bool {
        use syn::visit::Visit;
        struct Sigs(HashMap<String, Vec<bool>>);
        impl<'v> Visit<'v> for Sigs {
            fn visit_signature(&mut self, sig: &'v syn::Signature) {
                let result = match &sig.output {
                    syn::ReturnType::Type(_, ty) => {
                        crate::index::type_name(crate::index::unwrap_future(ty))
                            .is_some_and(|n| n == "Result")
                    }
                    syn::ReturnType::Default => false,
                };
                self.0
                    .entry(sig.ident.to_string())
                    .or_default()
                    .push(result);
            }
        }
        let all = self.fn_returns_result.get_or_init(|| {
            let mut sigs = Sigs(HashMap::new());
            for syntax in self.files.iter().filter_map(|f| f.syntax.as_ref()) {
                sigs.visit_file(syntax);
            }
            sigs.0
        });
        all.get(name).is_some_and(|r| r.iter().all(|r| *r))
    }

    pub fn dialect_of(&self, file: FileId) -> Option<&Dialect> {
        self.file_dialect
            .get(file.0)
            .copied()
            .flatten()
            .map(|i| &self.dialects[i])
    }

    /// Whether the crate uses an MCP SDK (or hand-rolls the protocol) at all.
    pub fn is_mcp(&self) -> bool {
        !self.dialects.is_empty()
    }

    /// One `parse_error` finding per file that could not be decoded or parsed.
    pub fn parse_failures(&self) -> Vec<(FileId, Diagnostic)> {
        let lint = &crate::lints::parse_error::LINT;
        self.files
            .iter()
            .enumerate()
            .filter_map(|(i, f)| {
                let failure = f.failure.as_ref()?;
                let span = match (&f.source, failure.at) {
                    (Some(src), Some((a, b))) => src.span(a, b),
                    _ => Span {
                        start_line: 1,
                        start_column: 1,
                        end_line: 1,
                        end_column: 1,
                        ..Span::default()
                    },
                };
                let d = Diagnostic::new(lint, span, failure.message.clone())
                    .with_note("mcp-lint skipped this file; every other file was still linted");
                Some((FileId(i), d))
            })
            .collect()
    }
}

fn parse_one(f: &crate::source::SourceInput) -> ModelFile {
    let (source, syntax, failure) = match parse::decode(&f.contents) {
        Err(e) => (None, None, Some(e)),
        Ok(text) => {
            let source = Arc::new(SourceFile::new(f.path.clone(), text));
            let result = parse::parse(&source);
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
        source,
        syntax,
        failure,
    }
}
