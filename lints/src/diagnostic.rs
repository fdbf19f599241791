//! What a lint reports: a finding with its level, span, message, help and (later) fix.

use std::path::PathBuf;

use crate::lint::{Level, Lint};
use crate::source::Span;

/// How sure a fix is, in rustc's words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Applicability {
    MachineApplicable,
    MaybeIncorrect,
    HasPlaceholders,
    Unspecified,
}

impl Applicability {
    pub fn as_str(self) -> &'static str {
        match self {
            Applicability::MachineApplicable => "MachineApplicable",
            Applicability::MaybeIncorrect => "MaybeIncorrect",
            Applicability::HasPlaceholders => "HasPlaceholders",
            Applicability::Unspecified => "Unspecified",
        }
    }
}

/// Replace bytes `start..end` of the file with `replacement`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    pub start: usize,
    pub end: usize,
    pub replacement: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    pub message: String,
    pub applicability: Applicability,
    pub edits: Vec<Edit>,
}

/// Another place that explains a finding: where a helper builds the error a call reports, or a
/// tool call site that reaches the helper a finding is at. Shown as a note in human output,
/// `related` in JSON, `relatedLocations` in SARIF, `relatedInformation` in LSP, child spans in
/// cargo's JSON.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Related {
    /// The file, as the analysis was given its path (it may be another file than the finding's).
    pub path: PathBuf,
    pub span: Span,
    pub message: String,
}

/// One finding in one file.
#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub lint: &'static Lint,
    /// The effective level: never `Allow` (allowed findings are dropped).
    pub level: Level,
    /// Primary span: the whole error-building expression (or the literal, for text lints).
    pub span: Span,
    pub message: String,
    /// Short text shown under the primary span.
    pub label: Option<String>,
    pub help: Option<String>,
    pub notes: Vec<String>,
    /// Other places that explain the finding, in the order they should be shown.
    pub related: Vec<Related>,
    pub fix: Option<Fix>,
}

impl Diagnostic {
    /// Is this mcp-lint's own failure (`internal_error`) rather than a finding about the code?
    pub fn is_internal_error(&self) -> bool {
        self.lint.name == crate::lints::internal_error::LINT.name
    }

    pub fn new(lint: &'static Lint, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            lint,
            level: lint.default_level,
            span,
            message: message.into(),
            label: None,
            help: None,
            notes: Vec::new(),
            related: Vec::new(),
            fix: None,
        }
    }

    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = Some(label.into());
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    pub fn with_related(
        mut self,
        path: impl Into<PathBuf>,
        span: Span,
        message: impl Into<String>,
    ) -> Self {
        self.related.push(Related {
            path: path.into(),
            span,
            message: message.into(),
        });
        self
    }

    pub fn is_error(&self) -> bool {
        self.level >= Level::Deny
    }
}
