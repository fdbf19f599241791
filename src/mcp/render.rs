//! Tool results as the model reads them (text) and as programs read them (structured content).

use lints::{Applicability, Diagnostic, FileReport, SourceFile};
use schemars::JsonSchema;
use serde::Serialize;

use super::fixes::Preview;
use super::limits::{MAX_FINDINGS, MAX_TEXT_BYTES};
use crate::report::related::related_note;
use crate::report::{concise, json, Summary};
use crate::rules::{self, JsonRule};

/// The findings of one call, sorted by path, with what could not be read.
pub struct Analysis {
    pub reports: Vec<FileReport>,
    /// Files or directories that could not be read or walked, and broken Cargo.toml files:
    /// the rest was still checked.
    pub problems: Vec<String>,
}

/// A successful tool result: text for the model, plus structured content for tools with an
/// `outputSchema` (serialized here; a failure is the server's fault, reported as such).
pub struct Output {
    pub text: String,
    pub structured: Option<Result<serde_json::Value, serde_json::Error>>,
}

impl Output {
    pub fn text(text: String) -> Output {
        Output {
            text,
            structured: None,
        }
    }
}

/// `lint`'s structured content: the `--format json` document, plus `truncated` and `problems`
/// when they apply (absent otherwise, so a complete result equals the CLI's document).
#[derive(Serialize, JsonSchema)]
pub struct LintOutput<'a> {
    #[serde(flatten)]
    document: json::Document<'a>,
    /// Present when the findings were cut to the output limit: `diagnostics` holds the first
    /// `shown` of `total` (in path and line order); `summary` still counts all of them.
    #[serde(skip_serializing_if = "Option::is_none")]
    truncated: Option<Truncated>,
    /// Paths that could not be read (and broken Cargo.toml files); everything else was checked.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    problems: Vec<String>,
}

#[derive(Serialize, JsonSchema)]
struct Truncated {
    shown: usize,
    total: usize,
}

/// `rules`' structured content.
#[derive(Serialize, JsonSchema)]
pub struct RulesOutput {
    /// Every lint, in code order.
    rules: Vec<JsonRule>,
}

/// One finding as a block: the concise line, the source line, then help, notes, related
/// locations (`note: path:line:col: message`) and fix.
fn finding_block(report: &FileReport, d: &Diagnostic) -> String {
    let mut block = concise::line(&report.path, d);
    block.push('\n');
    if let Some(line) = source_line(report.source.as_deref(), d.span.start_line) {
        block.push_str(&format!("  {} | {line}\n", d.span.start_line));
    }
    if let Some(help) = &d.help {
        block.push_str(&format!("  help: {help}\n"));
    }
    for note in &d.notes {
        block.push_str(&format!("  note: {note}\n"));
    }
    for related in &d.related {
        block.push_str(&format!("  {}\n", related_note(&related.path, related)));
    }
    if let Some(fix) = &d.fix {
        let how = if fix.applicability == Applicability::MachineApplicable {
            "automatic; `fix_preview` shows the diff"
        } else {
            "suggested, check it before applying"
        };
        block.push_str(&format!("  fix: {} ({how})\n", fix.message));
    }
    block
}

/// The trimmed text of a line, cut to a readable length.
fn source_line(source: Option<&SourceFile>, line: usize) -> Option<String> {
    const MAX_CHARS: usize = 160;
    let text = source?.line_text(line).trim();
    if text.is_empty() {
        return None;
    }
    if text.chars().count() > MAX_CHARS {
        let cut: String = text.chars().take(MAX_CHARS).collect();
        return Some(format!("{cut}…"));
    }
    Some(text.to_string())
}

