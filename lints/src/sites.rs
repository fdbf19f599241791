//! Error sites: every expression by which a handler yields a failure or a result, with its
//! channel, code, text and the failure path it sits on. Found by one walk over each body.

use std::collections::HashMap;

use syn::visit::{self, Visit};
use syn::{Expr, Pat};

use crate::calls::{bind_pattern, Locals, Resolver, Target};
use crate::context::{BodyCode, BodyId, BodyInfo};
use crate::index::Index;
use crate::model::FileId;
use crate::resolve::{DefMap, ItemId};
use crate::sdk::{
    Construction, ContentFacts, Dialect, ErrChannel, HandlerKind, MacroBuilt, ReturnFacts,
    TryMeaning,
};
use crate::source::{SourceFile, Span};
use crate::text::{message_from_expr, MessageText};
use crate::types::{FnKey, Types};

/// Which way a failure or result reaches the client.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Channel {
    /// A tool result with `isError: true`: the model reads it.
    ToolError,
    /// A tool result without `isError`: the model takes it as success.
    ToolSuccess,
    /// A JSON-RPC error response: hosts log it; the model rarely sees it.
    Protocol,
}

/// Where a site sits, once tool context is resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SiteContext {
    /// In a tool handler (or a helper only tools reach); `tools` names them.
    Tool {
        tools: Vec<String>,
        helper: Option<String>,
    },
    /// The dispatcher's fallback arm for a tool name it does not know.
    UnknownToolArm { binding: String },
    /// In a helper that tools *and* other code reach: reported at each tool's call instead.
    SharedHelper { helper: String },
    /// Resource, prompt, completion… handlers: protocol errors belong there.
    OtherHandler,
    /// Code no handler reaches (by the name-based call map).
    Unreached,
}

impl SiteContext {
    pub fn is_tool(&self) -> bool {
        matches!(self, SiteContext::Tool { .. })
    }

    /// Handler code that answers tool calls: tools, helpers they reach, the unknown-tool arm.
    pub fn answers_tool_calls(&self) -> bool {
        matches!(
            self,
            SiteContext::Tool { .. }
                | SiteContext::UnknownToolArm { .. }
                | SiteContext::SharedHelper { .. }
        )
    }

    /// "tool `a`" / "tools `a`, `b`", for messages.
    pub fn describe_tools(&self) -> Option<String> {
        let SiteContext::Tool { tools, .. } = self else {
            return None;
        };
        let quoted: Vec<String> = tools.iter().map(|t| format!("`{t}`")).collect();
        Some(match quoted.len() {
            1 => format!("tool {}", quoted[0]),
            _ => format!("tools {}", quoted.join(", ")),
        })
    }

    /// "tool `a` reports" / "tools `a`, `b` report": the tools as the subject of `verb` (given in
    /// its singular form, e.g. "reports").
    pub fn tools_subject(&self, verb: &str) -> String {
        let (tools, plural) = match self {
            SiteContext::Tool { tools, .. } => {
                (self.describe_tools().unwrap_or_default(), tools.len() > 1)
            }
            _ => ("tool code".to_string(), false),
        };
        let verb = if plural {
            verb.strip_suffix('s').unwrap_or(verb)
        } else {
            verb
        };
        format!("{tools} {verb}")
    }

    /// A note naming the helper and the tools that reach it, for findings inside helpers.
    pub fn helper_note(&self) -> Option<String> {
        match self {
            SiteContext::Tool {
                helper: Some(helper),
                ..
            } => Some(format!(
                "built in helper `{helper}`, which only tool code calls: reached from {}",
                self.describe_tools().unwrap_or_default()
            )),
            _ => None,
        }
    }
}

impl ErrorSite {
    /// The message as it should appear in a suggested fix: the user's own expression, else a
    /// placeholder.
    pub fn message_for_fix(&self) -> String {
        if let Some(src) = &self.message_source {
            return src.clone();
        }
        match self.texts.first() {
            Some(MessageText::Literal { value, .. }) if !value.trim().is_empty() => {
                format!("{value:?}")
            }
            _ => "\"<what failed and what to do instead>\"".to_string(),
        }
    }

    /// Whether its text says the thing looked up is not there ("not found", "expired").
    pub fn says_missing(&self) -> bool {
        const MISSING: &[&str] = &[
            "not found",
            "expired",
            "unknown",
            "no such",
            "does not exist",
            "doesn't exist",
            "invalid",
            "missing",
            "no longer",
            "not exist",
            "closed",
        ];
        self.texts.iter().any(|t| {
            let known = t.known_lowercase();
            MISSING.iter().any(|m| known.contains(m))
        })
    }

    /// Whether it was re-reported at a call into a shared helper.
    pub fn is_delegated(&self) -> bool {
        matches!(
            self.origin,
            Origin::HelperCall { .. } | Origin::TextArgument { .. }
        )
    }

    /// Whether its text was passed in by a call (`fail(id, "invalid input")`): the text lints
    /// judge it there.
    pub fn is_text_argument(&self) -> bool {
        matches!(self.origin, Origin::TextArgument { .. })
    }

    /// How it was built, for messages (`McpError::internal_error`).
    pub fn built_with(&self) -> String {
        match &self.origin {
            Origin::Constructor(c) => format!("`{c}`"),
            Origin::ToolErr => "`Err(..)`".to_string(),
            Origin::IsErrorAssignment => "`is_error = Some(true)`".to_string(),
            Origin::TextValue => "text".to_string(),
            Origin::HelperCall {
                helper,
                constructor,
                ..
            } => format!("`{constructor}` in helper `{helper}`"),
            Origin::QuestionMark => "`?`".to_string(),
            Origin::TextArgument { helper, .. } => format!("`{helper}(..)`"),
        }
    }
}

/// How the site was written, for messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// An SDK constructor or struct literal (`McpError::internal_error`, `CallToolResult::error`).
    Constructor(String),
    /// `Err(..)` of a tool whose error type the SDK turns into an isError result.
    ToolErr,
    /// `r.is_error = Some(true)`.
    IsErrorAssignment,
    /// Text returned as the success value of a text-returning tool.
    TextValue,
    /// A call into a helper shared with non-tool code; `built_at` is the helper's construction.
    HelperCall {
        helper: String,
        built_at: Span,
        constructor: String,
    },
    /// `?` converting through the crate's `impl From<X> for` the protocol error type.
    QuestionMark,
    /// A call passing the text of a result or error a helper builds (`fail(id, "..")`).
    TextArgument { helper: String, built_at: Span },
}

/// Facts about the failure path an expression is on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PathFacts {
    /// Inside an `Err(e) =>` arm, `if let Err(e)`, `let Ok(..) else`, or a `map_err` /
    /// `unwrap_or_else` / `ok_or_else` closure.
    pub on_failure_path: bool,
    /// The failure is a lookup miss (`get`/`remove` → `None`/`Err`) on a runtime key.
    pub lookup_miss: bool,
    /// That lookup's key or store names a handle (`sessions.get(&session_id)`), not a search.
    pub handle_lookup: bool,
    /// The failed operation or the message marks a genuine server fault (poisoned lock,
    /// `JoinError`, serialising the server's own output, cancellation, internal channels).
    pub server_fault: bool,
    /// The failure is about the request's shape (arguments missing or not an object, a required
    /// field absent or of the wrong JSON type, request metadata), not an argument's value.
    pub schema_level: bool,
    /// The built value mentions the error binding (`format!("Error: {e}")`).
    pub uses_error: bool,
}

/// What a crate fn's signature says, for its callers.
#[derive(Clone, Copy, Debug, Default)]
pub struct FnFacts {
    /// It returns the protocol error type.
    pub protocol: bool,
    /// It returns the SDK's tool error type (`Result<_, CallToolError>`).
    pub tool_error: bool,
}

/// The error type of a value `?` converts, as far as the source tells.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ErrorSource {
    /// A crate type (and the variant, when the value is built right there).
    Local(ItemId, Option<String>),
    /// Another crate's type, by its last name (`Error` of `std::io::Error`).
    External(String),
    Unknown,
}

/// What every body's walk shares: the crate's names, types and fns.
pub struct CrateCalls<'r, 'a> {
    pub defs: &'r DefMap<'a>,
    pub types: &'r Types<'a>,
    /// The body of each crate fn.
    pub body_of: HashMap<FnKey, BodyId>,
    /// Per fn body (by `BodyId`), what its signature says.
    pub facts: Vec<FnFacts>,
}

impl CrateCalls<'_, '_> {
    fn body(&self, f: FnKey) -> Option<BodyId> {
        self.body_of.get(&f).copied()
    }

    fn fn_facts(&self, f: FnKey) -> Option<FnFacts> {
        self.body(f).and_then(|b| self.facts.get(b.0).copied())
    }
}

/// One error site.
#[derive(Clone, Debug)]
pub struct ErrorSite {
    pub file: FileId,
    pub span: Span,
    pub channel: Channel,
    /// The JSON-RPC code, for protocol errors whose code is static.
    pub code: Option<i64>,
    /// The message (protocol errors) or text blocks (tool results).
    pub texts: Vec<MessageText>,
    /// The source text of the message expression (protocol errors), for help texts.
    pub message_source: Option<String>,
    /// The body's text parameter the message comes from (`fn fail(text: &str)`), so each call's
    /// argument is the text.
    pub text_param: Option<usize>,
    /// Tool results statically known to have no readable content.
    pub empty_content: bool,
    pub origin: Origin,
    pub context: SiteContext,
    pub path: PathFacts,
    /// The body it was found in.
    pub body: BodyId,
    /// Built in a `match` arm over a crate enum: the variants that reach it (a `From` impl or a
    /// `to_mcp(&self)` mapping), so a call that passes one variant gets only its arm.
    pub variant: Option<VariantTag>,
    /// Other places that explain it: where a helper builds it, or the tool calls that reach it.
    pub related: Vec<(FileId, Span, String)>,
}

/// The variants of a crate enum that reach a site.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum VariantTag {
    /// An arm naming these variants.
    Is(ItemId, Vec<String>),
    /// A catch-all arm: every variant but these.
    Otherwise(ItemId, Vec<String>),
}

