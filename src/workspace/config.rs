//! Configuration: `mcp-lint.toml`, or the same keys under `[package.metadata.mcp-lint]` /
//! `[workspace.metadata.mcp-lint]` in Cargo.toml, validated strictly (unknown keys, lints,
//! levels and protocol versions are errors with a did-you-mean), then merged with the command
//! line into [`lints::Options`].

use std::path::{Path, PathBuf};

use lints::registry::did_you_mean;
use lints::{Level, Options, ProtocolVersion, Selector};
use toml::{Table, Value};

use crate::workspace::discover::Exclude;
use crate::workspace::manifest::{read_toml, CargoToml, Manifests};
use crate::workspace::paths::{normalize, relative_to};

pub const CONFIG_FILE: &str = "mcp-lint.toml";

const TOP_KEYS: [&str; 4] = ["target-protocol", "include-tests", "exclude", "lints"];
const LINT_KEYS: [&str; 3] = ["level", "extra-phrases", "server-fault-markers"];
const LEVELS: [&str; 4] = ["allow", "warn", "deny", "forbid"];

/// What a run sets over the configuration (`check`'s `-A/-W/-D/-F`, `--target-protocol` and
/// `--include-tests`, or a tool call's arguments).
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    /// Levels in the order given, applied after the configuration's.
    pub levels: Vec<(String, Level)>,
    pub target_protocol: Option<ProtocolVersion>,
    /// Lint test code too (the configuration can only turn this on).
    pub include_tests: bool,
}

/// A validated configuration.
#[derive(Clone, Debug, Default)]
pub struct Config {
    /// The file it came from.
    pub file: PathBuf,
    /// Globs in `exclude` are relative to this directory.
    pub dir: PathBuf,
    pub target_protocol: Option<ProtocolVersion>,
    pub include_tests: Option<bool>,
    pub exclude: Vec<String>,
    /// Levels in application order: `all`, then groups, then single lints.
    pub levels: Vec<(Selector, Level)>,
    pub vague_phrases: Vec<String>,
    pub server_fault_markers: Vec<String>,
}

/// Where the keys sit in their file, for error messages.
#[derive(Clone, Copy)]
struct Origin<'a> {
    /// The file as shown to the user.
    shown: &'a str,
    /// `""` or `package.metadata.mcp-lint.` etc.
    prefix: &'a str,
}

impl Origin<'_> {
    fn error(&self, key: &str, message: impl std::fmt::Display) -> String {
        format!("{}: `{}{key}`: {message}", self.shown, self.prefix)
    }
}

const METADATA: [(&str, &str); 2] = [("package", "package"), ("workspace", "workspace")];

/// Find the configuration: `--config FILE`, else the nearest `mcp-lint.toml` above each given
/// path and then above the current directory, else the nearest Cargo.toml with
/// `[package.metadata.mcp-lint]` (or `[workspace.metadata.mcp-lint]`).
pub fn load(
    explicit: Option<&Path>,
    cwd: &Path,
    paths: &[PathBuf],
    manifests: &mut Manifests,
) -> Result<Option<Config>, String> {
    if let Some(file) = explicit {
        let file = normalize(&cwd.join(file));
        let table = read_toml(&file, cwd)?;
        if file.file_name().is_some_and(|n| n == "Cargo.toml") {
            return match from_cargo_toml(&table, &file, cwd)? {
                Some(config) => Ok(Some(config)),
                None => Err(format!(
                    "{}: no [package.metadata.mcp-lint] or [workspace.metadata.mcp-lint] table",
                    relative_to(&file, cwd).display()
                )),
            };
        }
        return parse(&table, &file, "", cwd).map(Some);
    }
    let starts = start_dirs(cwd, paths);
    for start in &starts {
        for dir in start.ancestors() {
            let file = dir.join(CONFIG_FILE);
            if file.is_file() {
                let table = read_toml(&file, cwd)?;
                return parse(&table, &file, "", cwd).map(Some);
            }
        }
    }
    for start in &starts {
        for dir in start.ancestors() {
            let Some(CargoToml::Parsed(table)) = manifests.get(dir) else {
                continue;
            };
            if let Some(config) = from_cargo_toml(&table, &dir.join("Cargo.toml"), cwd)? {
                return Ok(Some(config));
            }
        }
    }
    Ok(None)
}

