//! Evaluation on real MCP servers from the crate registry (`tests/eval-registry/<set>/<crate>-<version>/`,
//! see its README), labelled from the rules before mcp-lint was run on them.
//!
//! Each set is linted the way a user lints a directory of crates, `mcp-lint check --format json
//! --no-cache .` in the set's directory (so `tests/eval-registry/mcp-lint.toml` applies: the
//! defaults, with the labels' target protocol 2026-07-28 set, and the published crates of one repository that depend on each other by name and
//! version are one program, see `lints::program`). Each crate's findings, those in its
//! directory, are matched against its `expected.txt` as (path, start line, lint name) multisets.
//! The test prints precision and recall per server, per rule and set, and for each rule over all
//! sets, and lists every mismatch.
//!
//! Real servers disagree with the linter, so mismatches do not fail the test. It fails when a
//! score falls below the one recorded in `tests/eval-registry/scores.txt` (fewer true positives,
//! or a lower precision), or when the labels changed since the recording.
//! `EVAL_REGISTRY_RECORD=1` writes the current scores to that file instead.

mod common;
mod eval_support;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use eval_support::{assert_labels_in_bounds, expected, mismatches, score, table, Key, Score};

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/eval-registry")
}

fn scores_file() -> PathBuf {
    corpus_dir().join("scores.txt")
}

fn sorted_dirs(dir: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .expect("directory has a name")
        .to_string_lossy()
        .into_owned()
}

/// `(set, crate directory)` of every corpus crate: `<set>/<crate>/Cargo.toml`.
fn servers() -> Vec<(String, PathBuf)> {
    sorted_dirs(&corpus_dir())
        .into_iter()
        .flat_map(|set| {
            let name = file_name(&set);
            sorted_dirs(&set)
                .into_iter()
                .filter(|dir| dir.join("Cargo.toml").is_file())
                .map(move |dir| (name.clone(), dir))
        })
        .collect()
}

/// Findings of `mcp-lint check` on a set, per crate directory name, paths relative to the crate,
/// each with its message.
fn found(set: &Path) -> BTreeMap<String, Vec<(Key, String)>> {
    let run = common::mcp_lint(
        set,
        &[
            "check",
            "--format",
            "json",
            "--no-cache",
            "--exit-zero",
            ".",
        ],
    );
    assert_eq!(
        run.code,
        0,
        "mcp-lint failed on {}:\n{run:?}",
        set.display()
    );
    let mut per_crate: BTreeMap<String, Vec<(Key, String)>> = BTreeMap::new();
    for d in run.json()["diagnostics"]
        .as_array()
        .expect("diagnostics array")
    {
        let field = |name: &str| {
            d[name]
                .as_str()
                .unwrap_or_else(|| panic!("{name} in {d}"))
                .to_string()
        };
        let path = field("path").replace('\\', "/");
        let path = path.strip_prefix("./").unwrap_or(&path);
        let (krate, path) = path
            .split_once('/')
            .unwrap_or_else(|| panic!("a finding outside the set's crates: {d}"));
        let line = d["line"].as_u64().expect("line") as usize;
        per_crate
            .entry(krate.to_string())
            .or_default()
            .push(((path.to_string(), line, field("name")), field("message")));
    }
    per_crate
}

/// `MCP001`-style code of a lint name.
fn code(lint: &str) -> &'static str {
    lints::registry::find(lint)
        .unwrap_or_else(|| panic!("{lint} is a lint"))
        .code
}

/// The labels and findings of one lint, scored on their own.
fn rule_score(labels: &[(Key, String)], findings: &[(Key, String)], rule: &str) -> Score {
    let of_rule = |items: &[(Key, String)]| -> Vec<(Key, String)> {
        items
            .iter()
            .filter(|((_, _, lint), _)| code(lint) == rule)
            .cloned()
            .collect()
    };
    score(of_rule(labels), of_rule(findings))
}

/// The counts a recording keeps for one row of the report.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Counts {
    expected: usize,
    found: usize,
    true_positives: usize,
}

impl From<&Score> for Counts {
    fn from(s: &Score) -> Counts {
        Counts {
            expected: s.expected,
            found: s.found,
            true_positives: s.true_positives,
        }
    }
}

fn record_line(row: &str, c: Counts) -> String {
    format!(
        "{row} expected={} found={} tp={} fp={} fn={}",
        c.expected,
        c.found,
        c.true_positives,
        c.found - c.true_positives,
        c.expected - c.true_positives
    )
}

