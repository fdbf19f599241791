//! Our findings as LSP diagnostics. Ranges come from the findings' byte offsets through the
//! document's line index, in the negotiated encoding. `data` carries what the code actions need
//! (the fix's edits as LSP ranges, and where a suppression comment goes), with the document
//! version it was computed for.
//!
//! Related locations become `relatedInformation` (a location in an open document is ranged in
//! its current text, one in another file in the text on disk, which is what the analysis read)
//! when the client says it supports it; for other clients they are `note: path:line:col:
//! message` lines of the message, paths relative to the workspace folder.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use lsp_types::{
    DiagnosticRelatedInformation, DiagnosticSeverity, DiagnosticTag, Location, NumberOrString,
    Position, TextEdit, Url,
};
use serde::{Deserialize, Serialize};

use lints::{Applicability, Group, Level, Related};

use super::document::{Document, Encoding};
use crate::report::related::related_note;
use crate::workspace::paths::relative_to;

pub const SOURCE: &str = "mcp-lint";

/// What a published diagnostic carries in `data`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiagnosticData {
    /// The document version the ranges below refer to.
    pub version: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fix: Option<FixData>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suppress: Option<SuppressData>,
}

/// A fix, converted to LSP edits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FixData {
    pub title: String,
    /// rustc's words: `MachineApplicable`, `MaybeIncorrect`, `HasPlaceholders`, `Unspecified`.
    pub applicability: String,
    pub edits: Vec<TextEdit>,
}

/// A `// mcp-lint: allow(<lint>) ` line to insert above the finding, with no reason: the user
/// writes it (the cursor is put there), and until they do `suppression_without_reason` says so.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SuppressData {
    pub lint: String,
    /// Start of the finding's first line: the new line goes in front of it.
    pub position: Position,
    /// The line's indentation, then the directive, ending where the reason goes.
    pub directive: String,
    /// The line terminator to end the new line with.
    pub eol: String,
    /// Where the reason goes once the line is inserted.
    pub cursor: Position,
}

impl SuppressData {
    pub fn edit(&self) -> TextEdit {
        TextEdit::new(
            lsp_types::Range::new(self.position, self.position),
            format!("{}{}", self.directive, self.eol),
        )
    }
}

/// How related locations are published, and the files they point into.
pub struct RelatedFiles<'a> {
    /// Did the client say it shows `relatedInformation`? Otherwise they go into the message.
    supported: bool,
    /// What folded paths are shown relative to.
    cwd: &'a Path,
    open: HashMap<&'a Path, &'a Document>,
    /// Files that are not open, read once each (`None`: unreadable or not UTF-8).
    on_disk: HashMap<PathBuf, Option<Document>>,
}

impl<'a> RelatedFiles<'a> {
    pub fn new(
        supported: bool,
        cwd: &'a Path,
        open: impl IntoIterator<Item = &'a Document>,
    ) -> RelatedFiles<'a> {
        RelatedFiles {
            supported,
            cwd,
            open: open
                .into_iter()
                .filter_map(|d| Some((d.path.as_deref()?, d)))
                .collect(),
            on_disk: HashMap::new(),
        }
    }

    /// Where `related` is, in the client's terms; `None` when its path is not absolute (so it
    /// has no `file:` URI).
    fn location(&mut self, related: &Related, encoding: Encoding) -> Option<Location> {
        let span = &related.span;
        if let Some(doc) = self.open.get(related.path.as_path()) {
            return Some(Location::new(
                doc.uri.clone(),
                doc.range(span.start, span.end, encoding),
            ));
        }
        let uri = Url::from_file_path(&related.path).ok()?;
        let read = self.on_disk.entry(related.path.clone()).or_insert_with(|| {
            let text = crate::read::read_text(&related.path, crate::read::MAX_SOURCE_BYTES).ok()?;
            Some(Document::new(uri.clone(), 0, text))
        });
        let range = match read {
            Some(doc) => doc.range(span.start, span.end, encoding),
            // Without the text, the span's own lines and character columns.
            None => {
                let position = |line: usize, column: usize| {
                    Position::new(
                        u32::try_from(line.saturating_sub(1)).unwrap_or(u32::MAX),
                        u32::try_from(column.saturating_sub(1)).unwrap_or(u32::MAX),
                    )
                };
                lsp_types::Range::new(
                    position(span.start_line, span.start_column),
                    position(span.end_line, span.end_column),
                )
            }
        };
        Some(Location::new(uri, range))
    }
}

