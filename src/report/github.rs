//! GitHub Actions workflow commands, one annotation per finding, as ruff writes them:
//!
//! `::error title=mcp-lint (MCP001/tool_failure_as_protocol_error),file=src/tools.rs,line=8,col=26,endLine=8,endColumn=71::src/tools.rs:8:26: message`
//!
//! `file` is relative to the repository root (GitHub resolves it there, whatever directory the
//! step ran in); the text repeats the path as the other formats show it, and has one more line,
//! `note: path:line:col: message`, per related location. `col` and `endColumn`
//! are left out when the range spans lines, because GitHub rejects that combination. Data is
//! escaped as `@actions/core` does (`%`, CR, LF), properties also escape `:` and `,`.

use std::io::{self, Write};
use std::path::Path;

use lints::{Diagnostic, FileReport};

use crate::report::human::lint_identity;
use crate::report::related::related_note;
use crate::workspace::paths;

pub fn write(out: &mut dyn Write, reports: &[FileReport], cwd: &Path) -> io::Result<()> {
    let root = paths::repository_root(cwd);
    for report in reports {
        let file = paths::resolve(cwd, &report.path);
        let file = paths::below(&root, &file).unwrap_or_else(|| file.display().to_string());
        let shown = report.path.display().to_string();
        for d in &report.diagnostics {
            writeln!(out, "{}", annotation(&file, &shown, d))?;
        }
    }
    Ok(())
}

/// One `::error …::…` line (without the line break).
pub fn annotation(file: &str, shown: &str, d: &Diagnostic) -> String {
    let command = if d.is_error() { "error" } else { "warning" };
    let span = &d.span;
    let mut properties = vec![
        ("title", format!("mcp-lint ({})", lint_identity(d))),
        ("file", file.to_string()),
        ("line", span.start_line.to_string()),
    ];
    let one_line = span.start_line == span.end_line;
    if one_line {
        properties.push(("col", span.start_column.to_string()));
    }
    properties.push(("endLine", span.end_line.to_string()));
    if one_line {
        properties.push(("endColumn", span.end_column.to_string()));
    }
    let properties: Vec<String> = properties
        .iter()
        .map(|(k, v)| format!("{k}={}", escape_property(v)))
        .collect();
    let mut data = format!(
        "{shown}:{}:{}: {}",
        span.start_line, span.start_column, d.message
    );
    for related in &d.related {
        data.push('\n');
        data.push_str(&related_note(&related.path, related));
    }
    format!(
        "::{command} {}::{}",
        properties.join(","),
        escape_data(&data)
    )
}

/// `%`, CR and LF, as `@actions/core`'s `escapeData`.
pub fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Data escaping plus `:` and `,`, as `@actions/core`'s `escapeProperty`.
pub fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;
    use lints::registry::find;
    use lints::{Level, Span};

    fn finding(
        name: &str,
        level: Level,
        lines: (usize, usize),
        cols: (usize, usize),
    ) -> Diagnostic {
        let span = Span {
            start: 0,
            end: 1,
            start_line: lines.0,
            start_column: cols.0,
            end_line: lines.1,
            end_column: cols.1,
        };
        let mut d = Diagnostic::new(find(name).unwrap(), span, "tool `read_file` reports -32603");
        d.level = level;
        d
    }

    #[test]
    fn one_line_ranges_carry_columns() {
        let d = finding("MCP001", Level::Deny, (8, 8), (26, 71));
        assert_eq!(
            annotation("src/tools.rs", "src/tools.rs", &d),
            "::error title=mcp-lint (MCP001/tool_failure_as_protocol_error),file=src/tools.rs,\
             line=8,col=26,endLine=8,endColumn=71::src/tools.rs:8:26: tool `read_file` reports -32603"
        );
    }

    #[test]
    fn multi_line_ranges_omit_columns_and_warnings_are_warnings() {
        let d = finding("vague_error_text", Level::Warn, (3, 5), (9, 2));
        assert_eq!(
            annotation("srv/src/a.rs", "src/a.rs", &d),
            "::warning title=mcp-lint (MCP003/vague_error_text),file=srv/src/a.rs,line=3,\
             endLine=5::src/a.rs:3:9: tool `read_file` reports -32603"
        );
        let forbid = finding("MCP001", Level::Forbid, (1, 1), (1, 2));
        assert!(annotation("a.rs", "a.rs", &forbid).starts_with("::error "));
    }

    #[test]
    fn related_locations_are_note_lines_of_the_annotation() {
        let reports = crate::test_support::related_reports();
        let d = &reports[1].diagnostics[0];
        assert_eq!(
            annotation("srv/src/tools.rs", "src/tools.rs", d),
            "::error title=mcp-lint (MCP001/tool_failure_as_protocol_error),file=srv/src/tools.rs,\
             line=6,col=5,endLine=6,endColumn=16::src/tools.rs:6:5: tool `read` reports -32603\
             %0Anote: src/tools.rs:2:9: `check` builds the error here\
             %0Anote: src/helpers.rs:2:22: `load` builds the error here"
        );
    }

    #[test]
    fn data_and_properties_are_escaped() {
        assert_eq!(escape_data("100% a\r\nb: c, d"), "100%25 a%0D%0Ab: c, d");
        assert_eq!(escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
        let mut d = finding("MCP001", Level::Deny, (1, 1), (1, 2));
        d.message = "50% off\nnext line".into();
        let line = annotation("dir,with:odd/a.rs", "dir,with:odd/a.rs", &d);
        assert_eq!(
            line,
            "::error title=mcp-lint (MCP001/tool_failure_as_protocol_error),file=dir%2Cwith%3Aodd/a.rs,\
             line=1,col=1,endLine=1,endColumn=2::dir,with:odd/a.rs:1:1: 50%25 off%0Anext line"
        );
        assert!(!line.contains('\n'));
    }
}
