//! Baselines for adopting mcp-lint on existing code, in the style of ESLint's bulk suppressions:
//! a JSON file with a count per (file, lint), so moving code around does not invalidate it.
//!
//! ```json
//! { "version": 1, "files": { "src/tools.rs": { "vague_error_text": { "count": 2 } } } }
//! ```
//!
//! - `mcp-lint baseline` records the current counts (entries for files outside the given paths
//!   are kept while the file exists).
//! - `mcp-lint check --baseline FILE` reports, per file and lint, only the findings beyond the
//!   recorded count. Which of them are "new" cannot be known from a count; the last ones by
//!   position are reported.
//! - `mcp-lint baseline --prune` lowers counts that went down and drops entries that no longer
//!   occur, never raising a count or adding one.
//!
//! Paths are relative to the baseline file's directory, `/`-separated, so the file works from
//! any working directory and on any OS. `internal_error` is never baselined: it is a bug in
//! mcp-lint, not in the code.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};

use lints::FileReport;
use serde::{Deserialize, Serialize};

use crate::read;
use crate::workspace::paths;

/// The file `mcp-lint baseline` writes when no `--output` is given, in the current directory.
pub const DEFAULT_FILE: &str = "mcp-lint-baseline.json";
/// The format version this mcp-lint reads and writes.
pub const VERSION: u32 = 1;

/// Counts per file (relative to the baseline's directory) and lint name.
pub type Counts = BTreeMap<String, BTreeMap<String, usize>>;

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Document {
    version: u32,
    files: BTreeMap<String, BTreeMap<String, Entry>>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    count: usize,
}

/// A loaded baseline.
#[derive(Debug)]
pub struct Baseline {
    /// The file as the user named it, for messages.
    pub shown: PathBuf,
    /// The resolved directory paths in the file are relative to.
    pub dir: PathBuf,
    pub counts: Counts,
}

/// What applying a baseline did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Applied {
    /// Findings matched by the baseline and not reported.
    pub suppressed: usize,
    /// Recorded findings (in the files checked) that no longer occur.
    pub stale: usize,
}

impl Baseline {
    /// Read `file` (relative to `cwd`); a missing or malformed file is an error message.
    pub fn load(file: &Path, cwd: &Path) -> Result<Baseline, String> {
        let resolved = paths::resolve(cwd, file);
        let shown = file.display();
        let text = read::read_text(&resolved, read::MAX_DATA_BYTES).map_err(|e| match e {
            read::ReadError::Io(e) if e.kind() == std::io::ErrorKind::NotFound => format!(
                "baseline file `{shown}` not found (write one with `mcp-lint baseline --output {shown}`)"
            ),
            _ => format!("could not read baseline file `{shown}`: {e}"),
        })?;
        let counts =
            parse(&text).map_err(|e| format!("`{shown}` is not a valid mcp-lint baseline: {e}"))?;
        Ok(Baseline {
            shown: file.to_path_buf(),
            dir: parent(&resolved),
            counts,
        })
    }

    /// Drop the findings the baseline covers from `reports` and note on `err` what was hidden
    /// and what could be pruned.
    pub fn apply(&self, reports: &mut [FileReport], cwd: &Path, err: &mut dyn Write) -> Applied {
        let mut applied = Applied::default();
        for report in reports.iter_mut() {
            let Some(recorded) = self.counts.get(&key(&self.dir, cwd, &report.path)) else {
                continue;
            };
            let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
            let total = count_by_lint(report);
            report.diagnostics.retain(|d| {
                if !baselined(d) {
                    return true;
                }
                let allowed = recorded.get(d.lint.name).copied().unwrap_or(0);
                let n = seen.entry(d.lint.name).or_default();
                *n += 1;
                // The first `allowed` findings of this lint are the recorded ones; the rest
                // (the last by position) are reported as new.
                *n > allowed
            });
            for (lint, &count) in recorded {
                let now = total.get(lint.as_str()).copied().unwrap_or(0);
                applied.suppressed += count.min(now);
                applied.stale += count.saturating_sub(now);
            }
        }
        let shown = self.shown.display();
        if applied.suppressed > 0 {
            let _ = writeln!(
                err,
                "note: {} recorded in the baseline `{shown}` not reported",
                plural(applied.suppressed, "finding")
            );
        }
        if applied.stale > 0 {
            let verb = if applied.stale == 1 {
                "occurs"
            } else {
                "occur"
            };
            let _ = writeln!(
                err,
                "note: {} recorded in the baseline `{shown}` no longer {verb}; lower the counts with `mcp-lint baseline --prune --output {shown}`",
                plural(applied.stale, "finding")
            );
        }
        applied
    }
}