/// `d` (found in `doc`'s current text) as an LSP diagnostic; its related locations as `files`
/// says.
pub fn diagnostic(
    d: &lints::Diagnostic,
    doc: &Document,
    encoding: Encoding,
    files: &mut RelatedFiles<'_>,
) -> lsp_types::Diagnostic {
    let mut message = d.message.clone();
    if let Some(label) = &d.label {
        message.push('\n');
        message.push_str(label);
    }
    if let Some(help) = &d.help {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    for note in &d.notes {
        message.push_str("\nnote: ");
        message.push_str(note);
    }
    let mut related_information = Vec::new();
    for related in &d.related {
        let location = if files.supported {
            files.location(related, encoding)
        } else {
            None
        };
        match location {
            Some(location) => related_information.push(DiagnosticRelatedInformation {
                location,
                message: related.message.clone(),
            }),
            None => {
                message.push('\n');
                message.push_str(&related_note(
                    &relative_to(&related.path, files.cwd),
                    related,
                ));
            }
        }
    }
    let severity = if d.is_error() {
        DiagnosticSeverity::ERROR
    } else {
        DiagnosticSeverity::WARNING
    };
    let tags = (d.lint.name == lints::lints::unused_suppression::LINT.name)
        .then(|| vec![DiagnosticTag::UNNECESSARY]);
    let data = DiagnosticData {
        version: doc.version,
        fix: d.fix.as_ref().map(|fix| FixData {
            title: fix.message.clone(),
            applicability: fix.applicability.as_str().to_string(),
            edits: fix
                .edits
                .iter()
                .map(|e| TextEdit::new(doc.range(e.start, e.end, encoding), e.replacement.clone()))
                .collect(),
        }),
        suppress: suppression(d, doc, encoding),
    };
    lsp_types::Diagnostic {
        range: doc.range(d.span.start, d.span.end, encoding),
        severity: Some(severity),
        code: Some(NumberOrString::String(d.lint.name.to_string())),
        code_description: None,
        source: Some(SOURCE.to_string()),
        message,
        related_information: (!related_information.is_empty()).then_some(related_information),
        tags,
        data: serde_json::to_value(data).ok(),
    }
}

/// Is `applicability` one a quick fix is offered for? As rust-analyzer does with rustc's
/// suggestions: sure and likely fixes, not ones with placeholders or of unknown quality.
pub fn offered(applicability: &str) -> bool {
    applicability == Applicability::MachineApplicable.as_str()
        || applicability == Applicability::MaybeIncorrect.as_str()
}

/// Where an inline suppression for `d` goes, if it can be suppressed inline: not a `meta`
/// finding, not at `forbid`, and not one whose first line starts inside a multi-line string
/// or block comment (a comment line inserted there would change the literal, or do nothing).
fn suppression(d: &lints::Diagnostic, doc: &Document, encoding: Encoding) -> Option<SuppressData> {
    if d.lint.group == Group::Meta || d.level == Level::Forbid {
        return None;
    }
    let text = &doc.text;
    let line = doc.index.line_of(d.span.start);
    let range = doc.index.line_range(text, line);
    if inside_literal_or_comment(text, range.start) {
        return None;
    }
    let content = &text[range];
    let indent = &content[..content.len() - content.trim_start().len()];
    let directive = format!("{indent}// mcp-lint: allow({}) ", d.lint.name);
    let eol = match doc.index.line_ending(text, line) {
        "" => match doc.index.line_ending(text, 0) {
            "" => "\n",
            first => first,
        },
        own => own,
    };
    let line = u32::try_from(line).ok()?;
    Some(SuppressData {
        lint: d.lint.name.to_string(),
        position: Position::new(line, 0),
        cursor: Position::new(line, encoding.len(&directive)),
        directive,
        eol: eol.to_string(),
    })
}

/// Does byte `target` lie strictly inside a string, char or byte literal or a comment?
fn inside_literal_or_comment(text: &str, target: usize) -> bool {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() && i < target {
        let start = i;
        let end = match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => text[i..].find('\n').map_or(b.len(), |n| i + n),
            b'/' if b.get(i + 1) == Some(&b'*') => block_comment_end(b, i),
            b'"' => string_end(b, i),
            b'\'' => quote_end(b, i),
            c if c == b'_' || c.is_ascii_alphabetic() => {
                let word_end = i + b[i..]
                    .iter()
                    .take_while(|c| **c == b'_' || c.is_ascii_alphanumeric())
                    .count();
                match (&text[i..word_end], b.get(word_end)) {
                    ("r" | "br" | "cr", Some(b'"' | b'#')) => raw_string_end(b, word_end),
                    ("b" | "c", Some(b'"')) => string_end(b, word_end),
                    ("b", Some(b'\'')) => quote_end(b, word_end),
                    _ => word_end,
                }
            }
            _ => i + text[i..].chars().next().map_or(1, char::len_utf8),
        };
        if start < target && target < end {
            return true;
        }
        i = end.max(i + 1);
    }
    false
}

