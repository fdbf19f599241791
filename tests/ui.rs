//! UI tests: every `ui-tests/<lint_name>/*.rs` fixture is analysed in-process as a one-file crate
//! and its findings are checked against the `//~` annotations in the file (both directions) and
//! against the blessed `<case>.stderr` next to it (the plain human rendering of every finding,
//! each related location a `note: path:line:col: message` line after its help and notes).
//!
//! Leading `//@` comments configure the run:
//! - `//@ rmcp = "0.8"`: the crate has a Cargo.toml depending on that rmcp version;
//! - `//@ dep: pmcp = "2.23"` (repeatable): the crate's Cargo.toml has that dependency, under the
//!   crate's Cargo name (`rust-mcp-sdk`, `mcp-attr`, `serde_json`, ...); `//@ dep: name` without a
//!   version is a path or git dependency. Several SDKs, an SDK next to `rmcp`, or a hand-rolled
//!   server's plain `serde_json` dependency are written this way. Without any `rmcp`/`dep`
//!   directive the fixture is analysed with no manifest, like a lone `.rs` file;
//! - `//@ rename: mcp = rmcp`: the manifest lists that dependency under another key
//!   (`mcp = { package = "rmcp", .. }`), the name the code uses for it;
//! - `//@ locked: rust-mcp-schema = "0.7.5"` (repeatable): the crate's Cargo.lock pins that
//!   version of the package (a dependency's dependency);
//! - `//@ target-protocol: 2025-11-25`;
//! - `//@ include-tests`: lint test code too;
//! - `//@ role: test`: the file sits under `tests/` (`FileRole::Test`);
//! - `//@ vague-phrase: no luck` and `//@ server-fault-marker: acquire_connection`: the two
//!   per-lint options (repeatable).
//!
//! The lint named by the directory always runs at least at warn (so allow-by-default lints such
//! as `panic_in_tool` can be tested); every other lint runs at its default level, so every finding
//! of any lint in a fixture must be annotated.
//!
//! Annotations follow ui_test's grammar: `//~ name` (a finding of that lint starts on this line),
//! `//~^ name` (one `^` per line up), `//~v name` (one `v` per line down), `//~| name` (same line
//! as the previous annotation). A code (`MCP001`) works as well as a name, and `//~ name: text`
//! also requires `text` in the message.
//!
//! `MCP_LINT_BLESS=1 cargo test --test ui` rewrites the `.stderr` files (and removes those of
//! fixtures with no finding); `TESTNAME=substring` runs only the matching fixtures.
//!
//! `internal_error` (MCP901) has no fixture directory: it means mcp-lint itself failed (a panic
//! caught around the analysis), and no well-formed or malformed source file is supposed to cause
//! that, so a fixture for it would pin a bug. The catch-and-report path is tested by unit tests
//! in the lints crate; the meta-tests below exempt meta lints from the "has a directory" rule.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

mod common;

use lints::{
    registry, CrateInput, Dependency, Diagnostic, FileRole, Group, Level, Lint, Manifest, Options,
    ProtocolVersion, Selector, SourceFile, SourceInput,
};
use mcp_lint::report::human::HumanStyle;

const BLESS_VAR: &str = "MCP_LINT_BLESS";
const FILTER_VAR: &str = "TESTNAME";
/// The only fixture directory whose files need not parse.
const UNPARSABLE_DIR: &str = "parse_error";

fn ui_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("ui-tests")
}

/// One `ui-tests/<dir>/<case>.rs` file.
struct Fixture {
    /// The directory name: the lint the fixture is about.
    dir: String,
    /// Absolute path of the `.rs` file.
    path: PathBuf,
    /// `ui-tests/<dir>/<case>.rs`, with forward slashes: the path findings are reported under.
    display: String,
    bytes: Vec<u8>,
    /// The text (lossily decoded, for fixtures that are deliberately not UTF-8).
    text: String,
}

impl Fixture {
    fn stderr_path(&self) -> PathBuf {
        self.path.with_extension("stderr")
    }

    fn fixed_path(&self) -> PathBuf {
        self.path.with_extension("fixed")
    }
}

