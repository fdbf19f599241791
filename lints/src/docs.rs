//! Documentation generated from the lint declarations: the README's lint table, the short
//! description SARIF uses, and the checks every lint's docs must pass (run by `tests/docs.rs`).

use crate::registry::{self, Group, Lint};

/// The headings every lint's docs carry, in this order.
pub const REQUIRED_HEADINGS: [&str; 6] = [
    "What it does",
    "Why is this bad?",
    "Example",
    "Use instead",
    "Known problems",
    "Spec",
];

/// The extra heading an MCP lint (every group but `meta`) carries, after the others.
pub const SDK_NOTES_HEADING: &str = "SDK notes";

/// The heading an MCP lint carries right after `### Use instead`: what `--fix` does for it and
/// when that changes behaviour (or why there is no automatic fix).
pub const FIX_SAFETY_HEADING: &str = "Fix safety";

/// Longest first paragraph of `### What it does` (it becomes SARIF's `fullDescription`).
pub const MAX_FULL_DESCRIPTION: usize = 1000;

/// Every lint in table order: the MCP lints first, then mcp-lint's own (`meta`) lints, each
/// part in registry (code) order.
pub fn lints_in_table_order() -> Vec<&'static Lint> {
    let (mut mcp, meta): (Vec<&'static Lint>, Vec<&'static Lint>) = registry::all()
        .iter()
        .copied()
        .partition(|l| l.group != Group::Meta);
    mcp.extend(meta);
    mcp
}

/// The README's lint table: code, name, group, default level and summary of every lint.
pub fn lint_table_markdown() -> String {
    let mut out = String::from("| Code | Name | Group | Default | Summary |\n");
    out.push_str("|---|---|---|---|---|\n");
    for lint in lints_in_table_order() {
        out.push_str(&format!(
            "| {} | `{}` | {} | {} | {} |\n",
            lint.code,
            lint.name,
            lint.group.as_str(),
            lint.default_level.as_str(),
            escape_cell(lint.summary),
        ));
    }
    out
}

fn escape_cell(text: &str) -> String {
    text.replace('|', "\\|")
}

/// The first paragraph of `### What it does`, joined into one line: the short description
/// SARIF's `fullDescription` and rule listings use. Empty when the section is missing.
pub fn full_description(lint: &Lint) -> String {
    let section = lint.doc_section("What it does").unwrap_or_default();
    section
        .split("\n\n")
        .next()
        .unwrap_or_default()
        .lines()
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A fenced code block in a lint's docs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeBlock {
    /// The `###` heading the block sits under.
    pub heading: String,
    /// The info string after the opening fence (`rust`, `toml`, `text`).
    pub lang: String,
    pub code: String,
    /// 1-based line of the opening fence within [`Lint::docs`].
    pub line: usize,
}

/// Every fenced code block of the docs, or the line of a fence that is never closed.
pub fn code_blocks(lint: &Lint) -> Result<Vec<CodeBlock>, usize> {
    markdown_code_blocks(&lint.docs())
}

/// Every fenced code block of a Markdown text (fences may be indented, as in list items), or the
/// line of a fence that is never closed. Headings are the `###` ones.
pub fn markdown_code_blocks(docs: &str) -> Result<Vec<CodeBlock>, usize> {
    let mut blocks = Vec::new();
    let mut heading = String::new();
    let mut open: Option<CodeBlock> = None;
    for (i, line) in docs.lines().enumerate() {
        let trimmed = line.trim_start();
        match open.as_mut() {
            Some(block) => {
                if trimmed.starts_with("```") {
                    blocks.extend(open.take());
                } else {
                    block.code.push_str(line);
                    block.code.push('\n');
                }
            }
            None => {
                if let Some(info) = trimmed.strip_prefix("```") {
                    open = Some(CodeBlock {
                        heading: heading.clone(),
                        lang: info.trim().to_string(),
                        code: String::new(),
                        line: i + 1,
                    });
                } else if let Some(h) = line.strip_prefix("### ") {
                    heading = h.trim().to_string();
                }
            }
        }
    }
    match open {
        Some(block) => Err(block.line),
        None => Ok(blocks),
    }
}

/// Whether a code block's info string marks it as Rust (`rust`, `rust,ignore`, ...).
pub fn is_rust(block: &CodeBlock) -> bool {
    block.lang.split(',').next().map(str::trim) == Some("rust")
}

