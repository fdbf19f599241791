//! `mcp-lint server`: a language server over stdio (rust-analyzer's `lsp-server` and
//! `lsp-types`, as `ruff server` does).
//!
//! It lints the crate each open document belongs to, from the in-memory text of every open
//! document of that crate, and publishes diagnostics for all of them; it offers quick fixes from
//! each finding's fix and a suppression comment; it re-reads `mcp-lint.toml` and Cargo.toml when
//! they change. Linting runs after a short pause in edits (and before any request is answered,
//! so code actions see the current text). Nothing but protocol goes to stdout; the log goes to
//! the client (`window/logMessage`), and warnings and errors also to stderr. A panic while
//! handling a message is logged and the server goes on.

mod actions;
mod convert;
mod document;
pub mod framing;
mod lint;

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{self as notif, Notification as _};
use lsp_types::request::{self as req, Request as _};
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionParams, CodeActionProviderCapability,
    DidChangeTextDocumentParams, DidChangeWatchedFilesParams,
    DidChangeWatchedFilesRegistrationOptions, DidChangeWorkspaceFoldersParams,
    DidCloseTextDocumentParams, DidOpenTextDocumentParams, DidSaveTextDocumentParams,
    ExecuteCommandOptions, ExecuteCommandParams, FileSystemWatcher, GlobPattern, InitializeResult,
    LogMessageParams, MessageType, PublishDiagnosticsParams, Range, Registration,
    RegistrationParams, SaveOptions, ServerCapabilities, ServerInfo, ShowDocumentParams,
    ShowMessageParams, TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
    TextDocumentSyncSaveOptions, Url, WorkspaceFoldersServerCapabilities,
    WorkspaceServerCapabilities,
};
use serde_json::Value;

use crate::workspace::config::CONFIG_FILE;
use crate::workspace::kept::Kept;
use crate::workspace::manifest::Manifests;
use actions::EditCaps;
use document::{Document, Encoding};
use lint::CrateKey;

/// Lint this long after the last edit…
const DEBOUNCE: Duration = Duration::from_millis(50);
/// …but no later than this after the first unlinted edit, even while edits keep coming.
const MAX_DELAY: Duration = Duration::from_millis(300);

/// Run the server on stdin/stdout until the client says `exit`. The exit code is 0 after a
/// `shutdown` request, else 1, as the specification asks.
pub fn run() -> i32 {
    let (connection, io_threads) = framing::stdio();
    let code = match serve(&connection) {
        Ok(code) => code,
        Err(e) => {
            stderr_line(&e);
            return 1;
        }
    };
    drop(connection);
    if let Err(e) = io_threads.join() {
        stderr_line(&e);
    }
    code
}

/// The handshake, then the main loop; `Ok` carries the exit code.
fn serve(connection: &Connection) -> Result<i32, String> {
    let (id, params) = connection.initialize_start().map_err(|e| e.to_string())?;
    let client = ClientInfo::from_initialize(&params);
    let result = InitializeResult {
        capabilities: capabilities(client.encoding),
        server_info: Some(ServerInfo {
            name: "mcp-lint".to_string(),
            version: Some(env!("CARGO_PKG_VERSION").to_string()),
        }),
    };
    let result = serde_json::to_value(result).map_err(|e| e.to_string())?;
    connection
        .initialize_finish(id, result)
        .map_err(|e| e.to_string())?;
    let mut server = Server::new(connection, client);
    server.log(
        MessageType::INFO,
        &format!(
            "mcp-lint {} started; workspace folders: {}",
            env!("CARGO_PKG_VERSION"),
            server.folders_text()
        ),
    );
    server.register_watchers();
    Ok(server.main_loop())
}

fn capabilities(encoding: Encoding) -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(encoding.kind()),
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::INCREMENTAL),
                save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                    include_text: Some(false),
                })),
                ..TextDocumentSyncOptions::default()
            },
        )),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![CodeActionKind::QUICKFIX]),
            ..CodeActionOptions::default()
        })),
        execute_command_provider: Some(ExecuteCommandOptions {
            commands: vec![actions::PLACE_CURSOR.to_string()],
            ..ExecuteCommandOptions::default()
        }),
        workspace: Some(WorkspaceServerCapabilities {
            workspace_folders: Some(WorkspaceFoldersServerCapabilities {
                supported: Some(true),
                change_notifications: Some(lsp_types::OneOf::Left(true)),
            }),
            file_operations: None,
        }),
        ..ServerCapabilities::default()
    }
}

