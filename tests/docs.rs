//! The docs stay true to the code: the README's lint table is generated from the registry, the
//! sample output in the README and the docs/ pages is what the binary prints for the README's
//! sample tool (bless both with `MCP_LINT_BLESS=1 cargo test --test docs`), and every lint's
//! docs follow the agreed structure.

use std::collections::HashSet;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::process::Command;

use lints::docs;
use lints::registry;
use lints::{CrateInput, Dependency, FileRole, Level, Manifest, Options, SourceInput};

const START: &str = "<!-- lints:start -->";
const END: &str = "<!-- lints:end -->";

fn readme_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("README.md")
}

fn read_readme() -> String {
    let path = readme_path();
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// The README and the pages of docs/, which hold the samples.
fn doc_pages() -> Vec<(PathBuf, String)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut paths = vec![readme_path()];
    let mut pages: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    paths.extend(pages);
    paths
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()));
            (p, text)
        })
        .collect()
}

fn blessing() -> bool {
    std::env::var_os("MCP_LINT_BLESS").is_some_and(|v| v == "1")
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
    let readme = read_readme();
    let expected = splice(&readme, &docs::lint_table_markdown()).unwrap_or_else(|e| panic!("{e}"));
    if expected == readme {
        return;
    }
    if blessing() {
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
    let mut rust_blocks = 0;
    for (path, text) in doc_pages() {
        let shown = path.display();
        let blocks = docs::markdown_code_blocks(&text)
            .unwrap_or_else(|line| panic!("{shown}: code block on line {line} is never closed"));
        rust_blocks += blocks.iter().filter(|b| docs::is_rust(b)).count();
        for block in &blocks {
            if let Some(e) = docs::rust_syntax_error(block) {
                panic!(
                    "{shown} line {}: ```rust block is not valid Rust syntax: {e}",
                    block.line
                );
            }
        }
    }
    assert!(rust_blocks > 1, "the docs have Rust examples");
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

/// The body of the fenced block that follows `<!-- sample:NAME -->`, with its byte range.
fn sample_block(readme: &str, name: &str) -> Result<(Range<usize>, String), String> {
    let marker = format!("<!-- sample:{name} -->\n");
    let at = readme
        .find(&marker)
        .ok_or_else(|| format!("README.md has no `{}` marker", marker.trim_end()))?;
    let fence_line = at + marker.len();
    let rest = &readme[fence_line..];
    if !rest.starts_with("```") {
        return Err(format!(
            "`{}` is not followed by a fenced block",
            marker.trim_end()
        ));
    }
    let body_start = fence_line + rest.find('\n').map_or(rest.len(), |i| i + 1);
    let mut end = body_start;
    for line in readme[body_start..].split_inclusive('\n') {
        if line.starts_with("```") {
            return Ok((body_start..end, readme[body_start..end].to_string()));
        }
        end += line.len();
    }
    Err(format!(
        "the block after `{}` is never closed",
        marker.trim_end()
    ))
}

/// Trailing whitespace per line and at the end does not count (editors strip it).
fn normalise(text: &str) -> String {
    let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    lines.join("\n").trim_end().to_string() + "\n"
}

const SAMPLE_MANIFEST: &str = r#"[package]
name = "files-server"
version = "0.1.0"
edition = "2021"

[dependencies]
rmcp = { version = "3", features = ["server"] }
"#;

/// Run `mcp-lint check ARGS` in a crate holding the README's sample tool.
fn run_sample(dir: &Path, args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
        .args(["check", "--color", "never"])
        .args(args)
        .current_dir(dir)
        .env_remove("COLUMNS")
        .env_remove("NO_COLOR")
        .output()
        .expect("mcp-lint runs");
    assert_eq!(
        output.status.code(),
        Some(1),
        "the README sample has an error-level finding (and a fix); stderr: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("output is UTF-8")
}

#[test]
fn readme_sample_output_is_what_mcp_lint_prints() {
    let mut pages = doc_pages();
    let marked = |pages: &[(PathBuf, String)], name: &str| {
        let marker = format!("<!-- sample:{name} -->\n");
        pages
            .iter()
            .position(|(_, text)| text.contains(&marker))
            .unwrap_or_else(|| panic!("no page of README.md and docs/ has `{}`", marker.trim()))
    };
    let (_, source) = sample_block(&pages[marked(&pages, "source")].1, "source")
        .unwrap_or_else(|e| panic!("{e}"));
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(dir.path().join("src")).expect("src dir");
    std::fs::write(dir.path().join("Cargo.toml"), SAMPLE_MANIFEST).expect("manifest");
    std::fs::write(dir.path().join("src/lib.rs"), "mod tools;\n").expect("lib.rs");
    std::fs::write(dir.path().join("src/tools.rs"), &source).expect("tools.rs");

    let mut stale = Vec::new();
    // Back to front, so blessing one block does not move the ones before it.
    for (name, args) in [
        ("junit", &["--format", "junit"][..]),
        ("github", &["--format", "github"]),
        ("diff", &["--diff", "--unsafe-fixes"]),
        ("json", &["--format", "json"]),
        ("concise", &["--format", "concise"]),
        ("human", &["--format", "human"]),
    ] {
        let actual = normalise(&run_sample(dir.path(), args));
        let page = marked(&pages, name);
        let (path, text) = &mut pages[page];
        let (range, documented) = sample_block(text, name).unwrap_or_else(|e| panic!("{e}"));
        if normalise(&documented) == actual {
            continue;
        }
        if blessing() {
            text.replace_range(range, &actual);
            std::fs::write(&*path, &*text).expect("the page is writable");
        } else {
            stale.push(format!(
                "--- {} sample `{name}`:\n{documented}--- mcp-lint prints:\n{actual}",
                path.display()
            ));
        }
    }
    assert!(
        stale.is_empty(),
        "sample output is stale; run `MCP_LINT_BLESS=1 cargo test --test docs`.\n{}",
        stale.join("\n")
    );
}

#[test]
fn sample_blocks_are_found_by_marker() {
    let text = "a\n<!-- sample:x -->\n```text\nline 1\nline 2\n```\nb\n";
    let (range, body) = sample_block(text, "x").unwrap();
    assert_eq!(body, "line 1\nline 2\n");
    assert_eq!(&text[range], body);
    assert!(sample_block(text, "y").is_err());
    assert!(sample_block("<!-- sample:x -->\nno fence\n", "x").is_err());
    assert!(sample_block("<!-- sample:x -->\n```\nopen\n", "x").is_err());
    assert_eq!(normalise("a  \nb\n\n"), "a\nb\n");
}

/// The lint names found when a doc example is analysed as `src/lib.rs` of a crate on rmcp 3,
/// with every lint enabled; `None` when the example is a fragment (it does not parse as a file).
fn findings_of_example(code: &str) -> Option<Vec<&'static str>> {
    let mut options = Options::default();
    options
        .levels
        .apply("all", Level::Warn)
        .expect("`all` is a selector");
    let input = CrateInput {
        root: None,
        manifest: Some(Manifest {
            package_name: Some("example".to_string()),
            package_version: None,
            published: false,
            locked: None,
            targets: Default::default(),
            dependencies: vec![Dependency {
                name: "rmcp".to_string(),
                version: Some("3".to_string()),
                rename: None,
                path: None,
            }],
        }),
        files: vec![SourceInput {
            path: PathBuf::from("src/lib.rs"),
            contents: code.as_bytes().to_vec(),
            role: FileRole::Source,
            report: true,
            named: true,
            package_path: None,
        }],
    };
    let names: Vec<&'static str> = lints::analyze(&input, &options)
        .iter()
        .flat_map(|r| &r.diagnostics)
        .map(|d| d.lint.name)
        .collect();
    (!names.contains(&"parse_error")).then_some(names)
}

/// Clippy-style docs promise that `### Example` triggers the lint: every Rust example is a whole
/// file that fires its own lint and no other, and a `### Use instead` that is a whole file does
/// not fire it.
#[test]
fn examples_fire_their_lint_and_fixes_do_not() {
    let mut failures = Vec::new();
    for lint in registry::all() {
        let blocks = docs::code_blocks(lint).unwrap_or_default();
        for block in blocks.iter().filter(|b| docs::is_rust(b)) {
            let found = findings_of_example(&block.code);
            match (block.heading.as_str(), found) {
                ("Example", None) => failures.push(format!(
                    "{}: the Example on docs line {} is not a whole file",
                    lint.name, block.line
                )),
                ("Example", Some(found))
                    if !found.contains(&lint.name) || found.iter().any(|n| *n != lint.name) =>
                {
                    failures.push(format!(
                        "{}: the Example on docs line {} should fire only `{}`, found {found:?}",
                        lint.name, block.line, lint.name
                    ))
                }
                ("Use instead", Some(found)) if found.contains(&lint.name) => {
                    failures.push(format!(
                        "{}: the Use instead block on docs line {} still fires it",
                        lint.name, block.line
                    ))
                }
                _ => {}
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn example_analysis_reports_findings_and_recognises_fragments() {
    assert_eq!(findings_of_example("let x = f()?;"), None);
    assert_eq!(findings_of_example("fn plain() {}"), Some(Vec::new()));
    let firing = r#"
use rmcp::{ErrorData as McpError, model::*, tool, tool_router};

#[tool_router]
impl S {
    #[tool(description = "d")]
    async fn t(&self) -> Result<CallToolResult, McpError> {
        Ok(CallToolResult::error(vec![]))
    }
}
"#;
    assert_eq!(
        findings_of_example(firing),
        Some(vec!["empty_error_content"])
    );
}
