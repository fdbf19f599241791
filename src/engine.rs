//! Linting the discovered crates in parallel: read, prefilter, consult the cache, analyse.
//!
//! Packages that depend on each other by path are one program ([`lints::program::groups`]):
//! read, cached and analysed together, so a tool in one reaching a helper in another is one
//! call graph, and a package shared by several is analysed once. Each program is one rayon
//! task; the results are collected in discovery order, so the output does not depend on the
//! number of threads. A panic anywhere in a program's task (reading, caching, or an analysis
//! that escaped the analyzer's own guard) becomes an `internal_error` finding on its files;
//! the other programs' findings are kept.
//!
//! Memory stays bounded by a few crates at a time: files of a crate the prefilter skips are
//! dropped as soon as they are scanned, and a report keeps its file's text only when it has
//! findings to show.

use std::borrow::Cow;
use std::collections::HashMap;
use std::panic::AssertUnwindSafe;
use std::path::Path;
use std::sync::Arc;

use lints::{CrateInput, FileReport, Manifest, Options, SourceFile, SourceInput};
use rayon::prelude::*;

use crate::workspace::cache::{Cache, CachedReport, FileStamp, Key, KeyBuilder, Verdict};
use crate::workspace::discover::{CrateFiles, DiscoveredFile};
use crate::workspace::prefilter::{self, FileMarks};

/// The analysis to run on one program (its packages): `lints::analyze_program_on_current_thread`
/// (the pool's threads have its stack), except in tests of the panic path.
pub type Analyzer<'a> = &'a (dyn Fn(&[CrateInput], &Options) -> Vec<FileReport> + Sync);

/// How to run.
pub struct Settings {
    /// Skip crates that cannot have a finding without parsing them.
    pub prefilter: bool,
    pub cache: Option<Cache>,
}

/// Every crate's reports, in crate order, and the problems met (unreadable files).
#[derive(Default)]
pub struct Outcome {
    pub reports: Vec<FileReport>,
    pub problems: Vec<String>,
}

/// Lint every crate; `manifests[i]` holds the facts of `crates[i]`.
pub fn lint(
    crates: &[CrateFiles],
    manifests: &[Option<Manifest>],
    options: &Options,
    settings: &Settings,
    analyze: Analyzer<'_>,
) -> Outcome {
    let options_text = format!("{options:?}");
    let per_program: Vec<Outcome> = programs(crates, manifests)
        .par_iter()
        .map(|members| {
            let job = CrateJob {
                members: members
                    .iter()
                    .map(|&i| (&crates[i], manifests[i].as_ref()))
                    .collect(),
                options,
                options_text: &options_text,
                settings,
                analyze,
            };
            match std::panic::catch_unwind(AssertUnwindSafe(|| job.run())) {
                Ok(outcome) => outcome,
                Err(panic) => Outcome {
                    reports: members
                        .iter()
                        .flat_map(|&i| {
                            internal_error_reports(&crates[i], &lints::panic_message(&*panic))
                        })
                        .collect(),
                    problems: Vec::new(),
                },
            }
        })
        .collect();
    let mut all = Outcome::default();
    for o in per_program {
        all.reports.extend(o.reports);
        all.problems.extend(o.problems);
    }
    all
}

/// The programs among `crates` (`manifests[i]` holds the facts of `crates[i]`): groups of
/// packages linked by path dependencies, by index, in discovery order.
pub fn programs(crates: &[CrateFiles], manifests: &[Option<Manifest>]) -> Vec<Vec<usize>> {
    let packages: Vec<lints::program::PackageRef<'_>> = crates
        .iter()
        .zip(manifests)
        .map(|(c, m)| (c.package_root.as_deref(), m.as_ref()))
        .collect();
    lints::program::groups(&packages)
}

/// One program's packages, linted together.
struct CrateJob<'a> {
    members: Vec<(&'a CrateFiles, Option<&'a Manifest>)>,
    options: &'a Options,
    options_text: &'a str,
    settings: &'a Settings,
    analyze: Analyzer<'a>,
}

/// One file's bytes after the read phase.
struct Read {
    /// `None` when dropped after scanning (a crate the prefilter may skip) or unreadable.
    bytes: Option<Vec<u8>>,
    readable: bool,
    error: Option<crate::read::ReadError>,
    marks: FileMarks,
}