/// Every fixture, sorted by path; plus problems with the directory layout itself.
fn collect_fixtures() -> (Vec<Fixture>, Vec<String>) {
    let root = ui_root();
    let mut fixtures = Vec::new();
    let mut problems = Vec::new();
    let dirs = match sorted_entries(&root) {
        Ok(d) => d,
        Err(e) => {
            return (
                fixtures,
                vec![format!("cannot read {}: {e}", root.display())],
            )
        }
    };
    for dir in dirs {
        let dir_name = file_name(&dir);
        if !dir.is_dir() {
            problems.push(format!(
                "ui-tests/{dir_name}: only lint directories belong in ui-tests/"
            ));
            continue;
        }
        let entries = match sorted_entries(&dir) {
            Ok(e) => e,
            Err(e) => {
                problems.push(format!("cannot read {}: {e}", dir.display()));
                continue;
            }
        };
        for path in entries {
            let name = file_name(&path);
            let display = format!("ui-tests/{dir_name}/{name}");
            match path.extension().and_then(|e| e.to_str()) {
                Some("rs") => match std::fs::read(&path) {
                    Ok(bytes) => fixtures.push(Fixture {
                        dir: dir_name.clone(),
                        text: String::from_utf8_lossy(&bytes).into_owned(),
                        bytes,
                        path,
                        display,
                    }),
                    Err(e) => problems.push(format!("{display}: cannot read: {e}")),
                },
                Some("stderr" | "fixed") if path.with_extension("rs").is_file() => {}
                Some(ext @ ("stderr" | "fixed")) => problems.push(format!(
                    "{display}: stale expected output, there is no {}.rs (remove it, or bless)",
                    name.trim_end_matches(&format!(".{ext}"))
                )),
                _ => problems.push(format!(
                    "{display}: unexpected file (ui-tests holds only .rs fixtures and their .stderr and .fixed outputs)"
                )),
            }
        }
    }
    (fixtures, problems)
}