/// What the client told us in `initialize`, read leniently from the raw JSON (a client that
/// sends an unexpected shape for one capability still gets the others).
#[derive(Debug)]
struct ClientInfo {
    encoding: Encoding,
    edits: EditCaps,
    /// Can we register file watchers at run time?
    dynamic_watchers: bool,
    /// Does the client show a diagnostic's `relatedInformation`?
    related_information: bool,
    folders: Vec<PathBuf>,
}

impl ClientInfo {
    fn from_initialize(params: &Value) -> ClientInfo {
        let flag = |pointer: &str| params.pointer(pointer).and_then(Value::as_bool) == Some(true);
        let offered: Vec<String> = params
            .pointer("/capabilities/general/positionEncodings")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|e| e.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        let mut folders: Vec<PathBuf> = params
            .get("workspaceFolders")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|f| folder_path(f.get("uri")?))
                    .collect()
            })
            .unwrap_or_default();
        if folders.is_empty() {
            // Clients older than workspace folders send `rootUri` (or the deprecated `rootPath`).
            let root = params
                .get("rootUri")
                .and_then(folder_path)
                .or_else(|| params.get("rootPath")?.as_str().map(PathBuf::from))
                .filter(|p| p.is_absolute());
            folders.extend(root.map(|p| crate::workspace::paths::normalize(&p)));
        }
        ClientInfo {
            encoding: Encoding::negotiate(&offered),
            edits: EditCaps {
                document_changes: flag("/capabilities/workspace/workspaceEdit/documentChanges"),
                snippet_edits: flag("/capabilities/workspace/workspaceEdit/snippetEditSupport"),
                show_document: flag("/capabilities/window/showDocument/support"),
            },
            dynamic_watchers: flag(
                "/capabilities/workspace/didChangeWatchedFiles/dynamicRegistration",
            ),
            related_information: flag(
                "/capabilities/textDocument/publishDiagnostics/relatedInformation",
            ),
            folders,
        }
    }
}

/// The directory of a `file:` URI (in JSON); `None` for other schemes and malformed URIs.
fn folder_path(uri: &Value) -> Option<PathBuf> {
    let uri: Url = serde_json::from_value(uri.clone()).ok()?;
    file_path(&uri)
}

fn file_path(uri: &Url) -> Option<PathBuf> {
    uri.to_file_path()
        .ok()
        .map(|p| crate::workspace::paths::normalize(&p))
}

/// Documents whose crates need linting.
#[derive(Debug, Default)]
struct Dirty {
    all: bool,
    paths: BTreeSet<PathBuf>,
    first: Option<Instant>,
    last: Option<Instant>,
}

impl Dirty {
    fn touch(&mut self) {
        let now = Instant::now();
        self.first.get_or_insert(now);
        self.last = Some(now);
    }

    fn path(&mut self, path: &Path) {
        self.paths.insert(path.to_path_buf());
        self.touch();
    }

    fn everything(&mut self) {
        self.all = true;
        self.touch();
    }

    fn is_empty(&self) -> bool {
        !self.all && self.paths.is_empty()
    }

    /// How long to wait for more edits before linting.
    fn wait(&self) -> Duration {
        let now = Instant::now();
        let deadline = match (self.first, self.last) {
            (Some(first), Some(last)) => (last + DEBOUNCE).min(first + MAX_DELAY),
            _ => now,
        };
        deadline.saturating_duration_since(now)
    }
}

/// Does a change to this file change the configuration?
fn is_config_file(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| n == CONFIG_FILE || n == "Cargo.toml")
}

fn is_rust_file(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "rs")
}

