//! `check --fix`, `--unsafe-fixes` and `--diff`: apply the fixes findings carry.
//!
//! Per crate (packages that depend on each other by path together, as one program), in
//! memory: lint, take every applicable fix of every reported file, apply the ones
//! whose edits do not overlap (the others wait for the next round), re-parse each changed file
//! (a file whose result does not parse keeps its previous text and is not fixed further; imports
//! the round's fixes left unused are dropped), and
//! lint again, until a round changes nothing or [`MAX_ROUNDS`] rounds ran. Files that did not
//! parse to begin with are never touched. Then the changed files are written atomically (a
//! temporary file in the same directory, renamed over the original, its permissions kept), or
//! shown as a unified diff and not written at all.

use std::collections::{HashMap, HashSet};
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

/// A file of a program: (package, file index in that package's input).
pub type FileAt = (usize, usize);

/// What fixing one program (a crate, or packages analysed together) in memory did.
#[derive(Debug)]
pub struct Fixes<F> {
    /// The new text of every file that changed.
    pub changed: Vec<(F, String)>,
    /// The findings after the last round.
    pub reports: Vec<FileReport>,
    /// The file and lint of every fix applied, one per fix.
    pub applied: Vec<(F, &'static Lint)>,
    /// Files whose fixed text did not parse: they keep the text of the round before.
    pub unparsable: Vec<PathBuf>,
    /// Rounds that changed something.
    pub rounds: usize,
}

/// What fixing one crate did, files by index into the input's files.
pub type CrateFixes = Fixes<usize>;

/// Apply the fixes `unsafe_fixes` selects to one crate, in rounds, in memory.
pub fn fix_crate(input: &CrateInput, options: &Options, unsafe_fixes: bool) -> CrateFixes {
    let fixes = fix_program(&[input], options, unsafe_fixes);
    Fixes {
        changed: fixes
            .changed
            .into_iter()
            .map(|((_, i), t)| (i, t))
            .collect(),
        reports: fixes.reports,
        applied: fixes
            .applied
            .into_iter()
            .map(|((_, i), l)| (i, l))
            .collect(),
        unparsable: fixes.unparsable,
        rounds: fixes.rounds,
    }
}

/// Apply the fixes `unsafe_fixes` selects to the packages of one program (analysed together,
/// see [`lints::analyze_program`]), in rounds, in memory.
pub fn fix_program(
    packages: &[&CrateInput],
    options: &Options,
    unsafe_fixes: bool,
) -> Fixes<FileAt> {
    let mut current: Vec<CrateInput> = packages.iter().map(|p| (*p).clone()).collect();
    let all: Vec<FileAt> = current
        .iter()
        .enumerate()
        .flat_map(|(p, input)| (0..input.files.len()).map(move |i| (p, i)))
        .collect();
    // Never touched: files read only for context, and files that did not parse as given.
    let mut frozen: HashSet<FileAt> = all
        .iter()
        .copied()
        .filter(|&(p, i)| {
            let f = &current[p].files[i];
            !f.report || !parses(&f.path, &f.contents)
        })
        .collect();
    // Reports name their files by path: a map, not a scan per report.
    let reported: HashMap<PathBuf, FileAt> = all
        .iter()
        .rev()
        .filter(|&&(p, i)| current[p].files[i].report)
        .map(|&(p, i)| (current[p].files[i].path.clone(), (p, i)))
        .collect();
    let mut applied = Vec::new();
    let mut unparsable = Vec::new();
    let mut rounds = 0;
    let reports = loop {
        let reports = lints::analyze_program(&current, options);
        if rounds == MAX_ROUNDS {
            break reports;
        }
        let mut changed = false;
        for report in &reports {
            let Some(&(p, i)) = reported.get(&report.path) else {
                continue;
            };
            let Some(source) = report.source.as_ref().filter(|_| !frozen.contains(&(p, i))) else {
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
            // Several fixes that each removed some uses of a name can leave its import unused.
            let text = lints::unused_imports::prune_after(&source.text, &text).unwrap_or(text);
            if !parses(&report.path, text.as_bytes()) {
                unparsable.push(report.path.clone());
                frozen.insert((p, i));
                continue;
            }
            applied.extend(used.iter().map(|&u| ((p, i), fixes[u].1)));
            current[p].files[i].contents = text.into_bytes();
            changed = true;
        }
        if !changed {
            break reports;
        }
        rounds += 1;
    };
    let changed = all
        .iter()
        .filter_map(|&(p, i)| {
            let (now, before) = (&current[p].files[i], &packages[p].files[i]);
            (now.contents != before.contents)
                .then(|| Some(((p, i), String::from_utf8(now.contents.clone()).ok()?)))
                .flatten()
        })
        .collect();
    Fixes {
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
    let crlf = uses_crlf(text);
    let mut out = text.to_string();
    for e in taken {
        if crlf {
            out.replace_range(e.start..e.end, &to_crlf(&e.replacement));
        } else {
            out.replace_range(e.start..e.end, &e.replacement);
        }
    }
    used.sort_unstable();
    Applied {
        text: out,
        used,
        overlapping,
        invalid,
    }
}

/// Does `text` end its lines with `\r\n` (most of them)? Fixes then insert `\r\n` too.
fn uses_crlf(text: &str) -> bool {
    let crlf = text.matches("\r\n").count();
    crlf > 0 && crlf * 2 >= memchr::memchr_iter(b'\n', text.as_bytes()).count()
}

/// `\n` not already preceded by `\r` becomes `\r\n`.
fn to_crlf(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    let mut previous = '\0';
    for c in text.chars() {
        if c == '\n' && previous != '\r' {
            out.push('\r');
        }
        out.push(c);
        previous = c;
    }
    out
}

/// Two edits touch the same text, or insert at the same place (whose order would be a guess).
fn overlaps(a: &Edit, b: &Edit) -> bool {
    (a.start < b.end && b.start < a.end) || a.start == b.start
}

/// The paths being fixed, canonical (symlinks resolved): the named ones, or `cwd`. A symlink
/// is written through only when its target lies inside one of them.
pub fn tree(paths: &[PathBuf], cwd: &Path) -> Vec<PathBuf> {
    let named: Vec<PathBuf> = if paths.is_empty() {
        vec![cwd.to_path_buf()]
    } else {
        paths.iter().map(|p| normalize(&cwd.join(p))).collect()
    };
    named
        .into_iter()
        .map(|p| std::fs::canonicalize(&p).unwrap_or(p))
        .collect()
}

/// Why a fixed file was not written.
#[derive(Debug)]
pub enum WriteError {
    /// Left alone on purpose, for the reason given (a warning).
    Skipped(String),
    Failed(io::Error),
}

impl From<io::Error> for WriteError {
    fn from(e: io::Error) -> Self {
        WriteError::Failed(e)
    }
}

/// May this process write `path`? (Root may write any file; a file without any write bit is
/// still left alone, below.)
#[cfg(unix)]
fn writable(path: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let Ok(c_path) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: `c_path` is a valid NUL-terminated string for the duration of the call.
    unsafe { libc::access(c_path.as_ptr(), libc::W_OK) == 0 }
}

#[cfg(not(unix))]
fn writable(_: &Path) -> bool {
    true
}

/// Replace the file at `path`, whose text was `before`, with `after`, atomically: a temporary
/// file next to it gets `after`, the original's mode, owner and group, and is renamed over it,
/// unless the file changed since it was read. Left alone, with the reason: a read-only file, a
/// file with hard links (a rename would split them), a symlink whose target lies outside
/// `tree` (the paths being fixed), and a file whose owner or group cannot be kept.
pub fn write_fixed(
    path: &Path,
    before: &[u8],
    after: &[u8],
    tree: &[PathBuf],
) -> Result<(), WriteError> {
    let skip = |why: String| Err(WriteError::Skipped(why));
    let target = std::fs::canonicalize(path)?;
    if std::fs::symlink_metadata(path)?.file_type().is_symlink()
        && !tree.iter().any(|root| target.starts_with(root))
    {
        return skip(format!(
            "it is a symlink to {}, outside the paths being fixed",
            target.display()
        ));
    }
    let meta = std::fs::metadata(&target)?;
    if meta.permissions().readonly() || !writable(&target) {
        return skip("it is read-only".to_string());
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if meta.nlink() > 1 {
            return skip(format!(
                "it has {} hard links, which a rewrite would split",
                meta.nlink()
            ));
        }
    }
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
            Err(e) => return Err(e.into()),
        };
        let result = file
            .write_all(after)
            .and_then(|()| file.sync_all())
            .map_err(WriteError::from)
            .and_then(|()| keep_identity(&file, &temp, &meta))
            .and_then(|()| {
                // The last look before the rename: an edit made meanwhile is not overwritten.
                let now = crate::read::read(&target, before.len() as u64 + 1);
                if now.is_ok_and(|now| now == before) {
                    Ok(())
                } else {
                    skip("it changed while mcp-lint was fixing it".to_string())
                }
            })
            .and_then(|()| std::fs::rename(&temp, &target).map_err(WriteError::from));
        if result.is_err() {
            let _ = std::fs::remove_file(&temp);
        }
        return result;
    }
    Err(WriteError::Failed(io::Error::new(
        io::ErrorKind::AlreadyExists,
        "no free name for a temporary file",
    )))
}

/// Give the temporary file the original's mode, and on Unix its owner and group.
fn keep_identity(
    file: &std::fs::File,
    temp: &Path,
    meta: &std::fs::Metadata,
) -> Result<(), WriteError> {
    std::fs::set_permissions(temp, meta.permissions())?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let made = file.metadata()?;
        if (made.uid(), made.gid()) != (meta.uid(), meta.gid()) {
            if let Err(e) = std::os::unix::fs::fchown(file, Some(meta.uid()), Some(meta.gid())) {
                return Err(WriteError::Skipped(format!(
                    "its owner and group ({}:{}) could not be kept: {e}",
                    meta.uid(),
                    meta.gid()
                )));
            }
        }
    }
    #[cfg(not(unix))]
    let _ = file;
    Ok(())
}

