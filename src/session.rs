//! The one pipeline every front end runs: a [`Request`] (what to lint, with which options, and
//! any unsaved editor buffers) → configuration → discovery → read → engine → reports.
//!
//! The front ends (`check`, `--fix`, `baseline`, `cargo mcp-lint`, the language server and the
//! MCP server) only map their inputs to a `Request` and print what comes back. A session is
//! staged ([`Session::open`], [`Session::discover`], then [`Session::lint`] or
//! [`Session::read`]) so a front end can look at what was found before anything is read (the
//! MCP server's file limit) or fix what was read instead of linting it (`--fix`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use lints::{CrateInput, FileReport, Manifest, Options, SourceInput};
use rayon::prelude::*;

use crate::engine::{self, Analyzer, Settings};
use crate::workspace::cache::{self, Cache};
use crate::workspace::config::{self, Overrides};
use crate::workspace::discover::{
    self, CrateFiles, DiscoveredFile, Discovery, Exclude, PackageSeed,
};
use crate::workspace::kept::{DiscoveryKey, Kept};
use crate::workspace::manifest::Manifests;
use crate::workspace::paths;

/// What to lint and how.
#[derive(Clone, Debug, Default)]
pub struct Request {
    pub targets: Targets,
    /// `--config FILE` instead of searching for `mcp-lint.toml` / Cargo.toml metadata.
    pub config: Option<PathBuf>,
    /// What the caller sets over the configuration (levels, protocol, tests).
    pub overrides: Overrides,
    /// Apply the configuration's `exclude` to the named paths themselves too.
    pub force_exclude: bool,
    /// Skip what `.gitignore`, `.ignore` and git's global excludes leave out.
    pub respect_gitignore: bool,
    /// Worker threads; 0 means one per core.
    pub threads: usize,
    /// Read and write the result cache.
    pub cache: bool,
    /// Skip crates that cannot have a finding without parsing them.
    pub prefilter: bool,
    /// Editor buffers (absolute, normalised path → text) read instead of the file on disk. A
    /// buffer is reported when a target names its file, or when it has no file yet (it then
    /// joins the package it lies in).
    pub unsaved: BTreeMap<PathBuf, String>,
    /// Files found under the targets that are read for context but not reported (the MCP
    /// call's `exclude`).
    pub unreported: Option<Exclude>,
    /// Report paths as read (absolute) instead of relative to the current directory.
    pub absolute_paths: bool,
}

impl Request {
    /// A request for `paths` with the defaults of `mcp-lint check`.
    pub fn paths(paths: Vec<PathBuf>) -> Request {
        Request {
            targets: Targets::Paths(paths),
            respect_gitignore: true,
            cache: true,
            prefilter: true,
            ..Request::default()
        }
    }
}

/// What a request lints.
#[derive(Clone, Debug)]
pub enum Targets {
    /// Files and directories (relative ones from the current directory): every file under them
    /// is reported; the rest of their crates is read for context.
    Paths(Vec<PathBuf>),
    /// Whole cargo packages (`cargo mcp-lint`), every file reported, with the facts cargo
    /// gave about each. The configuration is looked for from their roots.
    Packages(Vec<Package>),
}

impl Default for Targets {
    fn default() -> Self {
        Targets::Paths(Vec::new())
    }
}

/// A cargo package to lint whole.
#[derive(Clone, Debug)]
pub struct Package {
    pub seed: PackageSeed,
    pub manifest: Manifest,
}

/// What a session found and linted.
#[derive(Debug, Default)]
pub struct Linted {
    /// Sorted by path.
    pub reports: Vec<FileReport>,
    /// mcp-lint's own problems (unreadable files, broken Cargo.toml files, missing paths),
    /// sorted, once each. The rest was still linted.
    pub problems: Vec<String>,
    /// What was walked around without losing a file (a symlink loop), sorted, once each: a
    /// warning, not a failure.
    pub warnings: Vec<String>,
    /// Files that were to be reported.
    pub reported_files: usize,
}

/// One run of the pipeline: configuration loaded, options merged, workers started.
pub struct Session {
    request: Request,
    cwd: PathBuf,
    manifests: Manifests,
    options: Options,
    exclude: Exclude,
    pool: rayon::ThreadPool,
    problems: Vec<String>,
    warnings: Vec<String>,
    /// Cargo's facts about each package, for [`Targets::Packages`].
    package_facts: BTreeMap<PathBuf, Manifest>,
    /// When the session began looking at the file system (before the configuration).
    opened: std::time::SystemTime,
}

