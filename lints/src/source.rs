//! A file's path, text and line index: byte offsets → 1-based line and column.

use std::path::PathBuf;

/// Where a file sits in its crate; decides test context before any attribute is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FileRole {
    /// Library, binary or example code: linted.
    Source,
    /// Under `tests/` or `benches/`: test context.
    Test,
}

/// Index of a file in the crate's file list ([`crate::Model::files`]). Defined here, beside the
/// files it numbers, so every layer that names a file (the index, the resolver, the model) can
/// without depending on the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(pub usize);

/// One file handed to [`crate::analyze`]. The front end reads the bytes; decoding is ours.
#[derive(Clone, Debug)]
pub struct SourceInput {
    /// The path as it should be shown to the user.
    pub path: PathBuf,
    pub contents: Vec<u8>,
    pub role: FileRole,
    /// `false` for files read only for crate context (pre-commit's partial file lists).
    pub report: bool,
    /// Named by the user itself (a file on the command line, a document open in the editor):
    /// reported even when no crate root's module tree reaches it. Otherwise a package's file
    /// that no `mod` declaration reaches is not compiled, and is read for context only.
    pub named: bool,
    /// The path relative to the package root, when the front end knows it: the shown `path`
    /// may be relative to another directory (`lib.rs` when run from the package's `src/`).
    pub package_path: Option<PathBuf>,
}

/// A decoded file with its line index.
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub path: PathBuf,
    pub text: String,
    line_starts: Vec<usize>,
}

impl SourceFile {
    pub fn new(path: PathBuf, text: String) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        SourceFile {
            path,
            text,
            line_starts,
        }
    }

    /// 1-based line and 1-based column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line];
        let column = self
            .text
            .get(start..offset)
            .map_or(offset - start, |s| s.chars().count());
        (line + 1, column + 1)
    }

    /// The text of 1-based line `line`, without its line break.
    pub fn line_text(&self, line: usize) -> &str {
        let Some(&start) = self.line_starts.get(line.wrapping_sub(1)) else {
            return "";
        };
        let end = self
            .line_starts
            .get(line)
            .copied()
            .unwrap_or(self.text.len());
        self.text[start..end].trim_end_matches(['\n', '\r'])
    }

    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// A span covering bytes `start..end`.
    pub fn span(&self, start: usize, end: usize) -> Span {
        let (start_line, start_column) = self.line_col(start);
        let (end_line, end_column) = self.line_col(end);
        Span {
            start,
            end,
            start_line,
            start_column,
            end_line,
            end_column,
        }
    }

    /// The span of a syntax node, from its proc-macro2 byte range.
    pub fn span_of(&self, node: &impl syn::spanned::Spanned) -> Span {
        let range = node.span().byte_range();
        self.span(range.start, range.end)
    }
}

/// A region of a file: byte offsets plus 1-based lines and columns (columns count characters;
/// the end is exclusive).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
    pub start_line: usize,
    pub start_column: usize,
    pub end_line: usize,
    pub end_column: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column_are_one_based_and_count_chars() {
        let f = SourceFile::new("a.rs".into(), "ab\né x\n".into());
        assert_eq!(f.line_col(0), (1, 1));
        assert_eq!(f.line_col(3), (2, 1));
        assert_eq!(f.line_col(6), (2, 3)); // after 'é' (2 bytes) and ' '
        assert_eq!(f.line_text(2), "é x");
        assert_eq!(f.line_text(9), "");
    }
}
