//! Related locations of a finding, as the text formats print them.

use std::path::Path;

use lints::Related;

/// `path:line:col` of a related location, with its path shown as `shown`.
pub fn related_place(shown: &Path, related: &Related) -> String {
    format!(
        "{}:{}:{}",
        shown.display(),
        related.span.start_line,
        related.span.start_column
    )
}

/// A related location's message on one line (line breaks become spaces).
pub fn related_message(related: &Related) -> String {
    related.message.replace(['\r', '\n'], " ")
}

/// `note: path:line:col: message`: a related location as a note line, for the formats whose
/// text already carries `note:` lines.
pub fn related_note(shown: &Path, related: &Related) -> String {
    format!(
        "note: {}: {}",
        related_place(shown, related),
        related_message(related)
    )
}