impl VariantTag {
    /// Whether a value of variant `v` of `e` reaches it.
    pub fn admits(&self, e: ItemId, v: &str) -> bool {
        match self {
            VariantTag::Is(id, vs) => *id != e || vs.iter().any(|x| x == v),
            VariantTag::Otherwise(id, vs) => *id != e || !vs.iter().any(|x| x == v),
        }
    }
}

/// An error code written in an error-code position.
#[derive(Clone, Debug)]
pub struct CodeSite {
    pub file: FileId,
    pub span: Span,
    pub value: i64,
    pub written: String,
    /// Written by the SDK's name for it (`resource_not_found(..)`, `ErrorCode::RESOURCE_NOT_FOUND`)
    /// rather than as a number.
    pub named: bool,
    /// The body it was found in.
    pub body: BodyId,
}

/// `unwrap`, `expect`, `panic!` and friends.
#[derive(Clone, Debug)]
pub struct PanicSite {
    pub file: FileId,
    pub span: Span,
    pub what: String,
    pub body: BodyId,
}

/// A call from one body to functions of the crate, by name.
#[derive(Clone, Debug)]
pub struct CallEdge {
    pub from: BodyId,
    pub callee: Callee,
    pub span: Span,
    pub context_override: Option<SiteContext>,
    /// The failure path at the call (`spawn_blocking(..).await.map_err(helper)` is a server
    /// fault whatever `helper` builds).
    pub path: PathFacts,
    /// The call's arguments read as text (receiver not counted).
    pub args: Vec<MessageText>,
    /// The enum variant the call's receiver or first argument builds right there
    /// (`AppError::NotFound(..).to_mcp()`), by enum and variant name.
    pub variant: Option<(ItemId, String)>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Callee {
    /// One crate fn, resolved by path, import or receiver type.
    Body(BodyId),
    /// One of these crate methods (the receiver's type is not written): they count only where
    /// they agree.
    Candidates(Vec<BodyId>),
    /// Every one of these may run (a call on a trait object).
    Dispatch(Vec<BodyId>),
    /// `?` converting into the protocol error type through the crate's `From` impls, with the
    /// operand's error type as far as the source tells it.
    FromImpls(ErrorSource),
}

/// What one body's walk found.
#[derive(Default)]
pub struct BodyFacts<'a> {
    pub sites: Vec<(ErrorSite, Option<SiteContext>)>,
    pub codes: Vec<CodeSite>,
    pub panics: Vec<(PanicSite, Option<SiteContext>)>,
    pub calls: Vec<CallEdge>,
    /// Closures registered as tool handlers, found inside this body.
    pub closures: Vec<&'a Expr>,
}

/// Names of calls and methods whose failure is a fault of the server itself (`name()`: a
/// method called with no arguments, so `Path::join(p)` is not `JoinHandle::join()`).
const SERVER_FAULT_CALLS: &[&str] = &[
    "lock()",
    "try_lock()",
    "blocking_lock()",
    "read()",
    "write()",
    "try_read()",
    "try_write()",
    "join()",
    "spawn",
    "spawn_blocking",
    "to_string_pretty",
    "to_value",
    "to_vec",
    "to_vec_pretty",
    "to_writer",
    "schema_for",
    "elicit",
    "cancelled",
];

/// Phrases in a message that mark a server fault. Specific on purpose: "locked by another
/// user", "order cancelled" or "channel #ops" are the tool's own failures.
const SERVER_FAULT_WORDS: &[&str] = &[
    "poison",
    "mutex",
    "rwlock",
    "acquire lock",
    "acquire the lock",
    "lock poisoned",
    "join error",
    "joinerror",
    "task panicked",
    "task failed to complete",
    "worker panicked",
    "panicked",
    "failed to serialize response",
    "failed to serialize result",
    "failed to serialize output",
    "serialize the response",
    "serialize the result",
    "serialize response",
    "serialize result",
    "serialization of the response",
    "cancellation",
    "request cancelled",
    "cancelled by the client",
    "request was cancelled",
    "request canceled",
    "channel closed",
    "internal channel",
    "reply channel",
    "worker channel",
    "elicitation schema",
    "generate schema",
    "schema generation",
    "shutting down",
];

/// Calls that read the request's arguments as a whole (a failure is schema-level).
const SCHEMA_CALLS: &[&str] = &[
    "from_value",
    "from_str",
    "from_slice",
    "from_reader",
    "deserialize",
    "as_object",
    "arguments",
];

/// Phrases that mark a schema-level message: the request's shape, not an argument's value.
/// Type words ("must be an integer") are left to the failing call, since "must be an integer
/// from 2 to 36" is a range check.
const SCHEMA_WORDS: &[&str] = &[
    "missing required",
    "missing argument",
    "missing param",
    "missing field",
    "missing property",
    "missing key",
    "missing `",
    "missing '",
    "missing \"",
    "is required",
    "are required",
    "required argument",
    "required field",
    "required param",
    "required property",
    "must be an object",
    "not an object",
    "expected an object",
    "expected object",
    "no arguments",
    "arguments",
    "deserializ",
    "invalid type",
    "wrong type",
    "unknown field",
    "requeststate",
    "request state",
    "inputresponses",
    "input responses",
    "_meta",
    "failed to parse parameters",
    "needs a tool name",
    "missing tool name",
    "no tool name",
    "requires a tool name",
];

/// Lookup methods whose `None` / `Err` means "no such handle".
const LOOKUP_METHODS: &[&str] = &["get", "get_mut", "remove", "take", "find_by_id", "lookup"];

#[derive(Clone, Copy, PartialEq, Eq)]
enum FrameKind {
    Failure,
    LookupMiss,
}

struct Frame<'a> {
    kind: FrameKind,
    binding: Option<String>,
    cause: Option<&'a Expr>,
    /// Certainly a `Result`'s error path (an `Err` pattern, a `map_err(|e| ..)` closure), not
    /// an `Option` fallback that may be a normal outcome.
    definite: bool,
}

pub struct Walker<'a, 'm> {
    pub dialect: &'m Dialect,
    pub index: &'m Index<'a>,
    pub file: &'m SourceFile,
    pub body: &'m BodyInfo<'a>,
    pub calls: &'m CrateCalls<'m, 'a>,
    resolver: Resolver<'m, 'a>,
    locals: Locals,
    pub fault_markers: &'m [String],
    pub facts: BodyFacts<'a>,
    frames: Vec<Frame<'a>>,
    arm: Option<SiteContext>,
    /// Inside a closure or async block that is not this body's own return path.
    nested: usize,
    comparison: usize,
    lets: HashMap<String, &'a Expr>,
    /// The innermost `Err(..)` argument being visited in a tool-error body.
    err_arg: Option<&'a Expr>,
    /// Inside the arguments of a tool result: codes there are not sent as protocol codes.
    tool_values: usize,
    /// Constructor calls already read as part of a chain (`RpcError::internal_error()` in
    /// `RpcError::internal_error().with_message(..)`).
    consumed: std::collections::HashSet<*const syn::ExprCall>,
    /// Inside the arguments of a protocol-error construction.
    protocol_args: usize,
    /// Inside `ErrorCode(..)`-style calls (their code site is the call).
    code_calls: usize,
    /// Paths that are the callee of a call (`Error::Validation` in `Error::Validation(..)`).
    callee_paths: std::collections::HashSet<*const syn::ExprPath>,
    /// `CallToolResult::from(error)`: an error value made into a tool result, whatever the
    /// body's own error channel.
    returns_override: Option<ReturnFacts>,
    /// Inside the tool-call arm of a general request handler: a tool-name `match` there is a
    /// dispatch.
    in_tool_call_arm: bool,
    /// Inside a `match` arm over a crate enum: the variants that reach it.
    variant: Option<VariantTag>,
}

impl<'a, 'm> Walker<'a, 'm> {
    pub fn new(
        dialect: &'m Dialect,
        index: &'m Index<'a>,
        file: &'m SourceFile,
        body: &'m BodyInfo<'a>,
        calls: &'m CrateCalls<'m, 'a>,
        fault_markers: &'m [String],
    ) -> Self {
        Walker {
            dialect,
            index,
            file,
            body,
            calls,
            resolver: Resolver {
                defs: calls.defs,
                types: calls.types,
                scope: body.scope,
            },
            locals: Locals::default(),
            fault_markers,
            facts: BodyFacts::default(),
            frames: Vec::new(),
            arm: None,
            nested: 0,
            comparison: 0,
            lets: HashMap::new(),
            err_arg: None,
            tool_values: 0,
            consumed: std::collections::HashSet::new(),
            in_tool_call_arm: false,
            variant: None,
            returns_override: None,
            protocol_args: 0,
            code_calls: 0,
            callee_paths: std::collections::HashSet::new(),
        }
    }

