//! SDK dialects: the only place that knows what an SDK's constructs mean. Everything downstream
//! asks a [`Dialect`] "is this a handler, which channel does this `Err` take, what does this
//! expression build" and never names an SDK itself.

pub mod jsonrpc;
pub mod others;
pub mod rmcp;
pub mod table;

use syn::{Expr, ExprCall, ExprMethodCall, ExprStruct, ReturnType};

use crate::index::{FnItem, Index};
use crate::options::{Dependency, Manifest};
use crate::text::MessageText;

/// The SDKs mcp-lint understands, by the name users know them by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sdk {
    Rmcp,
    /// One of the SDKs described as a table (rust-mcp-sdk, pmcp, turbomcp, mcp-attr,
    /// ultrafast-mcp).
    Table(&'static str),
    /// No SDK: JSON-RPC written by hand (`json!` bodies, serde structs).
    JsonRpc,
}

/// What `?` does in a body, as far as the SDK and the crate's `From` impls tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TryMeaning {
    /// Nothing to record (the operand already has the body's error type, or `Err` is not sent).
    Nothing,
    /// The crate's `impl From<X> for` the protocol error type converts.
    FromImpls,
    /// The SDK's own conversion makes a protocol error with this code.
    Protocol(i64),
}

/// A `major.minor` version taken from a manifest requirement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Version {
    pub major: u64,
    pub minor: u64,
}

impl Version {
    /// The first `major[.minor]` in a requirement such as `^0.8`, `=1.8.0` or `>=0.6, <2`.
    pub fn from_requirement(req: &str) -> Option<Version> {
        let start = req.find(|c: char| c.is_ascii_digit())?;
        let mut parts = req[start..]
            .split(|c: char| !c.is_ascii_digit())
            .filter(|p| !p.is_empty());
        let major = parts.next()?.parse().ok()?;
        let minor = parts.next().and_then(|p| p.parse().ok()).unwrap_or(0);
        Some(Version { major, minor })
    }
}

/// What kind of handler a body is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandlerKind {
    /// One tool's implementation: its failures belong in an isError result.
    Tool,
    /// A hand-written `call_tool` that routes by tool name.
    Dispatcher,
    /// Resource, prompt, completion, initialize, list…: protocol errors are right there.
    Other,
}

/// Which channel an `Err(..)` returned by a body takes on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrChannel {
    /// The SDK turns it into an isError result (`Err(String)` in an rmcp `#[tool]` fn).
    ToolError,
    /// A JSON-RPC error response.
    Protocol,
    /// The body does not return a `Result`, or its error type is not one the SDK maps.
    Unknown,
}

/// Facts about a body's declared return type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReturnFacts {
    pub err: ErrChannel,
    /// `Err(())`-style error types whose isError result has no content at all.
    pub err_is_unit: bool,
    /// The success value is plain text (`String`, `Result<String, _>`), so text returned on a
    /// failure path is a success result.
    pub ok_is_text: bool,
}

impl ReturnFacts {
    /// Nothing known: not a `Result`, or not one the SDK maps.
    pub const UNKNOWN: ReturnFacts = ReturnFacts {
        err: ErrChannel::Unknown,
        err_is_unit: false,
        ok_is_text: false,
    };
}

/// The content of a tool result, as far as the source shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContentFacts {
    /// Statically known to hold nothing readable (`vec![]`, `Vec::new()`, only blank text).
    pub empty: bool,
    /// The text blocks' messages.
    pub texts: Vec<MessageText>,
}

impl ContentFacts {
    pub fn unknown() -> Self {
        ContentFacts {
            empty: false,
            texts: Vec::new(),
        }
    }
}

