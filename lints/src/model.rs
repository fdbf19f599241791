//! The semantic model of one crate, built once: parsed files, the crate index, the SDK dialect,
//! tool context and every error site. Lints only read it.

use std::path::PathBuf;
use std::sync::Arc;

use crate::diagnostic::Diagnostic;
use crate::options::{CrateInput, Options};
use crate::parse;
use crate::source::{FileRole, SourceFile, Span};

/// Index of a file in [`Model::files`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(pub usize);

pub struct ModelFile {
    pub path: PathBuf,
    pub role: FileRole,
    pub report: bool,
    /// `None` when the bytes are not UTF-8.
    pub source: Option<Arc<SourceFile>>,
    /// `None` when the file did not parse.
    pub syntax: Option<syn::File>,
    pub failure: Option<parse::ParseFailure>,
}

pub struct Model {
    pub files: Vec<ModelFile>,
}

impl Model {
    pub fn build(input: &CrateInput, _options: &Options) -> Model {
        let files = input
            .files
            .iter()
            .map(|f| {
                let (source, syntax, failure) = match parse::decode(&f.contents) {
                    Err(e) => (None, None, Some(e)),
                    Ok(text) => {
                        let source = Arc::new(SourceFile::new(f.path.clone(), text));
                        match parse::parse(&source) {
                            Ok(file) => (Some(source), Some(file), None),
                            Err(e) => (Some(source), None, Some(e)),
                        }
                    }
                };
                ModelFile {
                    path: f.path.clone(),
                    role: f.role,
                    report: f.report,
                    source,
                    syntax,
                    failure,
                }
            })
            .collect();
        Model { files }
    }

    /// One `parse_error` finding per file that could not be decoded or parsed.
    pub fn parse_failures(&self) -> Vec<(FileId, Diagnostic)> {
        let lint = &crate::lints::parse_error::LINT;
        self.files
            .iter()
            .enumerate()
            .filter_map(|(i, f)| {
                let failure = f.failure.as_ref()?;
                let span = match (&f.source, failure.at) {
                    (Some(src), Some((a, b))) => src.span(a, b),
                    _ => Span {
                        start_line: 1,
                        start_column: 1,
                        end_line: 1,
                        end_column: 1,
                        ..Span::default()
                    },
                };
                let d = Diagnostic::new(lint, span, failure.message.clone())
                    .with_note("mcp-lint skipped this file; every other file was still linted");
                Some((FileId(i), d))
            })
            .collect()
    }
}