/// A unified diff of one file, git-style (`--- a/<path>`, `+++ b/<path>`: `git apply` and
/// `patch -p1` take it from the directory the path is relative to).
pub fn unified_diff(path: &Path, before: &str, after: &str) -> String {
    // `a//tmp/x` for an absolute path would be read as `a/` + `/tmp/x`: strip the root.
    let shown = path.display().to_string().replace('\\', "/");
    let shown = shown.trim_start_matches('/');
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
    tree: &[PathBuf],
    err: &mut dyn Write,
) -> FixRun {
    // Packages that depend on each other by path are fixed as one program.
    let refs: Vec<lints::program::PackageRef<'_>> = inputs
        .iter()
        .map(|i| (i.root.as_deref(), i.manifest.as_ref()))
        .collect();
    let programs = lints::program::groups(&refs);
    // Per program: its reports after fixing; per changed file: crate, file index, fixed text,
    // findings fixed in it.
    let mut per_program: Vec<Vec<FileReport>> = Vec::new();
    let mut changes: Vec<(usize, usize, String, usize)> = Vec::new();
    for program in &programs {
        let members: Vec<&CrateInput> = program.iter().map(|&c| &inputs[c]).collect();
        let result = fix_program(&members, options, mode.unsafe_fixes);
        for path in &result.unparsable {
            let _ = writeln!(
                err,
                "warning: fixes for {} were not applied: the result did not parse (a bug in mcp-lint; please report it)",
                path.display()
            );
        }
        for ((p, i), text) in result.changed {
            let fixed = result.applied.iter().filter(|(f, _)| *f == (p, i)).count();
            changes.push((program[p], i, text, fixed));
        }
        per_program.push(result.reports);
    }
    let path_of = |c: usize, i: usize| &inputs[c].files[i].path;
    changes.sort_by(|a, b| path_of(a.0, a.1).cmp(path_of(b.0, b.1)));
    let files = |n: usize| if n == 1 { "file" } else { "files" };
    let findings = |n: usize| if n == 1 { "finding" } else { "findings" };

    if mode.diff {
        let fixed: usize = changes.iter().map(|c| c.3).sum();
        let diff: String = changes
            .iter()
            .map(|(c, i, after, _)| {
                let file = &inputs[*c].files[*i];
                unified_diff(&file.path, &String::from_utf8_lossy(&file.contents), after)
            })
            .collect();
        let _ = writeln!(
            err,
            "would fix {fixed} {} in {} {}",
            findings(fixed),
            changes.len(),
            files(changes.len())
        );
        return FixRun {
            reports: sorted_reports(per_program),
            diff: Some(diff),
            failed: false,
        };
    }
    let (mut written, mut fixed) = (0, 0);
    let mut failed = false;
    // Which changes reached the disk.
    let mut done: Vec<bool> = Vec::with_capacity(changes.len());
    for (c, i, after, count) in &changes {
        let file = &inputs[*c].files[*i];
        let real = normalize(&cwd.join(&file.path));
        let outcome = write_fixed(&real, &file.contents, after.as_bytes(), tree);
        match &outcome {
            Ok(()) => {
                written += 1;
                fixed += count;
            }
            Err(WriteError::Skipped(why)) => {
                let _ = writeln!(err, "warning: {} was not fixed: {why}", file.path.display());
            }
            Err(WriteError::Failed(e)) => {
                let _ = writeln!(err, "error: could not write {}: {e}", file.path.display());
                failed = true;
            }
        }
        done.push(outcome.is_ok());
    }
    // A program with a file left as it was: its findings are those of the text now on disk.
    for (g, program) in programs.iter().enumerate() {
        let mine = || {
            changes
                .iter()
                .zip(&done)
                .filter(move |((c, ..), _)| program.contains(c))
        };
        if mine().all(|(_, ok)| *ok) {
            continue;
        }
        let mut members: Vec<CrateInput> = program.iter().map(|&c| inputs[c].clone()).collect();
        for ((c, i, after, _), _) in mine().filter(|(_, ok)| **ok) {
            if let Some(p) = program.iter().position(|m| m == c) {
                members[p].files[*i].contents = after.clone().into_bytes();
            }
        }
        per_program[g] = lints::analyze_program(&members, options);
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
        reports: sorted_reports(per_program),
        diff: None,
        failed,
    }
}

