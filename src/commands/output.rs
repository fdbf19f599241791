//! How the printing front ends (`check`, `--fix`, `cargo mcp-lint`) end: the baseline applied,
//! the reports printed in the chosen format, and the exit code (0 clean, 1 error-level
//! findings, 2 mcp-lint could not do its job).

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use lints::FileReport;

use crate::baseline::Baseline;
use crate::cli::{CheckArgs, ColorChoice};
use crate::commands::cargo::owners::Owners;
use crate::message_format::MessageFormat;
use crate::report::{self, cargo_json, human::HumanStyle, ReportOptions, Summary};

/// Exit codes, as documented.
pub const EXIT_CLEAN: i32 = 0;
pub const EXIT_FINDINGS: i32 = 1;
pub const EXIT_FAILURE: i32 = 2;

/// How `check` reports: the output format and the baseline that filters findings.
pub struct Output {
    pub message_format: MessageFormat,
    pub baseline: Option<Baseline>,
    /// In cargo JSON, end with cargo's `build-finished` line (`cargo mcp-lint` prints its own,
    /// after `--with-check`'s messages).
    pub build_finished_line: bool,
    /// Where findings belong in cargo JSON; `None` asks `cargo metadata` about the packages
    /// with findings.
    pub owners: Option<Owners>,
}

impl Output {
    /// `--message-format`, `--format`, `--statistics` and `--baseline`, checked; a bad
    /// combination or baseline file is printed and exits 2.
    pub fn of(args: &CheckArgs, cwd: &Path, err: &mut dyn Write) -> Result<Output, i32> {
        let fail = |err: &mut dyn Write, message: String| {
            let _ = writeln!(err, "error: {message}");
            EXIT_FAILURE
        };
        let message_format = output_format(args).map_err(|m| fail(err, m))?;
        let baseline = match args.baseline.as_deref().map(|f| Baseline::load(f, cwd)) {
            Some(Err(message)) => return Err(fail(err, message)),
            Some(Ok(b)) => Some(b),
            None => None,
        };
        Ok(Output {
            message_format,
            baseline,
            build_finished_line: true,
            owners: None,
        })
    }
}

/// `--message-format` combined, and checked against `--format` and `--statistics`.
fn output_format(args: &CheckArgs) -> Result<MessageFormat, String> {
    let format = MessageFormat::combine(&args.message_format)?;
    format.report_format(args.format)?;
    if format.is_json() && args.statistics {
        return Err("`--statistics` cannot be combined with `--message-format=json`".into());
    }
    Ok(format)
}

/// Apply the baseline, print the reports in the chosen format and return the exit code.
pub fn report_and_exit(
    args: &CheckArgs,
    cwd: &Path,
    output: &Output,
    mut reports: Vec<FileReport>,
    tool_failed: bool,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    if let Some(baseline) = &output.baseline {
        baseline.apply(&mut reports, cwd, err);
    }
    let code = exit_code(&reports, tool_failed, args);
    let written = match output.message_format {
        MessageFormat::Json(json) => {
            let found;
            let owners = match &output.owners {
                Some(owners) => owners,
                None => {
                    found = Owners::for_check(&reports, cwd, err);
                    &found
                }
            };
            let finished = output
                .build_finished_line
                .then(|| cargo_json::build_finished_line(code == EXIT_CLEAN));
            cargo_json::write_messages(out, err, &reports, &|p| owners.locate(p), &json)
                .and_then(|()| match finished {
                    Some(line) => writeln!(out, "{line}"),
                    None => Ok(()),
                })
                .and_then(|()| out.flush())
        }
        format => write_report(out, &reports, args, format, cwd),
    };
    match written {
        Ok(()) => code,
        Err(e) => write_failed(e, err, code),
    }
}

/// The `--format` report (or `--message-format=short`: concise).
fn write_report(
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
fn write_failed(e: std::io::Error, err: &mut dyn Write, code: i32) -> i32 {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        return code;
    }
    let _ = writeln!(err, "error: could not write the report: {e}");
    EXIT_FAILURE
}

/// Print a `--diff` and return its exit code: 2 when mcp-lint failed, 1 when there is something
/// to fix, 0 when there is not.
pub fn write_diff(diff: &str, tool_failed: bool, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    if let Err(e) = out.write_all(diff.as_bytes()).and_then(|()| out.flush()) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            let _ = writeln!(err, "error: could not write the diff: {e}");
            return EXIT_FAILURE;
        }
    }
    if tool_failed {
        EXIT_FAILURE
    } else if diff.is_empty() {
        EXIT_CLEAN
    } else {
        EXIT_FINDINGS
    }
}

/// Print mcp-lint's own problems and warnings, and warn when nothing was found to lint under
/// `paths`. Returns whether there were problems (warnings are not failures).
pub fn print_problems(
    problems: &[String],
    warnings: &[String],
    reported_files: usize,
    paths: &[PathBuf],
    err: &mut dyn Write,
) -> bool {
    for p in problems {
        let _ = writeln!(err, "error: {p}");
    }
    for w in warnings {
        let _ = writeln!(err, "warning: {w}");
    }
    if reported_files == 0 && problems.is_empty() {
        let paths: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        let _ = writeln!(
            err,
            "warning: no Rust files found under {}",
            paths.join(", ")
        );
    }
    !problems.is_empty()
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
