//! `check --fix`, `--unsafe-fixes` and `--diff`: apply the fixes findings carry.
//!
//! Per crate, in memory: lint, take every applicable fix of every reported file, apply the ones
//! whose edits do not overlap (the others wait for the next round), re-parse each changed file
//! (a file whose result does not parse keeps its previous text and is not fixed further), and
//! lint again, until a round changes nothing or [`MAX_ROUNDS`] rounds ran. Files that did not
//! parse to begin with are never touched. Then the changed files are written atomically (a
//! temporary file in the same directory, renamed over the original, its permissions kept), or
//! shown as a unified diff and not written at all.

use std::collections::HashSet;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use lints::{Applicability, CrateInput, Edit, FileReport, Fix, Lint, Options, SourceFile};

use crate::workspace::paths::normalize;

/// Rounds of fixing per crate, at most.
pub const MAX_ROUNDS: usize = 10;

/// Whether a fix of this applicability is applied (`--fix`, plus `--unsafe-fixes`).
pub fn applies(applicability: Applicability, unsafe_fixes: bool) -> bool {
    match applicability {
        Applicability::MachineApplicable => true,
        Applicability::MaybeIncorrect => unsafe_fixes,
        Applicability::HasPlaceholders | Applicability::Unspecified => false,
    }
}

/// What fixing one crate in memory did.
#[derive(Debug)]
pub struct CrateFixes {
    /// The new text of every file that changed, by index into the input's files.
    pub changed: Vec<(usize, String)>,
    /// The findings after the last round.
    pub reports: Vec<FileReport>,
    /// The lint of every fix applied, one entry per fix.
    pub applied: Vec<&'static Lint>,
    /// Files whose fixed text did not parse: they keep the text of the round before.
    pub unparsable: Vec<PathBuf>,
    /// Rounds that changed something.
    pub rounds: usize,
}

/// Apply the fixes `unsafe_fixes` selects to one crate, in rounds, in memory.
pub fn fix_crate(input: &CrateInput, options: &Options, unsafe_fixes: bool) -> CrateFixes {
    let mut current = input.clone();
    // Never touched: files read only for context, and files that did not parse as given.
    let mut frozen: HashSet<usize> = current
        .files
        .iter()
        .enumerate()
        .filter(|(_, f)| !f.report || !parses(&f.path, &f.contents))
        .map(|(i, _)| i)
        .collect();
    let mut applied = Vec::new();
    let mut unparsable = Vec::new();
    let mut rounds = 0;
    let reports = loop {
        let reports = lints::analyze(&current, options);
        if rounds == MAX_ROUNDS {
            break reports;
        }
        let mut changed = false;
        for report in &reports {
            let Some(i) = current
                .files
                .iter()
                .position(|f| f.report && f.path == report.path)
            else {
                continue;
            };
            let Some(source) = report.source.as_ref().filter(|_| !frozen.contains(&i)) else {
                continue;
            };
            let fixes: Vec<(&Fix, &'static Lint)> = report
                .diagnostics
                .iter()
                .filter_map(|d| d.fix.as_ref().map(|f| (f, d.lint)))
                .filter(|(f, _)| applies(f.applicability, unsafe_fixes))
                .collect();
            let Applied { text, used, .. } =
                apply_fixes(&source.text, fixes.iter().map(|(f, _)| *f));
            if used.is_empty() || text == source.text {
                continue;
            }
            if !parses(&report.path, text.as_bytes()) {
                unparsable.push(report.path.clone());
                frozen.insert(i);
                continue;
            }
            applied.extend(used.iter().map(|&u| fixes[u].1));
            current.files[i].contents = text.into_bytes();
            changed = true;
        }
        if !changed {
            break reports;
        }
        rounds += 1;
    };
    let changed = current
        .files
        .iter()
        .zip(&input.files)
        .enumerate()
        .filter(|(_, (now, before))| now.contents != before.contents)
        .filter_map(|(i, (now, _))| Some((i, String::from_utf8(now.contents.clone()).ok()?)))
        .collect();
    CrateFixes {
        changed,
        reports,
        applied,
        unparsable,
        rounds,
    }
}

fn parses(path: &Path, bytes: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return false;
    };
    let source = SourceFile::new(path.to_path_buf(), text.to_string());
    lints::parse::parse(&source).is_ok()
}