    pub fn walk(mut self) -> BodyFacts<'a> {
        self.locals.push_scope();
        if let Some(sig) = self.body.sig {
            for input in &sig.inputs {
                if let syn::FnArg::Typed(t) = input {
                    let ty = self.resolver.type_item(&t.ty);
                    bind_pattern(&self.resolver, &mut self.locals, &t.pat, ty, 0);
                }
            }
        }
        match self.body.code {
            BodyCode::Block(b) => self.visit_block(b),
            BodyCode::Expr(e) => self.visit_expr(e),
        }
        self.facts
    }

    fn path_facts(&self, built: &dyn quote::ToTokens, texts: &[MessageText]) -> PathFacts {
        let lowered_texts: Vec<String> = texts.iter().map(|t| t.known_lowercase()).collect();
        let mentions = |words: &[&str]| {
            lowered_texts
                .iter()
                .any(|t| words.iter().any(|w| t.contains(w)))
        };
        let causes: Vec<&Expr> = self.frames.iter().filter_map(|f| f.cause).collect();
        let cause_calls = |names: &[&str]| causes.iter().any(|c| calls_any(c, names));
        let fault_markers: Vec<&str> = self.fault_markers.iter().map(String::as_str).collect();
        let marker_hit = !fault_markers.is_empty()
            && (cause_calls(&fault_markers)
                || lowered_texts
                    .iter()
                    .any(|t| fault_markers.iter().any(|m| t.contains(&m.to_lowercase()))));
        PathFacts {
            on_failure_path: self.frames.iter().any(|f| f.definite),
            lookup_miss: self
                .frames
                .last()
                .is_some_and(|f| f.kind == FrameKind::LookupMiss),
            handle_lookup: self
                .frames
                .last()
                .filter(|f| f.kind == FrameKind::LookupMiss)
                .and_then(|f| f.cause)
                .is_some_and(lookup_names_a_handle),
            server_fault: cause_calls(SERVER_FAULT_CALLS)
                || causes.iter().any(|c| is_serializing_call(c))
                || mentions(SERVER_FAULT_WORDS)
                || marker_hit,
            schema_level: cause_calls(SCHEMA_CALLS)
                || causes.iter().any(|c| reads_argument_field(c))
                || mentions(SCHEMA_WORDS)
                || lowered_texts.iter().any(|t| names_absent_argument(t)),
            uses_error: self
                .frames
                .iter()
                .rev()
                .find_map(|f| f.binding.as_ref())
                // Printed only when there is a binding to look for.
                .is_some_and(|b| mentions_ident(&built.to_token_stream().to_string(), b)),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn add_site(
        &mut self,
        built: &dyn quote::ToTokens,
        span: Span,
        channel: Channel,
        code: Option<i64>,
        content: ContentFacts,
        origin: Origin,
    ) {
        let path = self.path_facts(built, &content.texts);
        self.facts.sites.push((
            ErrorSite {
                file: self.body.file,
                span,
                channel,
                code,
                text_param: self.text_param_of(built, &content.texts),
                texts: content.texts,
                message_source: None,
                empty_content: content.empty,
                origin,
                context: SiteContext::Unreached,
                path,
                body: self.body.id,
                variant: self.variant.clone(),
                related: Vec::new(),
            },
            self.arm.clone(),
        ));
    }

    fn construction(&mut self, expr: &'a Expr, built: Construction<'a>) {
        // `tool_not_found(name)`, `CallToolError::unknown_tool(name)`: the unknown-tool answer,
        // wherever a dispatcher builds it (`None => Err(tool_not_found(&p.name))`).
        let constructor = match &built {
            Construction::ProtocolError { constructor, .. }
            | Construction::ToolResult { constructor, .. } => constructor.to_lowercase(),
        };
        // …and an error whose own text says so (`invalid_params(format!("Unknown tool: {n}"))`).
        let message_says = match &built {
            Construction::ProtocolError {
                message: Some(m), ..
            } => {
                let text = message_from_expr(m, self.file).known_lowercase();
                [
                    "unknown tool",
                    "tool not found",
                    "no tool named",
                    "no such tool",
                ]
                .iter()
                .any(|w| text.contains(w))
            }
            _ => false,
        };
        let names_unknown_tool = constructor.ends_with("tool_not_found")
            || constructor.ends_with("unknown_tool")
            || message_says;
        if names_unknown_tool
            && self.body.kind == Some(HandlerKind::Dispatcher)
            && !matches!(self.arm, Some(SiteContext::UnknownToolArm { .. }))
        {
            let outer = self.arm.replace(SiteContext::UnknownToolArm {
                binding: "name".to_string(),
            });
            self.construction_in_context(expr, built);
            self.arm = outer;
            return;
        }
        self.construction_in_context(expr, built);
    }

    fn construction_in_context(&mut self, expr: &'a Expr, built: Construction<'a>) {
        let span = self.file.span_of(expr);
        match built {
            Construction::ProtocolError {
                constructor,
                code,
                message,
            } => {
                let default = match expr {
                    Expr::Call(call) if message.is_none() => self.dialect.default_message(call),
                    _ => None,
                };
                let text = match (message, default) {
                    (Some(m), _) => message_from_expr(m, self.file),
                    (None, Some(value)) => MessageText::Literal {
                        value: value.to_string(),
                        span,
                    },
                    (None, None) => MessageText::Absent,
                };
                // A code the constructor's name carries (`resource_not_found`, `rate_limited`).
                let named_code = self.dialect.constructor_names_code()
                    && code.is_some_and(|c| !crate::codes::is_standard(c))
                    && !["::new", "{ .. }", "::protocol", "::from_rpc_code"]
                        .iter()
                        .any(|suffix| constructor.ends_with(suffix));
                if named_code && self.comparison == 0 && self.tool_values == 0 {
                    self.code_site(span, code.unwrap_or_default(), constructor.clone(), true);
                }
                let content = ContentFacts {
                    empty: false,
                    texts: vec![text],
                };
                self.add_site(
                    expr,
                    span,
                    Channel::Protocol,
                    code,
                    content,
                    Origin::Constructor(constructor),
                );
                if let Some((site, _)) = self.facts.sites.last_mut() {
                    if let Some(m) = message {
                        let range = syn::spanned::Spanned::span(m).byte_range();
                        site.message_source = self.file.text.get(range).map(str::to_string);
                    }
                    // `McpError::cancelled(..)`, `transport(..)`, `server_overloaded()`: the name
                    // says the server, not the tool, failed.
                    if let Origin::Constructor(c) = &site.origin {
                        let c = c.to_lowercase();
                        if [
                            "cancel",
                            "overloaded",
                            "transport",
                            "serializ",
                            "shutdown",
                            "elicitation",
                        ]
                        .iter()
                        .any(|w| c.contains(w))
                        {
                            site.path.server_fault = true;
                        }
                    }
                }
            }
            Construction::ToolResult {
                constructor,
                is_error,
                content,
                never_empty,
            } => {
                // `CallToolResult::with_error(CallToolError::from_message(..))`: the inner
                // constructor is the site (it has the text).
                if content.is_some_and(|c| self.builds_tool_result(c)) {
                    return;
                }
                // rmcp ≥ 1.4 forces `Err(CallToolResult::success(..))` to isError.
                let forced_error = self.err_arg.is_some_and(|a| std::ptr::eq(a, expr));
                let mut facts = content.map_or_else(ContentFacts::unknown, |c| {
                    self.dialect.content_facts(c, self.file)
                });
                if never_empty {
                    facts.empty = false;
                }
                let channel = if is_error || forced_error {
                    Channel::ToolError
                } else {
                    Channel::ToolSuccess
                };
                self.add_site(
                    expr,
                    span,
                    channel,
                    None,
                    facts,
                    Origin::Constructor(constructor),
                );
            }
        }
    }

    /// A string value returned as success by a text-returning tool, on a failure path.
    fn text_success(&mut self, expr: &'a Expr) {
        let tail = tail_expr(expr);
        let text = message_from_expr(tail, self.file);
        let json = match tail {
            Expr::Macro(m) if m.mac.path.is_ident("json") => {
                Some(crate::text::json_texts(&m.mac, self.file))
            }
            _ => None,
        };
        // A typed output built from the error (`Ok(Stats { error: Some(e.to_string()), .. })`).
        let carries_error = matches!(tail, Expr::Struct(_))
            && self
                .frames
                .iter()
                .rev()
                .find_map(|f| f.binding.as_ref())
                .is_some_and(|b| mentions_ident(&tail.to_token_stream_string(), b));
        let stringish = !matches!(text, MessageText::Opaque)
            || is_to_string(tail)
            || json.is_some()
            || carries_error;
        if stringish && !self.frames.is_empty() && self.nested == 0 {
            let span = self.file.span_of(tail);
            let content = ContentFacts {
                empty: text.is_blank(),
                texts: json.unwrap_or_else(|| vec![text]),
            };
            self.add_site(
                tail,
                span,
                Channel::ToolSuccess,
                None,
                content,
                Origin::TextValue,
            );
        }
    }

    /// An error value that the tool's error type turns into an isError result.
    fn tool_error_value(&mut self, whole: &'a Expr, value: &'a Expr) {
        let content = self.dialect.error_value_text(value, self.file);
        let span = self.file.span_of(whole);
        self.add_site(
            whole,
            span,
            Channel::ToolError,
            None,
            content,
            Origin::ToolErr,
        );
    }

    fn with_frame<F: FnOnce(&mut Self)>(&mut self, frame: Frame<'a>, f: F) {
        self.frames.push(frame);
        f(self);
        self.frames.pop();
    }

    /// A call whose arguments may carry text into the callee's results (`fail(id, "..")`).
    fn call_edge<'x>(
        &mut self,
        target: Target,
        call: &dyn syn::spanned::Spanned,
        variant_arg: Option<&'a Expr>,
        args: impl IntoIterator<Item = &'x Expr>,
    ) {
        // Spans cost a token walk: only for calls into the crate's own fns.
        let Some(callee) = self.callee(target) else {
            return;
        };
        let range = call.span().byte_range();
        let span = self.file.span(range.start, range.end);
        self.push_edge(callee, span, None);
        if let Some(v) = variant_arg {
            let variant = self.resolver.variant_of(v, &self.locals);
            if let Some(edge) = self.facts.calls.last_mut() {
                edge.variant = variant;
            }
        }
        let texts = args
            .into_iter()
            .map(|a| message_from_expr(a, self.file))
            .collect();
        if let Some(edge) = self.facts.calls.last_mut() {
            edge.args = texts;
        }
    }

    /// The crate body (or candidate bodies) a call target is.
    fn callee(&self, target: Target) -> Option<Callee> {
        let dispatch = matches!(target, Target::Dispatch(_));
        match target {
            Target::Fn(f) => self.calls.body(f).map(Callee::Body),
            Target::Candidates(fs) | Target::Dispatch(fs) => {
                let bodies: Vec<BodyId> = fs.iter().filter_map(|f| self.calls.body(*f)).collect();
                match bodies.as_slice() {
                    [] => None,
                    [one] => Some(Callee::Body(*one)),
                    _ if dispatch => Some(Callee::Dispatch(bodies)),
                    _ => Some(Callee::Candidates(bodies)),
                }
            }
            _ => None,
        }
    }

    /// What the signature of the crate fn an expression calls says; for candidates of an
    /// untyped receiver, what they all say (`None` when they disagree).
    fn called_facts(&self, expr: &Expr) -> Option<FnFacts> {
        match self.call_target(expr)? {
            Target::Fn(f) => self.calls.fn_facts(f),
            Target::Candidates(fs) | Target::Dispatch(fs) => {
                let facts: Vec<FnFacts> =
                    fs.iter().filter_map(|f| self.calls.fn_facts(*f)).collect();
                let first = *facts.first()?;
                facts
                    .iter()
                    .all(|f| f.protocol == first.protocol && f.tool_error == first.tool_error)
                    .then_some(first)
            }
            _ => None,
        }
    }

    /// The crate fn an expression calls (`f(..)`, `x.m(..)`, through `.await`).
    fn called_fn(&self, expr: &Expr) -> Option<FnKey> {
        match self.call_target(expr)? {
            Target::Fn(f) => Some(f),
            _ => None,
        }
    }

    /// Where the call an expression makes goes (`f(..)`, `x.m(..)`, through `.await`).
    fn call_target(&self, expr: &Expr) -> Option<Target> {
        Some(match strip_await(expr) {
            Expr::Call(c) => match &*c.func {
                Expr::Path(p) => self.resolver.path_target(p, &self.locals),
                _ => return None,
            },
            Expr::MethodCall(m) => {
                self.resolver
                    .method_target(&m.receiver, &m.method.to_string(), &self.locals)
            }
            _ => return None,
        })
    }

    /// An edge with the failure path at the call; `failing` is the operation whose error the
    /// callee receives (the receiver of `.map_err(helper)`, the operand of `?`).
    fn push_edge(&mut self, callee: Callee, span: Span, failing: Option<&'a Expr>) {
        if let Some(cause) = failing {
            self.frames.push(Frame {
                kind: FrameKind::Failure,
                binding: None,
                cause: Some(cause),
                definite: false,
            });
        }
        let path = self.path_facts(&proc_macro2::TokenStream::new(), &[]);
        if failing.is_some() {
            self.frames.pop();
        }
        self.facts.calls.push(CallEdge {
            from: self.body.id,
            callee,
            span,
            context_override: self.arm.clone(),
            path,
            args: Vec::new(),
            variant: None,
        });
    }

    /// The tool-name `match` of a dispatcher: literal arms are tools, the catch-all is the
    /// unknown-tool branch.
    fn dispatch_match(&mut self, m: &'a syn::ExprMatch) -> bool {
        let dispatcher = self.body.kind == Some(HandlerKind::Dispatcher) && self.arm.is_none();
        let scrutinee = m.expr.to_token_stream_string();
        // A helper routing by a tool name of its own (`match tool { "lint" => .., other => .. }`).
        let tool_router = self.arm.is_none()
            && self.body.kind != Some(HandlerKind::Other)
            && scrutinee
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .any(|w| w == "tool" || w == "tool_name");
        if !dispatcher && !self.in_tool_call_arm && !tool_router {
            return false;
        }
        if !scrutinee.contains("name") && !tool_router {
            return false;
        }
        let literal_arms = m
            .arms
            .iter()
            .filter(|a| literal_names(&a.pat).is_some())
            .count();
        let catch_all = m.arms.iter().any(|a| catch_all_binding(&a.pat).is_some());
        if literal_arms == 0 || !catch_all {
            return false;
        }
        self.visit_expr(&m.expr);
        for arm in &m.arms {
            let context = match (literal_names(&arm.pat), catch_all_binding(&arm.pat)) {
                (Some(names), _) => SiteContext::Tool {
                    tools: names,
                    helper: None,
                },
                (None, Some(binding)) => SiteContext::UnknownToolArm {
                    binding: if binding == "_" {
                        name_expression(&scrutinee)
                    } else {
                        binding
                    },
                },
                _ => continue,
            };
            let outer = self.arm.replace(context);
            let in_tool_call_arm = std::mem::replace(&mut self.in_tool_call_arm, false);
            if let Some((_, guard)) = &arm.guard {
                self.visit_expr(guard);
            }
            self.visit_expr(&arm.body);
            self.arm = outer;
            self.in_tool_call_arm = in_tool_call_arm;
        }
        true
    }

    /// `if name == "a" { .. } else if name == "b" { .. } else { unknown }` in a dispatcher.
    fn dispatch_if(&mut self, i: &'a syn::ExprIf) -> bool {
        let dispatcher = self.body.kind == Some(HandlerKind::Dispatcher) && self.arm.is_none();
        if !(dispatcher || self.in_tool_call_arm) {
            return false;
        }
        // `if name != "export" { unknown }`: a guard before the one tool's code.
        if let Some((_, name)) = tool_name_guard(&i.cond) {
            self.visit_expr(&i.cond);
            let outer = self
                .arm
                .replace(SiteContext::UnknownToolArm { binding: name });
            self.visit_block(&i.then_branch);
            self.arm = outer;
            if let Some((_, e)) = &i.else_branch {
                self.visit_expr(e);
            }
            return true;
        }
        if tool_name_test(&i.cond).is_none() {
            return false;
        }
        let mut branch = i;
        loop {
            let Some((literal, name)) = tool_name_test(&branch.cond) else {
                // An `else if` that tests something else: not a plain dispatch; visit normally.
                visit::visit_expr_if(self, branch);
                return true;
            };
            self.visit_expr(&branch.cond);
            let outer = self.arm.replace(SiteContext::Tool {
                tools: vec![literal],
                helper: None,
            });
            let in_arm = std::mem::replace(&mut self.in_tool_call_arm, false);
            self.visit_block(&branch.then_branch);
            match branch.else_branch.as_ref().map(|(_, e)| &**e) {
                Some(Expr::If(next)) => {
                    self.arm = outer;
                    self.in_tool_call_arm = in_arm;
                    branch = next;
                }
                Some(last) => {
                    self.arm = Some(SiteContext::UnknownToolArm { binding: name });
                    self.visit_expr(last);
                    self.arm = outer;
                    self.in_tool_call_arm = in_arm;
                    return true;
                }
                None => {
                    self.arm = outer;
                    self.in_tool_call_arm = in_arm;
                    return true;
                }
            }
        }
    }

    /// `?` in a body whose error type is the protocol error: unless the operand already builds
    /// that type, the crate's `impl From<X> for` it does the conversion.
    fn try_operand(&mut self, t: &'a syn::ExprTry) {
        let operand = strip_await(&t.expr);
        if self.body.returns.err != ErrChannel::Protocol {
            return;
        }
        let tool_error = self.operand_error_is_tool_error(operand);
        // A crate error value (`.map_err(|_| AppError::Busy)`) is converted by `From`.
        let crate_error = matches!(self.operand_error_type(operand), ErrorSource::Local(..));
        if !tool_error
            && !crate_error
            && (explicit_conversion(operand, self.dialect, self.index, &self.body.returns)
                || self.dialect.is_sdk_fallible_call(operand)
                || self.returns_protocol_error(operand))
        {
            return;
        }
        let span = self.file.span_of(t);
        match self.dialect.try_meaning(&self.body.returns, tool_error) {
            TryMeaning::Nothing => {}
            TryMeaning::FromImpls => {
                let source = self.operand_error_type(operand);
                self.push_edge(Callee::FromImpls(source), span, Some(operand))
            }
            TryMeaning::Protocol(code) => {
                // The SDK's own conversion: the `?` is where the protocol error is made.
                self.frames.push(Frame {
                    kind: FrameKind::Failure,
                    binding: None,
                    cause: Some(operand),
                    definite: false,
                });
                let content = ContentFacts {
                    empty: false,
                    texts: vec![MessageText::Opaque],
                };
                self.add_site(
                    t,
                    span,
                    Channel::Protocol,
                    Some(code),
                    content,
                    Origin::QuestionMark,
                );
                self.frames.pop();
            }
        }
    }

    /// `MyTools::try_from(params).map_err(CallToolError::new)?` in a dispatcher: the tool-enum
    /// conversion (rust-mcp-sdk's `tool_box!`) fails exactly for an unknown tool, so the `?` is
    /// the unknown-tool answer.
    fn unknown_tool_conversion(&mut self, t: &'a syn::ExprTry) -> bool {
        let dispatching = (self.body.kind == Some(HandlerKind::Dispatcher) && self.arm.is_none())
            || self.in_tool_call_arm;
        let operand = strip_await(&t.expr);
        if !dispatching || !calls_any(operand, &["try_from", "try_into"]) {
            return false;
        }
        // `.map_err(|_| CallToolError::unknown_tool(name))`: that constructor is this answer.
        let closure_ctor = match operand {
            Expr::MethodCall(mc) if mc.method == "map_err" => match mc.args.first() {
                Some(Expr::Closure(c)) => match tail_expr(&c.body) {
                    Expr::Call(call) => match &*call.func {
                        Expr::Path(p) if p.path.segments.len() >= 2 => {
                            let ty = p.path.segments[p.path.segments.len() - 2].ident.to_string();
                            self.dialect.is_tool_error_type_name(&ty).then_some(call)
                        }
                        _ => None,
                    },
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        };
        let (channel, code) = match self.body.returns.err {
            ErrChannel::ToolError => (Channel::ToolError, None),
            ErrChannel::Protocol => {
                let tool_error =
                    self.operand_error_is_tool_error(operand) || closure_ctor.is_some();
                match self.dialect.try_meaning(&self.body.returns, tool_error) {
                    TryMeaning::Protocol(code) => (Channel::Protocol, Some(code)),
                    _ => return false,
                }
            }
            ErrChannel::Unknown => return false,
        };
        if let Some(call) = closure_ctor {
            self.consumed.insert(call as *const syn::ExprCall);
        }
        let span = self.file.span_of(t);
        let outer = self.arm.replace(SiteContext::UnknownToolArm {
            binding: "params.name".to_string(),
        });
        let content = ContentFacts {
            empty: false,
            texts: vec![MessageText::Opaque],
        };
        self.add_site(t, span, channel, code, content, Origin::QuestionMark);
        self.arm = outer;
        true
    }

    /// `.map_err(CallToolError::new)`, or a crate fn declared to return the SDK's tool error
    /// type: `?` then goes through the SDK's conversion of that type.
    fn operand_error_is_tool_error(&self, operand: &Expr) -> bool {
        match operand {
            Expr::MethodCall(mc) if mc.method == "map_err" => match mc.args.first() {
                Some(Expr::Path(p)) => {
                    let segs = crate::index::path_segments(&p.path);
                    segs.len() >= 2 && self.dialect.is_tool_error_type_name(&segs[segs.len() - 2])
                }
                _ => false,
            },
            _ => self.called_facts(operand).is_some_and(|f| f.tool_error),
        }
    }

    /// A call to a crate fn declared to return the protocol error type.
    fn returns_protocol_error(&self, expr: &Expr) -> bool {
        self.called_facts(expr).is_some_and(|f| f.protocol)
    }
}

trait TokensString {
    fn to_token_stream_string(&self) -> String;
}

impl<T: quote::ToTokens> TokensString for T {
    fn to_token_stream_string(&self) -> String {
        self.to_token_stream().to_string()
    }
}

impl<'a> Visit<'a> for Walker<'a, '_> {
    fn visit_expr_call(&mut self, call: &'a syn::ExprCall) {
        if let Some(closure) = self.dialect.handler_closure(call) {
            self.facts.closures.push(closure);
            for arg in &call.args {
                if !std::ptr::eq(arg, closure) {
                    self.visit_expr(arg);
                }
            }
            return;
        }
        if self.dialect.wraps_error_as_result(call) {
            let outer = self.returns_override.replace(ReturnFacts {
                err: ErrChannel::ToolError,
                ..self.body.returns
            });
            visit::visit_expr_call(self, call);
            self.returns_override = outer;
            return;
        }
        if let Expr::Path(p) = &*call.func {
            let segs = crate::index::path_segments(&p.path);
            let last = segs.last().cloned().unwrap_or_default();
            match last.as_str() {
                "Err" if call.args.len() == 1 => {
                    let value = &call.args[0];
                    if self.body.returns.err == ErrChannel::ToolError && self.nested == 0 {
                        let previous = self.err_arg.replace(value);
                        // The whole `Err(..)` is the site; its span starts at `Err`.
                        self.tool_error_value_call(call, value);
                        self.visit_expr(value);
                        self.err_arg = previous;
                        return;
                    }
                    // `Err(e.into())`, `Err(McpError::from(e))`: the crate's `From` impls convert.
                    if self.body.returns.err == ErrChannel::Protocol && is_from_conversion(value) {
                        let span = self.file.span_of(call);
                        let source = self.error_value_source(value);
                        self.push_edge(Callee::FromImpls(source), span, None);
                    }
                }
                "Ok" if call.args.len() == 1
                    && self.body.returns.ok_is_text
                    && self.body.kind == Some(HandlerKind::Tool) =>
                {
                    self.text_success(&call.args[0]);
                }
                _ => {}
            }
            let code_call = segs
                .iter()
                .any(|s| s.ends_with("Code") || s.ends_with("Codes"));
            if code_call && self.comparison == 0 && self.tool_values == 0 {
                if let Some(code) = self.dialect.code_use(&Expr::Call(call.clone()), self.index) {
                    self.code_site(self.file.span_of(call), code.value, code.written, false);
                }
            }
            let target = self.resolver.path_target(p, &self.locals);
            self.call_edge(target, call, call.args.first(), &call.args);
            if code_call {
                self.code_calls += 1;
                visit::visit_expr_call(self, call);
                self.code_calls -= 1;
                return;
            }
        }
        visit::visit_expr_call(self, call);
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        let mut tool_value = false;
        let mut protocol_value = false;
        match expr {
            Expr::Call(call) if !self.consumed.contains(&(call as *const syn::ExprCall)) => {
                if let Expr::Path(p) = &*call.func {
                    self.callee_paths.insert(p as *const syn::ExprPath);
                }
                if let Some(built) =
                    self.dialect
                        .construction_of_call(call, self.index, &self.returns())
                {
                    tool_value = matches!(built, Construction::ToolResult { .. });
                    protocol_value = !tool_value;
                    self.construction(expr, built);
                }
            }
            Expr::MethodCall(mc) => {
                if let Some((built, inner)) =
                    self.dialect
                        .construction_of_method(mc, self.index, &self.returns())
                {
                    self.consumed.insert(inner as *const syn::ExprCall);
                    protocol_value = matches!(built, Construction::ProtocolError { .. });
                    self.construction(expr, built);
                }
            }
            Expr::Struct(s) => {
                if let Some(built) = self.dialect.construction_of_struct(s, self.index) {
                    protocol_value = matches!(built, Construction::ProtocolError { .. });
                    self.construction(expr, built);
                }
            }
            // `Error::RateLimited`: a unit variant that is an error (not the callee of a call).
            Expr::Path(p)
                if !self.callee_paths.contains(&(p as *const syn::ExprPath))
                    && self
                        .dialect
                        .construction_of_path(&p.path, self.index, &self.returns())
                        .is_some() =>
            {
                if let Some(built) =
                    self.dialect
                        .construction_of_path(&p.path, self.index, &self.returns())
                {
                    self.construction(expr, built);
                }
            }
            // Hand-rolled servers: `-32001` or `LEGACY_CODE` where an error is built (an SDK's
            // named constant is the next arm's).
            Expr::Unary(_) | Expr::Path(_)
                if self.dialect.bare_codes()
                    && !matches!(expr, Expr::Path(p) if self.dialect.is_code_constant(&p.path))
                    && self.protocol_args > 0
                    && self.code_calls == 0
                    && self.comparison == 0 =>
            {
                // A const declared with a code type is reported at its definition.
                let typed_const = matches!(expr, Expr::Path(p) if p.path.get_ident().is_some_and(|id| {
                    self.index.consts.get(&id.to_string()).is_some_and(|c| c.typed_code)
                }));
                if let (Some(code), false) = (self.dialect.code_use(expr, self.index), typed_const)
                {
                    self.code_site(self.file.span_of(expr), code.value, code.written, false);
                }
            }
            // A named code constant counts where an error is built with it (or a const is defined
            // from it); elsewhere it is usually read (`e.is_error_code(ErrorCode::X)`).
            Expr::Path(p)
                if self.comparison == 0
                    && self.tool_values == 0
                    && (self.protocol_args > 0 || self.is_const_body())
                    && self.dialect.is_code_constant(&p.path) =>
            {
                if let Some(code) = self.dialect.code_use(expr, self.index) {
                    self.code_site(self.file.span_of(expr), code.value, code.written, true);
                }
            }
            _ => {}
        }
        self.tool_values += usize::from(tool_value);
        self.protocol_args += usize::from(protocol_value);
        visit::visit_expr(self, expr);
        self.tool_values -= usize::from(tool_value);
        self.protocol_args -= usize::from(protocol_value);
    }

    fn visit_expr_match(&mut self, m: &'a syn::ExprMatch) {
        if self.dispatch_match(m) {
            return;
        }
        self.visit_expr(&m.expr);
        let lookup = is_lookup(&m.expr);
        let scrutinee = self.resolver.type_of(&m.expr, &self.locals);
        for arm in &m.arms {
            self.locals.push_scope();
            bind_pattern(&self.resolver, &mut self.locals, &arm.pat, scrutinee, 0);
            let tag = scrutinee.and_then(|e| self.variant_tag(e, &arm.pat, &m.arms));
            let inner = tag.or_else(|| self.variant.clone());
            let outer_tag = std::mem::replace(&mut self.variant, inner);
            self.match_arm(m, arm, lookup);
            self.variant = outer_tag;
            self.locals.pop_scope();
        }
    }

    fn visit_expr_if(&mut self, i: &'a syn::ExprIf) {
        if self.dispatch_if(i) {
            return;
        }
        let Expr::Let(l) = &*i.cond else {
            return visit::visit_expr_if(self, i);
        };
        self.visit_expr(&l.expr);
        let lookup = is_lookup(&l.expr);
        // `if let Err(e) = x { here }`
        if let Some(binding) = variant_binding(&l.pat, "Err") {
            let kind = if lookup {
                FrameKind::LookupMiss
            } else {
                FrameKind::Failure
            };
            self.with_frame(
                Frame {
                    kind,
                    binding,
                    cause: Some(&l.expr),
                    definite: true,
                },
                |w| w.visit_block(&i.then_branch),
            );
            if let Some((_, e)) = &i.else_branch {
                self.visit_expr(e);
            }
            return;
        }
        self.visit_block(&i.then_branch);
        // `if let Some(x) = lookup { .. } else { here }`, `if let Ok(x) = y { .. } else { here }`
        if let Some((_, e)) = &i.else_branch {
            self.visit_refuted(&l.pat, &l.expr, e);
        }
    }

    fn visit_local(&mut self, local: &'a syn::Local) {
        self.local_value(local);
        // Bound after the initialiser: `let x = x.parse()` reads the outer `x`.
        let ty = local
            .init
            .as_ref()
            .and_then(|init| self.resolver.type_of(&init.expr, &self.locals));
        bind_pattern(&self.resolver, &mut self.locals, &local.pat, ty, 0);
    }

    fn visit_block(&mut self, b: &'a syn::Block) {
        self.locals.push_scope();
        visit::visit_block(self, b);
        self.locals.pop_scope();
    }

    fn visit_expr_for_loop(&mut self, f: &'a syn::ExprForLoop) {
        self.visit_expr(&f.expr);
        self.locals.push_scope();
        bind_pattern(&self.resolver, &mut self.locals, &f.pat, None, 0);
        self.visit_block(&f.body);
        self.locals.pop_scope();
    }

    fn visit_arm(&mut self, arm: &'a syn::Arm) {
        self.locals.push_scope();
        bind_pattern(&self.resolver, &mut self.locals, &arm.pat, None, 0);
        visit::visit_arm(self, arm);
        self.locals.pop_scope();
    }

    fn visit_expr_method_call(&mut self, mc: &'a syn::ExprMethodCall) {
        if let Some(closure) = self.dialect.handler_closure_of_method(mc) {
            self.facts.closures.push(closure);
            self.visit_expr(&mc.receiver);
            for arg in &mc.args {
                if !std::ptr::eq(arg, closure) {
                    self.visit_expr(arg);
                }
            }
            return;
        }
        let method = mc.method.to_string();
        match method.as_str() {
            "unwrap" | "expect" if self.comparison == 0 => {
                let start = mc.method.span().byte_range().start;
                let end = syn::spanned::Spanned::span(mc).byte_range().end;
                let site = PanicSite {
                    file: self.body.file,
                    span: self.file.span(start, end),
                    what: format!("`.{method}()`"),
                    body: self.body.id,
                };
                self.facts.panics.push((site, self.arm.clone()));
            }
            _ => {}
        }
        let failure_closure = matches!(
            method.as_str(),
            "map_err"
                | "unwrap_or_else"
                | "or_else"
                | "ok_or_else"
                | "ok_or"
                | "map_or_else"
                | "unwrap_or"
        );
        if failure_closure {
            // `.ok_or("msg")`, `.map_err(|e| format!(..))` in a tool whose `Err` is an isError
            // result: the value is the isError text (whether `?` or the tail returns it).
            if self.body.returns.err == ErrChannel::ToolError && self.nested == 0 {
                let value = match (method.as_str(), mc.args.first()) {
                    ("ok_or", Some(v)) => Some(v),
                    ("ok_or_else" | "map_err", Some(Expr::Closure(c))) => Some(&*c.body),
                    _ => None,
                };
                if let Some(v) = value {
                    let tail = tail_expr(v);
                    self.tool_error_value(tail, tail);
                }
            }
            self.visit_expr(&mc.receiver);
            let lookup = is_lookup(&mc.receiver) && method.starts_with("ok_or");
            let kind = if lookup {
                FrameKind::LookupMiss
            } else {
                FrameKind::Failure
            };
            for (i, arg) in mc.args.iter().enumerate() {
                // `map_or_else(err_fn, ok_fn)`: only the first runs on failure.
                if method == "map_or_else" && i > 0 {
                    self.visit_expr(arg);
                    continue;
                }
                match arg {
                    Expr::Closure(c) => {
                        let binding = c.inputs.first().and_then(pat_ident);
                        let definite = !c.inputs.is_empty()
                            && !method.starts_with("ok_or")
                            && method != "unwrap_or";
                        self.with_frame(
                            Frame {
                                kind,
                                binding,
                                cause: Some(&mc.receiver),
                                definite,
                            },
                            |w| {
                                w.visit_expr(&c.body);
                                let text_tool = w.body.returns.ok_is_text
                                    && w.body.kind == Some(HandlerKind::Tool)
                                    && (method == "unwrap_or_else" || method == "unwrap_or");
                                if text_tool {
                                    w.text_success(&c.body);
                                }
                            },
                        );
                    }
                    Expr::Path(p) => {
                        // `.map_err(internal)`, `.map_err(Self::to_mcp)`: a helper builds the error.
                        if let Some(last) = p.path.segments.last() {
                            let name = last.ident.to_string();
                            if name == "from" || name == "into" {
                                let span = self.file.span_of(arg);
                                let source = self.operand_error_type(&mc.receiver);
                                self.push_edge(Callee::FromImpls(source), span, Some(&mc.receiver));
                            } else {
                                let target = self.resolver.path_target(p, &self.locals);
                                if let Some(callee) = self.callee(target) {
                                    let span = self.file.span_of(arg);
                                    self.push_edge(callee, span, Some(&mc.receiver));
                                }
                            }
                        }
                    }
                    other => self.with_frame(
                        Frame {
                            kind,
                            binding: None,
                            cause: Some(&mc.receiver),
                            definite: false,
                        },
                        |w| {
                            w.visit_expr(other);
                            if w.body.returns.ok_is_text
                                && w.body.kind == Some(HandlerKind::Tool)
                                && method == "unwrap_or"
                            {
                                w.text_success(other);
                            }
                        },
                    ),
                }
            }
            return;
        }
        let target = self
            .resolver
            .method_target(&mc.receiver, &method, &self.locals);
        self.call_edge(target, mc, Some(&*mc.receiver), &mc.args);
        visit::visit_expr_method_call(self, mc);
    }

    fn visit_expr_try(&mut self, t: &'a syn::ExprTry) {
        if self.unknown_tool_conversion(t) {
            return visit::visit_expr_try(self, t);
        }
        self.try_operand(t);
        visit::visit_expr_try(self, t);
    }

    fn visit_expr_assign(&mut self, a: &'a syn::ExprAssign) {
        if let Expr::Field(f) = &*a.left {
            let is_error_field =
                matches!(&f.member, syn::Member::Named(id) if id == self.dialect.is_error_field());
            if is_error_field && crate::sdk::rmcp::is_true(&a.right) {
                let content = match &*f.base {
                    Expr::Path(p) => p
                        .path
                        .get_ident()
                        .and_then(|id| self.lets.get(&id.to_string()).copied())
                        .and_then(|init| match init {
                            Expr::Call(c) => match self.dialect.construction_of_call(
                                c,
                                self.index,
                                &self.body.returns,
                            ) {
                                Some(Construction::ToolResult {
                                    content: Some(c),
                                    never_empty,
                                    ..
                                }) => {
                                    let mut facts = self.dialect.content_facts(c, self.file);
                                    facts.empty &= !never_empty;
                                    Some(facts)
                                }
                                _ => None,
                            },
                            _ => None,
                        }),
                    _ => None,
                }
                .unwrap_or_else(ContentFacts::unknown);
                let span = self.file.span_of(a);
                self.add_site(
                    a,
                    span,
                    Channel::ToolError,
                    None,
                    content,
                    Origin::IsErrorAssignment,
                );
                // `let mut r = CallToolResult::success(..); r.is_error = Some(true);` is an
                // error result, not a success one.
                let init = match &*f.base {
                    Expr::Path(p) => p
                        .path
                        .get_ident()
                        .and_then(|id| self.lets.get(&id.to_string()).copied()),
                    _ => None,
                };
                if let Some(init) = init {
                    let init_span = self.file.span_of(init);
                    self.facts.sites.retain(|(s, _)| {
                        !(s.channel == Channel::ToolSuccess && s.span == init_span)
                    });
                }
            }
        }
        visit::visit_expr_assign(self, a);
    }

    fn visit_expr_binary(&mut self, b: &'a syn::ExprBinary) {
        let comparison = matches!(b.op, syn::BinOp::Eq(_) | syn::BinOp::Ne(_));
        self.comparison += usize::from(comparison);
        visit::visit_expr_binary(self, b);
        self.comparison -= usize::from(comparison);
    }

    fn visit_expr_closure(&mut self, c: &'a syn::ExprClosure) {
        self.nested += 1;
        self.locals.push_scope();
        for input in &c.inputs {
            bind_pattern(&self.resolver, &mut self.locals, input, None, 0);
        }
        visit::visit_expr_closure(self, c);
        self.locals.pop_scope();
        self.nested -= 1;
    }

    fn visit_expr_async(&mut self, a: &'a syn::ExprAsync) {
        self.nested += 1;
        visit::visit_expr_async(self, a);
        self.nested -= 1;
    }

    fn visit_macro(&mut self, mac: &'a syn::Macro) {
        match self
            .dialect
            .construction_of_macro(mac, self.index, self.file, &self.returns())
        {
            Some(MacroBuilt::Protocol {
                code,
                code_span,
                message,
                name,
            }) => {
                let span = self.file.span_of(mac);
                if let (Some(value), Some(code_span)) = (code, code_span) {
                    self.code_site(code_span, value, value.to_string(), false);
                }
                let content = ContentFacts {
                    empty: false,
                    texts: vec![message],
                };
                self.add_site(
                    mac,
                    span,
                    Channel::Protocol,
                    code,
                    content,
                    Origin::Constructor(name),
                );
            }
            Some(MacroBuilt::ToolResult {
                is_error,
                content,
                name,
            }) => {
                let span = self.file.span_of(mac);
                let channel = if is_error {
                    Channel::ToolError
                } else {
                    Channel::ToolSuccess
                };
                self.add_site(mac, span, channel, None, content, Origin::Constructor(name));
            }
            None => {}
        }
        let name = mac
            .path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default();
        if matches!(
            name.as_str(),
            "panic" | "todo" | "unimplemented" | "unreachable"
        ) {
            let site = PanicSite {
                file: self.body.file,
                span: self.file.span_of(mac),
                what: format!("`{name}!`"),
                body: self.body.id,
            };
            self.facts.panics.push((site, self.arm.clone()));
        }
        visit::visit_macro(self, mac);
    }

    fn visit_item(&mut self, _item: &'a syn::Item) {
        // Nested items are not part of this body.
    }
}

impl<'a> Walker<'a, '_> {
    /// Which variants of crate enum `e` reach an arm whose pattern is `pat`: the ones it names,
    /// or, for a catch-all, the ones no other arm names.
    fn variant_tag(&self, e: ItemId, pat: &Pat, arms: &[syn::Arm]) -> Option<VariantTag> {
        let named = |p: &Pat| -> Vec<String> {
            let mut out = Vec::new();
            let mut cases = vec![p];
            while let Some(p) = cases.pop() {
                let path = match p {
                    Pat::TupleStruct(t) => Some(&t.path),
                    Pat::Struct(s) => Some(&s.path),
                    Pat::Path(p) => Some(&p.path),
                    Pat::Ident(i) if i.subpat.is_none() => None,
                    Pat::Or(o) => {
                        cases.extend(o.cases.iter());
                        None
                    }
                    _ => None,
                };
                if let Some(last) = path.and_then(|p| p.segments.last()) {
                    out.push(last.ident.to_string());
                }
            }
            out
        };
        if !matches!(self.calls.defs.item(e).syntax, syn::Item::Enum(_)) {
            return None;
        }
        let own = named(pat);
        if !own.is_empty() {
            return Some(VariantTag::Is(e, own));
        }
        let catch_all =
            matches!(pat, Pat::Wild(_)) || matches!(pat, Pat::Ident(i) if i.subpat.is_none());
        if !catch_all {
            return None;
        }
        let others: Vec<String> = arms.iter().flat_map(|a| named(&a.pat)).collect();
        Some(VariantTag::Otherwise(e, others))
    }

    fn match_arm(&mut self, m: &'a syn::ExprMatch, arm: &'a syn::Arm, lookup: bool) {
        {
            if self.arm.is_none() && self.dialect.is_tool_call_arm(&arm.pat) {
                // `RequestFromClient::CallToolRequest(params) =>`: this arm answers tool calls.
                self.arm = Some(SiteContext::Tool {
                    tools: vec!["tools/call".to_string()],
                    helper: None,
                });
                self.in_tool_call_arm = true;
                if let Some((_, g)) = &arm.guard {
                    self.visit_expr(g);
                }
                self.visit_expr(&arm.body);
                self.in_tool_call_arm = false;
                self.arm = None;
                return;
            }
            let frame = match &arm.pat {
                p if variant_binding(p, "Err").is_some() => Some(Frame {
                    kind: if lookup {
                        FrameKind::LookupMiss
                    } else {
                        FrameKind::Failure
                    },
                    binding: variant_binding(p, "Err").flatten(),
                    cause: Some(&m.expr),
                    definite: true,
                }),
                p if is_none_pat(p) && lookup => Some(Frame {
                    kind: FrameKind::LookupMiss,
                    binding: None,
                    cause: Some(&m.expr),
                    definite: false,
                }),
                _ => None,
            };
            match frame {
                Some(frame) => self.with_frame(frame, |w| {
                    if let Some((_, g)) = &arm.guard {
                        w.visit_expr(g);
                    }
                    w.visit_expr(&arm.body);
                    if w.body.returns.ok_is_text
                        && w.body.returns.err == ErrChannel::Unknown
                        && w.body.kind == Some(HandlerKind::Tool)
                    {
                        w.text_success(&arm.body);
                    }
                }),
                None => {
                    if let Some((_, g)) = &arm.guard {
                        self.visit_expr(g);
                    }
                    self.visit_expr(&arm.body);
                }
            }
        }
    }

    /// A `let`'s initialiser and its `else`.
    fn local_value(&mut self, local: &'a syn::Local) {
        let Some(init) = &local.init else {
            return visit::visit_local(self, local);
        };
        if let Pat::Ident(pi) = &local.pat {
            self.lets.insert(pi.ident.to_string(), &init.expr);
        }
        if let Pat::Type(pt) = &local.pat {
            if let Pat::Ident(pi) = &*pt.pat {
                self.lets.insert(pi.ident.to_string(), &init.expr);
            }
        }
        self.visit_expr(&init.expr);
        if let Some((_, diverge)) = &init.diverge {
            self.visit_refuted(&local.pat, &init.expr, diverge);
        }
    }

    /// The `else` of `if let PAT = scrutinee` or `let PAT = scrutinee else`: a lookup miss when
    /// PAT is `Some(..)` on a lookup, a failure when PAT is `Ok(..)`.
    fn visit_refuted(&mut self, pat: &Pat, scrutinee: &'a Expr, branch: &'a Expr) {
        let lookup = is_lookup(scrutinee);
        let some = variant_binding(pat, "Some").is_some();
        let miss = some && lookup;
        let failed = variant_binding(pat, "Ok").is_some();
        // `let Some(x) = args.get("x") else`, `let Some(s) = v.as_str() else`: the argument's
        // shape, recorded as the cause so the branch counts as schema-level.
        let shape = some && reads_argument_field(scrutinee);
        if !(miss || failed || shape) {
            return self.visit_expr(branch);
        }
        let kind = if lookup {
            FrameKind::LookupMiss
        } else {
            FrameKind::Failure
        };
        let frame = Frame {
            kind,
            binding: None,
            cause: Some(scrutinee),
            definite: failed,
        };
        self.with_frame(frame, |w| w.visit_expr(branch));
    }

    /// An error code written in a code position of this body.
    fn code_site(&mut self, span: Span, value: i64, written: String, named: bool) {
        self.facts.codes.push(CodeSite {
            file: self.body.file,
            body: self.body.id,
            span,
            value,
            written,
            named,
        });
    }

    /// The error type of what `?` (or `.map_err(From::from)`) converts: the error type the
    /// called crate fn declares (`fn load_zone(..) -> Result<_, ZoneError>`), the variant a
    /// `.map_err(|_| AppError::X)` builds, else unknown.
    fn operand_error_type(&self, operand: &Expr) -> ErrorSource {
        let operand = strip_await(operand);
        if let Expr::MethodCall(mc) = operand {
            if mc.method == "map_err" || mc.method == "ok_or" || mc.method == "ok_or_else" {
                let value = match mc.args.first() {
                    Some(Expr::Closure(c)) => Some(tail_expr(&c.body)),
                    Some(other) if mc.method == "ok_or" => Some(other),
                    _ => None,
                };
                if let Some(v) = value {
                    return self.error_value_source(v);
                }
            }
        }
        let Some(f) = self.called_fn(operand) else {
            return ErrorSource::Unknown;
        };
        let Some(scope) = self.calls.types.scope_of(f) else {
            return ErrorSource::Unknown;
        };
        // SAFETY of the deref: `FnKey`s point into syntax trees that outlive the analysis.
        let sig = unsafe { &*f };
        let syn::ReturnType::Type(_, ty) = &sig.output else {
            return ErrorSource::Unknown;
        };
        let ty = crate::index::unwrap_future(ty);
        let Some(err) = crate::index::result_error_type(ty) else {
            return ErrorSource::Unknown;
        };
        let self_ty = self.calls.types.self_type(scope);
        match crate::types::resolve_type_item(self.calls.defs, scope.module, err, self_ty) {
            Some(id) => ErrorSource::Local(id, None),
            None => {
                crate::index::type_name(err).map_or(ErrorSource::Unknown, ErrorSource::External)
            }
        }
    }

    /// The error type of a value given to `Err(..)` / `.into()` / `From::from(..)`.
    fn error_value_source(&self, value: &Expr) -> ErrorSource {
        let value = match value {
            Expr::MethodCall(m) if m.method == "into" && m.args.is_empty() => &*m.receiver,
            Expr::Call(c) if c.args.len() == 1 && is_from_conversion(value) => &c.args[0],
            other => other,
        };
        if let Some((e, v)) = self.resolver.variant_of(value, &self.locals) {
            return ErrorSource::Local(e, Some(v));
        }
        match self.resolver.type_of(value, &self.locals) {
            Some(id) => ErrorSource::Local(id, None),
            None => ErrorSource::Unknown,
        }
    }

    /// A const or static initialiser.
    fn is_const_body(&self) -> bool {
        self.body.kind.is_none() && matches!(self.body.code, BodyCode::Expr(_))
    }

    /// The text parameter an opaque message comes from: the one text-typed parameter the built
    /// expression mentions.
    fn text_param_of(&self, built: &dyn quote::ToTokens, texts: &[MessageText]) -> Option<usize> {
        if texts.is_empty() || !texts.iter().all(|t| matches!(t, MessageText::Opaque)) {
            return None;
        }
        let tokens = built.to_token_stream().to_string();
        let mut mentioned = self
            .body
            .text_params
            .iter()
            .filter(|(_, name)| mentions_ident(&tokens, name));
        match (mentioned.next(), mentioned.next()) {
            (Some((i, _)), None) => Some(*i),
            _ => None,
        }
    }

    /// The error channel constructions take here.
    fn returns(&self) -> ReturnFacts {
        self.returns_override.unwrap_or(self.body.returns)
    }

    /// Whether an expression is itself an SDK tool-result construction.
    fn builds_tool_result(&self, expr: &Expr) -> bool {
        let expr = match expr {
            Expr::MethodCall(m) if m.method == "into" && m.args.is_empty() => &*m.receiver,
            other => other,
        };
        match expr {
            Expr::Call(c) => matches!(
                self.dialect
                    .construction_of_call(c, self.index, &self.returns()),
                Some(Construction::ToolResult { .. })
            ),
            _ => false,
        }
    }

    fn tool_error_value_call(&mut self, call: &'a syn::ExprCall, value: &'a Expr) {
        if self.builds_tool_result(value) {
            return;
        }
        let content = self.dialect.error_value_text(value, self.file);
        let span = self.file.span_of(call);
        self.add_site(
            call,
            span,
            Channel::ToolError,
            None,
            content,
            Origin::ToolErr,
        );
    }
}

/// "required string argument 'x' is missing", "field `y` is required": a required argument,
/// field or parameter that is absent.
fn names_absent_argument(text: &str) -> bool {
    let absent = text.contains("required") || text.contains("missing");
    let what = ["argument", "field", "param", "property"]
        .iter()
        .any(|w| text.contains(w));
    absent && what
}

/// `e.into()`, `McpError::from(e)`, `From::from(e)`.
fn is_from_conversion(expr: &Expr) -> bool {
    match expr {
        Expr::MethodCall(m) => m.method == "into" && m.args.is_empty(),
        Expr::Call(c) => {
            c.args.len() == 1
                && matches!(&*c.func, Expr::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "from"))
        }
        _ => false,
    }
}

