//! SARIF 2.1.0 for GitHub code scanning and other SARIF consumers.
//!
//! One run. `tool.driver.rules` holds every registered lint (in registry order, so a result's
//! `ruleIndex` is its lint's index) with its summary, the first paragraph of its docs, the full
//! docs as help, its default level, tags and precision. Results carry the finding's level,
//! message (with its help and notes), one location with a URI relative to the repository root
//! (`uriBaseId` `%SRCROOT%`, declared in `originalUriBaseIds`), a region, the fix when the
//! finding has one, and its related locations as `relatedLocations` (ids from 1, each with its
//! message; the result's message links each one, `note: [path:line:col](id): message`, which is
//! how GitHub code scanning shows them). Columns are SARIF's default kind, UTF-16 code units, computed from the
//! source line (a related location in a file that was not reported, whose text is not at
//! hand, keeps character columns). Fingerprints are left to `upload-sarif`, as GitHub recommends.

use std::collections::{BTreeMap, HashMap};
use std::io::{self, Write};
use std::path::Path;

use lints::registry::{self, Group, Level};
use lints::{Diagnostic, Edit, FileReport, Lint, SourceFile, Span};
use serde::Serialize;

use crate::workspace::paths;

pub const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";
pub const SARIF_VERSION: &str = "2.1.0";
/// The base every relative URI is resolved against: the repository root.
pub const SRCROOT: &str = "%SRCROOT%";
/// GitHub's limit for `shortDescription` and `fullDescription`.
pub const MAX_DESCRIPTION: usize = 1024;

