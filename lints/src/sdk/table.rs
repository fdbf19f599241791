//! SDKs described as data: their crate roots, types, constructors, codes and handlers. Each
//! table-shaped SDK (rust-mcp-sdk, pmcp, turbomcp, mcp-attr, ultrafast-mcp) has its file with its
//! tables and `pub static SDK: Sdk = entry(&TABLE)`; [`TableDialect`] is the one interpreter that answers the
//! walker's questions ([`Dialect`]) from them. rmcp and hand-rolled JSON-RPC are code, not tables.

use std::collections::HashMap;

use syn::{Expr, ExprCall, ExprMethodCall, ExprStruct, ReturnType, Type};

use super::{
    roots_of, CodeUse, Construction, ContentFacts, Dialect, ErrChannel, FixVocabulary, HandlerKind,
    MacroBuilt, Reader, ReturnFacts, Sdk, SdkName, ToolErrorForm, TryMeaning, Version,
};
use crate::index::{FnItem, Index, Owner};
use crate::options::LockedVersions;
use crate::source::SourceFile;
use crate::syntax::path_segments as segments;
use crate::syntax::{has_attr, type_name};

/// At every version: the SDK's peers expect a named resource-not-found's -32002 (the SDK's newest
/// protocol is older than 2026-07-28).
pub fn peer_expects_minus_32002(_version: Option<Version>) -> bool {
    true
}

impl SdkTable {
    /// The table for a crate on `version`: this one, or the one of [`SdkTable::older`] its
    /// version falls under; then the one of its [`SdkTable::when_locked`] the crate's
    /// Cargo.lock meets.
    fn at(
        &'static self,
        version: Option<Version>,
        locked: Option<&LockedVersions>,
    ) -> &'static SdkTable {
        let table = version
            .and_then(|v| self.older.iter().find(|(below, _)| v < *below))
            .map_or(self, |(_, table)| table);
        table
            .when_locked
            .iter()
            .find(|l| locked.is_some_and(|locked| l.met_by(locked)))
            .map_or(table, |l| l.table)
    }
}

/// A table for crates whose Cargo.lock pins a package the SDK builds with at a version or later
/// (rust-mcp-sdk 0.7 with rust-mcp-schema 0.7.5, whose `CallToolError::from_message` the fixes
/// write).
pub struct LockedTable {
    pub package: &'static str,
    /// `major.minor.patch`: every version of the package the lock pins with this major (and
    /// minor, for 0.x) is at least this one, and there is one.
    pub at_least: (u64, u64, u64),
    pub table: &'static SdkTable,
}

impl LockedTable {
    fn met_by(&self, locked: &LockedVersions) -> bool {
        let (major, minor, _) = self.at_least;
        let same_line: Vec<(u64, u64, u64)> = locked
            .get(self.package)
            .into_iter()
            .flatten()
            .filter_map(|v| semver_triple(v))
            .filter(|v| v.0 == major && (major > 0 || v.1 == minor))
            .collect();
        !same_line.is_empty() && same_line.iter().all(|v| *v >= self.at_least)
    }
}

/// `"0.7.5"` (a pre-release or build suffix ignored) as `(0, 7, 5)`.
fn semver_triple(version: &str) -> Option<(u64, u64, u64)> {
    let core = version.split(['-', '+']).next()?;
    let mut parts = core.split('.').map(|p| p.parse::<u64>().ok());
    Some((parts.next()??, parts.next()??, parts.next()??))
}

/// The registration entry of a table-shaped SDK, by its newest table.
pub const fn entry(table: &'static SdkTable) -> Sdk {
    Sdk {
        name: table.name,
        roots: table.roots,
        reader: Reader::Tables(table),
    }
}

/// A crate's use of a table-shaped SDK: the table for its version and the crate's names for
/// the SDK's types.
#[derive(Debug)]
pub struct TableDialect {
    table: &'static SdkTable,
    version: Option<Version>,
    names: Names,
}

impl TableDialect {
    pub(super) fn boxed(
        newest: &'static SdkTable,
        index: &Index<'_>,
        version: Option<Version>,
        locked: Option<&LockedVersions>,
    ) -> Box<dyn Dialect> {
        let table = newest.at(version, locked);
        Box::new(TableDialect {
            table,
            version,
            names: Names::resolve(table, index),
        })
    }
}

impl TableDialect {
    /// A protocol error as the SDK sends it (see [`SdkTable::sent_code`]).
    fn sent<'e>(&self, c: Construction<'e>) -> Construction<'e> {
        match (c, self.table.sent_code) {
            (
                Construction::ProtocolError {
                    constructor,
                    message,
                    ..
                },
                Some(code),
            ) => Construction::ProtocolError {
                constructor,
                code: Some(code),
                message,
            },
            (c, _) => c,
        }
    }
}

