//! A declared lint (name, code, group, default level, docs) and the level settings of a run.
//! Nothing here knows the list of lints or their checks: that is `registry`, which depends on
//! the lints, while the lints depend on this module and never on `registry`.

use std::collections::BTreeMap;
use std::fmt;

/// A lint level, ordered from weakest to strongest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    Allow,
    Warn,
    Deny,
    /// Like `Deny`, and inline suppressions cannot lower it.
    Forbid,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Allow => "allow",
            Level::Warn => "warn",
            Level::Deny => "deny",
            Level::Forbid => "forbid",
        }
    }

    /// The word a report shows: `warning` or `error`.
    pub fn severity(self) -> &'static str {
        match self {
            Level::Allow => "allow",
            Level::Warn => "warning",
            Level::Deny | Level::Forbid => "error",
        }
    }

    pub fn parse(s: &str) -> Option<Level> {
        match s {
            "allow" => Some(Level::Allow),
            "warn" => Some(Level::Warn),
            "deny" => Some(Level::Deny),
            "forbid" => Some(Level::Forbid),
            _ => None,
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Lint groups; a group can be selected as a whole (`-A style`, `correctness = "warn"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Group {
    /// Outright wrong: the wire outcome contradicts the spec. Default deny.
    Correctness,
    /// Probably wrong. Default warn.
    Suspicious,
    /// Works, but the model cannot act on it. Default warn.
    Style,
    /// Opt-in checks. Default allow.
    Restriction,
    /// About mcp-lint itself: unparsable files, suppressions.
    Meta,
}

impl Group {
    pub const ALL: [Group; 5] = [
        Group::Correctness,
        Group::Suspicious,
        Group::Style,
        Group::Restriction,
        Group::Meta,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Group::Correctness => "correctness",
            Group::Suspicious => "suspicious",
            Group::Style => "style",
            Group::Restriction => "restriction",
            Group::Meta => "meta",
        }
    }
}

/// A declared lint. Built by `declare_lint!` in `lints/`.
pub struct Lint {
    /// Canonical snake_case name (`mcp_lint::<name>`).
    pub name: &'static str,
    /// Stable short alias, e.g. `MCP001`.
    pub code: &'static str,
    pub group: Group,
    pub default_level: Level,
    /// One line: what the lint fires on.
    pub summary: &'static str,
    /// The doc comment, one entry per line.
    pub doc_lines: &'static [&'static str],
    /// The mcp-lint version that added it.
    pub since: &'static str,
    /// Source file of the declaration, for `explain` and the docs.
    pub file: &'static str,
}

impl fmt::Debug for Lint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Lint({}/{})", self.code, self.name)
    }
}

impl PartialEq for Lint {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}
impl Eq for Lint {}

impl Lint {
    /// The docs as Markdown (the doc comment with its one-space indent removed).
    pub fn docs(&self) -> String {
        let mut out = String::new();
        for line in self.doc_lines {
            out.push_str(line.strip_prefix(' ').unwrap_or(line));
            out.push('\n');
        }
        out
    }

    /// `mcp_lint::<name>`, the form cargo JSON and SARIF use.
    pub fn qualified_name(&self) -> String {
        format!("mcp_lint::{}", self.name)
    }

    /// The section of the docs under `### <heading>`, without the heading.
    pub fn doc_section(&self, heading: &str) -> Option<String> {
        let docs = self.docs();
        let marker = format!("### {heading}");
        let start = docs.find(&marker)? + marker.len();
        let rest = &docs[start..];
        let end = rest.find("\n### ").unwrap_or(rest.len());
        Some(rest[..end].trim().to_string())
    }
}

/// What a selector names: one lint, a group, or everything.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selector {
    Lint(&'static Lint),
    Group(Group),
    All,
}

impl Selector {
    pub fn matches(self, lint: &Lint) -> bool {
        match self {
            Selector::Lint(l) => l.name == lint.name,
            Selector::Group(g) => lint.group == g,
            // `all` means the MCP lints, not mcp-lint's own bookkeeping (parse errors stay on).
            Selector::All => lint.group != Group::Meta,
        }
    }
}

/// The level of each lint in a run: its default unless set otherwise, keyed by lint name (set
/// by selector through `registry`, which knows which lints a group holds).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LintLevels {
    /// Lints whose level differs from their default.
    overrides: BTreeMap<&'static str, Level>,
}

impl LintLevels {
    pub fn get(&self, lint: &Lint) -> Level {
        self.overrides
            .get(lint.name)
            .copied()
            .unwrap_or(lint.default_level)
    }

    /// Set one lint's level.
    pub fn set_lint(&mut self, lint: &'static Lint, level: Level) {
        if level == lint.default_level {
            self.overrides.remove(lint.name);
        } else {
            self.overrides.insert(lint.name, level);
        }
    }

    pub fn is_enabled(&self, lint: &Lint) -> bool {
        self.get(lint) != Level::Allow
    }
}
