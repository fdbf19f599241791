//! The workspace as `cargo metadata --format-version 1 --no-deps` describes it: members, default
//! members, each member's dependencies and targets (kept verbatim for `compiler-message`
//! records), cargo's package selection (`-p`, `--workspace`, `--exclude`), and which target owns
//! a file.

use std::path::{Path, PathBuf};
use std::process::Command;

use cargo_metadata::{Metadata, MetadataCommand};
use globset::Glob;
use lints::{Dependency, Manifest, TargetKind, Targets};

/// One workspace member.
#[derive(Clone, Debug)]
pub struct Member {
    /// The package id exactly as cargo prints it.
    pub id: String,
    pub name: String,
    pub version: String,
    pub manifest_path: PathBuf,
    /// The directory holding `manifest_path`.
    pub dir: PathBuf,
    /// Name and dependencies (renames resolved, workspace inheritance resolved by cargo).
    pub manifest: Manifest,
    pub targets: Vec<Target>,
}

#[derive(Clone, Debug)]
pub struct Target {
    pub name: String,
    pub kinds: Vec<String>,
    pub src_path: PathBuf,
    /// The target object exactly as `cargo metadata` printed it.
    pub raw: serde_json::Value,
}

impl Target {
    pub fn is(&self, kind: &str) -> bool {
        self.kinds.iter().any(|k| k == kind)
    }

    fn is_lib(&self) -> bool {
        self.kinds.iter().any(|k| {
            matches!(
                k.as_str(),
                "lib" | "rlib" | "dylib" | "cdylib" | "staticlib" | "proc-macro"
            )
        })
    }
}

/// The crate roots cargo lists for a package, relative to its directory: the whole list, so
/// no standard place is a root unless listed (`autobins = false` and the like are applied).
fn cargo_targets(dir: &Path, targets: &[Target]) -> Targets {
    let relative = |t: &Target| {
        t.src_path
            .strip_prefix(dir)
            .map_or_else(|_| t.src_path.clone(), Path::to_path_buf)
    };
    Targets {
        lib: targets.iter().find(|t| t.is_lib()).map(relative),
        declared: targets
            .iter()
            .filter(|t| !t.is_lib())
            .map(relative)
            .collect(),
        not_inferred: vec![
            TargetKind::Lib,
            TargetKind::Bin,
            TargetKind::Example,
            TargetKind::Test,
            TargetKind::Bench,
            TargetKind::Build,
        ],
    }
}

/// A workspace: its root and members, in `cargo metadata` order.
#[derive(Clone, Debug)]
pub struct Workspace {
    pub root: PathBuf,
    pub members: Vec<Member>,
    /// Ids of what a plain `cargo check` in this directory would check.
    pub default_members: Vec<String>,
}

/// How to call `cargo metadata`.
#[derive(Clone, Debug, Default)]
pub struct Query<'a> {
    pub manifest_path: Option<&'a Path>,
    /// `--frozen`, `--locked`, `--offline` and the like.
    pub flags: Vec<String>,
}

/// Run `$CARGO metadata --format-version 1 --no-deps` in `cwd`.
pub fn load(cwd: &Path, query: &Query<'_>) -> Result<Workspace, String> {
    let mut command = MetadataCommand::new();
    command
        .no_deps()
        .current_dir(cwd)
        .other_options(query.flags.clone());
    if let Some(path) = query.manifest_path {
        command.manifest_path(path);
    }
    let mut cmd: Command = command.cargo_command();
    let output = cmd
        .output()
        .map_err(|e| format!("could not run `{} metadata`: {e}", program(&cmd)))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let detail = stderr
            .trim()
            .strip_prefix("error: ")
            .unwrap_or(stderr.trim());
        return Err(format!("`cargo metadata` failed: {detail}"));
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    let json = stdout
        .lines()
        .find(|line| line.starts_with('{'))
        .ok_or("`cargo metadata` printed no JSON")?;
    let mut workspace = parse(json)?;
    // `--no-deps` gives requirements: the versions come from the workspace's Cargo.lock, as
    // `mcp-lint check` reads them.
    let locked = std::sync::Arc::new(crate::workspace::manifest::read_lock(&workspace.root, cwd));
    for member in &mut workspace.members {
        crate::workspace::manifest::pin(&mut member.manifest, &locked);
    }
    Ok(workspace)
}