impl Dialect for TableDialect {
    fn name(&self) -> &'static str {
        self.table.name
    }

    fn claims(&self, imports: &mut dyn Iterator<Item = &Vec<String>>) -> bool {
        roots_of(self.table.roots, imports)
    }

    fn handler_kind(&self, f: &FnItem<'_>) -> Option<HandlerKind> {
        handler_kind(self.table, f)
    }

    fn handler_closure<'e>(&self, call: &'e ExprCall) -> Option<&'e Expr> {
        handler_closure_of_call(self.table, call)
    }

    fn handler_closure_of_method<'e>(
        &self,
        mc: &'e ExprMethodCall,
    ) -> Option<(&'e Expr, HandlerKind)> {
        let registers =
            |registrations: &[&str]| registers_closure(self.table, &self.names, mc, registrations);
        let kind = if registers(self.table.closure_registrations) {
            HandlerKind::Tool
        } else if registers(self.table.other_closure_registrations) {
            HandlerKind::Other
        } else {
            return None;
        };
        Some((handler_closure_arg(mc.args.iter())?, kind))
    }

    fn return_facts(
        &self,
        kind: Option<HandlerKind>,
        ret: &ReturnType,
        index: &Index<'_>,
    ) -> ReturnFacts {
        return_facts(self.table, &self.names, kind, ret, index)
    }

    fn chain_catches_errors(&self, method: &str) -> bool {
        self.table.catching_chain_methods.contains(&method)
    }

    fn closure_returns(&self, registration: Option<&str>, caught: bool) -> ReturnFacts {
        let outcome = self
            .table
            .outcome_registrations
            .iter()
            .find(|(m, _)| registration == Some(*m));
        let uncaught = !caught && outcome.is_some_and(|(_, o)| o.uncaught);
        let err = if self.table.tool_err_always_tool_error && !uncaught {
            ErrChannel::ToolError
        } else {
            ErrChannel::Protocol
        };
        ReturnFacts {
            err,
            ok_is_text: self.table.closure_ok_is_output,
            ok_wrapper: outcome.map(|(_, o)| o.ok_wrapper),
            catches_protocol_error: err == ErrChannel::ToolError
                && !self.table.protocol_error_types.is_empty(),
            ..ReturnFacts::UNKNOWN
        }
    }

    fn is_tool_result_type(&self, ty: &Type, _index: &Index<'_>) -> bool {
        type_name(ty).is_some_and(|name| {
            self.names
                .canonical(self.table, &[name, String::new()])
                .is_some_and(|c| self.table.result_types.contains(&c))
        })
    }

    fn is_protocol_error_type(&self, ty: &Type) -> bool {
        type_name(ty).is_some_and(|name| {
            self.names
                .canonical(self.table, &[name, String::new()])
                .is_some_and(|c| self.table.protocol_error_types.contains(&c))
        })
    }

    fn construction_of_call<'e>(
        &self,
        call: &'e ExprCall,
        index: &Index<'_>,
        returns: &ReturnFacts,
    ) -> Option<Construction<'e>> {
        construction_of_call(self.table, &self.names, call, index, returns).map(|c| self.sent(c))
    }

    fn construction_of_method<'e>(
        &self,
        mc: &'e ExprMethodCall,
        index: &Index<'_>,
        returns: &ReturnFacts,
    ) -> Option<(Construction<'e>, &'e ExprCall)> {
        construction_of_method(self.table, &self.names, mc, index, returns)
            .map(|(c, call)| (self.sent(c), call))
    }

    fn construction_of_content_into<'e>(&self, mc: &'e ExprMethodCall) -> Option<Construction<'e>> {
        let vec = matches!(&*mc.receiver, Expr::Macro(m) if m.mac.path.is_ident("vec"));
        (self.table.content_vec_into_result && mc.method == "into" && mc.args.is_empty() && vec)
            .then(|| Construction::ToolResult {
                constructor: "CallToolResult::from".to_string(),
                is_error: false,
                content: Some(&*mc.receiver),
                never_empty: false,
            })
    }

    fn construction_of_macro(
        &self,
        mac: &syn::Macro,
        index: &Index<'_>,
        file: &SourceFile,
        returns: &ReturnFacts,
    ) -> Option<MacroBuilt> {
        let m = construction_of_macro(self.table, mac, index, file)?;
        Some(if m.value_like && returns.err != ErrChannel::Protocol {
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
                code_expr: None,
                message: m.message,
                name: m.name,
            }
        })
    }

    fn construction_of_path<'e>(
        &self,
        path: &syn::Path,
        index: &Index<'_>,
        returns: &ReturnFacts,
        fn_value: bool,
    ) -> Option<Construction<'e>> {
        construction_of_path(self.table, &self.names, path, index, returns, fn_value)
            .map(|c| self.sent(c))
    }

    fn construction_of_struct<'e>(
        &self,
        s: &'e ExprStruct,
        index: &Index<'_>,
    ) -> Option<Construction<'e>> {
        construction_of_struct(self.table, &self.names, s, index).map(|c| self.sent(c))
    }

    fn default_message(&self, call: &ExprCall) -> Option<&'static str> {
        default_message(self.table, &self.names, call)
    }

    fn converts_crate_errors(&self) -> bool {
        self.table.converts_crate_errors
    }

    fn try_meaning(&self, returns: &ReturnFacts, operand_error_is_tool_error: bool) -> TryMeaning {
        if returns.err != ErrChannel::Protocol {
            return TryMeaning::Nothing;
        }
        match (
            operand_error_is_tool_error,
            self.table.tool_error_to_protocol_code,
            self.table.question_mark_code,
        ) {
            (true, Some(code), _) => TryMeaning::Protocol(code),
            (_, _, Some(code)) => TryMeaning::Protocol(code),
            _ => TryMeaning::FromImpls,
        }
    }

    fn question_mark_code_of(&self, external_error: &str) -> Option<i64> {
        self.table
            .question_mark_codes_of
            .iter()
            .find(|(name, _)| *name == external_error)
            .map(|(_, code)| *code)
    }

    fn wraps_error_as_result(&self, call: &ExprCall) -> bool {
        let Expr::Path(p) = &*call.func else {
            return false;
        };
        let segs = segments(&p.path);
        let types = match segs.last().map(String::as_str) {
            Some("from" | "with_error") => self.table.result_types,
            // `CallToolError::new(err)`: only the error's text, in an isError result.
            Some("new") if call.args.len() == 1 => self.table.tool_error_types,
            _ => return false,
        };
        self.names
            .canonical(self.table, &segs)
            .is_some_and(|c| types.contains(&c))
    }

    fn is_request_context_type(&self, path: &[String]) -> bool {
        let ours = path
            .first()
            .is_some_and(|root| self.table.roots.contains(&root.as_str()));
        ours && path
            .last()
            .is_some_and(|last| self.table.request_context_types.contains(&last.as_str()))
    }

    fn never_runs(&self, f: &FnItem<'_>) -> bool {
        matches!(&f.owner, Owner::Trait { trait_name, .. } if unreached_override(self.table, trait_name, f))
    }

    fn request_context_checks_argument(&self, method: &str) -> bool {
        self.table.request_context_checks.contains(&method)
    }

    fn is_serializing_method(&self, method: &str) -> bool {
        self.table.serializing_methods.contains(&method)
    }

    fn is_serializing_fn(&self, path: &[String]) -> bool {
        let ours = path
            .first()
            .is_some_and(|root| self.table.roots.contains(&root.as_str()));
        ours && matches!(path, [.., ty, f] if self.table.serializing_fns
            .iter()
            .any(|(t, m)| ty == t && f == m))
    }

    fn is_tool_error_type_name(&self, name: &str) -> bool {
        self.names
            .canonical(self.table, &[name.to_string(), String::new()])
            .is_some_and(|c| self.table.tool_error_types.contains(&c))
    }

    fn is_tool_call_arm(&self, pat: &syn::Pat) -> bool {
        is_tool_call_arm(self.table, pat)
    }

    fn payload_is_result_text(&self) -> bool {
        self.table.payload_is_result_text
    }

    fn code_use(&self, expr: &Expr, index: &Index<'_>) -> Option<CodeUse> {
        let (value, _named) = code_use(self.table, expr, index)?;
        let written = quote::ToTokens::to_token_stream(expr)
            .to_string()
            .replace(' ', "");
        Some(CodeUse { value, written })
    }

    fn is_code_constant(&self, path: &syn::Path) -> bool {
        match segments(path).as_slice() {
            [.., ty, name] => self
                .table
                .consts
                .iter()
                .any(|(ct, cn, _)| ct == ty && cn == name),
            _ => false,
        }
    }

    fn named_resource_not_found_fits_peer(&self) -> bool {
        (self.table.named_resource_not_found_fits_peer)(self.version)
    }

    fn tool_error_snippet(&self, message: &str, _dispatcher: bool) -> String {
        self.table.tool_error_snippet.replace("{msg}", message)
    }

    fn output_tool_error_snippet(&self, message: &str) -> Option<String> {
        let snippet = self.table.output_tool_error_snippet?;
        Some(snippet.replace("{msg}", message))
    }

    fn tool_error_caveat(&self) -> Option<&'static str> {
        self.table.tool_error_caveat
    }

    fn unknown_tool_caveat(&self) -> Option<&'static str> {
        self.table.unknown_tool_caveat
    }

    fn unknown_tool_snippet(&self, name_binding: &str) -> String {
        self.table
            .unknown_tool_snippet
            .replace("<name>", name_binding)
    }

    /// The table's fixes, from the version they were read in on (no version: the newest).
    fn fix_vocabulary(&self) -> Option<FixVocabulary> {
        let fix = self.table.fix?;
        if self.version.is_some_and(|v| v < fix.since) {
            return None;
        }
        Some(fix.vocabulary(self.table))
    }
}