/// `.map_err(|e| McpError::..)` / `.ok_or(McpError::..)` / `.ok_or_else(|| ..)`: an explicit
/// construction of the error type, so `?` converts nothing.
fn explicit_conversion(
    expr: &Expr,
    dialect: &Dialect,
    index: &Index<'_>,
    returns: &ReturnFacts,
) -> bool {
    let Expr::MethodCall(mc) = expr else {
        return false;
    };
    let method = mc.method.to_string();
    if !matches!(
        method.as_str(),
        "map_err" | "ok_or" | "ok_or_else" | "or_else"
    ) {
        return false;
    }
    let Some(arg) = mc.args.first() else {
        return false;
    };
    let value = match arg {
        Expr::Closure(c) => tail_expr(&c.body),
        // A helper fn: its own body is linted through the call map.
        Expr::Path(p) => {
            let last = p.path.segments.last().map(|s| s.ident.to_string());
            return !matches!(last.as_deref(), Some("from") | Some("into"));
        }
        other => other,
    };
    match value {
        Expr::Call(c) => {
            dialect.construction_of_call(c, index, returns).is_some()
                || !matches!(&*c.func, Expr::Path(p) if p.path.segments.len() >= 2 && index.local_types.contains(&p.path.segments[p.path.segments.len() - 2].ident.to_string()))
        }
        Expr::Struct(s) => dialect.construction_of_struct(s, index).is_some(),
        _ => true,
    }
}

