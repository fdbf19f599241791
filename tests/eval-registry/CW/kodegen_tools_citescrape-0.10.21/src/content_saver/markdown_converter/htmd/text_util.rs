use std::borrow::Cow;

pub(crate) trait TrimDocumentWhitespace {
    fn trim_document_whitespace(&self) -> &str;

    fn trim_start_document_whitespace(&self) -> &str;

    fn trim_end_document_whitespace(&self) -> &str;
}

impl<S> TrimDocumentWhitespace for S
where
    S: AsRef<str>,
{
    #[inline]
    fn trim_document_whitespace(&self) -> &str {
        self.as_ref().trim_matches(is_document_whitespace)
    }

    #[inline]
    fn trim_start_document_whitespace(&self) -> &str {
        self.as_ref().trim_start_matches(is_document_whitespace)
    }

    #[inline]
    fn trim_end_document_whitespace(&self) -> &str {
        self.as_ref().trim_end_matches(is_document_whitespace)
    }
}

pub(crate) trait StripWhitespace {
    /// Strip leading whitespace.
    ///
    /// A tuple of (striped_text, Option<leading_whitespace>) will be returned.
    fn strip_leading_document_whitespace(&self) -> (&str, Option<&str>);
    fn strip_leading_whitespace(&self) -> (&str, Option<&str>);

    /// Strip trailing whitespace.
    ///
    /// A tuple of (striped_text, Option<trailing_whitespace>) will be returned.
    fn strip_trailing_document_whitespace(&self) -> (&str, Option<&str>);
    fn strip_trailing_whitespace(&self) -> (&str, Option<&str>);
}

impl<S> StripWhitespace for S
where
    S: AsRef<str>,
{
    fn strip_leading_whitespace(&self) -> (&str, Option<&str>) {
        let text = self.as_ref();
        let trimmed_text = text.trim_start();
        let stripped_len = text.len() - trimmed_text.len();
        if stripped_len == 0 {
            (text, None)
        } else {
            let start_index = stripped_len;
            (&text[start_index..], Some(&text[..start_index]))
        }
    }

    fn strip_leading_document_whitespace(&self) -> (&str, Option<&str>) {
        let text = self.as_ref();
        let trimmed_text = text.trim_start_document_whitespace();
        let stripped_len = text.len() - trimmed_text.len();
        if stripped_len == 0 {
            (text, None)
        } else {
            let start_index = stripped_len;
            (&text[start_index..], Some(&text[..start_index]))
        }
    }

    fn strip_trailing_whitespace(&self) -> (&str, Option<&str>) {
        let text = self.as_ref();
        let trimmed_text = text.trim_end();
        let stripped_len = text.len() - trimmed_text.len();
        if stripped_len == 0 {
            (text, None)
        } else {
            let end_index = trimmed_text.len();
            (&text[..end_index], Some(&text[end_index..]))
        }
    }

    fn strip_trailing_document_whitespace(&self) -> (&str, Option<&str>) {
        let text = self.as_ref();
        let trimmed_text = text.trim_end_document_whitespace();
        let stripped_len = text.len() - trimmed_text.len();
        if stripped_len == 0 {
            (text, None)
        } else {
            let end_index = trimmed_text.len();
            (&text[..end_index], Some(&text[end_index..]))
        }
    }
}

pub(crate) trait JoinOnStringIterator {
    fn join<S: AsRef<str>>(&mut self, separator: S) -> String;
}

impl<T, S> JoinOnStringIterator for T
where
    S: AsRef<str>,
    T: Iterator<Item = S>,
{
    fn join<SE: AsRef<str>>(&mut self, separator: SE) -> String {
        let Some(first) = self.next() else {
            return String::new();
        };
        let separator = separator.as_ref();
        let first_str = first.as_ref();

        // Estimate capacity using size_hint and first item length as average estimate
        let (lower_bound, _) = self.size_hint();
        let estimated_capacity = first_str.len()
            + lower_bound * (first_str.len() + separator.len());

        let mut result = String::with_capacity(estimated_capacity);
        result.push_str(first_str);

        for next in self {
            result.push_str(separator);
            result.push_str(next.as_ref());
        }
        result
    }
}


pub(crate) fn compress_whitespace(input: &str) -> Cow<'_, str> {
    if input.is_empty() {
        return Cow::Borrowed(input);
    }

    let mut result: Option<String> = None;
    let mut in_whitespace = false;

    // Use char_indices to get byte indices for slicing the input.
    for (byte_index, c) in input.char_indices() {
        if c.is_whitespace() {
            if in_whitespace {
                // Consecutive whitespace: skip this character.
                if result.is_none() {
                    // Lazy allocation: First change found. Allocate and copy the prefix.
                    let mut s = String::with_capacity(input.len());
                    s.push_str(&input[..byte_index]);
                    result = Some(s);
                }
            } else {
                // First whitespace in sequence.
                in_whitespace = true;
                if c == ' ' {
                    // Valid single space. If already allocating, append it.
                    if let Some(res) = &mut result {
                        res.push(' ');
                    }
                } else {
                    // Non-space whitespace (e.g., \n): must be changed to ' '.
                    if result.is_none() {
                        // Lazy allocation: First change found. Allocate and copy the prefix.
                        let mut s = String::with_capacity(input.len());
                        s.push_str(&input[..byte_index]);
                        result = Some(s);
                    }
                    result.as_mut().unwrap().push(' ');
                }
            }
        } else {
            // Not whitespace.
            in_whitespace = false;
            // If already allocating, append the character.
            if let Some(res) = &mut result {
                res.push(c);
            }
        }
    }

    // If `result` is None, return Cow::Borrowed (no changes were made).
    match result {
        Some(s) => Cow::Owned(s),
        None => Cow::Borrowed(input),
    }
}