/// What an expression builds, in the SDK's terms.
#[derive(Clone, Debug)]
pub enum Construction<'e> {
    /// A JSON-RPC error: its code (when static) and its message expression.
    ProtocolError {
        constructor: String,
        code: Option<i64>,
        message: Option<&'e Expr>,
    },
    /// A tool result; `is_error` tells which.
    ToolResult {
        constructor: String,
        is_error: bool,
        content: Option<&'e Expr>,
        /// The SDK guarantees readable content (e.g. `structured_error` serialises its value).
        never_empty: bool,
    },
}

/// An error code written in a code position, with what SDK name it came from.
#[derive(Clone, Debug)]
pub struct CodeUse {
    pub value: i64,
    /// How it was written, for messages (`ErrorCode::RESOURCE_NOT_FOUND`, `-32001`).
    pub written: String,
}

/// The names one crate uses for its SDK's types.
#[derive(Clone, Debug)]
enum Names {
    Rmcp(rmcp::Names),
    Table(&'static table::SdkTable, table::Names),
    JsonRpc(jsonrpc::Facts),
}

/// What a macro builds (`bail!(..)`, a `json!` error object or tool result).
pub enum MacroBuilt {
    Protocol {
        code: Option<i64>,
        /// Where the code is written, when it is a literal inside the macro.
        code_span: Option<crate::source::Span>,
        message: MessageText,
        name: String,
    },
    ToolResult {
        is_error: bool,
        content: ContentFacts,
        name: String,
    },
}

/// One crate's dialect, with the crate-specific names it resolved (aliases of the SDK's types).
#[derive(Clone, Debug)]
pub struct Dialect {
    pub sdk: Sdk,
    /// The SDK version from the manifest, if there is one.
    pub version: Option<Version>,
    names: Names,
}

/// Crate roots a file imports (`use pmcp::..`), for choosing a file's dialect.
pub fn roots_of(table_roots: &[&str], paths: &mut dyn Iterator<Item = &Vec<String>>) -> bool {
    for p in paths {
        if p.first().is_some_and(|r| table_roots.contains(&r.as_str())) {
            return true;
        }
    }
    false
}

/// rmcp's crate roots.
const RMCP_ROOTS: [&str; 1] = ["rmcp"];

/// The number of SDKs (rmcp and the tables).
pub const SDK_COUNT: usize = 1 + others::TABLE_COUNT;

/// The crate roots of every SDK, one entry per SDK: the names [`Dialect::detect_all`] looks for
/// in manifests (`-` read as `_`), imports and `root::` paths. Also the ground truth of the
/// front end's byte-level prefilter, which must find every crate `detect_all` would.
pub fn sdk_roots() -> [&'static [&'static str]; SDK_COUNT] {
    let mut all: [&'static [&'static str]; SDK_COUNT] = [&RMCP_ROOTS; SDK_COUNT];
    for (slot, table) in all.iter_mut().skip(1).zip(others::ALL) {
        *slot = table.roots;
    }
    all
}

/// The parts an SDK family splits into (`turbomcp-server`, `rmcp-macros`, `ultrafast-mcp-core`).
const OWN_CRATE_PARTS: &[&str] = &[
    "macros",
    "derive",
    "core",
    "server",
    "client",
    "types",
    "transport",
    "protocol",
    "schema",
    "sdk",
    "auth",
    "telemetry",
    "dpop",
    "cli",
    "wasm",
    "proxy",
    "websocket",
    "grpc",
];

/// Is `package` one of the SDK's own crates (its name is a root, or a root and one of the
/// parts SDK families split into)? They define the SDK's constructors and codes; they are not
/// servers. A third-party crate named after the SDK (`rmcp-openapi`) is a server like any other.
pub fn is_own_crate(package: &str, roots: &[&str]) -> bool {
    let p = package.replace('-', "_");
    roots.iter().any(|r| {
        let r = r.replace('-', "_");
        p == r
            || p.strip_prefix(r.as_str())
                .and_then(|rest| rest.strip_prefix('_'))
                .is_some_and(|part| OWN_CRATE_PARTS.contains(&part))
    })
}

