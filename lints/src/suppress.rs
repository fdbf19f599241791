//! Inline suppressions: `// mcp-lint: allow(..) reason`, `// mcp-lint: allow-file(..)` and
//! `#[cfg_attr(mcp_lint, allow(mcp_lint::name, reason = ".."))]`.

use crate::diagnostic::Diagnostic;
use crate::options::Options;
use crate::source::SourceFile;

/// Drop suppressed findings and add findings about the suppressions themselves.
pub fn apply(
    _source: &SourceFile,
    _syntax: Option<&syn::File>,
    diagnostics: Vec<Diagnostic>,
    _options: &Options,
) -> Vec<Diagnostic> {
    diagnostics
}
