//! Totals and per-lint counts over a run, shared by the reporters.

use lints::{FileReport, Lint};

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
