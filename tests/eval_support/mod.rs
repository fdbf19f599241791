//! Labels and scoring shared by the hand-labelled corpora: `tests/eval.rs` (hand-written servers)
//! and `tests/eval_registry.rs` (real servers from the crate registry).
//!
//! `expected.txt` grammar: one finding per line, `relative/path.rs:LINE lint_name  # why`; blank
//! lines and lines starting with `#` are ignored. LINE is where the finding's expression starts.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// What identifies a finding: file (relative to the crate root), 1-based start line, lint name.
pub type Key = (String, usize, String);

/// Labels from `dir/expected.txt`, each with its reason.
pub fn expected(dir: &Path) -> Vec<(Key, String)> {
    let path = dir.join("expected.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut labels = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (finding, why) = line.split_once('#').unwrap_or((line, ""));
        let malformed = || panic!("{}:{}: malformed label {line:?}", path.display(), n + 1);
        let mut words = finding.split_whitespace();
        let (Some(location), Some(lint), None) = (words.next(), words.next(), words.next()) else {
            malformed()
        };
        let Some((file, Ok(line_no))) = location
            .rsplit_once(':')
            .map(|(f, l)| (f, l.parse::<usize>()))
        else {
            malformed()
        };
        assert!(
            lints::registry::find(lint).is_some_and(|l| l.name == lint),
            "{}:{}: {lint:?} is not a lint name",
            path.display(),
            n + 1
        );
        labels.push((
            (file.to_string(), line_no, lint.to_string()),
            why.trim().to_string(),
        ));
    }
    labels
}

/// Panics unless every label of `dir` points at a line that exists.
pub fn assert_labels_in_bounds(dir: &Path, labels: &[(Key, String)]) {
    for ((file, line, _), _) in labels {
        let text = std::fs::read_to_string(dir.join(file))
            .unwrap_or_else(|e| panic!("{}/{file}: {e}", dir.display()));
        assert!(
            *line >= 1 && *line <= text.lines().count(),
            "{}/{file}:{line} is past the end of the file",
            dir.display()
        );
    }
}

#[derive(Default)]
pub struct Score {
    pub expected: usize,
    pub found: usize,
    pub true_positives: usize,
    /// Unexpected findings: location and message.
    pub false_positives: Vec<(Key, String)>,
    /// Missed labels: location and the label's reason.
    pub false_negatives: Vec<(Key, String)>,
}

impl Score {
    /// Adds `other`'s counts (not its mismatch lists).
    pub fn add(&mut self, other: &Score) {
        self.expected += other.expected;
        self.found += other.found;
        self.true_positives += other.true_positives;
    }

    pub fn false_positive_count(&self) -> usize {
        self.found - self.true_positives
    }

    pub fn false_negative_count(&self) -> usize {
        self.expected - self.true_positives
    }

    pub fn precision(&self) -> String {
        ratio(self.true_positives, self.found)
    }

    pub fn recall(&self) -> String {
        ratio(self.true_positives, self.expected)
    }
}

pub fn ratio(part: usize, whole: usize) -> String {
    if whole == 0 {
        "-".to_string()
    } else {
        format!("{:.3}", part as f64 / whole as f64)
    }
}

/// Match labels against findings as multisets of keys.
pub fn score(expected: Vec<(Key, String)>, found: Vec<(Key, String)>) -> Score {
    let mut unmatched: BTreeMap<Key, Vec<String>> = BTreeMap::new();
    for (key, why) in &expected {
        unmatched.entry(key.clone()).or_default().push(why.clone());
    }
    let mut s = Score {
        expected: expected.len(),
        found: found.len(),
        ..Score::default()
    };
    for (key, message) in found {
        match unmatched.get_mut(&key).and_then(Vec::pop) {
            Some(_) => s.true_positives += 1,
            None => s.false_positives.push((key, message)),
        }
    }
    for (key, whys) in unmatched {
        s.false_negatives
            .extend(whys.into_iter().map(|why| (key.clone(), why)));
    }
    s.false_positives.sort();
    s
}

/// A table of named scores: expected, found, true and false positives, false negatives,
/// precision and recall.
pub fn table<'a>(rows: impl IntoIterator<Item = (&'a str, &'a Score)>) -> String {
    let rows: Vec<(&str, &Score)> = rows.into_iter().collect();
    let width = rows
        .iter()
        .map(|(name, _)| name.len())
        .max()
        .unwrap_or(0)
        .max(6);
    let mut out = format!(
        "{:<width$} {:>8} {:>6} {:>4} {:>4} {:>4} {:>9} {:>7}\n",
        "server", "expected", "found", "tp", "fp", "fn", "precision", "recall"
    );
    for (name, s) in rows {
        let _ = writeln!(
            out,
            "{name:<width$} {:>8} {:>6} {:>4} {:>4} {:>4} {:>9} {:>7}",
            s.expected,
            s.found,
            s.true_positives,
            s.false_positive_count(),
            s.false_negative_count(),
            s.precision(),
            s.recall()
        );
    }
    out
}

/// One line per false positive (with the finding's message) and false negative (with the label's
/// reason) of `server`, appended to `out`.
pub fn mismatches(out: &mut String, server: &str, s: &Score) {
    for ((file, line, lint), message) in &s.false_positives {
        let _ = writeln!(out, "  FP {server}/{file}:{line} {lint}: {message}");
    }
    for ((file, line, lint), why) in &s.false_negatives {
        let _ = writeln!(out, "  FN {server}/{file}:{line} {lint}  # {why}");
    }
}
