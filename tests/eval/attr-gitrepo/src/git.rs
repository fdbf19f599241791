//! Thin wrappers around the `git` command line.

use std::path::Path;
use std::process::Command;

use mcp_attr::{bail, Result};

pub struct Repo<'a> {
    pub root: &'a Path,
}

impl Repo<'_> {
    /// Run git in the repository; a non-zero exit is an error carrying git's stderr.
    pub fn run_git(&self, args: &[&str]) -> Result<String> {
        let out = Command::new("git")
            .arg("-C")
            .arg(self.root)
            .args(args)
            .output()
            .expect("git was found on PATH at startup");
        if !out.status.success() {
            bail!(
                "git {} failed: {}",
                args.join(" "),
                String::from_utf8_lossy(&out.stderr).trim()
            );
        }
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }

    /// Files with uncommitted changes, from `git status --porcelain`.
    pub fn dirty_files(&self) -> Result<Vec<String>> {
        let status = self.run_git(&["status", "--porcelain"])?;
        Ok(status
            .lines()
            .filter_map(|l| l.get(3..))
            .map(str::to_string)
            .collect())
    }
}

pub fn is_safe_rev(rev: &str) -> bool {
    !rev.is_empty()
        && !rev.starts_with('-')
        && rev
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-~^@{}".contains(c))
}