/// What [`apply_fixes`] did.
#[derive(Debug)]
pub struct Applied {
    pub text: String,
    /// Indices (in the order given) of the fixes applied.
    pub used: Vec<usize>,
    /// Fixes left out because they overlap one taken before (or their own edits overlap).
    pub overlapping: usize,
    /// Fixes left out because an edit lies outside the text or inside a character.
    pub invalid: usize,
}

/// Apply every fix whose edits are well-formed and overlap no edit of a fix taken before it
/// (fixes are taken in order of their first edit).
pub fn apply_fixes<'f>(text: &str, fixes: impl Iterator<Item = &'f Fix>) -> Applied {
    let mut order: Vec<(usize, &Fix)> = fixes.enumerate().collect();
    order.sort_by_key(|(i, f)| (f.edits.iter().map(|e| e.start).min(), *i));
    let mut taken: Vec<&Edit> = Vec::new();
    let mut used = Vec::new();
    let (mut overlapping, mut invalid) = (0, 0);
    for (i, fix) in order {
        if fix.edits.is_empty() {
            continue;
        }
        let valid = fix.edits.iter().all(|e| {
            e.start <= e.end
                && e.end <= text.len()
                && text.is_char_boundary(e.start)
                && text.is_char_boundary(e.end)
        });
        if !valid {
            invalid += 1;
            continue;
        }
        let clashes = fix.edits.iter().enumerate().any(|(j, a)| {
            fix.edits[j + 1..].iter().any(|b| overlaps(a, b))
                || taken.iter().any(|b| overlaps(a, b))
        });
        if clashes {
            overlapping += 1;
            continue;
        }
        taken.extend(&fix.edits);
        used.push(i);
    }
    // From the end, so earlier offsets stay valid; at one offset the wider edit goes first, so
    // an insertion lands before the text replaced there.
    taken.sort_by_key(|e| std::cmp::Reverse((e.start, e.end)));
    let mut out = text.to_string();
    for e in taken {
        out.replace_range(e.start..e.end, &e.replacement);
    }
    used.sort_unstable();
    Applied {
        text: out,
        used,
        overlapping,
        invalid,
    }
}

/// Two edits touch the same text, or insert at the same place (whose order would be a guess).
fn overlaps(a: &Edit, b: &Edit) -> bool {
    (a.start < b.end && b.start < a.end) || a.start == b.start
}

/// Replace `path` with `contents` atomically: write a temporary file next to it, give it the
/// original's permissions, and rename it over the original (the target of a symlink).
pub fn write_atomically(path: &Path, contents: &[u8]) -> io::Result<()> {
    let target = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let permissions = std::fs::metadata(&target)?.permissions();
    let dir = target
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    for attempt in 0..100 {
        let temp = dir.join(format!(
            ".{name}.mcp-lint-{}-{attempt}.tmp",
            std::process::id()
        ));
        let file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp);
        let mut file = match file {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        };
        let written = file
            .write_all(contents)
            .and_then(|()| file.sync_all())
            .and_then(|()| std::fs::set_permissions(&temp, permissions.clone()))
            .and_then(|()| std::fs::rename(&temp, &target));
        if written.is_err() {
            let _ = std::fs::remove_file(&temp);
        }
        return written;
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        "no free name for a temporary file",
    ))
}

/// A unified diff of one file, git-style (`--- a/<path>`, `+++ b/<path>`: `git apply` and
/// `patch -p1` take it from the directory the path is relative to).
pub fn unified_diff(path: &Path, before: &str, after: &str) -> String {
    let shown = path.display().to_string().replace('\\', "/");
    similar::TextDiff::from_lines(before, after)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{shown}"), &format!("b/{shown}"))
        .to_string()
}

