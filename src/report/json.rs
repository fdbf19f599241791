//! One JSON document: `{"version":1,"diagnostics":[..],"summary":{..}}` (plus `statistics`
//! with `--statistics`). Lines and columns are 1-based; columns count characters.

use std::io::{self, Write};

use lints::FileReport;
use serde::Serialize;

use super::{statistics, Summary};

#[derive(Serialize)]
struct Document<'a> {
    version: u32,
    diagnostics: Vec<JsonDiagnostic<'a>>,
    summary: JsonSummary,
    #[serde(skip_serializing_if = "Option::is_none")]
    statistics: Option<Vec<JsonStatistic<'a>>>,
}

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    code: &'a str,
    name: &'a str,
    level: &'a str,
    path: String,
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
    message: &'a str,
    help: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fix: Option<JsonFix<'a>>,
}

/// A finding's fix: its edits as 1-based line/column ranges (columns count characters, the end
/// is exclusive) with the text that replaces each.
#[derive(Serialize)]
struct JsonFix<'a> {
    message: &'a str,
    applicability: &'static str,
    edits: Vec<JsonEdit<'a>>,
}

#[derive(Serialize)]
struct JsonEdit<'a> {
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
    content: &'a str,
}

#[derive(Serialize)]
struct JsonSummary {
    errors: usize,
    warnings: usize,
    files: usize,
}

#[derive(Serialize)]
struct JsonStatistic<'a> {
    code: &'a str,
    name: &'a str,
    level: &'a str,
    count: usize,
}

pub fn write(
    out: &mut dyn Write,
    reports: &[FileReport],
    summary: &Summary,
    with_statistics: bool,
) -> io::Result<()> {
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
    let document = Document {
        version: 1,
        diagnostics,
        summary: JsonSummary {
            errors: summary.errors,
            warnings: summary.warnings,
            files: summary.files,
        },
        statistics: stats,
    };
    serde_json::to_writer_pretty(&mut *out, &document).map_err(io::Error::from)?;
    writeln!(out)
}