fn sorted_entries(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut paths = std::fs::read_dir(dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<std::io::Result<Vec<_>>>()?;
    paths.sort();
    Ok(paths)
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

// ---------------------------------------------------------------------------------------------
// Directives

#[derive(Debug, Default, PartialEq)]
struct Directives {
    rmcp: Option<String>,
    /// `//@ dep:` lines, in order: (crate name, version requirement).
    deps: Vec<(String, Option<String>)>,
    /// `//@ rename:` lines: (manifest key, crate name).
    renames: Vec<(String, String)>,
    /// `//@ locked:` lines: what the crate's Cargo.lock pins, (package, version).
    locked: Vec<(String, String)>,
    target_protocol: Option<ProtocolVersion>,
    include_tests: bool,
    test_role: bool,
    vague_phrases: Vec<String>,
    server_fault_markers: Vec<String>,
}

/// The `//@` lines at the top of the file (before the first line that is not a comment or
/// blank). A `//@` anywhere else is an error, so a misplaced directive cannot be silently ignored.
fn parse_directives(text: &str) -> Result<Directives, Vec<String>> {
    let mut d = Directives::default();
    let mut errors = Vec::new();
    let mut in_header = true;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if in_header && !(trimmed.is_empty() || trimmed.starts_with("//")) {
            in_header = false;
        }
        let Some(body) = trimmed.strip_prefix("//@") else {
            continue;
        };
        let line_no = i + 1;
        if !in_header {
            errors.push(format!(
                "line {line_no}: `//@` directives belong at the top of the file"
            ));
            continue;
        }
        if let Err(e) = apply_directive(&mut d, body.trim()) {
            errors.push(format!("line {line_no}: {e}"));
        }
    }
    for (key, name) in &d.renames {
        let listed = d.rmcp.is_some() && name == "rmcp" || d.deps.iter().any(|(n, _)| n == name);
        if !listed {
            errors.push(format!(
                "`rename: {key} = {name}`: no `rmcp` or `dep` directive lists `{name}`"
            ));
        }
    }
    if errors.is_empty() {
        Ok(d)
    } else {
        Err(errors)
    }
}

fn apply_directive(d: &mut Directives, body: &str) -> Result<(), String> {
    let split = body.find([':', '=']);
    let (key, value) = match split {
        Some(at) => (body[..at].trim(), Some(unquote(body[at + 1..].trim()))),
        None => (body, None),
    };
    let need = |v: Option<&str>| -> Result<String, String> {
        match v {
            Some(v) if !v.is_empty() => Ok(v.to_string()),
            _ => Err(format!("directive `{key}` needs a value")),
        }
    };
    match key {
        "rmcp" => set_rmcp(d, need(value)?)?,
        "dep" => match parse_dep(&need(value)?)? {
            (name, Some(version)) if name == "rmcp" => set_rmcp(d, version)?,
            (name, _) if name == "rmcp" => return Err("`dep: rmcp` needs a version".to_string()),
            (name, _) if d.deps.iter().any(|(n, _)| *n == name) => {
                return Err(format!("dependency `{name}` is listed twice"))
            }
            dep => d.deps.push(dep),
        },
        "rename" => match need(value)?.split_once('=') {
            Some((key, name)) => d
                .renames
                .push((key.trim().to_string(), name.trim().to_string())),
            None => return Err("`rename` is `<key> = <crate>`".to_string()),
        },
        "locked" => match parse_dep(&need(value)?)? {
            (name, Some(version)) => d.locked.push((name, version)),
            _ => return Err("`locked` is `<crate> = \"<version>\"`".to_string()),
        },
        "target-protocol" => d.target_protocol = Some(need(value)?.parse()?),
        "include-tests" if value.is_none() => d.include_tests = true,
        "role" => match need(value)?.as_str() {
            "test" => d.test_role = true,
            "source" => d.test_role = false,
            other => {
                return Err(format!(
                    "unknown role `{other}` (expected `test` or `source`)"
                ))
            }
        },
        "vague-phrase" => d.vague_phrases.push(need(value)?),
        "server-fault-marker" => d.server_fault_markers.push(need(value)?),
        _ => {
            return Err(format!(
                "unknown directive `{body}` (known: rmcp = \"<version>\", dep: <crate> = \"<version>\", \
                 rename: <key> = <crate>, locked: <crate> = \"<version>\", target-protocol: <date>, include-tests, role: test, vague-phrase: <text>, \
                 server-fault-marker: <name>)"
            ))
        }
    }
    Ok(())
}

fn set_rmcp(d: &mut Directives, version: String) -> Result<(), String> {
    if d.rmcp.is_some() {
        return Err("dependency `rmcp` is listed twice".to_string());
    }
    d.rmcp = Some(version);
    Ok(())
}

/// `<crate> = "<version>"` or a bare `<crate>` (a path or git dependency).
fn parse_dep(value: &str) -> Result<(String, Option<String>), String> {
    let (name, version) = match value.split_once('=') {
        Some((name, version)) => (name.trim(), Some(unquote(version.trim()))),
        None => (value.trim(), None),
    };
    let valid_name = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if !valid_name {
        return Err(format!(
            "`dep: {value}` is not `<crate> = \"<version>\"` (a crate name is letters, digits, `-` and `_`)"
        ));
    }
    match version {
        Some("") => Err(format!("`dep: {value}` has an empty version")),
        version => Ok((name.to_string(), version.map(str::to_string))),
    }
}

fn unquote(s: &str) -> &str {
    s.strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .unwrap_or(s)
}

// ---------------------------------------------------------------------------------------------
// Annotations

#[derive(Clone, Debug, PartialEq)]
struct Annotation {
    /// Line of the `//~` comment.
    written_on: usize,
    /// Line where the finding must start.
    line: usize,
    lint: &'static Lint,
    /// `//~ name: text`: the message must contain `text`.
    message: Option<String>,
}

/// Every `//~` annotation in the file, or every malformed one.
fn parse_annotations(text: &str) -> Result<Vec<Annotation>, Vec<String>> {
    let mut annotations: Vec<Annotation> = Vec::new();
    let mut errors = Vec::new();
    let line_count = text.lines().count();
    for (i, line) in text.lines().enumerate() {
        let written_on = i + 1;
        let Some(at) = line.find("//~") else { continue };
        let rest = &line[at + 3..];
        let ups = rest.chars().take_while(|c| *c == '^').count();
        let downs = rest.chars().take_while(|c| *c == 'v').count();
        let same_as_previous = rest.starts_with('|');
        let rest = &rest[ups + downs + usize::from(same_as_previous)..];
        if !rest.starts_with(char::is_whitespace) {
            errors.push(format!(
                "line {written_on}: malformed annotation `{}`",
                &line[at..]
            ));
            continue;
        }
        let target = if same_as_previous {
            match annotations.last() {
                Some(prev) => Some(prev.line),
                None => {
                    errors.push(format!(
                        "line {written_on}: `//~|` with no annotation before it"
                    ));
                    continue;
                }
            }
        } else {
            (written_on + downs)
                .checked_sub(ups)
                .filter(|l| (1..=line_count).contains(l))
        };
        let Some(target) = target else {
            errors.push(format!(
                "line {written_on}: annotation points outside the file"
            ));
            continue;
        };
        let rest = rest.trim();
        let (name, message) = match rest.split_once(':') {
            Some((n, m)) => (n.trim(), Some(m.trim().to_string())),
            None => (rest, None),
        };
        match registry::find(name) {
            Some(lint) => annotations.push(Annotation {
                written_on,
                line: target,
                lint,
                message,
            }),
            None => {
                let suggestion = registry::did_you_mean(
                    name,
                    registry::all().iter().flat_map(|l| [l.name, l.code]),
                );
                let hint = suggestion.map_or(String::new(), |s| format!(" (did you mean `{s}`?)"));
                errors.push(format!("line {written_on}: unknown lint `{name}`{hint}"));
            }
        }
    }
    if errors.is_empty() {
        Ok(annotations)
    } else {
        Err(errors)
    }
}

/// Both directions: every annotation matched by a finding of its lint starting on its line, and
/// every finding matched by an annotation. One message per mismatch.
fn match_annotations(annotations: &[Annotation], findings: &[Diagnostic]) -> Vec<String> {
    let mut used = vec![false; findings.len()];
    let mut problems = Vec::new();
    for a in annotations {
        let hit = findings.iter().enumerate().position(|(i, d)| {
            !used[i]
                && d.lint == a.lint
                && d.span.start_line == a.line
                && a.message
                    .as_ref()
                    .is_none_or(|m| d.message.contains(m.as_str()))
        });
        match hit {
            Some(i) => used[i] = true,
            None => {
                let on_line: Vec<String> = findings
                    .iter()
                    .filter(|d| d.span.start_line == a.line)
                    .map(|d| format!("{}[{}]: {}", d.lint.name, d.lint.code, d.message))
                    .collect();
                let seen = if on_line.is_empty() {
                    "nothing is reported on that line".to_string()
                } else {
                    format!("reported on that line: {}", on_line.join("; "))
                };
                let wanted = a.message.as_ref().map_or(String::new(), |m| {
                    format!(" with a message containing {m:?}")
                });
                problems.push(format!(
                    "line {}: expected {} ({}){wanted} (annotation on line {}), not found; {seen}",
                    a.line, a.lint.name, a.lint.code, a.written_on
                ));
            }
        }
    }
    for (d, _) in findings.iter().zip(&used).filter(|(_, used)| !**used) {
        problems.push(format!(
            "line {}:{}: unexpected {} ({}): {}",
            d.span.start_line, d.span.start_column, d.lint.name, d.lint.code, d.message
        ));
    }
    problems
}

// ---------------------------------------------------------------------------------------------
// Running a fixture

fn options_for(fixture_lint: &'static Lint, d: &Directives) -> Options {
    let mut options = Options {
        target_protocol: d.target_protocol,
        include_tests: d.include_tests,
        vague_phrases: d.vague_phrases.clone(),
        server_fault_markers: d.server_fault_markers.clone(),
        ..Options::default()
    };
    if options.levels.get(fixture_lint) < Level::Warn {
        options
            .levels
            .set(Selector::Lint(fixture_lint), Level::Warn);
    }
    options
}

fn input_for(fixture: &Fixture, d: &Directives) -> CrateInput {
    CrateInput {
        root: None,
        manifest: manifest_for(d),
        files: vec![SourceInput {
            path: PathBuf::from(&fixture.display),
            contents: fixture.bytes.clone(),
            role: if d.test_role {
                FileRole::Test
            } else {
                FileRole::Source
            },
            report: true,
            named: true,
            package_path: None,
        }],
    }
}

/// The Cargo.toml facts the directives describe: `rmcp` first, then every `dep` in order; `None`
/// when there is neither.
fn manifest_for(d: &Directives) -> Option<Manifest> {
    let rmcp = d
        .rmcp
        .iter()
        .map(|version| ("rmcp".to_string(), Some(version.clone())));
    let dependencies: Vec<Dependency> = rmcp
        .chain(d.deps.iter().cloned())
        .map(|(name, version)| Dependency {
            rename: d
                .renames
                .iter()
                .find(|(_, n)| *n == name)
                .map(|(key, _)| key.clone()),
            name,
            version,
            path: None,
        })
        .collect();
    let mut locked = lints::LockedVersions::new();
    for (name, version) in &d.locked {
        locked
            .entry(name.clone())
            .or_default()
            .push(version.clone());
    }
    (!dependencies.is_empty()).then(|| Manifest {
        package_name: Some("ui-fixture".to_string()),
        package_version: None,
        published: false,
        dependencies,
        locked: (!locked.is_empty()).then(|| Arc::new(locked)),
        targets: Default::default(),
    })
}

/// The expected-output text of a fixture: every finding, rendered as the human reporter does.
fn render_all(
    fixture: &Fixture,
    source: Option<&Arc<SourceFile>>,
    findings: &[Diagnostic],
) -> String {
    let fallback;
    let source = match source {
        Some(s) => s.as_ref(),
        None => {
            fallback = SourceFile::new(PathBuf::from(&fixture.display), fixture.text.clone());
            &fallback
        }
    };
    let mut out = String::new();
    for d in findings {
        out.push_str(&render(source, d));
        if !out.ends_with('\n') {
            out.push('\n');
        }
        if let Some(fix) = &d.fix {
            let _ = writeln!(
                out,
                "  fix ({}): {}",
                fix.applicability.as_str(),
                fix.message
            );
            out.push_str(&indent(&mcp_lint::fix::preview(&source.text, fix)));
        }
    }
    out
}

/// One finding, as the human reporter prints it without colour.
fn render(source: &SourceFile, d: &Diagnostic) -> String {
    mcp_lint::report::human::render(source, d, &HumanStyle::plain())
}

/// Run one fixture; every problem found, each prefixed with the fixture's path.
fn check_fixture(fixture: &Fixture, bless: bool) -> Vec<String> {
    let prefix = |p: String| format!("{}: {p}", fixture.display);
    let Some(lint) = registry::find(&fixture.dir).filter(|l| l.name == fixture.dir) else {
        // Reported once per directory by `every_ui_directory_names_a_lint`.
        return Vec::new();
    };
    let directives = match parse_directives(&fixture.text) {
        Ok(d) => d,
        Err(errors) => return errors.into_iter().map(prefix).collect(),
    };
    let annotations = match parse_annotations(&fixture.text) {
        Ok(a) => a,
        Err(errors) => return errors.into_iter().map(prefix).collect(),
    };
    let input = input_for(fixture, &directives);
    let options = options_for(lint, &directives);
    let reports = lints::analyze(&input, &options);
    let (source, findings) = match reports.as_slice() {
        [report] => (report.source.as_ref(), report.diagnostics.as_slice()),
        other => {
            return vec![prefix(format!(
                "expected one file report, got {}",
                other.len()
            ))];
        }
    };
    let mut problems: Vec<String> = match_annotations(&annotations, findings)
        .into_iter()
        .map(prefix)
        .collect();
    problems.extend(
        check_fixed(fixture, &input, &options, findings, bless)
            .into_iter()
            .map(prefix),
    );
    let actual = render_all(fixture, source, findings);
    let stderr = fixture.stderr_path();
    let expected = std::fs::read_to_string(&stderr).ok();
    if bless {
        let result = if actual.is_empty() {
            match std::fs::remove_file(&stderr) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
                _ => Ok(()),
            }
        } else if expected.as_deref() != Some(actual.as_str()) {
            std::fs::write(&stderr, &actual)
        } else {
            Ok(())
        };
        if let Err(e) = result {
            problems.push(prefix(format!("cannot bless {}: {e}", stderr.display())));
        }
    } else {
        match expected {
            None if actual.is_empty() => {}
            None => problems.push(prefix(format!(
                "no {} yet; the findings render as:\n{}(run with {BLESS_VAR}=1 to write it)",
                file_name(&stderr),
                indent(&actual)
            ))),
            Some(expected) if expected != actual => problems.push(prefix(format!(
                "output differs from {} (run with {BLESS_VAR}=1 to update):\n{}",
                file_name(&stderr),
                line_diff(&expected, &actual)
            ))),
            Some(_) => {}
        }
    }
    problems
}

