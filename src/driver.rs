//! `mcp-lint check`: config → options → discovery → read → analyse every crate → report → exit
//! code (0 clean, 1 error-level findings, 2 mcp-lint could not do its job).

use std::io::{IsTerminal, Write};
use std::path::Path;

use lints::{FileReport, Manifest};

use crate::cache::{self, Cache};
use crate::cli::{CheckArgs, ColorChoice};
use crate::config;
use crate::discover::{self, Exclude};
use crate::engine::{self, Analyzer, Settings};
use crate::manifest::Manifests;
use crate::report::{self, human::HumanStyle, ReportOptions, Summary};

/// Exit codes, as documented.
pub const EXIT_CLEAN: i32 = 0;
pub const EXIT_FINDINGS: i32 = 1;
pub const EXIT_FAILURE: i32 = 2;

/// Run `check`; problems of mcp-lint itself go to `err` as `error: …` lines.
pub fn check(args: &CheckArgs, cwd: &Path, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    check_with(args, cwd, out, err, &lints::analyze)
}

/// [`check`] with the per-crate analysis passed in. Production always passes
/// `lints::analyze`; tests pass a closure that panics, to exercise the path that turns a
/// crashed crate into an `internal_error` finding without losing the other crates.
#[doc(hidden)]
pub fn check_with(
    args: &CheckArgs,
    cwd: &Path,
    out: &mut dyn Write,
    err: &mut dyn Write,
    analyze: Analyzer<'_>,
) -> i32 {
    let mut manifests = Manifests::new(cwd);
    let prepared =
        config::load(args.config.as_deref(), cwd, &args.paths, &mut manifests).and_then(|config| {
            let options = config::options(config.as_ref(), args)?;
            let exclude = match &config {
                Some(c) => Exclude::new(&c.dir, &c.exclude).map_err(|e| {
                    format!(
                        "{}: `exclude`: {e}",
                        discover::relative_to(&c.file, cwd).display()
                    )
                })?,
                None => Exclude::default(),
            };
            Ok((options, exclude))
        });
    let (options, exclude) = match prepared {
        Ok(p) => p,
        Err(message) => {
            let _ = writeln!(err, "error: {message}");
            return EXIT_FAILURE;
        }
    };
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .thread_name(|i| format!("mcp-lint-{i}"))
        .build()
    {
        Ok(pool) => pool,
        Err(e) => {
            let _ = writeln!(err, "error: cannot start {} threads: {e}", args.threads);
            return EXIT_FAILURE;
        }
    };
    let settings = Settings {
        prefilter: !args.no_prefilter,
        // A separate reader: a broken Cargo.toml above `cwd` is not this run's problem.
        cache: (!args.no_cache)
            .then(|| Cache::open(&cache::location(cwd, &mut Manifests::new(cwd)))),
    };

    let (discovery, outcome, mut problems) = pool.install(|| {
        let discovery = discover::discover(&args.paths, cwd, &exclude, &mut manifests);
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

    let mut reports = outcome.reports;
    reports.sort_by(|a, b| a.path.cmp(&b.path));

    let report_options = ReportOptions {
        format: args.format,
        statistics: args.statistics,
        style: human_style(args.color),
    };
    if let Err(e) = report::write(out, &reports, &report_options).and_then(|()| out.flush()) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            let _ = writeln!(err, "error: could not write the report: {e}");
            return EXIT_FAILURE;
        }
    }
    exit_code(&reports, !problems.is_empty(), args)
}

/// 2 when mcp-lint failed (even with `--exit-zero`), else 1 for error-level findings (warnings
/// too with `--deny-warnings`), else 0.
pub fn exit_code(reports: &[FileReport], tool_failed: bool, args: &CheckArgs) -> i32 {
    let internal = reports
        .iter()
        .flat_map(|r| &r.diagnostics)
        .any(|d| d.lint.name == lints::lints::internal_error::LINT.name);
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
