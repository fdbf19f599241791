//! One JSON document: `{"version":1,"diagnostics":[..],"summary":{..}}` (plus `statistics`
//! with `--statistics`). Lines and columns are 1-based; columns count characters. Optional
//! fields (`notes`, `fix`, `related`) are absent when a finding has none, so adding one is not a new
//! `version`.
//!
//! [`document`] builds it for every consumer: `--format json` and the MCP server's `lint` tool
//! (whose `outputSchema` is this type's JSON Schema).

use std::io::{self, Write};

use lints::{FileReport, Span};
use schemars::JsonSchema;
use serde::Serialize;

use super::summary::{statistics, Summary};

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
    #[serde(flatten)]
    range: JsonRange,
    message: &'a str,
    /// How to fix it, when the lint knows.
    help: Option<&'a str>,
    /// What else the finding says (the protocol version it was judged against, where a helper
    /// is called from), in the order the human output shows them. Absent when there are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    notes: Vec<&'a str>,
    /// Other places that explain the finding, in the order to show them (where a helper builds
    /// the error a call reports, or the tool calls that reach a helper). Absent when there are
    /// none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    related: Vec<JsonRelated<'a>>,
    /// The rewrite `mcp-lint check --fix` applies (only when the finding has one).
    #[serde(skip_serializing_if = "Option::is_none")]
    fix: Option<JsonFix<'a>>,
}

/// A related location: a range (in the finding's coordinates) in a file that may be another
/// one than the finding's, and what it has to do with the finding.
#[derive(Serialize, JsonSchema)]
struct JsonRelated<'a> {
    /// The file, in the same form as the finding's `path`.
    path: String,
    #[serde(flatten)]
    range: JsonRange,
    message: &'a str,
}

/// Where a finding or a related location is.
#[derive(Serialize, JsonSchema)]
struct JsonRange {
    /// 1-based line of the start.
    line: usize,
    /// 1-based column of the start, in characters.
    column: usize,
    end_line: usize,
    /// 1-based column of the end, exclusive.
    end_column: usize,
}

impl From<&Span> for JsonRange {
    fn from(span: &Span) -> JsonRange {
        JsonRange {
            line: span.start_line,
            column: span.start_column,
            end_line: span.end_line,
            end_column: span.end_column,
        }
    }
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
            range: JsonRange::from(&d.span),
            message: &d.message,
            help: d.help.as_deref(),
            notes: d.notes.iter().map(String::as_str).collect(),
            related: d
                .related
                .iter()
                .map(|r| JsonRelated {
                    path: r.path.display().to_string(),
                    range: JsonRange::from(&r.span),
                    message: &r.message,
                })
                .collect(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::related_reports;

    #[test]
    fn related_locations_carry_their_file_range_and_message() {
        let reports = related_reports();
        let doc = serde_json::to_value(document(&reports, &Summary::of(&reports), false))
            .expect("serialises");
        let d = &doc["diagnostics"][0];
        assert_eq!(d["path"], "src/tools.rs");
        assert_eq!(
            d["related"],
            serde_json::json!([
                {"path": "src/tools.rs", "line": 2, "column": 9, "end_line": 2,
                 "end_column": 46, "message": "`check` builds the error here"},
                {"path": "src/helpers.rs", "line": 2, "column": 22, "end_line": 2,
                 "end_column": 58, "message": "`load` builds the error here"},
            ])
        );
    }

    #[test]
    fn the_schema_says_related_is_optional_and_what_an_entry_holds() {
        let schema = serde_json::to_value(schemars::schema_for!(Document<'static>)).expect("JSON");
        let diagnostic = &schema["$defs"]["JsonDiagnostic"];
        let required = diagnostic["required"].as_array().expect("required");
        assert!(!required.iter().any(|r| r == "related"), "{diagnostic}");
        assert!(required.iter().any(|r| r == "end_column"), "{diagnostic}");
        let entry = &schema["$defs"]["JsonRelated"];
        let mut fields: Vec<&str> = entry["required"]
            .as_array()
            .expect("required")
            .iter()
            .filter_map(|f| f.as_str())
            .collect();
        fields.sort_unstable();
        assert_eq!(
            fields,
            [
                "column",
                "end_column",
                "end_line",
                "line",
                "message",
                "path"
            ]
        );
    }

    #[test]
    fn findings_without_related_locations_have_no_related_field() {
        let mut reports = related_reports();
        reports[1].diagnostics[0].related.clear();
        let doc = serde_json::to_value(document(&reports, &Summary::of(&reports), false))
            .expect("serialises");
        assert!(doc["diagnostics"][0].get("related").is_none(), "{doc}");
        assert_eq!(doc["version"], 1);
    }

    #[test]
    fn notes_are_strings_in_order_and_absent_when_there_are_none() {
        let mut reports = related_reports();
        reports[1].diagnostics[0].notes = vec![
            "judged against 2025-11-25, the protocolVersion this server declares".to_string(),
            "JSON-RPC reserves -32768..-32000 for pre-defined errors".to_string(),
        ];
        let doc = serde_json::to_value(document(&reports, &Summary::of(&reports), false))
            .expect("serialises");
        assert_eq!(
            doc["diagnostics"][0]["notes"],
            serde_json::json!([
                "judged against 2025-11-25, the protocolVersion this server declares",
                "JSON-RPC reserves -32768..-32000 for pre-defined errors"
            ]),
            "{doc}"
        );
        reports[1].diagnostics[0].notes.clear();
        let doc = serde_json::to_value(document(&reports, &Summary::of(&reports), false))
            .expect("serialises");
        assert!(doc["diagnostics"][0].get("notes").is_none(), "{doc}");
    }
}
