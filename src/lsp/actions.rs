//! Quick fixes for our diagnostics, built from the `data` each one carries: the finding's fix
//! (when it has one), and a suppression comment above the finding's line.
//!
//! The suppression never writes a reason for the user: a placeholder reason would silence
//! `suppression_without_reason` with words nobody meant. It inserts `// mcp-lint: allow(<lint>) `
//! and puts the cursor where the reason goes, as a snippet tab stop when the client takes
//! snippet edits, else through `window/showDocument` after the edit. Until a reason is written,
//! `suppression_without_reason` marks the line.

use std::collections::HashMap;

use lsp_types::{
    CodeAction, CodeActionKind, Command, DocumentChanges, OneOf,
    OptionalVersionedTextDocumentIdentifier, Position, TextDocumentEdit, TextEdit, WorkspaceEdit,
};
use serde_json::{json, Value};

use super::convert::{self, DiagnosticData, SuppressData};
use super::document::Document;

/// The command that puts the cursor where a suppression's reason goes.
pub const PLACE_CURSOR: &str = "mcp-lint.placeCursor";

/// What the client can do with a code action's edit.
#[derive(Clone, Copy, Debug, Default)]
pub struct EditCaps {
    /// `workspace.workspaceEdit.documentChanges`: versioned edits, refused when stale.
    pub document_changes: bool,
    /// `workspace.workspaceEdit.snippetEditSupport` (LSP 3.18): snippet text edits.
    pub snippet_edits: bool,
    /// `window.showDocument.support`.
    pub show_document: bool,
}

/// Our `data`, when `d` is one of our diagnostics for the document's current version.
pub fn data_of(d: &lsp_types::Diagnostic, doc: &Document) -> Option<DiagnosticData> {
    if d.source.as_deref() != Some(convert::SOURCE) {
        return None;
    }
    let data: DiagnosticData = serde_json::from_value(d.data.clone()?).ok()?;
    (data.version == doc.version).then_some(data)
}

/// The quick fixes for `diagnostics` (ours, on `doc`), as JSON code actions: fixes first,
/// then one suppression per lint and line.
pub fn code_actions(
    doc: &Document,
    diagnostics: &[lsp_types::Diagnostic],
    caps: EditCaps,
) -> Vec<Value> {
    let mut fixes = Vec::new();
    let mut suppressions: Vec<(String, u32, Value)> = Vec::new();
    for d in diagnostics {
        let Some(data) = data_of(d, doc) else {
            continue;
        };
        if let Some(fix) = data.fix.filter(|f| convert::offered(&f.applicability)) {
            let action = CodeAction {
                title: fix.title,
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![d.clone()]),
                edit: Some(workspace_edit(doc, fix.edits, caps)),
                is_preferred: Some(fix.applicability == "MachineApplicable"),
                ..CodeAction::default()
            };
            fixes.extend(serde_json::to_value(action).ok());
        }
        if let Some(s) = data.suppress {
            let seen = suppressions
                .iter()
                .any(|(lint, line, _)| *lint == s.lint && *line == s.position.line);
            if !seen {
                let action = suppress_action(doc, d, &s, caps);
                suppressions.push((s.lint, s.position.line, action));
            }
        }
    }
    fixes
        .into_iter()
        .chain(suppressions.into_iter().map(|(_, _, a)| a))
        .collect()
}