/// Clippy's rustfix mode: when findings carry fixes that `--fix --unsafe-fixes` applies, apply
/// them as the engine does (rounds until nothing changes) and compare the result with the
/// blessed `<case>.fixed`. The result must parse, carry no applicable fix any more, and have no
/// finding the fixes did not account for: per lint, at most the findings before minus the fixes
/// applied. A fixture with nothing to apply has no `.fixed`.
fn check_fixed(
    fixture: &Fixture,
    input: &CrateInput,
    options: &Options,
    findings: &[Diagnostic],
    bless: bool,
) -> Vec<String> {
    let fixed_path = fixture.fixed_path();
    let applicable = |d: &Diagnostic| {
        d.fix
            .as_ref()
            .is_some_and(|f| mcp_lint::fix::applies(f.applicability, true))
    };
    let expected = std::fs::read_to_string(&fixed_path).ok();
    if !findings.iter().any(applicable) {
        return match expected {
            Some(_) if bless => std::fs::remove_file(&fixed_path)
                .err()
                .map(|e| format!("cannot remove {}: {e}", fixed_path.display()))
                .into_iter()
                .collect(),
            Some(_) => vec![format!(
                "{} is stale: no finding carries an applicable fix (run with {BLESS_VAR}=1 to remove it)",
                file_name(&fixed_path)
            )],
            None => Vec::new(),
        };
    }
    let result = mcp_lint::fix::fix_crate(input, options, true);
    let mut problems = Vec::new();
    for path in &result.unparsable {
        problems.push(format!("the fixed {} does not parse", path.display()));
    }
    let Some((_, fixed)) = result.changed.first() else {
        problems.push("findings carry applicable fixes, but applying them changed nothing".into());
        return problems;
    };
    if let Err(e) = syn::parse_file(fixed) {
        problems.push(format!(
            "{} does not parse with syn: {e}",
            file_name(&fixed_path)
        ));
    }
    let after: &[Diagnostic] = result
        .reports
        .first()
        .map_or(&[], |r| r.diagnostics.as_slice());
    for d in after.iter().filter(|d| applicable(d)) {
        problems.push(format!(
            "after fixing, {}:{} {} still carries a fix",
            d.span.start_line, d.span.start_column, d.lint.name
        ));
    }
    let lints: BTreeSet<&str> = findings.iter().chain(after).map(|d| d.lint.name).collect();
    for name in lints {
        let count = |ds: &[Diagnostic]| ds.iter().filter(|d| d.lint.name == name).count();
        let fixed_here = result
            .applied
            .iter()
            .filter(|(_, l)| l.name == name)
            .count();
        let (before, now) = (count(findings), count(after));
        if now + fixed_here > before {
            problems.push(format!(
                "after fixing, {name} reports {now} findings; {before} before, {fixed_here} fixed"
            ));
        }
    }
    problems.extend(stays_rustfmt_clean(fixture, fixed));
    if bless {
        if expected.as_deref() != Some(fixed.as_str()) {
            if let Err(e) = std::fs::write(&fixed_path, fixed) {
                problems.push(format!("cannot bless {}: {e}", fixed_path.display()));
            }
        }
    } else {
        match expected {
            None => problems.push(format!(
                "no {} yet; the fixed file reads:\n{}(run with {BLESS_VAR}=1 to write it)",
                file_name(&fixed_path),
                indent(fixed)
            )),
            Some(expected) if expected != *fixed => problems.push(format!(
                "fixed output differs from {} (run with {BLESS_VAR}=1 to update):\n{}",
                file_name(&fixed_path),
                line_diff(&expected, fixed)
            )),
            Some(_) => {}
        }
    }
    problems
}