/// Directories to search upward from: each given path (a file's parent), then `cwd`.
fn start_dirs(cwd: &Path, paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut starts: Vec<PathBuf> = Vec::new();
    for p in paths {
        let abs = normalize(&cwd.join(p));
        let dir = if abs.is_dir() {
            abs
        } else {
            abs.parent().map_or(abs.clone(), Path::to_path_buf)
        };
        if !starts.contains(&dir) {
            starts.push(dir);
        }
    }
    if !starts.iter().any(|s| s == cwd) {
        starts.push(cwd.to_path_buf());
    }
    starts
}

/// The `mcp-lint` metadata table of a Cargo.toml, package first.
fn from_cargo_toml(table: &Table, file: &Path, cwd: &Path) -> Result<Option<Config>, String> {
    for (section, name) in METADATA {
        let Some(value) = table
            .get(section)
            .and_then(|s| s.get("metadata"))
            .and_then(|m| m.get("mcp-lint"))
        else {
            continue;
        };
        let prefix = format!("{name}.metadata.mcp-lint.");
        let shown = relative_to(file, cwd).display().to_string();
        let Some(t) = value.as_table() else {
            return Err(format!(
                "{shown}: `{name}.metadata.mcp-lint` must be a table"
            ));
        };
        return parse_with(
            t,
            file,
            Origin {
                shown: &shown,
                prefix: &prefix,
            },
        )
        .map(Some);
    }
    Ok(None)
}

/// Validate a config table read from `file` (absolute).
pub fn parse(table: &Table, file: &Path, prefix: &str, cwd: &Path) -> Result<Config, String> {
    let shown = relative_to(file, cwd).display().to_string();
    parse_with(
        table,
        file,
        Origin {
            shown: &shown,
            prefix,
        },
    )
}

fn parse_with(table: &Table, file: &Path, origin: Origin<'_>) -> Result<Config, String> {
    let mut config = Config {
        file: file.to_path_buf(),
        dir: file.parent().map(Path::to_path_buf).unwrap_or_default(),
        ..Config::default()
    };
    for (key, value) in table {
        match key.as_str() {
            "target-protocol" => {
                let s = expect_str(value, key, origin)?;
                let version = s.parse::<ProtocolVersion>().map_err(|message| {
                    let names = ProtocolVersion::ALL
                        .iter()
                        .map(|v| v.as_str())
                        .chain(["latest"]);
                    origin.error(key, with_suggestion(message, did_you_mean(s, names)))
                })?;
                config.target_protocol = Some(version);
            }
            "include-tests" => {
                let b = value
                    .as_bool()
                    .ok_or_else(|| origin.error(key, "expected `true` or `false`"))?;
                config.include_tests = Some(b);
            }
            "exclude" => config.exclude = expect_strings(value, key, origin)?,
            "lints" => {
                let lints = value
                    .as_table()
                    .ok_or_else(|| origin.error(key, "expected a table of lint = level"))?;
                parse_lints(lints, origin, &mut config)?;
            }
            _ => return Err(unknown_key(key, &TOP_KEYS, origin)),
        }
    }
    Ok(config)
}

fn parse_lints(lints: &Table, origin: Origin<'_>, config: &mut Config) -> Result<(), String> {
    for (name, value) in lints {
        let key = format!("lints.{name}");
        let selector = Selector::parse(name).map_err(|e| origin.error(&key, e))?;
        match value {
            Value::String(level) => config.levels.push((selector, parse_level(level, &key, origin)?)),
            Value::Table(t) => {
                for (option, v) in t {
                    let option_key = format!("{key}.{option}");
                    match option.as_str() {
                        "level" => {
                            let level = expect_str(v, &option_key, origin)?;
                            config
                                .levels
                                .push((selector, parse_level(level, &option_key, origin)?));
                        }
                        "extra-phrases" => {
                            only_for(selector, "vague_error_text", &option_key, origin)?;
                            config
                                .vague_phrases
                                .extend(expect_strings(v, &option_key, origin)?);
                        }
                        "server-fault-markers" => {
                            only_for(selector, "tool_failure_as_protocol_error", &option_key, origin)?;
                            config
                                .server_fault_markers
                                .extend(expect_strings(v, &option_key, origin)?);
                        }
                        _ => return Err(unknown_key(&option_key, &LINT_KEYS, origin)),
                    }
                }
            }
            _ => {
                return Err(origin.error(
                    &key,
                    "expected a level (\"allow\", \"warn\", \"deny\", \"forbid\") or a table with `level`",
                ))
            }
        }
    }
    // Specific settings win over broad ones, whatever the order in the file.
    config.levels.sort_by_key(|(selector, _)| match selector {
        Selector::All => 0,
        Selector::Group(_) => 1,
        Selector::Lint(_) => 2,
    });
    Ok(())
}

