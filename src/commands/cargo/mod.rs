//! `cargo mcp-lint`: lint the packages of a cargo workspace, selected the way `cargo check`
//! selects them, with cargo's flags (the ones that do not apply to a linter that reads source
//! are accepted and ignored, or passed on to `--with-check`), and print human output or cargo
//! JSON messages for rust-analyzer.
//!
//! Cargo runs `cargo-mcp-lint mcp-lint <args>`; the extra `mcp-lint` is dropped, so the binary
//! also works when called directly.

pub mod metadata;
pub mod modules;
pub mod owners;

use std::ffi::OsString;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use clap::{ArgAction, Args, FromArgMatches, ValueEnum};
use lints::{FileReport, FileRole};

use crate::cli::{self, CheckArgs, ColorChoice};
use crate::commands::check;
use crate::commands::output::{self, Output, EXIT_CLEAN, EXIT_FAILURE, EXIT_FINDINGS};
use crate::message_format::MessageFormat;
use crate::report::cargo_json;
use crate::session::{Package, Session, Targets};
use crate::workspace::discover::{Discovery, PackageSeed};
use crate::workspace::paths::normalize;
use metadata::{Member, Query, Selection, Workspace};
use owners::Owners;

/// Which cargo command `--with-check` runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CheckTool {
    /// `cargo check`
    Check,
    /// `cargo clippy`
    Clippy,
}

impl CheckTool {
    fn subcommand(self) -> &'static str {
        match self {
            CheckTool::Check => "check",
            CheckTool::Clippy => "clippy",
        }
    }
}

/// Help heading of the cargo flags that only matter to a build.
const HEADING: &str =
    "Cargo build flags (no effect on mcp-lint's findings; passed on by --with-check)";

/// cargo's flags, as `cargo check` (and rust-analyzer's check command) passes them.
#[derive(Debug, Default, Args)]
pub struct CargoArgs {
    /// Path to Cargo.toml.
    #[arg(long, value_name = "PATH", help_heading = "Package selection")]
    pub manifest_path: Option<PathBuf>,
    /// Package to lint: a name, `name@version`, a package id or a glob (repeatable).
    #[arg(
        short = 'p',
        long = "package",
        value_name = "SPEC",
        help_heading = "Package selection"
    )]
    pub package: Vec<String>,
    /// Lint every workspace member.
    #[arg(long, visible_alias = "all", help_heading = "Package selection")]
    pub workspace: bool,
    /// Leave out these packages (with --workspace).
    #[arg(long, value_name = "SPEC", help_heading = "Package selection")]
    pub exclude: Vec<String>,

    /// Also run `cargo check` (or `--with-check=clippy`: `cargo clippy`) with the same flags,
    /// and forward its output before ours.
    #[arg(
        long,
        value_enum,
        value_name = "TOOL",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "check"
    )]
    pub with_check: Option<CheckTool>,

    #[command(flatten)]
    pub build: BuildFlags,
}