/// Everything wrong with a lint's docs and summary; empty when they follow the conventions.
pub fn doc_problems(lint: &Lint) -> Vec<String> {
    let mut problems = Vec::new();
    let docs = lint.docs();
    let headings: Vec<&str> = docs
        .lines()
        .filter_map(|l| l.strip_prefix("### "))
        .map(str::trim)
        .collect();

    let mut expected: Vec<&str> = REQUIRED_HEADINGS.to_vec();
    if lint.group != Group::Meta {
        let after_use_instead = expected
            .iter()
            .position(|h| *h == "Use instead")
            .map_or(0, |i| i + 1);
        expected.insert(after_use_instead, FIX_SAFETY_HEADING);
        expected.push(SDK_NOTES_HEADING);
    }
    for wanted in &expected {
        match headings.iter().filter(|h| *h == wanted).count() {
            0 => problems.push(format!("missing heading `### {wanted}`")),
            1 => {}
            n => problems.push(format!("heading `### {wanted}` appears {n} times")),
        }
    }
    let order: Vec<&str> = headings
        .iter()
        .copied()
        .filter(|h| expected.contains(h))
        .collect();
    let mut dedup = order.clone();
    dedup.dedup();
    if dedup.len() == expected.len() && dedup != expected {
        problems.push(format!(
            "headings are out of order: {dedup:?}, expected {expected:?}"
        ));
    }
    for wanted in &expected {
        if lint.doc_section(wanted).is_some_and(|s| s.is_empty()) {
            problems.push(format!("section `### {wanted}` is empty"));
        }
    }

    problems.extend(summary_problems(lint.summary));

    let description = full_description(lint);
    if description.is_empty() {
        problems.push("`### What it does` has no first paragraph".to_string());
    } else if description.chars().count() >= MAX_FULL_DESCRIPTION {
        problems.push(format!(
            "the first paragraph of `### What it does` has {} characters (limit {})",
            description.chars().count(),
            MAX_FULL_DESCRIPTION
        ));
    }

    match code_blocks(lint) {
        Err(line) => problems.push(format!(
            "code block opened on docs line {line} is never closed"
        )),
        Ok(blocks) => {
            if !blocks.iter().any(|b| b.heading == "Example") {
                problems.push("`### Example` has no code block".to_string());
            }
            for block in &blocks {
                if block.lang.is_empty() {
                    problems.push(format!(
                        "code block on docs line {} has no language (write ```rust, ```toml or ```text)",
                        block.line
                    ));
                } else if let Some(e) = rust_syntax_error(block) {
                    problems.push(format!(
                        "```rust block on docs line {} (under `### {}`) is not valid Rust syntax: {e}",
                        block.line, block.heading
                    ));
                }
            }
        }
    }
    problems
}

/// The style rules for a lint's one-line summary.
pub fn summary_problems(summary: &str) -> Vec<String> {
    let mut problems = Vec::new();
    match summary.chars().next() {
        None => problems.push("summary is empty".to_string()),
        Some(c) if c.is_uppercase() => {
            problems.push(format!("summary `{summary}` must start lowercase"))
        }
        Some(c) if c.is_whitespace() => {
            problems.push(format!("summary `{summary}` starts with whitespace"))
        }
        Some(_) => {}
    }
    if summary.trim_end().ends_with('.') {
        problems.push(format!("summary `{summary}` must not end with a period"));
    }
    if summary.contains('\n') {
        problems.push("summary must be one line".to_string());
    }
    problems
}

/// Why a ```rust block is not valid Rust syntax; `None` for valid blocks and other languages.
pub fn rust_syntax_error(block: &CodeBlock) -> Option<String> {
    if !is_rust(block) {
        return None;
    }
    parse_rust(&block.code).err().map(|e| e.to_string())
}