/// A fixture rustfmt leaves alone is still rustfmt-clean after fixing (the fix lays its code out
/// as rustfmt does and touches nothing else).
fn stays_rustfmt_clean(fixture: &Fixture, fixed: &str) -> Option<String> {
    let formatted = common::rustfmt(&fixture.text).unwrap_or_else(|| {
        panic!("no rustfmt to check that fixes keep files rustfmt-clean: `rustup component add rustfmt`")
    });
    if formatted != fixture.text {
        return None;
    }
    let fixed_formatted = common::rustfmt(fixed).expect("rustfmt ran a moment ago");
    (fixed_formatted != fixed).then(|| {
        format!(
            "the fixture is rustfmt-clean but its fixed text is not (- ours, + rustfmt's):\n{}",
            line_diff(fixed, &fixed_formatted)
        )
    })
}

fn indent(text: &str) -> String {
    text.lines().map(|l| format!("    {l}\n")).collect()
}

/// A line diff (`-` expected, `+` actual) from a longest-common-subsequence table; fixtures'
/// outputs are small.
fn line_diff(expected: &str, actual: &str) -> String {
    let a: Vec<&str> = expected.lines().collect();
    let b: Vec<&str> = actual.lines().collect();
    let mut lcs = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut out = String::new();
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            let _ = writeln!(out, "     {}", a[i]);
            i += 1;
            j += 1;
        } else if i < a.len() && (j == b.len() || lcs[i + 1][j] >= lcs[i][j + 1]) {
            let _ = writeln!(out, "   - {}", a[i]);
            i += 1;
        } else {
            let _ = writeln!(out, "   + {}", b[j]);
            j += 1;
        }
    }
    out
}