/// Flags mcp-lint accepts for cargo's sake and passes on to `--with-check`: it reads every
/// target of a package, for every configuration, without building.
#[derive(Debug, Default, Args)]
pub struct BuildFlags {
    #[arg(long, help_heading = HEADING)]
    pub lib: bool,
    #[arg(long, help_heading = HEADING)]
    pub bins: bool,
    #[arg(
        long = "bin",
        value_name = "NAME",
        help_heading = HEADING
    )]
    pub bin: Vec<String>,
    #[arg(long, help_heading = HEADING)]
    pub tests: bool,
    #[arg(
        long = "test",
        value_name = "NAME",
        help_heading = HEADING
    )]
    pub test: Vec<String>,
    #[arg(long, help_heading = HEADING)]
    pub examples: bool,
    #[arg(
        long = "example",
        value_name = "NAME",
        help_heading = HEADING
    )]
    pub example: Vec<String>,
    #[arg(long, help_heading = HEADING)]
    pub benches: bool,
    #[arg(
        long = "bench",
        value_name = "NAME",
        help_heading = HEADING
    )]
    pub bench: Vec<String>,
    #[arg(long, help_heading = HEADING)]
    pub all_targets: bool,
    #[arg(long, value_name = "FEATURES", help_heading = HEADING)]
    pub features: Vec<String>,
    #[arg(long, help_heading = HEADING)]
    pub all_features: bool,
    #[arg(long, help_heading = HEADING)]
    pub no_default_features: bool,
    #[arg(long, value_name = "TRIPLE", help_heading = HEADING)]
    pub target: Vec<String>,
    #[arg(long, value_name = "DIR", help_heading = HEADING)]
    pub target_dir: Option<PathBuf>,
    #[arg(long, help_heading = HEADING)]
    pub keep_going: bool,
    #[arg(
        short = 'j',
        long,
        value_name = "N",
        help_heading = HEADING
    )]
    pub jobs: Option<String>,
    #[arg(short = 'r', long, help_heading = HEADING)]
    pub release: bool,
    #[arg(long, value_name = "NAME", help_heading = HEADING)]
    pub profile: Option<String>,
    /// Also passed to `cargo metadata`.
    #[arg(long, help_heading = HEADING)]
    pub frozen: bool,
    /// Also passed to `cargo metadata`.
    #[arg(long, help_heading = HEADING)]
    pub locked: bool,
    /// Also passed to `cargo metadata`.
    #[arg(long, help_heading = HEADING)]
    pub offline: bool,
    #[arg(short = 'q', long, help_heading = HEADING)]
    pub quiet: bool,
    #[arg(short = 'v', long, action = ArgAction::Count, help_heading = HEADING)]
    pub verbose: u8,
}

impl CargoArgs {
    /// `--frozen`, `--locked`, `--offline`: what `cargo metadata` gets too.
    fn manifest_flags(&self) -> Vec<String> {
        let b = &self.build;
        [
            (b.frozen, "--frozen"),
            (b.locked, "--locked"),
            (b.offline, "--offline"),
        ]
        .into_iter()
        .filter(|(on, _)| *on)
        .map(|(_, flag)| flag.to_string())
        .collect()
    }

    /// Everything `cargo check` understands, in cargo's spelling.
    fn passthrough(&self) -> Vec<OsString> {
        let b = &self.build;
        let mut args: Vec<OsString> = Vec::new();
        let mut push = |flag: &str, value: Option<&dyn AsRef<std::ffi::OsStr>>| {
            args.push(flag.into());
            if let Some(v) = value {
                args.push(v.as_ref().to_os_string());
            }
        };
        if let Some(p) = &self.manifest_path {
            push("--manifest-path", Some(p));
        }
        for p in &self.package {
            push("--package", Some(p));
        }
        for (on, flag) in [
            (self.workspace, "--workspace"),
            (b.lib, "--lib"),
            (b.bins, "--bins"),
            (b.tests, "--tests"),
            (b.examples, "--examples"),
            (b.benches, "--benches"),
            (b.all_targets, "--all-targets"),
            (b.all_features, "--all-features"),
            (b.no_default_features, "--no-default-features"),
            (b.keep_going, "--keep-going"),
            (b.release, "--release"),
            (b.quiet, "--quiet"),
        ] {
            if on {
                push(flag, None);
            }
        }
        for (values, flag) in [
            (&self.exclude, "--exclude"),
            (&b.bin, "--bin"),
            (&b.test, "--test"),
            (&b.example, "--example"),
            (&b.bench, "--bench"),
            (&b.features, "--features"),
            (&b.target, "--target"),
        ] {
            for v in values {
                push(flag, Some(v));
            }
        }
        if let Some(dir) = &b.target_dir {
            push("--target-dir", Some(dir));
        }
        if let Some(j) = &b.jobs {
            push("--jobs", Some(j));
        }
        if let Some(p) = &b.profile {
            push("--profile", Some(p));
        }
        for _ in 0..b.verbose {
            push("--verbose", None);
        }
        args.extend(self.manifest_flags().into_iter().map(OsString::from));
        args
    }
}

/// The `cargo-mcp-lint` command line: the check options plus cargo's.
pub fn command() -> clap::Command {
    let cmd = clap::Command::new("cargo-mcp-lint")
        .bin_name("cargo mcp-lint")
        .version(env!("CARGO_PKG_VERSION"));
    let cmd = CargoArgs::augment_args(CheckArgs::augment_args(cmd))
        .about("Lint the MCP servers of a cargo workspace (the packages `cargo check` would check)")
        .long_about(None);
    cmd.mut_arg("paths", |a| {
        a.default_value(None).help(
            "Report only on files under these paths (default: every file of the selected packages)",
        )
    })
}