fn program(cmd: &Command) -> String {
    cmd.get_program().to_string_lossy().into_owned()
}

/// Build a [`Workspace`] from `cargo metadata` output.
pub fn parse(json: &str) -> Result<Workspace, String> {
    let bad = |e: &dyn std::fmt::Display| format!("could not read `cargo metadata` output: {e}");
    let metadata: Metadata = MetadataCommand::parse(json).map_err(|e| bad(&e))?;
    let raw: serde_json::Value = serde_json::from_str(json).map_err(|e| bad(&e))?;
    let raw_packages = raw["packages"].as_array().cloned().unwrap_or_default();
    let members: Vec<Member> = metadata
        .workspace_packages()
        .into_iter()
        .map(|p| {
            let raw_targets = raw_packages
                .iter()
                .find(|r| r["id"].as_str() == Some(p.id.repr.as_str()))
                .and_then(|r| r["targets"].as_array().cloned())
                .unwrap_or_default();
            let manifest_path = PathBuf::from(p.manifest_path.as_std_path());
            Member {
                id: p.id.repr.clone(),
                name: p.name.to_string(),
                version: p.version.to_string(),
                dir: manifest_path
                    .parent()
                    .map(Path::to_path_buf)
                    .unwrap_or_default(),
                manifest_path,
                manifest: Manifest {
                    package_name: Some(p.name.to_string()),
                    package_version: Some(p.version.to_string()),
                    published: p.manifest_path.parent().is_some_and(|dir| {
                        crate::workspace::manifest::is_published(dir.as_std_path())
                    }),
                    locked: None,
                    targets: Default::default(),
                    dependencies: dependencies(&p.dependencies),
                },
                targets: p
                    .targets
                    .iter()
                    .enumerate()
                    .map(|(i, t)| Target {
                        name: t.name.clone(),
                        kinds: t.kind.iter().map(|k| k.to_string()).collect(),
                        src_path: PathBuf::from(t.src_path.as_std_path()),
                        raw: raw_targets.get(i).cloned().unwrap_or_else(|| {
                            serde_json::to_value(t).unwrap_or(serde_json::Value::Null)
                        }),
                    })
                    .collect(),
            }
        })
        .map(|mut member| {
            member.manifest.targets = cargo_targets(&member.dir, &member.targets);
            member
        })
        .collect();
    let default_members = if metadata.workspace_default_members.is_available() {
        metadata
            .workspace_default_members
            .iter()
            .map(|id| id.repr.clone())
            .collect()
    } else {
        // Cargo before 1.71: the root package, or every member of a virtual workspace.
        match metadata.root_package() {
            Some(root) => vec![root.id.repr.clone()],
            None => members.iter().map(|m| m.id.clone()).collect(),
        }
    };
    Ok(Workspace {
        root: PathBuf::from(metadata.workspace_root.as_std_path()),
        members,
        default_members,
    })
}

/// Dependencies as the analysis wants them: the crate's real name, and the version requirement
/// (`None` for a bare path or git dependency, whose requirement is `*`).
fn dependencies(deps: &[cargo_metadata::Dependency]) -> Vec<Dependency> {
    let mut out: Vec<Dependency> = Vec::new();
    for d in deps {
        let req = d.req.to_string();
        let dep = Dependency {
            name: d.name.clone(),
            version: (req != "*").then_some(req),
            rename: d.rename.clone(),
            // cargo gives a path dependency's directory as it resolved it: absolute.
            path: d
                .path
                .as_ref()
                .map(|p| crate::workspace::paths::normalize(p.as_std_path())),
        };
        if !out.contains(&dep) {
            out.push(dep);
        }
    }
    out
}

/// Cargo's package selection flags.
#[derive(Clone, Debug, Default)]
pub struct Selection<'a> {
    pub packages: &'a [String],
    pub workspace: bool,
    pub exclude: &'a [String],
}