/// The manifest's dependency on one of an SDK's crates (`-` and `_` read alike).
pub fn sdk_dependency<'m>(
    manifest: Option<&'m Manifest>,
    roots: &[&str],
) -> Option<&'m Dependency> {
    manifest?.dependencies.iter().find(|d| {
        let name = d.name.replace('-', "_");
        roots.iter().any(|r| r.replace('-', "_") == name)
    })
}

impl Dialect {
    /// Every SDK the crate uses, the one its manifest names first. `mentions_root` tells whether
    /// any file names a crate root by a fully qualified path (`rmcp::`).
    pub fn detect_all(
        manifest: Option<&Manifest>,
        index: &Index<'_>,
        mentions_root: impl Fn(&str) -> bool,
    ) -> Vec<Dialect> {
        // The SDKs' own crates define their constructors and codes; they are not servers.
        let package = manifest
            .and_then(|m| m.package_name.as_deref())
            .unwrap_or("");
        let own = |roots: &[&str]| is_own_crate(package, roots);
        let dep = |roots: &[&str]| sdk_dependency(manifest, roots);
        let imported = |roots: &[&str]| {
            roots_of(
                roots,
                &mut index.all_imports().map(|(_, p)| p).chain(index.all_globs()),
            ) || roots.iter().any(|r| mentions_root(&format!("{r}::")))
        };
        let mut found = Vec::new();
        let rmcp_roots = RMCP_ROOTS;
        if !own(&rmcp_roots) && (dep(&rmcp_roots).is_some() || imported(&rmcp_roots)) {
            let version = dep(&rmcp_roots)
                .and_then(|d| d.version.as_deref())
                .and_then(Version::from_requirement);
            found.push((
                dep(&rmcp_roots).is_some(),
                Dialect {
                    sdk: Sdk::Rmcp,
                    version,
                    names: Names::Rmcp(rmcp::Names::resolve(index, version)),
                },
            ));
        }
        for t in others::ALL {
            if own(t.roots) || !(dep(t.roots).is_some() || imported(t.roots)) {
                continue;
            }
            let version = dep(t.roots)
                .and_then(|d| d.version.as_deref())
                .and_then(Version::from_requirement);
            found.push((
                dep(t.roots).is_some(),
                Dialect {
                    sdk: Sdk::Table(t.name),
                    version,
                    names: Names::Table(t, table::Names::resolve(t, index)),
                },
            ));
        }
        // Manifest dependencies first (stable order otherwise).
        found.sort_by_key(|(from_manifest, _)| !from_manifest);
        let mut found: Vec<Dialect> = found.into_iter().map(|(_, d)| d).collect();
        // No SDK, but a `"tools/call"` route: a hand-rolled server (an SDK's own crates route
        // `tools/call` too; they are not servers).
        let sdk_itself = sdk_roots().iter().any(|roots| own(roots));
        if found.is_empty() && !sdk_itself && mentions_root(jsonrpc::TOOLS_CALL_LITERAL) {
            found.push(Dialect {
                sdk: Sdk::JsonRpc,
                version: None,
                names: Names::JsonRpc(jsonrpc::Facts::collect(index)),
            });
        }
        found
    }

    /// Whether a file that imports these paths belongs to this dialect.
    pub fn claims(&self, imports: &mut dyn Iterator<Item = &Vec<String>>) -> bool {
        match &self.names {
            Names::Rmcp(_) => roots_of(&["rmcp"], imports),
            Names::Table(t, _) => roots_of(t.roots, imports),
            Names::JsonRpc(_) => false,
        }
    }

    pub fn handler_kind(&self, f: &FnItem<'_>) -> Option<HandlerKind> {
        match &self.names {
            Names::Rmcp(_) => rmcp::handler_kind(f),
            Names::Table(t, _) => table::handler_kind(t, f),
            Names::JsonRpc(facts) => facts.handler_kind(f),
        }
    }

    /// The wire name of a tool handler.
    pub fn tool_name(&self, f: &FnItem<'_>) -> String {
        rmcp::tool_name(f)
    }