/// A closure registration whose success wraps the tool result (tower-mcp's `.mrtr_handler(..)`:
/// `RequestOutcome<CallToolResult>`).
pub struct OutcomeRegistration {
    /// The wrapper of a complete tool result (`RequestOutcome::Complete`).
    pub ok_wrapper: &'static str,
    /// The SDK sends its `Err` as a JSON-RPC error even where tool errors are otherwise caught,
    /// unless a later method of the builder chain catches it.
    pub uncaught: bool,
}

/// A constructor of a protocol error with a fixed code.
pub const fn protocol(
    ty: &'static str,
    method: &'static str,
    code: i64,
    msg: Option<usize>,
    default_message: Option<&'static str>,
) -> Ctor {
    Ctor {
        ty,
        method,
        builds: Builds::Protocol { code, msg },
        default_message,
    }
}

/// A constructor of an error value that follows the handler's channel (see
/// [`Builds::ErrorValue`]).
pub const fn value(
    ty: &'static str,
    method: &'static str,
    protocol_code: i64,
    msg: Option<usize>,
) -> Ctor {
    Ctor {
        ty,
        method,
        builds: Builds::ErrorValue { protocol_code, msg },
        default_message: None,
    }
}

/// A constructor of an error value whose protocol code is argument `code` (see
/// [`Builds::ErrorValueCodeArg`]).
pub const fn value_code_arg(
    ty: &'static str,
    method: &'static str,
    code: usize,
    msg: Option<usize>,
) -> Ctor {
    Ctor {
        ty,
        method,
        builds: Builds::ErrorValueCodeArg { code, msg },
        default_message: None,
    }
}

/// A constructor of a tool result.
pub const fn result(ty: &'static str, method: &'static str, builds: Builds) -> Ctor {
    Ctor {
        ty,
        method,
        builds,
        default_message: None,
    }
}

/// The JSON-RPC codes by their usual constant names.
pub const STANDARD: [(&str, i64); 5] = [
    ("PARSE_ERROR", -32700),
    ("INVALID_REQUEST", -32600),
    ("METHOD_NOT_FOUND", -32601),
    ("INVALID_PARAMS", -32602),
    ("INTERNAL_ERROR", -32603),
];

/// `consts!("Type": NAME = code, ..)`: a table's `Type::NAME` code constants.
macro_rules! consts {
    ($ty:literal: $($name:ident = $code:expr),* $(,)?) => {
        [$(($ty, stringify!($name), $code)),*]
    };
}
pub(super) use consts;

/// What a constructor builds.
#[derive(Clone, Copy, Debug)]
pub enum Builds {
    /// A protocol error with this code; `msg` is the message argument.
    Protocol { code: i64, msg: Option<usize> },
    /// A protocol error whose code is argument `code`; `msg` is the message argument.
    ProtocolCodeArg { code: usize, msg: Option<usize> },
    /// An error value the SDK turns into an isError result where the handler's error channel is
    /// a tool error (and into this protocol code where it is a protocol error).
    ErrorValue {
        protocol_code: i64,
        msg: Option<usize>,
    },
    /// Like `ErrorValue`, with the protocol code given as argument `code`.
    ErrorValueCodeArg { code: usize, msg: Option<usize> },
    /// An isError tool result; `content` is the content argument.
    ToolError {
        content: Option<usize>,
        never_empty: bool,
    },
    /// An isError tool result whose argument `msg` is its text.
    ToolErrorText { msg: usize },
    /// A success tool result.
    ToolSuccess { content: Option<usize> },
}

/// A message the SDK writes when the user gives none (`RpcError::internal_error()`).
pub type DefaultMessage = Option<&'static str>;

pub struct Ctor {
    pub ty: &'static str,
    pub method: &'static str,
    pub builds: Builds,
    pub default_message: DefaultMessage,
}

