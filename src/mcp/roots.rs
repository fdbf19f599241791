//! Which directories the MCP server reads: the client's roots (`roots/list`), or the server's
//! working directory when the client declares none. A path a tool is given, the `config` file,
//! and every file found under a directory (symlinks resolved) must lie inside one of them: an
//! agent's tool call cannot make the server read `/etc/passwd` and echo it in a parse error.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rmcp::{Peer, RoleServer};

use crate::workspace::discover::Discovery;
use crate::workspace::paths::normalize;

/// How long to wait for the client's answer to `roots/list`.
const ROOTS_TIMEOUT: Duration = Duration::from_secs(10);

/// The directories a call may read, canonical (symlinks resolved).
#[derive(Clone, Debug)]
pub struct Roots {
    dirs: Vec<PathBuf>,
    /// `true` when the client named them, `false` for the working directory.
    from_client: bool,
}

fn canonical(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| normalize(path))
}

impl Roots {
    /// The working directory alone.
    pub fn working_directory(cwd: &Path) -> Roots {
        Roots {
            dirs: vec![canonical(cwd)],
            from_client: false,
        }
    }

    /// The client's roots when it declares the capability and answers with `file:` roots;
    /// else (no capability, no answer in time, no usable root) the working directory.
    // Roots are deprecated from protocol 2026-07-28 (SEP-2577); clients of earlier versions
    // still declare them, and they are the boundary those clients mean.
    #[allow(deprecated)]
    pub async fn of_client(peer: &Peer<RoleServer>, cwd: &Path) -> Roots {
        let declared = peer
            .peer_info()
            .is_some_and(|info| info.capabilities.roots.is_some());
        if !declared {
            return Roots::working_directory(cwd);
        }
        let answer = tokio::time::timeout(ROOTS_TIMEOUT, peer.list_roots()).await;
        let dirs: Vec<PathBuf> = match answer {
            Ok(Ok(result)) => result
                .roots
                .iter()
                .filter_map(|root| {
                    let url = lsp_types::Url::parse(&root.uri).ok()?;
                    url.to_file_path().ok()
                })
                .map(|p| canonical(&p))
                .collect(),
            _ => Vec::new(),
        };
        if dirs.is_empty() {
            return Roots::working_directory(cwd);
        }
        Roots {
            dirs,
            from_client: true,
        }
    }

    /// Does `path` (absolute; symlinks are resolved here) lie inside a root?
    pub fn contains(&self, path: &Path) -> bool {
        let resolved = canonical(path);
        self.dirs.iter().any(|root| resolved.starts_with(root))
    }

    /// The isError text for `given` (a `what`, e.g. "`paths` entry") outside every root.
    pub fn outside(&self, given: &str, what: &str) -> String {
        let listing = self
            .dirs
            .iter()
            .map(|d| format!("`{}`", d.display()))
            .collect::<Vec<_>>()
            .join(", ");
        let source = if self.from_client {
            "the client's roots"
        } else {
            "the server's working directory (the client declares no roots)"
        };
        format!(
            "the {what} `{given}` is outside the directories this server reads: {source}, \
             {listing}. Pass a path inside one of them"
        )
    }

    /// `Err` with the isError text when `given` (relative to `cwd`) lies outside every root.
    pub fn check(&self, cwd: &Path, given: &str, what: &str) -> Result<(), String> {
        if self.contains(&cwd.join(given)) {
            Ok(())
        } else {
            Err(self.outside(given, what))
        }
    }

    /// Take out of `discovery` the files that resolve outside every root (a symlink under a
    /// root pointing elsewhere): they are not read. The problems to report, one per file.
    pub fn confine(&self, discovery: &mut Discovery) -> Vec<String> {
        let mut problems = Vec::new();
        for krate in &mut discovery.crates {
            let mut outside = Vec::new();
            krate.files.retain(|f| {
                let inside = self.contains(&f.path);
                if !inside {
                    outside.push(f.display.clone());
                }
                inside
            });
            problems.extend(outside.iter().map(|p| {
                format!(
                    "not read: {} resolves to a file outside the directories this server reads",
                    p.display()
                )
            }));
        }
        discovery.crates.retain(|c| !c.files.is_empty());
        problems
    }
}
