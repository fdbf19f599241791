//! An analysis that reuses the files parsed by the last one (the language server's) finds what a
//! cold analysis finds, after every kind of edit: a body, an import, a signature, a new file.

use std::path::PathBuf;

use crate::options::{CrateInput, Dependency, Manifest, Options};
use crate::source::{FileRole, SourceInput};
use crate::{analyze, analyze_on_current_thread, analyze_reusing, FileReport, ParsedFiles};

const MAIN: &str = "mod helpers;\nmod tools;\nfn main() {}\n";

const HELPERS: &str = "use rmcp::ErrorData as McpError;\n\
    pub fn validate(id: &str) -> Result<(), McpError> {\n    \
        if id.is_empty() { return Err(McpError::internal_error(\"empty id\", None)); }\n    \
        Ok(())\n}\n\
    pub fn lenient(_id: &str) -> Result<(), McpError> {\n    Ok(())\n}\n";

const TOOLS: &str = "use rmcp::{ErrorData as McpError, model::*, tool, tool_router};\n\
    use crate::helpers::validate;\n\
    pub struct S;\n\
    #[tool_router]\nimpl S {\n    #[tool(description = \"Read\")]\n    \
        async fn read(&self, id: String) -> Result<CallToolResult, McpError> {\n        \
            validate(&id)?;\n        \
            let t = std::fs::read_to_string(&id).map_err(|e| McpError::internal_error(e.to_string(), None))?;\n        \
            Ok(CallToolResult::success(vec![Content::text(t)]))\n    }\n}\n";

fn input(files: &[(&str, &str)]) -> CrateInput {
    CrateInput {
        root: Some(PathBuf::from("/srv")),
        manifest: Some(Manifest {
            package_name: Some("srv".into()),
            package_version: None,
            published: false,
            // Read anew for every analysis, as the language server reads Cargo.lock.
            locked: Some(std::sync::Arc::new(
                [
                    "rmcp",
                    "serde",
                    "serde_json",
                    "tokio",
                    "schemars",
                    "anyhow",
                    "thiserror",
                    "tracing",
                ]
                .iter()
                .map(|name| (name.to_string(), vec!["1.0.0".to_string()]))
                .collect(),
            )),
            targets: Default::default(),
            dependencies: vec![Dependency {
                name: "rmcp".into(),
                version: Some("1.8".into()),
                rename: None,
                path: None,
            }],
        }),
        files: files
            .iter()
            .map(|(path, text)| SourceInput {
                path: PathBuf::from("/srv").join(path),
                contents: text.as_bytes().to_vec(),
                role: FileRole::Source,
                report: true,
                named: false,
                package_path: None,
            })
            .collect(),
    }
}

/// Everything a report shows, comparable.
fn shown(reports: &[FileReport]) -> Vec<String> {
    reports
        .iter()
        .map(|r| format!("{}: {:?}", r.path.display(), r.diagnostics))
        .collect()
}

#[test]
fn reusing_parsed_files_finds_what_a_cold_analysis_finds_after_each_edit() {
    let edits: Vec<(&str, Vec<(&str, String)>)> = vec![
        ("first analysis", vec![]),
        (
            "a one-line edit in a body",
            vec![("src/tools.rs", TOOLS.replace("read_to_string(&id)", "read_to_string(&id.trim())"))],
        ),
        (
            "an import that now names another fn",
            vec![(
                "src/tools.rs",
                TOOLS.replace(
                    "use crate::helpers::validate;",
                    "use crate::helpers::lenient as validate;",
                ),
            )],
        ),
        (
            "a signature in another file (the tool file unchanged)",
            vec![(
                "src/helpers.rs",
                HELPERS.replace(
                    "pub fn validate(id: &str) -> Result<(), McpError> {\n    if id.is_empty() { return Err(McpError::internal_error(\"empty id\", None)); }",
                    "pub fn validate(id: &str) -> Result<(), String> {\n    if id.is_empty() { return Err(\"empty id\".to_string()); }",
                ),
            )],
        ),
        (
            "a new file that reuses the names",
            vec![
                ("src/main.rs", MAIN.replace("mod tools;", "mod tools;\nmod other;")),
                ("src/other.rs", HELPERS.to_string()),
            ],
        ),
        ("back to the start", vec![]),
    ];
    let runs = analyse_edits(
        &[
            ("src/main.rs", MAIN),
            ("src/helpers.rs", HELPERS),
            ("src/tools.rs", TOOLS),
        ],
        edits,
    );
    // Only the body edit keeps the walk facts of the other files (of every body there); the
    // import, the signature and the new file change items.
    let walks_reused: Vec<usize> = runs.iter().map(|(_, w, _)| *w).collect();
    assert!(walks_reused[1] > 0, "{walks_reused:?}");
    assert_eq!(walks_reused[2..], [0, 0, 0, 0], "{walks_reused:?}");
    let seen: Vec<Vec<String>> = runs.into_iter().map(|(r, ..)| r).collect();
    // The edits change what is found: the import and the signature take `validate`'s -32603
    // (reported at the helper, reached from the tool) out of the tool.
    let validate_reported = |reports: &[String]| {
        reports
            .iter()
            .any(|r| r.starts_with("/srv/src/helpers.rs: [Diagnostic") && r.contains("-32603"))
    };
    assert!(validate_reported(&seen[0]), "{:?}", seen[0]);
    assert!(validate_reported(&seen[1]), "{:?}", seen[1]);
    assert!(
        !validate_reported(&seen[2]),
        "the import edit: {:?}",
        seen[2]
    );
    assert!(
        !validate_reported(&seen[3]),
        "the signature edit: {:?}",
        seen[3]
    );
    assert!(validate_reported(&seen[4]), "{:?}", seen[4]);
    assert_eq!(seen[0], seen[5]);
}