/// One SDK's description.
pub struct SdkTable {
    pub name: &'static str,
    /// Crate roots in `use` paths and Cargo dependency names (with `-`).
    pub roots: &'static [&'static str],
    /// Types whose values are the SDK's protocol error (`Err` of them is a JSON-RPC error unless a
    /// handler rule says otherwise).
    pub protocol_error_types: &'static [&'static str],
    /// Error types whose `Err` the SDK turns into an isError result.
    pub tool_error_types: &'static [&'static str],
    /// `Result` aliases the SDK exports (`pmcp::Result<T>`), whose error is the protocol error.
    pub result_aliases: &'static [&'static str],
    /// Tool result types and the field that marks an error.
    pub result_types: &'static [&'static str],
    pub ctors: &'static [Ctor],
    /// `Type::CONST` code constants.
    pub consts: &'static [(&'static str, &'static str, i64)],
    /// `impl Trait for T { fn method }` handlers.
    pub trait_handlers: &'static [(&'static str, &'static str, HandlerKind)],
    /// `(trait, method, caller)`: the SDK calls `method` only from `caller`'s default body, so an
    /// impl that overrides `caller` without calling `method` never has `method` run.
    pub called_only_by_default_of: &'static [(&'static str, &'static str, &'static str)],
    /// Methods of the handler traits that are not tools (resources, prompts…).
    pub other_handler_traits: &'static [&'static str],
    /// Attributes that make a fn a handler; the second is an attribute the enclosing `impl` must
    /// carry (empty: none needed).
    pub attr_handlers: &'static [(&'static str, &'static str, HandlerKind)],
    /// Inherent methods that are tools (rust-mcp-sdk's `#[mcp_tool]` structs' `call_tool`).
    pub inherent_tool_methods: &'static [&'static str],
    /// Tools whose every `Err` is an isError result, whatever the type (turbomcp `#[server]`).
    pub tool_err_always_tool_error: bool,
    /// Registration methods of closures that answer a wrapped tool result (see
    /// [`OutcomeRegistration`]).
    pub outcome_registrations: &'static [(&'static str, OutcomeRegistration)],
    /// Builder methods that wrap the tool built below them so its `Err` becomes an isError
    /// result (tower-mcp's `.layer(..)`, `.guard(..)`).
    pub catching_chain_methods: &'static [&'static str],
    /// What `?` on a foreign error does in a protocol-error handler: `Some(code)` when the SDK's
    /// own `From` impls convert it (to that code); `None` when only the crate's impls can.
    pub question_mark_code: Option<i64>,
    /// The codes the SDK's own `From` impls give particular foreign errors, where they differ
    /// from `question_mark_code` (turbomcp 2.x: `serde_json::Error` is `Serialization`, -32602).
    pub question_mark_codes_of: &'static [(&'static str, i64)],
    /// The SDK's error converts every `std::error::Error` (jsoncall's `impl<E: Error> From<E>`),
    /// the crate's own error types among them: `?` on a crate error is the SDK's conversion
    /// unless the crate writes its own.
    pub converts_crate_errors: bool,
    /// The code the SDK sends for every handler error, whatever code the error value carries
    /// (pmcp's servers answer every `Err` with -32603); `None`: the value's own code.
    pub sent_code: Option<i64>,
    /// The protocol code the SDK's own `From<tool error> for <protocol error>` gives when `?`
    /// carries a tool error into a protocol-error handler (rust-mcp-sdk: -32603).
    pub tool_error_to_protocol_code: Option<i64>,
    /// Macros that return a protocol error: name and code (`None`: the first argument is the
    /// code, as in mcp-attr's `bail_public!(ErrorCode::X, "..")`).
    /// The third field: the macro builds an error *value* that follows the handler's channel
    /// (turbomcp's `mcp_err!`), rather than a protocol error outright.
    pub error_macros: &'static [(&'static str, Option<i64>, bool)],
    /// Method calls whose closure argument is a tool (`.tool_typed("name", |args, extra| ..)`).
    pub closure_registrations: &'static [&'static str],
    /// The same for closures that answer resource or prompt requests (tower-mcp's
    /// `ResourceBuilder::new(..).handler`): their `Err` is a JSON-RPC error.
    pub other_closure_registrations: &'static [&'static str],
    /// See [`Dialect::payload_is_result_text`].
    pub payload_is_result_text: bool,
    /// A registered closure's `Ok` is the tool's output (text or a JSON value), not the SDK's
    /// result type.
    pub closure_ok_is_output: bool,
    /// Match-arm patterns that hold a tool call inside a general request handler.
    pub tool_call_arm_variants: &'static [&'static str],
    /// How a user writes an isError result, for help texts (`{msg}` is replaced).
    pub tool_error_snippet: &'static str,
    /// The isError answer of a tool whose `Ok` is its output, not the tool result, where it is
    /// not [`SdkTable::tool_error_snippet`] ([`Dialect::output_tool_error_snippet`]).
    pub output_tool_error_snippet: Option<&'static str>,
    /// See [`Dialect::tool_error_caveat`].
    pub tool_error_caveat: Option<&'static str>,
    /// How a user writes the unknown-tool protocol error (`{name}` is replaced).
    pub unknown_tool_snippet: &'static str,
    /// See [`Dialect::unknown_tool_caveat`].
    pub unknown_tool_caveat: Option<&'static str>,
    /// See [`Dialect::named_resource_not_found_fits_peer`] ([`peer_expects_minus_32002`] for an
    /// SDK whose newest protocol is older than 2026-07-28).
    pub named_resource_not_found_fits_peer: fn(Option<Version>) -> bool,
    /// The types of the per-request context the SDK hands a tool, by name
    /// ([`Dialect::is_request_context_type`]).
    pub request_context_types: &'static [&'static str],
    /// Methods of the request context that check a value the tool passes in
    /// ([`Dialect::request_context_checks_argument`]).
    pub request_context_checks: &'static [&'static str],
    /// Methods of the SDK's types that serialise their receiver
    /// ([`Dialect::is_serializing_method`]).
    pub serializing_methods: &'static [&'static str],
    /// SDK fns, as (type, fn), that serialise the value they are given
    /// ([`Dialect::is_serializing_fn`]).
    pub serializing_fns: &'static [(&'static str, &'static str)],
    /// A `Vec` of content converts into a success tool result with `.into()`
    /// ([`Dialect::construction_of_content_into`]).
    pub content_vec_into_result: bool,
    /// Older versions that behave otherwise, on the newest table: `(version, table)` for
    /// versions below that one, the lowest bound first.
    pub older: &'static [(Version, &'static SdkTable)],
    /// Tables for crates whose Cargo.lock pins a package at a version or later, the first met
    /// wins (after [`SdkTable::older`] chose this one).
    pub when_locked: &'static [LockedTable],
    /// What fixes write for this SDK; `None`: no fixes (see [`Dialect::fix_vocabulary`]).
    pub fix: Option<&'static TableFix>,
}

/// A type a fix writes: the name the snippets use and the path a `use` brings it in by.
pub type FixName = (&'static str, &'static [&'static str]);

/// The SDK facts fixes rely on, as a table ([`FixVocabulary`] is built from it). The snippets
/// are the table's `tool_error_snippet` and `unknown_tool_snippet`.
pub struct TableFix {
    /// The oldest version the constructors were read in: older versions get no fixes.
    pub since: Version,
    pub result: FixName,
    pub content: FixName,
    pub error: FixName,
    pub others: &'static [FixName],
    pub form: ToolErrorForm,
    pub wrapped_results: &'static [&'static str],
    pub error_constructors: &'static [(&'static str, &'static str)],
    pub message_drops_into: bool,
    pub unknown_tool: bool,
    /// Modules whose glob import (`use turbomcp::prelude::*`) brings in every name the fixes
    /// write, so they add no `use` of their own.
    pub preludes: &'static [&'static [&'static str]],
}

impl TableFix {
    fn vocabulary(&self, table: &SdkTable) -> FixVocabulary {
        let name = |(name, path): FixName| SdkName {
            name: name.to_string(),
            path: path.iter().map(|s| s.to_string()).collect(),
        };
        let strings = |list: &[&str]| list.iter().map(|s| s.to_string()).collect();
        FixVocabulary {
            result: name(self.result),
            content: name(self.content),
            error: name(self.error),
            wrapped_results: strings(self.wrapped_results),
            error_constructors: self
                .error_constructors
                .iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect(),
            tool_error: self.form,
            others: self.others.iter().copied().map(name).collect(),
            result_aliases: strings(table.result_aliases),
            message_drops_into: self.message_drops_into,
            unknown_tool: self.unknown_tool,
            preludes: self
                .preludes
                .iter()
                .map(|p| p.iter().map(|s| s.to_string()).collect())
                .collect(),
        }
    }
}

impl std::fmt::Debug for SdkTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SdkTable({})", self.name)
    }
}

