//! Git diff operation with comprehensive statistics.
//!
//! This module provides the `DiffOpts` builder pattern and diff operation
//! implementation for comparing Git revisions and tracking file changes.

use std::path::PathBuf;

use crate::{GitError, GitResult, RepoHandle};

/// Type of change for a file
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeType {
    Added,
    Deleted,
    Modified,
    Renamed,
}

/// Statistics for a single file in a diff
#[derive(Debug, Clone)]
pub struct FileDiffStats {
    pub path: String,
    pub change_type: ChangeType,
    pub additions: usize,
    pub deletions: usize,
}

/// Overall diff statistics
#[derive(Debug, Clone)]
pub struct DiffStats {
    pub files: Vec<FileDiffStats>,
    pub total_files_changed: usize,
    pub total_additions: usize,
    pub total_deletions: usize,
}

impl DiffStats {
    pub fn new() -> Self {
        Self {
            files: Vec::new(),
            total_files_changed: 0,
            total_additions: 0,
            total_deletions: 0,
        }
    }

    fn add_file(&mut self, file: FileDiffStats) {
        self.total_files_changed += 1;
        self.total_additions += file.additions;
        self.total_deletions += file.deletions;
        self.files.push(file);
    }
}

impl Default for DiffStats {
    fn default() -> Self {
        Self::new()
    }
}

/// Options for diff operation
#[derive(Debug, Clone)]
pub struct DiffOpts {
    /// First revision (e.g., "HEAD", "main", commit hash)
    pub from: String,
    /// Second revision (defaults to working directory if not specified)
    pub to: Option<String>,
    /// Include only files matching this pattern (glob)
    pub filter_path: Option<String>,
}

impl DiffOpts {
    pub fn new(from: impl Into<String>) -> Self {
        Self {
            from: from.into(),
            to: None,
            filter_path: None,
        }
    }

    pub fn to(mut self, to: impl Into<String>) -> Self {
        self.to = Some(to.into());
        self
    }

    pub fn filter_path(mut self, path: impl Into<String>) -> Self {
        self.filter_path = Some(path.into());
        self
    }
}