fn sorted_reports(per_program: Vec<Vec<FileReport>>) -> Vec<FileReport> {
    let mut reports: Vec<FileReport> = per_program.into_iter().flatten().collect();
    reports.sort_by(|a, b| a.path.cmp(&b.path));
    reports
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
        write_fixed(&path, b"old", b"new", &[]).expect("written");
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
    fn fixes_keep_crlf_line_endings() {
        let text = "fn a() {\r\n    b();\r\n}\r\n";
        let fix = fix(vec![
            edit(0, 0, "use x;\r\n\n"),
            edit(14, 18, "c();\n    d();"),
        ]);
        let applied = apply_fixes(text, std::iter::once(&fix));
        assert_eq!(
            applied.text,
            "use x;\r\n\r\nfn a() {\r\n    c();\r\n    d();\r\n}\r\n"
        );
        // A file of `\n` lines keeps them.
        let applied = apply_fixes("fn a() {}\n", std::iter::once(&fix_at_start()));
        assert_eq!(applied.text, "use x;\nfn a() {}\n");
    }

    fn fix_at_start() -> Fix {
        fix(vec![edit(0, 0, "use x;\n")])
    }

    #[test]
    fn a_file_changed_since_it_was_read_is_left_alone() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("lib.rs");
        std::fs::write(&path, "edited meanwhile").unwrap();
        let result = write_fixed(&path, b"as read", b"fixed", &[]);
        assert!(
            matches!(&result, Err(WriteError::Skipped(why)) if why.contains("changed while")),
            "{result:?}"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "edited meanwhile");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn diff_headers_of_absolute_paths() {
        let d = unified_diff(Path::new("/tmp/x.rs"), "a\n", "b\n");
        assert!(d.starts_with("--- a/tmp/x.rs\n+++ b/tmp/x.rs\n"), "{d}");
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
