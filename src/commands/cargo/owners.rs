//! Which package and target each reported file belongs to, from `cargo metadata`: what cargo
//! JSON messages name as a finding's owner.

use std::io::Write;
use std::path::{Path, PathBuf};

use lints::FileReport;

use super::metadata::{self, Query, Workspace};
use crate::report::cargo_json::{Located, Owner};
use crate::workspace::manifest::Manifests;
use crate::workspace::paths::{normalize, relative_to};

/// Which package and target each reported file belongs to, from `cargo metadata`.
pub struct Owners {
    cwd: PathBuf,
    workspaces: Vec<Workspace>,
    /// Span paths relative to the workspace root, as cargo prints them (`cargo mcp-lint`, run
    /// for one workspace); otherwise absolute (`mcp-lint check`, whose files may belong to
    /// several workspaces).
    relative: bool,
}

impl Owners {
    /// For `cargo mcp-lint`: the one workspace it ran on; span paths relative to its root.
    pub fn for_workspace(cwd: &Path, workspace: Workspace) -> Owners {
        Owners {
            cwd: cwd.to_path_buf(),
            workspaces: vec![workspace],
            relative: true,
        }
    }

    /// For `mcp-lint check --message-format=json`: the workspaces of the packages that have
    /// findings, one `cargo metadata` call per workspace; span paths are absolute. A package cargo cannot describe (no
    /// cargo, a package outside its workspace) gets bare rustc diagnostics, with a warning.
    pub fn for_check(reports: &[FileReport], cwd: &Path, err: &mut dyn Write) -> Owners {
        let mut owners = Owners {
            cwd: cwd.to_path_buf(),
            workspaces: Vec::new(),
            relative: false,
        };
        let mut manifests = Manifests::new(cwd);
        let mut failed: Vec<PathBuf> = Vec::new();
        for report in reports.iter().filter(|r| !r.diagnostics.is_empty()) {
            let abs = normalize(&cwd.join(&report.path));
            let Some(root) = manifests.package_root(&abs) else {
                continue;
            };
            let known = owners
                .workspaces
                .iter()
                .any(|w| w.members.iter().any(|m| m.dir == root));
            if known || failed.contains(&root) {
                continue;
            }
            let manifest = root.join("Cargo.toml");
            // Run from the file system's root, not from the linted tree: a rustup proxy picks
            // the toolchain by the directory it runs in, and a repository's
            // `rust-toolchain.toml` may name any program as its cargo (`path = "/…"`). So this
            // is `$CARGO` (the cargo that runs us) or the toolchain the user gets outside any
            // repository; no `.cargo/config.toml` of the tree is read either.
            let outside = manifest.ancestors().last().unwrap_or(cwd);
            match metadata::load(
                outside,
                &Query {
                    manifest_path: Some(&manifest),
                    flags: Vec::new(),
                },
            ) {
                Ok(ws) => owners.workspaces.push(ws),
                Err(message) => {
                    let _ = writeln!(
                        err,
                        "warning: {message}\nwarning: findings in {} are printed as bare rustc diagnostics, without a package",
                        relative_to(&root, cwd).display()
                    );
                    failed.push(root);
                }
            }
        }
        owners
    }

    /// The span file name and owner of a reported file (or of a related location's file).
    pub fn locate(&self, path: &Path) -> Located<'_> {
        let abs = normalize(&self.cwd.join(path));
        for ws in &self.workspaces {
            let Some(member) = ws.member_of(&abs) else {
                continue;
            };
            let Some(target) = member.owning_target(&abs) else {
                continue;
            };
            let file_name = match abs.strip_prefix(&ws.root) {
                Ok(rel) if self.relative => rel.to_path_buf(),
                _ => abs.clone(),
            };
            return Located {
                file_name: file_name.display().to_string(),
                owner: Some(Owner {
                    package_id: &member.id,
                    manifest_path: &member.manifest_path,
                    target: &target.raw,
                }),
            };
        }
        Located {
            file_name: abs.display().to_string(),
            owner: None,
        }
    }
}