    /// A closure that an SDK registration call makes into a tool handler.
    pub fn handler_closure<'e>(&self, call: &'e ExprCall) -> Option<&'e Expr> {
        match &self.names {
            Names::Rmcp(_) => rmcp::handler_closure(call),
            Names::Table(t, _) => table::handler_closure_of_call(t, call),
            Names::JsonRpc(_) => None,
        }
    }

    /// A closure that an SDK registration method makes into a tool handler.
    pub fn handler_closure_of_method<'e>(&self, mc: &'e ExprMethodCall) -> Option<&'e Expr> {
        match &self.names {
            Names::Rmcp(_) | Names::JsonRpc(_) => None,
            Names::Table(t, _) => table::handler_closure_of_method(t, mc),
        }
    }

    /// What the declared return type says about `Err` and the success value.
    pub fn return_facts(
        &self,
        kind: Option<HandlerKind>,
        ret: &ReturnType,
        index: &Index<'_>,
    ) -> ReturnFacts {
        match &self.names {
            Names::Rmcp(n) => rmcp::return_facts(n, kind, ret, index),
            Names::Table(t, n) => table::return_facts(t, n, kind, ret, index),
            Names::JsonRpc(_) => ReturnFacts::UNKNOWN,
        }
    }

    /// What a closure registered as a tool returns (its declared type is not written).
    pub fn closure_returns(&self) -> ReturnFacts {
        let err = match &self.names {
            Names::Table(t, _) if t.tool_err_always_tool_error => ErrChannel::ToolError,
            _ => ErrChannel::Protocol,
        };
        ReturnFacts {
            err,
            err_is_unit: false,
            ok_is_text: false,
        }
    }

    /// Whether a type is the SDK's protocol error type (or a local alias of it).
    pub fn is_protocol_error_type(&self, ty: &syn::Type) -> bool {
        match &self.names {
            Names::Rmcp(n) => n.is_error_type(ty),
            Names::Table(t, n) => crate::syntax::type_name(ty).is_some_and(|name| {
                n.canonical(t, &[name, String::new()])
                    .is_some_and(|c| t.protocol_error_types.contains(&c))
            }),
            Names::JsonRpc(_) => false,
        }
    }

    /// What a call expression builds, if it is one of the SDK's constructors. `returns` is the
    /// enclosing body's: some SDKs send the same error value either way.
    pub fn construction_of_call<'e>(
        &self,
        call: &'e ExprCall,
        index: &Index<'_>,
        returns: &ReturnFacts,
    ) -> Option<Construction<'e>> {
        match &self.names {
            Names::Rmcp(n) => rmcp::construction_of_call(n, call, index),
            Names::Table(t, n) => table::construction_of_call(t, n, call, index, returns),
            Names::JsonRpc(_) => jsonrpc::construction_of_call(call, index),
        }
    }

    /// `RpcError::internal_error().with_message(..)`: a constructor chain, with the inner call it
    /// consumed.
    pub fn construction_of_method<'e>(
        &self,
        mc: &'e ExprMethodCall,
        index: &Index<'_>,
        returns: &ReturnFacts,
    ) -> Option<(Construction<'e>, &'e ExprCall)> {
        match &self.names {
            Names::Rmcp(_) | Names::JsonRpc(_) => None,
            Names::Table(t, n) => table::construction_of_method(t, n, mc, index, returns),
        }
    }

    /// What a macro builds: `bail!(..)`, a `json!` error object or tool result.
    pub fn construction_of_macro(
        &self,
        mac: &syn::Macro,
        index: &Index<'_>,
        file: &crate::source::SourceFile,
        returns: &ReturnFacts,
    ) -> Option<MacroBuilt> {
        match &self.names {
            Names::Rmcp(_) => None,
            Names::Table(t, _) => table::construction_of_macro(t, mac, index, file).map(|m| {
                if m.value_like && returns.err != ErrChannel::Protocol {
                    MacroBuilt::ToolResult {
                        is_error: true,
                        content: ContentFacts {
                            empty: m.message.is_blank(),
                            texts: vec![m.message],
                        },
                        name: m.name,
                    }
                } else {
                    MacroBuilt::Protocol {
                        code: m.code,
                        code_span: m.code_span,
                        message: m.message,
                        name: m.name,
                    }
                }
            }),
            Names::JsonRpc(_) => {
                let name = "json!".to_string();
                jsonrpc::construction_of_json(mac, file, index).map(|built| match built {
                    jsonrpc::JsonBuilt::Protocol {
                        code,
                        code_span,
                        message,
                    } => MacroBuilt::Protocol {
                        code,
                        code_span,
                        message,
                        name,
                    },
                    jsonrpc::JsonBuilt::ToolResult { is_error, content } => {
                        MacroBuilt::ToolResult {
                            is_error,
                            content,
                            name,
                        }
                    }
                })
            }
        }
    }

    /// Whether a constructor's name carries its code (`resource_not_found`); a hand-rolled
    /// helper (`error_response(id, code, ..)`) takes it as an argument.
    pub fn constructor_names_code(&self) -> bool {
        !matches!(self.names, Names::JsonRpc(_))
    }

    /// Hand-rolled servers: error JSON counts only where an MCP handler reaches it (an HTTP API
    /// answering with the same shape is not MCP).
    pub fn only_handler_code_counts(&self) -> bool {
        matches!(self.names, Names::JsonRpc(_))
    }

    /// Codes written as bare integers or consts in an error's arguments count as codes
    /// (hand-rolled servers and most SDKs take a plain integer; rmcp wraps it in `ErrorCode`).
    pub fn bare_codes(&self) -> bool {
        !matches!(self.names, Names::Rmcp(_))
    }

    /// A unit variant that builds an error (`Error::RateLimited`).
    pub fn construction_of_path<'e>(
        &self,
        path: &syn::Path,
        index: &Index<'_>,
        returns: &ReturnFacts,
    ) -> Option<Construction<'e>> {
        match &self.names {
            Names::Table(t, n) => table::construction_of_path(t, n, path, index, returns),
            _ => None,
        }
    }

    /// The message the SDK writes for a constructor called without one.
    pub fn default_message(&self, call: &ExprCall) -> Option<&'static str> {
        match &self.names {
            Names::Rmcp(_) | Names::JsonRpc(_) => None,
            Names::Table(t, n) => table::default_message(t, n, call),
        }
    }

    /// What a struct literal builds.
    pub fn construction_of_struct<'e>(
        &self,
        s: &'e ExprStruct,
        index: &Index<'_>,
    ) -> Option<Construction<'e>> {
        match &self.names {
            Names::Rmcp(n) => rmcp::construction_of_struct(n, s, index),
            Names::Table(t, n) => table::construction_of_struct(t, n, s, index),
            Names::JsonRpc(_) => jsonrpc::construction_of_struct(s, index),
        }
    }

    /// What `?` on `operand` does in a body whose `Err` takes channel `returns.err`;
    /// `operand_error_is_tool_error` tells whether the operand's error is the SDK's tool error
    /// type (built by a constructor or returned by a crate fn declared so).
    pub fn try_meaning(
        &self,
        returns: &ReturnFacts,
        operand_error_is_tool_error: bool,
    ) -> TryMeaning {
        if returns.err != ErrChannel::Protocol {
            return TryMeaning::Nothing;
        }
        match &self.names {
            Names::Rmcp(_) | Names::JsonRpc(_) => TryMeaning::FromImpls,
            Names::Table(t, _) => match (
                operand_error_is_tool_error,
                t.tool_error_to_protocol_code,
                t.question_mark_code,
            ) {
                (true, Some(code), _) => TryMeaning::Protocol(code),
                (_, _, Some(code)) => TryMeaning::Protocol(code),
                _ => TryMeaning::FromImpls,
            },
        }
    }

    /// `CallToolResult::from(err)`, `CallToolResult::with_error(err)`: the SDK makes an error
    /// value into an isError result.
    pub fn wraps_error_as_result(&self, call: &ExprCall) -> bool {
        let Names::Table(t, n) = &self.names else {
            return false;
        };
        let Expr::Path(p) = &*call.func else {
            return false;
        };
        let segs = crate::syntax::path_segments(&p.path);
        matches!(segs.last().map(String::as_str), Some("from" | "with_error"))
            && n.canonical(t, &segs)
                .is_some_and(|c| t.result_types.contains(&c))
    }

    /// Whether a type name is the SDK's tool error type (`CallToolError`).
    pub fn is_tool_error_type_name(&self, name: &str) -> bool {
        match &self.names {
            Names::Rmcp(_) | Names::JsonRpc(_) => false,
            Names::Table(t, n) => n
                .canonical(t, &[name.to_string(), String::new()])
                .is_some_and(|c| t.tool_error_types.contains(&c)),
        }
    }

    /// A match arm holding a tool call inside a general request handler
    /// (`RequestFromClient::CallToolRequest(params) =>`).
    pub fn is_tool_call_arm(&self, pat: &syn::Pat) -> bool {
        match &self.names {
            Names::Rmcp(_) => false,
            Names::Table(t, _) => table::is_tool_call_arm(t, pat),
            Names::JsonRpc(_) => jsonrpc::is_tools_call_pat(pat),
        }
    }

    /// The field that marks a tool result as an error (`is_error`).
    pub fn is_error_field(&self) -> &'static str {
        "is_error"
    }

    /// The content blocks an expression holds (`vec![ContentBlock::text(..)]`).
    pub fn content_facts(&self, expr: &Expr, file: &crate::source::SourceFile) -> ContentFacts {
        rmcp::content_facts(expr, file)
    }

    /// The text an error value of a `ToolError` channel carries (`Err(ContentBlock::text(..))`).
    pub fn error_value_text(&self, expr: &Expr, file: &crate::source::SourceFile) -> ContentFacts {
        rmcp::error_value_text(expr, file)
    }

    /// A code written in a code position: `ErrorCode(..)`, `ErrorCode::NAME`, `RpcErrorCodes::X`.
    pub fn code_use(&self, expr: &Expr, index: &Index<'_>) -> Option<CodeUse> {
        match &self.names {
            Names::Rmcp(_) => rmcp::code_use(expr, index),
            Names::Table(t, _) => {
                let (value, _named) = table::code_use(t, expr, index)?;
                let written = quote::ToTokens::to_token_stream(expr)
                    .to_string()
                    .replace(' ', "");
                Some(CodeUse { value, written })
            }
            Names::JsonRpc(_) => jsonrpc::code_use(expr, index),
        }
    }

    /// Whether a path is one of the SDK's named code constants (`SdkErrorCodes::REQUEST_TIMEOUT`).
    pub fn is_code_constant(&self, path: &syn::Path) -> bool {
        let segs = crate::syntax::path_segments(path);
        match (&self.names, segs.as_slice()) {
            (Names::Rmcp(_), [.., ty, _]) => ty == "ErrorCode",
            (Names::Table(t, _), [.., ty, name]) => {
                t.consts.iter().any(|(ct, cn, _)| ct == ty && cn == name)
            }
            _ => false,
        }
    }

    /// Whether a protocol-error constructor or conversion is the SDK's own (`Content::json(..)?`)
    /// rather than the user's choice.
    pub fn is_sdk_fallible_call(&self, expr: &Expr) -> bool {
        rmcp::is_sdk_fallible_call(expr)
    }

    /// The SDK's *named* -32002 (`resource_not_found`, `ErrorCode::RESOURCE_NOT_FOUND`) already
    /// fits each peer: rmcp ≥ 1.8 rewrites it to -32602 for 2026-07-28 peers, and older rmcp
    /// cannot negotiate 2026-07-28 at all (its peers still expect -32002).
    pub fn named_resource_not_found_fits_peer(&self) -> bool {
        match self.sdk {
            Sdk::Rmcp => true,
            // Their newest protocol is 2025-11-25 (pmcp's 2026-07-28 is opt-in): their peers
            // still expect -32002. rust-mcp-sdk 2.x speaks 2026-07-28 and sends it unchanged.
            // rust-mcp-sdk before 2.0 speaks 2025-06-18 at most.
            Sdk::Table(name) => name != "rust-mcp-sdk" || self.version.is_some_and(|v| v.major < 2),
            Sdk::JsonRpc => false,
        }
    }

    /// The expression to write for an isError result carrying `message`.
    pub fn tool_error_snippet(&self, message: &str, dispatcher: bool) -> String {
        match &self.names {
            Names::Rmcp(n) => rmcp::tool_error_snippet(n, message, dispatcher),
            Names::Table(t, _) => t.tool_error_snippet.replace("{msg}", message),
            Names::JsonRpc(_) => format!(
                "json!({{\"content\": [{{\"type\": \"text\", \"text\": {message}}}], \"isError\": true}})"
            ),
        }
    }

    /// The expression to write for the spec's unknown-tool protocol error.
    pub fn unknown_tool_snippet(&self, name_binding: &str) -> String {
        match &self.names {
            Names::Rmcp(n) => rmcp::unknown_tool_snippet(n, name_binding),
            Names::Table(t, _) => t.unknown_tool_snippet.replace("<name>", name_binding),
            Names::JsonRpc(_) => format!(
                "json!({{\"code\": -32602, \"message\": format!(\"Unknown tool: {{}}\", {name_binding})}})"
            ),
        }
    }
    /// What fixes need besides the snippets: the SDK types the snippets name and how to import
    /// them, and how a success result becomes an isError one. `None`: no fixes for this SDK yet.
    pub fn fix_vocabulary(&self) -> Option<FixVocabulary> {
        match &self.names {
            Names::Rmcp(n) => Some(rmcp::fix_vocabulary(n, self.version)),
            Names::Table(..) | Names::JsonRpc(_) => None,
        }
    }
}

