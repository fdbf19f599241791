//! mcp-lint's analysis: parse a crate (or the packages of a workspace that depend on each other
//! by path, as one program), build the MCP error-site model once, run every enabled lint over
//! it, apply suppressions. Pure: no file system, no printing.
//!
//! Data flows one way: [`parse`] → [`index`] and [`resolve`] → [`types`] → [`sdk`] →
//! [`model`] (bodies, walk, call graph, summaries, reach) → lints → [`suppress`]. [`syntax`]
//! holds the syn helpers every layer shares.

pub mod codes;
pub mod context;
pub mod diagnostic;
pub mod docs;
pub mod expand;
pub mod fix;
pub mod index;
pub mod layout;
pub mod lint;
pub mod lints;
pub mod macro_args;
pub mod model;
pub mod options;
pub mod parse;
pub mod program;
pub mod registry;
pub mod resolve;
pub mod sdk;
pub mod source;
pub mod suppress;
pub mod syntax;
pub mod text;
pub mod types;
pub mod unused_imports;

use std::sync::Arc;

pub use context::LintContext;
pub use diagnostic::{Applicability, Diagnostic, Edit, Fix, Related};
pub use lint::{Group, Level, Lint, LintLevels, Selector};
pub use model::{FileId, Model, ParsedFiles};
pub use options::{
    CrateInput, Dependency, LockedVersions, Manifest, Options, ProtocolVersion, TargetKind, Targets,
};
pub use parse::ANALYSIS_STACK;
pub use registry::UnknownSelector;
pub use source::{FileRole, SourceFile, SourceInput, Span};

/// The findings for one reported file, with the decoded text for rendering.
#[derive(Clone, Debug)]
pub struct FileReport {
    pub path: std::path::PathBuf,
    /// `None` when the file could not be decoded.
    pub source: Option<Arc<SourceFile>>,
    /// Sorted by position, then lint code.
    pub diagnostics: Vec<Diagnostic>,
}

/// Analyse one package. Every file marked `report` gets a [`FileReport`], in input order.
/// Never panics on any input: a panic inside the analysis becomes an `internal_error` finding.
/// Runs on a thread of its own with [`ANALYSIS_STACK`]; a caller whose threads already have
/// that stack (a worker pool built for it) calls [`analyze_on_current_thread`] instead.
pub fn analyze(input: &CrateInput, options: &Options) -> Vec<FileReport> {
    analyze_program(std::slice::from_ref(input), options)
}

/// Analyse packages as one program: their path dependencies on each other resolve into each
/// other ([`program::links`]), one call graph spans them, and each fn is summarised once. The
/// reports of every package's reported files, in input order. As [`analyze`] otherwise.
pub fn analyze_program(packages: &[CrateInput], options: &Options) -> Vec<FileReport> {
    let packages_owned = packages.to_vec();
    let options_owned = options.clone();
    let worker = std::thread::Builder::new()
        .name("mcp-lint-analysis".into())
        .stack_size(ANALYSIS_STACK)
        .spawn(move || analyze_program_on_current_thread(&packages_owned, &options_owned));
    match worker.map(|h| h.join()) {
        Ok(Ok(reports)) => reports,
        Ok(Err(panic)) => internal_error_reports(packages, &panic_message(&*panic)),
        Err(e) => internal_error_reports(
            packages,
            &format!("could not start the analysis thread: {e}"),
        ),
    }
}

/// [`analyze`] on the calling thread, which must have a stack of at least [`ANALYSIS_STACK`]
/// bytes. Spares a thread per crate (and the allocator churn of its start and exit).
pub fn analyze_on_current_thread(input: &CrateInput, options: &Options) -> Vec<FileReport> {
    analyze_program_on_current_thread(std::slice::from_ref(input), options)
}

/// [`analyze_program`] on the calling thread (see [`analyze_on_current_thread`]).
pub fn analyze_program_on_current_thread(
    packages: &[CrateInput],
    options: &Options,
) -> Vec<FileReport> {
    let reports = std::panic::catch_unwind(|| analyze_unguarded(packages, options))
        .unwrap_or_else(|panic| internal_error_reports(packages, &panic_message(&*panic)));
    // proc_macro2 keeps every parsed file's text in a per-thread table for its spans; nothing
    // of this crate's syntax is alive any more (reports carry byte offsets), so release it
    // before the thread takes the next crate.
    parse::release_thread_spans();
    reports
}