fn only_for(selector: Selector, lint: &str, key: &str, origin: Origin<'_>) -> Result<(), String> {
    match selector {
        Selector::Lint(l) if l.name == lint => Ok(()),
        _ => Err(origin.error(key, format!("this option applies only to `{lint}`"))),
    }
}

fn parse_level(level: &str, key: &str, origin: Origin<'_>) -> Result<Level, String> {
    Level::parse(level).ok_or_else(|| {
        let message = format!(
            "unknown level `{level}` (expected one of {})",
            LEVELS.map(|l| format!("`{l}`")).join(", ")
        );
        origin.error(key, with_suggestion(message, did_you_mean(level, LEVELS)))
    })
}

fn expect_str<'v>(value: &'v Value, key: &str, origin: Origin<'_>) -> Result<&'v str, String> {
    value
        .as_str()
        .ok_or_else(|| origin.error(key, "expected a string"))
}

fn expect_strings(value: &Value, key: &str, origin: Origin<'_>) -> Result<Vec<String>, String> {
    let not_strings = || origin.error(key, "expected an array of strings");
    value
        .as_array()
        .ok_or_else(not_strings)?
        .iter()
        .map(|v| v.as_str().map(str::to_string).ok_or_else(not_strings))
        .collect()
}

fn unknown_key(key: &str, known: &[&str], origin: Origin<'_>) -> String {
    let last = key.rsplit('.').next().unwrap_or(key);
    let message = format!(
        "unknown key (known keys: {})",
        known
            .iter()
            .map(|k| format!("`{k}`"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    origin.error(
        key,
        with_suggestion(message, did_you_mean(last, known.iter().copied())),
    )
}

fn with_suggestion(message: impl std::fmt::Display, suggestion: Option<String>) -> String {
    match suggestion {
        Some(s) => format!("{message}; did you mean `{s}`?"),
        None => message.to_string(),
    }
}

/// The config's `exclude` globs (none without a config); errors name the config file.
pub fn exclude(config: Option<&Config>, cwd: &Path) -> Result<Exclude, String> {
    match config {
        Some(c) => Exclude::new(&c.dir, &c.exclude)
            .map_err(|e| format!("{}: `exclude`: {e}", relative_to(&c.file, cwd).display())),
        None => Ok(Exclude::default()),
    }
}

/// The analysis options: defaults, then the config, then the overrides (levels left to right
/// after the config's).
pub fn options(config: Option<&Config>, overrides: &Overrides) -> Result<Options, String> {
    let mut options = Options::default();
    if let Some(config) = config {
        for (selector, level) in &config.levels {
            options.levels.set(*selector, *level);
        }
        options.target_protocol = config.target_protocol;
        options.include_tests = config.include_tests.unwrap_or(false);
        options.vague_phrases = config.vague_phrases.clone();
        options.server_fault_markers = config.server_fault_markers.clone();
    }
    for (selector, level) in &overrides.levels {
        options.levels.apply(selector, *level).map_err(|e| {
            let flag = match level {
                Level::Allow => "--allow",
                Level::Warn => "--warn",
                Level::Deny => "--deny",
                Level::Forbid => "--forbid",
            };
            format!("{flag} {selector}: {e}")
        })?;
    }
    if let Some(target) = overrides.target_protocol {
        options.target_protocol = Some(target);
    }
    options.include_tests |= overrides.include_tests;
    Ok(options)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(text: &str) -> Result<Config, String> {
        let table: Table = text.parse().expect("valid toml");
        parse(&table, Path::new("/p/mcp-lint.toml"), "", Path::new("/p"))
    }

    fn level_of(options: &Options, name: &str) -> Level {
        options
            .levels
            .get(lints::registry::find(name).expect("known lint"))
    }

    #[test]
    fn full_schema_parses_and_specific_beats_group() {
        let c = parse_str(
            r#"
target-protocol = "2025-06-18"
include-tests = true
exclude = ["generated/**"]
[lints]
vague_error_text = { level = "deny", extra-phrases = ["no luck"] }
suspicious = "allow"
MCP001 = { server-fault-markers = ["pool_timeout"] }
MCP007 = "allow"
"#,
        )
        .expect("valid config");
        assert_eq!(c.target_protocol, Some(ProtocolVersion::V2025_06_18));
        assert_eq!(c.include_tests, Some(true));
        assert_eq!(c.exclude, vec!["generated/**".to_string()]);
        assert_eq!(c.vague_phrases, vec!["no luck".to_string()]);
        assert_eq!(c.server_fault_markers, vec!["pool_timeout".to_string()]);
        assert_eq!(c.dir, PathBuf::from("/p"));
        let overrides = Overrides {
            levels: vec![
                ("MCP007".to_string(), Level::Warn),
                ("all".to_string(), Level::Allow),
                ("MCP003".to_string(), Level::Deny),
            ],
            ..Overrides::default()
        };
        let o = options(Some(&c), &overrides).expect("valid selectors");
        assert_eq!(level_of(&o, "vague_error_text"), Level::Deny);
        assert_eq!(level_of(&o, "unknown_tool_as_tool_error"), Level::Allow);
        assert_eq!(level_of(&o, "MCP001"), Level::Allow);
        assert_eq!(
            level_of(&o, "parse_error"),
            Level::Deny,
            "`all` leaves meta lints alone"
        );
        assert!(o.include_tests);
    }

    #[test]
    fn a_target_is_explicit_only_when_the_config_or_the_run_sets_one() {
        // Unset, a hand-rolled server is judged by the version its source declares.
        let unset = options(None, &Overrides::default()).expect("no selectors");
        assert_eq!(unset.target_protocol, None);
        let c = parse_str("include-tests = true").expect("valid config");
        assert_eq!(
            options(Some(&c), &Overrides::default())
                .unwrap()
                .target_protocol,
            None
        );
        let c = parse_str("target-protocol = \"2025-06-18\"").expect("valid config");
        assert_eq!(
            options(Some(&c), &Overrides::default())
                .unwrap()
                .target_protocol,
            Some(ProtocolVersion::V2025_06_18)
        );
        // The run's wins over the config's, and `latest` is a choice too.
        let run = Overrides {
            target_protocol: Some(ProtocolVersion::LATEST),
            ..Overrides::default()
        };
        assert_eq!(
            options(Some(&c), &run).unwrap().target_protocol,
            Some(ProtocolVersion::LATEST)
        );
    }

    #[test]
    fn errors_name_the_file_the_key_and_a_suggestion() {
        let e = parse_str("target-protocl = \"latest\"").unwrap_err();
        assert_eq!(
            e,
            "mcp-lint.toml: `target-protocl`: unknown key (known keys: `target-protocol`, \
             `include-tests`, `exclude`, `lints`); did you mean `target-protocol`?"
        );
        let e = parse_str("[lints]\ntool_failur_as_protocol_error = \"deny\"").unwrap_err();
        assert!(e.contains("`lints.tool_failur_as_protocol_error`"), "{e}");
        assert!(
            e.contains("did you mean `tool_failure_as_protocol_error`"),
            "{e}"
        );
        let e = parse_str("[lints]\nMCP001 = \"denny\"").unwrap_err();
        assert!(
            e.contains("`lints.MCP001`") && e.contains("did you mean `deny`"),
            "{e}"
        );
        let e = parse_str("target-protocol = \"2025-06-81\"").unwrap_err();
        assert!(e.contains("did you mean `2025-06-18`"), "{e}");
        let e = parse_str("[lints]\nMCP001 = { extra-phrases = [\"x\"] }").unwrap_err();
        assert!(e.contains("applies only to `vague_error_text`"), "{e}");
        let e = parse_str("[lints]\nMCP003 = { levle = \"warn\" }").unwrap_err();
        assert!(
            e.contains("`lints.MCP003.levle`") && e.contains("did you mean `level`"),
            "{e}"
        );
    }
}