impl Workspace {
    /// The members to lint, following cargo: `--workspace` is every member but `--exclude`d
    /// ones, `-p` the named ones, and otherwise the default members (the package in the current
    /// directory, or `default-members`, or every member of a virtual workspace).
    pub fn select(&self, selection: &Selection<'_>) -> Result<Vec<&Member>, String> {
        if !selection.exclude.is_empty() && !selection.workspace {
            return Err("`--exclude` can only be used together with `--workspace`".into());
        }
        if selection.workspace {
            return Ok(self
                .members
                .iter()
                .filter(|m| !selection.exclude.iter().any(|spec| matches_spec(spec, m)))
                .collect());
        }
        if !selection.packages.is_empty() {
            let mut chosen: Vec<&Member> = Vec::new();
            for spec in selection.packages {
                let found: Vec<&Member> = self
                    .members
                    .iter()
                    .filter(|m| matches_spec(spec, m))
                    .collect();
                if found.is_empty() {
                    let names = self.members.iter().map(|m| m.name.as_str());
                    let mut message =
                        format!("package ID specification `{spec}` did not match any packages");
                    if let Some(s) = lints::registry::did_you_mean(spec, names) {
                        message.push_str(&format!("; did you mean `{s}`?"));
                    }
                    return Err(message);
                }
                for m in found {
                    if !chosen.iter().any(|c| c.id == m.id) {
                        chosen.push(m);
                    }
                }
            }
            return Ok(chosen);
        }
        Ok(self
            .members
            .iter()
            .filter(|m| self.default_members.contains(&m.id))
            .collect())
    }

    /// The member whose directory holds `file` (the innermost one when members nest).
    pub fn member_of(&self, file: &Path) -> Option<&Member> {
        self.members
            .iter()
            .filter(|m| file.starts_with(&m.dir))
            .max_by_key(|m| m.dir.components().count())
    }
}

impl Member {
    /// The target a file belongs to: the one whose `src_path` it is; else the one whose root
    /// directory is the deepest ancestor of the file (`tests/it/util.rs` → test `it`,
    /// `src/bin/tool/args.rs` → bin `tool`, `tests/common/mod.rs` → a test), preferring the
    /// kind that matches the file's top directory, then the lib, then a bin; else the lib, a bin
    /// or the first target.
    pub fn owning_target(&self, file: &Path) -> Option<&Target> {
        if let Some(t) = self.targets.iter().find(|t| t.src_path == file) {
            return Some(t);
        }
        let top = file
            .strip_prefix(&self.dir)
            .ok()
            .and_then(|rel| rel.components().next())
            .and_then(|c| c.as_os_str().to_str())
            .unwrap_or_default();
        let wanted_kind = match top {
            "tests" => "test",
            "benches" => "bench",
            "examples" => "example",
            _ => "",
        };
        let rank = |t: &Target| -> (usize, u8) {
            let depth = t.src_path.parent().map_or(0, |p| p.components().count());
            let preference = if !wanted_kind.is_empty() && t.is(wanted_kind) {
                3
            } else if t.is_lib() {
                2
            } else if t.is("bin") {
                1
            } else {
                0
            };
            (depth, preference)
        };
        let mut best: Option<(&Target, (usize, u8))> = None;
        for t in &self.targets {
            let Some(dir) = t.src_path.parent() else {
                continue;
            };
            if t.is("custom-build") || !file.starts_with(dir) {
                continue;
            }
            let r = rank(t);
            if best.is_none_or(|(_, b)| r > b) {
                best = Some((t, r));
            }
        }
        best.map(|(t, _)| t)
            .or_else(|| self.targets.iter().find(|t| t.is_lib()))
            .or_else(|| self.targets.iter().find(|t| t.is("bin")))
            .or_else(|| self.targets.first())
    }
}