impl CrateJob<'_> {
    /// Every file of every package of the program, package by package.
    fn files(&self) -> impl Iterator<Item = &DiscoveredFile> + '_ {
        self.members.iter().flat_map(|(c, _)| &c.files)
    }

    fn run(&self) -> Outcome {
        let cache = self.settings.cache.as_ref();
        let identity = cache.map(|_| self.identity());
        let stamps: Vec<Option<FileStamp>> = match cache {
            Some(_) => self.files().map(|f| f.stamp).collect(),
            None => Vec::new(),
        };
        if let (Some(cache), Some(identity)) = (cache, &identity) {
            if let Some(outcome) = self.replay_stamps(cache, identity, &stamps) {
                return outcome;
            }
        }

        // The verdict for these stamps, recorded only when every file could be read.
        let remember = |verdict: Verdict, problems: &[String]| {
            if let (Some(cache), Some(identity), true) = (cache, &identity, problems.is_empty()) {
                cache.store_stamps(identity, &stamps, verdict);
            }
        };

        let mut problems = Vec::new();
        let keep_all = !self.prefilters()
            || self
                .members
                .iter()
                .any(|(_, m)| prefilter::crate_may_matter(*m, &[]));
        let files: Vec<&DiscoveredFile> = self.files().collect();
        let mut reads: Vec<Read> = files.par_iter().map(|f| read(f, keep_all)).collect();
        for (f, r) in files.iter().zip(reads.iter_mut()) {
            if let Some(e) = r.error.take() {
                problems.push(format!("could not read {}: {e}", f.display.display()));
            }
        }
        let readable_reported = files
            .iter()
            .zip(&reads)
            .any(|(f, r)| f.report && r.readable);
        if !readable_reported {
            return Outcome {
                reports: Vec::new(),
                problems,
            };
        }
        let analysed = self.analysed(&reads);
        if !analysed.iter().any(|a| *a) {
            remember(Verdict::Skipped, &problems);
            return Outcome {
                reports: self.empty_reports(&reads),
                problems,
            };
        }
        let file_analysed: Vec<bool> = self
            .members
            .iter()
            .zip(&analysed)
            .flat_map(|((c, _), a)| std::iter::repeat_n(*a, c.files.len()))
            .collect();
        // A marker was found late: read what the scan dropped.
        for ((f, r), _) in files
            .iter()
            .zip(reads.iter_mut())
            .zip(&file_analysed)
            .filter(|(_, a)| **a)
        {
            if r.readable && r.bytes.is_none() {
                match crate::read::read_source(&f.path) {
                    Ok(bytes) => r.bytes = Some(bytes),
                    Err(e) => {
                        r.readable = false;
                        problems.push(format!("could not read {}: {e}", f.display.display()));
                    }
                }
            }
        }
        // Packages left out: their reported files have no findings.
        let left_out: Vec<FileReport> = files
            .iter()
            .zip(&reads)
            .zip(&file_analysed)
            .filter(|((f, r), a)| !**a && f.report && r.readable)
            .map(|((f, _), _)| empty_report(f))
            .collect();
        let inputs: Vec<CrateInput> = self
            .inputs(reads)
            .into_iter()
            .zip(&analysed)
            .filter_map(|(input, a)| a.then_some(input))
            .collect();
        let key = cache.map(|_| self.content_key(&inputs, &left_out));
        if let (Some(cache), Some(key)) = (cache, &key) {
            let hit = cache.load_reports(key).and_then(|cached| {
                let by_path: HashMap<&Path, &SourceInput> = inputs
                    .iter()
                    .flat_map(|i| &i.files)
                    .map(|f| (f.path.as_path(), f))
                    .collect();
                revive(cached, |path| {
                    Some(Cow::Borrowed(&by_path.get(path)?.contents))
                })
            });
            if let Some(reports) = hit {
                remember(Verdict::Analysed(key.clone()), &problems);
                return Outcome { reports, problems };
            }
        }
        let mut reports = (self.analyze)(&inputs, self.options);
        reports.extend(left_out);
        let failed = reports
            .iter()
            .flat_map(|r| &r.diagnostics)
            .any(lints::Diagnostic::is_internal_error);
        if let (Some(cache), Some(key), false) = (cache, &key, failed) {
            cache.store_reports(key, &reports);
            remember(Verdict::Analysed(key.clone()), &problems);
        }
        Outcome {
            reports: reports.into_iter().map(slim).collect(),
            problems,
        }
    }

    /// The prefilter applies to packages. A file outside any package (a fixture, a snippet
    /// named on the command line) is always analysed, whatever it contains.
    fn prefilters(&self) -> bool {
        self.settings.prefilter && self.members.iter().all(|(c, _)| c.package_root.is_some())
    }

    /// The outcome recorded for unchanged files, without reading them (except the text of
    /// files that have findings to show).
    fn replay_stamps(
        &self,
        cache: &Cache,
        identity: &Key,
        stamps: &[Option<FileStamp>],
    ) -> Option<Outcome> {
        match cache.check_stamps(identity, stamps)? {
            Verdict::Skipped => Some(Outcome {
                reports: self
                    .files()
                    .filter(|f| f.report)
                    .map(empty_report)
                    .collect(),
                problems: Vec::new(),
            }),
            Verdict::Analysed(key) => {
                let by_display: HashMap<&Path, &DiscoveredFile> =
                    self.files().map(|f| (f.display.as_path(), f)).collect();
                let reports = revive(cache.load_reports(&key)?, |path| {
                    let file = by_display.get(path)?;
                    crate::read::read_source(&file.path).ok().map(Cow::Owned)
                })?;
                Some(Outcome {
                    reports,
                    problems: Vec::new(),
                })
            }
        }
    }

    /// Everything that decides the analysis except the files' contents.
    fn identity(&self) -> Key {
        let mut k = KeyBuilder::new("crate identity");
        k.field(self.options_text.as_bytes())
            .field(&[u8::from(self.settings.prefilter)]);
        for (files, manifest) in &self.members {
            k.field(format!("{manifest:?}").as_bytes())
                .field(format!("{:?}", files.package_root).as_bytes());
            for f in &files.files {
                k.field(f.path.as_os_str().as_encoded_bytes())
                    .field(f.display.as_os_str().as_encoded_bytes())
                    .field(&[
                        u8::from(f.report),
                        u8::from(f.named),
                        u8::from(f.role == lints::FileRole::Test),
                    ]);
            }
        }
        k.finish()
    }

    /// Which packages to analyse: those that may hold an MCP server (all, without the
    /// prefilter) and what they depend on by path. Another package of the program cannot reach
    /// a tool; it is not parsed.
    fn analysed(&self, reads: &[Read]) -> Vec<bool> {
        if !self.prefilters() {
            return vec![true; self.members.len()];
        }
        let mut at = 0;
        let mut analysed: Vec<bool> = self
            .members
            .iter()
            .map(|(c, m)| {
                let marks: Vec<FileMarks> = reads[at..at + c.files.len()]
                    .iter()
                    .map(|r| r.marks)
                    .collect();
                at += c.files.len();
                prefilter::crate_may_matter(*m, &marks)
            })
            .collect();
        let refs: Vec<lints::program::PackageRef<'_>> = self
            .members
            .iter()
            .map(|(c, m)| (c.package_root.as_deref(), *m))
            .collect();
        let links = lints::program::links(&refs);
        let mut pending: Vec<usize> = (0..analysed.len()).filter(|&i| analysed[i]).collect();
        while let Some(i) = pending.pop() {
            for &(_, dep) in &links[i] {
                if !analysed[dep] {
                    analysed[dep] = true;
                    pending.push(dep);
                }
            }
        }
        analysed
    }

    /// Options, manifest facts and every analysed file's path, role, flag and contents, and the
    /// reported files of the packages left out.
    fn content_key(&self, inputs: &[CrateInput], left_out: &[FileReport]) -> Key {
        let mut k = KeyBuilder::new("crate contents");
        k.field(self.options_text.as_bytes());
        for r in left_out {
            k.field(r.path.as_os_str().as_encoded_bytes());
        }
        for input in inputs {
            k.field(format!("{:?}", input.manifest).as_bytes())
                .field(format!("{:?}", input.root).as_bytes());
            for f in &input.files {
                let package_path = f.package_path.as_deref().unwrap_or(Path::new(""));
                k.field(f.path.as_os_str().as_encoded_bytes())
                    .field(package_path.as_os_str().as_encoded_bytes())
                    .field(&[
                        u8::from(f.report),
                        u8::from(f.named),
                        u8::from(f.role == lints::FileRole::Test),
                    ])
                    .field(blake3::hash(&f.contents).as_bytes());
            }
        }
        k.finish()
    }

    /// Each package's readable files.
    fn inputs(&self, reads: Vec<Read>) -> Vec<CrateInput> {
        let mut reads = reads.into_iter();
        self.members
            .iter()
            .map(|(files, manifest)| {
                let files_read = files
                    .files
                    .iter()
                    .zip(reads.by_ref())
                    .filter_map(|(f, r)| {
                        Some(SourceInput {
                            path: f.display.clone(),
                            contents: r.bytes?,
                            role: f.role,
                            report: f.report,
                            named: f.named,
                            package_path: package_path(files, f),
                        })
                    })
                    .collect();
                CrateInput {
                    root: files.package_root.clone(),
                    manifest: manifest.cloned(),
                    files: files_read,
                }
            })
            .collect()
    }

    fn empty_reports(&self, reads: &[Read]) -> Vec<FileReport> {
        self.files()
            .zip(reads)
            .filter(|(f, r)| f.report && r.readable)
            .map(|(f, _)| empty_report(f))
            .collect()
    }
}