/// End of a (nested) block comment starting at `i`.
fn block_comment_end(b: &[u8], mut i: usize) -> usize {
    let mut depth = 0usize;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            depth += 1;
            i += 2;
        } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    b.len()
}

/// End of a string whose opening quote is at `i`.
fn string_end(b: &[u8], mut i: usize) -> usize {
    i += 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    b.len()
}

/// End of a raw string whose `#`s or opening quote start at `i`.
fn raw_string_end(b: &[u8], i: usize) -> usize {
    let hashes = b[i..].iter().take_while(|c| **c == b'#').count();
    if b.get(i + hashes) != Some(&b'"') {
        return i + hashes.max(1);
    }
    let mut j = i + hashes + 1;
    while j < b.len() {
        if b[j] == b'"'
            && b[j + 1..]
                .iter()
                .take(hashes)
                .filter(|c| **c == b'#')
                .count()
                == hashes
        {
            return j + 1 + hashes;
        }
        j += 1;
    }
    b.len()
}

/// End of a char literal, or of a lifetime or label, whose quote is at `i`.
fn quote_end(b: &[u8], i: usize) -> usize {
    if b.get(i + 1) == Some(&b'\\') {
        // '\n', '\'', '\u{..}': the closing quote after the escaped character.
        let from = (i + 3).min(b.len());
        return b[from..]
            .iter()
            .position(|c| *c == b'\'')
            .map_or(b.len(), |n| from + n + 1);
    }
    let ch_len = std::str::from_utf8(&b[i + 1..])
        .ok()
        .and_then(|s| s.chars().next())
        .map_or(1, char::len_utf8);
    if b.get(i + 1 + ch_len) == Some(&b'\'') {
        return i + 2 + ch_len;
    }
    // A lifetime or label: the quote only.
    i + 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use lints::{Diagnostic, Edit, Fix, SourceFile};
    use lsp_types::{Range, Url};

    fn doc(text: &str) -> Document {
        Document::new(
            Url::parse("file:///p/src/lib.rs").expect("uri"),
            7,
            text.into(),
        )
    }

    fn finding(lint: &'static lints::Lint, text: &str, needle: &str) -> Diagnostic {
        let start = text.find(needle).expect("needle");
        let span = SourceFile::new("lib.rs".into(), text.into()).span(start, start + needle.len());
        Diagnostic::new(lint, span, "tool `read` reports a tool failure")
            .with_label("the model never sees this")
            .with_help("return an error result")
            .with_note("a note")
    }

    const MCP001: &lints::Lint = &lints::lints::tool_failure_as_protocol_error::LINT;

    /// `d` in `doc` for a client that shows related information.
    fn converted(d: &Diagnostic, doc: &Document, encoding: Encoding) -> lsp_types::Diagnostic {
        diagnostic(
            d,
            doc,
            encoding,
            &mut RelatedFiles::new(true, Path::new("/p"), [doc]),
        )
    }

    #[test]
    fn related_locations_are_related_information_in_open_documents_and_files_on_disk() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path().canonicalize().expect("canonical");
        let helpers =
            "fn load() {\n    let _ = \"🦀\"; Err(McpError::invalid_params(\"no\", None))\n}\n";
        crate::test_support::write(&dir, "src/helpers.rs", helpers);
        let helpers_path = dir.join("src/helpers.rs");
        let text = "fn check() {\n    Err(McpError::internal_error(\"x\", None))\n}\nfn read() { check()?; }\n";
        let here = doc(text);
        let open_path = dir.join("src/open.rs");
        let open = Document::new(
            Url::from_file_path(&open_path).expect("uri"),
            3,
            "\n\n  🦀 x\n".into(),
        );
        let span = |path: &Path, text: &str, needle: &str| {
            crate::test_support::span_of(&path.display().to_string(), text, needle)
        };
        let lib = Path::new("/p/src/lib.rs");
        let d = finding(MCP001, text, "check()?")
            .with_related(
                lib,
                span(lib, text, "McpError::internal_error(\"x\", None)"),
                "here",
            )
            .with_related(
                &helpers_path,
                span(
                    &helpers_path,
                    helpers,
                    "McpError::invalid_params(\"no\", None)",
                ),
                "on disk",
            )
            .with_related(&open_path, span(&open_path, &open.text, "x"), "open")
            .with_related(
                dir.join("gone.rs"),
                lints::Span {
                    start: 0,
                    end: 0,
                    start_line: 4,
                    start_column: 2,
                    end_line: 4,
                    end_column: 5,
                },
                "unreadable",
            )
            .with_related("relative.rs", lints::Span::default(), "no URI");
        let mut files = RelatedFiles::new(true, &dir, [&here, &open]);
        let lsp = diagnostic(&d, &here, Encoding::Utf16, &mut files);
        let info = lsp.related_information.expect("related information");
        let got: Vec<(&str, Range, &str)> = info
            .iter()
            .map(|i| {
                (
                    i.location.uri.as_str(),
                    i.location.range,
                    i.message.as_str(),
                )
            })
            .collect();
        let uri = |p: &Path| Url::from_file_path(p).expect("uri").to_string();
        let range = |l0, c0, l1, c1| Range::new(Position::new(l0, c0), Position::new(l1, c1));
        let (helpers_uri, gone_uri) = (uri(&helpers_path), uri(&dir.join("gone.rs")));
        assert_eq!(
            got,
            vec![
                ("file:///p/src/lib.rs", range(1, 8, 1, 43), "here"),
                // The crab is two UTF-16 units.
                (helpers_uri.as_str(), range(1, 22, 1, 58), "on disk"),
                (open.uri.as_str(), range(2, 5, 2, 6), "open"),
                (gone_uri.as_str(), range(3, 1, 3, 4), "unreadable"),
            ]
        );
        // What has no file URI is folded into the message.
        assert!(
            lsp.message.ends_with("\nnote: relative.rs:0:0: no URI"),
            "{}",
            lsp.message
        );
    }

    #[test]
    fn related_locations_fold_into_the_message_for_clients_without_related_information() {
        let text = "fn check() {\n    Err(McpError::internal_error(\"x\", None))\n}\nfn read() { check()?; }\n";
        let here = doc(text);
        let lib = Path::new("/p/src/lib.rs");
        let d = finding(MCP001, text, "check()?")
            .with_related(
                lib,
                crate::test_support::span_of("lib.rs", text, "McpError"),
                "`check` builds the error here",
            )
            .with_related(
                "/p/src/helpers.rs",
                crate::test_support::span_of("h.rs", "\nab", "b"),
                "`load` builds the error\nhere",
            );
        let mut files = RelatedFiles::new(false, Path::new("/p"), [&here]);
        let lsp = diagnostic(&d, &here, Encoding::Utf16, &mut files);
        assert_eq!(lsp.related_information, None);
        assert_eq!(
            lsp.message,
            "tool `read` reports a tool failure\nthe model never sees this\n\
             help: return an error result\nnote: a note\n\
             note: src/lib.rs:2:9: `check` builds the error here\n\
             note: src/helpers.rs:2:2: `load` builds the error here"
        );
        let plain = finding(MCP001, text, "check()?");
        let lsp = diagnostic(&plain, &here, Encoding::Utf16, &mut files);
        assert!(lsp.message.ends_with("note: a note"), "{}", lsp.message);
        assert_eq!(lsp.related_information, None);
    }

    #[test]
    fn fields_map_and_ranges_count_utf16_units() {
        let text = "fn f() {\n\t\tlet _ = \"📄é\"; Err(McpError::internal_error(\"x\", None))\n}\n";
        let d = finding(MCP001, text, "McpError::internal_error(\"x\", None)");
        let lsp = converted(&d, &doc(text), Encoding::Utf16);
        // Columns: two tabs, `let _ = "`, the emoji (2 units), `é`, `"; Err(`.
        assert_eq!(
            lsp.range,
            Range::new(Position::new(1, 21), Position::new(1, 56))
        );
        assert_eq!(lsp.severity, Some(DiagnosticSeverity::ERROR));
        assert_eq!(
            lsp.code,
            Some(NumberOrString::String(
                "tool_failure_as_protocol_error".into()
            ))
        );
        assert_eq!(lsp.source.as_deref(), Some("mcp-lint"));
        assert_eq!(
            lsp.message,
            "tool `read` reports a tool failure\nthe model never sees this\n\
             help: return an error result\nnote: a note"
        );
        assert_eq!(lsp.tags, None);
        let utf8 = converted(&d, &doc(text), Encoding::Utf8);
        assert_eq!(utf8.range.start, Position::new(1, 24));

        let data: DiagnosticData =
            serde_json::from_value(lsp.data.expect("data")).expect("our data");
        assert_eq!(data.version, 7);
        assert_eq!(data.fix, None);
        assert_eq!(
            data.suppress,
            Some(SuppressData {
                lint: "tool_failure_as_protocol_error".into(),
                position: Position::new(1, 0),
                directive: "\t\t// mcp-lint: allow(tool_failure_as_protocol_error) ".into(),
                eol: "\n".into(),
                cursor: Position::new(1, 53),
            })
        );
    }

    #[test]
    fn fixes_become_lsp_edits_in_data() {
        let text = "fn f() {\n    Err(McpError::internal_error(\"é\", None))\n}\n";
        let mut d = finding(MCP001, text, "Err(McpError::internal_error(\"é\", None))");
        d.level = Level::Warn;
        let start = text.find("Err(").expect("Err");
        let end = start + "Err(McpError::internal_error(\"é\", None))".len();
        d.fix = Some(Fix {
            message: "return an error result".into(),
            applicability: Applicability::MachineApplicable,
            edits: vec![Edit {
                start,
                end,
                replacement: "Ok(CallToolResult::error(vec![]))".into(),
            }],
        });
        let lsp = converted(&d, &doc(text), Encoding::Utf16);
        assert_eq!(lsp.severity, Some(DiagnosticSeverity::WARNING));
        let data: DiagnosticData = serde_json::from_value(lsp.data.expect("data")).expect("data");
        assert_eq!(
            data.fix,
            Some(FixData {
                title: "return an error result".into(),
                applicability: "MachineApplicable".into(),
                edits: vec![TextEdit::new(
                    Range::new(Position::new(1, 4), Position::new(1, 44)),
                    "Ok(CallToolResult::error(vec![]))".into()
                )],
            })
        );
        assert!(offered(&data.fix.expect("fix").applicability));
        assert!(!offered("HasPlaceholders"));
    }

    #[test]
    fn meta_forbid_and_findings_starting_inside_literals_get_no_suppression() {
        let text = "fn f() {\n    // mcp-lint: allow(MCP001)\n    x()\n}\n";
        let d = finding(
            &lints::lints::suppression_without_reason::LINT,
            text,
            "// mcp-lint",
        );
        let data = |d: &Diagnostic, text: &str| -> DiagnosticData {
            let lsp = converted(d, &doc(text), Encoding::Utf16);
            serde_json::from_value(lsp.data.expect("data")).expect("data")
        };
        assert_eq!(data(&d, text).suppress, None);

        let mut d = finding(MCP001, text, "x()");
        d.level = Level::Forbid;
        assert_eq!(data(&d, text).suppress, None);

        let text = "fn f() { let s = r#\"a\nb\"#; g(\"c\n\"); x() }\n";
        let d = finding(MCP001, text, "x()");
        assert_eq!(data(&d, text).suppress, None, "line starts inside a string");
        let text = "fn f() { /* a\n */ x() }\n";
        let d = finding(MCP001, text, "x()");
        assert_eq!(
            data(&d, text).suppress,
            None,
            "line starts inside a comment"
        );
        // Quotes in comments, lifetimes, char literals and raw strings do not confuse the scan.
        let text =
            "fn f<'a>() { let _ = ['\"', '\\'', b'\"']; // \"\n  let _ = r#\"\"\"#;\n  x() }\r\n";
        let d = finding(MCP001, text, "x()");
        let suppress = data(&d, text).suppress.expect("suppressible");
        assert_eq!(suppress.position, Position::new(2, 0));
        assert_eq!(
            suppress.directive,
            "  // mcp-lint: allow(tool_failure_as_protocol_error) "
        );
        assert_eq!(suppress.eol, "\r\n");
    }

    #[test]
    fn unused_suppressions_are_tagged_unnecessary() {
        let text = "// mcp-lint: allow(MCP001) why\nfn f() {}\n";
        let d = finding(&lints::lints::unused_suppression::LINT, text, "// mcp-lint");
        let lsp = converted(&d, &doc(text), Encoding::Utf16);
        assert_eq!(lsp.tags, Some(vec![DiagnosticTag::UNNECESSARY]));
    }
}
