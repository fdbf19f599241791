//! The diff `--fix` would apply, computed in memory: the `MachineApplicable` fixes of each file's
//! findings (rustc's rule, as `cargo fix` and Clippy's `--fix` apply them), applied once with
//! no overlapping edits, checked to still parse, and shown as a unified diff. Nothing is
//! written.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use lints::{Applicability, FileReport, Fix, SourceFile};

/// One file's diff.
pub struct FilePreview {
    pub diff: String,
}

#[derive(Default)]
pub struct Preview {
    pub files: Vec<FilePreview>,
    /// Fixes applied, one per finding.
    pub applied: usize,
    /// `(path, index in the report)` of those findings.
    applied_ids: HashSet<(PathBuf, usize)>,
    /// Fixes left out, and why.
    pub notes: Vec<String>,
}

impl Preview {
    pub fn is_applied(&self, path: &Path, index: usize) -> bool {
        self.applied_ids.contains(&(path.to_path_buf(), index))
    }
}

pub fn preview(reports: &[FileReport]) -> Preview {
    let mut preview = Preview::default();
    for report in reports {
        let Some(source) = report.source.as_deref() else {
            continue;
        };
        let candidates: Vec<(usize, &Fix)> = report
            .diagnostics
            .iter()
            .enumerate()
            .filter_map(|(i, d)| Some((i, d.fix.as_ref()?)))
            .filter(|(_, f)| f.applicability == Applicability::MachineApplicable)
            .collect();
        if candidates.is_empty() {
            continue;
        }
        let shown = report.path.display().to_string();
        let applied = apply(&source.text, &candidates);
        if applied.overlapping > 0 {
            preview.notes.push(format!(
                "{shown}: {} fixes overlap an earlier one and are left out; run `fix_preview` \
                 again after applying this diff",
                applied.overlapping
            ));
        }
        if applied.invalid > 0 {
            preview.notes.push(format!(
                "{shown}: {} fixes have edits outside the file and are left out (a bug in \
                 mcp-lint; please report it)",
                applied.invalid
            ));
        }
        if applied.used.is_empty() || applied.text == source.text {
            continue;
        }
        let before = SourceFile::new(report.path.clone(), source.text.clone());
        let after = SourceFile::new(report.path.clone(), applied.text.clone());
        if lints::parse::parse(&before).is_ok() && lints::parse::parse(&after).is_err() {
            preview.notes.push(format!(
                "{shown}: the fixes would leave the file unparsable, so none is shown for it \
                 (a bug in mcp-lint; please report it)"
            ));
            continue;
        }
        preview.applied += applied.used.len();
        preview
            .applied_ids
            .extend(applied.used.iter().map(|i| (report.path.clone(), *i)));
        preview.files.push(FilePreview {
            diff: unified_diff(&shown, &source.text, &applied.text),
        });
    }
    preview
}

/// Apply whole fixes in order of their first edit ([`crate::fix::apply_fixes`], as `--fix`
/// does in each round); `used` holds report indices.
fn apply(text: &str, fixes: &[(usize, &Fix)]) -> crate::fix::Applied {
    let mut applied = crate::fix::apply_fixes(text, fixes.iter().map(|(_, f)| *f));
    applied.used = applied.used.iter().map(|&i| fixes[i].0).collect();
    applied
}

