//! SDK dialects: the only place that knows what an SDK's constructs mean. Everything downstream
//! asks a [`Dialect`] "is this a handler, which channel does this `Err` take, what does this
//! expression build" and never names an SDK itself.
//!
//! One file per SDK, each implementing [`Dialect`] (the table-shaped ones are only tables,
//! read by [`table::TableDialect`]), registered once in [`SDKS`]; a new SDK is a new file and a
//! line there.

pub mod content;
pub mod jsonrpc;
pub mod kodegen;
pub mod mcp_attr;
pub mod pmcp;
pub mod rmcp;
pub mod rust_mcp_sdk;
pub mod table;
pub mod tower_mcp;
pub mod turbomcp;
pub mod ultrafast;

use syn::{Expr, ExprCall, ExprMethodCall, ExprStruct, ReturnType};

use crate::index::{FnItem, Index};
use crate::options::{Dependency, Manifest};
use crate::source::SourceFile;
use crate::text::MessageText;

pub use content::is_true;

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
    /// The declared value (or its `Err`) is a crate type that holds the SDK's protocol error and
    /// answers as an isError result (rmcp: `struct ToolError(ErrorData)` with `impl
    /// IntoContents`): a protocol error built here is converted into it, so it never reaches
    /// the wire as one.
    pub wraps_protocol_errors: bool,
    /// The success value wraps the tool result (tower-mcp's MRTR tools answer
    /// `Ok(RequestOutcome::Complete(result))`): a tool error goes inside it.
    pub ok_wrapper: Option<&'static str>,
    /// The `Err` is the SDK's protocol error, which the SDK answers as an isError result here
    /// (a tower-mcp `.handler(..)` closure, a turbomcp `#[tool]`): a `?` still converts into it
    /// through the crate's `From`, whose result goes nowhere near the wire.
    pub catches_protocol_error: bool,
}