#[derive(Serialize)]
pub struct Log {
    #[serde(rename = "$schema")]
    pub schema: &'static str,
    pub version: &'static str,
    pub runs: Vec<Run>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Run {
    pub tool: Tool,
    pub original_uri_base_ids: BTreeMap<&'static str, UriBase>,
    pub column_kind: &'static str,
    pub results: Vec<SarifResult>,
}

#[derive(Serialize)]
pub struct Tool {
    pub driver: Driver,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Driver {
    pub name: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub information_uri: Option<&'static str>,
    pub version: &'static str,
    pub semantic_version: &'static str,
    pub rules: Vec<Rule>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Rule {
    pub id: &'static str,
    pub name: String,
    pub short_description: Text,
    pub full_description: Text,
    pub help: Help,
    pub default_configuration: Configuration,
    pub properties: RuleProperties,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Text {
    pub text: String,
}

#[derive(Serialize)]
pub struct Help {
    pub text: String,
    pub markdown: String,
}

#[derive(Serialize)]
pub struct Configuration {
    pub level: &'static str,
}

#[derive(Serialize)]
pub struct RuleProperties {
    /// The short code (`MCP001`), accepted everywhere a lint name is.
    pub code: &'static str,
    pub group: &'static str,
    pub tags: Vec<&'static str>,
    pub precision: &'static str,
    #[serde(rename = "problem.severity")]
    pub problem_severity: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SarifResult {
    pub rule_id: &'static str,
    pub rule_index: usize,
    pub level: &'static str,
    pub message: Text,
    pub locations: Vec<Location>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub related_locations: Vec<Location>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fixes: Vec<SarifFix>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Location {
    /// Only on related locations: what the result's message links to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<usize>,
    pub physical_location: PhysicalLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<Text>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PhysicalLocation {
    pub artifact_location: ArtifactLocation,
    pub region: Region,
}

/// A `uriBaseId`'s declaration: what it stands for, without the machine-local absolute path
/// (the consumer knows where it checked the repository out).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct UriBase {
    pub description: Text,
}

#[derive(Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ArtifactLocation {
    pub uri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uri_base_id: Option<&'static str>,
}

/// A line/column region (1-based, UTF-16 columns, exclusive end) or, for a file that could not
/// be decoded, a byte region.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Region {
    #[serde(rename_all = "camelCase")]
    Text {
        start_line: usize,
        start_column: usize,
        end_line: usize,
        end_column: usize,
    },
    #[serde(rename_all = "camelCase")]
    Bytes {
        byte_offset: usize,
        byte_length: usize,
    },
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SarifFix {
    pub description: Text,
    pub artifact_changes: Vec<ArtifactChange>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ArtifactChange {
    pub artifact_location: ArtifactLocation,
    pub replacements: Vec<Replacement>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Replacement {
    pub deleted_region: Region,
    pub inserted_content: Text,
}

/// Print the SARIF log for `reports`; paths are resolved from `cwd` and made relative to the
/// repository root found from it.
pub fn write(out: &mut dyn Write, reports: &[FileReport], cwd: &Path) -> io::Result<()> {
    let log = log(reports, cwd);
    serde_json::to_writer_pretty(&mut *out, &log).map_err(io::Error::from)?;
    writeln!(out)
}

/// The whole log, for the writer and for tests.
pub fn log(reports: &[FileReport], cwd: &Path) -> Log {
    let root = paths::repository_root(cwd);
    let files = Files {
        root: &root,
        cwd,
        sources: reports
            .iter()
            .filter_map(|r| Some((r.path.as_path(), r.source.as_deref()?)))
            .collect(),
    };
    let mut results = Vec::new();
    for report in reports {
        let artifact = files.artifact(&report.path);
        for d in &report.diagnostics {
            results.push(result(d, report.source.as_deref(), &artifact, &files));
        }
    }
    let mut base_ids = BTreeMap::new();
    base_ids.insert(
        SRCROOT,
        UriBase {
            description: Text {
                text: "The root of the repository the linted files are in".to_string(),
            },
        },
    );
    Log {
        schema: SCHEMA,
        version: SARIF_VERSION,
        runs: vec![Run {
            tool: Tool {
                driver: Driver {
                    name: "mcp-lint",
                    information_uri: information_uri(),
                    version: env!("CARGO_PKG_VERSION"),
                    semantic_version: env!("CARGO_PKG_VERSION"),
                    rules: registry::all().iter().map(|l| rule(l)).collect(),
                },
            },
            original_uri_base_ids: base_ids,
            column_kind: "utf16CodeUnits",
            results,
        }],
    }
}

/// The project's home, from the package's `repository` field.
fn information_uri() -> Option<&'static str> {
    Some(env!("CARGO_PKG_REPOSITORY")).filter(|u| !u.is_empty())
}

/// Where the reported files are, and their text, for related locations in any of them.
struct Files<'a> {
    root: &'a Path,
    cwd: &'a Path,
    sources: HashMap<&'a Path, &'a SourceFile>,
}

impl Files<'_> {
    fn artifact(&self, path: &Path) -> ArtifactLocation {
        artifact_location(self.root, &paths::resolve(self.cwd, path))
    }

    /// `relatedLocations`, numbered from 1.
    fn related_locations(&self, d: &Diagnostic) -> Vec<Location> {
        d.related
            .iter()
            .enumerate()
            .map(|(i, r)| Location {
                id: Some(i + 1),
                physical_location: PhysicalLocation {
                    artifact_location: self.artifact(&r.path),
                    region: span_region(&r.span, self.sources.get(r.path.as_path()).copied()),
                },
                message: Some(Text {
                    text: r.message.clone(),
                }),
            })
            .collect()
    }
}

/// `\`, `[` and `]` escaped, as SARIF wants them in an embedded link's text.
fn link_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '\\' | '[' | ']') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A relative `%SRCROOT%` URI inside the repository, an absolute `file://` URI outside it.
fn artifact_location(root: &Path, file: &Path) -> ArtifactLocation {
    match paths::below(root, file) {
        Some(rel) => ArtifactLocation {
            uri: paths::uri_encode(&rel),
            uri_base_id: Some(SRCROOT),
        },
        None => ArtifactLocation {
            uri: paths::file_uri(file, false),
            uri_base_id: None,
        },
    }
}

/// The rule descriptor of a lint.
pub fn rule(lint: &'static Lint) -> Rule {
    let header = format!(
        "{} `{}`: {} ({}, {} by default)",
        lint.code,
        lint.name,
        lint.summary,
        lint.group.as_str(),
        lint.default_level.as_str()
    );
    let docs = lint.docs();
    let mut tags = vec![lint.group.as_str()];
    if lint.group != Group::Meta {
        tags.insert(0, "mcp");
    }
    Rule {
        id: lint.name,
        name: pascal_case(lint.name),
        short_description: Text {
            text: truncate(lint.summary, MAX_DESCRIPTION),
        },
        full_description: Text {
            text: truncate(&lints::docs::full_description(lint), MAX_DESCRIPTION),
        },
        help: Help {
            text: format!("{header}\n\n{docs}"),
            markdown: format!(
                "**{}** `{}` ({}, {} by default)\n\n{docs}",
                lint.code,
                lint.name,
                lint.group.as_str(),
                lint.default_level.as_str()
            ),
        },
        default_configuration: Configuration {
            level: sarif_level(lint.default_level),
        },
        properties: RuleProperties {
            code: lint.code,
            group: lint.group.as_str(),
            tags,
            precision: precision(lint.group),
            problem_severity: problem_severity(lint.default_level),
        },
    }
}

/// `note` for allow-by-default lints (they report nothing until enabled), else the severity.
pub fn sarif_level(level: Level) -> &'static str {
    match level {
        Level::Allow => "note",
        Level::Warn => "warning",
        Level::Deny | Level::Forbid => "error",
    }
}

fn problem_severity(level: Level) -> &'static str {
    match level {
        Level::Allow => "recommendation",
        Level::Warn => "warning",
        Level::Deny | Level::Forbid => "error",
    }
}

/// How often a finding is right, by group: what the group promises (correctness lints fire on
/// wire outcomes the spec rules out, suspicious and style ones on heuristics; mcp-lint's own
/// findings are facts). GitHub orders alerts by it.
fn precision(group: Group) -> &'static str {
    match group {
        Group::Correctness | Group::Restriction => "high",
        Group::Suspicious | Group::Style => "medium",
        Group::Meta => "very-high",
    }
}