/// Does a package ID specification select `m`? Accepts what cargo accepts for a member: the
/// package id itself, `name`, `name@version`, `name:version`, a glob over names (`api-*`), and
/// URL forms (`path+file:///dir#name@1.0.0`, `file:///dir#1.0.0`).
pub fn matches_spec(spec: &str, m: &Member) -> bool {
    let spec = spec.trim();
    if spec == m.id {
        return true;
    }
    if let Some((url, fragment)) = split_url(spec) {
        let dir = url
            .trim_end_matches('/')
            .rsplit_once("file://")
            .map(|(_, p)| p);
        if dir.is_some_and(|d| Path::new(d) != m.dir) {
            return false;
        }
        let last = url.trim_end_matches('/').rsplit('/').next().unwrap_or("");
        return match fragment {
            None => last == m.name || dir.is_some(),
            Some(f) => {
                let (name, version) = name_and_version(f);
                match (name, version) {
                    (Some(n), v) => n == m.name && v.is_none_or(|v| version_matches(v, &m.version)),
                    (None, Some(v)) => version_matches(v, &m.version),
                    (None, None) => false,
                }
            }
        };
    }
    let (name, version) = name_and_version(spec);
    let Some(name) = name else {
        return false;
    };
    let name_ok = if name.contains(['*', '?', '[']) {
        Glob::new(name).is_ok_and(|g| g.compile_matcher().is_match(&m.name))
    } else {
        name == m.name
    };
    name_ok && version.is_none_or(|v| version_matches(v, &m.version))
}

/// `scheme://…#fragment` → (URL, fragment), for specs that are URLs.
fn split_url(spec: &str) -> Option<(&str, Option<&str>)> {
    if !spec.contains("://") {
        return None;
    }
    Some(match spec.split_once('#') {
        Some((url, fragment)) => (url, Some(fragment)),
        None => (spec, None),
    })
}

/// `name`, `name@1.2.3`, `name:1.2.3`, or a bare version (URL fragments only).
fn name_and_version(s: &str) -> (Option<&str>, Option<&str>) {
    if let Some((n, v)) = s.split_once('@').or_else(|| s.split_once(':')) {
        return (Some(n), Some(v));
    }
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        return (None, Some(s));
    }
    (Some(s), None)
}

