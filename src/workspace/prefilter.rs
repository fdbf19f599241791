//! The byte-level prefilter: which crates can have a finding at all, decided before anything
//! is parsed.
//!
//! Every MCP lint needs the crate's SDK dialect (`lints::sdk::detect_all`), and a crate gets
//! one only when it is one of an SDK's own packages (`lints::sdk::is_own_crate`: its examples
//! are servers, its library has codes), its manifest depends on an SDK (rmcp, rust-mcp-sdk,
//! pmcp, turbomcp, mcp-attr, ultrafast-mcp, tower-mcp, kodegen: `lints::sdk::sdk_roots`), or one of its files
//! imports an SDK's root module (a `use` path starting with it) or mentions `root::` anywhere,
//! or it is a hand-rolled server with a `"tools/call"` literal. The suppression lints need a suppression, which names
//! `mcp-lint` (comments) or `mcp_lint` (attributes).
//! So a crate whose manifest and files show none of these has no MCP finding and no
//! suppression finding, whatever its files contain; mcp-lint reads it but never parses it.
//!
//! The one thing that does change: syntax errors in such a crate are not reported
//! (`parse_error` is about files mcp-lint needs to analyse; `cargo check` reports the rest).
//! `--no-prefilter` analyses every crate. `tests/prefilter.rs` runs corpora both ways and
//! requires identical findings apart from that.
//!
//! The rule is per crate, not per file: a file that never names the SDK can still matter as
//! context (a helper, a const, a `use` alias, an `impl From`), so one marker anywhere in the
//! crate makes every file of it analysed.

use lints::sdk::{self, SDK_COUNT};
use lints::Manifest;
use memchr::memmem;

/// Substrings that may start a suppression: `// mcp-lint: allow(..)`, `mcp_lint::name`.
const SUPPRESSION_MARKERS: [&str; 2] = ["mcp-lint", "mcp_lint"];

/// The byte-level facts gathered from one file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FileMarks {
    /// A suppression marker somewhere in the bytes.
    pub certain: bool,
    /// A `"tools/call"` literal (a hand-rolled server) somewhere in the bytes.
    pub hand_rolled: bool,
    /// Per SDK (by index in `lints::sdk::sdk_roots()`): one of its roots appears as an
    /// identifier token outside comments and literals, or as `root::` anywhere.
    pub sdk: [bool; SDK_COUNT],
}

impl FileMarks {
    pub fn any(&self) -> bool {
        self.certain || self.hand_rolled || self.sdk.iter().any(|b| *b)
    }
}

/// Scan one file. Cheap: one SIMD substring search per needle, and a small lexer only over
/// files that contain an SDK's name at all.
pub fn scan(bytes: &[u8]) -> FileMarks {
    let mut marks = FileMarks {
        certain: SUPPRESSION_MARKERS
            .iter()
            .any(|m| memmem::find(bytes, m.as_bytes()).is_some()),
        hand_rolled: memmem::find(bytes, sdk::jsonrpc::TOOLS_CALL_LITERAL.as_bytes()).is_some(),
        sdk: [false; SDK_COUNT],
    };
    for (i, roots) in sdk::sdk_roots().iter().enumerate() {
        // A root with `-` is a package name, never written in code.
        marks.sdk[i] = roots.iter().filter(|r| !r.contains('-')).any(|root| {
            memmem::find(bytes, root.as_bytes()).is_some()
                && (memmem::find(bytes, format!("{root}::").as_bytes()).is_some()
                    || has_ident(bytes, root))
        });
    }
    marks
}

