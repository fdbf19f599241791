//! JUnit XML, laid out as ruff's `junit` format: one `<testsuite>` per file with findings, one
//! failing `<testcase>` per finding (`classname` is the path without its extension, `line` and
//! `column` attributes, the message as the failure's `message`, and in the failure's text one
//! `note: path:line:col: message` line per related location after ruff's `line L, col C,
//! message`). A run without findings is one
//! passing test case, `No errors found`, so CI systems still see a result.

use std::fmt::Write as _;
use std::io::{self, Write};

use lints::FileReport;

use crate::report::human::lint_identity;
use crate::report::related::related_note;

pub fn write(out: &mut dyn Write, reports: &[FileReport]) -> io::Result<()> {
    out.write_all(render(reports).as_bytes())
}

/// The whole document.
pub fn render(reports: &[FileReport]) -> String {
    let total: usize = reports.iter().map(|r| r.diagnostics.len()).sum();
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    if total == 0 {
        xml.push_str("<testsuites name=\"mcp-lint\" tests=\"1\" failures=\"0\" errors=\"0\">\n");
        xml.push_str(
            "    <testsuite name=\"mcp-lint\" tests=\"1\" disabled=\"0\" errors=\"0\" failures=\"0\" package=\"mcp-lint\">\n",
        );
        xml.push_str("        <testcase name=\"No errors found\" classname=\"mcp-lint\"/>\n");
        xml.push_str("    </testsuite>\n</testsuites>\n");
        return xml;
    }
    let _ = writeln!(
        xml,
        "<testsuites name=\"mcp-lint\" tests=\"{total}\" failures=\"{total}\" errors=\"0\">"
    );
    for report in reports.iter().filter(|r| !r.diagnostics.is_empty()) {
        let path = report.path.display().to_string();
        let classname = report.path.with_extension("").display().to_string();
        let n = report.diagnostics.len();
        let _ = writeln!(
            xml,
            "    <testsuite name=\"{}\" tests=\"{n}\" disabled=\"0\" errors=\"0\" failures=\"{n}\" package=\"mcp-lint\">",
            escape(&path)
        );
        for d in &report.diagnostics {
            let (line, column) = (d.span.start_line, d.span.start_column);
            let _ = writeln!(
                xml,
                "        <testcase name=\"{}\" classname=\"{}\" line=\"{line}\" column=\"{column}\">",
                escape(&lint_identity(d)),
                escape(&classname)
            );
            let mut text = format!("line {line}, col {column}, {}", d.message);
            for related in &d.related {
                text.push('\n');
                text.push_str(&related_note(&related.path, related));
            }
            let _ = writeln!(
                xml,
                "            <failure message=\"{}\" type=\"{}\">{}</failure>",
                escape(&d.message),
                d.level.severity(),
                escape(&text)
            );
            xml.push_str("        </testcase>\n");
        }
        xml.push_str("    </testsuite>\n");
    }
    xml.push_str("</testsuites>\n");
    xml
}

/// Text for an attribute value or element content: markup characters and line breaks as
/// character references (so attribute values keep them), and characters XML 1.0 cannot carry
/// at all (most control characters) as U+FFFD.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\t' => out.push_str("&#9;"),
            c if is_xml_char(c) => out.push(c),
            _ => out.push('\u{FFFD}'),
        }
    }
    out
}

/// XML 1.0's `Char` production.
fn is_xml_char(c: char) -> bool {
    matches!(c, '\u{9}' | '\u{A}' | '\u{D}' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..='\u{10FFFF}')
}

#[cfg(test)]
mod tests {
    use super::*;
    use lints::registry::find;
    use lints::{Diagnostic, Level, Span};
    use std::path::PathBuf;

    fn report(path: &str, findings: &[(&str, Level, usize, usize, &str)]) -> FileReport {
        FileReport {
            path: PathBuf::from(path),
            source: None,
            diagnostics: findings
                .iter()
                .map(|(name, level, line, col, message)| {
                    let span = Span {
                        start: 0,
                        end: 1,
                        start_line: *line,
                        start_column: *col,
                        end_line: *line,
                        end_column: col + 1,
                    };
                    let mut d = Diagnostic::new(find(name).unwrap(), span, *message);
                    d.level = *level;
                    d
                })
                .collect(),
        }
    }

