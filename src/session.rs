//! `mcp-lint check`: config → options → discovery → read → analyse every crate → report → exit
//! code (0 clean, 1 error-level findings, 2 mcp-lint could not do its job).

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use lints::{CrateInput, FileReport, Manifest, Options, SourceInput};

use crate::baseline::Baseline;
use crate::cache::{self, Cache};
use crate::cli::{CheckArgs, ColorChoice};
use crate::config;
use crate::discover::{self, CrateFiles, Discovery, Exclude};
use crate::engine::{self, Analyzer, Settings};
use crate::manifest::Manifests;
use crate::message_format::MessageFormat;
use crate::report::{self, cargo_json, human::HumanStyle, ReportOptions, Summary};

/// Exit codes, as documented.
pub const EXIT_CLEAN: i32 = 0;
pub const EXIT_FINDINGS: i32 = 1;
pub const EXIT_FAILURE: i32 = 2;

/// Run `check`; problems of mcp-lint itself go to `err` as `error: …` lines.
pub fn check(args: &CheckArgs, cwd: &Path, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    check_with(args, cwd, out, err, &lints::analyze_on_current_thread)
}

/// [`check`] with the per-crate analysis passed in. Production always passes
/// `lints::analyze_on_current_thread`; tests pass a closure that panics, to exercise the path
/// that turns a crashed crate into an `internal_error` finding without losing the other crates.
#[doc(hidden)]
pub fn check_with(
    args: &CheckArgs,
    cwd: &Path,
    out: &mut dyn Write,
    err: &mut dyn Write,
    analyze: Analyzer<'_>,
) -> i32 {
    let message_format = match output_format(args) {
        Ok(f) => f,
        Err(message) => {
            let _ = writeln!(err, "error: {message}");
            return EXIT_FAILURE;
        }
    };
    let baseline = match load_baseline(args, cwd, err) {
        Ok(b) => b,
        Err(code) => return code,
    };
    if args.fix || args.diff {
        let output = Output {
            message_format,
            baseline: baseline.as_ref(),
        };
        return crate::fix::run(args, cwd, &output, out, err);
    }
    let (reports, tool_failed) = match lint_paths_with(args, cwd, err, analyze) {
        Ok(linted) => linted,
        Err(code) => return code,
    };
    let output = Output {
        message_format,
        baseline: baseline.as_ref(),
    };
    report_and_exit(args, cwd, &output, reports, tool_failed, out, err)
}

/// How `check` reports: the output format and the baseline that filters findings.
pub struct Output<'a> {
    pub message_format: MessageFormat,
    pub baseline: Option<&'a Baseline>,
}

/// Apply the baseline, print the reports in the chosen format and return the exit code.
pub fn report_and_exit(
    args: &CheckArgs,
    cwd: &Path,
    output: &Output<'_>,
    mut reports: Vec<FileReport>,
    tool_failed: bool,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let message_format = output.message_format;
    let baseline = output.baseline;
    if let Some(baseline) = baseline {
        baseline.apply(&mut reports, cwd, err);
    }
    let code = exit_code(&reports, tool_failed, args);
    let written = match message_format {
        MessageFormat::Json(json) => {
            let owners = crate::cargo::Owners::for_check(&reports, cwd, err);
            let finished = cargo_json::build_finished_line(code == EXIT_CLEAN);
            cargo_json::write_messages(out, err, &reports, &|r| owners.locate(r), &json)
                .and_then(|()| writeln!(out, "{finished}"))
                .and_then(|()| out.flush())
        }
        _ => write_report(out, &reports, args, message_format, cwd),
    };
    match written {
        Ok(()) => code,
        Err(e) => write_failed(e, err, code),
    }
}

/// `--baseline FILE`, loaded; a bad file is printed and exits 2.
pub fn load_baseline(
    args: &CheckArgs,
    cwd: &Path,
    err: &mut dyn Write,
) -> Result<Option<Baseline>, i32> {
    match args.baseline.as_deref().map(|f| Baseline::load(f, cwd)) {
        Some(Err(message)) => {
            let _ = writeln!(err, "error: {message}");
            Err(EXIT_FAILURE)
        }
        Some(Ok(b)) => Ok(Some(b)),
        None => Ok(None),
    }
}

/// `--message-format` combined, and checked against `--format` and `--statistics`.
pub fn output_format(args: &CheckArgs) -> Result<MessageFormat, String> {
    let format = MessageFormat::combine(&args.message_format)?;
    format.report_format(args.format)?;
    if format.is_json() && args.statistics {
        return Err("`--statistics` cannot be combined with `--message-format=json`".into());
    }
    Ok(format)
}