fn parse_record(line: &str) -> (String, Counts) {
    let mut words = line.split_whitespace();
    let row = words.next().expect("row name").to_string();
    let fields: BTreeMap<&str, usize> = words
        .filter_map(|w| w.split_once('='))
        .map(|(k, v)| {
            (
                k,
                v.parse()
                    .unwrap_or_else(|e| panic!("scores.txt: {line:?}: {e}")),
            )
        })
        .collect();
    let get = |k: &str| {
        *fields
            .get(k)
            .unwrap_or_else(|| panic!("scores.txt: {line:?} has no {k}="))
    };
    (
        row,
        Counts {
            expected: get("expected"),
            found: get("found"),
            true_positives: get("tp"),
        },
    )
}

/// Why `now` is worse than `recorded`, if it is: fewer true positives (recall fell), a lower
/// precision, or different labels.
fn regression(recorded: Counts, now: Counts) -> Option<String> {
    if now.expected != recorded.expected {
        return Some(format!(
            "labels changed ({} expected, {} recorded): re-record with EVAL_REGISTRY_RECORD=1",
            now.expected, recorded.expected
        ));
    }
    if now.true_positives < recorded.true_positives {
        return Some(format!(
            "recall fell: {} true positives, {} recorded",
            now.true_positives, recorded.true_positives
        ));
    }
    // now.tp / now.found < recorded.tp / recorded.found, without division.
    if now.found > 0 && now.true_positives * recorded.found < recorded.true_positives * now.found {
        return Some(format!(
            "precision fell: {}/{} true positives, {}/{} recorded",
            now.true_positives, now.found, recorded.true_positives, recorded.found
        ));
    }
    None
}

/// One set's per-server scores, and its labels and findings with keys made unique per crate (so
/// that the set's rule scores never match a label of one crate with a finding of another).
#[derive(Default)]
struct SetScores {
    servers: Vec<(String, Score)>,
    labels: Vec<(Key, String)>,
    findings: Vec<(Key, String)>,
}

/// Each rule's score over `labels` and `findings`, named `<prefix>:<rule>`.
fn rule_scores(
    prefix: &str,
    labels: &[(Key, String)],
    findings: &[(Key, String)],
) -> Vec<(String, Score)> {
    RULES
        .iter()
        .map(|rule| {
            (
                format!("{prefix}:{rule}"),
                rule_score(labels, findings, rule),
            )
        })
        .collect()
}

/// `title`, then the table of `rows` and, when given, a total row.
fn titled_table(title: &str, rows: &[(String, Score)], total: Option<(&str, &Score)>) -> String {
    let rows = rows.iter().map(|(n, s)| (n.as_str(), s)).chain(total);
    format!("{title}\n{}\n", table(rows))
}

const RULES: [&str; 11] = [
    "MCP001", "MCP002", "MCP003", "MCP004", "MCP005", "MCP006", "MCP007", "MCP008", "MCP009",
    "MCP010", "MCP011",
];