    fn attr<'a>(node: roxmltree::Node<'a, '_>, name: &str) -> &'a str {
        node.attribute(name)
            .unwrap_or_else(|| panic!("<{}> has no `{name}`", node.tag_name().name()))
    }

    #[test]
    fn one_suite_per_file_with_findings_and_one_failing_case_per_finding() {
        let reports = [
            report(
                "src/tools.rs",
                &[
                    (
                        "MCP001",
                        Level::Deny,
                        8,
                        26,
                        "tool `a` reports <-32603> & \"more\"",
                    ),
                    (
                        "MCP003",
                        Level::Warn,
                        12,
                        5,
                        "text is vague:\nline two\u{1}",
                    ),
                ],
            ),
            report("src/clean.rs", &[]),
            report("src/lib.rs", &[("MCP002", Level::Deny, 1, 1, "empty")]),
        ];
        let xml = render(&reports);
        let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}\n{xml}"));
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "testsuites");
        assert_eq!(attr(root, "tests"), "3");
        assert_eq!(attr(root, "failures"), "3");
        let suites: Vec<_> = root.children().filter(|n| n.is_element()).collect();
        let names: Vec<&str> = suites.iter().map(|s| attr(*s, "name")).collect();
        assert_eq!(names, ["src/tools.rs", "src/lib.rs"]);
        assert_eq!(attr(suites[0], "tests"), "2");
        assert_eq!(attr(suites[0], "failures"), "2");

        let cases: Vec<_> = suites[0].children().filter(|n| n.is_element()).collect();
        assert_eq!(cases.len(), 2);
        assert_eq!(
            attr(cases[0], "name"),
            "MCP001/tool_failure_as_protocol_error"
        );
        assert_eq!(attr(cases[0], "classname"), "src/tools");
        assert_eq!(attr(cases[0], "line"), "8");
        assert_eq!(attr(cases[0], "column"), "26");
        let failure = cases[0].first_element_child().unwrap();
        assert_eq!(failure.tag_name().name(), "failure");
        assert_eq!(
            attr(failure, "message"),
            "tool `a` reports <-32603> & \"more\""
        );
        assert_eq!(attr(failure, "type"), "error");
        assert_eq!(
            failure.text(),
            Some("line 8, col 26, tool `a` reports <-32603> & \"more\"")
        );
        let failure = cases[1].first_element_child().unwrap();
        assert_eq!(attr(failure, "type"), "warning");
        // The line break survives attribute normalisation; the control character cannot be
        // carried by XML 1.0 and is replaced.
        assert_eq!(attr(failure, "message"), "text is vague:\nline two\u{FFFD}");
    }

    #[test]
    fn related_locations_are_note_lines_of_the_failure_text() {
        let xml = render(&crate::test_support::related_reports());
        let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}\n{xml}"));
        let failure = doc
            .descendants()
            .find(|n| n.has_tag_name("failure"))
            .expect("a failure");
        assert_eq!(attr(failure, "message"), "tool `read` reports -32603");
        assert_eq!(
            failure.text(),
            Some(
                "line 6, col 5, tool `read` reports -32603\n\
                 note: src/tools.rs:2:9: `check` builds the error here\n\
                 note: src/helpers.rs:2:22: `load` builds the error here"
            )
        );
    }

    #[test]
    fn no_findings_is_one_passing_case() {
        let xml = render(&[report("src/clean.rs", &[])]);
        let doc = roxmltree::Document::parse(&xml).unwrap();
        let root = doc.root_element();
        assert_eq!(attr(root, "tests"), "1");
        assert_eq!(attr(root, "failures"), "0");
        let case = root
            .first_element_child()
            .unwrap()
            .first_element_child()
            .unwrap();
        assert_eq!(attr(case, "name"), "No errors found");
        assert!(case.first_element_child().is_none());
        assert_eq!(render(&[]), xml);
    }

    #[test]
    fn escaping() {
        assert_eq!(escape("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&apos;");
        assert_eq!(escape("x\r\n\ty"), "x&#13;&#10;&#9;y");
        assert_eq!(escape("\u{0}\u{1b}\u{FFFE}é"), "\u{FFFD}\u{FFFD}\u{FFFD}é");
    }
}