/// What one fix changes, as diff hunks without context or file header (`@@ -3 +3,2 @@` and the
/// lines): the preview ui-tests pin for every fix, including those never applied.
pub fn preview(text: &str, fix: &Fix) -> String {
    let applied = apply_fixes(text, std::iter::once(fix));
    if applied.used.is_empty() {
        return "(the fix's edits are malformed)\n".to_string();
    }
    let diff = similar::TextDiff::from_lines(text, &applied.text);
    let mut out = String::new();
    for hunk in diff.unified_diff().context_radius(0).iter_hunks() {
        out.push_str(&hunk.to_string());
    }
    out
}

/// "3 fixes available with `--fix` (1 more with `--fix --unsafe-fixes`)": what fixing would do
/// for these findings; `None` when no finding has a fix that can be applied.
pub fn availability(reports: &[FileReport]) -> Option<String> {
    let count = |a: Applicability| {
        reports
            .iter()
            .flat_map(|r| &r.diagnostics)
            .filter(|d| d.fix.as_ref().is_some_and(|f| f.applicability == a))
            .count()
    };
    let certain = count(Applicability::MachineApplicable);
    let maybe = count(Applicability::MaybeIncorrect);
    let fixes = |n: usize| if n == 1 { "fix" } else { "fixes" };
    match (certain, maybe) {
        (0, 0) => None,
        (0, m) => Some(format!(
            "{m} {} available with `--fix --unsafe-fixes`",
            fixes(m)
        )),
        (c, 0) => Some(format!("{c} {} available with `--fix`", fixes(c))),
        (c, m) => Some(format!(
            "{c} {} available with `--fix` ({m} more with `--fix --unsafe-fixes`)",
            fixes(c)
        )),
    }
}

/// What to fix and how: `--unsafe-fixes` and `--diff`.
#[derive(Clone, Copy, Debug, Default)]
pub struct FixMode {
    /// Apply fixes that may be incorrect (MaybeIncorrect) too.
    pub unsafe_fixes: bool,
    /// Make a diff and write nothing.
    pub diff: bool,
}

/// What fixing the crates did, for the report that follows.
#[derive(Debug)]
pub struct FixRun {
    /// The findings after fixing (with `--diff`: those the fixed code would have).
    pub reports: Vec<FileReport>,
    /// With `--diff`: the unified diff of every file that would change (empty: none would).
    pub diff: Option<String>,
    /// A file could not be written.
    pub failed: bool,
}

