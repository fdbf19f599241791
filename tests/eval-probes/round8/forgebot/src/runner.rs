//! Local subprocess layer: git and the lint command, run in the workspace checkout.

use crate::error::ForgeError;
use std::path::Path;
use tokio::process::Command;

pub struct LintOutcome {
    pub passed: bool,
    pub stdout: String,
    pub stderr: String,
}

async fn run(cmd: &str, args: &[&str], cwd: &Path) -> Result<std::process::Output, ForgeError> {
    Command::new(cmd)
        .args(args)
        .current_dir(cwd)
        .output()
        .await
        .map_err(|source| ForgeError::Spawn {
            cmd: cmd.to_string(),
            source,
        })
}

/// Resolve a ref to a full commit sha, or fail with InvalidRef.
pub async fn resolve_ref(workspace: &Path, git_ref: &str) -> Result<String, ForgeError> {
    if git_ref.starts_with('-') || git_ref.contains("..") {
        return Err(ForgeError::InvalidRef(git_ref.to_string()));
    }
    let out = run("git", &["rev-parse", "--verify", "--quiet", git_ref], workspace).await?;
    if !out.status.success() {
        return Err(ForgeError::InvalidRef(git_ref.to_string()));
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

pub async fn lint(workspace: &Path, command: &[String], path: &str) -> Result<LintOutcome, ForgeError> {
    let (program, rest) = command
        .split_first()
        .ok_or_else(|| ForgeError::Config("FORGE_LINT_CMD is empty".into()))?;
    let mut args: Vec<&str> = rest.iter().map(String::as_str).collect();
    args.push(path);
    let out = run(program, &args, workspace).await?;
    Ok(LintOutcome {
        passed: out.status.success(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    })
}

pub async fn current_branch(workspace: &Path) -> Result<String, ForgeError> {
    let out = run("git", &["rev-parse", "--abbrev-ref", "HEAD"], workspace).await?;
    if !out.status.success() {
        return Err(ForgeError::Command {
            cmd: "git rev-parse --abbrev-ref HEAD".into(),
            code: out.status.code().unwrap_or(-1),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        });
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}
