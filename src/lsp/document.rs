//! Open documents: their in-memory text, incremental edits, and conversion between byte offsets
//! (what the analysis speaks) and LSP positions (0-based line, column in the negotiated
//! encoding: UTF-16 code units by default, UTF-8 bytes when the client offers it).
//!
//! Lines end at `\n`, `\r\n` or a lone `\r`, as the LSP specification says.

use std::path::PathBuf;

use lsp_types::{Position, PositionEncodingKind, Range, TextDocumentContentChangeEvent, Url};

/// How a position's `character` counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-8 code units (bytes).
    Utf8,
    /// UTF-16 code units: LSP's default, the one every client supports.
    Utf16,
}

impl Encoding {
    /// UTF-8 when the client offers it (no conversion needed), else the mandatory UTF-16.
    pub fn negotiate(offered: &[String]) -> Encoding {
        if offered
            .iter()
            .any(|e| e == PositionEncodingKind::UTF8.as_str())
        {
            Encoding::Utf8
        } else {
            Encoding::Utf16
        }
    }

    pub fn kind(self) -> PositionEncodingKind {
        match self {
            Encoding::Utf8 => PositionEncodingKind::UTF8,
            Encoding::Utf16 => PositionEncodingKind::UTF16,
        }
    }

    /// Length of `s` in this encoding's code units.
    pub fn len(self, s: &str) -> u32 {
        let n = match self {
            Encoding::Utf8 => s.len(),
            Encoding::Utf16 => s.chars().map(char::len_utf16).sum(),
        };
        u32::try_from(n).unwrap_or(u32::MAX)
    }

    fn char_len(self, c: char) -> usize {
        match self {
            Encoding::Utf8 => c.len_utf8(),
            Encoding::Utf16 => c.len_utf16(),
        }
    }
}

/// Byte offsets of line starts, for one version of a text.
#[derive(Clone, Debug)]
pub struct LineIndex {
    /// Byte offset where each line starts; the first is 0.
    starts: Vec<usize>,
    len: usize,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'\n' => starts.push(i + 1),
                b'\r' if bytes.get(i + 1) == Some(&b'\n') => {
                    starts.push(i + 2);
                    i += 1;
                }
                b'\r' => starts.push(i + 1),
                _ => {}
            }
            i += 1;
        }
        LineIndex {
            starts,
            len: text.len(),
        }
    }

    #[cfg(test)]
    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// Byte range of 0-based `line` without its terminator (empty past the end).
    pub fn line_range(&self, text: &str, line: usize) -> std::ops::Range<usize> {
        let Some(&start) = self.starts.get(line) else {
            return self.len..self.len;
        };
        let next = self.starts.get(line + 1).copied().unwrap_or(self.len);
        let content = &text.as_bytes()[start..next];
        let trimmed = content
            .strip_suffix(b"\r\n")
            .or_else(|| content.strip_suffix(b"\n"))
            .or_else(|| content.strip_suffix(b"\r"))
            .unwrap_or(content);
        start..start + trimmed.len()
    }

    /// The terminator of 0-based `line` (`""` for the last line without one).
    pub fn line_ending<'t>(&self, text: &'t str, line: usize) -> &'t str {
        let range = self.line_range(text, line);
        let next = self.starts.get(line + 1).copied().unwrap_or(self.len);
        &text[range.end..next]
    }

    /// The 0-based line containing byte `offset`.
    pub fn line_of(&self, offset: usize) -> usize {
        match self.starts.binary_search(&offset.min(self.len)) {
            Ok(i) => i,
            Err(i) => i - 1,
        }
    }

    /// The LSP position of byte `offset` (clamped to the text and to a character boundary; an
    /// offset inside a line terminator is the end of that line).
    pub fn position(&self, text: &str, offset: usize, encoding: Encoding) -> Position {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.line_of(offset);
        let range = self.line_range(text, line);
        let column = encoding.len(&text[range.start..offset.min(range.end)]);
        Position::new(u32::try_from(line).unwrap_or(u32::MAX), column)
    }

    pub fn range(&self, text: &str, start: usize, end: usize, encoding: Encoding) -> Range {
        Range::new(
            self.position(text, start, encoding),
            self.position(text, end, encoding),
        )
    }

    /// The byte offset of an LSP position. A line past the end is the end of the text; a column
    /// past the line's end is the line's end (as the specification asks); a column inside a
    /// character (half a surrogate pair, a byte inside a UTF-8 sequence) is that character's start.
    pub fn offset(&self, text: &str, position: Position, encoding: Encoding) -> usize {
        let line = position.line as usize;
        if line >= self.starts.len() {
            return self.len;
        }
        let range = self.line_range(text, line);
        let wanted = position.character as usize;
        let mut units = 0;
        for (i, c) in text[range.clone()].char_indices() {
            let next = units + encoding.char_len(c);
            if next > wanted {
                return range.start + i;
            }
            units = next;
        }
        range.end
    }
}

/// An open text document.
#[derive(Clone, Debug)]
pub struct Document {
    pub uri: Url,
    /// `None` for documents that are not files (`untitled:` buffers and the like).
    pub path: Option<PathBuf>,
    pub version: i32,
    pub text: String,
    pub index: LineIndex,
}

