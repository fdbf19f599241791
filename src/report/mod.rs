//! Reporters: turn the sorted [`lints::FileReport`]s into human, concise, JSON, SARIF, GitHub
//! annotation or JUnit output.

pub mod cargo_json;
pub mod concise;
pub mod github;
pub mod human;
pub mod json;
pub mod junit;
pub mod sarif;

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use lints::{FileReport, Lint, Related};

use crate::cli::Format;
use human::HumanStyle;

/// Totals over a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub errors: usize,
    pub warnings: usize,
    /// Files reported on (checked), with or without findings.
    pub files: usize,
}

impl Summary {
    pub fn of(reports: &[FileReport]) -> Summary {
        let mut summary = Summary {
            files: reports.len(),
            ..Summary::default()
        };
        for d in reports.iter().flat_map(|r| &r.diagnostics) {
            if d.is_error() {
                summary.errors += 1;
            } else {
                summary.warnings += 1;
            }
        }
        summary
    }

    /// `2 errors, 1 warning (3 files checked)` or `no findings (1 file checked)`.
    pub fn line(&self) -> String {
        let files = plural(self.files, "file");
        if self.errors + self.warnings == 0 {
            return format!("no findings ({files} checked)");
        }
        format!(
            "{}, {} ({files} checked)",
            plural(self.errors, "error"),
            plural(self.warnings, "warning")
        )
    }
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// `path:line:col` of a related location, with its path shown as `shown`.
pub fn related_place(shown: &Path, related: &Related) -> String {
    format!(
        "{}:{}:{}",
        shown.display(),
        related.span.start_line,
        related.span.start_column
    )
}

/// A related location's message on one line (line breaks become spaces).
pub fn related_message(related: &Related) -> String {
    related.message.replace(['\r', '\n'], " ")
}

/// `note: path:line:col: message`: a related location as a note line, for the formats whose
/// text already carries `note:` lines.
pub fn related_note(shown: &Path, related: &Related) -> String {
    format!(
        "note: {}: {}",
        related_place(shown, related),
        related_message(related)
    )
}

/// How often one lint fired.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statistic {
    pub lint: &'static Lint,
    /// `error` or `warning`.
    pub severity: &'static str,
    pub count: usize,
}

/// Per-lint counts, most frequent first, then by code.
pub fn statistics(reports: &[FileReport]) -> Vec<Statistic> {
    let mut stats: Vec<Statistic> = Vec::new();
    for d in reports.iter().flat_map(|r| &r.diagnostics) {
        match stats.iter_mut().find(|s| s.lint == d.lint) {
            Some(s) => s.count += 1,
            None => stats.push(Statistic {
                lint: d.lint,
                severity: d.level.severity(),
                count: 1,
            }),
        }
    }
    stats.sort_by(|a, b| b.count.cmp(&a.count).then(a.lint.code.cmp(b.lint.code)));
    stats
}

/// The statistics as an aligned table, one lint per line (ruff's `--statistics`).
pub fn statistics_table(stats: &[Statistic]) -> String {
    let count_width = stats
        .iter()
        .map(|s| s.count.to_string().len())
        .max()
        .unwrap_or(1);
    let name_width = stats.iter().map(|s| s.lint.name.len()).max().unwrap_or(0);
    stats
        .iter()
        .map(|s| {
            format!(
                "{:>count_width$}  {}  {:<name_width$}  {}\n",
                s.count, s.lint.code, s.lint.name, s.severity
            )
        })
        .collect()
}

/// What to print and how.
#[derive(Clone, Debug)]
pub struct ReportOptions {
    pub format: Format,
    /// Per-lint counts instead of the findings (JSON carries both).
    pub statistics: bool,
    pub style: HumanStyle,
    /// The directory report paths are relative to; SARIF and GitHub find the repository root
    /// from it.
    pub cwd: PathBuf,
}

/// Print the reports (already sorted by path) in the chosen format.
pub fn write(
    out: &mut dyn Write,
    reports: &[FileReport],
    options: &ReportOptions,
) -> io::Result<()> {
    let summary = Summary::of(reports);
    match options.format {
        Format::Json => json::write(out, reports, &summary, options.statistics),
        _ if options.statistics => {
            out.write_all(statistics_table(&statistics(reports)).as_bytes())?;
            writeln!(out, "{}", summary.line())
        }
        Format::Human => human::write(out, reports, &summary, &options.style),
        Format::Concise => concise::write(out, reports),
        Format::Sarif => sarif::write(out, reports, &options.cwd),
        Format::Github => github::write(out, reports, &options.cwd),
        Format::Junit => junit::write(out, reports),
    }
}
