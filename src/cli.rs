//! The command line, as agreed in the README: `check`, `rules`, `explain`, `server`.
//!
//! clap parses; the only thing done by hand is ordering `-A/-W/-D/-F`, which must apply in
//! command-line order across all four flags (`-A all -D MCP001` differs from `-D MCP001 -A all`).

use std::ffi::OsString;
use std::path::PathBuf;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{ArgMatches, Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use lints::{Level, ProtocolVersion};

#[derive(Debug, Parser)]
#[command(
    name = "mcp-lint",
    version,
    about = "A Clippy-style linter for how Rust MCP servers report failure",
    propagate_version = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Lint the crates under PATHS (default: the current directory).
    Check(CheckArgs),
    /// List every lint: code, name, group, default level and summary.
    Rules(RulesArgs),
    /// Print a lint's documentation.
    Explain(ExplainArgs),
    /// Record the current findings in a baseline file, so `check --baseline` reports only new ones.
    Baseline(BaselineArgs),
    /// Run the language server on stdin/stdout (for editors; see the README).
    Server,
    /// Serve mcp-lint to a coding agent: an MCP server on stdin/stdout (tools `lint`,
    /// `explain`, `fix_preview`, `rules`). Paths in tool calls are relative to the current
    /// directory.
    Mcp,
}

/// Output format of `check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Graphical reports with source snippets.
    Human,
    /// One line per finding: `path:line:col: level[CODE/name]: message`.
    Concise,
    /// One JSON document.
    Json,
    /// SARIF 2.1.0, for GitHub code scanning.
    Sarif,
    /// GitHub Actions annotations (workflow commands).
    Github,
    /// JUnit XML.
    Junit,
}

/// Output format of `rules`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RulesFormat {
    Human,
    Json,
    Markdown,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colour when stdout is a terminal and NO_COLOR is not set.
    Auto,
    Always,
    Never,
}

#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("fixing").args(["fix", "diff"]).multiple(true)))]
pub struct CheckArgs {
    /// Files or directories to lint.
    #[arg(default_value = ".")]
    pub paths: Vec<PathBuf>,

    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,

    #[command(flatten)]
    pub levels: LevelArgs,

    /// Exit 1 on warnings too.
    #[arg(long)]
    pub deny_warnings: bool,
    /// Exit 0 even when findings are reported (but 2 when mcp-lint itself failed).
    #[arg(long)]
    pub exit_zero: bool,
    /// Print how often each lint fired instead of the findings.
    #[arg(long)]
    pub statistics: bool,

    /// The MCP specification version to check against (default: the config's, else the
    /// version a hand-rolled server declares, else the latest).
    #[arg(
        long,
        value_name = "VERSION",
        value_parser = protocol_parser()
    )]
    pub target_protocol: Option<ProtocolVersion>,

    /// Lint test code (`#[cfg(test)]`, `#[test]`, `tests/`, `benches/`) too.
    #[arg(long)]
    pub include_tests: bool,

    /// Use this config file instead of searching for `mcp-lint.toml` / Cargo.toml metadata.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,

    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,

    /// Cargo-style output: `json` (also `json-diagnostic-rendered-ansi`, `json-diagnostic-short`,
    /// `json-render-diagnostics`) prints one cargo `compiler-message` line per finding, for
    /// rust-analyzer; `short` is `--format concise`.
    #[arg(long, value_name = "FMT")]
    pub message_format: Vec<String>,

    /// Apply the config's `exclude` to paths given on the command line too (pre-commit passes
    /// every changed file).
    #[arg(long)]
    pub force_exclude: bool,

    /// Also lint files that `.gitignore`, `.ignore`, `.git/info/exclude` or git's global
    /// excludes leave out (by default they are skipped, like ruff does).
    #[arg(long)]
    pub no_respect_gitignore: bool,

    /// Report only findings beyond the counts recorded in this baseline file (see `baseline`).
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,

    /// Apply the fixes that are certain (MachineApplicable), then report what remains.
    #[arg(long)]
    pub fix: bool,
    /// With --fix or --diff: also apply fixes that may be incorrect (MaybeIncorrect).
    #[arg(long, requires = "fixing")]
    pub unsafe_fixes: bool,
    /// Print what --fix would change as a unified diff, and write nothing.
    #[arg(long)]
    pub diff: bool,
    /// Worker threads, at most 1024; 0 (the default) means one per core. The output does not
    /// depend on it.
    #[arg(long, value_name = "N", default_value_t = 0,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(0..=MAX_THREADS))]
    pub threads: usize,
    /// Neither read nor write the result cache.
    #[arg(long)]
    pub no_cache: bool,
    /// Analyse every crate, also those that never mention an MCP SDK (slower; their syntax
    /// errors are then reported too).
    #[arg(long)]
    pub no_prefilter: bool,

    /// `-A/-W/-D/-F` in command-line order; filled from the matches' indices.
    #[arg(skip)]
    pub level_flags: Vec<(String, Level)>,
}