impl Document {
    pub fn new(uri: Url, version: i32, text: String) -> Document {
        let path = uri
            .to_file_path()
            .ok()
            .map(|p| crate::workspace::paths::normalize(&p));
        let index = LineIndex::new(&text);
        Document {
            uri,
            path,
            version,
            text,
            index,
        }
    }

    /// Apply `didChange` content changes in order: a change with a range replaces that range of
    /// the text as it is after the previous changes; one without replaces the whole text.
    pub fn apply_changes(
        &mut self,
        version: i32,
        changes: Vec<TextDocumentContentChangeEvent>,
        encoding: Encoding,
    ) {
        for change in changes {
            match change.range {
                Some(range) => {
                    let start = self.index.offset(&self.text, range.start, encoding);
                    let end = self.index.offset(&self.text, range.end, encoding);
                    let (start, end) = (start.min(end), start.max(end));
                    self.text.replace_range(start..end, &change.text);
                }
                None => self.text = change.text,
            }
            self.index = LineIndex::new(&self.text);
        }
        self.version = version;
    }

    pub fn range(&self, start: usize, end: usize, encoding: Encoding) -> Range {
        self.index.range(&self.text, start, end, encoding)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(line: u32, character: u32) -> Position {
        Position::new(line, character)
    }

    #[test]
    fn utf16_and_utf8_columns_differ_on_non_ascii_lines() {
        // 'é' is 2 bytes / 1 UTF-16 unit; '📄' is 4 bytes / 2 UTF-16 units (a surrogate pair).
        let text = "fn a() {}\nlet é = \"📄\"; x\n";
        let index = LineIndex::new(text);
        let x = text.find(" x").expect("x") + 1;
        assert_eq!(index.position(text, x, Encoding::Utf16), pos(1, 14));
        assert_eq!(index.position(text, x, Encoding::Utf8), pos(1, 17));
        assert_eq!(index.offset(text, pos(1, 14), Encoding::Utf16), x);
        assert_eq!(index.offset(text, pos(1, 17), Encoding::Utf8), x);
        // Half of the surrogate pair, and a byte inside the UTF-8 sequence, round down.
        let emoji = text.find('📄').expect("emoji");
        assert_eq!(index.offset(text, pos(1, 10), Encoding::Utf16), emoji);
        assert_eq!(index.offset(text, pos(1, 12), Encoding::Utf8), emoji);
        // An offset inside a character is that character's position.
        assert_eq!(index.position(text, emoji + 1, Encoding::Utf16), pos(1, 9));
    }

    #[test]
    fn line_terminators_and_clamping_follow_the_specification() {
        let text = "a\r\nbc\rd\n";
        let index = LineIndex::new(text);
        assert_eq!(index.line_count(), 4);
        assert_eq!(index.position(text, 3, Encoding::Utf16), pos(1, 0));
        assert_eq!(index.position(text, 6, Encoding::Utf16), pos(2, 0));
        // Inside "\r\n" is the end of the line.
        assert_eq!(index.position(text, 2, Encoding::Utf16), pos(0, 1));
        assert_eq!(index.line_ending(text, 0), "\r\n");
        assert_eq!(index.line_ending(text, 1), "\r");
        assert_eq!(index.line_ending(text, 3), "");
        // A column past the end of the line is its end; a line past the end is the text's end.
        assert_eq!(index.offset(text, pos(1, 99), Encoding::Utf16), 5);
        assert_eq!(index.offset(text, pos(9, 0), Encoding::Utf16), text.len());
        assert_eq!(index.position(text, 999, Encoding::Utf16), pos(3, 0));
    }

    #[test]
    fn incremental_changes_apply_in_order_and_full_changes_replace() {
        let uri = Url::parse("file:///p/src/main.rs").expect("uri");
        let mut doc = Document::new(uri, 1, "let é = 1;\nlet b = 2;\n".into());
        assert_eq!(doc.path, Some(PathBuf::from("/p/src/main.rs")));
        let change = |range: Option<Range>, text: &str| TextDocumentContentChangeEvent {
            range,
            range_length: None,
            text: text.into(),
        };
        doc.apply_changes(
            2,
            vec![
                // "é" → "ê😀" (UTF-16 columns 4..5).
                change(Some(Range::new(pos(0, 4), pos(0, 5))), "ê😀"),
                // Then, in the changed text, the `1` after the emoji (column 10 in UTF-16).
                change(Some(Range::new(pos(0, 10), pos(0, 11))), "10"),
                // Join the lines.
                change(Some(Range::new(pos(0, 13), pos(1, 0))), " "),
            ],
            Encoding::Utf16,
        );
        assert_eq!(doc.text, "let ê😀 = 10; let b = 2;\n");
        assert_eq!(doc.version, 2);
        assert_eq!(doc.index.line_count(), 2);
        doc.apply_changes(3, vec![change(None, "x")], Encoding::Utf16);
        assert_eq!(doc.text, "x");
        assert_eq!(doc.index.line_count(), 1);
    }

    #[test]
    fn negotiation_prefers_utf8_and_defaults_to_utf16() {
        assert_eq!(
            Encoding::negotiate(&["utf-16".into(), "utf-8".into()]),
            Encoding::Utf8
        );
        assert_eq!(Encoding::negotiate(&["utf-32".into()]), Encoding::Utf16);
        assert_eq!(Encoding::negotiate(&[]), Encoding::Utf16);
    }
}
