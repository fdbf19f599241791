//! Every lint, its group and default level, and lookup by name, code or group. The list itself
//! is derived from the declarations in `lints/` (see `crate::lints::ALL`); `rules`, `explain`,
//! the README table and SARIF rule descriptors all read it from here.

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

/// A declared lint. Built by [`declare_lint!`](crate::declare_lint).
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
    pub(crate) check: Option<fn(&mut crate::LintContext<'_>)>,
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

    /// Position in [`all`], for per-lint tables.
    pub fn index(&self) -> usize {
        all()
            .iter()
            .position(|l| l.name == self.name)
            .expect("every lint is registered")
    }
}

/// Declares a lint: its docs (as `///` lines), name, code, group, default level and check.
///
/// ```ignore
/// declare_lint! {
///     /// ### What it does
///     /// ...
///     pub LINT,
///     name: "tool_failure_as_protocol_error",
///     code: "MCP001",
///     group: Correctness,
///     level: Deny,
///     summary: "a tool's own failure sent as a JSON-RPC error",
///     since: "0.1.0",
///     check: check,
/// }
/// ```
#[macro_export]
macro_rules! declare_lint {
    (
        $(#[doc = $doc:expr])*
        pub $ident:ident,
        name: $name:literal,
        code: $code:literal,
        group: $group:ident,
        level: $level:ident,
        summary: $summary:literal,
        since: $since:literal,
        check: $check:expr $(,)?
    ) => {
        pub static $ident: $crate::registry::Lint = $crate::registry::Lint {
            name: $name,
            code: $code,
            group: $crate::registry::Group::$group,
            default_level: $crate::registry::Level::$level,
            summary: $summary,
            doc_lines: &[$($doc),*],
            since: $since,
            file: file!(),
            check: $check,
        };
    };
}

/// Every registered lint, in code order.
pub fn all() -> &'static [&'static Lint] {
    crate::lints::ALL
}

/// Look a lint up by name (with or without `mcp_lint::`) or code (any case).
pub fn find(selector: &str) -> Option<&'static Lint> {
    let s = selector.trim();
    let s = s.strip_prefix("mcp_lint::").unwrap_or(s);
    all()
        .iter()
        .copied()
        .find(|l| l.name == s || l.code.eq_ignore_ascii_case(s) || l.name == s.replace('-', "_"))
}

/// What a selector names: one lint, a group, or everything.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selector {
    Lint(&'static Lint),
    Group(Group),
    All,
}

impl Selector {
    pub fn parse(selector: &str) -> Result<Selector, UnknownSelector> {
        let s = selector.trim();
        let bare = s.strip_prefix("mcp_lint::").unwrap_or(s);
        if bare == "all" {
            return Ok(Selector::All);
        }
        if let Some(g) = Group::ALL.iter().find(|g| g.as_str() == bare) {
            return Ok(Selector::Group(*g));
        }
        find(s).map(Selector::Lint).ok_or_else(|| UnknownSelector {
            given: selector.to_string(),
            suggestion: suggest(bare),
        })
    }

    pub fn matches(self, lint: &Lint) -> bool {
        match self {
            Selector::Lint(l) => l.name == lint.name,
            Selector::Group(g) => lint.group == g,
            // `all` means the MCP lints, not mcp-lint's own bookkeeping (parse errors stay on).
            Selector::All => lint.group != Group::Meta,
        }
    }
}

/// An unknown lint name, code or group, with the closest known one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownSelector {
    pub given: String,
    pub suggestion: Option<String>,
}

impl fmt::Display for UnknownSelector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown lint, code or group `{}`", self.given)?;
        if let Some(s) = &self.suggestion {
            write!(f, " (did you mean `{s}`?)")?;
        }
        Ok(())
    }
}

impl std::error::Error for UnknownSelector {}

/// The closest known name among `candidates` to `given`, if any is close enough.
pub fn did_you_mean<'a>(
    given: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    candidates
        .into_iter()
        .map(|c| (strsim::jaro_winkler(given, c), c))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c.to_string())
}

fn suggest(given: &str) -> Option<String> {
    let names = all().iter().flat_map(|l| [l.name, l.code]);
    let groups = Group::ALL.iter().map(|g| g.as_str());
    did_you_mean(given, names.chain(groups).chain(["all"]))
}

/// The level of every lint, indexed like [`all`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LintLevels {
    levels: Vec<Level>,
}

impl Default for LintLevels {
    fn default() -> Self {
        LintLevels {
            levels: all().iter().map(|l| l.default_level).collect(),
        }
    }
}

impl LintLevels {
    pub fn get(&self, lint: &Lint) -> Level {
        self.levels[lint.index()]
    }

    pub fn set(&mut self, selector: Selector, level: Level) {
        for (i, lint) in all().iter().enumerate() {
            if selector.matches(lint) {
                self.levels[i] = level;
            }
        }
    }

    /// Parse `selector` and set its level; the error names the closest known selector.
    pub fn apply(&mut self, selector: &str, level: Level) -> Result<(), UnknownSelector> {
        self.set(Selector::parse(selector)?, level);
        Ok(())
    }

    pub fn is_enabled(&self, lint: &Lint) -> bool {
        self.get(lint) != Level::Allow
    }
}
