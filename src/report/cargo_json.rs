//! `--message-format=json`: findings as rustc diagnostics, wrapped in cargo `compiler-message`
//! records when the file belongs to a cargo package, one JSON object per line, then cargo's
//! `build-finished` line.
//!
//! The shapes are the ones `cargo_metadata` (and so rust-analyzer's flycheck) deserialises:
//! `code.code` is `mcp_lint::<name>` (rust-analyzer shows source "mcp-lint" and code `<name>`),
//! the primary span carries byte offsets, 1-based lines and character columns and the `text[]`
//! lines, help and notes are span-less children, a related location is a `note` child with one
//! primary span (rustc's shape for "note: ... here" with a span, which rust-analyzer turns into
//! related information and cargo renders as a snippet), and a fix is a `help` child whose spans
//! carry `suggested_replacement` and `suggestion_applicability` (rust-analyzer's quick fixes).

use std::borrow::Cow;
use std::collections::HashMap;
use std::io::{self, Write};
use std::path::Path;

use lints::{Diagnostic, FileReport, SourceFile, Span};
use serde::Serialize;

use super::concise;
use super::human::{self, HumanStyle};
use crate::message_format::JsonOptions;

/// A rustc JSON diagnostic (`rustc --error-format=json`).
#[derive(Clone, Debug, Serialize)]
pub struct RustcDiagnostic {
    #[serde(rename = "$message_type")]
    message_type: &'static str,
    pub message: String,
    pub code: Option<Code>,
    pub level: &'static str,
    pub spans: Vec<RustcSpan>,
    pub children: Vec<RustcDiagnostic>,
    pub rendered: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Code {
    pub code: String,
    pub explanation: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct RustcSpan {
    pub file_name: String,
    pub byte_start: usize,
    pub byte_end: usize,
    pub line_start: usize,
    pub line_end: usize,
    pub column_start: usize,
    pub column_end: usize,
    pub is_primary: bool,
    pub text: Vec<SpanLine>,
    pub label: Option<String>,
    pub suggested_replacement: Option<String>,
    pub suggestion_applicability: Option<&'static str>,
    /// Always `null`: we see the source as written, without macro expansion.
    pub expansion: Option<()>,
}

#[derive(Clone, Debug, Serialize)]
pub struct SpanLine {
    pub text: String,
    pub highlight_start: usize,
    pub highlight_end: usize,
}

/// The cargo package and target a file belongs to, copied from `cargo metadata`.
#[derive(Clone, Copy, Debug)]
pub struct Owner<'a> {
    pub package_id: &'a str,
    pub manifest_path: &'a Path,
    /// The target object exactly as `cargo metadata` printed it.
    pub target: &'a serde_json::Value,
}

/// Where a reported file goes in the output.
#[derive(Clone, Debug)]
pub struct Located<'a> {
    /// `file_name` in spans: relative to the workspace root with `cargo mcp-lint` (as cargo
    /// prints it), absolute otherwise.
    pub file_name: String,
    /// `None`: print bare rustc diagnostics, which rust-analyzer also accepts.
    pub owner: Option<Owner<'a>>,
}

#[derive(Serialize)]
struct CompilerMessage<'a> {
    reason: &'static str,
    package_id: &'a str,
    manifest_path: &'a Path,
    target: &'a serde_json::Value,
    message: &'a RustcDiagnostic,
}

/// The file of one of a finding's related locations, as the output names it.
#[derive(Clone, Copy, Debug)]
pub struct RelatedFile<'a> {
    /// As [`Located::file_name`].
    pub file_name: &'a str,
    /// Its text, when it was one of the reported files.
    pub source: Option<&'a SourceFile>,
}