struct Server<'c> {
    connection: &'c Connection,
    client: ClientInfo,
    documents: HashMap<Url, Document>,
    /// What we last published per document, for code actions when the client sends no
    /// diagnostics of ours in the request's context.
    published: HashMap<Url, Vec<lsp_types::Diagnostic>>,
    dirty: Dirty,
    /// Messages already shown with `window/showMessage`, shown again only after the
    /// configuration changes.
    shown: HashSet<String>,
    next_id: i32,
    shutdown_requested: bool,
    /// Where crates are analysed, keeping their parsed files between edits.
    analyst: lint::Analyst,
    /// Per crate with open documents: its discovery and the files read, for the next analysis.
    kept: HashMap<CrateKey, Kept>,
}

impl<'c> Server<'c> {
    fn new(connection: &'c Connection, client: ClientInfo) -> Server<'c> {
        Server {
            connection,
            client,
            documents: HashMap::new(),
            published: HashMap::new(),
            dirty: Dirty::default(),
            shown: HashSet::new(),
            next_id: 0,
            shutdown_requested: false,
            analyst: lint::Analyst::start(),
            kept: HashMap::new(),
        }
    }

    /// Handle messages until `exit` (or until the client goes away); returns the exit code.
    fn main_loop(&mut self) -> i32 {
        loop {
            let message = if self.dirty.is_empty() {
                self.connection.receiver.recv().ok()
            } else {
                match self.connection.receiver.recv_timeout(self.dirty.wait()) {
                    Ok(message) => Some(message),
                    Err(e) if e.is_timeout() => {
                        self.guarded("linting", |s| s.lint_dirty());
                        continue;
                    }
                    Err(_) => None,
                }
            };
            let Some(message) = message else {
                stderr_line("the client closed the connection without `exit`");
                return 1;
            };
            match message {
                Message::Request(request) => self.request(request),
                Message::Notification(n) if n.method == notif::Exit::METHOD => {
                    return if self.shutdown_requested { 0 } else { 1 };
                }
                Message::Notification(n) => {
                    let method = n.method.clone();
                    self.guarded(&method, |s| s.notification(n));
                }
                Message::Response(response) => {
                    if let Some(error) = response.error {
                        self.log(
                            MessageType::WARNING,
                            &format!(
                                "the client answered request {}: {}",
                                response.id, error.message
                            ),
                        );
                    }
                }
            }
        }
    }

    /// Run `f`; a panic is logged and the server goes on.
    fn guarded(&mut self, what: &str, f: impl FnOnce(&mut Self)) -> bool {
        match catch_unwind(AssertUnwindSafe(|| f(self))) {
            Ok(()) => true,
            Err(panic) => {
                self.log(
                    MessageType::ERROR,
                    &format!(
                        "mcp-lint failed while handling {what}: {}",
                        panic_text(&panic)
                    ),
                );
                false
            }
        }
    }

    fn request(&mut self, request: Request) {
        let id = request.id.clone();
        if self.shutdown_requested {
            self.respond(Response::new_err(
                id,
                ErrorCode::InvalidRequest as i32,
                "the server is shutting down".to_string(),
            ));
            return;
        }
        // Answer from the current text: lint what is pending first.
        self.guarded("linting", |s| s.lint_dirty());
        let method = request.method.clone();
        let mut response = None;
        let ok = self.guarded(&method, |s| response = Some(s.handle_request(request)));
        let response = match response {
            Some(r) if ok => r,
            _ => Response::new_err(
                id,
                ErrorCode::InternalError as i32,
                format!("mcp-lint failed while handling {method}; see the server log"),
            ),
        };
        self.respond(response);
    }

    fn handle_request(&mut self, request: Request) -> Response {
        let id = request.id.clone();
        let result = match request.method.as_str() {
            req::Shutdown::METHOD => {
                self.shutdown_requested = true;
                Ok(Value::Null)
            }
            req::CodeActionRequest::METHOD => parse::<CodeActionParams>(request.params)
                .map(|p| Value::Array(self.code_actions(p))),
            req::ExecuteCommand::METHOD => {
                parse::<ExecuteCommandParams>(request.params).and_then(|p| self.execute_command(p))
            }
            other => Err((
                ErrorCode::MethodNotFound,
                format!("mcp-lint does not handle {other}"),
            )),
        };
        match result {
            Ok(value) => Response::new_ok(id, value),
            Err((code, message)) => Response::new_err(id, code as i32, message),
        }
    }

    fn notification(&mut self, n: Notification) {
        match n.method.as_str() {
            notif::DidOpenTextDocument::METHOD => {
                let Some(p) = self.params::<DidOpenTextDocumentParams>(&n) else {
                    return;
                };
                let doc = Document::new(
                    p.text_document.uri,
                    p.text_document.version,
                    p.text_document.text,
                );
                let is_rust = p.text_document.language_id == "rust"
                    || doc.path.as_deref().is_some_and(is_rust_file);
                if !is_rust {
                    return;
                }
                if let Some(path) = &doc.path {
                    self.dirty.path(path);
                }
                self.documents.insert(doc.uri.clone(), doc);
            }
            notif::DidChangeTextDocument::METHOD => {
                let Some(p) = self.params::<DidChangeTextDocumentParams>(&n) else {
                    return;
                };
                let encoding = self.client.encoding;
                let Some(doc) = self.documents.get_mut(&p.text_document.uri) else {
                    return;
                };
                doc.apply_changes(p.text_document.version, p.content_changes, encoding);
                if let Some(path) = doc.path.clone() {
                    self.dirty.path(&path);
                }
            }
            notif::DidSaveTextDocument::METHOD => {
                let Some(p) = self.params::<DidSaveTextDocumentParams>(&n) else {
                    return;
                };
                let Some(path) = file_path(&p.text_document.uri) else {
                    return;
                };
                if is_config_file(&path) {
                    self.config_changed(&path);
                } else if self.documents.contains_key(&p.text_document.uri) {
                    self.dirty.path(&path);
                }
            }
            notif::DidCloseTextDocument::METHOD => {
                let Some(p) = self.params::<DidCloseTextDocumentParams>(&n) else {
                    return;
                };
                if let Some(doc) = self.documents.remove(&p.text_document.uri) {
                    self.publish(&doc.uri, None, Vec::new());
                    // The rest of its crate now reads the file from disk.
                    if let Some(path) = &doc.path {
                        self.dirty.path(path);
                    }
                }
            }
            notif::DidChangeWatchedFiles::METHOD => {
                let Some(p) = self.params::<DidChangeWatchedFilesParams>(&n) else {
                    return;
                };
                for change in p.changes {
                    let Some(path) = file_path(&change.uri) else {
                        continue;
                    };
                    if is_config_file(&path) {
                        self.config_changed(&path);
                    } else if is_rust_file(&path) && !self.documents.contains_key(&change.uri) {
                        // A file the open documents' crates read from disk.
                        self.dirty.path(&path);
                    }
                }
            }
            notif::DidChangeWorkspaceFolders::METHOD => {
                let Some(p) = self.params::<DidChangeWorkspaceFoldersParams>(&n) else {
                    return;
                };
                for removed in p.event.removed {
                    if let Some(path) = file_path(&removed.uri) {
                        self.client.folders.retain(|f| *f != path);
                    }
                }
                for added in p.event.added {
                    if let Some(path) = file_path(&added.uri) {
                        if !self.client.folders.contains(&path) {
                            self.client.folders.push(path);
                        }
                    }
                }
                self.log(
                    MessageType::INFO,
                    &format!("workspace folders: {}", self.folders_text()),
                );
                self.dirty.everything();
            }
            _ => {}
        }
    }

    /// A notification's parameters; malformed ones are logged and the notification dropped.
    fn params<P: serde::de::DeserializeOwned>(&self, n: &Notification) -> Option<P> {
        match parse::<P>(n.params.clone()) {
            Ok(p) => Some(p),
            Err((_, message)) => {
                self.log(MessageType::WARNING, &format!("{}: {message}", n.method));
                None
            }
        }
    }

    fn config_changed(&mut self, path: &Path) {
        self.log(
            MessageType::INFO,
            &format!("{} changed; re-reading the configuration", path.display()),
        );
        self.shown.clear();
        self.dirty.everything();
    }

    /// Should this document be linted? Files outside the workspace folders (dependency sources
    /// opened by go-to-definition, for example) are not, unless the client named no folder.
    fn in_workspace(&self, path: &Path) -> bool {
        self.client.folders.is_empty() || self.client.folders.iter().any(|f| path.starts_with(f))
    }

    /// The directory paths in messages are relative to: the innermost workspace folder
    /// containing the crate, else the crate's own directory.
    fn cwd_for(&self, key: &CrateKey) -> PathBuf {
        self.client
            .folders
            .iter()
            .filter(|f| key.dir().starts_with(f))
            .max_by_key(|f| f.components().count())
            .cloned()
            .unwrap_or_else(|| key.dir().to_path_buf())
    }

    /// Lint every crate with a pending change that has open documents, and publish.
    fn lint_dirty(&mut self) {
        if self.dirty.is_empty() {
            return;
        }
        let dirty = std::mem::take(&mut self.dirty);
        let mut manifests = Manifests::new(Path::new("/"));
        let mut crates: BTreeMap<CrateKey, Vec<Url>> = BTreeMap::new();
        let mut outside: Vec<Url> = Vec::new();
        for doc in self.documents.values() {
            match &doc.path {
                Some(path) if self.in_workspace(path) => crates
                    .entry(CrateKey::of(path, &mut manifests))
                    .or_default()
                    .push(doc.uri.clone()),
                _ => outside.push(doc.uri.clone()),
            }
        }
        // A document that left the workspace folders keeps no findings.
        for uri in outside {
            if self.published.get(&uri).is_some_and(|d| !d.is_empty()) {
                let version = self.documents.get(&uri).map(|d| d.version);
                self.publish(&uri, version, Vec::new());
            }
        }
        // What was kept for crates without open documents is not needed again.
        self.kept.retain(|key, _| crates.contains_key(key));
        let wanted: BTreeSet<CrateKey> = if dirty.all {
            crates.keys().cloned().collect()
        } else {
            dirty
                .paths
                .iter()
                .map(|p| CrateKey::of(p, &mut manifests))
                .collect()
        };
        for (key, uris) in crates {
            if wanted.contains(&key) {
                let what = format!("{}", key.dir().display());
                self.guarded(&format!("the crate at {what}"), |s| {
                    s.lint_and_publish(&key, &uris)
                });
            }
        }
    }

    fn lint_and_publish(&mut self, key: &CrateKey, uris: &[Url]) {
        let open: BTreeMap<PathBuf, String> = uris
            .iter()
            .filter_map(|u| self.documents.get(u))
            .filter_map(|d| Some((d.path.clone()?, d.text.clone())))
            .collect();
        let cwd = self.cwd_for(key);
        let kept = self.kept.entry(key.clone()).or_default();
        let mut outcome = match lint::lint_crate(&open, &cwd, &self.analyst, kept) {
            Ok(outcome) => outcome,
            Err(config_error) => {
                // Like `check`: a configuration error means no findings until it is fixed.
                self.show_once(MessageType::ERROR, &format!("mcp-lint: {config_error}"));
                for uri in uris {
                    let version = self.documents.get(uri).map(|d| d.version);
                    self.publish(uri, version, Vec::new());
                }
                return;
            }
        };
        for problem in std::mem::take(&mut outcome.problems) {
            self.show_once(MessageType::WARNING, &format!("mcp-lint: {problem}"));
        }
        let encoding = self.client.encoding;
        let mut files = convert::RelatedFiles::new(
            self.client.related_information,
            &cwd,
            self.documents.values(),
        );
        let mut published = Vec::new();
        for uri in uris {
            let Some(doc) = self.documents.get(uri) else {
                continue;
            };
            let found = doc
                .path
                .as_ref()
                .and_then(|p| outcome.files.get(p))
                .map(Vec::as_slice)
                .unwrap_or_default();
            for d in found {
                if d.is_internal_error() {
                    self.log(MessageType::ERROR, &format!("{}: {}", uri, d.message));
                }
            }
            let diagnostics: Vec<lsp_types::Diagnostic> = found
                .iter()
                .map(|d| convert::diagnostic(d, doc, encoding, &mut files))
                .collect();
            published.push((doc.uri.clone(), doc.version, diagnostics));
        }
        drop(files);
        for (uri, version, diagnostics) in published {
            self.publish(&uri, Some(version), diagnostics);
        }
    }

    fn publish(
        &mut self,
        uri: &Url,
        version: Option<i32>,
        diagnostics: Vec<lsp_types::Diagnostic>,
    ) {
        let params = PublishDiagnosticsParams {
            uri: uri.clone(),
            diagnostics: diagnostics.clone(),
            version,
        };
        self.notify::<notif::PublishDiagnostics>(params);
        if self.documents.contains_key(uri) {
            self.published.insert(uri.clone(), diagnostics);
        } else {
            self.published.remove(uri);
        }
    }

    fn code_actions(&self, params: CodeActionParams) -> Vec<Value> {
        let quickfix_kind = CodeActionKind::QUICKFIX;
        let quickfix = quickfix_kind.as_str();
        let wanted = params.context.only.as_ref().is_none_or(|only| {
            only.iter().any(|k| {
                let k = k.as_str();
                k.is_empty() || k == quickfix || quickfix.starts_with(&format!("{k}."))
            })
        });
        let Some(doc) = self.documents.get(&params.text_document.uri) else {
            return Vec::new();
        };
        if !wanted {
            return Vec::new();
        }
        let mut diagnostics: Vec<lsp_types::Diagnostic> = params
            .context
            .diagnostics
            .into_iter()
            .filter(|d| actions::data_of(d, doc).is_some())
            .collect();
        if diagnostics.is_empty() {
            // The client sent none of ours (or stale ones): use what we published for the
            // current text, where it touches the requested range.
            diagnostics = self
                .published
                .get(&doc.uri)
                .into_iter()
                .flatten()
                .filter(|d| overlaps(d.range, params.range))
                .cloned()
                .collect();
        }
        actions::code_actions(doc, &diagnostics, self.client.edits)
    }

    fn execute_command(
        &mut self,
        params: ExecuteCommandParams,
    ) -> Result<Value, (ErrorCode, String)> {
        if params.command != actions::PLACE_CURSOR {
            return Err((
                ErrorCode::InvalidParams,
                format!("unknown command `{}`", params.command),
            ));
        }
        let (uri, position) = actions::place_cursor_args(&params.arguments).ok_or((
            ErrorCode::InvalidParams,
            format!(
                "`{}` takes a document URI and a position",
                actions::PLACE_CURSOR
            ),
        ))?;
        self.send_request::<req::ShowDocument>(ShowDocumentParams {
            uri,
            external: Some(false),
            take_focus: Some(true),
            selection: Some(Range::new(position, position)),
        });
        Ok(Value::Null)
    }

    /// Ask the client to tell us when configuration or Rust files change on disk.
    fn register_watchers(&mut self) {
        if !self.client.dynamic_watchers {
            return;
        }
        let watchers = ["**/Cargo.toml", "**/mcp-lint.toml", "**/*.rs"]
            .into_iter()
            .map(|glob| FileSystemWatcher {
                glob_pattern: GlobPattern::String(glob.to_string()),
                kind: None,
            })
            .collect();
        let options = DidChangeWatchedFilesRegistrationOptions { watchers };
        self.send_request::<req::RegisterCapability>(RegistrationParams {
            registrations: vec![Registration {
                id: "mcp-lint-watched-files".to_string(),
                method: notif::DidChangeWatchedFiles::METHOD.to_string(),
                register_options: serde_json::to_value(options).ok(),
            }],
        });
    }

    fn folders_text(&self) -> String {
        if self.client.folders.is_empty() {
            return "none (every file opened is linted)".to_string();
        }
        let folders: Vec<String> = self
            .client
            .folders
            .iter()
            .map(|f| f.display().to_string())
            .collect();
        folders.join(", ")
    }

    /// Log to the client (`window/logMessage`; it decides what to keep); warnings and errors
    /// also go to stderr.
    fn log(&self, typ: MessageType, message: &str) {
        if typ == MessageType::ERROR || typ == MessageType::WARNING {
            stderr_line(message);
        }
        self.notify::<notif::LogMessage>(LogMessageParams {
            typ,
            message: message.to_string(),
        });
    }

    /// Tell the user once (until the configuration changes), and log it.
    fn show_once(&mut self, typ: MessageType, message: &str) {
        self.log(typ, message);
        if self.shown.insert(message.to_string()) {
            self.notify::<notif::ShowMessage>(ShowMessageParams {
                typ,
                message: message.to_string(),
            });
        }
    }

    fn notify<N: notif::Notification>(&self, params: N::Params) {
        let message = Notification::new(N::METHOD.to_string(), params);
        // The writer thread only stops once the client is gone; nothing to tell anyone then.
        let _ = self.connection.sender.send(message.into());
    }

    fn send_request<R: req::Request>(&mut self, params: R::Params) {
        self.next_id += 1;
        let id = RequestId::from(format!("mcp-lint-{}", self.next_id));
        let _ = self
            .connection
            .sender
            .send(Request::new(id, R::METHOD.to_string(), params).into());
    }

    fn respond(&self, response: Response) {
        let _ = self.connection.sender.send(response.into());
    }
}

/// One line on stderr, in a single write (clients log stderr as it arrives).
fn stderr_line(message: &str) {
    use std::io::Write;
    let line = format!("mcp-lint server: {message}\n");
    let _ = std::io::stderr().write_all(line.as_bytes());
}

fn overlaps(a: Range, b: Range) -> bool {
    a.start <= b.end && b.start <= a.end
}

fn parse<P: serde::de::DeserializeOwned>(params: Value) -> Result<P, (ErrorCode, String)> {
    serde_json::from_value(params)
        .map_err(|e| (ErrorCode::InvalidParams, format!("invalid parameters: {e}")))
}

fn panic_text(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn client_capabilities_and_folders_are_read_leniently() {
        let info = ClientInfo::from_initialize(&json!({
            "workspaceFolders": [{ "uri": "file:///w/a", "name": "a" }, { "uri": "untitled:x" }],
            "rootUri": "file:///ignored",
            "capabilities": {
                "general": { "positionEncodings": ["utf-8"] },
                "workspace": {
                    "workspaceEdit": { "documentChanges": true, "snippetEditSupport": "yes" },
                    "didChangeWatchedFiles": { "dynamicRegistration": true }
                },
                "window": { "showDocument": { "support": true } },
                "textDocument": { "publishDiagnostics": { "relatedInformation": true } }
            }
        }));
        assert_eq!(info.encoding, Encoding::Utf8);
        assert!(info.related_information);
        assert_eq!(info.folders, vec![PathBuf::from("/w/a")]);
        assert!(info.edits.document_changes && info.edits.show_document && info.dynamic_watchers);
        assert!(!info.edits.snippet_edits, "not a boolean");

        let info =
            ClientInfo::from_initialize(&json!({ "rootPath": "/w/b/../c", "capabilities": 3 }));
        assert_eq!(info.encoding, Encoding::Utf16);
        assert_eq!(info.folders, vec![PathBuf::from("/w/c")]);
        assert!(!info.dynamic_watchers && !info.related_information);
    }

    #[test]
    fn a_panic_is_logged_to_the_client_and_the_server_goes_on() {
        let (server_side, client_side) = Connection::memory();
        let mut server = Server::new(&server_side, ClientInfo::from_initialize(&json!({})));
        assert!(!server.guarded("a test", |_| panic!("boom")));
        let message = client_side
            .receiver
            .recv_timeout(Duration::from_secs(5))
            .expect("a log message");
        let Message::Notification(n) = message else {
            panic!("expected a notification, got {message:?}")
        };
        assert_eq!(n.method, "window/logMessage");
        assert_eq!(n.params["type"], 1, "error");
        assert_eq!(
            n.params["message"],
            "mcp-lint failed while handling a test: boom"
        );
        assert!(server.guarded("more", |_| {}));
    }

    #[test]
    fn edits_are_linted_after_a_pause_but_not_later_than_the_cap() {
        let mut dirty = Dirty::default();
        assert!(dirty.is_empty());
        dirty.path(Path::new("/p/src/lib.rs"));
        assert!(!dirty.is_empty());
        assert!(dirty.wait() <= DEBOUNCE);
        if let Some(earlier) = Instant::now().checked_sub(MAX_DELAY) {
            dirty.first = Some(earlier);
            assert_eq!(dirty.wait(), Duration::ZERO, "capped");
        }
    }
}