impl ReturnFacts {
    /// Nothing known: not a `Result`, or not one the SDK maps.
    pub const UNKNOWN: ReturnFacts = ReturnFacts {
        err: ErrChannel::Unknown,
        err_is_unit: false,
        ok_is_text: false,
        wraps_protocol_errors: false,
        ok_wrapper: None,
        catches_protocol_error: false,
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

/// What a macro builds (`bail!(..)`, a `json!` error object or tool result).
pub enum MacroBuilt {
    Protocol {
        code: Option<i64>,
        /// Where the code is written, when it is a literal inside the macro.
        code_span: Option<crate::source::Span>,
        /// The expression the code is read from when the macro does not state it (`"code":
        /// code`, `"code": e.rpc_code()`).
        code_expr: Option<Box<syn::Expr>>,
        message: MessageText,
        name: String,
    },
    ToolResult {
        is_error: bool,
        content: ContentFacts,
        name: String,
    },
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

/// An SDK mcp-lint understands: its crates, and how to read one crate's use of it.
pub struct Sdk {
    /// The name users know it by.
    pub name: &'static str,
    /// Crate roots in `use` paths and Cargo dependency names (`-` read as `_`).
    pub roots: &'static [&'static str],
    /// How a crate's use of it is read.
    pub reader: Reader,
}

/// How an SDK's dialect is made for a crate.
pub enum Reader {
    /// By code of its own (rmcp): the dialect of a crate that uses the SDK at `version` (from
    /// its manifest), with the names the crate resolved for the SDK's types.
    Code(fn(&Index<'_>, Option<Version>) -> Box<dyn Dialect>),
    /// From its tables (the newest, which names the older ones), by the one interpreter
    /// [`table::TableDialect`].
    Tables(&'static table::SdkTable),
}

impl Sdk {
    /// The dialect of a crate that uses this SDK at `version`, with what its Cargo.lock pins.
    pub fn dialect(
        &self,
        index: &Index<'_>,
        version: Option<Version>,
        locked: Option<&crate::options::LockedVersions>,
    ) -> Box<dyn Dialect> {
        match self.reader {
            Reader::Code(dialect) => dialect(index, version),
            Reader::Tables(newest) => table::TableDialect::boxed(newest, index, version, locked),
        }
    }
}

/// Methods that read what the client declared in `initialize` (its info and capabilities), in
/// every SDK: rmcp's `peer.peer_info()` and `client_capabilities()`, rust-mcp-sdk's
/// `runtime.client_info()`. A failure decided on them is a protocol-level check of the session
/// (the spec answers a missing client capability with -32021), not a check of a tool argument.
pub const CLIENT_DECLARATION_METHODS: &[&str] =
    &["peer_info", "client_info", "client_capabilities"];

/// The number of SDKs in [`SDKS`].
pub const SDK_COUNT: usize = 8;

/// Every SDK, in the order [`detect_all`] keeps among crates the manifest does not name.
/// Hand-rolled JSON-RPC ([`jsonrpc`]) is not here: it has no crates, and is the crate's dialect
/// only when no SDK is.
pub static SDKS: [&Sdk; SDK_COUNT] = [
    &rmcp::SDK,
    &rust_mcp_sdk::SDK,
    &pmcp::SDK,
    &turbomcp::SDK,
    &mcp_attr::SDK,
    &ultrafast::SDK,
    &tower_mcp::SDK,
    &kodegen::SDK,
];

/// The crate roots of every SDK, one entry per SDK: the names [`detect_all`] looks for in
/// manifests (`-` read as `_`), imports and `root::` paths. Also the ground truth of the
/// front end's byte-level prefilter, which must find every crate `detect_all` would.
pub fn sdk_roots() -> [&'static [&'static str]; SDK_COUNT] {
    SDKS.map(|sdk| sdk.roots)
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
/// parts SDK families split into)? Their library defines the SDK's constructors and codes (no
/// tool rules there, code rules still); their examples, tests and binaries are servers written
/// with the SDK. A third-party crate named after the SDK (`rmcp-openapi`) is a server like any
/// other.
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

/// The SDK whose own crate the package is (see [`is_own_crate`]).
pub fn own_sdk(manifest: Option<&Manifest>) -> Option<&'static Sdk> {
    let package = manifest?.package_name.as_deref()?;
    SDKS.into_iter()
        .find(|sdk| is_own_crate(package, sdk.roots))
}

/// Every SDK the crate uses, the one its code uses first. `mentions_root` tells whether any
/// file names a crate root by a qualified path in its code (`rmcp::`, not in a comment or a
/// string). An SDK's own package speaks that SDK, at the package's own version, before
/// anything it depends on. `may_route` (a `"tools/call"` literal somewhere in the text) lets
/// the hand-rolled JSON-RPC dialect look for a `"tools/call"` route in the code: a crate with
/// one is (also) a hand-rolled server, whatever SDK it depends on, and when its code never
/// uses the SDK it depends on, the hand-rolled server is what its files speak. `resolve` says
/// which crate fns a call goes to (the route's dispatchers).
pub fn detect_all(
    manifest: Option<&Manifest>,
    index: &Index<'_>,
    mentions_root: impl Fn(&str) -> bool,
    may_route: bool,
    resolve: &jsonrpc::ResolveCall<'_>,
) -> Vec<Box<dyn Dialect>> {
    /// Ranks, lowest first: the package's own SDK, an SDK its code uses, the hand-rolled server,
    /// an SDK only its manifest names.
    const OWN: usize = 0;
    const USED: usize = 1;
    const HAND_ROLLED: usize = 3;
    const DEPENDED_ON: usize = 4;
    let own = own_sdk(manifest);
    let in_code = |roots: &[&str]| {
        roots_of(
            roots,
            &mut index.all_imports().map(|(_, p)| p).chain(index.all_globs()),
        ) || roots.iter().any(|r| mentions_root(&format!("{r}::")))
    };
    let mut found = Vec::new();
    for sdk in SDKS {
        let is_own = own.is_some_and(|o| std::ptr::eq(o, sdk));
        let dep = sdk_dependency(manifest, sdk.roots);
        let used = in_code(sdk.roots);
        if !(is_own || dep.is_some() || used) {
            continue;
        }
        // The SDK's own package (`turbomcp` 2.3.7 with its examples) is that version of it; a
        // family crate (`turbomcp-server`) names its siblings at the family's version.
        let requirement = if is_own {
            manifest.and_then(|m| m.package_version.as_deref())
        } else {
            dep.and_then(|d| d.version.as_deref())
        };
        let version = requirement.and_then(Version::from_requirement);
        // A manifest dependency before an SDK only the code names (stable order otherwise).
        let rank = match (is_own, used, dep.is_some()) {
            (true, _, _) => OWN,
            (false, true, true) => USED,
            (false, true, false) => USED + 1,
            (false, false, _) => DEPENDED_ON,
        };
        let locked = manifest.and_then(|m| m.locked.as_deref());
        found.push((rank, sdk.dialect(index, version, locked)));
    }
    if may_route {
        let hand_rolled = jsonrpc::JsonRpc::new(index, resolve);
        // Without an SDK the literal is enough, as a server's whole dialect.
        if hand_rolled.routes_tool_calls() || found.is_empty() {
            found.push((HAND_ROLLED, Box::new(hand_rolled)));
        }
    }
    found.sort_by_key(|(rank, _)| *rank);
    found.into_iter().map(|(_, d)| d).collect()
}

/// The first segment of every path a file's code writes with `::` (`rmcp` of
/// `rmcp::model::Tool`, of `#[rmcp::tool]`, and of `pmcp::Error::internal(..)` inside a macro's
/// tokens), and of `extern crate` items: the crates the code names outside its `use` items.
/// Comments and string literals are not code.
pub fn code_roots(file: &syn::File) -> std::collections::HashSet<String> {
    use proc_macro2::{Spacing, TokenStream, TokenTree};
    use syn::visit::Visit;

    #[derive(Default)]
    struct Roots(std::collections::HashSet<String>);
    impl Roots {
        fn tokens(&mut self, tokens: TokenStream) {
            let mut previous: [Option<TokenTree>; 2] = [None, None];
            for t in tokens {
                if let (Some(TokenTree::Ident(i)), Some(TokenTree::Punct(first))) =
                    (&previous[0], &previous[1])
                {
                    if first.as_char() == ':'
                        && first.spacing() == Spacing::Joint
                        && matches!(&t, TokenTree::Punct(p) if p.as_char() == ':')
                    {
                        self.0.insert(i.to_string());
                    }
                }
                if let TokenTree::Group(g) = &t {
                    self.tokens(g.stream());
                }
                previous = [previous[1].take(), Some(t)];
            }
        }
    }
    impl<'v> Visit<'v> for Roots {
        fn visit_path(&mut self, path: &'v syn::Path) {
            if path.segments.len() > 1 {
                self.0.insert(path.segments[0].ident.to_string());
            }
            syn::visit::visit_path(self, path);
        }
        fn visit_macro(&mut self, mac: &'v syn::Macro) {
            self.tokens(mac.tokens.clone());
            syn::visit::visit_macro(self, mac);
        }
        fn visit_item_extern_crate(&mut self, item: &'v syn::ItemExternCrate) {
            self.0.insert(item.ident.to_string());
        }
    }
    let mut roots = Roots::default();
    roots.visit_file(file);
    for keyword in ["crate", "self", "super", "Self"] {
        roots.0.remove(keyword);
    }
    roots.0
}

/// The questions the walker asks about one crate's SDK. One implementation per SDK file; the
/// implementation holds what it resolved for the crate (local aliases of the SDK's types) and
/// the SDK version the crate's manifest names, and answers per version where the wire
/// behaviour differs. Defaults are the answers of an SDK without the construct.
pub trait Dialect: std::fmt::Debug + Send + Sync {
    /// The SDK's name, as users know it (`rmcp`, `pmcp`, `JSON-RPC by hand`).
    fn name(&self) -> &'static str;

    /// Whether a file that imports these paths belongs to this dialect.
    fn claims(&self, imports: &mut dyn Iterator<Item = &Vec<String>>) -> bool;

    /// A protocol error whose code argument is computed, not written (`McpResponse::error(id,
    /// e.to_mcp_code(), msg)`), for dialects that take the code as a plain argument.
    /// `code_at` finds the argument that is a method returning a code per variant; it costs a
    /// resolution per argument, so it runs only for a call the dialect takes for an error.
    fn construction_with_code_at<'e>(
        &self,
        _call: &'e ExprCall,
        _code_at: &dyn Fn() -> Option<usize>,
    ) -> Option<Construction<'e>> {
        None
    }

    /// Whether a file no SDK import claims speaks this dialect by what it holds (the
    /// hand-rolled server's router).
    fn claims_file(&self, _file: crate::source::FileId) -> bool {
        false
    }

    /// Whether an `if` condition picks the `"tools/call"` method (`if request.method ==
    /// "tools/call" { .. }`): its block answers tool calls.
    fn is_tool_call_test(&self, _cond: &syn::Expr) -> bool {
        false
    }

    /// `io.add_method("tools/call", |params| ..)`: a registration of the handler that answers
    /// tool calls by the method's name; the handler argument, when `mc` is one.
    fn tool_call_route<'e>(&self, _mc: &'e ExprMethodCall) -> Option<&'e Expr> {
        None
    }