/// Local names of an SDK's types in one crate (`use pmcp::Error as PmcpError`).
#[derive(Clone, Debug, Default)]
struct Names {
    /// Local name → canonical type name.
    types: HashMap<String, &'static str>,
    /// Local name of a free constructor fn → (its module, its name) (`tool_not_found`).
    fns: HashMap<String, (&'static str, &'static str)>,
    /// Local names of the SDK's `Result<T>` alias (`use pmcp::Result;`).
    sdk_results: std::collections::HashSet<String>,
}

impl Names {
    fn resolve(table: &SdkTable, index: &Index<'_>) -> Names {
        let mut known: Vec<&'static str> = Vec::new();
        known.extend(table.protocol_error_types);
        known.extend(table.tool_error_types);
        known.extend(table.result_types);
        known.extend(table.ctors.iter().map(|c| c.ty));
        known.extend(table.consts.iter().map(|c| c.0));
        known.extend(registration_types(table));
        let mut types = HashMap::new();
        for name in &known {
            if !index.local_types.contains(*name) {
                types.insert(name.to_string(), *name);
            }
        }
        for (local, path) in index.all_imports() {
            let rooted = path
                .first()
                .is_some_and(|r| table.roots.contains(&r.as_str()));
            if let (true, Some(last)) = (rooted, path.last()) {
                if let Some(canonical) = known.iter().find(|k| **k == last) {
                    types.insert(local.clone(), canonical);
                }
            }
        }
        // `type AppError = pmcp::Error;`
        for (name, ty) in &index.type_aliases {
            if let Some(canonical) = type_name(ty).and_then(|n| types.get(&n).copied()) {
                types.insert(name.clone(), canonical);
            }
        }
        let sdk_results = index
            .all_imports()
            .filter(|(_, path)| {
                path.first()
                    .is_some_and(|r| table.roots.contains(&r.as_str()))
                    && path.last().is_some_and(|l| {
                        l == "Result" || table.result_aliases.contains(&l.as_str())
                    })
            })
            .map(|(local, _)| local.clone())
            .collect();
        let mut fns = HashMap::new();
        for (local, path) in index.all_imports() {
            let rooted = path
                .first()
                .is_some_and(|r| table.roots.contains(&r.as_str()));
            if let (true, [.., module, name]) = (rooted, path.as_slice()) {
                if let Some(c) = table
                    .ctors
                    .iter()
                    .find(|c| c.ty == module && c.method == name)
                {
                    fns.insert(local.clone(), (c.ty, c.method));
                }
            }
        }
        Names {
            types,
            fns,
            sdk_results,
        }
    }

    /// The canonical type a path's type segment names (`PmcpError::internal` → `Error`).
    fn canonical(&self, table: &SdkTable, segments: &[String]) -> Option<&'static str> {
        let ty = match segments {
            [.., ty, _method] => ty,
            _ => return None,
        };
        let qualified = segments
            .first()
            .is_some_and(|r| table.roots.contains(&r.as_str()));
        self.types.get(ty).copied().or_else(|| {
            qualified
                .then(|| table.ctors.iter().map(|c| c.ty).find(|t| t == ty))
                .flatten()
        })
    }
}

/// A trait method the SDK calls only from another method's default body (pmcp's
/// `ToolHandler::handle_output` calls `handle`), in an impl that overrides that method without
/// calling it: the SDK never runs it.
fn unreached_override(table: &SdkTable, trait_name: &str, f: &FnItem<'_>) -> bool {
    table
        .called_only_by_default_of
        .iter()
        .filter(|(t, method, _)| *t == trait_name && f.name == *method)
        .any(|(_, method, caller)| {
            f.impl_items.iter().any(|item| {
                matches!(item, syn::ImplItem::Fn(other)
                    if other.sig.ident == caller && !calls_self_method(&other.block, method))
            })
        })
}

/// Whether `block` calls `self.<method>(..)`.
fn calls_self_method(block: &syn::Block, method: &str) -> bool {
    struct Finder<'m> {
        method: &'m str,
        found: bool,
    }
    impl<'v> syn::visit::Visit<'v> for Finder<'_> {
        fn visit_expr_method_call(&mut self, m: &'v ExprMethodCall) {
            if m.method == self.method
                && matches!(&*m.receiver, Expr::Path(p) if p.path.is_ident("self"))
            {
                self.found = true;
            }
            syn::visit::visit_expr_method_call(self, m);
        }
    }
    let mut finder = Finder {
        method,
        found: false,
    };
    syn::visit::Visit::visit_block(&mut finder, block);
    finder.found
}

/// Whether a parameter of `f` is a tool call's request (`CallToolRequestParams`,
/// `CallToolRequest`, through references).
fn takes_tool_call_request(f: &FnItem<'_>) -> bool {
    f.sig.inputs.iter().any(|input| match input {
        syn::FnArg::Typed(t) => {
            let mut ty = &*t.ty;
            while let Type::Reference(r) = ty {
                ty = &r.elem;
            }
            matches!(ty, Type::Path(p) if p.path.segments.last()
                .is_some_and(|s| s.ident.to_string().starts_with("CallToolRequest")))
        }
        syn::FnArg::Receiver(_) => false,
    })
}

fn handler_kind(table: &SdkTable, f: &FnItem<'_>) -> Option<HandlerKind> {
    for (attr, impl_attr, kind) in table.attr_handlers {
        if has_attr(f.attrs, attr) && (impl_attr.is_empty() || has_attr(f.impl_attrs, impl_attr)) {
            return Some(*kind);
        }
    }
    if let Owner::Inherent { .. } = &f.owner {
        // A handler's own `fn call_tool(&self, params: CallToolRequestParams)` is handed the
        // request to pick a tool from, not a tool.
        if table.inherent_tool_methods.contains(&f.name.as_str()) && !takes_tool_call_request(f) {
            return Some(HandlerKind::Tool);
        }
    }
    if let Owner::Trait { trait_name, .. } = &f.owner {
        for (t, method, kind) in table.trait_handlers {
            if trait_name == t && (f.name == *method || method.is_empty()) {
                return Some(*kind);
            }
        }
        if table.other_handler_traits.contains(&trait_name.as_str()) {
            return Some(HandlerKind::Other);
        }
    }
    None
}

