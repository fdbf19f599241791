//! `path:line:col: level[CODE/name]: message`, one finding per line.

use std::io::{self, Write};

use lints::{Diagnostic, FileReport};

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

pub fn write(out: &mut dyn Write, reports: &[FileReport]) -> io::Result<()> {
    for report in reports {
        for d in &report.diagnostics {
            writeln!(out, "{}", line(&report.path, d))?;
        }
    }
    Ok(())
}