/// Build the rustc diagnostic for one finding in `source` (shown as `file_name`); `related`
/// names the file of each of its related locations, in order.
pub fn diagnostic(
    file_name: &str,
    source: Option<&SourceFile>,
    d: &Diagnostic,
    related: &[RelatedFile<'_>],
    options: &JsonOptions,
) -> RustcDiagnostic {
    let mut primary = span(file_name, source, &d.span);
    primary.is_primary = true;
    primary.label = d.label.clone();
    let mut children: Vec<RustcDiagnostic> = d
        .notes
        .iter()
        .map(|n| child("note", n.clone(), Vec::new()))
        .collect();
    for (r, file) in d.related.iter().zip(related) {
        let mut s = span(file.file_name, file.source, &r.span);
        s.is_primary = true;
        children.push(child("note", r.message.clone(), vec![s]));
    }
    if let Some(help) = &d.help {
        children.push(child("help", help.clone(), Vec::new()));
    }
    if let (Some(fix), Some(source)) = (&d.fix, source) {
        let spans = fix
            .edits
            .iter()
            .map(|e| {
                let (start, end) = human::clamp(&source.text, e.start, e.end);
                let mut s = span(file_name, Some(source), &source.span(start, end));
                s.is_primary = true;
                s.suggested_replacement = Some(e.replacement.clone());
                s.suggestion_applicability = Some(fix.applicability.as_str());
                s
            })
            .collect();
        children.push(child("help", fix.message.clone(), spans));
    }
    RustcDiagnostic {
        message_type: "diagnostic",
        message: d.message.clone(),
        code: Some(Code {
            code: format!("mcp_lint::{}", d.lint.name),
            explanation: None,
        }),
        level: d.level.severity(),
        spans: vec![primary],
        children,
        rendered: Some(rendered(file_name, source, d, related, options)),
    }
}

fn child(level: &'static str, message: String, spans: Vec<RustcSpan>) -> RustcDiagnostic {
    RustcDiagnostic {
        message_type: "diagnostic",
        message,
        code: None,
        level,
        spans,
        children: Vec::new(),
        rendered: None,
    }
}

/// A non-primary span without label or suggestion, with the `text[]` of every line it covers.
fn span(file_name: &str, source: Option<&SourceFile>, s: &Span) -> RustcSpan {
    let text = match source {
        Some(source) if s.start_line >= 1 && s.end_line <= source.line_count() => (s.start_line
            ..=s.end_line)
            .map(|line| {
                let text = source.line_text(line);
                let highlight_start = if line == s.start_line {
                    s.start_column
                } else {
                    1
                };
                let highlight_end = if line == s.end_line {
                    s.end_column
                } else {
                    text.chars().count() + 1
                };
                SpanLine {
                    text: text.to_string(),
                    highlight_start,
                    highlight_end,
                }
            })
            .collect(),
        _ => Vec::new(),
    };
    RustcSpan {
        file_name: file_name.to_string(),
        byte_start: s.start,
        byte_end: s.end,
        line_start: s.start_line,
        line_end: s.end_line,
        column_start: s.start_column,
        column_end: s.end_column,
        is_primary: false,
        text,
        label: None,
        suggested_replacement: None,
        suggestion_applicability: None,
        expansion: None,
    }
}

/// The human form (`json-diagnostic-short`: the one-line form), as rustc puts it in `rendered`,
/// with every path as the spans name it.
fn rendered(
    file_name: &str,
    source: Option<&SourceFile>,
    d: &Diagnostic,
    related: &[RelatedFile<'_>],
    options: &JsonOptions,
) -> String {
    let d = if d.related.is_empty() {
        Cow::Borrowed(d)
    } else {
        let mut named = d.clone();
        for (r, file) in named.related.iter_mut().zip(related) {
            r.path = file.file_name.into();
        }
        Cow::Owned(named)
    };
    let d = d.as_ref();
    if options.short {
        return format!("{}\n", concise::line(Path::new(file_name), d));
    }
    let text = source.map(|s| s.text.clone()).unwrap_or_default();
    let shown = SourceFile::new(file_name.into(), text);
    let style = HumanStyle {
        color: options.ansi,
        ..HumanStyle::plain()
    };
    human::render(&shown, d, &style)
}

/// One output line: a `compiler-message` record, or the bare diagnostic without an owner.
pub fn message_line(owner: Option<&Owner<'_>>, diagnostic: &RustcDiagnostic) -> String {
    let line = match owner {
        Some(owner) => serde_json::to_string(&CompilerMessage {
            reason: "compiler-message",
            package_id: owner.package_id,
            manifest_path: owner.manifest_path,
            target: owner.target,
            message: diagnostic,
        }),
        None => serde_json::to_string(diagnostic),
    };
    // Serialising plain strings, numbers and a JSON value cannot fail.
    line.unwrap_or_default()
}

/// cargo's last line: `{"reason":"build-finished","success":…}`.
pub fn build_finished_line(success: bool) -> String {
    serde_json::json!({"reason": "build-finished", "success": success}).to_string()
}

/// Print every finding (reports sorted by path), flushing each line; with
/// `json-render-diagnostics` the rendered form goes to `err` instead, as cargo does. The
/// `build-finished` line is left to the caller, which knows the whole run's outcome.
pub fn write_messages<'o>(
    out: &mut dyn Write,
    err: &mut dyn Write,
    reports: &[FileReport],
    locate: &dyn Fn(&Path) -> Located<'o>,
    options: &JsonOptions,
) -> io::Result<()> {
    let sources: HashMap<&Path, &SourceFile> = reports
        .iter()
        .filter_map(|r| Some((r.path.as_path(), r.source.as_deref()?)))
        .collect();
    for report in reports {
        if report.diagnostics.is_empty() {
            continue;
        }
        let located = locate(&report.path);
        for d in &report.diagnostics {
            let names: Vec<String> = d
                .related
                .iter()
                .map(|r| locate(&r.path).file_name)
                .collect();
            let related: Vec<RelatedFile<'_>> = d
                .related
                .iter()
                .zip(&names)
                .map(|(r, file_name)| RelatedFile {
                    file_name,
                    source: sources.get(r.path.as_path()).copied(),
                })
                .collect();
            let rustc = diagnostic(
                &located.file_name,
                report.source.as_deref(),
                d,
                &related,
                options,
            );
            if options.render_diagnostics {
                let _ = write!(err, "{}", rustc.rendered.as_deref().unwrap_or_default());
                continue;
            }
            writeln!(out, "{}", message_line(located.owner.as_ref(), &rustc))?;
            out.flush()?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use lints::{Applicability, Edit, Fix, Level};

    const TEXT: &str = "fn f() {\n    Err(McpError::internal_error(\"é\", None))\n}\n";

    fn finding(source: &SourceFile) -> Diagnostic {
        let needle = "McpError::internal_error(\"é\", None)";
        let start = source.text.find(needle).expect("needle");
        let lint = lints::registry::find("MCP001").expect("MCP001");
        let mut d = Diagnostic::new(
            lint,
            source.span(start, start + needle.len()),
            "tool failure",
        )
        .with_label("sent as a protocol error")
        .with_help("return a tool result")
        .with_note("hosts log protocol errors");
        d.level = Level::Deny;
        d
    }

    /// `d` in `src/lib.rs` with the default options and no related locations.
    fn plain(source: &SourceFile, d: &Diagnostic) -> RustcDiagnostic {
        diagnostic("src/lib.rs", Some(source), d, &[], &JsonOptions::default())
    }

    #[test]
    fn primary_span_text_code_and_children() {
        let source = SourceFile::new("src/lib.rs".into(), TEXT.into());
        let d = finding(&source);
        let rustc = plain(&source, &d);
        let v = serde_json::to_value(&rustc).expect("serialises");
        assert_eq!(
            v["code"]["code"],
            "mcp_lint::tool_failure_as_protocol_error"
        );
        assert_eq!(v["level"], "error");
        let span = &v["spans"][0];
        assert_eq!(span["is_primary"], true);
        assert_eq!(span["line_start"], 2);
        assert_eq!(span["column_start"], 9);
        // Columns count characters: `é` is one column but two bytes.
        assert_eq!(
            span["column_end"].as_u64().expect("n") - span["column_start"].as_u64().expect("n"),
            "McpError::internal_error(\"é\", None)".chars().count() as u64
        );
        assert_eq!(
            span["byte_end"].as_u64().expect("n") - span["byte_start"].as_u64().expect("n"),
            "McpError::internal_error(\"é\", None)".len() as u64
        );
        assert_eq!(
            span["text"][0]["text"],
            "    Err(McpError::internal_error(\"é\", None))"
        );
        assert_eq!(span["text"][0]["highlight_start"], 9);
        assert_eq!(span["label"], "sent as a protocol error");
        assert_eq!(v["children"][0]["level"], "note");
        assert_eq!(v["children"][1]["level"], "help");
        assert_eq!(v["children"][1]["message"], "return a tool result");
        let rendered = v["rendered"].as_str().expect("rendered");
        assert!(rendered.contains("error[MCP001/tool_failure_as_protocol_error]"));
        assert!(rendered.contains("src/lib.rs:2:9"), "{rendered}");
        assert!(!rendered.contains('\u{1b}'));
    }

    #[test]
    fn ansi_and_short_rendering() {
        let source = SourceFile::new("src/lib.rs".into(), TEXT.into());
        let d = finding(&source);
        let ansi = JsonOptions {
            ansi: true,
            ..JsonOptions::default()
        };
        let r = diagnostic("src/lib.rs", Some(&source), &d, &[], &ansi);
        assert!(r.rendered.as_deref().expect("rendered").contains('\u{1b}'));
        let short = JsonOptions {
            short: true,
            ..JsonOptions::default()
        };
        let r = diagnostic("src/lib.rs", Some(&source), &d, &[], &short);
        assert_eq!(
            r.rendered.as_deref(),
            Some("src/lib.rs:2:9: error[MCP001/tool_failure_as_protocol_error]: tool failure\n")
        );
    }

    #[test]
    fn multi_line_spans_highlight_to_line_ends() {
        let source = SourceFile::new("a.rs".into(), "ab\ncdé\nef\n".into());
        let s = span("a.rs", Some(&source), &source.span(1, 10));
        let lines: Vec<(String, usize, usize)> = s
            .text
            .iter()
            .map(|l| (l.text.clone(), l.highlight_start, l.highlight_end))
            .collect();
        assert_eq!(
            lines,
            vec![
                ("ab".into(), 2, 3),
                ("cdé".into(), 1, 4),
                ("ef".into(), 1, 3)
            ]
        );
    }

    #[test]
    fn a_fix_becomes_a_child_with_suggested_replacements() {
        let source = SourceFile::new("src/lib.rs".into(), TEXT.into());
        let mut d = finding(&source);
        let start = TEXT.find("McpError").expect("needle");
        d.fix = Some(Fix {
            message: "return the failure as a tool result".into(),
            applicability: Applicability::MaybeIncorrect,
            edits: vec![Edit {
                start,
                end: start + "McpError::internal_error".len(),
                replacement: "tool_error".into(),
            }],
        });
        let rustc = plain(&source, &d);
        let fix = rustc.children.last().expect("fix child");
        assert_eq!(fix.level, "help");
        assert_eq!(fix.spans.len(), 1);
        let s = &fix.spans[0];
        assert!(s.is_primary);
        assert_eq!(s.suggested_replacement.as_deref(), Some("tool_error"));
        assert_eq!(s.suggestion_applicability, Some("MaybeIncorrect"));
        assert_eq!((s.line_start, s.column_start, s.column_end), (2, 9, 33));
        // The line parses with the types rust-analyzer deserialises.
        let line = message_line(None, &rustc);
        let parsed: cargo_metadata::diagnostic::Diagnostic =
            serde_json::from_str(&line).expect("a rustc diagnostic");
        let child = parsed.children.last().expect("child");
        assert_eq!(
            child.spans[0].suggestion_applicability,
            Some(cargo_metadata::diagnostic::Applicability::MaybeIncorrect)
        );
        assert_eq!(
            child.spans[0].suggested_replacement.as_deref(),
            Some("tool_error")
        );

        // Wrapped as cargo does, the line is a `compiler-message` for rust-analyzer's parser,
        // and the fix child has what its quick fixes need: primary spans with replacements.
        let target = serde_json::json!({
            "kind": ["lib"], "crate_types": ["lib"], "name": "server",
            "src_path": "/ws/src/lib.rs", "edition": "2021",
            "doc": true, "doctest": true, "test": true
        });
        let owner = Owner {
            package_id: "path+file:///ws#server@0.1.0",
            manifest_path: Path::new("/ws/Cargo.toml"),
            target: &target,
        };
        let line = message_line(Some(&owner), &rustc);
        let mut parsed = cargo_metadata::Message::parse_stream(line.as_bytes());
        let Some(Ok(cargo_metadata::Message::CompilerMessage(m))) = parsed.next() else {
            panic!("not a compiler-message: {line}");
        };
        assert_eq!(m.package_id.repr, "path+file:///ws#server@0.1.0");
        assert_eq!(m.target.name, "server");
        let fix = m.message.children.last().expect("fix child");
        assert!(fix
            .spans
            .iter()
            .all(|s| s.is_primary && s.suggested_replacement.is_some()));
        assert_eq!(fix.spans[0].byte_start as usize, start);
    }

    /// The two reports of `related_reports`, written as `check --message-format=json` does
    /// (paths made absolute under `/ws`, no owner), each line parsed as rust-analyzer does.
    fn related_messages(
        options: &JsonOptions,
    ) -> (Vec<cargo_metadata::diagnostic::Diagnostic>, String) {
        let reports = crate::test_support::related_reports();
        let locate = |p: &Path| Located {
            file_name: Path::new("/ws").join(p).display().to_string(),
            owner: None,
        };
        let (mut out, mut err) = (Vec::new(), Vec::new());
        write_messages(&mut out, &mut err, &reports, &locate, options).expect("writes");
        let out = String::from_utf8(out).expect("UTF-8");
        let parsed = out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
            .collect();
        (parsed, String::from_utf8(err).expect("UTF-8"))
    }

    #[test]
    fn related_locations_are_note_children_with_a_primary_span_in_their_file() {
        let (messages, _) = related_messages(&JsonOptions::default());
        assert_eq!(messages.len(), 1, "one finding, one line");
        let m = &messages[0];
        let notes: Vec<_> = m.children.iter().filter(|c| !c.spans.is_empty()).collect();
        assert_eq!(notes.len(), 2, "{m:?}");
        let same = &notes[0];
        assert_eq!(
            same.level,
            cargo_metadata::diagnostic::DiagnosticLevel::Note
        );
        assert_eq!(same.message, "`check` builds the error here");
        let s = &same.spans[0];
        assert!(s.is_primary && s.label.is_none() && s.suggested_replacement.is_none());
        assert_eq!(s.file_name, "/ws/src/tools.rs");
        assert_eq!((s.line_start, s.column_start, s.column_end), (2, 9, 46));
        assert_eq!(
            s.text[0].text,
            "    Err(McpError::internal_error(\"bad\", None))"
        );
        let other = &notes[1].spans[0];
        assert_eq!(other.file_name, "/ws/src/helpers.rs");
        assert_eq!((other.line_start, other.column_start), (2, 22));
        let start = crate::test_support::HELPERS
            .find("McpError::invalid")
            .expect("needle");
        assert_eq!(other.byte_start as usize, start);
        assert_eq!(other.text[0].highlight_start, 22);
        // Notes come before help, as rustc orders them.
        assert_eq!(
            m.children.last().expect("help").message,
            "return a tool result"
        );
        let rendered = m.rendered.as_deref().expect("rendered");
        assert!(
            rendered.ends_with(
                "  note: /ws/src/tools.rs:2:9: `check` builds the error here\n  \
                 note: /ws/src/helpers.rs:2:22: `load` builds the error here\n"
            ),
            "{rendered}"
        );

        let (_, err) = related_messages(&JsonOptions {
            render_diagnostics: true,
            ..JsonOptions::default()
        });
        assert!(err.contains("note: /ws/src/helpers.rs:2:22:"), "{err}");
    }

    #[test]
    fn undecodable_files_have_spans_without_text() {
        let lint = lints::registry::find("MCP900").expect("MCP900");
        let d = Diagnostic::new(
            lint,
            Span {
                start_line: 1,
                start_column: 1,
                end_line: 1,
                end_column: 1,
                ..Span::default()
            },
            "not UTF-8",
        );
        let rustc = diagnostic("x.rs", None, &d, &[], &JsonOptions::default());
        assert!(rustc.spans[0].text.is_empty());
        let parsed: cargo_metadata::diagnostic::Diagnostic =
            serde_json::from_str(&message_line(None, &rustc)).expect("parses");
        assert_eq!(parsed.spans.len(), 1);
    }
}
