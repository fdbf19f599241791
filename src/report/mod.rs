//! Reporters: turn the sorted [`lints::FileReport`]s into human, concise, JSON, SARIF, GitHub
//! annotation or JUnit output.

pub mod cargo_json;
pub mod concise;
pub mod github;
pub mod human;
pub mod json;
pub mod junit;
pub mod related;
pub mod sarif;
pub mod summary;

use std::io::{self, Write};
use std::path::PathBuf;

use lints::FileReport;

use crate::cli::Format;
use human::HumanStyle;
pub use summary::{statistics, statistics_table, Statistic, Summary};

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