/// `Result<T, E>` and the SDK's `Result<T>` aliases: (ok, err type name or "<alias>").
fn result_parts<'t>(
    table: &SdkTable,
    names: &Names,
    ty: &'t Type,
    index: &Index<'t>,
    depth: usize,
) -> Option<(Option<&'t Type>, Option<String>)> {
    let Type::Path(p) = ty else { return None };
    let last = p.path.segments.last()?;
    let name = last.ident.to_string();
    let args: Vec<&Type> = match &last.arguments {
        syn::PathArguments::AngleBracketed(a) => a
            .args
            .iter()
            .filter_map(|g| match g {
                syn::GenericArgument::Type(t) => Some(t),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    if name == "Result" || table.result_aliases.contains(&name.as_str()) {
        let err = match args.get(1) {
            Some(e) => type_name(e),
            // `pmcp::Result<T>`, `McpResult<T>`, `Result<T>` imported from the SDK: the SDK's
            // protocol error. (`anyhow::Result<T>` is not.)
            None if args.len() == 1
                && (table.result_aliases.contains(&name.as_str())
                    || p.path
                        .segments
                        .first()
                        .is_some_and(|r| table.roots.contains(&r.ident.to_string().as_str()))
                    || (p.path.segments.len() == 1 && names.sdk_results.contains(&name))) =>
            {
                Some(format!("<{}>", table.name))
            }
            None => None,
        };
        return Some((args.first().copied(), err));
    }
    if depth < 4 {
        if let Some(alias) = index.type_aliases.get(&name) {
            return result_parts(table, names, alias, index, depth + 1);
        }
    }
    None
}

fn return_facts(
    table: &SdkTable,
    names: &Names,
    kind: Option<HandlerKind>,
    ret: &ReturnType,
    index: &Index<'_>,
) -> ReturnFacts {
    let unknown = ReturnFacts::UNKNOWN;
    let ReturnType::Type(_, ty) = ret else {
        return unknown;
    };
    // Text or a JSON value returned as the tool's output (pmcp's `Result<Value>`).
    // A tool's typed output (pmcp's `Result<Stats>`) is its success value too, unless it is the
    // SDK's own result type (which says itself whether it is an error).
    let is_text = |t: Option<&Type>| {
        t.and_then(type_name).is_some_and(|n| {
            n == "String"
                || (kind == Some(HandlerKind::Tool)
                    && n != "()"
                    && !table.result_types.contains(&n.as_str())
                    && !names
                        .types
                        .get(&n)
                        .is_some_and(|c| table.result_types.contains(c)))
        })
    };
    let ty = crate::syntax::unwrap_future(ty);
    let Some((ok, err)) = result_parts(table, names, ty, index, 0) else {
        return ReturnFacts {
            ok_is_text: is_text(Some(ty)),
            ..unknown
        };
    };
    let canonical = err.as_deref().and_then(|e| {
        if e.starts_with('<') {
            table.protocol_error_types.first().copied()
        } else {
            names.types.get(e).copied()
        }
    });
    let protocol = canonical.is_some_and(|c| table.protocol_error_types.contains(&c));
    let caught = kind == Some(HandlerKind::Tool) && table.tool_err_always_tool_error;
    let err = match canonical {
        _ if caught => ErrChannel::ToolError,
        Some(c) if table.tool_error_types.contains(&c) => ErrChannel::ToolError,
        _ if protocol => ErrChannel::Protocol,
        _ => ErrChannel::Unknown,
    };
    ReturnFacts {
        err,
        ok_is_text: is_text(ok),
        catches_protocol_error: caught && protocol,
        ..unknown
    }
}

/// What a `Type::method(..)` call builds, given the body's error channel.
fn construction_of_call<'e>(
    table: &SdkTable,
    names: &Names,
    call: &'e ExprCall,
    index: &Index<'_>,
    returns: &ReturnFacts,
) -> Option<Construction<'e>> {
    let Expr::Path(p) = &*call.func else {
        return None;
    };
    let segs = segments(&p.path);
    // A free constructor fn imported by name (`tool_not_found(name)`).
    if let [single] = segs.as_slice() {
        let (module, name) = names.fns.get(single)?;
        let ctor = table
            .ctors
            .iter()
            .find(|c| c.ty == *module && c.method == *name)?;
        let arg = |i: usize| call.args.iter().nth(i);
        return build(table, ctor, name, &|i| arg(i), index, returns);
    }
    let canonical = names.canonical(table, &segs)?;
    let method = segs.last()?.as_str();
    let ctor = table
        .ctors
        .iter()
        .find(|c| c.ty == canonical && c.method == method)?;
    let arg = |i: usize| call.args.iter().nth(i);
    build(
        table,
        ctor,
        &format!("{canonical}::{method}"),
        &|i| arg(i),
        index,
        returns,
    )
}

fn build<'e>(
    table: &SdkTable,
    ctor: &Ctor,
    constructor: &str,
    arg: &dyn Fn(usize) -> Option<&'e Expr>,
    index: &Index<'_>,
    returns: &ReturnFacts,
) -> Option<Construction<'e>> {
    let constructor = constructor.to_string();
    Some(match ctor.builds {
        Builds::Protocol { code, msg } => Construction::ProtocolError {
            constructor,
            code: Some(code),
            message: msg.and_then(arg),
        },
        Builds::ProtocolCodeArg { code, msg } => Construction::ProtocolError {
            constructor,
            code: arg(code)
                .and_then(|c| code_use(table, c, index))
                .map(|c| c.0),
            message: msg.and_then(arg),
        },
        // Where the body's error channel is unknown (a helper returning the error value), what
        // the value becomes depends on who returns it: not a site of its own.
        Builds::ErrorValue { .. } | Builds::ErrorValueCodeArg { .. }
            if returns.err == ErrChannel::Unknown =>
        {
            return None;
        }
        Builds::ErrorValue { protocol_code, msg } => {
            if returns.err == ErrChannel::Protocol {
                Construction::ProtocolError {
                    constructor,
                    code: Some(protocol_code),
                    message: msg.and_then(arg),
                }
            } else {
                Construction::ToolResult {
                    constructor,
                    is_error: true,
                    content: msg.and_then(arg),
                    never_empty: msg.is_none(),
                }
            }
        }
        Builds::ErrorValueCodeArg { code, msg } => {
            if returns.err == ErrChannel::Protocol {
                Construction::ProtocolError {
                    constructor,
                    code: arg(code)
                        .and_then(|c| code_use(table, c, index))
                        .map(|c| c.0),
                    message: msg.and_then(arg),
                }
            } else {
                Construction::ToolResult {
                    constructor,
                    is_error: true,
                    content: msg.and_then(arg),
                    never_empty: msg.is_none(),
                }
            }
        }
        Builds::ToolErrorText { msg } => Construction::ToolResult {
            constructor,
            is_error: true,
            content: arg(msg),
            never_empty: false,
        },
        Builds::ToolError {
            content,
            never_empty,
        } => Construction::ToolResult {
            constructor,
            is_error: true,
            content: content.and_then(arg),
            never_empty,
        },
        Builds::ToolSuccess { content } => Construction::ToolResult {
            constructor,
            is_error: false,
            content: content.and_then(arg),
            never_empty: false,
        },
    })
}