/// Analyse `base` with each edit's files in place (a file is replaced or added) on one thread,
/// reusing what the analysis before kept, and check each against a cold analysis: the reports,
/// and how many bodies kept their walk facts and their second walks' facts, per edit.
fn analyse_edits(
    base: &[(&'static str, &'static str)],
    edits: Vec<(&'static str, Vec<(&'static str, String)>)>,
) -> Vec<(Vec<String>, usize, usize)> {
    let base: Vec<(&str, String)> = base.iter().map(|(p, t)| (*p, t.to_string())).collect();
    let run = move || {
        let options = Options::default();
        let mut parsed = ParsedFiles::default();
        let mut seen = Vec::new();
        let mut before: Vec<(&str, String)> = Vec::new();
        for (what, changed) in &edits {
            let mut files = base.clone();
            for (path, text) in changed {
                match files.iter_mut().find(|(p, _)| p == path) {
                    Some(f) => f.1 = text.clone(),
                    None => files.push((path, text.clone())),
                }
            }
            let unchanged = files.iter().filter(|f| before.contains(f)).count();
            let texts: Vec<(&str, &str)> = files.iter().map(|(p, t)| (*p, t.as_str())).collect();
            let crate_input = input(&texts);
            let reused = shown(&analyze_reusing(
                std::slice::from_ref(&crate_input),
                &options,
                &mut parsed,
            ));
            assert_eq!(parsed.reused(), unchanged, "{what}: files not parsed again");
            // Cold on a thread of its own: this thread's span table stays as the reuse needs it.
            let cold = shown(&analyze(&crate_input, &options));
            assert_eq!(reused, cold, "{what}");
            seen.push((cold, parsed.walks_reused(), parsed.rewalks_reused()));
            before = files;
        }
        // A cold analysis on this thread releases its span table: the kept trees are not
        // reused then (their spans would point into the released table), and nothing changes.
        let texts: Vec<(&str, &str)> = before.iter().map(|(p, t)| (*p, t.as_str())).collect();
        let crate_input = input(&texts);
        let cold = shown(&analyze_on_current_thread(&crate_input, &options));
        let reused = shown(&analyze_reusing(
            std::slice::from_ref(&crate_input),
            &options,
            &mut parsed,
        ));
        assert_eq!(
            (
                parsed.reused(),
                parsed.walks_reused(),
                parsed.rewalks_reused()
            ),
            (0, 0, 0),
            "trees of a released span table are parsed again"
        );
        assert_eq!(reused, cold, "after a cold analysis on the same thread");
        seen
    };
    std::thread::Builder::new()
        .stack_size(crate::ANALYSIS_STACK)
        .spawn(run)
        .expect("thread")
        .join()
        .expect("no panic")
}

const ERRORS: &str = "#[derive(Debug)]\n\
    pub enum AppError {\n    NotFound(String),\n    BadPath(String),\n    Io(std::io::Error),\n}\n\
    impl AppError {\n    \
        pub fn rpc_code(&self) -> i32 {\n        \
            match self {\n            \
                AppError::NotFound(_) => -32001,\n            \
                AppError::BadPath(_) => -32602,\n            \
                AppError::Io(_) => -32603,\n        \
            }\n    \
        }\n}\n\
    impl std::fmt::Display for AppError {\n    \
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {\n        \
            write!(f, \"{self:?}\")\n    }\n}\n";

