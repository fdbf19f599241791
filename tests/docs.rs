//! The docs stay true to the lint declarations: the README's lint table is generated from the
//! registry (bless with `MCP_LINT_BLESS=1 cargo test --test docs`), and every lint's docs follow
//! the agreed structure.

use std::collections::HashSet;
use std::path::PathBuf;

use lints::docs;
use lints::registry;

const START: &str = "<!-- lints:start -->";
const END: &str = "<!-- lints:end -->";

fn readme_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("README.md")
}

/// The README with the text between the markers replaced by `table` (markers kept, each on its
/// own line), or why that is not possible.
fn splice(readme: &str, table: &str) -> Result<String, String> {
    let start = readme
        .find(START)
        .ok_or_else(|| format!("README.md has no `{START}` marker"))?;
    let body_start = start + START.len();
    let end = readme[body_start..]
        .find(END)
        .map(|i| body_start + i)
        .ok_or_else(|| format!("README.md has no `{END}` marker after `{START}`"))?;
    if readme[end + END.len()..].contains(START) || readme[end + END.len()..].contains(END) {
        return Err("README.md has more than one lint table section".to_string());
    }
    Ok(format!(
        "{}\n{}{}",
        &readme[..body_start],
        table,
        &readme[end..]
    ))
}

#[test]
fn readme_lint_table_is_current() {
    let path = readme_path();
    let readme = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let expected = splice(&readme, &docs::lint_table_markdown()).unwrap_or_else(|e| panic!("{e}"));
    if expected == readme {
        return;
    }
    if std::env::var_os("MCP_LINT_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&path, &expected)
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
        return;
    }
    let current = &readme[readme.find(START).unwrap()..readme.find(END).unwrap() + END.len()];
    panic!(
        "the lint table in README.md is stale; run `MCP_LINT_BLESS=1 cargo test --test docs`.\n\
         current:\n{current}\n\nexpected:\n{START}\n{}{END}",
        docs::lint_table_markdown()
    );
}

#[test]
fn readme_rust_examples_are_valid_syntax() {
    let readme = std::fs::read_to_string(readme_path()).expect("README.md is readable");
    let blocks = docs::markdown_code_blocks(&readme)
        .unwrap_or_else(|line| panic!("README.md: code block on line {line} is never closed"));
    assert!(
        blocks.iter().any(docs::is_rust),
        "README.md has Rust examples"
    );
    for block in &blocks {
        if let Some(e) = docs::rust_syntax_error(block) {
            panic!(
                "README.md line {}: ```rust block is not valid Rust syntax: {e}",
                block.line
            );
        }
    }
}

#[test]
fn splice_replaces_only_the_marked_section() {
    let readme = format!("# T\n\nbefore\n{START}\nold | table\n{END}\nafter\n");
    let out = splice(&readme, "| new |\n").unwrap();
    assert_eq!(
        out,
        format!("# T\n\nbefore\n{START}\n| new |\n{END}\nafter\n")
    );
    assert_eq!(splice(&out, "| new |\n").unwrap(), out);
    assert!(splice("no markers", "x").is_err());
    assert!(splice(&format!("{END}\n{START}\n"), "x").is_err());
    assert!(splice(&format!("{START}\n{END}\n{START}\n{END}\n"), "x").is_err());
}

#[test]
fn every_lint_documents_itself() {
    let mut failures = Vec::new();
    for lint in registry::all() {
        for problem in docs::doc_problems(lint) {
            failures.push(format!("{} ({}): {problem}", lint.code, lint.name));
        }
    }
    assert!(
        failures.is_empty(),
        "lint docs do not follow the conventions:\n{}",
        failures.join("\n")
    );
}

#[test]
fn mcp_lints_explain_what_they_mean_for_rmcp() {
    for lint in registry::all() {
        if lint.group == lints::Group::Meta {
            continue;
        }
        let notes = lint
            .doc_section(docs::SDK_NOTES_HEADING)
            .unwrap_or_default();
        assert!(
            notes.contains("rmcp"),
            "{}: `### SDK notes` must say what the lint means for rmcp",
            lint.name
        );
    }
}

#[test]
fn codes_and_names_are_unique_and_well_formed() {
    let mut names = HashSet::new();
    let mut codes = HashSet::new();
    for lint in registry::all() {
        assert!(names.insert(lint.name), "duplicate lint name {}", lint.name);
        assert!(codes.insert(lint.code), "duplicate lint code {}", lint.code);
        assert!(
            lint.name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'),
            "lint name `{}` is not snake_case",
            lint.name
        );
        let digits = lint.code.strip_prefix("MCP").unwrap_or("");
        assert!(
            digits.len() == 3 && digits.chars().all(|c| c.is_ascii_digit()),
            "lint code `{}` is not MCPnnn",
            lint.code
        );
        let meta_code = digits.starts_with('9');
        assert_eq!(
            meta_code,
            lint.group == lints::Group::Meta,
            "{}: MCP9xx codes are for the meta group, and only them",
            lint.code
        );
    }
}

#[test]
fn table_has_one_row_per_lint_in_table_order() {
    let table = docs::lint_table_markdown();
    let rows: Vec<&str> = table.lines().skip(2).collect();
    let order = docs::lints_in_table_order();
    assert_eq!(rows.len(), order.len());
    for (row, lint) in rows.iter().zip(order) {
        assert!(
            row.starts_with(&format!("| {} | `{}` | ", lint.code, lint.name)),
            "row `{row}` is not {}",
            lint.code
        );
        assert!(row.contains(lint.summary));
    }
}

#[test]
fn full_descriptions_are_the_first_paragraph() {
    for lint in registry::all() {
        let description = docs::full_description(lint);
        let section = lint.doc_section("What it does").unwrap_or_default();
        assert!(!description.contains('\n'), "{}", lint.name);
        let first_word = description.split_whitespace().next().unwrap_or("");
        assert!(
            section.starts_with(first_word),
            "{}: description does not start the section",
            lint.name
        );
    }
}