/// The counts of `reports`, keyed by path relative to `dir`.
pub fn counts(reports: &[FileReport], dir: &Path, cwd: &Path) -> Counts {
    let mut counts = Counts::new();
    for report in reports {
        let per_lint = count_by_lint(report);
        if !per_lint.is_empty() {
            let entry = counts.entry(key(dir, cwd, &report.path)).or_default();
            for (lint, n) in per_lint {
                *entry.entry(lint.to_string()).or_default() += n;
            }
        }
    }
    counts
}

/// Regenerate: the current counts for the files checked; other entries stay while their file
/// exists.
pub fn update(
    previous: &Counts,
    current: &Counts,
    checked: &BTreeSet<String>,
    dir: &Path,
) -> Counts {
    let mut out = current.clone();
    for (file, lints) in previous {
        if !checked.contains(file) && dir.join(file).is_file() {
            out.insert(file.clone(), lints.clone());
        }
    }
    out
}

/// Ratchet: for the files checked, each count becomes the smaller of recorded and current
/// (zero drops the entry); other entries stay while their file exists. Nothing is added.
pub fn prune(
    previous: &Counts,
    current: &Counts,
    checked: &BTreeSet<String>,
    dir: &Path,
) -> Counts {
    let mut out = Counts::new();
    for (file, lints) in previous {
        let kept: BTreeMap<String, usize> = if checked.contains(file) {
            let now = current.get(file);
            lints
                .iter()
                .map(|(lint, &n)| {
                    let found = now.and_then(|m| m.get(lint)).copied().unwrap_or(0);
                    (lint.clone(), n.min(found))
                })
                .filter(|(_, n)| *n > 0)
                .collect()
        } else if dir.join(file).is_file() {
            lints.clone()
        } else {
            BTreeMap::new()
        };
        if !kept.is_empty() {
            out.insert(file.clone(), kept);
        }
    }
    out
}

/// The file's text: sorted, pretty-printed, ending in a newline.
pub fn to_json(counts: &Counts) -> String {
    let document = Document {
        version: VERSION,
        files: counts
            .iter()
            .map(|(file, lints)| {
                let lints = lints
                    .iter()
                    .filter(|(_, &count)| count > 0)
                    .map(|(lint, &count)| (lint.clone(), Entry { count }))
                    .collect();
                (file.clone(), lints)
            })
            .filter(|(_, lints): &(String, BTreeMap<String, Entry>)| !lints.is_empty())
            .collect(),
    };
    let mut text = serde_json::to_string_pretty(&document).expect("counts serialise");
    text.push('\n');
    text
}

/// Parse a baseline's text.
pub fn parse(text: &str) -> Result<Counts, String> {
    let document: Document = serde_json::from_str(text).map_err(|e| e.to_string())?;
    if document.version != VERSION {
        return Err(format!(
            "version {} is not supported (this mcp-lint reads version {VERSION})",
            document.version
        ));
    }
    Ok(document
        .files
        .into_iter()
        .map(|(file, lints)| {
            let lints = lints.into_iter().map(|(l, e)| (l, e.count)).collect();
            (file, lints)
        })
        .collect())
}