const MAPPED_TOOLS: &str = "use rmcp::model::{CallToolResult, Content, ErrorCode};\n\
    use rmcp::{tool, tool_router, ErrorData as McpError};\n\
    use crate::errors::AppError;\n\
    impl From<AppError> for McpError {\n    \
        fn from(e: AppError) -> Self {\n        \
            McpError::new(ErrorCode(e.rpc_code()), e.to_string(), None)\n    }\n}\n\
    fn read(path: &str) -> Result<String, AppError> {\n    \
        if path.contains(\"..\") {\n        \
            return Err(AppError::BadPath(format!(\"{path} leaves the workspace\")));\n    }\n    \
        std::fs::read_to_string(path).map_err(AppError::Io)\n}\n\
    pub struct Server;\n\
    #[tool_router]\nimpl Server {\n    #[tool(description = \"Read a file\")]\n    \
        async fn read_file(&self, path: String) -> Result<CallToolResult, McpError> {\n        \
            let text = read(&path)?;\n        \
            Ok(CallToolResult::success(vec![Content::text(text)]))\n    }\n}\n";

/// A body's walk that read another file's fn body (the code a method returns per variant) is
/// walked again when that body changes; the other bodies keep their facts.
#[test]
fn a_walk_that_read_an_edited_body_is_walked_again() {
    let main = "mod errors;\nmod tools;\nfn main() {}\n";
    let runs = analyse_edits(
        &[
            ("src/main.rs", main),
            ("src/errors.rs", ERRORS),
            ("src/tools.rs", MAPPED_TOOLS),
        ],
        vec![
            ("first analysis", vec![]),
            (
                "the code a variant gets, in the other file",
                vec![(
                    "src/errors.rs",
                    ERRORS.replace("BadPath(_) => -32602", "BadPath(_) => -32603"),
                )],
            ),
            (
                "a message in the tool file",
                vec![(
                    "src/tools.rs",
                    MAPPED_TOOLS.replace("leaves the workspace", "is outside the workspace"),
                )],
            ),
        ],
    );
    let codes_found = |reports: &[String]| {
        reports
            .iter()
            .filter(|r| r.starts_with("/srv/src/tools.rs") && r.contains("-32602"))
            .count()
    };
    assert!(codes_found(&runs[0].0) > 0, "{:?}", runs[0].0);
    assert_eq!(codes_found(&runs[1].0), 0, "{:?}", runs[1].0);
    assert!(
        runs[1].1 > 0 && runs[2].1 > 0,
        "{:?}",
        runs.iter().map(|r| r.1).collect::<Vec<_>>()
    );
}

const NOT_FOUND: &str = "use rmcp::ErrorData as McpError;\n\
    pub fn not_found(id: &str) -> McpError {\n    \
        McpError::internal_error(format!(\"no note {id}\"), None)\n}\n";

const NOTE_TOOLS: &str = "use rmcp::{ErrorData as McpError, model::*, tool, tool_router};\n\
    use crate::errors::not_found;\n\
    pub struct S;\n\
    #[tool_router]\nimpl S {\n    #[tool(description = \"Read a note\")]\n    \
        async fn read(&self, id: String) -> Result<CallToolResult, McpError> {\n        \
            let t = std::fs::read_to_string(&id).map_err(|_| not_found(&id))?;\n        \
            Ok(CallToolResult::success(vec![Content::text(t)]))\n    }\n}\n";

/// A fn building the protocol error its callers send (`fn not_found(..) -> McpError`) is walked
/// a second time as such: that walk is kept like the first while its file is unchanged, and
/// done again when it changes.
#[test]
fn second_walks_are_kept_while_their_file_is_unchanged() {
    let main = "mod errors;\nmod tools;\nfn main() {}\n";
    let runs = analyse_edits(
        &[
            ("src/main.rs", main),
            ("src/errors.rs", NOT_FOUND),
            ("src/tools.rs", NOTE_TOOLS),
        ],
        vec![
            ("first analysis", vec![]),
            (
                "a body in the tool file",
                vec![(
                    "src/tools.rs",
                    NOTE_TOOLS.replace("read_to_string(&id)", "read_to_string(id.trim())"),
                )],
            ),
            (
                "the code the helper builds",
                vec![(
                    "src/errors.rs",
                    NOT_FOUND.replace("internal_error", "resource_not_found"),
                )],
            ),
        ],
    );
    let internal_at_helper = |reports: &[String]| {
        reports
            .iter()
            .any(|r| r.starts_with("/srv/src/errors.rs: [Diagnostic") && r.contains("-32603"))
    };
    assert!(internal_at_helper(&runs[0].0), "{:?}", runs[0].0);
    assert!(internal_at_helper(&runs[1].0), "{:?}", runs[1].0);
    assert!(!internal_at_helper(&runs[2].0), "{:?}", runs[2].0);
    let rewalks: Vec<usize> = runs.iter().map(|(.., r)| *r).collect();
    assert_eq!(rewalks, [0, 1, 0], "second walks kept per edit");
}