/// `tool_failure_as_protocol_error` → `ToolFailureAsProtocolError` (SARIF's convention for
/// a rule's `name`).
fn pascal_case(name: &str) -> String {
    name.split('_')
        .map(|w| {
            let mut chars = w.chars();
            chars.next().map_or_else(String::new, |c| {
                c.to_uppercase().chain(chars).collect::<String>()
            })
        })
        .collect()
}

fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max - 1).collect();
    out.push('…');
    out
}

fn result(
    d: &Diagnostic,
    source: Option<&SourceFile>,
    artifact: &ArtifactLocation,
    files: &Files<'_>,
) -> SarifResult {
    let mut text = d.message.clone();
    if let Some(help) = &d.help {
        text.push_str("\nhelp: ");
        text.push_str(help);
    }
    for note in &d.notes {
        text.push_str("\nnote: ");
        text.push_str(note);
    }
    for (i, related) in d.related.iter().enumerate() {
        let place = super::related::related_place(&related.path, related);
        text.push_str(&format!(
            "\nnote: [{}]({}): {}",
            link_text(&place),
            i + 1,
            super::related::related_message(related)
        ));
    }
    let fixes = d
        .fix
        .iter()
        .map(|fix| SarifFix {
            description: Text {
                text: fix.message.clone(),
            },
            artifact_changes: vec![ArtifactChange {
                artifact_location: artifact.clone(),
                replacements: fix.edits.iter().map(|e| replacement(e, source)).collect(),
            }],
        })
        .collect();
    SarifResult {
        rule_id: d.lint.name,
        rule_index: d.lint.index(),
        level: sarif_level(d.level),
        message: Text { text },
        locations: vec![Location {
            id: None,
            physical_location: PhysicalLocation {
                artifact_location: artifact.clone(),
                region: span_region(&d.span, source),
            },
            message: None,
        }],
        related_locations: files.related_locations(d),
        fixes,
    }
}

fn replacement(edit: &Edit, source: Option<&SourceFile>) -> Replacement {
    let deleted_region = match source {
        Some(file) => {
            let (start, end) = (edit.start.min(edit.end), edit.end.max(edit.start));
            span_region(&file.span(start, end), Some(file))
        }
        None => Region::Bytes {
            byte_offset: edit.start,
            byte_length: edit.end.saturating_sub(edit.start),
        },
    };
    Replacement {
        deleted_region,
        inserted_content: Text {
            text: edit.replacement.clone(),
        },
    }
}

/// The region of a span, with character columns converted to UTF-16 code units.
pub fn span_region(span: &Span, source: Option<&SourceFile>) -> Region {
    let start_line = span.start_line.max(1);
    let start_column = span.start_column.max(1);
    let (end_line, end_column) = if (span.end_line, span.end_column) < (start_line, start_column) {
        (start_line, start_column)
    } else {
        (span.end_line, span.end_column.max(1))
    };
    let utf16 = |line: usize, column: usize| match source {
        Some(file) => utf16_column(file.line_text(line), column),
        None => column,
    };
    Region::Text {
        start_line,
        start_column: utf16(start_line, start_column),
        end_line,
        end_column: utf16(end_line, end_column),
    }
}