/// Whether a finding can be baselined: everything but mcp-lint's own failures.
pub fn baselined(d: &lints::Diagnostic) -> bool {
    !d.is_internal_error()
}

fn count_by_lint(report: &FileReport) -> BTreeMap<&'static str, usize> {
    let mut counts = BTreeMap::new();
    for d in report.diagnostics.iter().filter(|d| baselined(d)) {
        *counts.entry(d.lint.name).or_default() += 1;
    }
    counts
}

/// A report's path as the baseline records it: relative to `dir`, `/`-separated.
pub fn key(dir: &Path, cwd: &Path, path: &Path) -> String {
    let file = paths::resolve(cwd, path);
    paths::relative(dir, &file).unwrap_or_else(|| file.display().to_string())
}

/// The directory of a baseline file.
pub fn parent(file: &Path) -> PathBuf {
    file.parent()
        .map_or_else(|| PathBuf::from("/"), Path::to_path_buf)
}

/// `1 finding`, `2 findings`.
pub fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(entries: &[(&str, &str, usize)]) -> Counts {
        let mut counts = Counts::new();
        for (file, lint, n) in entries {
            counts
                .entry(file.to_string())
                .or_default()
                .insert(lint.to_string(), *n);
        }
        counts
    }

    #[test]
    fn the_file_round_trips_sorted_with_a_version() {
        let counts = c(&[
            ("src/b.rs", "vague_error_text", 2),
            ("src/a.rs", "panic_in_tool", 1),
        ]);
        let text = to_json(&counts);
        assert_eq!(
            text,
            "{\n  \"version\": 1,\n  \"files\": {\n    \"src/a.rs\": {\n      \"panic_in_tool\": {\n        \"count\": 1\n      }\n    },\n    \"src/b.rs\": {\n      \"vague_error_text\": {\n        \"count\": 2\n      }\n    }\n  }\n}\n"
        );
        assert_eq!(parse(&text).unwrap(), counts);
    }

    #[test]
    fn broken_files_are_errors() {
        assert!(parse("").unwrap_err().contains("EOF"));
        assert!(parse("{\"version\": 2, \"files\": {}}")
            .unwrap_err()
            .contains("version 2"));
        assert!(parse("{\"files\": {}}").unwrap_err().contains("version"));
        assert!(
            parse("{\"version\": 1, \"files\": {\"a.rs\": {\"x\": {\"count\": -1}}}}").is_err()
        );
        assert!(parse("{\"version\": 1, \"files\": {}, \"extra\": 1}").is_err());
        assert!(parse("[]").is_err());
    }

    #[test]
    fn prune_lowers_and_drops_but_never_adds() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        crate::test_support::write(dir, "kept.rs", "");
        let previous = c(&[
            ("a.rs", "vague_error_text", 3),
            ("a.rs", "panic_in_tool", 1),
            ("b.rs", "failure_as_success", 2),
            ("kept.rs", "panic_in_tool", 4),
            ("gone.rs", "panic_in_tool", 1),
        ]);
        let current = c(&[
            ("a.rs", "vague_error_text", 1),
            ("a.rs", "empty_error_content", 5),
            ("b.rs", "failure_as_success", 7),
            ("new.rs", "panic_in_tool", 1),
        ]);
        let checked: BTreeSet<String> = ["a.rs", "b.rs", "new.rs"].map(String::from).into();
        assert_eq!(
            prune(&previous, &current, &checked, dir),
            c(&[
                ("a.rs", "vague_error_text", 1),
                ("b.rs", "failure_as_success", 2),
                ("kept.rs", "panic_in_tool", 4),
            ])
        );
        assert_eq!(
            update(&previous, &current, &checked, dir),
            c(&[
                ("a.rs", "vague_error_text", 1),
                ("a.rs", "empty_error_content", 5),
                ("b.rs", "failure_as_success", 7),
                ("kept.rs", "panic_in_tool", 4),
                ("new.rs", "panic_in_tool", 1),
            ])
        );
    }
}