fn selected(fixture: &Fixture) -> bool {
    std::env::var(FILTER_VAR).map_or(true, |f| fixture.display.contains(&f))
}

fn fail_with(what: &str, problems: &[String]) {
    if !problems.is_empty() {
        panic!("{} {what}:\n\n{}\n", problems.len(), problems.join("\n\n"));
    }
}

// ---------------------------------------------------------------------------------------------
// The tests

#[test]
fn ui_fixtures() {
    let bless = std::env::var_os(BLESS_VAR).is_some_and(|v| !v.is_empty() && v != "0");
    let (fixtures, mut problems) = collect_fixtures();
    let mut ran = 0;
    for fixture in fixtures.iter().filter(|f| selected(f)) {
        ran += 1;
        problems.extend(check_fixture(fixture, bless));
    }
    assert!(
        ran > 0 || std::env::var_os(FILTER_VAR).is_some(),
        "no fixtures found under {}",
        ui_root().display()
    );
    eprintln!(
        "ui: {ran} fixtures checked{}",
        if bless { " (blessing)" } else { "" }
    );
    fail_with("ui-test failures", &problems);
}

#[test]
fn every_lint_has_firing_and_non_firing_fixtures() {
    let (fixtures, _) = collect_fixtures();
    let mut problems = Vec::new();
    for lint in registry::all().iter().filter(|l| l.group != Group::Meta) {
        let mine: Vec<&Fixture> = fixtures.iter().filter(|f| f.dir == lint.name).collect();
        if mine.is_empty() {
            problems.push(format!(
                "{} ({}): no fixtures in ui-tests/{}/",
                lint.name, lint.code, lint.name
            ));
            continue;
        }
        let firing = mine.iter().filter(|f| {
            parse_annotations(&f.text).is_ok_and(|a| a.iter().any(|a| a.lint == *lint))
        });
        let firing = firing.count();
        if firing == 0 {
            problems.push(format!(
                "ui-tests/{}/: no fixture expects a finding of it",
                lint.name
            ));
        }
        if firing == mine.len() {
            problems.push(format!(
                "ui-tests/{}/: no non-firing fixture (every file expects a finding)",
                lint.name
            ));
        }
    }
    fail_with("lints without complete ui-tests", &problems);
}

