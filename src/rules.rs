//! `mcp-lint rules` and `mcp-lint explain`: the registry, printed.

use std::io::{self, Write};

use lints::registry::{self, did_you_mean, Group};
use lints::Lint;
use schemars::JsonSchema;
use serde::Serialize;

use crate::cli::RulesFormat;

/// One lint, as `rules --format json` lists it.
#[derive(Serialize, JsonSchema)]
pub struct JsonRule {
    /// e.g. `MCP001`; accepted wherever a name is.
    code: &'static str,
    /// The canonical name, e.g. `tool_failure_as_protocol_error`.
    name: &'static str,
    /// `correctness`, `suspicious`, `style`, `restriction` or `meta`.
    group: &'static str,
    /// `allow`, `warn`, `deny` or `forbid`.
    default_level: &'static str,
    summary: &'static str,
    /// The mcp-lint version that added it.
    since: &'static str,
}

/// Every lint, in registry order.
pub fn json_rules() -> Vec<JsonRule> {
    registry::all()
        .iter()
        .map(|l| JsonRule {
            code: l.code,
            name: l.name,
            group: l.group.as_str(),
            default_level: l.default_level.as_str(),
            summary: l.summary,
            since: l.since,
        })
        .collect()
}

/// Every lint as an aligned table, one per line: code, name, group, default level, summary.
pub fn rules_table() -> String {
    let all = registry::all();
    let name_width = all.iter().map(|l| l.name.len()).max().unwrap_or(0);
    let group_width = all
        .iter()
        .map(|l| l.group.as_str().len())
        .max()
        .unwrap_or(0);
    all.iter()
        .map(|l| {
            format!(
                "{}  {:<name_width$}  {:<group_width$}  {:<6}  {}\n",
                l.code,
                l.name,
                l.group.as_str(),
                l.default_level.as_str(),
                l.summary
            )
        })
        .collect()
}

/// The lint table in the chosen format.
pub fn write_rules(out: &mut dyn Write, format: RulesFormat) -> io::Result<()> {
    match format {
        RulesFormat::Human => out.write_all(rules_table().as_bytes()),
        // The same table the README carries (checked by tests/docs.rs).
        RulesFormat::Markdown => out.write_all(lints::docs::lint_table_markdown().as_bytes()),
        RulesFormat::Json => {
            serde_json::to_writer_pretty(&mut *out, &json_rules()).map_err(io::Error::from)?;
            writeln!(out)
        }
    }
}

/// What `explain` found for a name, code or group.
pub enum Explained {
    Lint(&'static Lint),
    Group(Group),
    /// Unknown; with the closest lint name or code, if one is close.
    Unknown {
        suggestion: Option<String>,
    },
}

pub fn lookup(given: &str) -> Explained {
    if let Some(lint) = registry::find(given) {
        return Explained::Lint(lint);
    }
    if let Some(group) = Group::ALL.iter().find(|g| g.as_str() == given.trim()) {
        return Explained::Group(*group);
    }
    let candidates = registry::all().iter().flat_map(|l| [l.name, l.code]);
    let bare = given
        .trim()
        .strip_prefix("mcp_lint::")
        .unwrap_or(given.trim());
    Explained::Unknown {
        suggestion: did_you_mean(bare, candidates),
    }
}

/// `unknown lint `x`; did you mean `y`?`
pub fn unknown_lint(given: &str, suggestion: Option<&str>) -> String {
    match suggestion {
        Some(s) => format!("unknown lint `{given}`; did you mean `{s}`?"),
        None => format!("unknown lint `{given}`"),
    }
}

/// The lints of a group, one per line, indented.
pub fn group_listing(group: Group) -> String {
    let mut text = format!("`{}` is a group of lints:\n", group.as_str());
    for l in registry::all().iter().filter(|l| l.group == group) {
        text.push_str(&format!("  {}  {}  {}\n", l.code, l.name, l.summary));
    }
    text
}

/// Print a lint's docs. A group name lists the group's lints; anything else unknown is an
/// error with a suggestion (exit 2).
pub fn explain(out: &mut dyn Write, err: &mut dyn Write, given: &str) -> io::Result<i32> {
    match lookup(given) {
        Explained::Lint(lint) => {
            out.write_all(explanation(lint).as_bytes())?;
            Ok(0)
        }
        Explained::Group(group) => {
            out.write_all(group_listing(group).as_bytes())?;
            writeln!(out, "run `mcp-lint explain <NAME|CODE>` for one of them")?;
            Ok(0)
        }
        Explained::Unknown { suggestion } => {
            writeln!(err, "error: {}", unknown_lint(given, suggestion.as_deref()))?;
            writeln!(err, "run `mcp-lint rules` to list every lint")?;
            Ok(2)
        }
    }
}

/// Header line, then the lint's Markdown docs.
pub fn explanation(lint: &Lint) -> String {
    format!(
        "{} {} ({}, {} by default, since {})\n\n{}\n\n{}",
        lint.code,
        lint.name,
        lint.group.as_str(),
        lint.default_level.as_str(),
        lint.since,
        lint.summary,
        lint.docs()
    )
}