/// Parsed `cargo mcp-lint` arguments.
#[derive(Debug)]
pub struct Invocation {
    pub check: CheckArgs,
    pub cargo: CargoArgs,
}

/// Parse `cargo-mcp-lint [mcp-lint] ARGS` (program name first).
pub fn parse<I, T>(args: I) -> Result<Invocation, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let mut argv: Vec<OsString> = args.into_iter().map(Into::into).collect();
    if argv.get(1).is_some_and(|a| a == "mcp-lint") {
        argv.remove(1);
    }
    let matches = command().try_get_matches_from(argv)?;
    let mut check = CheckArgs::from_arg_matches(&matches)?;
    check.level_flags = cli::ordered_level_flags(&matches);
    let cargo = CargoArgs::from_arg_matches(&matches)?;
    Ok(Invocation { check, cargo })
}

/// Run `cargo mcp-lint` with `args` (program name first) and return the exit code.
pub fn run<I, T>(args: I) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let invocation = match parse(args) {
        Ok(i) => i,
        Err(e) => {
            let _ = e.print();
            return e.exit_code();
        }
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut err = std::io::stderr().lock();
    let code = match std::env::current_dir() {
        Ok(cwd) => lint(&invocation, &cwd, &mut out, &mut err),
        Err(e) => {
            let _ = writeln!(err, "error: cannot determine the current directory: {e}");
            EXIT_FAILURE
        }
    };
    let _ = out.flush();
    code
}

/// `cargo mcp-lint`: `--with-check` first (its lines forwarded), then our findings, then, in
/// JSON, one `build-finished` line for the whole run.
pub fn lint(inv: &Invocation, cwd: &Path, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let mut output = match Output::of(&inv.check, cwd, err) {
        Ok(o) => o,
        Err(code) => return code,
    };
    output.build_finished_line = false;
    let format = output.message_format;
    let checked = inv
        .cargo
        .with_check
        .map(|tool| run_check_tool(tool, inv, format, cwd, out));
    let mut code = match analyse(inv, cwd, err) {
        Ok(analysis) => match &analysis.diff {
            Some(diff) => output::write_diff(diff, analysis.failed, out, err),
            None => {
                output.owners = Some(Owners::for_workspace(cwd, analysis.workspace));
                output::report_and_exit(
                    &inv.check,
                    cwd,
                    &output,
                    analysis.reports,
                    analysis.failed,
                    out,
                    err,
                )
            }
        },
        Err(message) => {
            let _ = writeln!(err, "error: {message}");
            EXIT_FAILURE
        }
    };
    match checked {
        Some(Err(message)) => {
            let _ = writeln!(err, "error: {message}");
            code = EXIT_FAILURE;
        }
        Some(Ok(false)) if code != EXIT_FAILURE => code = EXIT_FINDINGS,
        _ => {}
    }
    if format.is_json() {
        let _ = writeln!(
            out,
            "{}",
            cargo_json::build_finished_line(code == EXIT_CLEAN)
        );
    }
    let _ = out.flush();
    code
}

/// The findings of one run over the selected packages.
struct Analysis {
    workspace: Workspace,
    reports: Vec<FileReport>,
    /// mcp-lint could not do all of its job (an unreadable file, a broken manifest).
    failed: bool,
    /// `--diff`: what `--fix` would change.
    diff: Option<String>,
}

