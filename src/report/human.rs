//! Human output: miette's graphical renderer behind our own [`lints::Diagnostic`].
//!
//! Lints never see miette; this adapter is the only place that does. The header reads
//! `error[MCP001/tool_failure_as_protocol_error]: <message>`, the label sits under the primary
//! span, then `help:`, one `note:` line per note and one `note: path:line:col: message` line per
//! related location. Related locations are notes even in the finding's own file: as secondary
//! labels, miette would print the snippets in file order, and one above the finding would take
//! the place of the finding's own location at the top.

use std::fmt;

use lints::{Diagnostic, FileReport, Level, SourceFile};
use miette::{
    GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteError, MietteSpanContents, Severity,
    SourceCode, SourceSpan, SpanContents,
};

/// How human output looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HumanStyle {
    /// ANSI colours.
    pub color: bool,
    /// Wrap width in columns.
    pub width: usize,
}

impl HumanStyle {
    /// No colour, width 100: stable output for blessed snapshots.
    pub fn plain() -> Self {
        HumanStyle {
            color: false,
            width: 100,
        }
    }
}

impl Default for HumanStyle {
    fn default() -> Self {
        HumanStyle::plain()
    }
}

/// `MCP001/tool_failure_as_protocol_error`: how a finding's lint is named in reports.
pub fn lint_identity(diagnostic: &Diagnostic) -> String {
    format!("{}/{}", diagnostic.lint.code, diagnostic.lint.name)
}

/// Render one finding as a multi-line report ending in a newline.
pub fn render(source: &SourceFile, diagnostic: &Diagnostic, style: &HumanStyle) -> String {
    let adapter = Adapter {
        diagnostic,
        source: FileSource {
            name: source.path.display().to_string(),
            text: &source.text,
        },
        span: clamp_span(&source.text, diagnostic.span.start, diagnostic.span.end),
    };
    let mut theme = if style.color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    // The severity "icon" becomes rustc's header: `error[CODE/name]:`.
    let header = format!(
        "{}[{}]:",
        diagnostic.level.severity(),
        lint_identity(diagnostic)
    );
    theme.characters.error = header.clone();
    theme.characters.warning = header;
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(style.width)
        .with_links(false)
        .with_urls(false);
    let mut out = String::new();
    if handler.render_report(&mut out, &adapter).is_err() {
        // miette only fails when the span lies outside the text; fall back to a plain header.
        out = format!(
            "  {}[{}]: {}\n   at {}:{}:{}\n",
            diagnostic.level.severity(),
            lint_identity(diagnostic),
            diagnostic.message,
            source.path.display(),
            diagnostic.span.start_line,
            diagnostic.span.start_column
        );
    }
    for note in &diagnostic.notes {
        out.push_str(&wrap_note(note, style.width));
    }
    for related in &diagnostic.related {
        let note = format!(
            "{}: {}",
            super::related::related_place(&related.path, related),
            super::related::related_message(related)
        );
        out.push_str(&wrap_note(&note, style.width));
    }
    out
}

/// Every finding, a blank line between reports, then the summary line.
pub fn write(
    out: &mut dyn std::io::Write,
    reports: &[FileReport],
    summary: &super::summary::Summary,
    style: &HumanStyle,
) -> std::io::Result<()> {
    for report in reports {
        // Undecodable files have no text to show; render against an empty one.
        let empty;
        let source = match &report.source {
            Some(source) => source.as_ref(),
            None => {
                empty = SourceFile::new(report.path.clone(), String::new());
                &empty
            }
        };
        for d in &report.diagnostics {
            writeln!(out, "{}", render(source, d, style))?;
        }
    }
    writeln!(out, "{}", summary.line())?;
    match crate::fix::availability(reports) {
        Some(fixes) => writeln!(out, "{fixes}"),
        None => Ok(()),
    }
}

/// `  note: text`, wrapped like miette wraps `help:`.
fn wrap_note(note: &str, width: usize) -> String {
    let first = "  note: ";
    let rest = " ".repeat(first.len());
    let mut out = String::new();
    let mut line = String::from(first);
    let mut line_has_word = false;
    for word in note.split_whitespace() {
        if line_has_word && line.chars().count() + 1 + word.chars().count() > width {
            out.push_str(line.trim_end());
            out.push('\n');
            line = rest.clone();
            line_has_word = false;
        }
        if line_has_word {
            line.push(' ');
        }
        line.push_str(word);
        line_has_word = true;
    }
    out.push_str(line.trim_end());
    out.push('\n');
    out
}

/// A byte range miette can render: inside the text and on char boundaries.
fn clamp_span(text: &str, start: usize, end: usize) -> SourceSpan {
    let (start, end) = clamp(text, start, end);
    SourceSpan::new(start.into(), end - start)
}