/// `RpcError::internal_error().with_message(m)`, `Error::new(code).with_message(m, true)`: the
/// chain builds one error; returns it and the inner constructor call it consumed.
fn construction_of_method<'e>(
    table: &SdkTable,
    names: &Names,
    mc: &'e ExprMethodCall,
    index: &Index<'_>,
    returns: &ReturnFacts,
) -> Option<(Construction<'e>, &'e ExprCall)> {
    if mc.method != "with_message" {
        return None;
    }
    let mut inner = &*mc.receiver;
    while let Expr::MethodCall(m) = inner {
        if m.method != "with_data" {
            break;
        }
        inner = &m.receiver;
    }
    let Expr::Call(call) = inner else { return None };
    match construction_of_call(table, names, call, index, returns)? {
        Construction::ProtocolError {
            constructor, code, ..
        } => Some((
            Construction::ProtocolError {
                constructor,
                code,
                message: mc.args.first(),
            },
            call,
        )),
        _ => None,
    }
}

/// The SDK's default message for a constructor called without one.
fn default_message(table: &SdkTable, names: &Names, call: &ExprCall) -> Option<&'static str> {
    let Expr::Path(p) = &*call.func else {
        return None;
    };
    let segs = segments(&p.path);
    let canonical = names.canonical(table, &segs)?;
    let method = segs.last()?;
    table
        .ctors
        .iter()
        .find(|c| c.ty == canonical && c.method == method)
        .and_then(|c| c.default_message)
}

/// `Result { is_error: true, content: .. }` and `ProtocolError { code, message }` literals.
fn construction_of_struct<'e>(
    table: &SdkTable,
    names: &Names,
    s: &'e ExprStruct,
    index: &Index<'_>,
) -> Option<Construction<'e>> {
    let segs = segments(&s.path);
    let last = segs.last()?.as_str();
    let canonical = names.types.get(last).copied().unwrap_or(last);
    let field = |name: &str| crate::syntax::field_value(s, name);
    if table.result_types.contains(&canonical) {
        return Some(Construction::ToolResult {
            constructor: format!("{last} {{ .. }}"),
            is_error: field("is_error").is_some_and(super::is_true),
            content: field("content"),
            never_empty: false,
        });
    }
    // `Error::Protocol { code, message, .. }`, `RpcError { code, message, .. }`, `ErrorObject {..}`
    let error_literal = table.protocol_error_types.contains(&canonical)
        || segs.len() >= 2
            && table
                .protocol_error_types
                .contains(&segs[segs.len() - 2].as_str());
    if error_literal && field("code").is_some() {
        return Some(Construction::ProtocolError {
            constructor: format!("{} {{ .. }}", segs.join("::")),
            code: field("code")
                .and_then(|c| code_use(table, c, index))
                .map(|c| c.0),
            message: field("message"),
        });
    }
    None
}

/// A code expression: a literal, a crate const, `Type::CONST` from the table, `ErrorCode(n)`,
/// `ErrorCode::other(n)`. Returns the value and how it was written.
fn code_use(table: &SdkTable, expr: &Expr, index: &Index<'_>) -> Option<(i64, bool)> {
    match expr {
        Expr::Path(p) => {
            let segs = segments(&p.path);
            match segs.as_slice() {
                [.., ty, name] => table
                    .consts
                    .iter()
                    .find(|(t, n, _)| t == ty && n == name)
                    .map(|c| (c.2, true))
                    .or_else(|| index.consts.get(name).map(|c| (c.value, false))),
                [name] => index.consts.get(name).map(|c| (c.value, false)),
                [] => None,
            }
        }
        Expr::Call(c) if c.args.len() == 1 => {
            let Expr::Path(p) = &*c.func else { return None };
            let last = p.path.segments.last()?.ident.to_string();
            (last.ends_with("Code") || last == "other" || last == "from_rpc_code")
                .then(|| index.eval_int(&c.args[0]).map(|v| (v, false)))
                .flatten()
        }
        Expr::Paren(p) => code_use(table, &p.expr, index),
        Expr::Cast(c) => code_use(table, &c.expr, index),
        // `SdkErrorCodes::REQUEST_TIMEOUT.into()`, `ErrorCode::X.code()`
        Expr::MethodCall(m) if m.args.is_empty() => code_use(table, &m.receiver, index),
        _ => index.eval_int(expr).map(|v| (v, false)),
    }
}

/// Whether a method is one of `registrations` (`tool_typed`), or one only on a builder chain
/// that starts at a given call (`ToolBuilder::new(..).handler`).
fn registers_closure(
    table: &SdkTable,
    names: &Names,
    mc: &ExprMethodCall,
    registrations: &[&str],
) -> bool {
    let m = mc.method.to_string();
    registrations.iter().any(|r| match r.split_once("(..).") {
        Some((root, method)) => method == m && chain_starts_at(table, names, &mc.receiver, root),
        None => *r == m,
    })
}

/// Whether a method chain (`ToolBuilder::new("x").description(..)`) starts at a call of `root`
/// (`ToolBuilder::new`), its type named as the crate names the SDK's.
fn chain_starts_at(table: &SdkTable, names: &Names, mut receiver: &Expr, root: &str) -> bool {
    let Some((ty, func)) = root.split_once("::") else {
        return false;
    };
    loop {
        match receiver {
            Expr::MethodCall(m) => receiver = &m.receiver,
            Expr::Paren(p) => receiver = &p.expr,
            Expr::Call(c) => {
                let Expr::Path(p) = &*c.func else {
                    return false;
                };
                let segs = segments(&p.path);
                return segs.last().is_some_and(|l| l == func)
                    && names.canonical(table, &segs) == Some(ty);
            }
            _ => return false,
        }
    }
}

/// The types registration entries name (`SimpleTool` of `SimpleTool::new`, `ToolBuilder` of
/// `ToolBuilder::new(..).handler`).
fn registration_types(table: &SdkTable) -> impl Iterator<Item = &'static str> {
    table
        .closure_registrations
        .iter()
        .chain(table.other_closure_registrations)
        .filter_map(|r| r.split_once("::").map(|(ty, _)| ty))
}