fn suppress_action(
    doc: &Document,
    d: &lsp_types::Diagnostic,
    s: &SuppressData,
    caps: EditCaps,
) -> Value {
    let snippet = caps.snippet_edits && caps.document_changes;
    let command = (!snippet && caps.show_document).then(|| Command {
        title: "Put the cursor where the reason goes".to_string(),
        command: PLACE_CURSOR.to_string(),
        arguments: Some(vec![json!(doc.uri), json!(s.cursor)]),
    });
    let action = CodeAction {
        title: format!("Suppress `{}` on this line (then write why)", s.lint),
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: Some(vec![d.clone()]),
        edit: Some(workspace_edit(doc, vec![s.edit()], caps)),
        command,
        ..CodeAction::default()
    };
    let mut value = serde_json::to_value(action).unwrap_or(Value::Null);
    if snippet {
        // LSP 3.18's SnippetTextEdit, which lsp-types does not model: `$0` is the final cursor.
        value["edit"] = json!({
            "documentChanges": [{
                "textDocument": { "uri": doc.uri, "version": doc.version },
                "edits": [{
                    "range": { "start": s.position, "end": s.position },
                    "snippet": {
                        "kind": "snippet",
                        "value": format!("{}$0{}", escape_snippet(&s.directive), s.eol),
                    },
                }],
            }],
        });
    }
    value
}

/// `edits` to `doc`, versioned when the client takes document changes (so a client whose text
/// has moved on refuses them instead of applying them in the wrong place).
fn workspace_edit(doc: &Document, edits: Vec<TextEdit>, caps: EditCaps) -> WorkspaceEdit {
    if caps.document_changes {
        WorkspaceEdit {
            document_changes: Some(DocumentChanges::Edits(vec![TextDocumentEdit {
                text_document: OptionalVersionedTextDocumentIdentifier {
                    uri: doc.uri.clone(),
                    version: Some(doc.version),
                },
                edits: edits.into_iter().map(OneOf::Left).collect(),
            }])),
            ..WorkspaceEdit::default()
        }
    } else {
        WorkspaceEdit {
            changes: Some(HashMap::from([(doc.uri.clone(), edits)])),
            ..WorkspaceEdit::default()
        }
    }
}

