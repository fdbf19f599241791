//! `mcp-lint rules` and `mcp-lint explain`: the registry, printed.

use std::io::{self, Write};

use lints::registry::{self, did_you_mean, Group};
use lints::Lint;
use serde::Serialize;

use crate::cli::RulesFormat;

#[derive(Serialize)]
struct JsonRule<'a> {
    code: &'a str,
    name: &'a str,
    group: &'a str,
    default_level: &'a str,
    summary: &'a str,
    since: &'a str,
}

/// The lint table in the chosen format.
pub fn write_rules(out: &mut dyn Write, format: RulesFormat) -> io::Result<()> {
    let all = registry::all();
    match format {
        RulesFormat::Human => {
            let name_width = all.iter().map(|l| l.name.len()).max().unwrap_or(0);
            let group_width = all
                .iter()
                .map(|l| l.group.as_str().len())
                .max()
                .unwrap_or(0);
            for l in all {
                writeln!(
                    out,
                    "{}  {:<name_width$}  {:<group_width$}  {:<6}  {}",
                    l.code,
                    l.name,
                    l.group.as_str(),
                    l.default_level.as_str(),
                    l.summary
                )?;
            }
            Ok(())
        }
        // The same table the README carries (checked by tests/docs.rs).
        RulesFormat::Markdown => out.write_all(lints::docs::lint_table_markdown().as_bytes()),
        RulesFormat::Json => {
            let rules: Vec<JsonRule<'_>> = all
                .iter()
                .map(|l| JsonRule {
                    code: l.code,
                    name: l.name,
                    group: l.group.as_str(),
                    default_level: l.default_level.as_str(),
                    summary: l.summary,
                    since: l.since,
                })
                .collect();
            serde_json::to_writer_pretty(&mut *out, &rules).map_err(io::Error::from)?;
            writeln!(out)
        }
    }
}

/// Print a lint's docs. A group name lists the group's lints; anything else unknown is an
/// error with a suggestion (exit 2).
pub fn explain(out: &mut dyn Write, err: &mut dyn Write, given: &str) -> io::Result<i32> {
    if let Some(lint) = registry::find(given) {
        out.write_all(explanation(lint).as_bytes())?;
        return Ok(0);
    }
    if let Some(group) = Group::ALL.iter().find(|g| g.as_str() == given.trim()) {
        writeln!(out, "`{}` is a group of lints:", group.as_str())?;
        for l in registry::all().iter().filter(|l| l.group == *group) {
            writeln!(out, "  {}  {}  {}", l.code, l.name, l.summary)?;
        }
        writeln!(out, "run `mcp-lint explain <NAME|CODE>` for one of them")?;
        return Ok(0);
    }
    let candidates = registry::all().iter().flat_map(|l| [l.name, l.code]);
    let bare = given
        .trim()
        .strip_prefix("mcp_lint::")
        .unwrap_or(given.trim());
    let mut message = format!("error: unknown lint `{given}`");
    if let Some(s) = did_you_mean(bare, candidates) {
        message.push_str(&format!("; did you mean `{s}`?"));
    }
    writeln!(err, "{message}")?;
    writeln!(err, "run `mcp-lint rules` to list every lint")?;
    Ok(2)
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