/// A byte range moved inside the text and onto char boundaries.
pub(crate) fn clamp(text: &str, start: usize, end: usize) -> (usize, usize) {
    let mut start = start.min(text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = end.clamp(start, text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    (start, end)
}

/// The file text under its display name, borrowed.
struct FileSource<'a> {
    name: String,
    text: &'a str,
}

impl SourceCode for FileSource<'_> {
    fn read_span<'b>(
        &'b self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'b> + 'b>, MietteError> {
        let inner = self
            .text
            .read_span(span, context_lines_before, context_lines_after)?;
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            *inner.span(),
            inner.line(),
            inner.column(),
            inner.line_count(),
        )))
    }
}

/// Our finding, seen through miette's `Diagnostic` trait.
struct Adapter<'a> {
    diagnostic: &'a Diagnostic,
    source: FileSource<'a>,
    span: SourceSpan,
}

impl fmt::Debug for Adapter<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Adapter")
            .field("diagnostic", self.diagnostic)
            .finish()
    }
}

impl fmt::Display for Adapter<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diagnostic.message)
    }
}

impl std::error::Error for Adapter<'_> {}

impl miette::Diagnostic for Adapter<'_> {
    fn severity(&self) -> Option<Severity> {
        Some(match self.diagnostic.level {
            Level::Deny | Level::Forbid => Severity::Error,
            Level::Warn | Level::Allow => Severity::Warning,
        })
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.diagnostic
            .help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let label = LabeledSpan::new_primary_with_span(self.diagnostic.label.clone(), self.span);
        Some(Box::new(std::iter::once(label)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(source: &SourceFile, needle: &str, level: Level) -> Diagnostic {
        let start = source.text.find(needle).expect("needle in text");
        let lint = lints::registry::find("MCP001").expect("MCP001 is registered");
        let mut d = Diagnostic::new(
            lint,
            source.span(start, start + needle.len()),
            "tool failure",
        )
        .with_label("sent as a protocol error")
        .with_help("return Ok(CallToolResult::error(..))")
        .with_note("the model never sees protocol errors");
        d.level = level;
        d
    }

    #[test]
    fn plain_render_has_header_location_label_help_and_note() {
        let source = SourceFile::new(
            "src/lib.rs".into(),
            "fn f() {\n    Err(McpError::internal_error(\"x\", None))\n}\n".into(),
        );
        let d = finding(
            &source,
            "McpError::internal_error(\"x\", None)",
            Level::Deny,
        );
        let out = render(&source, &d, &HumanStyle::plain());
        assert!(
            out.contains("error[MCP001/tool_failure_as_protocol_error]: tool failure"),
            "{out}"
        );
        assert!(out.contains("[src/lib.rs:2:9]"), "{out}");
        assert!(out.contains("sent as a protocol error"), "{out}");
        assert!(
            out.contains("help: return Ok(CallToolResult::error(..))"),
            "{out}"
        );
        assert!(
            out.contains("note: the model never sees protocol errors"),
            "{out}"
        );
        assert!(
            !out.contains('\u{1b}'),
            "plain output has no escapes: {out}"
        );
    }

    #[test]
    fn warnings_say_warning_and_colour_adds_escapes() {
        let source = SourceFile::new("a.rs".into(), "fn f() { g() }\n".into());
        let d = finding(&source, "g()", Level::Warn);
        let style = HumanStyle {
            color: true,
            width: 80,
        };
        let out = render(&source, &d, &style);
        assert!(out.contains("warning[MCP001/"), "{out}");
        assert!(out.contains('\u{1b}'), "{out}");
    }

    #[test]
    fn related_locations_are_notes_after_help_and_notes() {
        let reports = crate::test_support::related_reports();
        let report = &reports[1];
        let source = report.source.as_deref().expect("source");
        let mut d = report.diagnostics[0].clone();
        d.notes.push("a plain note".into());
        let out = render(source, &d, &HumanStyle::plain());
        assert!(out.contains("[src/tools.rs:6:5]"), "{out}");
        assert!(
            out.ends_with(
                "  help: return a tool result\n  note: a plain note\n\
                 \x20 note: src/tools.rs:2:9: `check` builds the error here\n\
                 \x20 note: src/helpers.rs:2:22: `load` builds the error here\n"
            ),
            "{out}"
        );
        d.related.clear();
        d.notes.clear();
        let plain = render(source, &d, &HumanStyle::plain());
        assert!(plain.ends_with("  help: return a tool result\n"), "{plain}");
    }

    #[test]
    fn out_of_range_and_empty_spans_do_not_panic() {
        let source = SourceFile::new("é.rs".into(), "é".into());
        let lint = lints::registry::find("MCP900").expect("parse_error is registered");
        let mut d = Diagnostic::new(lint, source.span(0, 0), "empty");
        d.span.start = 1;
        d.span.end = 99;
        let out = render(&source, &d, &HumanStyle::plain());
        assert!(out.contains("error[MCP900/parse_error]: empty"), "{out}");
        let empty = SourceFile::new("e.rs".into(), String::new());
        let d = Diagnostic::new(lint, empty.span(0, 0), "nothing here");
        assert!(render(&empty, &d, &HumanStyle::plain()).contains("nothing here"));
    }
}
