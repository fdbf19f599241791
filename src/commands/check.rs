//! `mcp-lint check` (with `--fix` and `--diff`): the command line mapped to a
//! [`Request`], the session run, the reports printed.

use std::io::Write;
use std::path::Path;

use crate::cli::{CheckArgs, Format};
use crate::commands::output::{self, Output, EXIT_FAILURE};
use crate::engine::Analyzer;
use crate::fix::{self, FixMode};
use crate::session::{Request, Session, Targets};
use crate::workspace::config::Overrides;

/// The request `check`'s options stand for, for `targets`.
pub fn request(args: &CheckArgs, targets: Targets) -> Request {
    Request {
        targets,
        config: args.config.clone(),
        overrides: Overrides {
            levels: args.level_flags.clone(),
            target_protocol: args.target_protocol,
            include_tests: args.include_tests,
        },
        force_exclude: args.force_exclude,
        respect_gitignore: !args.no_respect_gitignore,
        threads: args.threads,
        cache: !args.no_cache,
        prefilter: !args.no_prefilter,
        ..Request::default()
    }
}

/// What `--fix`, `--unsafe-fixes` and `--diff` ask for.
pub fn fix_mode(args: &CheckArgs) -> FixMode {
    FixMode {
        unsafe_fixes: args.unsafe_fixes,
        diff: args.diff,
    }
}

/// Run `check`; problems of mcp-lint itself go to `err` as `error: …` lines.
pub fn check(args: &CheckArgs, cwd: &Path, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    check_with(
        args,
        cwd,
        out,
        err,
        &lints::analyze_program_on_current_thread,
    )
}

/// [`check`] with the per-crate analysis passed in. Production always passes
/// `lints::analyze_program_on_current_thread`; tests pass a closure that panics, to exercise the path
/// that turns a crashed crate into an `internal_error` finding without losing the other crates.
#[doc(hidden)]
pub fn check_with(
    args: &CheckArgs,
    cwd: &Path,
    out: &mut dyn Write,
    err: &mut dyn Write,
    analyze: Analyzer<'_>,
) -> i32 {
    let output = match Output::of(args, cwd, err) {
        Ok(o) => o,
        Err(code) => return code,
    };
    let mut session = match Session::open(request(args, Targets::Paths(args.paths.clone())), cwd) {
        Ok(s) => s,
        Err(message) => {
            let _ = writeln!(err, "error: {message}");
            return EXIT_FAILURE;
        }
    };
    let discovery = session.discover();
    let reported_files = discovery.reported_files();
    let (reports, tool_failed) = if args.fix || args.diff {
        let inputs = session.read(&discovery);
        let problems = session.take_problems();
        let warnings = session.take_warnings();
        let failed = output::print_problems(&problems, &warnings, reported_files, &args.paths, err);
        let tree = fix::tree(&args.paths, cwd);
        let run = fix::fix_inputs(&inputs, session.options(), fix_mode(args), cwd, &tree, err);
        if let Some(diff) = &run.diff {
            return output::write_diff(diff, failed || run.failed, out, err);
        }
        (run.reports, failed || run.failed)
    } else {
        let linted = session.lint_with(discovery, analyze);
        let failed = output::print_problems(
            &linted.problems,
            &linted.warnings,
            reported_files,
            &args.paths,
            err,
        );
        (linted.reports, failed)
    };
    // Nothing was checked and the reason is printed: a report of no findings would mislead.
    let text_report =
        !output.message_format.is_json() && matches!(args.format, Format::Human | Format::Concise);
    if reported_files == 0 && tool_failed && text_report {
        return EXIT_FAILURE;
    }
    output::report_and_exit(args, cwd, &output, reports, tool_failed, out, err)
}