/// [`analyze_program_on_current_thread`] for a caller that analyses the same packages again
/// and again (the language server): files unchanged since the last call with the same `parsed`
/// are not parsed again. The findings are those of [`analyze_program`]. Call it on one thread:
/// trees kept on another thread, or before that thread's span table was released (an
/// [`analyze_on_current_thread`] there does it), are parsed again.
pub fn analyze_reusing(
    packages: &[CrateInput],
    options: &Options,
    parsed: &mut ParsedFiles,
) -> Vec<FileReport> {
    parsed.release_spans_if_due(false);
    let analysed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let model = Model::build_reusing(packages, options, parsed);
        let reports = lint_model(&model, options);
        model.keep_files(parsed);
        reports
    }));
    analysed.unwrap_or_else(|panic| {
        parsed.release_spans_if_due(true);
        internal_error_reports(packages, &panic_message(&*panic))
    })
}

/// The text a panic was raised with (`panic!("..")`), or "unknown panic".
pub fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string())
}

fn internal_error_reports(packages: &[CrateInput], message: &str) -> Vec<FileReport> {
    packages
        .iter()
        .flat_map(|input| &input.files)
        .filter(|f| f.report)
        .map(|f| {
            let source = parse::decode(&f.contents)
                .ok()
                .map(|text| Arc::new(SourceFile::new(f.path.clone(), text)));
            FileReport {
                path: f.path.clone(),
                source,
                diagnostics: vec![internal_error_diagnostic(message)],
            }
        })
        .collect()
}

/// The `internal_error` finding (at 1:1) for a file of a crate whose analysis failed.
pub fn internal_error_diagnostic(message: &str) -> Diagnostic {
    let span = Span {
        start_line: 1,
        start_column: 1,
        end_line: 1,
        end_column: 1,
        ..Span::default()
    };
    Diagnostic::new(
        &lints::internal_error::LINT,
        span,
        format!("mcp-lint failed while analysing this crate: {message}"),
    )
    .with_note("this is a bug in mcp-lint; the other crates were still analysed")
}

fn analyze_unguarded(packages: &[CrateInput], options: &Options) -> Vec<FileReport> {
    lint_model(&Model::build(packages, options), options)
}

/// Every enabled lint over the model, suppressions applied: the reports of its files.
fn lint_model(model: &Model, options: &Options) -> Vec<FileReport> {
    let mut found: Vec<(FileId, Diagnostic)> = lints::parse_error::findings(model);
    for (lint, check) in registry::checks() {
        if !options.levels.is_enabled(lint) {
            continue;
        }
        let mut cx = LintContext::new(model, options, lint);
        check(&mut cx);
        found.extend(cx.into_found());
    }
    let mut per_file: Vec<Vec<Diagnostic>> = vec![Vec::new(); model.files.len()];
    for (file, mut d) in found {
        d.level = options.levels.get(d.lint);
        per_file[file.0].push(d);
    }
    let mut reports = Vec::new();
    for (i, file) in model.files.iter().enumerate() {
        if !file.report {
            continue;
        }
        if file.unlinked {
            // Not compiled: no findings, as when a crate is left out unparsed.
            reports.push(FileReport {
                path: file.path.clone(),
                source: None,
                diagnostics: Vec::new(),
            });
            continue;
        }
        let mut diagnostics = std::mem::take(&mut per_file[i]);
        if let Some(source) = &file.source {
            diagnostics = suppress::apply(source, file.syntax.as_ref(), diagnostics, options);
        }
        diagnostics.retain(|d| d.level != Level::Allow);
        diagnostics.sort_by(|a, b| {
            (a.span.start, a.span.end, a.lint.code).cmp(&(b.span.start, b.span.end, b.lint.code))
        });
        diagnostics.dedup_by(|a, b| a.lint == b.lint && a.span == b.span);
        reports.push(FileReport {
            path: file.path.clone(),
            source: file.source.clone(),
            diagnostics,
        });
    }
    reports
}