#[test]
fn registry_scores_do_not_regress() {
    let mut report = String::new();
    let mut details = String::new();
    // Rows of the recording, in report order.
    let mut rows: Vec<(String, Counts)> = Vec::new();
    let mut per_set: BTreeMap<String, SetScores> = BTreeMap::new();
    let all = servers();
    assert!(
        !all.is_empty(),
        "no corpus crate under {}",
        corpus_dir().display()
    );
    // One mcp-lint process per set, all at once: the run is dominated by process start-up.
    let sets: Vec<PathBuf> = sorted_dirs(&corpus_dir());
    let mut findings_per_set: BTreeMap<String, BTreeMap<String, Vec<(Key, String)>>> =
        std::thread::scope(|scope| {
            let runs: Vec<_> = sets
                .iter()
                .map(|set| (file_name(set), scope.spawn(|| found(set))))
                .collect();
            runs.into_iter()
                .map(|(name, run)| (name, run.join().expect("mcp-lint run")))
                .collect()
        });
    for (set, dir) in &all {
        let crate_dir = file_name(dir);
        let findings = findings_per_set
            .get_mut(set)
            .and_then(|per_crate| per_crate.remove(&crate_dir))
            .unwrap_or_default();
        let name = format!("{set}/{crate_dir}");
        let labels = expected(dir);
        assert_labels_in_bounds(dir, &labels);
        let s = score(labels.clone(), findings.clone());
        mismatches(&mut details, &name, &s);
        let entry = per_set.entry(set.clone()).or_default();
        let tag = |items: Vec<(Key, String)>| {
            items
                .into_iter()
                .map(|((file, line, lint), why)| ((format!("{name}/{file}"), line, lint), why))
        };
        entry.labels.extend(tag(labels));
        entry.findings.extend(tag(findings));
        entry.servers.push((name, s));
    }
    for (set, rest) in &findings_per_set {
        assert!(
            rest.is_empty(),
            "set {set}: findings in directories that are not its crates: {rest:?}"
        );
    }
    let mut all_labels = Vec::new();
    let mut all_findings = Vec::new();
    for (
        set,
        SetScores {
            servers,
            labels,
            findings,
        },
    ) in &per_set
    {
        let mut total = Score::default();
        for (name, s) in servers {
            total.add(s);
            rows.push((name.clone(), s.into()));
        }
        rows.push((format!("{set}:TOTAL"), (&total).into()));
        report.push_str(&titled_table(
            &format!("set {set}, per server"),
            servers,
            Some(("TOTAL", &total)),
        ));
        let rules = rule_scores(set, labels, findings);
        report.push_str(&titled_table(&format!("set {set}, per rule"), &rules, None));
        rows.extend(rules.iter().map(|(n, s)| (n.clone(), s.into())));
        all_labels.extend(labels.iter().cloned());
        all_findings.extend(findings.iter().cloned());
    }
    let rules = rule_scores("all", &all_labels, &all_findings);
    let overall = score(all_labels, all_findings);
    report.push_str(&titled_table(
        "all sets, per rule",
        &rules,
        Some(("all:TOTAL", &overall)),
    ));
    rows.extend(rules.iter().map(|(n, s)| (n.clone(), s.into())));
    rows.push(("all:TOTAL".to_string(), (&overall).into()));
    println!("{report}");
    if !details.is_empty() {
        println!("mismatches:\n{details}");
    }

    if std::env::var_os("EVAL_REGISTRY_RECORD").is_some() {
        let mut text = String::from(
            "# Scores of mcp-lint on tests/eval-registry, written by `EVAL_REGISTRY_RECORD=1 cargo test \
             --test eval_registry`.\n# tests/eval_registry.rs fails when a run falls below these.\n",
        );
        for (row, counts) in &rows {
            text.push_str(&record_line(row, *counts));
            text.push('\n');
        }
        std::fs::write(scores_file(), text).expect("scores.txt is writable");
        return;
    }

    let recorded_text = std::fs::read_to_string(scores_file())
        .expect("tests/eval-registry/scores.txt exists (record it with EVAL_REGISTRY_RECORD=1)");
    let recorded: BTreeMap<String, Counts> = recorded_text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(parse_record)
        .collect();
    let now: BTreeMap<&str, Counts> = rows.iter().map(|(r, c)| (r.as_str(), *c)).collect();
    let mut failures = String::new();
    for (row, was) in &recorded {
        match now.get(row.as_str()) {
            None => {
                let _ = writeln!(
                    failures,
                    "{row}: recorded but not in this run (re-record with EVAL_REGISTRY_RECORD=1)"
                );
            }
            Some(is) => {
                if let Some(why) = regression(*was, *is) {
                    let _ = writeln!(failures, "{row}: {why}");
                }
            }
        }
    }
    for row in now.keys().filter(|r| !recorded.contains_key(**r)) {
        let _ = writeln!(
            failures,
            "{row}: not recorded (re-record with EVAL_REGISTRY_RECORD=1)"
        );
    }
    assert!(
        failures.is_empty(),
        "mcp-lint scores worse on the registry corpus than recorded in scores.txt:\n{failures}\n{report}"
    );
}

#[test]
fn a_regression_is_fewer_true_positives_or_a_lower_precision() {
    let was = Counts {
        expected: 10,
        found: 8,
        true_positives: 6,
    };
    assert_eq!(regression(was, was), None);
    let better = Counts {
        found: 8,
        true_positives: 7,
        ..was
    };
    assert_eq!(regression(was, better), None);
    let lost = Counts {
        true_positives: 5,
        found: 5,
        ..was
    };
    assert!(regression(was, lost).unwrap().starts_with("recall fell"));
    let noisier = Counts { found: 12, ..was };
    assert!(regression(was, noisier)
        .unwrap()
        .starts_with("precision fell"));
    let relabelled = Counts {
        expected: 11,
        ..was
    };
    assert!(regression(was, relabelled)
        .unwrap()
        .starts_with("labels changed"));
    let line = record_line("A:MCP001", was);
    assert_eq!(parse_record(&line), ("A:MCP001".to_string(), was));
}