fn analyse(inv: &Invocation, cwd: &Path, err: &mut dyn Write) -> Result<Analysis, String> {
    let cargo = &inv.cargo;
    let workspace = metadata::load(
        cwd,
        &Query {
            manifest_path: cargo.manifest_path.as_deref(),
            flags: cargo.manifest_flags(),
        },
    )?;
    let selected = workspace.select(&Selection {
        packages: &cargo.package,
        workspace: cargo.workspace,
        exclude: &cargo.exclude,
    })?;
    let packages: Vec<Package> = selected
        .iter()
        .map(|m| Package {
            seed: seed(m),
            manifest: m.manifest.clone(),
        })
        .collect();
    let mut session = Session::open(check::request(&inv.check, Targets::Packages(packages)), cwd)?;
    let mut discovery = session.discover();
    let mut problems = only_under(&mut discovery, &inv.check.paths, cwd);
    // `--fix`/`--diff`: the files are fixed (or the diff made) first; the findings reported are
    // those left. Otherwise the engine lints (prefilter, cache, one task per crate).
    let (mut reports, diff, write_failed) = if inv.check.fix || inv.check.diff {
        let inputs = session.read(&discovery);
        problems.extend(session.take_problems());
        print_problems(&mut problems, &session.take_warnings(), err);
        let mode = check::fix_mode(&inv.check);
        // Symlinks are written through inside the selected packages (or the paths given).
        let tree = if inv.check.paths.is_empty() {
            let dirs: Vec<PathBuf> = selected.iter().map(|m| m.dir.clone()).collect();
            crate::fix::tree(&dirs, cwd)
        } else {
            crate::fix::tree(&inv.check.paths, cwd)
        };
        let run = crate::fix::fix_inputs(&inputs, session.options(), mode, cwd, &tree, err);
        (run.reports, run.diff, run.failed)
    } else {
        let linted = session.lint(discovery);
        problems.extend(linted.problems);
        print_problems(&mut problems, &linted.warnings, err);
        (linted.reports, None, false)
    };
    reports.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(Analysis {
        workspace,
        reports,
        failed: !problems.is_empty() || write_failed,
        diff,
    })
}

/// mcp-lint's own problems, sorted, once each, then the warnings, to `err`.
fn print_problems(problems: &mut Vec<String>, warnings: &[String], err: &mut dyn Write) {
    problems.sort();
    problems.dedup();
    for p in problems.iter() {
        let _ = writeln!(err, "error: {p}");
    }
    for w in warnings {
        let _ = writeln!(err, "warning: {w}");
    }
}

/// A member's standard directories, plus its targets whose roots lie elsewhere.
fn seed(member: &Member) -> PackageSeed {
    let standard = |p: &Path| {
        p == member.dir.join("build.rs")
            || ["src", "tests", "benches", "examples"]
                .iter()
                .any(|d| p.starts_with(member.dir.join(d)))
    };
    let mut extra_files = Vec::new();
    for t in &member.targets {
        if standard(&t.src_path) {
            continue;
        }
        let role = if t.is("test") || t.is("bench") {
            FileRole::Test
        } else {
            FileRole::Source
        };
        for file in modules::module_files(&t.src_path) {
            if !standard(&file) {
                extra_files.push((file, role));
            }
        }
    }
    PackageSeed {
        root: member.dir.clone(),
        extra_files,
    }
}

/// With paths on the command line, report only files under them (the rest stays context).
fn only_under(discovery: &mut Discovery, paths: &[PathBuf], cwd: &Path) -> Vec<String> {
    if paths.is_empty() {
        return Vec::new();
    }
    let mut problems = Vec::new();
    let given: Vec<PathBuf> = paths
        .iter()
        .filter(|p| {
            let exists = cwd.join(p).exists();
            if !exists {
                problems.push(format!("path not found: {}", p.display()));
            }
            exists
        })
        .map(|p| normalize(&cwd.join(p)))
        .collect();
    for file in discovery.crates.iter_mut().flat_map(|c| &mut c.files) {
        file.report = given.iter().any(|g| file.path.starts_with(g));
        file.named = given.contains(&file.path);
    }
    problems
}