/// A type a fix writes, and the path a `use` brings it in by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SdkName {
    /// The name the snippets write (`ContentBlock`, the user's `McpError`).
    pub name: String,
    /// The full path (`rmcp::model::ContentBlock`); imported `as name` when its last segment
    /// differs.
    pub path: Vec<String>,
}

/// The SDK facts fixes rely on (see [`Dialect::fix_vocabulary`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FixVocabulary {
    /// The tool result type (`CallToolResult`).
    pub result: SdkName,
    /// The content block type the snippets write (`ContentBlock`, `Content`).
    pub content: SdkName,
    /// The protocol error type, by the name the crate uses for it (`McpError`).
    pub error: SdkName,
    /// `Ok` types of handlers that take the tool result through `.into()` (`CallToolResponse`),
    /// including wrapper variants written around it (`CallToolResponse::Complete(..)`).
    pub wrapped_results: Vec<String>,
    /// Constructors of a success result and their isError counterparts (`success` → `error`).
    pub error_constructors: Vec<(String, String)>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_crates_are_the_sdk_family_not_crates_named_after_it() {
        assert!(is_own_crate("rmcp", &["rmcp"]));
        assert!(is_own_crate("rmcp-macros", &["rmcp"]));
        assert!(is_own_crate("turbomcp-server", &["turbomcp"]));
        assert!(is_own_crate("ultrafast-mcp-core", &["ultrafast_mcp"]));
        assert!(!is_own_crate("rmcp-openapi", &["rmcp"]));
        assert!(!is_own_crate("rmcp-server-kit", &["rmcp"]));
        assert!(!is_own_crate("rmcpx", &["rmcp"]));
    }
}