fn strip_await(expr: &Expr) -> &Expr {
    match expr {
        Expr::Await(a) => strip_await(&a.base),
        Expr::Paren(p) => strip_await(&p.expr),
        other => other,
    }
}

/// The value a block or expression evaluates to (the tail of a block).
pub fn tail_expr(expr: &Expr) -> &Expr {
    match expr {
        Expr::Block(b) => match b.block.stmts.last() {
            Some(syn::Stmt::Expr(e, None)) => tail_expr(e),
            _ => expr,
        },
        Expr::Return(r) => r.expr.as_deref().map_or(expr, tail_expr),
        Expr::Paren(p) => tail_expr(&p.expr),
        other => other,
    }
}

fn is_to_string(expr: &Expr) -> bool {
    matches!(expr, Expr::MethodCall(m) if m.method == "to_string" && m.args.is_empty())
}

/// Whether an expression (a failed operation) calls any of `names`.
fn calls_any(expr: &Expr, names: &[&str]) -> bool {
    struct Finder<'n> {
        names: &'n [&'n str],
        found: bool,
    }
    impl<'v> Visit<'v> for Finder<'_> {
        fn visit_expr_method_call(&mut self, m: &'v syn::ExprMethodCall) {
            // `Command::spawn()` starts a process the model asked for: not a task's JoinError.
            let hit = |n: &&str| match n.strip_suffix("()") {
                Some(base) => m.method == base && m.args.is_empty(),
                None => m.method == n && m.method != "spawn",
            };
            if self.names.iter().any(hit) {
                self.found = true;
            }
            visit::visit_expr_method_call(self, m);
        }
        fn visit_expr_call(&mut self, c: &'v syn::ExprCall) {
            if let Expr::Path(p) = &*c.func {
                if p.path
                    .segments
                    .last()
                    .is_some_and(|s| self.names.iter().any(|n| s.ident == n))
                {
                    self.found = true;
                }
            }
            visit::visit_expr_call(self, c);
        }
        fn visit_expr_field(&mut self, f: &'v syn::ExprField) {
            if matches!(&f.member, syn::Member::Named(id) if self.names.iter().any(|n| id == n)) {
                self.found = true;
            }
            visit::visit_expr_field(self, f);
        }
        fn visit_expr_try(&mut self, _: &'v syn::ExprTry) {
            // `x?` already propagated `x`'s failure: the error being handled comes after it.
        }
        fn visit_macro(&mut self, m: &'v syn::Macro) {
            if m.path
                .segments
                .last()
                .is_some_and(|s| self.names.iter().any(|n| s.ident == n))
            {
                self.found = true;
            }
        }
    }
    let mut f = Finder {
        names,
        found: false,
    };
    f.visit_expr(expr);
    f.found
}