#[test]
fn every_ui_directory_names_a_lint() {
    let (fixtures, layout_problems) = collect_fixtures();
    let dirs: BTreeSet<&str> = fixtures.iter().map(|f| f.dir.as_str()).collect();
    let mut problems = layout_problems;
    for dir in dirs {
        if registry::all().iter().all(|l| l.name != dir) {
            let hint = registry::did_you_mean(dir, registry::all().iter().map(|l| l.name))
                .map_or(String::new(), |s| format!(" (did you mean `{s}`?)"));
            problems.push(format!("ui-tests/{dir}/ does not name a lint{hint}"));
        }
    }
    fail_with("problems with the ui-tests layout", &problems);
}

#[test]
fn fixtures_are_valid_rust() {
    let (fixtures, _) = collect_fixtures();
    let problems: Vec<String> = fixtures
        .iter()
        .filter(|f| f.dir != UNPARSABLE_DIR)
        .filter_map(|f| {
            let text = String::from_utf8(f.bytes.clone()).ok()?;
            let source = SourceFile::new(PathBuf::from(&f.display), text);
            let failure = lints::parse::parse(&source).err()?;
            Some(format!("{}: {}", f.display, failure.message))
        })
        .chain(
            fixtures
                .iter()
                .filter(|f| f.dir != UNPARSABLE_DIR && std::str::from_utf8(&f.bytes).is_err())
                .map(|f| format!("{}: not UTF-8", f.display)),
        )
        .collect();
    fail_with("fixtures that do not parse", &problems);
}

// ---------------------------------------------------------------------------------------------
// The harness's own grammar

#[test]
fn annotation_grammar() {
    let text = "fn a() {}\n//~^ MCP001\nlet x = 1; //~ vague_error_text: went wrong\n//~| empty_error_content\n//~vv panic_in_tool\n\nx\n";
    let a = parse_annotations(text).expect("well-formed");
    let got: Vec<(usize, &str, Option<&str>)> = a
        .iter()
        .map(|a| (a.line, a.lint.name, a.message.as_deref()))
        .collect();
    assert_eq!(
        got,
        vec![
            (1, "tool_failure_as_protocol_error", None),
            (3, "vague_error_text", Some("went wrong")),
            (3, "empty_error_content", None),
            (7, "panic_in_tool", None),
        ]
    );
    let errors = parse_annotations("//~^ MCP001\nx //~ tool_failure_as_protocol_eror\n//~| x\n")
        .unwrap_err();
    assert_eq!(errors.len(), 3, "{errors:?}");
    assert!(errors[0].contains("outside the file"), "{errors:?}");
    assert!(
        errors[1].contains("did you mean `tool_failure_as_protocol_error`"),
        "{errors:?}"
    );
    assert!(errors[2].contains("no annotation before it"), "{errors:?}");
}

#[test]
fn directive_grammar() {
    let text = "//@ rmcp = \"0.8\"\n//@ target-protocol: 2025-11-25\n// a comment\n//@ include-tests\n//@ role: test\n//@ vague-phrase: no luck\n//@ dep: rust-mcp-sdk = \"0.7\"\n//@ dep: local_helpers\n//@ locked: rust-mcp-schema = \"0.7.5\"\nuse x;\n";
    let d = parse_directives(text).expect("well-formed");
    assert_eq!(
        d,
        Directives {
            rmcp: Some("0.8".into()),
            deps: vec![
                ("rust-mcp-sdk".into(), Some("0.7".into())),
                ("local_helpers".into(), None),
            ],
            renames: vec![],
            locked: vec![("rust-mcp-schema".into(), "0.7.5".into())],
            target_protocol: Some(ProtocolVersion::V2025_11_25),
            include_tests: true,
            test_role: true,
            vague_phrases: vec!["no luck".into()],
            server_fault_markers: vec![],
        }
    );
    let errors = parse_directives(
        "//@ target-protocol: 2020-01-01\n//@ colour: red\nfn f() {}\n//@ include-tests\n",
    )
    .unwrap_err();
    assert_eq!(errors.len(), 3, "{errors:?}");
    assert!(errors[0].contains("unknown protocol version"), "{errors:?}");
    assert!(errors[1].contains("unknown directive"), "{errors:?}");
    assert!(errors[2].contains("belong at the top"), "{errors:?}");
}