/// `lint`'s result: a summary line, one block per finding (up to the limits), then what could
/// not be read and how to see the rest.
pub fn lint(analysis: &Analysis) -> Output {
    let summary = Summary::of(&analysis.reports);
    let total = summary.errors + summary.warnings;
    let mut text = format!("{}\n", summary.line());
    let mut shown_reports: Vec<FileReport> = Vec::new();
    let mut shown = 0;
    'files: for report in &analysis.reports {
        let mut kept = FileReport {
            diagnostics: Vec::new(),
            ..report.clone()
        };
        for d in &report.diagnostics {
            let block = finding_block(report, d);
            if shown == MAX_FINDINGS || text.len() + block.len() + 1 > MAX_TEXT_BYTES {
                shown_reports.push(kept);
                break 'files;
            }
            text.push('\n');
            text.push_str(&block);
            kept.diagnostics.push(d.clone());
            shown += 1;
        }
        shown_reports.push(kept);
    }
    let truncated = (shown < total).then_some(Truncated { shown, total });
    if truncated.is_some() {
        text.push_str(&format!(
            "\nshowing the first {shown} of {total} findings (output limit); to see the rest, \
             call `lint` on fewer paths (a sub-directory or single files) or leave files out \
             with `exclude`\n"
        ));
    }
    if !analysis.problems.is_empty() {
        text.push_str("\nnot checked (everything else was):\n");
        for p in &analysis.problems {
            text.push_str(&format!("  {p}\n"));
        }
    }
    if total > 0 {
        text.push_str(
            "\n`explain` with a code gives the lint's full documentation; a finding that is \
             deliberate can be suppressed with `// mcp-lint: allow(<name>) <reason>` on or above \
             its line\n",
        );
    }
    // `summary` counts every finding: the document's totals stay true when it is cut.
    let document = json::document(&shown_reports, &summary, false);
    let structured = LintOutput {
        document,
        truncated,
        problems: analysis.problems.clone(),
    };
    Output {
        text,
        structured: Some(serde_json::to_value(&structured)),
    }
}

/// `fix_preview`'s result: the diff, or a plain statement that nothing has an automatic fix.
pub fn fix_preview(analysis: &Analysis, preview: &Preview) -> Output {
    let summary = Summary::of(&analysis.reports);
    let total = summary.errors + summary.warnings;
    let mut text = String::new();
    if total == 0 {
        text.push_str(&format!("{}; nothing to fix\n", summary.line()));
    } else if preview.files.is_empty() {
        text.push_str(&format!(
            "no automatic fixes for these findings; {total} {} listed (fix them by hand; \
             `explain` with a code shows how):\n",
            if total == 1 { "finding" } else { "findings" }
        ));
    } else {
        text.push_str(&format!(
            "{} automatic {} in {} {}; nothing was written. Apply the diff with `patch -p1` in \
             the server's working directory, or make the same edits by hand:\n\n",
            preview.applied,
            if preview.applied == 1 { "fix" } else { "fixes" },
            preview.files.len(),
            if preview.files.len() == 1 {
                "file"
            } else {
                "files"
            },
        ));
        for file in &preview.files {
            text.push_str(&file.diff);
        }
        let rest = total - preview.applied;
        if rest > 0 {
            text.push_str(&format!(
                "\n{rest} other {} no automatic fix:\n",
                if rest == 1 {
                    "finding has"
                } else {
                    "findings have"
                }
            ));
        }
    }
    let mut listed = 0;
    for report in &analysis.reports {
        for (index, d) in report.diagnostics.iter().enumerate() {
            if preview.is_applied(&report.path, index) {
                continue;
            }
            if listed == MAX_FINDINGS || text.len() > MAX_TEXT_BYTES {
                text.push_str("  … (call `lint` on fewer paths to see every finding)\n");
                return Output::text(finish_preview(text, preview));
            }
            text.push_str(&format!("  {}\n", concise::line(&report.path, d)));
            listed += 1;
        }
    }
    Output::text(finish_preview(text, preview))
}

fn finish_preview(mut text: String, preview: &Preview) -> String {
    for note in &preview.notes {
        text.push_str(&format!("\nnote: {note}\n"));
    }
    text
}