impl Session {
    /// Load the configuration for the request and merge it with the overrides. `Err` is a bad
    /// configuration (or threads that cannot start): nothing can be linted then.
    pub fn open(request: Request, cwd: &Path) -> Result<Session, String> {
        let opened = std::time::SystemTime::now();
        let mut manifests = Manifests::new(cwd);
        let mut starts: Vec<PathBuf> = match &request.targets {
            Targets::Paths(paths) => paths.clone(),
            Targets::Packages(packages) => packages.iter().map(|p| p.seed.root.clone()).collect(),
        };
        starts.extend(request.unsaved.keys().cloned());
        let config = config::load(request.config.as_deref(), cwd, &starts, &mut manifests)?;
        let options = config::options(config.as_ref(), &request.overrides)?;
        let exclude = config::exclude(config.as_ref(), cwd)?;
        let pool = thread_pool(request.threads)?;
        let package_facts = match &request.targets {
            Targets::Paths(_) => BTreeMap::new(),
            Targets::Packages(packages) => packages
                .iter()
                .map(|p| (p.seed.root.clone(), p.manifest.clone()))
                .collect(),
        };
        Ok(Session {
            request,
            cwd: cwd.to_path_buf(),
            manifests,
            options,
            exclude,
            pool,
            problems: Vec::new(),
            warnings: Vec::new(),
            package_facts,
            opened,
        })
    }

    /// The analysis options: defaults, then the configuration, then the overrides.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Find the crates and files of the request (walked in parallel; the result does not
    /// depend on the number of threads). Paths that cannot be walked become problems.
    pub fn discover(&mut self) -> Discovery {
        let request = &self.request;
        let gitignore = request.respect_gitignore;
        let (cwd, exclude, manifests) = (&self.cwd, &self.exclude, &mut self.manifests);
        let mut discovery = self.pool.install(|| match &request.targets {
            Targets::Paths(paths) => {
                let force = request.force_exclude;
                discover::discover(paths, cwd, exclude, force, gitignore, manifests)
            }
            Targets::Packages(packages) => {
                let seeds: Vec<PackageSeed> = packages.iter().map(|p| p.seed.clone()).collect();
                discover::discover_packages(&seeds, cwd, exclude, gitignore, manifests)
            }
        });
        self.problems.append(&mut discovery.errors);
        self.warnings.append(&mut discovery.warnings);
        self.add_unsaved(&mut discovery);
        self.add_path_dependencies(&mut discovery);
        if let Some(unreported) = &self.request.unreported {
            for file in discovery.crates.iter_mut().flat_map(|c| c.files.iter_mut()) {
                if file.report && unreported.matches(&file.path) {
                    file.report = false;
                }
            }
        }
        if self.request.absolute_paths {
            for file in discovery.crates.iter_mut().flat_map(|c| c.files.iter_mut()) {
                file.display = file.path.clone();
            }
        }
        discovery
    }

    /// Unsaved buffers with no file on disk yet: each joins its package (found with the rest of
    /// the package as context when no target reached it), or is a crate of its own.
    fn add_unsaved(&mut self, discovery: &mut Discovery) {
        let new: Vec<PathBuf> = self
            .request
            .unsaved
            .keys()
            .filter(|p| std::fs::symlink_metadata(p).is_err())
            .filter(|p| !p.ancestors().any(|a| self.exclude.matches(a)))
            .cloned()
            .collect();
        for path in new {
            let file = |role| DiscoveredFile {
                display: paths::relative_to(&path, &self.cwd),
                path: path.clone(),
                role,
                report: true,
                // An editor's document.
                named: true,
                stamp: None,
            };
            let Some((root, role)) = discover::member_of(&path, &mut self.manifests) else {
                discovery.crates.push(CrateFiles {
                    package_root: None,
                    files: vec![file(discover::role_from_components(&path))],
                });
                continue;
            };
            if let Some(existing) = discovery
                .crates
                .iter_mut()
                .find(|c| c.package_root.as_deref() == Some(&root))
            {
                existing.files.push(file(role));
                continue;
            }
            let seed = PackageSeed {
                root: root.clone(),
                extra_files: Vec::new(),
            };
            let gitignore = self.request.respect_gitignore;
            let (cwd, exclude, manifests) = (&self.cwd, &self.exclude, &mut self.manifests);
            let mut context = self.pool.install(|| {
                discover::discover_packages(&[seed], cwd, exclude, gitignore, manifests)
            });
            self.problems.append(&mut context.errors);
            self.warnings.append(&mut context.warnings);
            discovery.watched.append(&mut context.watched);
            let mut files: Vec<DiscoveredFile> = context
                .crates
                .into_iter()
                .flat_map(|c| c.files)
                .map(|f| DiscoveredFile { report: false, ..f })
                .collect();
            files.push(file(role));
            discovery.crates.push(CrateFiles {
                package_root: Some(root),
                files,
            });
        }
    }

