//! The ways to get a binary agree with each other: the release workflow builds every target the
//! GitHub Action and `cargo binstall` download, under the archive names they ask for, with
//! `--locked`, and publishes a checksum for each archive. (actionlint, which would check the
//! workflow's syntax too, cannot be installed here: its PyPI package builds from source by
//! downloading the binary.)

use std::path::PathBuf;

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
