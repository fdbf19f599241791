//! Decoding and parsing one file with syn, turning every failure into a `parse_error` finding.

use std::cell::Cell;
use std::thread::ThreadId;

use syn::visit_mut::VisitMut;

use crate::source::SourceFile;

/// Files nested deeper than this are refused: syn and our visitors recurse per level. Every
/// recursive form counts (see `scan_delimiters`), not only brackets.
pub const MAX_NESTING: usize = 512;

/// Stack the analysis needs: syn and the visitors recurse once per nesting level (at most
/// [`MAX_NESTING`]).
pub const ANALYSIS_STACK: usize = 256 * 1024 * 1024;

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
            // Front ends read no more than one byte past the limit: no size to tell.
            message: format!(
                "file is larger than {} MiB; mcp-lint does not analyse it",
                MAX_FILE_BYTES >> 20
            ),
            at: None,
        });
    }
    let text = blank_prelude(&file.text);
    if let Delimiters::TooDeep(at) = scan_delimiters(&text) {
        return Err(ParseFailure {
            message: format!(
                "nesting deeper than {MAX_NESTING} levels (brackets, generics, closures, references, operators); mcp-lint does not analyse this file"
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

/// Release the spare capacity syn's parser leaves in a tree it keeps: its `Vec`s grow by
/// doubling from four slots (a one-statement block holds four `Stmt`s of 464 bytes, an impl
/// four `ImplItem`s of 832), which was about a third of a kept tree's bytes. Lists are shrunk
/// in place; a `Punctuated` of several elements (paths, arguments, parameters, fields) has no
/// such method and is replaced by its clone, which allocates exactly. Nothing points into the
/// tree yet, so moving its nodes is safe.
pub fn compact(file: &mut syn::File) {
    Compact.visit_file_mut(file);
}

struct Compact;

/// A `Punctuated` with exactly the capacity it uses (its clone); one element lives in its own
/// box and needs nothing.
fn compact_punctuated<T: Clone, P: Clone>(list: &mut syn::punctuated::Punctuated<T, P>) {
    if list.len() > 1 {
        *list = list.clone();
    }
}

/// Each listed node: its `Vec` fields shrunk, then its children visited.
macro_rules! compact_nodes {
    ($($visit:ident: $ty:ty => |$n:ident| $body:expr;)*) => {
        $(
            fn $visit(&mut self, $n: &mut $ty) {
                $body;
                syn::visit_mut::$visit(self, $n);
            }
        )*
    };
}

impl syn::visit_mut::VisitMut for Compact {
    compact_nodes! {
        visit_file_mut: syn::File => |n| (n.items.shrink_to_fit(), n.attrs.shrink_to_fit());
        visit_block_mut: syn::Block => |n| n.stmts.shrink_to_fit();
        visit_item_fn_mut: syn::ItemFn => |n| n.attrs.shrink_to_fit();
        visit_item_impl_mut: syn::ItemImpl => |n| (n.items.shrink_to_fit(), n.attrs.shrink_to_fit());
        visit_item_trait_mut: syn::ItemTrait => |n| (n.items.shrink_to_fit(), n.attrs.shrink_to_fit());
        visit_item_mod_mut: syn::ItemMod => |n| {
            n.attrs.shrink_to_fit();
            if let Some((_, items)) = &mut n.content {
                items.shrink_to_fit();
            }
        };
        visit_item_struct_mut: syn::ItemStruct => |n| n.attrs.shrink_to_fit();
        visit_item_enum_mut: syn::ItemEnum => |n| (n.attrs.shrink_to_fit(), compact_punctuated(&mut n.variants));
        visit_item_use_mut: syn::ItemUse => |n| n.attrs.shrink_to_fit();
        visit_item_const_mut: syn::ItemConst => |n| n.attrs.shrink_to_fit();
        visit_impl_item_fn_mut: syn::ImplItemFn => |n| n.attrs.shrink_to_fit();
        visit_trait_item_fn_mut: syn::TraitItemFn => |n| n.attrs.shrink_to_fit();
        visit_field_mut: syn::Field => |n| n.attrs.shrink_to_fit();
        visit_variant_mut: syn::Variant => |n| n.attrs.shrink_to_fit();
        visit_expr_match_mut: syn::ExprMatch => |n| n.arms.shrink_to_fit();
        visit_path_mut: syn::Path => |n| compact_punctuated(&mut n.segments);
        visit_expr_call_mut: syn::ExprCall => |n| compact_punctuated(&mut n.args);
        visit_expr_method_call_mut: syn::ExprMethodCall => |n| compact_punctuated(&mut n.args);
        visit_expr_struct_mut: syn::ExprStruct => |n| compact_punctuated(&mut n.fields);
        visit_expr_tuple_mut: syn::ExprTuple => |n| compact_punctuated(&mut n.elems);
        visit_expr_array_mut: syn::ExprArray => |n| compact_punctuated(&mut n.elems);
        visit_signature_mut: syn::Signature => |n| compact_punctuated(&mut n.inputs);
        visit_generics_mut: syn::Generics => |n| compact_punctuated(&mut n.params);
        visit_fields_named_mut: syn::FieldsNamed => |n| compact_punctuated(&mut n.named);
        visit_fields_unnamed_mut: syn::FieldsUnnamed => |n| compact_punctuated(&mut n.unnamed);
        visit_angle_bracketed_generic_arguments_mut: syn::AngleBracketedGenericArguments => |n| compact_punctuated(&mut n.args);
        visit_use_group_mut: syn::UseGroup => |n| compact_punctuated(&mut n.items);
    }
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

/// What a scan of the file's tokens found (strings, chars and comments skipped).
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

/// One token of the scan: only what the nesting estimate needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token<'a> {
    Open(u8),
    Close(u8),
    Punct(&'a str),
    Ident(&'a str),
    /// A string, character or number literal.
    Literal,
    Lifetime,
}

/// Operators of more than one character, longest first.
const PUNCTS: [&str; 24] = [
    ">>=", "<<=", "...", "..=", "::", "->", "=>", "==", "!=", "<=", ">=", "&&", "||", "+=", "-=",
    "*=", "/=", "%=", "^=", "&=", "|=", "<<", ">>", "..",
];

/// A linear-time Rust tokenizer, approximate where approximation is harmless: it yields
/// delimiters, operators and identifiers with their offsets, and skips literals and comments
/// (nested block comments, raw strings, byte and C strings, lifetimes included).
struct Lexer<'a> {
    text: &'a str,
    at: usize,
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

impl<'a> Lexer<'a> {
    /// Skip a quoted literal whose opening `"` is at `self.at`.
    fn skip_string(&mut self) {
        let bytes = self.text.as_bytes();
        self.at += 1;
        while self.at < bytes.len() && bytes[self.at] != b'"' {
            if bytes[self.at] == b'\\' {
                self.at += 1;
            }
            self.at += 1;
        }
        self.at += 1;
    }

    /// Skip `#*"…"#*` at `self.at` (after the `r`); `false` if it is not a raw string.
    fn skip_raw_string(&mut self) -> bool {
        let bytes = self.text.as_bytes();
        let hashes = bytes[self.at..].iter().take_while(|b| **b == b'#').count();
        if bytes.get(self.at + hashes) != Some(&b'"') {
            return false;
        }
        let body = self.at + hashes + 1;
        let closer = format!("\"{}", "#".repeat(hashes));
        self.at = self.text[body..]
            .find(&closer)
            .map_or(bytes.len(), |n| body + n + closer.len());
        true
    }

    /// Skip a character literal or lifetime whose `'` is at `self.at`.
    fn quote(&mut self) -> Token<'a> {
        let rest = &self.text[self.at + 1..];
        let mut chars = rest.chars();
        match (chars.next(), chars.next()) {
            (Some('\\'), _) => {
                // An escape: the literal ends at the next quote after the escaped character.
                let after = 1 + rest[1..].chars().next().map_or(0, char::len_utf8);
                self.at += 1 + rest[after.min(rest.len())..]
                    .find('\'')
                    .map_or(rest.len(), |n| after + n + 1);
                Token::Literal
            }
            (Some(c), Some('\'')) => {
                self.at += 2 + c.len_utf8();
                Token::Literal
            }
            _ => {
                self.at += 1;
                while self.at < self.text.len() && is_ident_byte(self.text.as_bytes()[self.at]) {
                    self.at += 1;
                }
                Token::Lifetime
            }
        }
    }

    /// An identifier, keyword, raw identifier or prefixed literal starting at `self.at`.
    fn word(&mut self) -> Token<'a> {
        let bytes = self.text.as_bytes();
        let start = self.at;
        while self.at < bytes.len() && is_ident_byte(bytes[self.at]) {
            self.at += 1;
        }
        let word = &self.text[start..self.at];
        match (word, bytes.get(self.at)) {
            ("r" | "br" | "cr", Some(b'#' | b'"')) if self.skip_raw_string() => Token::Literal,
            ("r", Some(b'#')) => {
                self.at += 1;
                let ident = self.at;
                while self.at < bytes.len() && is_ident_byte(bytes[self.at]) {
                    self.at += 1;
                }
                Token::Ident(&self.text[ident..self.at])
            }
            ("b" | "c", Some(b'"')) => {
                self.skip_string();
                Token::Literal
            }
            ("b", Some(b'\'')) => {
                self.quote();
                Token::Literal
            }
            _ if bytes[start].is_ascii_digit() => {
                // `1.5`, but not `1..2` or `x.0.1`'s second dot.
                if bytes.get(self.at) == Some(&b'.')
                    && bytes.get(self.at + 1).is_some_and(u8::is_ascii_digit)
                {
                    self.at += 1;
                    while self.at < bytes.len() && is_ident_byte(bytes[self.at]) {
                        self.at += 1;
                    }
                }
                Token::Literal
            }
            _ => Token::Ident(word),
        }
    }
}

impl<'a> Iterator for Lexer<'a> {
    /// The token and the offset it starts at.
    type Item = (Token<'a>, usize);

    fn next(&mut self) -> Option<(Token<'a>, usize)> {
        let bytes = self.text.as_bytes();
        loop {
            let start = self.at;
            let b = *bytes.get(start)?;
            let token = match b {
                b if b.is_ascii_whitespace() => {
                    self.at += 1;
                    continue;
                }
                b'/' if bytes.get(start + 1) == Some(&b'/') => {
                    self.at = line_end(bytes, start);
                    continue;
                }
                b'/' if bytes.get(start + 1) == Some(&b'*') => {
                    let mut depth = 0usize;
                    while self.at < bytes.len() {
                        match (bytes[self.at], bytes.get(self.at + 1)) {
                            (b'/', Some(b'*')) => {
                                depth += 1;
                                self.at += 2;
                            }
                            (b'*', Some(b'/')) => {
                                depth -= 1;
                                self.at += 2;
                                if depth == 0 {
                                    break;
                                }
                            }
                            _ => self.at += 1,
                        }
                    }
                    continue;
                }
                b'(' | b'[' | b'{' => {
                    self.at += 1;
                    Token::Open(b)
                }
                b')' | b']' | b'}' => {
                    self.at += 1;
                    Token::Close(b)
                }
                b'"' => {
                    self.skip_string();
                    Token::Literal
                }
                b'\'' => self.quote(),
                b if is_ident_byte(b) => self.word(),
                _ => {
                    let rest = &self.text[start..];
                    let len = PUNCTS
                        .iter()
                        .find(|p| rest.starts_with(**p))
                        .map_or(1, |p| p.len());
                    self.at += len;
                    Token::Punct(&rest[..len])
                }
            };
            self.at = self.at.min(bytes.len());
            return Some((token, start));
        }
    }
}

fn line_end(bytes: &[u8], from: usize) -> usize {
    bytes[from..]
        .iter()
        .position(|b| *b == b'\n')
        .map_or(bytes.len(), |n| from + n)
}

/// The weights of the nesting estimate, in sixteenths of a level. syn parses and our visitors
/// walk every prefix form (`&`, `*`, `!`, `-`, closures, `->`, `=`, `return`, `move` …) and
/// every delimiter by recursion, one stack frame chain per level; generics cost less per level,
/// and chains (`a.b().c()`, `a + b + c`) much less: syn builds them in a loop, only the tree's
/// depth is walked recursively. A form counts until the end of its list item or statement
/// (`,`, `;`, `=>`) or its group: an over-estimate that real code stays far below.
const GROUP_COST: u64 = 16;
const PREFIX_COST: u64 = 16;
const ANGLE_COST: u64 = 2;
const CHAIN_COST: u64 = 1;
/// The file itself is a group: [`MAX_NESTING`] delimiters inside it are allowed.
const DEPTH_BUDGET: u64 = (MAX_NESTING as u64 + 1) * GROUP_COST;

/// One open delimiter (or the file itself) and what is pending in it.
#[derive(Default)]
struct Group {
    open: u8,
    at: usize,
    /// Prefix forms since the last `,`, `;` or `=>`.
    prefix: u64,
    /// `<` not yet closed by `>` since the last `;`: generics, or comparisons (over-counted).
    angles: u64,
    /// Postfix and infix operators since the last `,`, `;` or `=>`.
    chain: u64,
    /// Between the `|`s of a closure's parameters: a `,` there does not end the closure.
    in_closure_params: bool,
}

impl Group {
    fn cost(&self) -> u64 {
        GROUP_COST + self.prefix * PREFIX_COST + self.angles * ANGLE_COST + self.chain * CHAIN_COST
    }
}

/// Keywords after which an expression or type continues (as after an operator), and those that
/// start a form syn parses by recursion.
fn keyword(word: &str) -> Option<bool> {
    const RECURSIVE: [&str; 6] = ["return", "break", "box", "move", "yield", "become"];
    const OTHER: [&str; 36] = [
        "as", "async", "await", "const", "continue", "crate", "do", "dyn", "else", "enum",
        "extern", "fn", "for", "if", "impl", "in", "let", "loop", "macro", "match", "mod", "mut",
        "pub", "ref", "static", "struct", "trait", "try", "type", "union", "unsafe", "use",
        "where", "while", "abstract", "final",
    ];
    if RECURSIVE.contains(&word) {
        Some(true)
    } else if OTHER.contains(&word) {
        Some(false)
    } else {
        None
    }
}

/// Check delimiters and estimate how deep syn would recurse, in one linear pass.
fn scan_delimiters(text: &str) -> Delimiters {
    let mut stack = vec![Group::default()];
    // The sum of every open group's cost but the innermost one's.
    let mut below = 0u64;
    // Does the previous token end an operand (so `&`, `-`, `|`, `(` are infix or postfix)?
    let mut after_operand = false;
    for (token, at) in (Lexer { text, at: 0 }) {
        let nested = stack.len() > 1;
        let top = stack.last_mut().expect("the file's group is never popped");
        let mut operand = false;
        match token {
            Token::Open(b) => {
                if after_operand && b != b'{' {
                    top.chain += 1;
                }
                below += top.cost();
                stack.push(Group {
                    open: b,
                    at,
                    ..Group::default()
                });
            }
            Token::Close(b) => {
                let expected = match b {
                    b')' => b'(',
                    b']' => b'[',
                    _ => b'{',
                };
                if !nested || top.open != expected {
                    let open = nested.then_some((top.open as char, top.at));
                    return Delimiters::Mismatched {
                        at,
                        found: b as char,
                        open,
                    };
                }
                stack.pop();
                below -= stack.last().map_or(0, Group::cost);
                operand = true;
            }
            Token::Punct(p) => match p {
                "," if top.in_closure_params => {}
                "," | "=>" => {
                    top.prefix = 0;
                    top.chain = 0;
                }
                ";" => {
                    top.prefix = 0;
                    top.chain = 0;
                    top.angles = 0;
                    top.in_closure_params = false;
                }
                "|" if top.in_closure_params => top.in_closure_params = false,
                "|" | "||" if !after_operand => {
                    top.prefix += 1;
                    top.in_closure_params = p == "|";
                }
                "&" | "*" | "!" | "-" if !after_operand => top.prefix += 1,
                "&&" if !after_operand => top.prefix += 2,
                "<" => top.angles += 1,
                "<<" => top.angles += 2,
                ">" | ">>" | ">=" | ">>=" => {
                    let closes = if p.starts_with(">>") { 2 } else { 1 };
                    if top.angles == 0 {
                        top.chain += 1;
                    } else {
                        top.angles = top.angles.saturating_sub(closes);
                        operand = true;
                    }
                }
                "->" | "=" => top.prefix += 1,
                _ if p.len() == 2 && p.ends_with('=') && !matches!(p, "==" | "!=" | "<=") => {
                    top.prefix += 1;
                }
                "?" => {
                    top.chain += 1;
                    operand = true;
                }
                "::" | "#" | "$" | "@" | "~" => {}
                _ => top.chain += 1,
            },
            Token::Ident(word) => match keyword(word) {
                Some(true) => top.prefix += 1,
                Some(false) if word == "as" => top.chain += 1,
                Some(false) if word == "crate" => operand = true,
                Some(false) => {}
                None => operand = true,
            },
            Token::Literal => operand = true,
            Token::Lifetime => {}
        }
        after_operand = operand;
        if below + stack.last().map_or(0, Group::cost) > DEPTH_BUDGET {
            return Delimiters::TooDeep(at);
        }
    }
    match stack.pop() {
        Some(group) if !stack.is_empty() => Delimiters::Unclosed {
            open: group.open as char,
            at: group.at,
        },
        _ => Delimiters::Balanced,
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

    /// Every form syn parses by recursion, 100k deep, is refused before syn sees it.
    #[test]
    fn every_recursive_form_is_counted() {
        let n = 100_000;
        let forms = [
            format!("fn f() {{ let _ = {}0; }}", "|| ".repeat(n)),
            format!("fn f() {{ let _ = {}0; }}", "|a, b| ".repeat(n)),
            format!("fn f() {{ let _ = {}0; }}", "move |x| ".repeat(n)),
            format!("type T = {}u8{};", "Vec<".repeat(n), ">".repeat(n)),
            format!("type T = {}u8{};", "A<B, ".repeat(n), ">".repeat(n)),
            format!("type T = {}u8;", "&".repeat(n)),
            format!("type T = {}u8;", "&&".repeat(n)),
            format!("type T = {}u8;", "*const ".repeat(n)),
            format!("type T = {}u8;", "fn() -> ".repeat(n)),
            format!("fn f() -> {}u8 {{}}", "impl Fn() -> ".repeat(n)),
            format!("fn f() {{ let _ = {}x; }}", "!-*".repeat(n)),
            format!("fn f() {{ let {}x = 1; }}", "&".repeat(n)),
            format!("fn f() {{ {}1; }}", "a = ".repeat(n)),
            format!("fn f() {{ {}; }}", "return ".repeat(n)),
            format!("fn f() {{ x{}; }}", ".a()".repeat(n)),
            format!("fn f() {{ x{}; }}", "()".repeat(n)),
            format!("fn f() {{ x{}; }}", " + 1".repeat(n)),
        ];
        for text in forms {
            let err = parse(&file(&text)).unwrap_err();
            assert!(err.message.contains("nesting deeper"), "{}", &text[..40]);
        }
    }

    /// What real code does stays well inside the budget, and literals, comments and lifetimes
    /// do not count.
    #[test]
    fn real_code_and_literals_are_not_counted() {
        let n = 400;
        let texts = [
            format!(
                "fn f() {{ match x {{ {} => {{}} }} }}",
                vec!["A"; 5000].join(" | ")
            ),
            format!("fn f() {{ x{}; }}", ".route(\"/\", get(h))".repeat(2000)),
            format!("fn f() {{ let v = vec![{}]; }}", "a < b, ".repeat(2000)),
            format!("fn f() {{ let v = [{}]; }}", "&a, ".repeat(50_000)),
            format!("type T = {}u8{};", "Vec<".repeat(n), ">".repeat(n)),
            format!("fn f() {{ let _ = {}0; }}", "&".repeat(n)),
            format!("const S: &str = r#\"{}\"#;", "((((<&&||".repeat(n * 10)),
            format!(
                "const C: [char; 2] = ['(', '\\''];/* /* {} */ */",
                "(".repeat(n * 10)
            ),
            format!(
                "fn f<'a>(x: &'a u8) -> &'a u8 {{ {}x }} // {}",
                "&".repeat(n),
                "(".repeat(n)
            ),
        ];
        // syn needs the analysis stack for the deepest of these, as in `crate::analyze`.
        std::thread::Builder::new()
            .stack_size(ANALYSIS_STACK)
            .spawn(move || {
                for text in texts {
                    assert!(parse(&file(&text)).is_ok(), "{}", &text[..60]);
                }
            })
            .expect("spawn")
            .join()
            .expect("every text parses");
    }

    /// The scan is one pass: a megabyte of dense code takes a fraction of a second (a debug
    /// build on a loaded machine: seconds), not the minutes a quadratic scan would.
    #[test]
    fn the_scan_is_linear() {
        let line = "    let x = a.b(&c, |d| d + 1)?.e::<Vec<u8>>() as u32; // (\n";
        let text = line.repeat((1 << 20) / line.len());
        let start = std::time::Instant::now();
        assert_eq!(scan_delimiters(&text), Delimiters::Balanced);
        assert!(start.elapsed() < std::time::Duration::from_secs(20));
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

thread_local! {
    /// How often this thread's proc-macro2 span table was released (see [`release_thread_spans`]).
    static SPAN_RELEASES: Cell<u64> = const { Cell::new(0) };
}

/// The proc-macro2 span table the syntax trees parsed now on this thread point into: a tree is
/// only usable while the table it was parsed into is the current one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpanTable {
    thread: ThreadId,
    releases: u64,
}

impl SpanTable {
    pub fn current() -> SpanTable {
        SpanTable {
            thread: std::thread::current().id(),
            releases: SPAN_RELEASES.with(Cell::get),
        }
    }
}

/// Release this thread's proc-macro2 span table, which keeps the text of every file parsed on
/// the thread: every syntax tree parsed here before is unusable afterwards (its spans give wrong
/// offsets or panic), which [`SpanTable::current`] tells.
pub fn release_thread_spans() {
    proc_macro2::extra::invalidate_current_thread_spans();
    SPAN_RELEASES.with(|r| r.set(r.get() + 1));
}
