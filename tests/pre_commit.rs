//! pre-commit: the hook manifest at the repository root, driven the way pre-commit drives it
//! (entry split like a shell, then args, then the staged files that match `types`, in parallel
//! chunks), `--force-exclude`, and partial file lists that still read each crate for context.
//!
//! The real `pre-commit try-repo` against this repository is `#[ignore]`d (it needs pre-commit,
//! and its `language: rust` hooks `cargo install` mcp-lint): `cargo test --test pre_commit --
//! --ignored` runs it with the pre-commit named by `MCP_LINT_PRE_COMMIT`, else the one on
//! `PATH` (`.ci/run` installs one).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;
use serde::Deserialize;

/// The fields of a hook definition pre-commit reads (`pre-commit.com`, "Creating new hooks").
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Hook {
    id: String,
    name: String,
    entry: String,
    language: String,
    #[serde(default)]
    description: Option<String>,
    #[serde(default = "default_types")]
    types: Vec<String>,
    #[serde(default)]
    args: Vec<String>,
    #[serde(default = "yes")]
    pass_filenames: bool,
    #[serde(default)]
    always_run: bool,
    #[serde(default)]
    require_serial: bool,
}

fn default_types() -> Vec<String> {
    vec!["file".into()]
}

fn yes() -> bool {
    true
}

fn repository_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn hooks() -> Vec<Hook> {
    let text = std::fs::read_to_string(repository_root().join(".pre-commit-hooks.yaml"))
        .expect(".pre-commit-hooks.yaml at the repository root");
    serde_yaml::from_str(&text).expect("a YAML list of hooks")
}

fn hook(id: &str) -> Hook {
    hooks()
        .into_iter()
        .find(|h| h.id == id)
        .unwrap_or_else(|| panic!("hook `{id}`"))
}

/// pre-commit's `types: [rust]` is identify's tag for `.rs` files; `file` matches every file.
fn matches_types(hook: &Hook, file: &str) -> bool {
    hook.types
        .iter()
        .all(|t| t == "file" || (t == "rust" && file.ends_with(".rs")))
}

/// Run `hook` over the changed files as pre-commit would, in `chunks` parallel-style
/// invocations (`require_serial: false` lets pre-commit split the file list). `None` when
/// pre-commit would skip the hook (no matching file, and not `always_run`).
fn run_hook(hook: &Hook, repo: &Path, changed: &[&str], chunks: usize) -> Option<Vec<Run>> {
    let files: Vec<&str> = changed
        .iter()
        .copied()
        .filter(|f| matches_types(hook, f))
        .collect();
    if files.is_empty() && !hook.always_run {
        return None;
    }
    // pre-commit splits `entry` with shlex; a plain whitespace split is the same for ours.
    let mut words = hook.entry.split_whitespace();
    let program = words.next().expect("entry names a program");
    assert_eq!(program, "mcp-lint", "the installed binary");
    let mut base: Vec<String> = words.map(str::to_string).collect();
    base.extend(hook.args.iter().cloned());
    let groups: Vec<Vec<&str>> = if hook.pass_filenames {
        files
            .chunks(files.len().div_ceil(chunks).max(1))
            .map(<[&str]>::to_vec)
            .collect()
    } else {
        vec![Vec::new()]
    };
    Some(
        groups
            .into_iter()
            .map(|group| {
                let mut cmd = Command::new(env!("CARGO_BIN_EXE_mcp-lint"));
                cmd.args(&base).args(group);
                quiet_env(&mut cmd, repo);
                capture(&mut cmd)
            })
            .collect(),
    )
}

/// A server whose tool calls a helper shared with a resource handler, so the finding sits at
/// the tool's call site; plus generated code that the config excludes and that does not parse.
fn repository() -> (tempfile::TempDir, PathBuf) {
    project(&[
        (
            "Cargo.toml",
            "[package]\nname = \"srv\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\nrmcp = \"0.8\"\n",
        ),
        ("mcp-lint.toml", "exclude = [\"src/generated/**\", \"*.gen.rs\"]\n"),
        ("src/lib.rs", "mod generated;\nmod helpers;\nmod resources;\nmod tools;\n"),
        ("src/helpers.rs", HELPERS),
        ("src/resources.rs", RESOURCES),
        ("src/tools.rs", TOOLS),
        ("src/generated/out.rs", "fn broken( {\n"),
        ("src/schema.gen.rs", "fn broken( {\n"),
        ("README.md", "# srv\n"),
    ])
}