/// `1`, `1.2` and `1.2.3` match `1.2.3` (cargo allows partial versions in specs).
fn version_matches(spec: &str, version: &str) -> bool {
    let spec: Vec<&str> = spec.split('.').collect();
    let have: Vec<&str> = version.split('.').collect();
    spec.len() <= have.len() && spec.iter().zip(&have).all(|(a, b)| a == b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn target(name: &str, kind: &str, src: &str) -> serde_json::Value {
        json!({
            "name": name, "kind": [kind], "crate_types": [if kind == "lib" { "lib" } else { "bin" }],
            "required-features": [], "src_path": src, "edition": "2021",
            "doctest": kind == "lib", "test": true, "doc": kind != "test"
        })
    }

    fn package(
        name: &str,
        dir: &str,
        targets: Vec<serde_json::Value>,
        deps: serde_json::Value,
    ) -> serde_json::Value {
        json!({
            "name": name, "version": "0.1.0", "id": format!("path+file://{dir}#{name}@0.1.0"),
            "license": null, "license_file": null, "description": null, "source": null,
            "dependencies": deps, "targets": targets, "features": {},
            "manifest_path": format!("{dir}/Cargo.toml"), "metadata": null, "publish": null,
            "authors": [], "categories": [], "keywords": [], "readme": null, "repository": null,
            "homepage": null, "documentation": null, "edition": "2021", "links": null,
            "default_run": null, "rust_version": null
        })
    }

    fn dep(name: &str, req: &str, rename: Option<&str>) -> serde_json::Value {
        json!({
            "name": name, "source": "registry+https://github.com/rust-lang/crates.io-index",
            "req": req, "kind": null, "rename": rename, "optional": false,
            "uses_default_features": true, "features": [], "target": null, "registry": null
        })
    }

    fn workspace() -> Workspace {
        let server = package(
            "server",
            "/ws/server",
            vec![
                target("server", "lib", "/ws/server/src/lib.rs"),
                target("server", "bin", "/ws/server/src/main.rs"),
                target("tool", "bin", "/ws/server/src/bin/tool/main.rs"),
                target("it", "test", "/ws/server/tests/it.rs"),
                target("deep", "test", "/ws/server/tests/deep/main.rs"),
                target("demo", "example", "/ws/server/examples/demo.rs"),
                target("build-script-build", "custom-build", "/ws/server/build.rs"),
            ],
            json!([dep("rmcp", "^0.8", Some("mcp")), dep("serde", "*", None)]),
        );
        let util = package(
            "util",
            "/ws/util",
            vec![target("util", "lib", "/ws/util/lib.rs")],
            json!([]),
        );
        let doc = json!({
            "packages": [server, util],
            "workspace_members": ["path+file:///ws/server#server@0.1.0", "path+file:///ws/util#util@0.1.0"],
            "workspace_default_members": ["path+file:///ws/server#server@0.1.0"],
            "resolve": null, "target_directory": "/ws/target", "version": 1,
            "workspace_root": "/ws", "metadata": null
        });
        parse(&doc.to_string()).expect("parses")
    }

    fn names(members: &[&Member]) -> Vec<String> {
        members.iter().map(|m| m.name.clone()).collect()
    }

    #[test]
    fn members_dependencies_and_raw_targets() {
        let ws = workspace();
        assert_eq!(ws.root, PathBuf::from("/ws"));
        let server = &ws.members[0];
        assert_eq!(
            server.manifest.dependencies,
            vec![
                Dependency {
                    name: "rmcp".into(),
                    version: Some("^0.8".into()),
                    rename: Some("mcp".into()),
                    path: None,
                },
                Dependency {
                    name: "serde".into(),
                    version: None,
                    rename: None,
                    path: None,
                }
            ]
        );
        assert_eq!(server.targets[0].raw["required-features"], json!([]));
        assert_eq!(server.targets[0].raw["doctest"], json!(true));
    }

    #[test]
    fn selection_follows_cargo() {
        let ws = workspace();
        let sel = |packages: &[String], workspace: bool, exclude: &[String]| {
            ws.select(&Selection {
                packages,
                workspace,
                exclude,
            })
            .map(|m| names(&m))
        };
        assert_eq!(sel(&[], false, &[]), Ok(vec!["server".into()]));
        assert_eq!(
            sel(&[], true, &[]),
            Ok(vec!["server".into(), "util".into()])
        );
        assert_eq!(sel(&[], true, &["serv*".into()]), Ok(vec!["util".into()]));
        assert!(sel(&[], false, &["util".into()]).is_err());
        assert_eq!(sel(&["util".into()], false, &[]), Ok(vec!["util".into()]));
        let err = sel(&["utl".into()], false, &[]).unwrap_err();
        assert!(err.contains("did you mean `util`"), "{err}");
        for spec in [
            "util@0.1.0",
            "util:0.1",
            "path+file:///ws/util#util@0.1.0",
            "path+file:///ws/util#0.1.0",
            "file:///ws/util",
            "u*",
        ] {
            assert_eq!(
                sel(&[spec.into()], false, &[]),
                Ok(vec!["util".into()]),
                "{spec}"
            );
        }
        for spec in [
            "util@0.2",
            "path+file:///ws/server#util",
            "file:///elsewhere",
        ] {
            assert!(sel(&[spec.into()], false, &[]).is_err(), "{spec}");
        }
    }

    #[test]
    fn files_belong_to_the_target_that_owns_them() {
        let ws = workspace();
        let owner = |file: &str| {
            let m = ws.member_of(Path::new(file)).expect("member");
            let t = m.owning_target(Path::new(file)).expect("target");
            format!("{}:{}:{}", m.name, t.kinds[0], t.name)
        };
        assert_eq!(owner("/ws/server/src/lib.rs"), "server:lib:server");
        assert_eq!(owner("/ws/server/src/main.rs"), "server:bin:server");
        assert_eq!(owner("/ws/server/src/tools/db.rs"), "server:lib:server");
        assert_eq!(owner("/ws/server/src/bin/tool/args.rs"), "server:bin:tool");
        assert_eq!(owner("/ws/server/tests/it.rs"), "server:test:it");
        assert_eq!(
            owner("/ws/server/tests/deep/helpers.rs"),
            "server:test:deep"
        );
        assert_eq!(owner("/ws/server/tests/common/mod.rs"), "server:test:it");
        assert_eq!(
            owner("/ws/server/examples/demo/part.rs"),
            "server:example:demo"
        );
        assert_eq!(
            owner("/ws/server/build.rs"),
            "server:custom-build:build-script-build"
        );
        assert_eq!(owner("/ws/util/lib.rs"), "util:lib:util");
        assert_eq!(owner("/ws/util/sub/x.rs"), "util:lib:util");
        assert!(ws.member_of(Path::new("/elsewhere/x.rs")).is_none());
    }
}
