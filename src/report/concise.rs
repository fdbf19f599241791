//! `path:line:col: level[CODE/name]: message`, one finding per line, each followed by a
//! `path:line:col: note: message` line per related location (as gcc and mypy print notes, so
//! editors' error parsers jump to them too).

use std::io::{self, Write};

use lints::{Diagnostic, FileReport, Related};

use super::related::{related_message, related_place};

/// One finding as one line (line breaks in the message become spaces).
pub fn line(path: &std::path::Path, d: &Diagnostic) -> String {
    format!(
        "{}:{}:{}: {}[{}/{}]: {}",
        path.display(),
        d.span.start_line,
        d.span.start_column,
        d.level.severity(),
        d.lint.code,
        d.lint.name,
        d.message.replace(['\r', '\n'], " ")
    )
}

/// A related location as one line: `path:line:col: note: message`.
pub fn related_line(related: &Related) -> String {
    format!(
        "{}: note: {}",
        related_place(&related.path, related),
        related_message(related)
    )
}

pub fn write(out: &mut dyn Write, reports: &[FileReport]) -> io::Result<()> {
    for report in reports {
        for d in &report.diagnostics {
            writeln!(out, "{}", line(&report.path, d))?;
            for related in &d.related {
                writeln!(out, "{}", related_line(related))?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::related_reports;

    fn written(reports: &[FileReport]) -> String {
        let mut out = Vec::new();
        write(&mut out, reports).expect("writes");
        String::from_utf8(out).expect("UTF-8")
    }

    #[test]
    fn related_locations_follow_their_finding_as_note_lines() {
        assert_eq!(
            written(&related_reports()),
            "src/tools.rs:6:5: error[MCP001/tool_failure_as_protocol_error]: tool `read` reports -32603\n\
             src/tools.rs:2:9: note: `check` builds the error here\n\
             src/helpers.rs:2:22: note: `load` builds the error here\n"
        );
        let mut reports = related_reports();
        reports[1].diagnostics[0].related.clear();
        assert_eq!(
            written(&reports),
            "src/tools.rs:6:5: error[MCP001/tool_failure_as_protocol_error]: tool `read` reports -32603\n"
        );
    }
}