#[test]
fn dep_directives_build_the_manifest() {
    let d = parse_directives("//@ dep: pmcp = \"2.23\"\n//@ rmcp = \"1.8\"\n//@ dep: serde_json\n")
        .expect("well-formed");
    let manifest = manifest_for(&d).expect("a manifest");
    let deps: Vec<(&str, Option<&str>)> = manifest
        .dependencies
        .iter()
        .map(|dep| (dep.name.as_str(), dep.version.as_deref()))
        .collect();
    assert_eq!(
        deps,
        vec![
            ("rmcp", Some("1.8")),
            ("pmcp", Some("2.23")),
            ("serde_json", None)
        ]
    );
    let renamed =
        parse_directives("//@ rmcp = \"1.8\"\n//@ rename: mcp = rmcp\n").expect("well-formed");
    let renamed = manifest_for(&renamed).expect("a manifest");
    assert_eq!(renamed.dependencies[0].rename.as_deref(), Some("mcp"));
    assert!(parse_directives("//@ rename: mcp = rmcp\n").is_err());
    let same = parse_directives("//@ dep: rmcp = \"1.8\"\n").expect("well-formed");
    assert_eq!(same.rmcp.as_deref(), Some("1.8"));
    assert!(manifest_for(&Directives::default()).is_none());

    let errors = parse_directives(
        "//@ dep: pmcp = \"2\"\n//@ dep: pmcp = \"1\"\n//@ rmcp = \"1.8\"\n//@ dep: rmcp = \"2\"\n//@ dep: a b = \"1\"\n//@ dep: x = \"\"\n//@ dep\n",
    )
    .unwrap_err();
    assert_eq!(errors.len(), 5, "{errors:?}");
    assert!(errors[0].contains("`pmcp` is listed twice"), "{errors:?}");
    assert!(errors[1].contains("`rmcp` is listed twice"), "{errors:?}");
    assert!(errors[2].contains("is not `<crate> = "), "{errors:?}");
    assert!(errors[3].contains("empty version"), "{errors:?}");
    assert!(errors[4].contains("needs a value"), "{errors:?}");
}

#[test]
fn matching_reports_both_directions() {
    let lint = registry::find("MCP001").expect("registered");
    let other = registry::find("MCP003").expect("registered");
    let span = |line| lints::Span {
        start_line: line,
        start_column: 5,
        end_line: line,
        end_column: 9,
        ..lints::Span::default()
    };
    let findings = vec![
        Diagnostic::new(lint, span(2), "a tool's failure"),
        Diagnostic::new(other, span(4), "vague"),
    ];
    let annotations = parse_annotations("\nx //~ MCP001\n\n\n\n//~ MCP001\n").expect("well-formed");
    let problems = match_annotations(&annotations, &findings);
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(
        problems[0].starts_with("line 6: expected tool_failure_as_protocol_error"),
        "{problems:?}"
    );
    assert!(
        problems[1].starts_with("line 4:5: unexpected vague_error_text"),
        "{problems:?}"
    );
}

#[test]
fn related_locations_are_blessed_as_note_lines() {
    let text = "fn check() -> Result<(), McpError> {\n    Err(McpError::internal_error(\"x\", None))\n}\nfn read() { check()?; }\n";
    let source = SourceFile::new(PathBuf::from("ui-tests/a/b.rs"), text.to_string());
    let span = |needle: &str| {
        let start = text.find(needle).expect("needle");
        source.span(start, start + needle.len())
    };
    let lint = registry::find("MCP001").expect("registered");
    let plain = Diagnostic::new(lint, span("check()?"), "a tool failure");
    let with_related = plain.clone().with_related(
        "ui-tests/a/b.rs",
        span("McpError::internal_error"),
        "`check` builds the error here",
    );
    let without = render(&source, &plain);
    let with = render(&source, &with_related);
    assert_eq!(
        with,
        format!("{without}  note: ui-tests/a/b.rs:2:9: `check` builds the error here\n")
    );
}

#[test]
fn diff_marks_changed_lines() {
    let d = line_diff("a\nb\nc\n", "a\nx\nc\n");
    assert_eq!(d, "     a\n   - b\n   + x\n     c\n");
}