/// Finding lines of concise output (related locations follow as `note:` lines).
fn findings(concise: &str) -> usize {
    concise.lines().filter(|l| !l.contains(": note: ")).count()
}

const HELPERS: &str = r#"use rmcp::ErrorData as McpError;

/// Shared by the tools and the resource handler.
pub fn internal(e: impl std::fmt::Display) -> McpError {
    McpError::internal_error(e.to_string(), None)
}
"#;

const RESOURCES: &str = r#"use rmcp::{model::*, service::RequestContext, ErrorData as McpError, RoleServer, ServerHandler};

use crate::helpers::internal;
use crate::tools::Files;

impl ServerHandler for Files {
    async fn read_resource(
        &self,
        request: ReadResourceRequestParam,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, McpError> {
        let text = std::fs::read_to_string(&request.uri).map_err(internal)?;
        Ok(ReadResourceResult { contents: vec![ResourceContents::text(text, request.uri)] })
    }
}
"#;

const TOOLS: &str = r#"use rmcp::{handler::server::wrapper::Parameters, model::*, schemars, tool, tool_router, ErrorData as McpError};

use crate::helpers::internal;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct ReadFile {
    pub path: String,
}

pub struct Files;

#[tool_router]
impl Files {
    #[tool(description = "Read a UTF-8 text file")]
    async fn read_file(&self, Parameters(args): Parameters<ReadFile>) -> Result<CallToolResult, McpError> {
        let text = std::fs::read_to_string(&args.path).map_err(internal)?;
        Ok(CallToolResult::success(vec![Content::text(text)]))
    }
}
"#;

const TOOLS_FINDING: &str = "src/tools.rs:16:64: error[MCP001/tool_failure_as_protocol_error]";

#[test]
fn hook_manifest_has_what_pre_commit_requires() {
    let hooks = hooks();
    let ids: Vec<&str> = hooks.iter().map(|h| h.id.as_str()).collect();
    assert_eq!(ids, ["mcp-lint", "mcp-lint-workspace", "mcp-lint-system"]);
    for h in &hooks {
        assert!(!h.name.is_empty() && h.description.is_some(), "{h:?}");
        let language = if h.id == "mcp-lint-system" {
            "system"
        } else {
            "rust"
        };
        assert_eq!(h.language, language, "{h:?}");
    }
    // The installed-binary hook runs what the built one runs.
    let system = hook("mcp-lint-system");
    assert_eq!(
        (
            &system.entry,
            &system.types,
            system.pass_filenames,
            system.require_serial
        ),
        (
            &hook("mcp-lint").entry,
            &hook("mcp-lint").types,
            true,
            false
        )
    );
    let files = hook("mcp-lint");
    assert_eq!(files.entry, "mcp-lint check --force-exclude");
    assert_eq!(files.types, ["rust"]);
    assert!(files.pass_filenames && !files.require_serial && !files.always_run);
    let workspace = hook("mcp-lint-workspace");
    assert_eq!(workspace.entry, "mcp-lint check");
    assert!(!workspace.pass_filenames && workspace.always_run);
}

#[test]
fn the_files_hook_reports_changed_files_and_keeps_excludes() {
    let (_tmp, repo) = repository();
    let hook = hook("mcp-lint");
    let changed = [
        "README.md",
        "src/generated/out.rs",
        "src/schema.gen.rs",
        "src/tools.rs",
    ];
    for chunks in [1, 3] {
        let runs = run_hook(&hook, &repo, &changed, chunks).expect("rust files changed");
        let failed: Vec<&Run> = runs.iter().filter(|r| r.code != 0).collect();
        assert_eq!(failed.len(), 1, "{runs:?}");
        assert!(
            failed[0].stdout.contains("╭─[src/tools.rs:16:64]"),
            "{runs:?}"
        );
        for r in &runs {
            assert!(
                !r.stdout.contains("parse_error"),
                "excluded files stay excluded: {r:?}"
            );
            assert!(r.code == 0 || r.code == 1, "{r:?}");
        }
    }
    // Only excluded or non-Rust files changed: nothing to report, the hook passes.
    let runs = run_hook(&hook, &repo, &["README.md", "src/schema.gen.rs"], 1).expect("runs");
    assert_eq!(runs[0].code, 0, "{runs:?}");
    assert!(run_hook(&hook, &repo, &["README.md"], 1).is_none());
    // A clean changed file passes even though another file of its crate has a finding.
    let runs = run_hook(&hook, &repo, &["src/helpers.rs"], 1).expect("runs");
    assert_eq!(runs[0].code, 0, "{runs:?}");
    assert!(
        runs[0].stdout.contains("no findings (1 file checked)"),
        "{runs:?}"
    );
}

#[test]
fn the_workspace_hook_lints_everything_whatever_changed() {
    let (_tmp, repo) = repository();
    let runs =
        run_hook(&hook("mcp-lint-workspace"), &repo, &["README.md"], 4).expect("always runs");
    assert_eq!(runs.len(), 1);
    let run = &runs[0];
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stdout.contains("╭─[src/tools.rs:16:64]"), "{run:?}");
    assert!(
        run.stdout.contains("(4 files checked)"),
        "generated files excluded: {run:?}"
    );
}