    /// Whether crate fn `f` routes JSON-RPC methods with a `"tools/call"` branch of its own (a
    /// hand-rolled server's `process_request`): what its caller does with its `Err` answers
    /// the tool call's failures too.
    fn routes_tool_calls_in(&self, _f: crate::types::FnKey) -> bool {
        false
    }

    fn handler_kind(&self, f: &FnItem<'_>) -> Option<HandlerKind>;

    /// The wire name of a tool handler.
    fn tool_name(&self, f: &FnItem<'_>) -> String {
        content::tool_name(f)
    }

    /// A closure that an SDK registration call makes into a tool handler.
    fn handler_closure<'e>(&self, _call: &'e ExprCall) -> Option<&'e Expr> {
        None
    }

    /// A builder method that wraps the tool built below it so its `Err` becomes an isError
    /// result (tower-mcp's `.layer(..)` and `.guard(..)`).
    fn chain_catches_errors(&self, _method: &str) -> bool {
        false
    }

    /// A closure that an SDK registration method makes into a handler, and of what.
    fn handler_closure_of_method<'e>(
        &self,
        _mc: &'e ExprMethodCall,
    ) -> Option<(&'e Expr, HandlerKind)> {
        None
    }

    /// What the declared return type says about `Err` and the success value.
    fn return_facts(
        &self,
        kind: Option<HandlerKind>,
        ret: &ReturnType,
        index: &Index<'_>,
    ) -> ReturnFacts;

    /// What a closure registered as a tool returns (its declared type is not written), given
    /// the registration method (`None`: a registration call) and whether a later method of its
    /// builder chain catches its errors ([`Dialect::chain_catches_errors`]).
    fn closure_returns(&self, _registration: Option<&str>, _caught: bool) -> ReturnFacts {
        ReturnFacts {
            err: ErrChannel::Protocol,
            ..ReturnFacts::UNKNOWN
        }
    }

    /// Whether a crate error type whose constructors build JSON-RPC error objects
    /// (`RpcError::internal(..)` as `Self::new(-32603, ..)`) is what the server sends as its
    /// protocol error, so a fn failing with it fails on the wire. A hand-rolled server has no
    /// SDK type for that; an SDK's server sends the SDK's.
    fn crate_errors_are_protocol(&self) -> bool {
        false
    }

    /// Whether the server writes the protocol version it speaks in its own source (the
    /// `protocolVersion` of its `initialize` answer, see [`crate::model::declared`]), so that
    /// it is judged by that version when the user set none. An SDK negotiates the version
    /// itself: its servers are judged by the target alone.
    fn declares_protocol(&self) -> bool {
        false
    }

    /// Whether a type is the SDK's protocol error type (or a local alias of it).
    fn is_protocol_error_type(&self, _ty: &syn::Type) -> bool {
        false
    }

    /// What a call expression builds, if it is one of the SDK's constructors. `returns` is the
    /// enclosing body's: some SDKs send the same error value either way.
    fn construction_of_call<'e>(
        &self,
        call: &'e ExprCall,
        index: &Index<'_>,
        returns: &ReturnFacts,
    ) -> Option<Construction<'e>>;

    /// `RpcError::internal_error().with_message(..)`: a constructor chain, with the inner call it
    /// consumed.
    fn construction_of_method<'e>(
        &self,
        _mc: &'e ExprMethodCall,
        _index: &Index<'_>,
        _returns: &ReturnFacts,
    ) -> Option<(Construction<'e>, &'e ExprCall)> {
        None
    }

    /// `vec![TextContent::new(..)].into()` where the value is the SDK's tool result: a success
    /// result with that content (mcp-attr's `From<Vec<T>> for CallToolResult`); `None` when
    /// the SDK has no such conversion.
    fn construction_of_content_into<'e>(
        &self,
        _mc: &'e ExprMethodCall,
    ) -> Option<Construction<'e>> {
        None
    }

    /// For a helper whose tail is `mac`: the positions in `params` of the tool result's
    /// `isError` flag and of its text, when `mac` builds a tool result whose flag is one of the
    /// parameters (`json!({"content": [{"type": "text", "text": text}], "isError": is_error})`).
    fn result_flag_params(
        &self,
        _mac: &syn::Macro,
        _params: &[String],
    ) -> Option<(usize, Option<usize>)> {
        None
    }

    /// For a helper that builds a tool result in a local and sets its `isError` flag when one
    /// of its parameters says so (`let mut result = json!({"content": [..]}); if is_error {
    /// result["isError"] = json!(true); }`): the positions in `params` of that parameter and
    /// of the text.
    fn result_flag_set_params(
        &self,
        _block: &syn::Block,
        _params: &[String],
    ) -> Option<(usize, Option<usize>)> {
        None
    }

    /// What a macro builds: `bail!(..)`, a `json!` error object or tool result.
    fn construction_of_macro(
        &self,
        _mac: &syn::Macro,
        _index: &Index<'_>,
        _file: &SourceFile,
        _returns: &ReturnFacts,
    ) -> Option<MacroBuilt> {
        None
    }

    /// A unit variant that builds an error (`Error::RateLimited`), or with `fn_value` a
    /// constructor fn passed as a value, point-free (`.map_err(Error::invalid_params)`).
    fn construction_of_path<'e>(
        &self,
        _path: &syn::Path,
        _index: &Index<'_>,
        _returns: &ReturnFacts,
        _fn_value: bool,
    ) -> Option<Construction<'e>> {
        None
    }

    /// What a struct literal builds.
    fn construction_of_struct<'e>(
        &self,
        s: &'e ExprStruct,
        index: &Index<'_>,
    ) -> Option<Construction<'e>>;

    /// What `Self { .. }` builds in an associated fn of the crate type named `self_type` (a
    /// hand-rolled error type's own constructor, `Self { code: INVALID_PARAMS, message }`).
    fn construction_of_self_struct<'e>(
        &self,
        _s: &'e ExprStruct,
        _self_type: &str,
        _index: &Index<'_>,
    ) -> Option<Construction<'e>> {
        None
    }

    /// Whether a constructor's name carries its code (`resource_not_found`); a hand-rolled
    /// helper (`error_response(id, code, ..)`) takes it as an argument.
    fn constructor_names_code(&self) -> bool {
        true
    }

    /// Hand-rolled servers: error JSON counts only where an MCP handler reaches it (an HTTP API
    /// answering with the same shape is not MCP).
    fn only_handler_code_counts(&self) -> bool {
        false
    }

    /// Codes written as bare integers or consts in an error's arguments count as codes
    /// (hand-rolled servers and most SDKs take a plain integer; rmcp wraps it in `ErrorCode`).
    fn bare_codes(&self) -> bool {
        true
    }

    /// The message the SDK writes for a constructor called without one.
    fn default_message(&self, _call: &ExprCall) -> Option<&'static str> {
        None
    }

    /// Whether the SDK's own `From` converts the crate's error types too (see
    /// `SdkTable::converts_crate_errors`).
    fn converts_crate_errors(&self) -> bool {
        false
    }

    /// The code the SDK's own conversion gives `?` on a foreign error of this name, where it
    /// differs from what [`Dialect::try_meaning`] says for foreign errors.
    fn question_mark_code_of(&self, _external_error: &str) -> Option<i64> {
        None
    }

    /// What `?` on `operand` does in a body whose `Err` takes channel `returns.err`;
    /// `operand_error_is_tool_error` tells whether the operand's error is the SDK's tool error
    /// type (built by a constructor or returned by a crate fn declared so).
    fn try_meaning(&self, returns: &ReturnFacts, _operand_error_is_tool_error: bool) -> TryMeaning {
        if returns.err == ErrChannel::Protocol {
            TryMeaning::FromImpls
        } else {
            TryMeaning::Nothing
        }
    }

    /// `CallToolResult::from(err)`, `CallToolResult::with_error(err)`, `CallToolError::new(err)`:
    /// the SDK makes an error value into an isError result.
    fn wraps_error_as_result(&self, _call: &ExprCall) -> bool {
        false
    }

    /// Whether a type name is the SDK's tool error type (`CallToolError`).
    fn is_tool_error_type_name(&self, _name: &str) -> bool {
        false
    }

    /// Whether a type of another crate, by its path there (`turbomcp::prelude::Context`), is
    /// the per-request context the SDK hands a tool: its methods log, report progress and keep
    /// server-side state, so a `?` on them propagates a fault of the server, not of the tool.
    fn is_request_context_type(&self, _path: &[String]) -> bool {
        false
    }

    /// Whether the SDK never runs `f` although it implements a handler trait: pmcp's
    /// `ToolHandler::handle` in an impl whose `handle_output` override does not call it.
    fn never_runs(&self, _f: &FnItem<'_>) -> bool {
        false
    }

    /// Whether a method of the request context checks a value the tool passes in
    /// (turbomcp's `validate_tenant_ownership(&resource.tenant)`): its failure is about that
    /// value, the tool's own, unlike the context's other methods.
    fn request_context_checks_argument(&self, _method: &str) -> bool {
        false
    }

    /// Whether a method of the SDK's types serialises the value it is called on
    /// (pmcp's `MrtrSignal::into_meta_entry` is `serde_json::to_value(self)`): it fails only on
    /// the server's own values, a server fault like `serde_json::to_value`.
    fn is_serializing_method(&self, _method: &str) -> bool {
        false
    }

    /// Whether an SDK fn, by its path in the SDK (`rmcp::model::Content::json`), serialises the
    /// value it is given: it fails only on the server's own values, a server fault.
    fn is_serializing_fn(&self, _path: &[String]) -> bool {
        false
    }

    /// A match arm holding a tool call inside a general request handler
    /// (`RequestFromClient::CallToolRequest(params) =>`).
    fn is_tool_call_arm(&self, _pat: &syn::Pat) -> bool {
        false
    }

    /// Whether a tool's `Ok` value (a JSON `Value`, a typed output) goes out as the text of a
    /// success result, so an `"isError": true` member inside it is data, not the result's flag.
    fn payload_is_result_text(&self) -> bool {
        false
    }

    /// Whether a type is the SDK's tool result (`CallToolResult`), which says itself whether it
    /// is an error.
    fn is_tool_result_type(&self, _ty: &syn::Type, _index: &Index<'_>) -> bool {
        false
    }

    /// The field that marks a tool result as an error (`is_error`).
    fn is_error_field(&self) -> &'static str {
        "is_error"
    }

    /// The content blocks an expression holds (`vec![ContentBlock::text(..)]`).
    fn content_facts(&self, expr: &Expr, file: &SourceFile) -> ContentFacts {
        content::content_facts(expr, file)
    }

    /// The `json!` value a result's one content block holds ([`content::json_answer`]).
    fn json_answer<'e>(&self, block: &'e Expr) -> Option<&'e syn::Macro> {
        content::json_answer(block)
    }

    /// The text value a success result's content block wraps (`x` of `Content::text(x)`).
    fn block_text_value<'e>(&self, block: &'e Expr) -> Option<&'e Expr> {
        content::block_text_value(block)
    }

    /// The text an error value of a `ToolError` channel carries (`Err(ContentBlock::text(..))`).
    fn error_value_text(&self, expr: &Expr, file: &SourceFile) -> ContentFacts {
        content::error_value_text(expr, file)
    }

    /// A code written in a code position: `ErrorCode(..)`, `ErrorCode::NAME`, `RpcErrorCodes::X`.
    fn code_use(&self, expr: &Expr, index: &Index<'_>) -> Option<CodeUse>;

    /// Whether a path is one of the SDK's named code constants (`SdkErrorCodes::REQUEST_TIMEOUT`).
    fn is_code_constant(&self, _path: &syn::Path) -> bool {
        false
    }

    /// Whether a protocol-error constructor or conversion is the SDK's own (`Content::json(..)?`)
    /// rather than the user's choice.
    fn is_sdk_fallible_call(&self, expr: &Expr) -> bool {
        content::is_sdk_fallible_call(expr)
    }

    /// Whether the SDK's *named* -32002 (`resource_not_found`, `ErrorCode::RESOURCE_NOT_FOUND`)
    /// already fits each peer it can negotiate with (so a legacy-code finding would be wrong).
    fn named_resource_not_found_fits_peer(&self) -> bool;

    /// The expression to write for an isError result carrying `message`.
    fn tool_error_snippet(&self, message: &str, dispatcher: bool) -> String;

    /// The isError answer carrying `message` for a tool whose `Ok` is its output rather than the
    /// SDK's tool result (tower-mcp's `McpTool::call`), when it is not
    /// [`Dialect::tool_error_snippet`]; `None`: the same.
    fn output_tool_error_snippet(&self, _message: &str) -> Option<String> {
        None
    }

    /// Prose that goes after the isError snippet's code span when the version in use cannot
    /// write it (pmcp before 2.9: "on pmcp 2.9 or later; .."); `None`: it can.
    fn tool_error_caveat(&self) -> Option<&'static str> {
        None
    }

    /// The expression to write for the spec's unknown-tool protocol error.
    fn unknown_tool_snippet(&self, name_binding: &str) -> String;

    /// Prose that goes after the unknown-tool snippet's code span: where it must be written when
    /// the SDK turns what a tool handler returns into a tool result.
    fn unknown_tool_caveat(&self) -> Option<&'static str> {
        None
    }

    /// What fixes need besides the snippets: the SDK types the snippets name and how to import
    /// them, and how a success result becomes an isError one. `None`: no fixes for this SDK yet.
    fn fix_vocabulary(&self) -> Option<FixVocabulary> {
        None
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
    /// How the tool-error snippet takes the place of a protocol error.
    pub tool_error: ToolErrorForm,
    /// Other SDK types the snippets write (`CallToolError`, `ErrorCode`).
    pub others: Vec<SdkName>,
    /// The SDK's `Result<T>` aliases whose error is the protocol error (`MCPResult`); an
    /// unqualified `Result<T>` counts when the module imports it from the SDK.
    pub result_aliases: Vec<String>,
    /// The snippet's text parameter takes `impl Into<String>` or `impl Display`, so a message's
    /// trailing `.into()` must go (it could not infer its type); `false` where it takes
    /// `String` and the message already is one.
    pub message_drops_into: bool,
    /// The unknown-tool snippet is code the fixes may write (the SDK can send -32602 from there).
    pub unknown_tool: bool,
    /// Modules whose glob import brings in every name above (`turbomcp::prelude`).
    pub preludes: Vec<Vec<String>>,
}

/// How an isError result takes the place of a protocol error in a tool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToolErrorForm {
    /// `Ok(<tool result>)` replaces the `Err(..)` (or the `?` becomes a `match`): the handler's
    /// `Ok` type must be the tool result (rmcp, ultrafast-mcp, turbomcp's `call_tool`).
    OkResult,
    /// The SDK sends one error value of the same type as an isError result
    /// (`pmcp::Error::tool_rejected`): the constructor is replaced where it stands, and the
    /// snippet is `Err(<that value>)`.
    ErrorValue,
    /// A hand-rolled server's response object (`json!({"jsonrpc": "2.0", "id": id, "error":
    /// {..}})`): its `"error"` member is replaced where it stands by the `"result"` member the
    /// server's own tool results have (`{"content": [..], "isError": true}`).
    JsonMember,
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