/// `args.get("field")` (absent), `v.as_str()` / `as_f64()` … (the JSON value has the wrong
/// type), `args["field"].as_i64()`: a failure of the request's shape. `String::as_str` returns no
/// `Option`, so an accessor whose `None` is handled is a `serde_json::Value`'s.
fn reads_argument_field(expr: &Expr) -> bool {
    let accessor = |n: &str| {
        matches!(
            n,
            "as_str"
                | "as_i64"
                | "as_u64"
                | "as_f64"
                | "as_bool"
                | "as_array"
                | "as_object"
                | "as_null"
        )
    };
    match strip_await(expr) {
        Expr::MethodCall(m) => {
            let name = m.method.to_string();
            let field_get = name == "get"
                && matches!(m.args.first(), Some(Expr::Lit(l)) if matches!(l.lit, syn::Lit::Str(_)));
            let json_accessor = m.args.is_empty() && accessor(&name);
            // `.and_then(Value::as_str)`, `.and_then(|v| v.as_str())`
            let mapped_accessor = name == "and_then"
                && match m.args.first() {
                    Some(Expr::Path(p)) => p
                        .path
                        .segments
                        .last()
                        .is_some_and(|s| accessor(&s.ident.to_string())),
                    Some(Expr::Closure(c)) => reads_argument_field(&c.body),
                    _ => false,
                };
            field_get || json_accessor || mapped_accessor
        }
        _ => false,
    }
}

