//! What a lint's check is given: the crate's model, the run's options, and where it reports.

use crate::diagnostic::Diagnostic;
use crate::lint::Lint;
use crate::model::{self, FileId, Model};
use crate::options::{Options, ProtocolVersion};
use crate::source::Span;

/// The protocol version a finding is judged against, and whether the server's source said it.
#[derive(Clone, Copy, Debug)]
pub struct Target<'m> {
    pub version: ProtocolVersion,
    /// Where the server declares it, when the user set no target (see
    /// [`LintContext::target`]).
    declared_at: Option<(&'m std::path::Path, Span)>,
}

impl Target<'_> {
    /// For a finding the version decides: that the target was read from the server's source,
    /// and where (`None` when the user set it, or nothing declared one).
    pub fn note(&self) -> Option<String> {
        let (path, span) = self.declared_at?;
        Some(format!(
            "judged against {}, the protocolVersion this server declares ({}:{}); set `target-protocol` to override",
            self.version,
            path.display(),
            span.start_line
        ))
    }
}

/// What a lint's check sees and where it reports.
pub struct LintContext<'a> {
    pub model: &'a Model,
    pub options: &'a Options,
    lint: &'static Lint,
    found: Vec<(FileId, Diagnostic)>,
}

impl<'a> LintContext<'a> {
    pub(crate) fn new(model: &'a Model, options: &'a Options, lint: &'static Lint) -> Self {
        LintContext {
            model,
            options,
            lint,
            found: Vec::new(),
        }
    }

    /// What the check reported, by file.
    pub(crate) fn into_found(self) -> Vec<(FileId, Diagnostic)> {
        self.found
    }

    pub fn lint(&self) -> &'static Lint {
        self.lint
    }

    /// The protocol version findings in `file` are judged against: the one the user set
    /// (config, command line), else the newest the file's server declares in its source (a
    /// hand-rolled server's `initialize` answer, see [`Model::declared_protocol`]), else the
    /// latest.
    pub fn target(&self, file: FileId) -> Target<'a> {
        if let Some(version) = self.options.target_protocol {
            return Target {
                version,
                declared_at: None,
            };
        }
        let model: &'a Model = self.model;
        match model.declared_protocol(file) {
            Some(d) => Target {
                version: d.version,
                declared_at: Some((model.files[d.file.0].path.as_path(), d.span)),
            },
            None => Target {
                version: ProtocolVersion::LATEST,
                declared_at: None,
            },
        }
    }

    /// The fix `build` makes for a finding in `file`, built only when that file's findings are
    /// reported: the others (a crate's files read for context, the files an editor does not
    /// show) are dropped with their fixes, and building fixes is much of a lint's cost.
    pub fn fix_in(
        &self,
        file: FileId,
        build: impl FnOnce() -> Option<crate::diagnostic::Fix>,
    ) -> Option<crate::diagnostic::Fix> {
        let reported = self.model.files.get(file.0).is_none_or(|f| f.is_reported());
        if reported {
            build()
        } else {
            None
        }
    }

    /// Report a finding of the running lint.
    pub fn report(&mut self, file: FileId, diagnostic: Diagnostic) {
        debug_assert_eq!(diagnostic.lint.name, self.lint.name);
        self.found.push((file, diagnostic));
    }

    /// A finding at an error site, with the site's related locations (where a helper builds it,
    /// the tool calls that reach it).
    pub fn site_diagnostic(
        &self,
        site: &model::site::ErrorSite,
        message: impl Into<String>,
    ) -> Diagnostic {
        self.with_related(
            Diagnostic::new(self.lint, site.span, message),
            &site.related,
        )
    }

    /// A finding at a code site, with its related locations (the uses of a const reported at
    /// its definition).
    pub fn code_diagnostic(
        &self,
        site: &model::site::CodeSite,
        message: impl Into<String>,
    ) -> Diagnostic {
        self.with_related(
            Diagnostic::new(self.lint, site.span, message),
            &site.related,
        )
    }

    /// A finding at `span` with other places that explain it.
    pub fn related_diagnostic(
        &self,
        span: Span,
        message: impl Into<String>,
        related: &[(FileId, Span, String)],
    ) -> Diagnostic {
        self.with_related(Diagnostic::new(self.lint, span, message), related)
    }

    fn with_related(&self, mut d: Diagnostic, related: &[(FileId, Span, String)]) -> Diagnostic {
        for (file, span, note) in related {
            let path = self.model.files[file.0].path.clone();
            d = d.with_related(path, *span, note.clone());
        }
        d
    }

    /// A finding of the running lint at `span`, to be refined with `with_help` etc.
    pub fn diagnostic(&self, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(self.lint, span, message)
    }
}
