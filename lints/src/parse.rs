//! Decoding and parsing one file with syn, turning every failure into a `parse_error` finding.

use crate::source::SourceFile;

/// Files nested deeper than this are refused: syn and our visitors recurse per level.
pub const MAX_NESTING: usize = 512;

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
    let text = blank_prelude(&file.text);
    if let Some((depth, at)) = too_deep(&text) {
        return Err(ParseFailure {
            message: format!(
                "nesting deeper than {MAX_NESTING} levels ({depth} reached); mcp-lint does not analyse this file"
            ),
            at: Some((at, at + 1)),
        });
    }
    syn::parse_str::<syn::File>(&text).map_err(|e| {
        let range = e.span().byte_range();
        ParseFailure {
            message: format!("could not parse this file: {e}"),
            at: (range.end > 0).then_some((range.start, range.end)),
        }
    })
}

/// The text with a leading BOM and shebang line replaced by spaces of the same byte length.
fn blank_prelude(text: &str) -> std::borrow::Cow<'_, str> {
    let bom = text.starts_with('\u{feff}');
    let body = if bom { &text[3..] } else { text };
    let shebang_len = if body.starts_with("#!") && !body[2..].trim_start().starts_with('[') {
        body.find('\n').unwrap_or(body.len())
    } else {
        0
    };
    if !bom && shebang_len == 0 {
        return std::borrow::Cow::Borrowed(text);
    }
    let prefix = if bom { 3 } else { 0 } + shebang_len;
    let mut out = " ".repeat(prefix);
    out.push_str(&text[prefix..]);
    std::borrow::Cow::Owned(out)
}

/// The first place where bracket nesting exceeds [`MAX_NESTING`], skipping strings, chars and
/// comments roughly (a false alarm needs 512 unbalanced brackets inside literals).
fn too_deep(text: &str) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'(' | b'[' | b'{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Some((depth, i));
                }
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
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
    None
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