    /// The packages of the same workspace that the discovered ones depend on by path, or that
    /// depend on them by path, transitively (cargo makes every path dependency inside the
    /// workspace a member): read as context, not reported, so the calls between them resolve
    /// and a helper's finding caused by another member's tool is found when the helper is
    /// linted alone. A path dependency outside the workspace is linked only when a target
    /// reached it; a cycle ends at the packages known.
    fn add_path_dependencies(&mut self, discovery: &mut Discovery) {
        let mut known: BTreeSet<PathBuf> = discovery
            .crates
            .iter()
            .filter_map(|c| c.package_root.clone())
            .collect();
        let mut pending: Vec<PathBuf> = known.iter().rev().cloned().collect();
        let mut seeds = Vec::new();
        // Per workspace: each member and the packages it depends on by path.
        let mut members: BTreeMap<PathBuf, Vec<(PathBuf, Vec<PathBuf>)>> = BTreeMap::new();
        while let Some(root) = pending.pop() {
            let Some(workspace) = self.manifests.workspace_root(&root).map(|(dir, _)| dir) else {
                continue;
            };
            if !members.contains_key(&workspace) {
                let listed = self.manifests.workspace_members(&workspace);
                let with_deps = listed
                    .into_iter()
                    .map(|m| {
                        let deps = self.path_dependencies(&m);
                        (m, deps)
                    })
                    .collect();
                members.insert(workspace.clone(), with_deps);
            }
            let dependents = members[&workspace]
                .iter()
                .filter(|(_, deps)| deps.contains(&root))
                .map(|(m, _)| m.clone());
            let linked: Vec<PathBuf> = self
                .path_dependencies(&root)
                .into_iter()
                .chain(dependents)
                .collect();
            for path in linked {
                if known.contains(&path)
                    || self.exclude.matches(&path)
                    || !self.manifests.get(&path).is_some_and(|m| m.is_package())
                    || self
                        .manifests
                        .workspace_root(&path)
                        .map(|(dir, _)| dir)
                        .as_ref()
                        != Some(&workspace)
                {
                    continue;
                }
                known.insert(path.clone());
                pending.push(path.clone());
                seeds.push(PackageSeed {
                    root: path,
                    extra_files: Vec::new(),
                });
            }
        }
        if seeds.is_empty() {
            return;
        }
        let gitignore = self.request.respect_gitignore;
        let (cwd, exclude, manifests) = (&self.cwd, &self.exclude, &mut self.manifests);
        let mut context = self
            .pool
            .install(|| discover::discover_packages(&seeds, cwd, exclude, gitignore, manifests));
        self.problems.append(&mut context.errors);
        self.warnings.append(&mut context.warnings);
        discovery.watched.append(&mut context.watched);
        for mut krate in context.crates {
            for file in &mut krate.files {
                file.report = false;
            }
            discovery.crates.push(krate);
        }
    }

    /// The directories of the packages `root` depends on by path.
    fn path_dependencies(&mut self, root: &Path) -> Vec<PathBuf> {
        let facts = match self.package_facts.get(root) {
            Some(facts) => Some(facts.clone()),
            None => self.manifests.facts(root),
        };
        facts
            .into_iter()
            .flat_map(|f| f.dependencies)
            .filter_map(|d| d.path)
            .collect()
    }

    /// The manifest facts of each crate of `discovery`, in order.
    fn facts(&mut self, discovery: &Discovery) -> Vec<Option<Manifest>> {
        discovery
            .crates
            .iter()
            .map(|c| {
                let root = c.package_root.as_deref()?;
                match self.package_facts.get(root) {
                    Some(facts) => Some(facts.clone()),
                    None => self.manifests.facts(root),
                }
            })
            .collect()
    }

    /// Lint what was discovered: read, prefilter, consult the cache, analyse.
    pub fn lint(self, discovery: Discovery) -> Linted {
        self.lint_with(discovery, &lints::analyze_program_on_current_thread)
    }