/// The configuration for `paths`, merged with the command line, and its excludes.
pub fn prepare(
    args: &CheckArgs,
    cwd: &Path,
    paths: &[PathBuf],
    manifests: &mut Manifests,
) -> Result<(Options, Exclude), String> {
    let config = config::load(args.config.as_deref(), cwd, paths, manifests)?;
    let options = config::options(config.as_ref(), args)?;
    let exclude = config::exclude(config.as_ref(), cwd)?;
    Ok((options, exclude))
}

/// The `--format` report (or `--message-format=short`: concise).
pub fn write_report(
    out: &mut dyn Write,
    reports: &[FileReport],
    args: &CheckArgs,
    message_format: MessageFormat,
    cwd: &Path,
) -> std::io::Result<()> {
    let report_options = ReportOptions {
        format: message_format
            .report_format(args.format)
            .unwrap_or(args.format),
        statistics: args.statistics,
        style: human_style(args.color),
        cwd: cwd.to_path_buf(),
    };
    report::write(out, reports, &report_options).and_then(|()| out.flush())
}

/// A failed write: a closed pipe keeps the exit code, anything else is a failure.
pub fn write_failed(e: std::io::Error, err: &mut dyn Write, code: i32) -> i32 {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        return code;
    }
    let _ = writeln!(err, "error: could not write the report: {e}");
    EXIT_FAILURE
}

/// Find, read and analyse the files under `args.paths`, printing mcp-lint's own problems to
/// `err`. Returns the reports sorted by path and whether mcp-lint failed somewhere, or the exit
/// code when nothing could be linted (bad configuration).
pub fn lint_paths(
    args: &CheckArgs,
    cwd: &Path,
    err: &mut dyn Write,
) -> Result<(Vec<FileReport>, bool), i32> {
    lint_paths_with(args, cwd, err, &lints::analyze_on_current_thread)
}

fn lint_paths_with(
    args: &CheckArgs,
    cwd: &Path,
    err: &mut dyn Write,
    analyze: Analyzer<'_>,
) -> Result<(Vec<FileReport>, bool), i32> {
    let mut manifests = Manifests::new(cwd);
    let (options, exclude) = prepared(args, cwd, &mut manifests, err)?;
    let pool = thread_pool(args.threads).map_err(|message| {
        let _ = writeln!(err, "error: {message}");
        EXIT_FAILURE
    })?;
    let settings = engine_settings(args, cwd);
    let (discovery, outcome, mut problems) = pool.install(|| {
        let discovery = discover::discover(
            &args.paths,
            cwd,
            &exclude,
            args.force_exclude,
            &mut manifests,
        );
        let facts: Vec<Option<Manifest>> = discovery
            .crates
            .iter()
            .map(|c| c.package_root.as_deref().and_then(|r| manifests.facts(r)))
            .collect();
        let outcome = engine::lint(&discovery.crates, &facts, &options, &settings, analyze);
        (discovery, outcome, manifests.take_errors())
    });
    problems.extend(discovery.errors.iter().cloned());
    problems.extend(outcome.problems);
    let tool_failed = print_problems(problems, args, &discovery, err);
    let mut reports = outcome.reports;
    reports.sort_by(|a, b| a.path.cmp(&b.path));
    Ok((reports, tool_failed))
}

/// The worker pool per `--threads` (0: one thread per core), with the stack the analysis needs
/// (reserved address space; only what is used is backed by memory), so crates are analysed
/// with `lints::analyze_on_current_thread`.
pub fn thread_pool(threads: usize) -> Result<rayon::ThreadPool, String> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(lints::ANALYSIS_STACK)
        .thread_name(|i| format!("mcp-lint-{i}"))
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))
}

/// Prefilter and cache per `--no-prefilter` and `--no-cache`.
pub fn engine_settings(args: &CheckArgs, cwd: &Path) -> Settings {
    Settings {
        prefilter: !args.no_prefilter,
        // A separate reader: a broken Cargo.toml above `cwd` is not this run's problem.
        cache: (!args.no_cache)
            .then(|| Cache::open(&cache::location(cwd, &mut Manifests::new(cwd)))),
    }
}

/// [`prepare`] for `args.paths`, a bad configuration printed as an exit code.
fn prepared(
    args: &CheckArgs,
    cwd: &Path,
    manifests: &mut Manifests,
    err: &mut dyn Write,
) -> Result<(Options, Exclude), i32> {
    prepare(args, cwd, &args.paths, manifests).map_err(|message| {
        let _ = writeln!(err, "error: {message}");
        EXIT_FAILURE
    })
}