/// Could the crate with this manifest and these per-file marks have any finding?
pub fn crate_may_matter(manifest: Option<&Manifest>, files: &[FileMarks]) -> bool {
    if files.iter().any(|f| f.certain || f.hand_rolled) || sdk::own_sdk(manifest).is_some() {
        return true;
    }
    sdk::sdk_roots().iter().enumerate().any(|(i, roots)| {
        sdk::sdk_dependency(manifest, roots).is_some() || files.iter().any(|f| f.sdk[i])
    })
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Part of a word: an ASCII identifier byte, or a non-ASCII byte outside Rust's non-ASCII
/// whitespace (U+0085, U+200E, U+200F, U+2028, U+2029), which separates tokens.
fn is_word_byte(bytes: &[u8], i: usize) -> bool {
    let b = bytes[i];
    if b < 0x80 {
        return is_ident_byte(b);
    }
    let rest = &bytes[i..];
    !(rest.starts_with(&[0xC2, 0x85])
        || rest.starts_with(&[0xE2, 0x80, 0x8E])
        || rest.starts_with(&[0xE2, 0x80, 0x8F])
        || rest.starts_with(&[0xE2, 0x80, 0xA8])
        || rest.starts_with(&[0xE2, 0x80, 0xA9]))
}

/// Does `word` occur in `bytes` as an identifier token outside comments, string, byte-string,
/// raw-string and character literals?
///
/// Errs towards "yes": the lexer only skips what is certainly a comment or a literal, and a
/// non-ASCII character next to the word does not hide it, so text that `proc_macro2` lexes
/// into an `Ident` equal to `word` is always found (checked against proc_macro2 on random
/// token soup below and in the fuzz target).
pub fn has_ident(bytes: &[u8], word: &str) -> bool {
    let word = word.as_bytes();
    let n = bytes.len();
    let mut i = 0;
    while i < n {
        let b = bytes[i];
        match b {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i = memchr::memchr(b'\n', &bytes[i..]).map_or(n, |k| i + k + 1);
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                let mut depth = 1usize;
                i += 2;
                while i < n && depth > 0 {
                    if bytes[i] == b'/' && bytes.get(i + 1) == Some(&b'*') {
                        depth += 1;
                        i += 2;
                    } else if bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/') {
                        depth -= 1;
                        i += 2;
                    } else {
                        i += 1;
                    }
                }
            }
            b'"' => {
                i = skip_string(bytes, i + 1);
                i = skip_suffix(bytes, i);
            }
            b'\'' => {
                let end = skip_char_or_lifetime(bytes, i);
                i = if end > i + 1 {
                    skip_suffix(bytes, end)
                } else {
                    end
                };
            }
            _ if is_word_byte(bytes, i) => {
                // A word: ASCII identifier bytes and any non-ASCII ones (`é` continues an
                // identifier). It matches when one of its ASCII runs is the word, which also
                // covers non-ASCII whitespace such as U+2028 next to it.
                let start = i;
                while i < n && is_word_byte(bytes, i) {
                    i += 1;
                }
                let token = &bytes[start..i];
                if token.split(|b| *b >= 0x80).any(|run| run == word) {
                    return true;
                }
                // A raw identifier `r#name`: the name is a word, never a raw string prefix.
                if token == b"r"
                    && bytes.get(i) == Some(&b'#')
                    && bytes.get(i + 1).is_some_and(|_| is_word_byte(bytes, i + 1))
                {
                    let name = i + 1;
                    i = name;
                    while i < n && is_word_byte(bytes, i) {
                        i += 1;
                    }
                    if bytes[name..i].split(|b| *b >= 0x80).any(|run| run == word) {
                        return true;
                    }
                    continue;
                }
                // Raw strings: `r"…"`, `r#"…"#`, `br##"…"##`, `cr"…"`.
                if matches!(token, b"r" | b"br" | b"cr") {
                    let mut j = i;
                    while j < n && bytes[j] == b'#' {
                        j += 1;
                    }
                    if bytes.get(j) == Some(&b'"') {
                        i = skip_raw_string(bytes, j + 1, j - i);
                        i = skip_suffix(bytes, i);
                    }
                }
            }
            // Non-ASCII whitespace: skip the whole character.
            _ if b >= 0xE0 => i += 3,
            _ if b >= 0x80 => i += 2,
            _ => i += 1,
        }
    }
    false
}

/// Past a literal's suffix (`"text"suffix`, `'c'suffix`): an identifier that is part of the
/// literal, so `"a"br#"` does not start a raw string. A suffix is not an identifier token, so
/// no import can be written with it.
fn skip_suffix(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && is_ident_byte(bytes[i]) {
        i += 1;
    }
    i
}