    /// [`Session::lint`] with the per-crate analysis passed in (tests of the panic path).
    pub fn lint_with(self, discovery: Discovery, analyze: Analyzer<'_>) -> Linted {
        self.lint_reading(discovery, analyze, None)
    }

    /// Discover and lint as [`Session::discover`] and [`Session::lint_with`] do, re-using the
    /// discovery and the file contents `kept` holds from the last call where nothing they
    /// depend on changed (see [`crate::workspace::kept`]), and keeping this call's for the
    /// next: the language server's analysis of one crate after another edit.
    pub fn lint_kept(mut self, kept: &mut Kept, analyze: Analyzer<'_>) -> Linted {
        kept.begin(self.opened);
        let key = self.discovery_key();
        let discovery = match key.as_ref().and_then(|key| kept.reuse_discovery(key)) {
            Some(discovery) => discovery,
            None => {
                let discovery = self.discover();
                let clean = self.problems.is_empty()
                    && self.warnings.is_empty()
                    && !self.manifests.has_errors();
                if let Some(key) = key.filter(|_| clean) {
                    kept.keep_discovery(key, &discovery, &self.manifests);
                }
                discovery
            }
        };
        let linted = self.lint_reading(discovery, analyze, Some(kept));
        kept.end();
        linted
    }

    /// What [`Session::discover`]'s result depends on besides the file system; `None` when
    /// it is not kept (cargo's packages, calls with their own unreported files).
    fn discovery_key(&self) -> Option<DiscoveryKey> {
        let request = &self.request;
        let (Targets::Paths(targets), None) = (&request.targets, &request.unreported) else {
            return None;
        };
        Some(DiscoveryKey {
            cwd: self.cwd.clone(),
            targets: targets.clone(),
            unsaved: request.unsaved.keys().cloned().collect(),
            exclude: self.exclude.clone(),
            force_exclude: request.force_exclude,
            gitignore: request.respect_gitignore,
            absolute_paths: request.absolute_paths,
        })
    }

    /// Lint `discovery`, the files read through `kept` when given (the buffers replace files).
    fn lint_reading(
        mut self,
        discovery: Discovery,
        analyze: Analyzer<'_>,
        kept: Option<&mut Kept>,
    ) -> Linted {
        let reported_files = discovery.reported_files();
        let facts = self.facts(&discovery);
        let (reports, mut problems) = if self.request.unsaved.is_empty() {
            let settings = Settings {
                prefilter: self.request.prefilter,
                // A separate reader: a broken Cargo.toml above `cwd` is not this run's problem.
                cache: self.request.cache.then(|| {
                    Cache::open(&cache::location(&self.cwd, &mut Manifests::new(&self.cwd)))
                }),
            };
            let options = &self.options;
            let outcome = self
                .pool
                .install(|| engine::lint(&discovery.crates, &facts, options, &settings, analyze));
            (outcome.reports, outcome.problems)
        } else {
            // Buffers replace files: read everything, analyse every crate, cache nothing.
            let mut problems = Vec::new();
            let inputs = self.read_crates(&discovery, facts, &mut problems, kept);
            (self.analyze_with(inputs, analyze), problems)
        };
        problems.append(&mut self.problems);
        problems.extend(self.manifests.take_errors());
        self.finish(reports, problems, reported_files)
    }

    /// Read every file of every crate that has a file to report (for `--fix`, which rewrites
    /// them), the unsaved buffers in place of their files. Unreadable files become problems
    /// (see [`Session::take_problems`]) and are left out.
    pub fn read(&mut self, discovery: &Discovery) -> Vec<CrateInput> {
        let facts = self.facts(discovery);
        let mut problems = Vec::new();
        let inputs = self.read_crates(discovery, facts, &mut problems, None);
        self.problems.append(&mut problems);
        inputs
    }

    fn read_crates(
        &self,
        discovery: &Discovery,
        facts: Vec<Option<Manifest>>,
        problems: &mut Vec<String>,
        mut kept: Option<&mut Kept>,
    ) -> Vec<CrateInput> {
        // A crate without a file to report is read when it is part of a program that has one.
        let mut wanted = vec![false; discovery.crates.len()];
        for program in engine::programs(&discovery.crates, &facts) {
            let reported = program
                .iter()
                .any(|&i| discovery.crates[i].files.iter().any(|f| f.report));
            for i in program {
                wanted[i] = reported;
            }
        }
        discovery
            .crates
            .iter()
            .zip(facts)
            .zip(wanted)
            .filter(|(_, wanted)| *wanted)
            .map(|((c, manifest), _)| self.read_crate(c, manifest, problems, kept.as_deref_mut()))
            .collect()
    }

