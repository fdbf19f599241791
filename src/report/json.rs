//! One JSON document: `{"version":1,"diagnostics":[..],"summary":{..}}` (plus `statistics`
//! with `--statistics`). Lines and columns are 1-based; columns count characters.
//!
//! [`document`] builds it for every consumer: `--format json` and the MCP server's `lint` tool
//! (whose `outputSchema` is this type's JSON Schema).

use std::io::{self, Write};

use lints::FileReport;
use schemars::JsonSchema;
use serde::Serialize;

use super::{statistics, Summary};

/// The `--format json` document.
#[derive(Serialize, JsonSchema)]
pub struct Document<'a> {
    /// Format version; changes only when a field changes meaning or goes away.
    version: u32,
    /// Findings sorted by path, line and column.
    diagnostics: Vec<JsonDiagnostic<'a>>,
    summary: JsonSummary,
    /// Per-lint counts, most frequent first (only with `--statistics`).
    #[serde(skip_serializing_if = "Option::is_none")]
    statistics: Option<Vec<JsonStatistic<'a>>>,
}

/// One finding.
#[derive(Serialize, JsonSchema)]
struct JsonDiagnostic<'a> {
    /// The lint's code, e.g. `MCP001`.
    code: &'a str,
    /// The lint's name, e.g. `tool_failure_as_protocol_error`.
    name: &'a str,
    /// `error` or `warning`.
    level: &'a str,
    /// The file, as given or relative to the current directory.
    path: String,
    /// 1-based line of the start.
    line: usize,
    /// 1-based column of the start, in characters.
    column: usize,
    end_line: usize,
    /// 1-based column of the end, exclusive.
    end_column: usize,
    message: &'a str,
    /// How to fix it, when the lint knows.
    help: Option<&'a str>,
    /// The rewrite `mcp-lint check --fix` applies (only when the finding has one).
    #[serde(skip_serializing_if = "Option::is_none")]
    fix: Option<JsonFix<'a>>,
}

/// A finding's fix: text edits of the finding's file.
#[derive(Serialize, JsonSchema)]
struct JsonFix<'a> {
    /// What the fix does.
    message: &'a str,
    /// rustc's level: `MachineApplicable` (applied by `--fix`), `MaybeIncorrect` (applied with
    /// `--unsafe-fixes`) or `HasPlaceholders` (shown, never applied).
    applicability: &'static str,
    /// Non-overlapping edits, in file order.
    edits: Vec<JsonEdit<'a>>,
}

/// Replace a range (1-based lines and columns in characters, the end exclusive; an empty range
/// inserts) with `content`.
#[derive(Serialize, JsonSchema)]
struct JsonEdit<'a> {
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
    content: &'a str,
}

/// Totals over the run.
#[derive(Serialize, JsonSchema)]
struct JsonSummary {
    /// Error-level findings.
    errors: usize,
    /// Warning-level findings.
    warnings: usize,
    /// Files checked, with or without findings.
    files: usize,
}

#[derive(Serialize, JsonSchema)]
struct JsonStatistic<'a> {
    code: &'a str,
    name: &'a str,
    level: &'a str,
    count: usize,
}

/// The document for `reports` (sorted by path).
pub fn document<'a>(
    reports: &'a [FileReport],
    summary: &Summary,
    with_statistics: bool,
) -> Document<'a> {
    let diagnostics = reports
        .iter()
        .flat_map(|r| r.diagnostics.iter().map(move |d| (r, d)))
        .map(|(r, d)| JsonDiagnostic {
            code: d.lint.code,
            name: d.lint.name,
            level: d.level.severity(),
            path: r.path.display().to_string(),
            line: d.span.start_line,
            column: d.span.start_column,
            end_line: d.span.end_line,
            end_column: d.span.end_column,
            message: &d.message,
            help: d.help.as_deref(),
            fix: d
                .fix
                .as_ref()
                .zip(r.source.as_deref())
                .map(|(fix, source)| JsonFix {
                    message: &fix.message,
                    applicability: fix.applicability.as_str(),
                    edits: fix
                        .edits
                        .iter()
                        .map(|e| {
                            let span = source.span(e.start, e.end);
                            JsonEdit {
                                line: span.start_line,
                                column: span.start_column,
                                end_line: span.end_line,
                                end_column: span.end_column,
                                content: &e.replacement,
                            }
                        })
                        .collect(),
                }),
        })
        .collect();
    let stats = with_statistics.then(|| {
        statistics(reports)
            .into_iter()
            .map(|s| JsonStatistic {
                code: s.lint.code,
                name: s.lint.name,
                level: s.severity,
                count: s.count,
            })
            .collect()
    });
    Document {
        version: 1,
        diagnostics,
        summary: JsonSummary {
            errors: summary.errors,
            warnings: summary.warnings,
            files: summary.files,
        },
        statistics: stats,
    }
}

pub fn write(
    out: &mut dyn Write,
    reports: &[FileReport],
    summary: &Summary,
    with_statistics: bool,
) -> io::Result<()> {
    let document = document(reports, summary, with_statistics);
    serde_json::to_writer_pretty(&mut *out, &document).map_err(io::Error::from)?;
    writeln!(out)
}