/// Print mcp-lint's own problems (sorted, once each) and warn when nothing was found to lint.
/// Returns whether there were problems.
fn print_problems(
    mut problems: Vec<String>,
    args: &CheckArgs,
    discovery: &Discovery,
    err: &mut dyn Write,
) -> bool {
    problems.sort();
    problems.dedup();
    for p in &problems {
        let _ = writeln!(err, "error: {p}");
    }
    if discovery.reported_files() == 0 && problems.is_empty() {
        let paths: Vec<String> = args.paths.iter().map(|p| p.display().to_string()).collect();
        let _ = writeln!(
            err,
            "warning: no Rust files found under {}",
            paths.join(", ")
        );
    }
    !problems.is_empty()
}

/// Load the configuration, find the crates under `args.paths` and read all their files (for
/// `--fix`, which rewrites them), printing mcp-lint's own problems to `err`. Returns the crates,
/// the options and whether mcp-lint failed somewhere, or the exit code when nothing can be
/// linted (bad configuration).
pub fn read_inputs(
    args: &CheckArgs,
    cwd: &Path,
    err: &mut dyn Write,
) -> Result<(Vec<CrateInput>, Options, bool), i32> {
    let mut manifests = Manifests::new(cwd);
    let (options, exclude) = prepared(args, cwd, &mut manifests, err)?;
    let discovery = discover::discover(
        &args.paths,
        cwd,
        &exclude,
        args.force_exclude,
        &mut manifests,
    );
    let mut problems = discovery.errors.clone();
    let inputs = crate_inputs(&discovery, &mut manifests, &mut problems);
    problems.extend(manifests.take_errors());
    let tool_failed = print_problems(problems, args, &discovery, err);
    Ok((inputs, options, tool_failed))
}

/// Read every file of every crate. Unreadable files become problems; the rest is still linted.
pub fn crate_inputs(
    discovery: &Discovery,
    manifests: &mut Manifests,
    problems: &mut Vec<String>,
) -> Vec<CrateInput> {
    discovery
        .crates
        .iter()
        .map(|c| crate_input(c, manifests, problems))
        .filter(|c| c.files.iter().any(|f| f.report))
        .collect()
}

fn crate_input(
    files: &CrateFiles,
    manifests: &mut Manifests,
    problems: &mut Vec<String>,
) -> CrateInput {
    let manifest = files
        .package_root
        .as_deref()
        .and_then(|root| manifests.facts(root));
    read_crate(files, manifest, problems)
}

/// Read a crate's files; unreadable ones become problems and are left out.
pub fn read_crate(
    files: &CrateFiles,
    manifest: Option<Manifest>,
    problems: &mut Vec<String>,
) -> CrateInput {
    let mut inputs = Vec::with_capacity(files.files.len());
    for f in &files.files {
        match std::fs::read(&f.path) {
            Ok(contents) => inputs.push(SourceInput {
                path: f.display.clone(),
                contents,
                role: f.role,
                report: f.report,
            }),
            Err(e) => problems.push(format!("could not read {}: {e}", f.display.display())),
        }
    }
    CrateInput {
        root: files.package_root.clone(),
        manifest,
        files: inputs,
    }
}

/// Analyse every crate in parallel (on the current rayon pool), the reports in crate order.
pub fn analyze_all(inputs: &[CrateInput], options: &Options) -> Vec<FileReport> {
    use rayon::prelude::*;
    let per_crate: Vec<Vec<FileReport>> = inputs
        .par_iter()
        .map(|input| lints::analyze(input, options))
        .collect();
    per_crate.into_iter().flatten().collect()
}

/// 2 when mcp-lint failed (even with `--exit-zero`), else 1 for error-level findings (warnings
/// too with `--deny-warnings`), else 0.
pub fn exit_code(reports: &[FileReport], tool_failed: bool, args: &CheckArgs) -> i32 {
    let internal = reports
        .iter()
        .flat_map(|r| &r.diagnostics)
        .any(lints::Diagnostic::is_internal_error);
    if tool_failed || internal {
        return EXIT_FAILURE;
    }
    if args.exit_zero {
        return EXIT_CLEAN;
    }
    let summary = Summary::of(reports);
    if summary.errors > 0 || (args.deny_warnings && summary.warnings > 0) {
        EXIT_FINDINGS
    } else {
        EXIT_CLEAN
    }
}

/// Colour per `--color`, `NO_COLOR` and whether stdout is a terminal; width from `COLUMNS`.
fn human_style(choice: ColorChoice) -> HumanStyle {
    let color = match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").unwrap_or_default().is_empty()
        }
    };
    let width = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|w| *w >= 40)
        .unwrap_or(HumanStyle::plain().width);
    HumanStyle { color, width }
}