/// `serde_json::to_string(..)` and friends: serialising the server's own output.
fn is_serializing_call(expr: &Expr) -> bool {
    struct Finder(bool);
    impl<'v> Visit<'v> for Finder {
        fn visit_expr_call(&mut self, c: &'v syn::ExprCall) {
            if let Expr::Path(p) = &*c.func {
                let segs = crate::index::path_segments(&p.path);
                if matches!(segs.as_slice(), [.., m, f] if m.starts_with("serde") && f.starts_with("to_"))
                {
                    self.0 = true;
                }
            }
            visit::visit_expr_call(self, c);
        }
        fn visit_expr_try(&mut self, _: &'v syn::ExprTry) {}
    }
    let mut f = Finder(false);
    f.visit_expr(expr);
    f.0
}

/// `x.get(&id)`, `map.remove(key)`: a lookup on a runtime key (not a string literal, which is
/// reading a field of the arguments).
fn is_lookup(expr: &Expr) -> bool {
    match strip_await(expr) {
        Expr::MethodCall(m) => {
            let lookup = LOOKUP_METHODS.iter().any(|l| m.method == l)
                && m.args.len() == 1
                && !matches!(&m.args[0], Expr::Lit(_));
            lookup
                || (matches!(
                    m.method.to_string().as_str(),
                    "cloned" | "copied" | "ok_or" | "ok_or_else" | "as_ref" | "as_deref"
                ) && is_lookup(&m.receiver))
        }
        Expr::Reference(r) => is_lookup(&r.expr),
        _ => false,
    }
}

/// Words in a key or a store's name that make a lookup a handle lookup (`sessions.get(&id)`,
/// `uploads.remove(upload_id)`), not a search by name.
const HANDLE_WORDS: &[&str] = &[
    "id",
    "handle",
    "session",
    "token",
    "ticket",
    "job",
    "task",
    "upload",
    "cursor",
    "lease",
    "basket",
    "cart",
    "conn",
    "connection",
    "draft",
    "stream",
    "subscription",
    "run",
    "tx",
    "transaction",
    "browser",
    "page",
    "tab",
    "process",
    "pid",
];

/// The lookup inside a cause chain names a handle.
fn lookup_names_a_handle(expr: &Expr) -> bool {
    match strip_await(expr) {
        Expr::MethodCall(m)
            if LOOKUP_METHODS.iter().any(|l| m.method == l) && m.args.len() == 1 =>
        {
            names_a_handle(&m.receiver, &m.args[0])
        }
        Expr::MethodCall(m) => lookup_names_a_handle(&m.receiver),
        Expr::Reference(r) => lookup_names_a_handle(&r.expr),
        _ => false,
    }
}

fn names_a_handle(receiver: &Expr, key: &Expr) -> bool {
    let tokens = format!(
        "{} {}",
        receiver.to_token_stream_string(),
        key.to_token_stream_string()
    )
    .to_lowercase();
    tokens
        .split(|c: char| !c.is_alphanumeric())
        .flat_map(|w| w.split('_'))
        .any(|w| {
            HANDLE_WORDS
                .iter()
                .any(|h| w == *h || w.strip_suffix('s') == Some(h))
        })
}

/// `Err(e)` / `Err(_)` / `Err(..)`: `Some(binding)` (binding `None` when not an ident).
fn variant_binding(pat: &Pat, variant: &str) -> Option<Option<String>> {
    match pat {
        Pat::TupleStruct(ts) if ts.path.segments.last().is_some_and(|s| s.ident == variant) => {
            Some(ts.elems.first().and_then(pat_ident))
        }
        Pat::Reference(r) => variant_binding(&r.pat, variant),
        _ => None,
    }
}

fn is_none_pat(pat: &Pat) -> bool {
    matches!(pat, Pat::Ident(i) if i.ident == "None")
        || matches!(pat, Pat::Path(p) if p.path.is_ident("None"))
}

fn pat_ident(pat: &Pat) -> Option<String> {
    match pat {
        Pat::Ident(i) => Some(i.ident.to_string()),
        Pat::Type(t) => pat_ident(&t.pat),
        _ => None,
    }
}

/// String-literal arm patterns (`"add" | "sum"`).
fn literal_names(pat: &Pat) -> Option<Vec<String>> {
    match pat {
        Pat::Lit(l) => match &l.lit {
            syn::Lit::Str(s) => Some(vec![s.value()]),
            _ => None,
        },
        Pat::Or(o) => {
            let mut names = Vec::new();
            for case in &o.cases {
                names.extend(literal_names(case)?);
            }
            Some(names)
        }
        // `Some("add")` when matching on `params["name"].as_str()`.
        Pat::TupleStruct(ts) if ts.path.is_ident("Some") && ts.elems.len() == 1 => {
            literal_names(&ts.elems[0])
        }
        _ => None,
    }
}

/// `_`, a plain binding or `Some(other)`: the catch-all arm.
fn catch_all_binding(pat: &Pat) -> Option<String> {
    match pat {
        Pat::Wild(_) => Some("_".to_string()),
        Pat::Ident(i) if i.subpat.is_none() && i.ident != "None" => Some(i.ident.to_string()),
        Pat::TupleStruct(ts) if ts.path.is_ident("Some") && ts.elems.len() == 1 => {
            catch_all_binding(&ts.elems[0])
        }
        _ => None,
    }
}

/// `name != "export"`: the literal and the name expression.
fn tool_name_guard(cond: &Expr) -> Option<(String, String)> {
    match cond {
        Expr::Binary(b) if matches!(b.op, syn::BinOp::Ne(_)) => literal_comparison(b),
        _ => None,
    }
}

/// `name == "add"` / `request.tool_name() == "add"`: the literal and the name expression.
fn tool_name_test(cond: &Expr) -> Option<(String, String)> {
    match cond {
        Expr::Binary(b) if matches!(b.op, syn::BinOp::Eq(_)) => literal_comparison(b),
        _ => None,
    }
}

/// One side a string literal, the other an expression mentioning a name.
fn literal_comparison(b: &syn::ExprBinary) -> Option<(String, String)> {
    let literal = |e: &Expr| match e {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => Some(s.value()),
        _ => None,
    };
    let (lit, other) = match (literal(&b.left), literal(&b.right)) {
        (Some(l), None) => (l, &*b.right),
        (None, Some(l)) => (l, &*b.left),
        _ => return None,
    };
    let tokens = other.to_token_stream_string();
    tokens
        .contains("name")
        .then(|| (lit, name_expression(&tokens)))
}

/// `request.name.as_ref()` → `request.name`, for `format!("Unknown tool: {}", ..)`.
fn name_expression(scrutinee: &str) -> String {
    let compact = scrutinee.replace(' ', "");
    let trimmed = compact
        .trim_start_matches('&')
        .trim_start_matches('*')
        .trim_end_matches(".as_ref()")
        .trim_end_matches(".as_str()")
        .trim_end_matches(".as_ref()");
    trimmed.to_string()
}

fn mentions_ident(tokens: &str, ident: &str) -> bool {
    tokens
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|w| w == ident)
}