/// Run `cargo check`/`cargo clippy` with our cargo flags and forward its stdout line by line,
/// except its `build-finished` line (we print one for the whole run). `Ok(success)`, or `Err`
/// when it could not be started.
fn run_check_tool(
    tool: CheckTool,
    inv: &Invocation,
    format: MessageFormat,
    cwd: &Path,
    out: &mut dyn Write,
) -> Result<bool, String> {
    let program = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = Command::new(&program);
    cmd.arg(tool.subcommand())
        .args(inv.cargo.passthrough())
        .arg(format!("--message-format={}", format.cargo_value()))
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped());
    match inv.check.color {
        ColorChoice::Auto => {}
        ColorChoice::Always => {
            cmd.arg("--color=always");
        }
        ColorChoice::Never => {
            cmd.arg("--color=never");
        }
    }
    let shown = format!(
        "{} {}",
        Path::new(&program)
            .file_name()
            .map_or_else(|| program.to_string_lossy(), |n| n.to_string_lossy()),
        tool.subcommand()
    );
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("could not run `{shown}`: {e}"))?;
    if let Some(stdout) = child.stdout.take() {
        let mut reader = BufReader::new(stdout);
        let mut line = Vec::new();
        loop {
            line.clear();
            match reader.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            if format.is_json() && is_build_finished(&line) {
                continue;
            }
            if out.write_all(&line).and_then(|()| out.flush()).is_err() {
                break;
            }
        }
    }
    let status = child
        .wait()
        .map_err(|e| format!("`{shown}` did not finish: {e}"))?;
    Ok(status.success())
}

fn is_build_finished(line: &[u8]) -> bool {
    serde_json::from_slice::<serde_json::Value>(line).is_ok_and(|v| v["reason"] == "build-finished")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(args: &[&str]) -> Invocation {
        parse(std::iter::once("cargo-mcp-lint").chain(args.iter().copied()))
            .unwrap_or_else(|e| panic!("{args:?}: {e}"))
    }

    #[test]
    fn cargo_passes_the_subcommand_name_first() {
        let a = parsed(&["mcp-lint", "--workspace", "-D", "all"]);
        assert!(a.cargo.workspace);
        assert_eq!(a.check.level_flags.len(), 1);
        let b = parsed(&["--workspace"]);
        assert!(b.cargo.workspace);
        assert!(b.check.paths.is_empty(), "no default path in cargo mode");
    }

    #[test]
    fn rust_analyzer_check_arguments_are_accepted() {
        // What rust-analyzer's `check.command = "mcp-lint"` runs (flycheck's check_command).
        let a = parsed(&[
            "mcp-lint",
            "--workspace",
            "--message-format=json-diagnostic-rendered-ansi",
            "--manifest-path",
            "/ws/Cargo.toml",
            "--keep-going",
            "--all-targets",
            "--features",
            "a,b",
            "--no-default-features",
            "--target",
            "x86_64-unknown-linux-gnu",
            "--target-dir",
            "/tmp/ra-target",
            "--locked",
            "-q",
        ]);
        assert_eq!(
            a.check.message_format,
            vec!["json-diagnostic-rendered-ansi"]
        );
        let passed: Vec<String> = a
            .cargo
            .passthrough()
            .iter()
            .map(|s| s.to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            passed,
            [
                "--manifest-path",
                "/ws/Cargo.toml",
                "--workspace",
                "--all-targets",
                "--no-default-features",
                "--keep-going",
                "--quiet",
                "--features",
                "a,b",
                "--target",
                "x86_64-unknown-linux-gnu",
                "--target-dir",
                "/tmp/ra-target",
                "--locked"
            ]
        );
        let a = parsed(&[
            "mcp-lint",
            "-p",
            "a",
            "--package",
            "b",
            "--lib",
            "--bins",
            "--examples",
        ]);
        assert_eq!(a.cargo.package, ["a", "b"]);
        assert!(a.cargo.with_check.is_none());
    }

    #[test]
    fn with_check_takes_an_optional_tool() {
        assert_eq!(
            parsed(&["mcp-lint", "--with-check"]).cargo.with_check,
            Some(CheckTool::Check)
        );
        assert_eq!(
            parsed(&["mcp-lint", "--with-check=clippy"])
                .cargo
                .with_check,
            Some(CheckTool::Clippy)
        );
        // `--with-check src` is the flag and a path, not a tool named `src`.
        let a = parsed(&["mcp-lint", "--with-check", "src"]);
        assert_eq!(a.cargo.with_check, Some(CheckTool::Check));
        assert_eq!(a.check.paths, [PathBuf::from("src")]);
    }

    #[test]
    fn build_finished_lines_are_recognised() {
        assert!(is_build_finished(
            b"{\"reason\":\"build-finished\",\"success\":true}\n"
        ));
        assert!(!is_build_finished(b"{\"reason\":\"compiler-message\"}\n"));
        assert!(!is_build_finished(b"Compiling x\n"));
    }
}