/// Fix `inputs` as `mode` asks, in memory; then make the diff (`--diff`) or write the changed
/// files. Says on `err` how many findings were fixed.
pub fn fix_inputs(
    inputs: &[CrateInput],
    options: &Options,
    mode: FixMode,
    cwd: &Path,
    err: &mut dyn Write,
) -> FixRun {
    let mut reports = Vec::new();
    let mut changes: Vec<(PathBuf, String, String)> = Vec::new();
    let mut fixed = 0;
    for input in inputs {
        let result = fix_crate(input, options, mode.unsafe_fixes);
        for path in &result.unparsable {
            let _ = writeln!(
                err,
                "warning: fixes for {} were not applied: the result did not parse (a bug in mcp-lint; please report it)",
                path.display()
            );
        }
        for (i, text) in result.changed {
            let file = &input.files[i];
            let before = String::from_utf8_lossy(&file.contents).into_owned();
            changes.push((file.path.clone(), before, text));
        }
        fixed += result.applied.len();
        reports.extend(result.reports);
    }
    reports.sort_by(|a, b| a.path.cmp(&b.path));
    changes.sort_by(|a, b| a.0.cmp(&b.0));
    let files = |n: usize| if n == 1 { "file" } else { "files" };
    let findings = |n: usize| if n == 1 { "finding" } else { "findings" };

    if mode.diff {
        let diff: String = changes
            .iter()
            .map(|(path, before, after)| unified_diff(path, before, after))
            .collect();
        let _ = writeln!(
            err,
            "would fix {fixed} {} in {} {}",
            findings(fixed),
            changes.len(),
            files(changes.len())
        );
        return FixRun {
            reports,
            diff: Some(diff),
            failed: false,
        };
    }
    let mut written = 0;
    let mut failed = false;
    for (path, _, after) in &changes {
        let real = normalize(&cwd.join(path));
        match write_atomically(&real, after.as_bytes()) {
            Ok(()) => written += 1,
            Err(e) => {
                let _ = writeln!(err, "error: could not write {}: {e}", path.display());
                failed = true;
            }
        }
    }
    if written > 0 || fixed > 0 {
        let _ = writeln!(
            err,
            "fixed {fixed} {} in {written} {}",
            findings(fixed),
            files(written)
        );
    }
    FixRun {
        reports,
        diff: None,
        failed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(start: usize, end: usize, text: &str) -> Edit {
        Edit {
            start,
            end,
            replacement: text.to_string(),
        }
    }

    fn fix(edits: Vec<Edit>) -> Fix {
        Fix {
            message: "m".into(),
            applicability: Applicability::MachineApplicable,
            edits,
        }
    }

    #[test]
    fn non_overlapping_fixes_apply_and_conflicts_wait() {
        let text = "let a = one(); let b = two();";
        let fixes = [
            fix(vec![edit(8, 11, "uno")]),
            // Overlaps the first: waits.
            fix(vec![edit(10, 13, "X")]),
            fix(vec![edit(23, 26, "dos"), edit(0, 0, "// fixed\n")]),
            // Inserts where another fix inserts: waits, its order would be a guess.
            fix(vec![edit(0, 0, "// again\n")]),
        ];
        let applied = apply_fixes(text, fixes.iter());
        assert_eq!(applied.used, vec![0, 2]);
        assert_eq!((applied.overlapping, applied.invalid), (2, 0));
        assert_eq!(applied.text, "// fixed\nlet a = uno(); let b = dos();");
    }

    #[test]
    fn an_insertion_goes_before_text_replaced_at_the_same_offset() {
        let text = "x.map_err(f)?;";
        let f = fix(vec![edit(0, 0, "match "), edit(1, 13, " { .. }")]);
        let applied = apply_fixes(text, [f].iter());
        assert_eq!(applied.used, vec![0]);
        assert_eq!(applied.text, "match x { .. };");
    }

    #[test]
    fn malformed_fixes_are_skipped() {
        let text = "héllo";
        let fixes = [
            fix(vec![edit(2, 3, "e")]),                  // inside 'é'
            fix(vec![edit(4, 2, "x")]),                  // backwards
            fix(vec![edit(3, 5, "a"), edit(4, 6, "b")]), // overlapping itself
            fix(vec![edit(5, 99, "!")]),                 // past the end
            fix(vec![edit(0, 1, "H")]),
        ];
        let applied = apply_fixes(text, fixes.iter());
        assert_eq!(applied.used, vec![4]);
        assert_eq!((applied.overlapping, applied.invalid), (1, 3));
        assert_eq!(applied.text, "Héllo");
    }

    #[test]
    fn applicability_selection() {
        assert!(applies(Applicability::MachineApplicable, false));
        assert!(!applies(Applicability::MaybeIncorrect, false));
        assert!(applies(Applicability::MaybeIncorrect, true));
        assert!(!applies(Applicability::HasPlaceholders, true));
        assert!(!applies(Applicability::Unspecified, true));
    }

    #[test]
    fn atomic_write_keeps_permissions_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("lib.rs");
        std::fs::write(&path, "old").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        }
        write_atomically(&path, b"new").expect("written");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o640);
        }
        let names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, vec!["lib.rs".to_string()]);
    }

    #[test]
    fn diff_names_the_file() {
        let d = unified_diff(Path::new("src/a.rs"), "a\nb\n", "a\nc\n");
        assert!(
            d.starts_with("--- a/src/a.rs\n+++ b/src/a.rs\n@@ -1,2 +1,2 @@\n"),
            "{d}"
        );
        assert!(d.contains("-b\n+c\n"), "{d}");
    }
}