fn unified_diff(path: &str, before: &str, after: &str) -> String {
    crate::fix::unified_diff(Path::new(path), before, after)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use lints::{Diagnostic, Edit, Span};

    use super::*;

    fn fix(applicability: Applicability, edits: &[(usize, usize, &str)]) -> Fix {
        Fix {
            message: "replace".to_string(),
            applicability,
            edits: edits
                .iter()
                .map(|(start, end, r)| Edit {
                    start: *start,
                    end: *end,
                    replacement: r.to_string(),
                })
                .collect(),
        }
    }

    fn report(text: &str, fixes: Vec<Option<Fix>>) -> FileReport {
        let lint = lints::registry::find("vague_error_text").expect("lint exists");
        let diagnostics = fixes
            .into_iter()
            .map(|f| {
                let mut d = Diagnostic::new(lint, Span::default(), "message");
                d.fix = f;
                d
            })
            .collect();
        FileReport {
            path: PathBuf::from("src/tools.rs"),
            source: Some(Arc::new(SourceFile::new(
                PathBuf::from("src/tools.rs"),
                text.to_string(),
            ))),
            diagnostics,
        }
    }

    const TEXT: &str = "fn a() {\n    let x = \"error\";\n    let y = \"failed\";\n}\n";

    #[test]
    fn machine_applicable_fixes_become_one_unified_diff() {
        let error = TEXT.find("\"error\"").expect("literal");
        let failed = TEXT.find("\"failed\"").expect("literal");
        let r = report(
            TEXT,
            vec![
                Some(fix(
                    Applicability::MachineApplicable,
                    &[(failed, failed + 8, "\"cannot read the note\"")],
                )),
                Some(fix(
                    Applicability::MachineApplicable,
                    &[(error, error + 7, "\"no such user\"")],
                )),
                Some(fix(Applicability::MaybeIncorrect, &[(0, 2, "pub fn")])),
                None,
            ],
        );
        let preview = preview(std::slice::from_ref(&r));
        assert_eq!(preview.applied, 2);
        assert_eq!(preview.files.len(), 1);
        assert_eq!(
            preview.files[0].diff,
            "--- a/src/tools.rs\n+++ b/src/tools.rs\n@@ -1,4 +1,4 @@\n fn a() {\n-    let x = \
             \"error\";\n-    let y = \"failed\";\n+    let x = \"no such user\";\n+    let y = \
             \"cannot read the note\";\n }\n"
        );
        assert!(preview.is_applied(Path::new("src/tools.rs"), 0));
        assert!(preview.is_applied(Path::new("src/tools.rs"), 1));
        assert!(!preview.is_applied(Path::new("src/tools.rs"), 2));
        assert!(preview.notes.is_empty());
    }

    #[test]
    fn overlapping_and_out_of_range_fixes_are_left_out_with_a_note() {
        let error = TEXT.find("\"error\"").expect("literal");
        let r = report(
            TEXT,
            vec![
                Some(fix(
                    Applicability::MachineApplicable,
                    &[(error, error + 7, "\"a\"")],
                )),
                Some(fix(
                    Applicability::MachineApplicable,
                    &[(error + 1, error + 3, "b")],
                )),
                Some(fix(Applicability::MachineApplicable, &[(9999, 10000, "")])),
            ],
        );
        let preview = preview(std::slice::from_ref(&r));
        assert_eq!(preview.applied, 1);
        assert!(preview.files[0].diff.contains("+    let x = \"a\";"));
        assert_eq!(preview.notes.len(), 2, "{:?}", preview.notes);
        assert!(preview.notes[0].contains("1 fixes overlap"));
        assert!(preview.notes[1].contains("outside the file"));
    }

    #[test]
    fn a_fix_that_breaks_parsing_is_not_shown() {
        let r = report(
            TEXT,
            vec![Some(fix(Applicability::MachineApplicable, &[(7, 8, "")]))],
        );
        let preview = preview(std::slice::from_ref(&r));
        assert!(preview.files.is_empty());
        assert_eq!(preview.applied, 0);
        assert!(
            preview.notes[0].contains("unparsable"),
            "{:?}",
            preview.notes
        );
    }

    #[test]
    fn no_fixes_no_diff() {
        let r = report(
            TEXT,
            vec![
                None,
                Some(fix(Applicability::HasPlaceholders, &[(0, 1, "x")])),
            ],
        );
        let preview = preview(std::slice::from_ref(&r));
        assert!(preview.files.is_empty());
        assert_eq!(preview.applied, 0);
        assert!(preview.notes.is_empty());
    }
}