#[test]
fn force_exclude_applies_config_excludes_to_explicit_paths() {
    let (_tmp, repo) = repository();
    // Without it, a path given explicitly is linted even if the config excludes it (ruff's rule).
    let run = mcp_lint(
        &repo,
        &[
            "check",
            "--format",
            "concise",
            "src/schema.gen.rs",
            "src/generated/out.rs",
        ],
    );
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        run.stdout.matches("error[MCP900/parse_error]").count(),
        2,
        "{run:?}"
    );
    assert!(run.stdout.contains("src/generated/out.rs:1:"), "{run:?}");
    assert!(run.stdout.contains("src/schema.gen.rs:1:"), "{run:?}");
    // With it, files and directories under an excluded pattern are skipped.
    for path in ["src/schema.gen.rs", "src/generated/out.rs", "src/generated"] {
        let run = mcp_lint(
            &repo,
            &["check", "--force-exclude", "--format", "concise", path],
        );
        assert_eq!(run.code, 0, "{path}: {run:?}");
        assert_eq!(run.stdout, "", "{path}: {run:?}");
        assert!(
            run.stderr.contains("no Rust files found"),
            "{path}: {run:?}"
        );
    }
    // Paths that are not excluded are linted as usual.
    let run = mcp_lint(
        &repo,
        &[
            "check",
            "--force-exclude",
            "--format",
            "concise",
            "src/tools.rs",
            "src/schema.gen.rs",
        ],
    );
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stdout.starts_with(TOOLS_FINDING), "{run:?}");
    assert_eq!(findings(&run.stdout), 1, "{run:?}");
}