/// Execute diff operation and collect statistics
pub async fn diff(repo: RepoHandle, opts: DiffOpts) -> GitResult<DiffStats> {
    let repo_clone = repo.clone_inner();

    tokio::task::spawn_blocking(move || {
        use gix::bstr::ByteSlice;

        let mut stats = DiffStats::new();

        // Parse 'from' revision
        let from_spec = repo_clone
            .rev_parse_single(opts.from.as_bytes().as_bstr())
            .map_err(|e| GitError::Gix(Box::new(e)))?;
        let from_object = repo_clone
            .find_object(from_spec)
            .map_err(|e| GitError::Gix(Box::new(e)))?;
        let from_commit = from_object
            .try_into_commit()
            .map_err(|e| GitError::Gix(Box::new(e)))?;
        let from_tree = from_commit.tree().map_err(|e| GitError::Gix(Box::new(e)))?;

        // Parse 'to' revision or use working directory
        let to_tree = if let Some(to_ref) = opts.to {
            let to_spec = repo_clone
                .rev_parse_single(to_ref.as_bytes().as_bstr())
                .map_err(|e| GitError::Gix(Box::new(e)))?;
            let to_object = repo_clone
                .find_object(to_spec)
                .map_err(|e| GitError::Gix(Box::new(e)))?;
            let to_commit = to_object
                .try_into_commit()
                .map_err(|e| GitError::Gix(Box::new(e)))?;
            Some(to_commit.tree().map_err(|e| GitError::Gix(Box::new(e)))?)
        } else {
            // Compare to working directory (use HEAD for now as a simplification)
            // In a full implementation, we'd compare against the index
            None
        };

        // Perform the diff
        let mut diff_platform = from_tree
            .changes()
            .map_err(|e| GitError::Gix(Box::new(e)))?;

        if let Some(to_tree_ref) = to_tree {
            // Diff between two commits
            diff_platform
                .for_each_to_obtain_tree(&to_tree_ref, |change| {
                    use gix::object::tree::diff::{Action, Change};

                    let (location, change_type) = match change {
                        Change::Addition { location, .. } => (location, ChangeType::Added),
                        Change::Deletion { location, .. } => (location, ChangeType::Deleted),
                        Change::Modification { location, .. } => (location, ChangeType::Modified),
                        Change::Rewrite { location, .. } => (location, ChangeType::Renamed),
                    };

                    // Apply path filter if specified
                    if let Some(ref filter) = opts.filter_path {
                        let filter_path = PathBuf::from(filter);
                        if !change_matches_path(location, &filter_path) {
                            return Ok::<Action, std::convert::Infallible>(Action::Continue);
                        }
                    }

                    // For now, use placeholder values for additions/deletions
                    // A full implementation would analyze blob diffs
                    let (additions, deletions) = match change_type {
                        ChangeType::Added => (1, 0),
                        ChangeType::Deleted => (0, 1),
                        ChangeType::Modified => (1, 1),
                        ChangeType::Renamed => (0, 0),
                    };

                    let path_str = location.to_string();
                    stats.add_file(FileDiffStats {
                        path: path_str,
                        change_type,
                        additions,
                        deletions,
                    });

                    Ok::<Action, std::convert::Infallible>(Action::Continue)
                })
                .map_err(|e| GitError::Gix(Box::new(e)))?;
        } else {
            // Comparing to working directory - use HEAD tree as target
            // This is a simplification; a full implementation would use the index
            let head_id = repo_clone.head_id().map_err(|e| GitError::Gix(Box::new(e)))?;
            let head_object = repo_clone
                .find_object(head_id)
                .map_err(|e| GitError::Gix(Box::new(e)))?;
            let head_commit = head_object
                .try_into_commit()
                .map_err(|e| GitError::Gix(Box::new(e)))?;
            let head_tree = head_commit.tree().map_err(|e| GitError::Gix(Box::new(e)))?;

            diff_platform
                .for_each_to_obtain_tree(&head_tree, |change| {
                    use gix::object::tree::diff::{Action, Change};

                    let (location, change_type) = match change {
                        Change::Addition { location, .. } => (location, ChangeType::Added),
                        Change::Deletion { location, .. } => (location, ChangeType::Deleted),
                        Change::Modification { location, .. } => (location, ChangeType::Modified),
                        Change::Rewrite { location, .. } => (location, ChangeType::Renamed),
                    };

                    // Apply path filter if specified
                    if let Some(ref filter) = opts.filter_path {
                        let filter_path = PathBuf::from(filter);
                        if !change_matches_path(location, &filter_path) {
                            return Ok::<Action, std::convert::Infallible>(Action::Continue);
                        }
                    }

                    // For now, use placeholder values for additions/deletions
                    let (additions, deletions) = match change_type {
                        ChangeType::Added => (1, 0),
                        ChangeType::Deleted => (0, 1),
                        ChangeType::Modified => (1, 1),
                        ChangeType::Renamed => (0, 0),
                    };

                    let path_str = location.to_string();
                    stats.add_file(FileDiffStats {
                        path: path_str,
                        change_type,
                        additions,
                        deletions,
                    });

                    Ok::<Action, std::convert::Infallible>(Action::Continue)
                })
                .map_err(|e| GitError::Gix(Box::new(e)))?;
        }

        Ok(stats)
    })
    .await
    .map_err(|e| GitError::Gix(Box::new(e)))?
}

/// Check if a change location matches the filter path.
///
/// Performs path matching with the following semantics:
/// - Exact match: `src/main.rs` matches `src/main.rs`
/// - Directory match: `src` matches `src/main.rs` and `src/lib.rs`
/// - Directory with trailing slash: `src/` matches `src/main.rs`
/// - Non-match: `src` does not match `src2/main.rs`
///
/// This function is heavily optimized for performance as it's called
/// in the hot path of tree diff operations. Uses platform-specific
/// byte access to avoid UTF-8 validation overhead.
#[inline(always)]
fn change_matches_path(change_location: &gix::bstr::BStr, filter_path: &std::path::Path) -> bool {
    // Platform-optimized byte extraction to avoid UTF-8 validation
    #[cfg(unix)]
    let filter_bytes = {
        use std::os::unix::ffi::OsStrExt;
        filter_path.as_os_str().as_bytes()
    };

    #[cfg(windows)]
    let filter_bytes = {
        // Windows paths are UTF-16, need to convert to UTF-8 bytes
        // Fall back to string conversion
        match filter_path.to_str() {
            Some(s) => s.as_bytes(),
            None => return false,
        }
    };

    #[cfg(not(any(unix, windows)))]
    let filter_bytes = {
        match filter_path.to_str() {
            Some(s) => s.as_bytes(),
            None => return false,
        }
    };

    // Exact file match
    if change_location == filter_bytes {
        return true;
    }

    // Directory prefix match - check if path ends with '/'
    let has_trailing_slash = filter_bytes.last() == Some(&b'/');

    if has_trailing_slash {
        // Already has trailing slash: "src/" matches "src/file.rs"
        change_location.starts_with(filter_bytes)
    } else {
        // No trailing slash: "src" should match "src/file.rs" but not "src2/file.rs"
        change_location.starts_with(filter_bytes)
            && change_location.len() > filter_bytes.len()
            && change_location[filter_bytes.len()] == b'/'
    }
}