/// Past the closing quote of a string whose body starts at `i`.
fn skip_string(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// Past `"` followed by `hashes` `#`s, for a raw string whose body starts at `i`.
fn skip_raw_string(bytes: &[u8], mut i: usize, hashes: usize) -> usize {
    while let Some(k) = memchr::memchr(b'"', &bytes[i.min(bytes.len())..]) {
        let close = i + k + 1;
        if bytes.len() >= close + hashes && bytes[close..close + hashes].iter().all(|b| *b == b'#')
        {
            return close + hashes;
        }
        i = close;
    }
    bytes.len()
}

/// At a `'`: skip a character literal (`'x'`, `'\n'`, `'\u{1F600}'`, `'é'`); a lifetime or
/// label is left to be read as a word.
fn skip_char_or_lifetime(bytes: &[u8], i: usize) -> usize {
    let rest = &bytes[i + 1..];
    if rest.first() == Some(&b'\\') {
        // An escape: the literal ends at the next quote, within `'\u{10FFFF}'`.
        return match rest.iter().take(12).skip(2).position(|b| *b == b'\'') {
            Some(k) => i + 1 + 2 + k + 1,
            None => i + 1,
        };
    }
    let char_len = match rest.first() {
        Some(b) if *b < 0x80 => 1,
        Some(b) if *b >= 0xF0 => 4,
        Some(b) if *b >= 0xE0 => 3,
        Some(_) => 2,
        None => return i + 1,
    };
    if rest.get(char_len) == Some(&b'\'') {
        i + 1 + char_len + 1
    } else {
        i + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lints::Dependency;

    fn manifest(package: &str, deps: &[&str]) -> Manifest {
        Manifest {
            package_name: Some(package.to_string()),
            package_version: None,
            published: false,
            locked: None,
            targets: Default::default(),
            dependencies: deps
                .iter()
                .map(|d| Dependency {
                    name: d.to_string(),
                    version: Some("1".into()),
                    rename: None,
                    path: None,
                })
                .collect(),
        }
    }

    #[test]
    fn identifiers_count_but_comments_and_literals_do_not() {
        for text in [
            "use rmcp::model::*;",
            "use rmcp as sdk;",
            "extern crate rmcp;",
            "use r#rmcp;",
            "use {rmcp};",
            "fn f() { let s = \"rmcp\"; } use rmcp;",
            "let c = '\"'; use rmcp;",
            "let q = '\\''; use rmcp;",
            "fn f<'a>(x: &'a str) {} use rmcp;",
            "let s = r#\"a \" rmcp \"#; use rmcp;",
            "/* outer /* nested */ still */ use rmcp;",
            "let e = 'é'; use rmcp;",
        ] {
            assert!(has_ident(text.as_bytes(), "rmcp"), "{text}");
        }
        assert!(has_ident("\u{2028}rmcp".as_bytes(), "rmcp"));
        for text in [
            "// rmcp-parity",
            "/* see rmcp 0.8 */",
            "/* a /* nested */ rmcp */",
            "let s = \"rmcp\";",
            "let s = r#\"rmcp\"#;",
            "let s = br\"rmcp\";",
            "let s = \"\\\" rmcp\";",
            "fn rmcp_like() {} struct Xrmcp;",
            "let rmcp2 = 1;",
        ] {
            assert!(!has_ident(text.as_bytes(), "rmcp"), "{text}");
        }
    }

    #[test]
    fn paths_count_anywhere_even_in_comments() {
        // `Dialect::detect` accepts `rmcp::` anywhere in the text.
        assert!(scan(b"/// returns an rmcp::ErrorData").any());
        assert!(!scan(b"/// compatible with rmcp 0.8").any());
        assert!(scan(b"// mcp-lint: allow(panic_in_tool) fine").certain);
        assert!(scan(b"#[cfg_attr(mcp_lint, allow(mcp_lint::x))]").certain);
        assert!(!scan(b"fn memcpy() {}").any());
    }

    #[test]
    fn crates_decide_by_manifest_files_and_own_crates() {
        let plain = FileMarks::default();
        let mentions = scan(b"use rmcp::model::*;");
        assert!(!crate_may_matter(None, &[plain, plain]));
        assert!(crate_may_matter(None, &[plain, mentions]));
        assert!(crate_may_matter(
            Some(&manifest("server", &["rmcp"])),
            &[plain]
        ));
        assert!(!crate_may_matter(
            Some(&manifest("server", &["tokio"])),
            &[plain]
        ));
        // The SDK's own crates matter whatever their files say: their examples are servers,
        // their library's codes are judged.
        assert!(crate_may_matter(
            Some(&manifest("rmcp-macros", &["rmcp"])),
            &[plain]
        ));
        assert!(crate_may_matter(Some(&manifest("pmcp", &[])), &[plain]));
        assert!(!crate_may_matter(
            Some(&manifest("rmcp-openapi", &["tokio"])),
            &[plain]
        ));
    }

    #[test]
    fn every_sdk_and_hand_rolled_servers_count() {
        let plain = FileMarks::default();
        for text in [
            "use rust_mcp_sdk::schema::CallToolResult;",
            "use rust_mcp_schema::CallToolError;",
            "use pmcp::{Error, ToolHandler};",
            "use turbomcp::prelude::*;",
            "fn f() -> turbomcp_protocol::McpResult<()> { todo!() }",
            "use mcp_attr::server::mcp_server;",
            "use jsoncall::ErrorCode;",
            "use ultrafast_mcp::{MCPError, ToolResult};",
            "let method = \"tools/call\";",
            "match m { r\"tools/call\" => {} _ => {} }",
        ] {
            assert!(
                crate_may_matter(None, &[plain, scan(text.as_bytes())]),
                "{text}"
            );
        }
        for dep in [
            "rust-mcp-sdk",
            "rust-mcp-schema",
            "pmcp",
            "turbomcp",
            "turbomcp-server",
            "mcp-attr",
            "ultrafast-mcp",
            "ultrafast-mcp-server",
        ] {
            assert!(
                crate_may_matter(Some(&manifest("server", &[dep])), &[plain]),
                "{dep}"
            );
        }
        // A dependency renamed in Cargo.toml (`mcp = { package = "rmcp" }`), whose files only
        // say `mcp::`: the manifest names the crate.
        let mut renamed = manifest("server", &["rmcp"]);
        renamed.dependencies[0].rename = Some("mcp".into());
        assert!(crate_may_matter(
            Some(&renamed),
            &[scan(b"use mcp::model::CallToolResult;")]
        ));
        // Prose and lookalikes do not.
        for text in [
            "// ported from pmcp and turbomcp",
            "let s = \"rust_mcp_sdk\";",
            "fn pmcp_like() {} let tools_call = \"tools.call\";",
        ] {
            assert!(!crate_may_matter(None, &[scan(text.as_bytes())]), "{text}");
        }
        // Each SDK's own crates matter.
        for package in [
            "turbomcp-server",
            "rust-mcp-sdk",
            "rmcp",
            "ultrafast-mcp-core",
        ] {
            assert!(
                crate_may_matter(Some(&manifest(package, &[])), &[plain]),
                "{package}"
            );
        }
        let routes = scan(b"const CALL: &str = \"tools/call\";");
        assert!(crate_may_matter(
            Some(&manifest("my-server", &[])),
            &[routes]
        ));
    }

    /// Random token soup: whenever proc_macro2 lexes it and finds the identifier, so must we.
    #[test]
    fn never_misses_an_identifier_proc_macro2_sees() {
        const PIECES: [&str; 31] = [
            "rmcp", " ", "\n", "\"", "'", "r#", "r\"", "#", "/*", "*/", "//", "\\", "a", "'a",
            "'x'", "b\"", "br#\"", "\"#", "::", "é", "{", "}", ";", "_", "1", "'\\''", "c\"", "b'",
            "r", "'é'", "\u{2028}",
        ];
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut lexed = 0;
        // `PREFILTER_SAMPLES=2000000 cargo test --lib prefilter` for a longer run.
        let samples: usize = std::env::var("PREFILTER_SAMPLES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(20_000);
        for _ in 0..samples {
            let len = 1 + (next() % 12) as usize;
            let text: String = (0..len)
                .map(|_| PIECES[(next() % PIECES.len() as u64) as usize])
                .collect();
            let Ok(tokens) = text.parse::<proc_macro2::TokenStream>() else {
                continue;
            };
            lexed += 1;
            if contains_ident(tokens, "rmcp") {
                assert!(has_ident(text.as_bytes(), "rmcp"), "missed in {text:?}");
            }
        }
        assert!(lexed > 1000, "only {lexed} samples lexed");
    }

    fn contains_ident(tokens: proc_macro2::TokenStream, word: &str) -> bool {
        tokens.into_iter().any(|t| match t {
            proc_macro2::TokenTree::Ident(i) => {
                let s = i.to_string();
                s == word || s.strip_prefix("r#") == Some(word)
            }
            proc_macro2::TokenTree::Group(g) => contains_ident(g.stream(), word),
            _ => false,
        })
    }
}
