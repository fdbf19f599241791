//! Every lint, its group and default level, and lookup by name, code or group. The list itself
//! is derived from the declarations in `lints/` (see `crate::lints::ALL`); `rules`, `explain`,
//! the README table and SARIF rule descriptors all read it from here.

use std::fmt;

use crate::context::LintContext;

pub use crate::lint::{Group, Level, Lint, LintLevels, Selector};

impl Lint {
    /// Position in [`all`], for per-lint tables.
    pub fn index(&self) -> usize {
        all()
            .iter()
            .position(|l| l.name == self.name)
            .expect("every lint is registered")
    }
}

/// Every registered lint, in code order.
pub fn all() -> &'static [&'static Lint] {
    crate::lints::ALL
}

/// Every lint that has a check, with it, in code order.
pub(crate) fn checks() -> impl Iterator<Item = (&'static Lint, fn(&mut LintContext<'_>))> {
    all()
        .iter()
        .zip(crate::lints::CHECKS)
        .filter_map(|(lint, check)| Some((*lint, (*check)?)))
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

impl LintLevels {
    /// Set the level of every lint `selector` names.
    pub fn set(&mut self, selector: Selector, level: Level) {
        for lint in all().iter().copied().filter(|l| selector.matches(l)) {
            self.set_lint(lint, level);
        }
    }

    /// Parse `selector` and set its level; the error names the closest known selector.
    pub fn apply(&mut self, selector: &str, level: Level) -> Result<(), UnknownSelector> {
        self.set(Selector::parse(selector)?, level);
        Ok(())
    }
}