/// Escape `$`, `}` and `\` for snippet syntax.
fn escape_snippet(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '$' | '}' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The arguments of [`PLACE_CURSOR`]: the document and the position.
pub fn place_cursor_args(arguments: &[Value]) -> Option<(lsp_types::Url, Position)> {
    let uri = serde_json::from_value(arguments.first()?.clone()).ok()?;
    let position = serde_json::from_value(arguments.get(1)?.clone()).ok()?;
    Some((uri, position))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsp::document::Encoding;
    use lints::{Applicability, Edit, Fix, SourceFile};
    use lsp_types::Url;
    use std::path::Path;

    const TEXT: &str = "fn f() {\n    let r = Err(McpError::internal_error(\"x\", None));\n}\n";
    const NEEDLE: &str = "Err(McpError::internal_error(\"x\", None))";

    fn doc() -> Document {
        Document::new(
            Url::parse("file:///p/src/lib.rs").expect("uri"),
            3,
            TEXT.into(),
        )
    }

    fn published(applicability: Option<Applicability>) -> lsp_types::Diagnostic {
        let start = TEXT.find(NEEDLE).expect("needle");
        let end = start + NEEDLE.len();
        let span = SourceFile::new("lib.rs".into(), TEXT.into()).span(start, end);
        let mut d = lints::Diagnostic::new(
            &lints::lints::tool_failure_as_protocol_error::LINT,
            span,
            "a tool failure as a protocol error",
        );
        d.fix = applicability.map(|applicability| Fix {
            message: "return the failure as an error result".into(),
            applicability,
            edits: vec![Edit {
                start,
                end,
                replacement: "Ok(CallToolResult::error(vec![ContentBlock::text(\"x\")]))".into(),
            }],
        });
        let doc = doc();
        let mut files = convert::RelatedFiles::new(true, Path::new("/"), [&doc]);
        convert::diagnostic(&d, &doc, Encoding::Utf16, &mut files)
    }

    fn caps(document_changes: bool, snippet_edits: bool, show_document: bool) -> EditCaps {
        EditCaps {
            document_changes,
            snippet_edits,
            show_document,
        }
    }

    #[test]
    fn a_fix_becomes_a_quick_fix_preferred_when_machine_applicable() {
        let d = published(Some(Applicability::MachineApplicable));
        let actions = code_actions(&doc(), std::slice::from_ref(&d), caps(false, false, false));
        assert_eq!(actions.len(), 2, "{actions:#?}");
        let fix = &actions[0];
        assert_eq!(fix["title"], "return the failure as an error result");
        assert_eq!(fix["kind"], "quickfix");
        assert_eq!(fix["isPreferred"], true);
        assert_eq!(
            fix["diagnostics"][0]["code"],
            "tool_failure_as_protocol_error"
        );
        let edits = &fix["edit"]["changes"]["file:///p/src/lib.rs"];
        assert_eq!(
            edits,
            &json!([{
                "range": { "start": { "line": 1, "character": 12 }, "end": { "line": 1, "character": 52 } },
                "newText": "Ok(CallToolResult::error(vec![ContentBlock::text(\"x\")]))",
            }])
        );

        let maybe = code_actions(
            &doc(),
            &[published(Some(Applicability::MaybeIncorrect))],
            caps(true, false, false),
        );
        assert_eq!(maybe[0]["isPreferred"], false);
        assert_eq!(
            maybe[0]["edit"]["documentChanges"][0]["textDocument"]["version"],
            3
        );
        let placeholders = code_actions(
            &doc(),
            &[published(Some(Applicability::HasPlaceholders))],
            caps(false, false, false),
        );
        assert_eq!(placeholders.len(), 1, "only the suppression");
    }

    #[test]
    fn the_suppression_inserts_the_directive_and_places_the_cursor() {
        let d = published(None);
        let directive = "    // mcp-lint: allow(tool_failure_as_protocol_error) ";
        let plain = code_actions(&doc(), &[d.clone(), d.clone()], caps(false, false, true));
        assert_eq!(plain.len(), 1, "one suppression per lint and line");
        let action = &plain[0];
        assert_eq!(
            action["title"],
            "Suppress `tool_failure_as_protocol_error` on this line (then write why)"
        );
        assert_eq!(action.get("isPreferred"), None);
        assert_eq!(
            action["edit"]["changes"]["file:///p/src/lib.rs"],
            json!([{
                "range": { "start": { "line": 1, "character": 0 }, "end": { "line": 1, "character": 0 } },
                "newText": format!("{directive}\n"),
            }])
        );
        assert_eq!(action["command"]["command"], PLACE_CURSOR);
        let args = action["command"]["arguments"].as_array().expect("args");
        let (uri, cursor) = place_cursor_args(args).expect("our arguments");
        assert_eq!(uri.as_str(), "file:///p/src/lib.rs");
        assert_eq!(cursor, Position::new(1, directive.len() as u32));

        let snippet = code_actions(&doc(), std::slice::from_ref(&d), caps(true, true, true));
        assert_eq!(snippet[0].get("command"), None);
        assert_eq!(
            snippet[0]["edit"]["documentChanges"][0]["edits"][0]["snippet"],
            json!({ "kind": "snippet", "value": format!("{directive}$0\n") })
        );

        let bare = code_actions(&doc(), &[d], caps(true, false, false));
        assert_eq!(bare[0].get("command"), None);
        assert_eq!(
            bare[0]["edit"]["documentChanges"][0]["edits"][0]["newText"],
            format!("{directive}\n")
        );
    }

    #[test]
    fn stale_and_foreign_diagnostics_get_no_actions() {
        let mut stale = published(None);
        stale.data.as_mut().expect("data")["version"] = json!(2);
        let mut foreign = published(None);
        foreign.source = Some("rustc".into());
        let mut garbage = published(None);
        garbage.data = Some(json!("x"));
        let actions = code_actions(&doc(), &[stale, foreign, garbage], caps(true, true, true));
        assert!(actions.is_empty(), "{actions:#?}");
        assert_eq!(escape_snippet("a$b}c\\"), "a\\$b\\}c\\\\");
    }
}