/// `rules`' result: the aligned table, and the same list as structured content.
pub fn rules() -> Output {
    let text = format!(
        "{}\ncall `explain` with a name or code for a lint's documentation\n",
        rules::rules_table()
    );
    let structured = RulesOutput {
        rules: rules::json_rules(),
    };
    Output {
        text,
        structured: Some(serde_json::to_value(&structured)),
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::sync::Arc;

    use lints::{Edit, Fix, Span};

    use super::*;
    use crate::mcp::fixes;

    /// Two findings in one file, the first with an automatic fix.
    fn analysis() -> Analysis {
        let text = "fn a() -> &'static str {\n    \"error\"\n}\n";
        let path = PathBuf::from("src/tools.rs");
        let source = Arc::new(SourceFile::new(path.clone(), text.to_string()));
        let lint = lints::registry::find("vague_error_text").expect("lint exists");
        let start = text.find("\"error\"").expect("literal");
        let mut fixed = Diagnostic::new(lint, source.span(start, start + 7), "vague error text");
        fixed.fix = Some(Fix {
            message: "name what failed".to_string(),
            applicability: Applicability::MachineApplicable,
            edits: vec![Edit {
                start,
                end: start + 7,
                replacement: "\"no such note\"".to_string(),
            }],
        });
        let other = Diagnostic::new(lint, Span::default(), "another finding");
        Analysis {
            reports: vec![FileReport {
                path,
                source: Some(source),
                diagnostics: vec![fixed, other],
            }],
            problems: Vec::new(),
        }
    }

    #[test]
    fn fix_preview_shows_the_diff_then_the_findings_without_a_fix() {
        let analysis = analysis();
        let preview = fixes::preview(&analysis.reports);
        let text = fix_preview(&analysis, &preview).text;
        assert_eq!(
            text,
            "1 automatic fix in 1 file; nothing was written. Apply the diff with `patch -p1` in \
             the server's working directory, or make the same edits by hand:\n\n\
             --- a/src/tools.rs\n+++ b/src/tools.rs\n@@ -1,3 +1,3 @@\n fn a() -> &'static str \
             {\n-    \"error\"\n+    \"no such note\"\n }\n\n\
             1 other finding has no automatic fix:\n  \
             src/tools.rs:0:0: warning[MCP003/vague_error_text]: another finding\n"
        );
    }

    #[test]
    fn lint_results_show_related_locations_in_text_and_structured_content() {
        let analysis = Analysis {
            reports: crate::test_support::related_reports(),
            problems: Vec::new(),
        };
        let output = lint(&analysis);
        assert!(
            output.text.contains(
                "src/tools.rs:6:5: error[MCP001/tool_failure_as_protocol_error]: tool `read` \
                 reports -32603\n  6 | check(\"x\")?;\n  help: return a tool result\n  \
                 note: src/tools.rs:2:9: `check` builds the error here\n  \
                 note: src/helpers.rs:2:22: `load` builds the error here\n"
            ),
            "{}",
            output.text
        );
        let structured = output.structured.expect("structured").expect("serializes");
        let related = &structured["diagnostics"][0]["related"];
        assert_eq!(related[1]["path"], "src/helpers.rs");
        assert_eq!(related[1]["column"], 22);
    }

    #[test]
    fn lint_text_names_an_automatic_fix() {
        let output = lint(&analysis());
        assert!(
            output.text.contains(
                "src/tools.rs:2:5: warning[MCP003/vague_error_text]: vague error text\n  2 | \
                 \"error\"\n  fix: name what failed (automatic; `fix_preview` shows the diff)\n"
            ),
            "{}",
            output.text
        );
        let structured = output.structured.expect("structured").expect("serializes");
        assert_eq!(structured["summary"]["warnings"], 2);
        assert!(structured.get("truncated").is_none());
    }
}