/// `-A/-W/-D/-F`, shared by `check` and `baseline`. Their order across the four flags matters, so
/// the command reads them as `level_flags` (see [`parse`]).
#[derive(Debug, Args)]
pub struct LevelArgs {
    /// Set a lint, code, group or `all` to allow (repeatable; applied left to right).
    #[arg(short = 'A', long = "allow", value_name = "SELECTOR")]
    pub allow: Vec<String>,
    /// Set a lint, code, group or `all` to warn.
    #[arg(short = 'W', long = "warn", value_name = "SELECTOR")]
    pub warn: Vec<String>,
    /// Set a lint, code, group or `all` to deny.
    #[arg(short = 'D', long = "deny", value_name = "SELECTOR")]
    pub deny: Vec<String>,
    /// Set a lint, code, group or `all` to forbid (inline suppressions cannot lower it).
    #[arg(short = 'F', long = "forbid", value_name = "SELECTOR")]
    pub forbid: Vec<String>,
}

/// `mcp-lint baseline`: lints like `check` (same paths, levels and config) and writes the counts.
#[derive(Debug, Args)]
pub struct BaselineArgs {
    /// Files or directories to lint.
    #[arg(default_value = ".")]
    pub paths: Vec<PathBuf>,

    /// The baseline file; paths in it are relative to its directory.
    #[arg(short, long, value_name = "FILE", default_value = crate::baseline::DEFAULT_FILE)]
    pub output: PathBuf,

    /// Only lower counts and drop entries that no longer occur; never record new findings.
    #[arg(long)]
    pub prune: bool,

    #[command(flatten)]
    pub levels: LevelArgs,

    /// The MCP specification version to check against (default: the config's, else the
    /// version a hand-rolled server declares, else the latest).
    #[arg(long, value_name = "VERSION", value_parser = protocol_parser())]
    pub target_protocol: Option<ProtocolVersion>,

    /// Lint test code too.
    #[arg(long)]
    pub include_tests: bool,

    /// Use this config file instead of searching for one.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,

    /// Also record files that git ignores (as `check --no-respect-gitignore`).
    #[arg(long)]
    pub no_respect_gitignore: bool,

    #[arg(skip)]
    pub level_flags: Vec<(String, Level)>,
}

#[derive(Debug, Args)]
pub struct RulesArgs {
    #[arg(long, value_enum, default_value_t = RulesFormat::Human)]
    pub format: RulesFormat,
}

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// A lint name (`tool_failure_as_protocol_error`) or code (`MCP001`).
    #[arg(value_name = "NAME|CODE")]
    pub lint: String,
}

fn protocol_parser() -> impl TypedValueParser<Value = ProtocolVersion> {
    let names: Vec<&'static str> = ProtocolVersion::ALL
        .iter()
        .map(|v| v.as_str())
        .chain(["latest"])
        .collect();
    PossibleValuesParser::new(names).try_map(|s| s.parse::<ProtocolVersion>())
}

/// `--threads` above this is refused: each worker reserves a 256 MiB stack, and 99999 of them
/// never finish starting.
const MAX_THREADS: u64 = 1024;

const LEVEL_FLAGS: [(&str, Level); 4] = [
    ("allow", Level::Allow),
    ("warn", Level::Warn),
    ("deny", Level::Deny),
    ("forbid", Level::Forbid),
];