/// Doc examples are items (a whole file) or statements (a block body); they are parsed, never
/// compiled.
fn parse_rust(code: &str) -> Result<(), syn::Error> {
    match syn::parse_file(code) {
        Ok(_) => Ok(()),
        Err(as_file) => syn::parse_str::<syn::Block>(&format!("{{\n{code}\n}}"))
            .map(|_| ())
            .map_err(|_| as_file),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_rules() {
        assert!(summary_problems("a tool's failure").is_empty());
        assert!(summary_problems("-32602 used inside a tool").is_empty());
        assert_eq!(summary_problems("A tool's failure").len(), 1);
        assert_eq!(summary_problems("a tool's failure.").len(), 1);
        assert_eq!(summary_problems("").len(), 1);
    }

    #[test]
    fn rust_blocks_parse_as_items_or_statements() {
        assert!(parse_rust("fn f() -> u8 { 1 }").is_ok());
        assert!(parse_rust("let x = f()?;\nOk(x)").is_ok());
        assert!(parse_rust("fn f( {").is_err());
    }

    #[test]
    fn table_lists_meta_lints_last() {
        let order = lints_in_table_order();
        assert_eq!(order.len(), registry::all().len());
        let first_meta = order.iter().position(|l| l.group == Group::Meta);
        if let Some(first) = first_meta {
            assert!(order[first..].iter().all(|l| l.group == Group::Meta));
        }
        let table = lint_table_markdown();
        assert_eq!(table.lines().count(), order.len() + 2);
        assert!(table.starts_with("| Code | Name | Group | Default | Summary |\n"));
    }

    fn lint(summary: &'static str, doc_lines: &'static [&'static str]) -> Lint {
        Lint {
            name: "sample_lint",
            code: "MCP099",
            group: Group::Style,
            default_level: crate::registry::Level::Warn,
            summary,
            doc_lines,
            since: "0.1.0",
            file: file!(),
        }
    }

    const GOOD: &[&str] = &[
        " ### What it does",
        " Finds `x`.",
        "",
        " More detail.",
        " ### Why is this bad?",
        " Because.",
        " ### Example",
        " ```rust",
        " fn f() -> Result<(), String> { Err(String::new()) }",
        " ```",
        " ### Use instead",
        " ```rust",
        " let x = f()?;",
        " ```",
        " ### Fix safety",
        " No automatic fix.",
        " ### Known problems",
        " None known.",
        " ### Spec",
        " \"A quote.\"",
        " ### SDK notes",
        " rmcp: all generations.",
    ];

    #[test]
    fn conforming_docs_have_no_problems() {
        let l = lint("finds x", GOOD);
        assert_eq!(doc_problems(&l), Vec::<String>::new());
        assert_eq!(full_description(&l), "Finds `x`.");
        let blocks = code_blocks(&l).unwrap();
        assert_eq!(blocks.len(), 2);
        assert_eq!(blocks[0].heading, "Example");
        assert_eq!(blocks[1].code, "let x = f()?;\n");
        assert!(blocks.iter().all(is_rust));
    }

    #[test]
    fn every_kind_of_problem_is_reported() {
        let bad: &'static [&'static str] = &[
            " ### What it does",
            " Finds x.",
            " ### Example",
            " ```rust",
            " fn broken( {",
            " ```",
            " ```",
            " plain",
            " ```",
            " ### Why is this bad?",
            " ### Spec",
            " ```rust",
        ];
        let problems = doc_problems(&lint("Finds x.", bad));
        let has = |needle: &str| problems.iter().any(|p| p.contains(needle));
        assert!(has("missing heading `### Use instead`"), "{problems:?}");
        assert!(has("missing heading `### Known problems`"));
        assert!(has("missing heading `### SDK notes`"));
        assert!(has("missing heading `### Fix safety`"));
        assert!(has("section `### Why is this bad?` is empty"));
        assert!(has("must start lowercase"));
        assert!(has("must not end with a period"));
        assert!(has("never closed"), "{problems:?}");

        let unordered: Vec<&'static str> = GOOD[4..6]
            .iter()
            .chain(&GOOD[..4])
            .chain(&GOOD[6..])
            .copied()
            .collect();
        let unordered: &'static [&'static str] = Vec::leak(unordered);
        let problems = doc_problems(&lint("finds x", unordered));
        assert!(
            problems.iter().any(|p| p.contains("out of order")),
            "{problems:?}"
        );

        let mut with_bad_blocks = GOOD.to_vec();
        with_bad_blocks.splice(12..13, [" fn broken( {"]);
        with_bad_blocks.splice(7..8, [" ```"]);
        let with_bad_blocks: &'static [&'static str] = Vec::leak(with_bad_blocks);
        let problems = doc_problems(&lint("finds x", with_bad_blocks));
        assert!(
            problems.iter().any(|p| p.contains("has no language")),
            "{problems:?}"
        );
        assert!(
            problems.iter().any(|p| p.contains("not valid Rust syntax")),
            "{problems:?}"
        );
    }

    #[test]
    fn long_first_paragraphs_are_reported() {
        let long: &'static str = Box::leak(format!(" {}", "word ".repeat(250)).into_boxed_str());
        let mut lines = GOOD.to_vec();
        lines[1] = long;
        let problems = doc_problems(&lint("finds x", Vec::leak(lines)));
        assert!(
            problems
                .iter()
                .any(|p| p.contains("characters (limit 1000)")),
            "{problems:?}"
        );
    }

    #[test]
    fn cells_escape_pipes() {
        assert_eq!(escape_cell("a | b"), "a \\| b");
    }
}