/// A closure passed to a registration function (`SimpleTool::new("add", |args, extra| ..)`).
fn handler_closure_of_call<'e>(table: &SdkTable, call: &'e ExprCall) -> Option<&'e Expr> {
    let Expr::Path(p) = &*call.func else {
        return None;
    };
    let segs = segments(&p.path);
    let registers = match segs.as_slice() {
        [.., ty, m] => table
            .closure_registrations
            .iter()
            .any(|r| r.split_once("::").is_some_and(|(t, mm)| t == ty && mm == m)),
        _ => false,
    };
    if !registers {
        return None;
    }
    handler_closure_arg(call.args.iter())
}

/// The first argument that is a closure, itself or boxed (`Box::new(|args, extra| ..)`,
/// `Arc::new(..)`: the registration stores it behind a pointer, the closure is the same).
fn handler_closure_arg<'e>(mut args: impl Iterator<Item = &'e Expr>) -> Option<&'e Expr> {
    args.find_map(|a| match a {
        Expr::Closure(_) => Some(a),
        Expr::Call(c) if c.args.len() == 1 && matches!(&c.args[0], Expr::Closure(_)) => {
            let Expr::Path(p) = &*c.func else {
                return None;
            };
            matches!(segments(&p.path).as_slice(), [.., ptr, new] if new == "new" && (ptr == "Box" || ptr == "Arc"))
                .then(|| &c.args[0])
        }
        _ => None,
    })
}

/// Whether a match arm's pattern is the tool-call variant of a general request enum.
fn is_tool_call_arm(table: &SdkTable, pat: &syn::Pat) -> bool {
    let path = match pat {
        syn::Pat::TupleStruct(t) => &t.path,
        syn::Pat::Struct(s) => &s.path,
        syn::Pat::Path(p) => &p.path,
        _ => return false,
    };
    path.segments
        .last()
        .is_some_and(|s| table.tool_call_arm_variants.iter().any(|v| s.ident == v))
}

/// What an error macro builds.
struct MacroError {
    pub code: Option<i64>,
    pub code_span: Option<crate::source::Span>,
    pub message: crate::text::MessageText,
    pub name: String,
    /// An error value following the handler's channel (see `SdkTable::error_macros`).
    pub value_like: bool,
}

/// `bail!("..", x)`, `bail_public!(ErrorCode::X, "..")`: the code and the message.
fn construction_of_macro(
    table: &SdkTable,
    mac: &syn::Macro,
    index: &Index<'_>,
    file: &crate::source::SourceFile,
) -> Option<MacroError> {
    let name = mac.path.segments.last()?.ident.to_string();
    let (_, code, value_like) = table.error_macros.iter().find(|(m, _, _)| *m == name)?;
    let args = mac
        .parse_body_with(syn::punctuated::Punctuated::<Expr, syn::Token![,]>::parse_terminated)
        .ok()?;
    let args: Vec<&Expr> = args.iter().collect();
    let (code, code_span, rest) = match code {
        Some(c) => (Some(*c), None, &args[..]),
        None => (
            match args.first() {
                // `bail_public!(_, ..)`: the default code, internal error.
                Some(Expr::Infer(_)) => Some(-32603),
                c => c.and_then(|c| code_use(table, c, index)).map(|c| c.0),
            },
            args.first().map(|c| file.span_of(*c)),
            args.get(1..).unwrap_or(&[]),
        ),
    };
    let text = match (rest, code.and_then(standard_code_text)) {
        // `bail!()`, `bail_public!(ErrorCode::INVALID_PARAMS)`: the code's own generic text.
        ([], Some(value)) => crate::text::MessageText::Literal {
            value: value.to_string(),
            span: file.span_of(&mac.path),
        },
        _ => crate::text::format_args_message(rest, file),
    };
    Some(MacroError {
        code,
        code_span,
        message: text,
        name: format!("{name}!"),
        value_like: *value_like,
    })
}

/// The text JSON-RPC gives the five codes it defines, which SDKs send when given no message.
fn standard_code_text(code: i64) -> Option<&'static str> {
    (-32700..=-32600)
        .contains(&code)
        .then(|| crate::codes::name(code))
        .flatten()
}

/// A unit variant written as a path (`Error::RateLimited`), or with `fn_value` a constructor fn
/// passed as a value (`.map_err(Error::invalid_params)`: its argument is the error's own text).
fn construction_of_path<'e>(
    table: &SdkTable,
    names: &Names,
    path: &syn::Path,
    index: &Index<'_>,
    returns: &ReturnFacts,
    fn_value: bool,
) -> Option<Construction<'e>> {
    let segs = segments(path);
    let canonical = names.canonical(table, &segs)?;
    let name = segs.last()?.as_str();
    // A value is a unit variant (`Error::RateLimited`); a fn is a constructor fn or a tuple
    // variant (`.map_err(McpError::Other)`).
    if !fn_value && !name.starts_with(|c: char| c.is_ascii_uppercase()) {
        return None;
    }
    let ctor = table
        .ctors
        .iter()
        .find(|c| c.ty == canonical && c.method == name)?;
    // Point-free, only a protocol error outright: a tool error value given as a fn
    // (`.map_err(CallToolError::new)`) is the `?` conversion's business.
    if fn_value && !matches!(ctor.builds, Builds::Protocol { .. }) {
        return None;
    }
    build(
        table,
        ctor,
        &format!("{canonical}::{name}"),
        &|_| None,
        index,
        returns,
    )
}

#[cfg(test)]
mod locked_tests {
    use super::*;

    #[test]
    fn a_locked_table_needs_every_pin_of_its_line_at_least_its_version() {
        let newest: &'static SdkTable = match crate::sdk::rust_mcp_sdk::SDK.reader {
            Reader::Tables(t) => t,
            Reader::Code(_) => unreachable!("rust-mcp-sdk is a table"),
        };
        let v0_7 = Some(Version { major: 0, minor: 7 });
        let has_fix = |pins: &[&str]| {
            let mut locked = LockedVersions::new();
            for p in pins {
                locked
                    .entry("rust-mcp-schema".to_string())
                    .or_default()
                    .push(p.to_string());
            }
            newest.at(v0_7, Some(&locked)).fix.is_some()
        };
        assert!(has_fix(&["0.7.5"]));
        assert!(has_fix(&["0.7.6", "2.0.0"]));
        assert!(!has_fix(&["0.7.0"]));
        assert!(!has_fix(&["0.7.0", "0.7.5"]));
        assert!(!has_fix(&["2.0.0"]));
        assert!(!has_fix(&[]));
        assert!(newest.at(v0_7, None).fix.is_none());
        assert!(newest.at(None, None).fix.is_some());
    }
}