/// 1-based character column `column` on `line` as a 1-based UTF-16 column. Columns past the end
/// of the line (an exclusive end after the last character) count one unit per missing char.
pub fn utf16_column(line: &str, column: usize) -> usize {
    let chars = column.saturating_sub(1);
    let mut units = 0;
    let mut seen = 0;
    for c in line.chars().take(chars) {
        units += c.len_utf16();
        seen += 1;
    }
    units + (chars - seen) + 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use lints::{Applicability, Fix};
    use serde_json::Value;
    use std::path::PathBuf;
    use std::sync::Arc;

    fn lint(name: &str) -> &'static Lint {
        registry::find(name).expect("registered lint")
    }

    fn report(dir: &Path, rel: &str, text: &str, diagnostics: Vec<Diagnostic>) -> FileReport {
        crate::test_support::write(dir, rel, text);
        FileReport {
            path: PathBuf::from(rel),
            source: Some(Arc::new(SourceFile::new(rel.into(), text.to_string()))),
            diagnostics,
        }
    }

    fn diagnostic(text: &str, name: &str, needle: &str) -> Diagnostic {
        let file = SourceFile::new("x.rs".into(), text.to_string());
        let start = text.find(needle).expect("needle in text");
        Diagnostic::new(lint(name), file.span(start, start + needle.len()), "m")
    }

    fn json(reports: &[FileReport], cwd: &Path) -> Value {
        let mut out = Vec::new();
        write(&mut out, reports, cwd).unwrap();
        serde_json::from_slice(&out).unwrap()
    }

    #[test]
    fn the_log_has_what_github_requires() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = std::fs::canonicalize(tmp.path()).unwrap();
        std::fs::create_dir(dir.join(".git")).unwrap();
        let text = "fn f() {\n    McpError::internal_error(\"x\", None)\n}\n";
        let d = diagnostic(
            text,
            "tool_failure_as_protocol_error",
            "McpError::internal_error(\"x\", None)",
        )
        .with_help("return a tool error")
        .with_note("a note");
        let doc = json(&[report(&dir, "src/tools.rs", text, vec![d])], &dir);

        assert_eq!(doc["$schema"], SCHEMA);
        assert_eq!(doc["version"], "2.1.0");
        let runs = doc["runs"].as_array().unwrap();
        assert_eq!(runs.len(), 1);
        let run = &runs[0];
        let driver = &run["tool"]["driver"];
        assert_eq!(driver["name"], "mcp-lint");
        assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
        assert_eq!(driver["semanticVersion"], env!("CARGO_PKG_VERSION"));
        let rules = driver["rules"].as_array().unwrap();
        assert_eq!(rules.len(), registry::all().len());
        for (rule, lint) in rules.iter().zip(registry::all()) {
            assert_eq!(rule["id"], lint.name);
            assert_eq!(rule["properties"]["code"], lint.code);
            assert_eq!(rule["shortDescription"]["text"], lint.summary);
            let full = rule["fullDescription"]["text"].as_str().unwrap();
            assert!(
                !full.is_empty() && full.chars().count() <= MAX_DESCRIPTION,
                "{}",
                lint.name
            );
            assert_eq!(full, lints::docs::full_description(lint));
            for key in ["text", "markdown"] {
                let help = rule["help"][key].as_str().unwrap();
                assert!(help.contains("### What it does"), "{}", lint.name);
                assert!(help.contains(lint.code));
            }
            assert!(rule.get("helpUri").is_none());
            let level = rule["defaultConfiguration"]["level"].as_str().unwrap();
            assert_eq!(level, sarif_level(lint.default_level));
            let tags = rule["properties"]["tags"].as_array().unwrap();
            assert!(tags.iter().any(|t| t == lint.group.as_str()));
            let precision = rule["properties"]["precision"].as_str().unwrap();
            assert!(["very-high", "high", "medium", "low"].contains(&precision));
        }
        let mcp001 = &rules[lint("MCP001").index()];
        assert_eq!(mcp001["name"], "ToolFailureAsProtocolError");
        assert_eq!(mcp001["defaultConfiguration"]["level"], "error");

        // The base is declared without the local checkout's absolute path.
        let base = &run["originalUriBaseIds"][SRCROOT];
        assert!(base.get("uri").is_none(), "{base}");
        assert!(base["description"]["text"]
            .as_str()
            .unwrap()
            .contains("repository"));
        assert_eq!(driver["informationUri"], env!("CARGO_PKG_REPOSITORY"));
        assert_eq!(run["columnKind"], "utf16CodeUnits");

        let results = run["results"].as_array().unwrap();
        assert_eq!(results.len(), 1);
        let r = &results[0];
        assert_eq!(r["ruleId"], "tool_failure_as_protocol_error");
        assert_eq!(r["ruleIndex"], lint("MCP001").index());
        assert_eq!(
            rules[r["ruleIndex"].as_u64().unwrap() as usize]["id"],
            r["ruleId"]
        );
        assert_eq!(r["level"], "error");
        assert_eq!(
            r["message"]["text"],
            "m\nhelp: return a tool error\nnote: a note"
        );
        let loc = &r["locations"][0]["physicalLocation"];
        assert_eq!(loc["artifactLocation"]["uri"], "src/tools.rs");
        assert_eq!(loc["artifactLocation"]["uriBaseId"], SRCROOT);
        assert_eq!(
            loc["region"],
            serde_json::json!({"startLine": 2, "startColumn": 5, "endLine": 2, "endColumn": 40})
        );
        assert!(r.get("fixes").is_none());
    }

    #[test]
    fn uris_are_relative_to_the_repository_root_from_a_subdirectory() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = std::fs::canonicalize(tmp.path()).unwrap();
        std::fs::create_dir(dir.join(".git")).unwrap();
        let cwd = dir.join("servers/my server");
        let text = "fn f() {}\n";
        let d = diagnostic(text, "MCP001", "fn");
        let r = report(&cwd, "src/a#b.rs", text, vec![d]);
        let doc = json(&[r], &cwd);
        let run = &doc["runs"][0];
        assert_eq!(
            run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "servers/my%20server/src/a%23b.rs"
        );
        assert!(run["originalUriBaseIds"][SRCROOT].get("uri").is_none());
    }

    #[test]
    fn files_outside_the_repository_get_absolute_uris() {
        let repo = tempfile::tempdir().unwrap();
        let repo = std::fs::canonicalize(repo.path()).unwrap();
        std::fs::create_dir(repo.join(".git")).unwrap();
        let other = tempfile::tempdir().unwrap();
        let other = std::fs::canonicalize(other.path()).unwrap();
        let text = "fn f() {}\n";
        let mut r = report(&other, "a.rs", text, vec![diagnostic(text, "MCP001", "fn")]);
        r.path = other.join("a.rs");
        let doc = json(&[r], &repo);
        let artifact =
            &doc["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
        assert_eq!(artifact["uri"], paths::file_uri(&other.join("a.rs"), false));
        assert!(artifact.get("uriBaseId").is_none());
    }

    #[test]
    fn columns_count_utf16_code_units() {
        // 'é' is one UTF-16 unit, '🦀' two; the finding starts after both.
        let text = "let s = \"é🦀\"; McpError::internal_error(x, None)\n";
        let d = diagnostic(text, "MCP001", "McpError::internal_error(x, None)");
        assert_eq!((d.span.start_column, d.span.end_column), (15, 48));
        let file = SourceFile::new("x.rs".into(), text.to_string());
        assert_eq!(
            span_region(&d.span, Some(&file)),
            Region::Text {
                start_line: 1,
                start_column: 16,
                end_line: 1,
                end_column: 49
            }
        );
        assert_eq!(utf16_column("ab", 3), 3);
        assert_eq!(utf16_column("🦀", 2), 3);
        assert_eq!(
            utf16_column("🦀", 4),
            5,
            "past the end: one unit per missing char"
        );
        assert_eq!(utf16_column("", 1), 1);
    }

    #[test]
    fn fixes_become_artifact_changes() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = std::fs::canonicalize(tmp.path()).unwrap();
        let text = "fn f() {\n    Err(\"é\".into())\n}\n";
        let start = text.find("Err").unwrap();
        let end = text.find(")\n}").unwrap() + 1;
        let mut d = diagnostic(text, "MCP001", "Err(\"é\".into())");
        d.fix = Some(Fix {
            message: "return a tool error".into(),
            applicability: Applicability::MaybeIncorrect,
            edits: vec![Edit {
                start,
                end,
                replacement: "Ok(x)".into(),
            }],
        });
        let doc = json(&[report(&dir, "a.rs", text, vec![d])], &dir);
        let fix = &doc["runs"][0]["results"][0]["fixes"][0];
        assert_eq!(fix["description"]["text"], "return a tool error");
        let change = &fix["artifactChanges"][0];
        assert_eq!(change["artifactLocation"]["uri"], "a.rs");
        assert_eq!(
            change["replacements"][0]["insertedContent"]["text"],
            "Ok(x)"
        );
        assert_eq!(
            change["replacements"][0]["deletedRegion"],
            serde_json::json!({"startLine": 2, "startColumn": 5, "endLine": 2, "endColumn": 20})
        );
    }

    #[test]
    fn undecodable_files_get_byte_regions_for_fixes_and_char_columns_otherwise() {
        let span = Span {
            start: 0,
            end: 0,
            start_line: 1,
            start_column: 1,
            end_line: 1,
            end_column: 1,
        };
        assert_eq!(
            span_region(&span, None),
            Region::Text {
                start_line: 1,
                start_column: 1,
                end_line: 1,
                end_column: 1
            }
        );
        let e = Edit {
            start: 3,
            end: 7,
            replacement: String::new(),
        };
        assert_eq!(
            replacement(&e, None).deleted_region,
            Region::Bytes {
                byte_offset: 3,
                byte_length: 4
            }
        );
    }

    #[test]
    fn output_is_deterministic_and_empty_runs_still_list_rules() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = std::fs::canonicalize(tmp.path()).unwrap();
        let a = json(&[], &dir);
        let b = json(&[], &dir);
        assert_eq!(a, b);
        assert_eq!(a["runs"][0]["results"], serde_json::json!([]));
        assert_eq!(
            a["runs"][0]["tool"]["driver"]["rules"]
                .as_array()
                .unwrap()
                .len(),
            registry::all().len()
        );
    }

    #[test]
    fn related_locations_have_ids_regions_and_messages_and_the_message_links_them() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = std::fs::canonicalize(tmp.path()).unwrap();
        std::fs::create_dir(dir.join(".git")).unwrap();
        let doc = json(&crate::test_support::related_reports(), &dir);
        let r = &doc["runs"][0]["results"][0];
        assert_eq!(
            r["message"]["text"],
            "tool `read` reports -32603\nhelp: return a tool result\n\
             note: [src/tools.rs:2:9](1): `check` builds the error here\n\
             note: [src/helpers.rs:2:22](2): `load` builds the error here"
        );
        assert_eq!(
            r["relatedLocations"],
            serde_json::json!([
                {
                    "id": 1,
                    "physicalLocation": {
                        "artifactLocation": {"uri": "src/tools.rs", "uriBaseId": SRCROOT},
                        "region": {"startLine": 2, "startColumn": 9, "endLine": 2, "endColumn": 46}
                    },
                    "message": {"text": "`check` builds the error here"}
                },
                {
                    "id": 2,
                    "physicalLocation": {
                        "artifactLocation": {"uri": "src/helpers.rs", "uriBaseId": SRCROOT},
                        // The crab before it is two UTF-16 units: one column more than in chars.
                        "region": {"startLine": 2, "startColumn": 23, "endLine": 2, "endColumn": 59}
                    },
                    "message": {"text": "`load` builds the error here"}
                }
            ])
        );
        assert!(r["locations"][0].get("id").is_none());
        assert!(r["locations"][0].get("message").is_none());

        // Without related locations, nothing of this appears.
        let mut reports = crate::test_support::related_reports();
        reports[1].diagnostics[0].related.clear();
        let r = &json(&reports, &dir)["runs"][0]["results"][0];
        assert!(r.get("relatedLocations").is_none(), "{r}");
        assert_eq!(
            r["message"]["text"],
            "tool `read` reports -32603\nhelp: return a tool result"
        );
        assert_eq!(link_text("a[b]\\c"), "a\\[b\\]\\\\c");
    }

    #[test]
    fn names_and_truncation() {
        assert_eq!(pascal_case("panic_in_tool"), "PanicInTool");
        assert_eq!(truncate("abc", 3), "abc");
        assert_eq!(truncate("abcd", 3), "ab…");
    }
}
