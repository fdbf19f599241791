//! Decoding and parsing one file with syn, turning every failure into a `parse_error` finding.

use crate::source::SourceFile;

/// Files nested deeper than this are refused: syn and our visitors recurse per level.
pub const MAX_NESTING: usize = 512;

/// Files larger than this are refused: a syntax tree takes over a hundred times the size of
/// its text, so one huge (generated or hostile) file would exhaust memory. The largest files
/// of real crates (the `windows` bindings) are about 4 MiB.
pub const MAX_FILE_BYTES: usize = 8 * 1024 * 1024;

/// Why a file could not be parsed; becomes a `parse_error` diagnostic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseFailure {
    pub message: String,
    /// Byte range of the offending place, when known.
    pub at: Option<(usize, usize)>,
}

/// Decode the bytes as UTF-8 (a leading BOM is allowed).
pub fn decode(bytes: &[u8]) -> Result<String, ParseFailure> {
    match std::str::from_utf8(bytes) {
        Ok(s) => Ok(s.to_string()),
        Err(e) => {
            let offset = e.valid_up_to();
            let what = if bytes.contains(&0) {
                "file is binary, not Rust source"
            } else {
                "file is not valid UTF-8"
            };
            Err(ParseFailure {
                message: format!("{what} (first invalid byte at offset {offset})"),
                at: None,
            })
        }
    }
}

/// Parse a file. Byte offsets in the returned tree's spans are offsets into `file.text`: a BOM
/// or shebang is blanked rather than cut, so nothing shifts.
pub fn parse(file: &SourceFile) -> Result<syn::File, ParseFailure> {
    if file.text.len() > MAX_FILE_BYTES {
        return Err(ParseFailure {
            message: format!(
                "file is larger than {} MiB ({} bytes); mcp-lint does not analyse it",
                MAX_FILE_BYTES >> 20,
                file.text.len()
            ),
            at: None,
        });
    }
    let text = blank_prelude(&file.text);
    if let Delimiters::TooDeep(at) = scan_delimiters(&text) {
        return Err(ParseFailure {
            message: format!(
                "nesting deeper than {MAX_NESTING} levels; mcp-lint does not analyse this file"
            ),
            at: Some((at, at + 1)),
        });
    }
    let tokens: proc_macro2::TokenStream = text.parse().map_err(|e| lex_failure(&text, &e))?;
    syn::parse2::<syn::File>(tokens).map_err(|e| {
        let range = e.span().byte_range();
        ParseFailure {
            message: format!("could not parse this file: {e}"),
            at: (range.end > 0).then_some((range.start, range.end)),
        }
    })
}

/// The text with a leading BOM, shebang line and cargo-script frontmatter (`---cargo` …
/// `---`, RFC 3503) replaced by spaces of the same byte length; newlines are kept, so offsets,
/// lines and columns stay those of the file.
fn blank_prelude(text: &str) -> std::borrow::Cow<'_, str> {
    let bom = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let body = &text[bom..];
    let shebang_len = if body.starts_with("#!") && !body[2..].trim_start().starts_with('[') {
        body.find('\n').unwrap_or(body.len())
    } else {
        0
    };
    let prefix = bom + shebang_len;
    let end = prefix + frontmatter_len(&text[prefix..]);
    if end == 0 {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for c in text[..end].chars() {
        if c == '\n' {
            out.push('\n');
        } else {
            out.extend(std::iter::repeat_n(' ', c.len_utf8()));
        }
    }
    out.push_str(&text[end..]);
    std::borrow::Cow::Owned(out)
}

/// The length of a frontmatter block at the start of `text` (after blank lines), through the
/// end of its closing fence line; 0 when there is none or it is not closed.
fn frontmatter_len(text: &str) -> usize {
    let body = text.trim_start_matches([' ', '\t', '\r', '\n']);
    let start = text.len() - body.len();
    let dashes = body.bytes().take_while(|b| *b == b'-').count();
    if dashes < 3 {
        return 0;
    }
    let mut at = match body.find('\n') {
        Some(nl) => nl + 1,
        None => return 0,
    };
    while at < body.len() {
        let line_end = body[at..].find('\n').map_or(body.len(), |nl| at + nl + 1);
        let line = body[at..line_end].trim_end();
        if line.len() == dashes && line.bytes().all(|b| b == b'-') {
            return start + line_end;
        }
        at = line_end;
    }
    0
}

/// What a rough delimiter scan found (strings, chars and comments skipped).
#[derive(Debug, PartialEq, Eq)]
enum Delimiters {
    Balanced,
    /// Nesting exceeded [`MAX_NESTING`] at this offset.
    TooDeep(usize),
    /// A closing delimiter that does not match the open one (offset of the closer).
    Mismatched {
        at: usize,
        found: char,
        open: Option<(char, usize)>,
    },
    /// Still open at the end of the file.
    Unclosed {
        open: char,
        at: usize,
    },
}