/// `-A/-W/-D/-F` values in the order they appeared on the command line.
pub(crate) fn ordered_level_flags(matches: &ArgMatches) -> Vec<(String, Level)> {
    let mut flags: Vec<(usize, String, Level)> = Vec::new();
    for (id, level) in LEVEL_FLAGS {
        let (Some(indices), Some(values)) =
            (matches.indices_of(id), matches.get_many::<String>(id))
        else {
            continue;
        };
        flags.extend(indices.zip(values).map(|(i, v)| (i, v.clone(), level)));
    }
    flags.sort_by_key(|(i, _, _)| *i);
    flags.into_iter().map(|(_, v, l)| (v, l)).collect()
}

/// Parse the command line (`args` includes the program name).
pub fn parse<I, T>(args: I) -> Result<Cli, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let matches = Cli::command().try_get_matches_from(args)?;
    let mut cli = Cli::from_arg_matches(&matches)?;
    match (&mut cli.command, matches.subcommand()) {
        (Command::Check(check), Some(("check", sub))) => {
            check.level_flags = ordered_level_flags(sub)
        }
        (Command::Baseline(b), Some(("baseline", sub))) => b.level_flags = ordered_level_flags(sub),
        _ => {}
    }
    Ok(cli)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(args: &[&str]) -> CheckArgs {
        let argv = std::iter::once("mcp-lint").chain(args.iter().copied());
        match parse(argv).expect("parses").command {
            Command::Check(c) => c,
            other => panic!("expected check, got {other:?}"),
        }
    }

    #[test]
    fn level_flags_keep_command_line_order_across_flags() {
        let c = check(&[
            "check",
            "-D",
            "MCP001",
            "-A",
            "all",
            "--warn=style",
            "-D",
            "x",
        ]);
        assert_eq!(
            c.level_flags,
            vec![
                ("MCP001".to_string(), Level::Deny),
                ("all".to_string(), Level::Allow),
                ("style".to_string(), Level::Warn),
                ("x".to_string(), Level::Deny),
            ]
        );
    }

    #[test]
    fn baseline_takes_checks_lint_options_in_order() {
        let argv = [
            "mcp-lint",
            "baseline",
            "-A",
            "all",
            "--deny",
            "MCP001",
            "--prune",
            "-o",
            "ci/b.json",
            "--target-protocol",
            "2025-06-18",
            "--include-tests",
            "src",
        ];
        let Command::Baseline(b) = parse(argv).expect("parses").command else {
            panic!("expected baseline");
        };
        assert!(b.prune);
        assert_eq!(b.output, PathBuf::from("ci/b.json"));
        assert_eq!(b.paths, vec![PathBuf::from("src")]);
        assert_eq!(
            b.level_flags,
            vec![
                ("all".to_string(), Level::Allow),
                ("MCP001".to_string(), Level::Deny)
            ]
        );
        assert_eq!(b.target_protocol, Some(ProtocolVersion::V2025_06_18));
        assert!(b.include_tests);
        let Command::Baseline(b) = parse(["mcp-lint", "baseline"]).unwrap().command else {
            panic!("expected baseline");
        };
        assert_eq!(b.output, PathBuf::from("mcp-lint-baseline.json"));
        assert!(!b.prune);
    }

    #[test]
    fn defaults_and_protocol_versions() {
        let c = check(&["check"]);
        assert_eq!(c.paths, vec![PathBuf::from(".")]);
        assert_eq!(c.format, Format::Human);
        assert_eq!(c.target_protocol, None);
        let c = check(&["check", "--target-protocol", "latest", "a", "b"]);
        assert_eq!(c.target_protocol, Some(ProtocolVersion::LATEST));
        assert_eq!(c.paths.len(), 2);
        let c = check(&["check", "--target-protocol", "2025-06-18"]);
        assert_eq!(c.target_protocol, Some(ProtocolVersion::V2025_06_18));
        assert!(parse(["mcp-lint", "check", "--target-protocol", "2020-01-01"]).is_err());
    }
}