#[test]
fn a_partial_file_list_still_reads_the_rest_of_the_crate() {
    let (_tmp, repo) = repository();
    // The helper that builds the -32603 lives in an unlisted file: the listed tool is still
    // reported, and only the listed file is.
    let run = mcp_lint(&repo, &["check", "--format", "concise", "src/tools.rs"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stdout.starts_with(TOOLS_FINDING), "{run:?}");
    assert_eq!(findings(&run.stdout), 1, "{run:?}");
    // Without that file the call is unknown, and nothing is reported: the finding above came
    // from reading the unlisted helper.
    std::fs::remove_file(repo.join("src/helpers.rs")).expect("rm");
    let run = mcp_lint(&repo, &["check", "--format", "concise", "src/tools.rs"]);
    assert_eq!((run.code, run.stdout.as_str()), (0, ""), "{run:?}");

    // The other way round: a helper only tools call is reported at its construction, and that
    // needs the unlisted file where the tools are.
    let (_tmp, repo) = project(&[
        (
            "Cargo.toml",
            "[package]\nname = \"srv\"\nversion = \"0.1.0\"\n\n[dependencies]\nrmcp = \"0.8\"\n",
        ),
        ("src/lib.rs", "mod helpers;\nmod tools;\n"),
        ("src/helpers.rs", HELPERS),
        ("src/tools.rs", TOOLS),
    ]);
    let run = mcp_lint(&repo, &["check", "--format", "concise", "src/helpers.rs"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout.starts_with("src/helpers.rs:5:5: error[MCP001/"),
        "{run:?}"
    );
    assert_eq!(findings(&run.stdout), 1, "{run:?}");
}

/// pre-commit, from `MCP_LINT_PRE_COMMIT` or `PATH`; a test that needs it fails without it.
fn pre_commit() -> std::ffi::OsString {
    if let Some(p) = std::env::var_os("MCP_LINT_PRE_COMMIT") {
        return p;
    }
    let found = std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .map(|dir| dir.join("pre-commit"))
            .find(|p| p.is_file())
    });
    match found {
        Some(p) => p.into_os_string(),
        None => panic!(
            "pre-commit is not installed: `pip install pre-commit` (or run `bash .ci/run`), or \
             point MCP_LINT_PRE_COMMIT at a pre-commit executable"
        ),
    }
}

/// The real pre-commit, installing this repository's hooks with `cargo install`.
#[test]
#[ignore = "needs pre-commit (set MCP_LINT_PRE_COMMIT or put it on PATH) and builds mcp-lint; run with --ignored"]
fn real_pre_commit_try_repo() {
    let pre_commit = pre_commit();
    let (_tmp, repo) = repository();
    let git = |args: &[&str]| {
        let run = capture(Command::new("git").args(args).current_dir(&repo));
        assert_eq!(run.code, 0, "git {args:?}: {run:?}");
    };
    git(&["init", "-q"]);
    git(&["add", "."]);
    let home = tempfile::tempdir().expect("tempdir");
    let try_repo = |args: &[&str]| {
        let mut cmd = Command::new(&pre_commit);
        cmd.arg("try-repo").arg(repository_root()).args(args);
        quiet_env(&mut cmd, &repo);
        cmd.env("PRE_COMMIT_HOME", home.path())
            // A fast build for `cargo install`, kept for the next run: this test checks the
            // hook, not the optimiser.
            .env(
                "CARGO_TARGET_DIR",
                repository_root().join("target/pre-commit-install"),
            )
            .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "0")
            .env("CARGO_PROFILE_RELEASE_DEBUG", "false")
            .env("CARGO_PROFILE_RELEASE_INCREMENTAL", "true")
            .env_remove("CARGO_NET_OFFLINE")
            .env("GIT_AUTHOR_NAME", "test")
            .env("GIT_AUTHOR_EMAIL", "test@example.invalid")
            .env("GIT_COMMITTER_NAME", "test")
            .env("GIT_COMMITTER_EMAIL", "test@example.invalid");
        capture(&mut cmd)
    };
    let run = try_repo(&[
        "mcp-lint",
        "--files",
        "src/tools.rs",
        "src/schema.gen.rs",
        "README.md",
    ]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout.contains("mcp-lint") && run.stdout.contains("Failed"),
        "{run:?}"
    );
    assert!(run.stdout.contains("src/tools.rs:16:64"), "{run:?}");
    assert!(!run.stdout.contains("parse_error"), "{run:?}");
    let run = try_repo(&["mcp-lint", "--files", "src/helpers.rs"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout.contains("Passed"), "{run:?}");
    let run = try_repo(&["mcp-lint-workspace", "--files", "README.md"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stdout.contains("src/tools.rs:16:64"), "{run:?}");
    // `language: system`: the mcp-lint on PATH (this build's), nothing installed.
    let run = try_repo(&["mcp-lint-system", "--files", "src/tools.rs", "README.md"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout.contains("mcp-lint (installed binary)") && run.stdout.contains("Failed"),
        "{run:?}"
    );
    assert!(run.stdout.contains("src/tools.rs:16:64"), "{run:?}");
    let run = try_repo(&["mcp-lint-system", "--files", "src/helpers.rs"]);
    assert_eq!(run.code, 0, "{run:?}");
}