/// A file's path relative to its package root (the shown path may be relative to another
/// directory).
pub fn package_path(files: &CrateFiles, f: &DiscoveredFile) -> Option<std::path::PathBuf> {
    let root = files.package_root.as_deref()?;
    f.path.strip_prefix(root).ok().map(Path::to_path_buf)
}

fn read(f: &DiscoveredFile, keep: bool) -> Read {
    match crate::read::read_source(&f.path) {
        Ok(bytes) => {
            let marks = if keep {
                FileMarks::default()
            } else {
                prefilter::scan(&bytes)
            };
            let keep = keep || marks.any();
            Read {
                bytes: keep.then_some(bytes),
                readable: true,
                error: None,
                marks,
            }
        }
        Err(e) => Read {
            bytes: None,
            readable: false,
            error: Some(e),
            marks: FileMarks::default(),
        },
    }
}

fn empty_report(f: &DiscoveredFile) -> FileReport {
    FileReport {
        path: f.display.clone(),
        source: None,
        diagnostics: Vec::new(),
    }
}

/// Cached reports made whole: a report with findings gets its file's text back, from
/// `bytes_of(display path)` (a map lookup: a crate of 10k files has as many reports). `None`
/// when some file's bytes cannot be had (analyse again).
fn revive<'b>(
    cached: Vec<CachedReport>,
    bytes_of: impl Fn(&Path) -> Option<Cow<'b, [u8]>>,
) -> Option<Vec<FileReport>> {
    cached
        .into_iter()
        .map(|c| {
            let source = if c.diagnostics.is_empty() {
                None
            } else {
                decode(&c.path, &bytes_of(&c.path)?)
            };
            c.into_report(source)
        })
        .collect()
}

fn decode(path: &Path, bytes: &[u8]) -> Option<Arc<SourceFile>> {
    let text = lints::parse::decode(bytes).ok()?;
    Some(Arc::new(SourceFile::new(path.to_path_buf(), text)))
}

/// A report keeps its text only when a finding will be shown with it.
fn slim(mut report: FileReport) -> FileReport {
    if report.diagnostics.is_empty() {
        report.source = None;
    }
    report
}

/// One `internal_error` finding at 1:1 of every reported file of a crate whose task panicked.
fn internal_error_reports(files: &CrateFiles, message: &str) -> Vec<FileReport> {
    files
        .files
        .iter()
        .filter(|f| f.report)
        .map(|f| {
            let d = lints::internal_error_diagnostic(message);
            FileReport {
                path: f.display.clone(),
                source: crate::read::read_source(&f.path)
                    .ok()
                    .and_then(|b| decode(&f.display, &b)),
                diagnostics: vec![d],
            }
        })
        .collect()
}
