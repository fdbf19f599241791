//! SDK dialects: the only place that knows what an SDK's constructs mean. Everything downstream
//! asks a [`Dialect`] "is this a handler, which channel does this `Err` take, what does this
//! expression build" and never names an SDK itself.

pub mod rmcp;

use syn::{Expr, ExprCall, ExprStruct, ReturnType};

use crate::index::{FnItem, Index};
use crate::options::Manifest;
use crate::text::MessageText;

/// The SDKs mcp-lint understands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sdk {
    Rmcp,
}

impl Sdk {
    pub fn crate_name(self) -> &'static str {
        match self {
            Sdk::Rmcp => "rmcp",
        }
    }
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

/// One crate's dialect, with the crate-specific names it resolved (aliases of the SDK's types).
#[derive(Clone, Debug)]
pub struct Dialect {
    pub sdk: Sdk,
    /// The SDK version from the manifest, if there is one.
    pub version: Option<Version>,
    inner: rmcp::Names,
}

impl Dialect {
    /// Decide the crate's SDK from its manifest and the paths its files import.
    /// `mentions_root` tells whether any file names the SDK by a fully qualified path.
    pub fn detect(
        manifest: Option<&Manifest>,
        index: &Index<'_>,
        mentions_root: impl Fn(&str) -> bool,
    ) -> Option<Dialect> {
        // The SDK's own crates define its constructors and codes; they are not servers.
        let package = manifest.and_then(|m| m.package_name.as_deref());
        if package.is_some_and(|p| p == "rmcp" || p.starts_with("rmcp-")) {
            return None;
        }
        let dep = manifest.and_then(|m| m.dependencies.iter().find(|d| d.name == "rmcp"));
        let imported = index
            .all_imports()
            .map(|(_, p)| p)
            .chain(index.all_globs())
            .any(|p| p.first().is_some_and(|s| s == "rmcp"));
        if dep.is_none() && !imported && !mentions_root("rmcp::") {
            return None;
        }
        let version = dep
            .and_then(|d| d.version.as_deref())
            .and_then(Version::from_requirement);
        Some(Dialect {
            sdk: Sdk::Rmcp,
            version,
            inner: rmcp::Names::resolve(index, version),
        })
    }

    pub fn handler_kind(&self, f: &FnItem<'_>) -> Option<HandlerKind> {
        rmcp::handler_kind(f)
    }

    /// A closure that an SDK registration call makes into a tool handler.
    pub fn handler_closure<'e>(&self, call: &'e ExprCall) -> Option<&'e Expr> {
        rmcp::handler_closure(call)
    }

    /// What the declared return type says about `Err` and the success value.
    pub fn return_facts(
        &self,
        kind: Option<HandlerKind>,
        ret: &ReturnType,
        index: &Index<'_>,
    ) -> ReturnFacts {
        rmcp::return_facts(&self.inner, kind, ret, index)
    }

    /// Whether a type is the SDK's protocol error type (or a local alias of it).
    pub fn is_protocol_error_type(&self, ty: &syn::Type) -> bool {
        self.inner.is_error_type(ty)
    }

    /// What a call expression builds, if it is one of the SDK's constructors.
    pub fn construction_of_call<'e>(
        &self,
        call: &'e ExprCall,
        index: &Index<'_>,
    ) -> Option<Construction<'e>> {
        rmcp::construction_of_call(&self.inner, call, index)
    }

    /// What a struct literal builds.
    pub fn construction_of_struct<'e>(
        &self,
        s: &'e ExprStruct,
        index: &Index<'_>,
    ) -> Option<Construction<'e>> {
        rmcp::construction_of_struct(&self.inner, s, index)
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

    /// A code written in a code position: `ErrorCode(..)`, `ErrorCode::NAME`.
    pub fn code_use(&self, expr: &Expr, index: &Index<'_>) -> Option<CodeUse> {
        rmcp::code_use(expr, index)
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
        }
    }

    /// The expression to write for an isError result carrying `message`.
    pub fn tool_error_snippet(&self, message: &str, dispatcher: bool) -> String {
        rmcp::tool_error_snippet(&self.inner, message, dispatcher)
    }

    /// The expression to write for the spec's unknown-tool protocol error.
    pub fn unknown_tool_snippet(&self, name_binding: &str) -> String {
        rmcp::unknown_tool_snippet(&self.inner, name_binding)
    }

    /// The name users write for the protocol error type (their alias when they have one).
    pub fn protocol_error_type_name(&self) -> &str {
        self.inner.display_error_type()
    }
}