    /// Read a crate's files (through `kept` when given); unreadable ones become problems and
    /// are left out.
    fn read_crate(
        &self,
        files: &CrateFiles,
        manifest: Option<Manifest>,
        problems: &mut Vec<String>,
        mut kept: Option<&mut Kept>,
    ) -> CrateInput {
        let mut inputs = Vec::with_capacity(files.files.len());
        for f in &files.files {
            let read = match (self.request.unsaved.get(&f.path), kept.as_deref_mut()) {
                (Some(text), _) => Ok(text.as_bytes().to_vec()),
                (None, Some(kept)) => kept.read(&f.path, f.stamp),
                (None, None) => crate::read::read_source(&f.path),
            };
            let contents = match read {
                Ok(bytes) => bytes,
                Err(e) => {
                    problems.push(format!("could not read {}: {e}", f.display.display()));
                    continue;
                }
            };
            inputs.push(SourceInput {
                path: f.display.clone(),
                contents,
                role: f.role,
                report: f.report,
                named: f.named,
                package_path: engine::package_path(files, f),
            });
        }
        CrateInput {
            root: files.package_root.clone(),
            manifest,
            files: inputs,
        }
    }

    /// Analyse crates given as text (read by [`Session::read`], or built by the caller) with
    /// the session's options, in parallel, the packages that depend on each other by path as
    /// one program; the reports in program order.
    pub fn analyze(&self, inputs: &[CrateInput]) -> Vec<FileReport> {
        self.analyze_with(inputs.to_vec(), &lints::analyze_program_on_current_thread)
    }

    fn analyze_with(&self, inputs: Vec<CrateInput>, analyze: Analyzer<'_>) -> Vec<FileReport> {
        let options = &self.options;
        let refs: Vec<lints::program::PackageRef<'_>> = inputs
            .iter()
            .map(|i| (i.root.as_deref(), i.manifest.as_ref()))
            .collect();
        let groups = lints::program::groups(&refs);
        let mut slots: Vec<Option<CrateInput>> = inputs.into_iter().map(Some).collect();
        let programs: Vec<Vec<CrateInput>> = groups
            .iter()
            .map(|g| g.iter().filter_map(|&i| slots[i].take()).collect())
            .collect();
        self.pool.install(|| {
            let per_program: Vec<Vec<FileReport>> = programs
                .par_iter()
                .map(|program| analyze(program, options))
                .collect();
            per_program.into_iter().flatten().collect()
        })
    }

    /// mcp-lint's own problems met so far (walking, reading, manifests), sorted, once each.
    pub fn take_problems(&mut self) -> Vec<String> {
        let mut problems = std::mem::take(&mut self.problems);
        problems.extend(self.manifests.take_errors());
        sorted(problems)
    }

    /// The warnings met so far (see [`Linted::warnings`]).
    pub fn take_warnings(&mut self) -> Vec<String> {
        sorted(std::mem::take(&mut self.warnings))
    }

    fn finish(
        &mut self,
        mut reports: Vec<FileReport>,
        problems: Vec<String>,
        reported_files: usize,
    ) -> Linted {
        reports.sort_by(|a, b| a.path.cmp(&b.path));
        Linted {
            reports,
            problems: sorted(problems),
            warnings: self.take_warnings(),
            reported_files,
        }
    }
}

fn sorted(mut problems: Vec<String>) -> Vec<String> {
    problems.sort();
    problems.dedup();
    problems
}

/// The worker pool per `threads` (0: one thread per core), with the stack the analysis needs
/// (reserved address space; only what is used is backed by memory), so crates are analysed
/// with `lints::analyze_on_current_thread`.
fn thread_pool(threads: usize) -> Result<rayon::ThreadPool, String> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(lints::ANALYSIS_STACK)
        .thread_name(|i| format!("mcp-lint-{i}"))
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))
}

/// Lint `request` from `cwd` in one go: [`Session::open`], [`Session::discover`],
/// [`Session::lint`].
pub fn lint(request: Request, cwd: &Path) -> Result<Linted, String> {
    let mut session = Session::open(request, cwd)?;
    let discovery = session.discover();
    Ok(session.lint(discovery))
}