// Per [MDN](https://developer.mozilla.org/en-US/docs/Web/CSS/Guides/Text/Whitespace),
// document white space characters only include spaces, tabs, line
// feeds, and newlines. Remove only these from the end of a line.
#[inline]
fn is_document_whitespace(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | ' ')
}

/// Check if a character is an invisible Unicode character.
///
/// Invisible Unicode characters should be stripped from markdown output
/// to prevent malformed syntax, especially in heading anchor links.
///
/// Covers:
/// - Zero-width spaces (U+200B, U+200C, U+200D)
/// - Zero-width no-break space / BOM (U+FEFF)
/// - Word joiner (U+2060)
/// - Mongolian vowel separator (U+180E, deprecated)
/// - Soft hyphen (U+00AD)
#[inline]
pub(crate) fn is_invisible_unicode(c: char) -> bool {
    matches!(c,
        '\u{200B}' |  // Zero-width space (ZWSP)
        '\u{200C}' |  // Zero-width non-joiner (ZWNJ)
        '\u{200D}' |  // Zero-width joiner (ZWJ)
        '\u{FEFF}' |  // Zero-width no-break space (BOM)
        '\u{2060}' |  // Word joiner
        '\u{180E}' |  // Mongolian vowel separator
        '\u{00AD}'    // Soft hyphen
    )
}

pub(crate) fn indent_text_except_first_line(
    text: &str,
    indent: usize,
    trim_line_end: bool,
) -> String {
    // Only skip processing if BOTH indent is 0 AND we don't need to trim line ends
    if indent == 0 && !trim_line_end {
        return text.to_string();
    }

    // Preserve trailing newline information BEFORE lines() strips it
    let has_trailing_newline = text.ends_with('\n');

    // Estimate capacity: assume ~80 chars per line average
    let estimated_lines = (text.len() / 80).max(1);
    let estimated_capacity = text.len() + estimated_lines * indent;
    let mut result = String::with_capacity(estimated_capacity);
    let indent_text = " ".repeat(indent);

    for (idx, line) in text.lines().enumerate() {
        let line = if trim_line_end {
            line.trim_end_matches(is_document_whitespace)
        } else {
            line
        };
        if idx > 0 {
            result.push('\n');
        }
        if idx == 0 || line.is_empty() {
            result.push_str(line);
        } else {
            result.push_str(&indent_text);
            result.push_str(line);
        }
    }

    // Restore trailing newline if it was present in the input
    if has_trailing_newline {
        result.push('\n');
    }

    result
}

pub(crate) fn is_markdown_atx_heading(text: &str) -> bool {
    let mut is_prev_ch_hash = false;
    for ch in text.chars() {
        if ch == '#' {
            is_prev_ch_hash = true;
        } else if ch == ' ' {
            return is_prev_ch_hash;
        } else {
            return false;
        }
    }
    false
}

pub(crate) fn index_of_markdown_ordered_item_dot(text: &str) -> Option<usize> {
    let mut is_prev_ch_numeric = false;
    let mut is_prev_ch_dot = false;
    let mut dot_byte_index = 0;

    for (byte_index, ch) in text.char_indices() {
        if ch.is_ascii_digit() {
            if is_prev_ch_dot {
                return None;
            }
            is_prev_ch_numeric = true;
        } else if ch == '.' {
            if !is_prev_ch_numeric {
                return None;
            }
            is_prev_ch_dot = true;
            dot_byte_index = byte_index;
        } else if ch == ' ' {
            if is_prev_ch_dot {
                return Some(dot_byte_index);
            } else {
                return None;
            }
        } else {
            return None;
        }
    }
    None
}

/// Concatenates multiple string-like values with pre-allocated capacity.
///
/// Each expression is evaluated exactly once. Accepts `String` (moved),
/// `&str` (borrowed), or `&String` (borrowed via deref coercion).
/// To borrow an owned String instead of moving, pass `&my_string`.
macro_rules! concat_strings {
    ($($x:expr),* $(,)?) => {{
        let parts: &[::std::borrow::Cow<'_, str>] = &[$(::std::borrow::Cow::from($x)),*];
        let len: usize = parts.iter().map(|s| s.len()).sum();
        let mut result = String::with_capacity(len);
        for s in parts {
            result.push_str(s);
        }
        result
    }};
}

pub(crate) use concat_strings;

#[cfg(test)]
mod tests {
    use super::index_of_markdown_ordered_item_dot;

    #[test]
    fn test_index_of_markdown_ordered_item_dot() {
        assert_eq!(None, index_of_markdown_ordered_item_dot("16.1¾ "));
        assert_eq!(Some(1), index_of_markdown_ordered_item_dot("1. "));
        assert_eq!(Some(2), index_of_markdown_ordered_item_dot("12. "));
        assert_eq!(Some(5), index_of_markdown_ordered_item_dot("12345. "));
        assert_eq!(Some(1), index_of_markdown_ordered_item_dot("1. \n"));
        assert_eq!(None, index_of_markdown_ordered_item_dot(". "));
        assert_eq!(None, index_of_markdown_ordered_item_dot("abc. "));
        assert_eq!(None, index_of_markdown_ordered_item_dot("1 . "));
        assert_eq!(None, index_of_markdown_ordered_item_dot(" 1. "));
        assert_eq!(None, index_of_markdown_ordered_item_dot("1.a "));
        assert_eq!(None, index_of_markdown_ordered_item_dot("1."));
    }
}