fn scan_delimiters(text: &str) -> Delimiters {
    let bytes = text.as_bytes();
    let mut stack: Vec<(u8, usize)> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b @ (b'(' | b'[' | b'{') => {
                stack.push((b, i));
                if stack.len() > MAX_NESTING {
                    return Delimiters::TooDeep(i);
                }
            }
            b @ (b')' | b']' | b'}') => {
                let expected = match b {
                    b')' => b'(',
                    b']' => b'[',
                    _ => b'{',
                };
                match stack.pop() {
                    Some((open, _)) if open == expected => {}
                    other => {
                        return Delimiters::Mismatched {
                            at: i,
                            found: b as char,
                            open: other.map(|(o, at)| (o as char, at)),
                        }
                    }
                }
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            b'\'' if bytes.get(i + 2) == Some(&b'\'') => i += 2,
            b'\'' if bytes.get(i + 1) == Some(&b'\\') => {
                i = text[i + 2..].find('\'').map_or(bytes.len(), |n| i + 2 + n);
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < bytes.len() && !(bytes[i] == b'*' && bytes[i + 1] == b'/') {
                    i += 1;
                }
                i += 1;
            }
            _ => {}
        }
        i += 1;
    }
    match stack.pop() {
        Some((open, at)) => Delimiters::Unclosed {
            open: open as char,
            at,
        },
        None => Delimiters::Balanced,
    }
}

/// A precise message for a file that does not even tokenize.
fn lex_failure(text: &str, error: &proc_macro2::LexError) -> ParseFailure {
    let range = error.span().byte_range();
    let at = (range.end > 0).then_some((range.start, range.end.max(range.start + 1)));
    let (message, at) = match scan_delimiters(text) {
        Delimiters::Mismatched { at, found, open: Some((open, _)) } => (
            format!("could not parse this file: `{found}` does not close the `{open}` before it"),
            Some((at, at + 1)),
        ),
        Delimiters::Mismatched { at, found, open: None } => (
            format!("could not parse this file: `{found}` closes nothing"),
            Some((at, at + 1)),
        ),
        Delimiters::Unclosed { open, at } => (
            format!("could not parse this file: this `{open}` is never closed"),
            Some((at, at + 1)),
        ),
        _ => (
            "could not parse this file: unterminated string, character or comment, or a stray character".to_string(),
            at,
        ),
    };
    ParseFailure { message, at }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(text: &str) -> SourceFile {
        SourceFile::new("t.rs".into(), text.into())
    }

    #[test]
    fn shebang_and_bom_keep_offsets() {
        let f = file("\u{feff}#!/usr/bin/env run\nfn main() {}\n");
        let parsed = parse(&f).expect("parses");
        let item = &parsed.items[0];
        let span = f.span_of(item);
        assert_eq!(&f.text[span.start..span.end], "fn main() {}");
        assert_eq!((span.start_line, span.start_column), (2, 1));
    }

    #[test]
    fn cargo_script_frontmatter_is_skipped_and_keeps_offsets() {
        let text = "#!/usr/bin/env -S cargo +nightly -Zscript\n---cargo\n[dependencies]\nclap = \"4\" # é\n---\n\nfn main() {}\n";
        let f = file(text);
        let parsed = parse(&f).expect("parses");
        let span = f.span_of(&parsed.items[0]);
        assert_eq!(&f.text[span.start..span.end], "fn main() {}");
        assert_eq!((span.start_line, span.start_column), (7, 1));
        // Without a shebang, after blank lines, with a longer fence and no infostring.
        let f = file("\n----\n[package]\nedition = \"2024\"\n----\nfn main() {}\n");
        assert!(parse(&f).is_ok());
        // An unclosed fence is not frontmatter: the file is reported as it is.
        assert!(parse(&file("---cargo\nfn main() {}\n")).is_err());
    }

    #[test]
    fn deep_nesting_is_refused_not_overflowed() {
        let text = format!(
            "fn f() {{ {}1{} }}",
            "(".repeat(100_000),
            ")".repeat(100_000)
        );
        let err = parse(&file(&text)).unwrap_err();
        assert!(err.message.contains("nesting deeper"), "{}", err.message);
    }

    #[test]
    fn unbalanced_delimiters_are_named() {
        let f = file("fn main() {\n    let x = (1, 2];\n}\n");
        let err = parse(&f).unwrap_err();
        assert!(
            err.message.contains("`]` does not close the `(`"),
            "{}",
            err.message
        );
        let (start, _) = err.at.unwrap();
        assert_eq!(f.line_col(start), (2, 18));
        let err = parse(&file("impl S {\n  fn f() {}\n")).unwrap_err();
        assert!(
            err.message.contains("`{` is never closed"),
            "{}",
            err.message
        );
    }

    #[test]
    fn syntax_errors_carry_a_location() {
        let f = file("fn main() {\n  let = ;\n}\n");
        let err = parse(&f).unwrap_err();
        assert!(err.message.starts_with("could not parse"));
        assert!(err.at.is_some());
    }

    #[test]
    fn non_utf8_is_reported() {
        assert!(decode(&[0x66, 0xff, 0x00])
            .unwrap_err()
            .message
            .contains("binary"));
        assert!(decode(&[0x66, 0xff]).unwrap_err().message.contains("UTF-8"));
    }
}
