//! What the model knows about one crate's failures, as plain data: error sites, code sites,
//! panic sites, the call edges between bodies and the context a site ends up in. The walk
//! ([`super::walk`]) builds them, the call graph and reach refine them, the lints read them.
//! Nothing here looks at syntax.

use crate::model::ids::{BodyId, FileId};
use crate::resolve::ItemId;
use crate::source::Span;
use crate::text::MessageText;

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

/// The tool name [`SiteContext::Tool`] gives the dispatcher's tool-call arm itself.
pub const TOOL_CALL_ARM: &str = "tools/call";

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
    /// Tool context inside a helper the tools call (not a handler itself).
    pub fn in_tools_helper(&self) -> bool {
        matches!(
            self,
            SiteContext::Tool {
                helper: Some(_),
                ..
            }
        )
    }

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

    /// Directly in the dispatcher's `tools/call` arm, before any tool is chosen (a helper it
    /// calls is not: the tools may be chosen there).
    pub fn is_tool_call_arm(&self) -> bool {
        matches!(self, SiteContext::Tool { tools, helper: None } if tools.len() == 1 && tools[0] == TOOL_CALL_ARM)
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
    /// Whether it was re-reported at a call into a shared helper.
    pub fn is_delegated(&self) -> bool {
        matches!(
            self.origin,
            Origin::HelperCall { .. }
                | Origin::TextArgument { .. }
                | Origin::AnsweredLater { .. }
                | Origin::ReturnedUnknownTool { .. }
                | Origin::ErrArmOf { .. }
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
            Origin::TextValue | Origin::ReachedAnswer => "text".to_string(),
            Origin::HelperCall {
                helper,
                constructor,
                ..
            } => format!("`{constructor}` in helper `{helper}`"),
            Origin::QuestionMark => "`?`".to_string(),
            Origin::TextArgument { helper, .. } => format!("`{helper}(..)`"),
            Origin::AnsweredLater { .. }
            | Origin::ReturnedUnknownTool { .. }
            | Origin::ErrArmOf { .. } => "`Err(..)`".to_string(),
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
    /// Text, JSON or an output struct that reaches a tool's success answer through a `let` or a
    /// crate fn's returned value (see [`crate::model::answers`]).
    ReachedAnswer,
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
    /// An `Err` value that a later `match`'s `Err` arm answers (`let result = match name { ..,
    /// _ => Err(..) }; match result { Err(e) => tool_error(&e) }`): what the arm at `answered_at`
    /// builds is this value's answer. Walks record it with the arm's span; the model gives it
    /// the answer's channel and code, or drops it when the arm builds no answer.
    AnsweredLater { answered_at: Span },
    /// The unknown tool's `Err` value, a variant of the crate enum the body fails with, returned
    /// to its callers (`_ => Err(EpubError::ParseError(format!("Unknown tool: {name}")))`):
    /// where a caller's mapping answers that variant is this value's answer. Walks record it;
    /// the model gives it that answer's channel and code, or drops it.
    ReturnedUnknownTool {
        /// The crate enum and variant it is, when it is one.
        variant: Option<(ItemId, String)>,
    },
    /// Not a site: the `Err(e)` arm (its span is the site's) of a `match` over what crate fn
    /// `callee` returned (`let result = dispatch(name, ..); match result { Err(e) =>
    /// tool_error(id, &e) }`), where a [`Origin::ReturnedUnknownTool`] value of it is answered.
    ErrArmOf {
        callee: BodyId,
        /// The variant the arm's pattern names (`Err(ToolError::UnknownTool(n))`); `None` for
        /// the one `Err(e)` arm.
        variant: Option<String>,
    },
}

/// Facts about the failure path an expression is on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PathFacts {
    /// Inside an `Err(e) =>` arm, `if let Err(e)`, `let Ok(..) else`, or a `map_err` /
    /// `unwrap_or_else` / `ok_or_else` closure.
    pub on_failure_path: bool,
    /// The failure is a lookup miss (`get`/`remove` → `None`/`Err`) on a runtime key.
    pub lookup_miss: bool,
    /// That lookup's store and key as token text (`sessions . get (& session_id)` gives
    /// `sessions & session_id`): whether they name a handle is the lint's to judge.
    pub lookup_names: Option<String>,
    /// The failed operation or the message marks a genuine server fault (poisoned lock,
    /// `JoinError`, serialising the server's own output, cancellation, internal channels).
    pub server_fault: bool,
    /// The failure is about the request's shape (arguments missing or not an object, a required
    /// field absent or of the wrong JSON type, request metadata), not an argument's value.
    pub schema_level: bool,
    /// The failure is decided on what the client declared in `initialize` (`if !peer.peer_info()
    /// ..capabilities.sampling.is_some()`): a protocol-level check of the session, which the spec
    /// answers with a protocol error (-32021), neither a tool failure nor an argument's value.
    pub client_declaration: bool,
    /// The `"tools/call"` route failed before it picked a tool, on the request itself or the
    /// server's state (`let Some(name) = params.get("name") else`, no project selected), not
    /// on a tool's run: a protocol error is right there.
    pub request_failure: bool,
    /// Every cause reads only the server's own state (`self.forge.as_deref().ok_or_else(..)`):
    /// the failure is about no argument value.
    pub server_state: bool,
    /// The failing call on the server's own store is keyed only by values read out of a record
    /// that store returned earlier (`self.store.berth(&call.berth)` after `let call =
    /// self.store.get_call(&p.call_id)?..`): a miss there is the store's inconsistency, not a
    /// rejected argument.
    pub stored_key: bool,
    /// The variants that reach it are built only where a tool checks an argument's value
    /// (`if limit > 100 { return Err(ToolError::InvalidArgument(..)) }`, see
    /// [`VariantBuild`]): a mapping's arm for them answers a value check, wherever it sits.
    pub variant_value_check: bool,
    /// The built value mentions the error binding (`format!("Error: {e}")`).
    pub uses_error: bool,
    /// Returned by an explicit `return` (an early exit), not as the body's tail.
    pub early_return: bool,
    /// On a failure or fallback branch of any kind, certain or not (an `Option`'s `None`, a
    /// lookup miss, an argument of the wrong shape, a `.unwrap_or(..)`, a `#[cfg(not(..))]`
    /// block).
    pub in_fallback: bool,
}

/// What a crate fn's signature says, for its callers.
#[derive(Clone, Copy, Debug, Default)]
pub struct FnFacts {
    /// It returns the protocol error type.
    pub protocol: bool,
    /// It returns the SDK's tool error type (`Result<_, CallToolError>`).
    pub tool_error: bool,
    /// Its value is a lookup keyed by its parameter at this position, the receiver not counted
    /// (`fn dispatch_for(&self, name: &str) -> Option<&F> { self.dispatch.get(name) }`): a miss
    /// means no entry for that key.
    pub lookup_of_param: Option<u8>,
}

/// A crate error type's own constructor that builds a protocol error
/// (`fn invalid_params(m: impl Into<String>) -> Self { Self { code: INVALID_PARAMS, message: m.into() } }`):
/// each call of it is that construction, with the call's arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrorConstructor {
    /// `RpcError::invalid_params`, for messages.
    pub name: String,
    /// The code it sets, when static.
    pub code: Option<i64>,
    /// The parameter the code comes from (`fn new(code: i32, ..)`), when not static.
    pub code_param: Option<usize>,
    /// The parameter the message comes from.
    pub message_param: Option<usize>,
    /// A method: parameters are counted after its receiver, which a path call passes first
    /// (`Request::error(&req, code, ..)`).
    pub receiver: bool,
}

/// A hand-rolled server's fn that builds a tool result whose `isError` is one of its
/// parameters (`fn wrap(text: &str, is_error: bool) -> Value { json!({"content": [{"type":
/// "text", "text": text}], "isError": is_error}) }`): a call with a literal flag builds that
/// answer. Or a crate result type's own constructor that sets the flag itself (`fn
/// tool_error(msg: String) -> Self { Self { content: .., is_error: true } }`): every call builds
/// that answer.
#[derive(Clone, Debug)]
pub struct ResultHelper {
    /// `wrap`, for messages.
    pub name: String,
    /// Where the `isError` flag comes from.
    pub flag: ResultFlag,
    /// The parameter the content's text comes from.
    pub text_param: Option<usize>,
}

/// Where a [`ResultHelper`]'s `isError` flag comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultFlag {
    /// The call's argument at this index (a literal, or the call builds no known answer).
    Param(usize),
    /// The helper's own literal.
    Fixed(bool),
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
    /// Its code is one of these, picked by branches the source cannot choose between for a
    /// given error (`let code = if s.contains("rate limit") { -32002 } else { -32603 }`, a
    /// `match` over another crate's value); empty when the code is known.
    pub code_one_of: Vec<i64>,
    /// Built in an arm of a `match` over the body's `i`th input (the receiver first) that only
    /// `Ok(..)` (`true`) or only `Err(..)` (`false`) takes: a call passing the other as a
    /// literal (`finish(Err(e))`) never reaches it.
    pub result_arm: Option<(usize, bool)>,
    /// Built where the error a crate fn returned is answered (`Err(e)` of `match
    /// process_request(..)`): only the variants that fn can return reach it.
    pub errors_of: Option<BodyId>,
    /// Built in an `Err` arm that also answers the unknown tool's `Err` value (see
    /// [`Origin::AnsweredLater`]): a rewrite for the tools' failures would answer that one too.
    pub answers_unknown_tool: bool,
    /// Other places that explain it: where a helper builds it, or the tool calls that reach it.
    pub related: Vec<(FileId, Span, String)>,
    /// The top-level members of a JSON answer (`json!({"error": e.to_string()})`), as key and
    /// value tokens: which of them mean failure is the lints' to judge.
    pub answer_members: Vec<(String, String)>,
    /// The text is the Display of the error a crate fn returned (`Err(e) =>
    /// ContentBlock::text(e.to_string())`), in the alternate form (`{e:#}`) or not.
    pub shows_error_of: Option<(ShownError, bool)>,
}

/// Whose error a text shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShownError {
    /// This crate fn's.
    Body(BodyId),
    /// The closure its body's Fn-typed parameter at this index holds (`op(storage)` in `fn
    /// run(&self, op: impl FnOnce(Storage) -> Result<Value>)`): each call hands its own
    /// ([`CallEdge::closure_calls`]).
    ClosureParam(usize),
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
    /// The enum whose variants it names.
    pub fn enum_id(&self) -> ItemId {
        match self {
            VariantTag::Is(id, _) | VariantTag::Otherwise(id, _) => *id,
        }
    }

    /// The variants that reach both: `None` when none does (an arm inside an arm of another
    /// enum's `match` keeps the outer one).
    pub fn intersect(&self, inner: &VariantTag) -> Option<VariantTag> {
        use VariantTag::{Is, Otherwise};
        if self.enum_id() != inner.enum_id() {
            return Some(self.clone());
        }
        let e = self.enum_id();
        let tag = match (self, inner) {
            (Is(_, a), Is(_, b)) => Is(e, a.iter().filter(|v| b.contains(v)).cloned().collect()),
            (Is(_, a), Otherwise(_, b)) | (Otherwise(_, b), Is(_, a)) => {
                Is(e, a.iter().filter(|v| !b.contains(v)).cloned().collect())
            }
            (Otherwise(_, a), Otherwise(_, b)) => Otherwise(
                e,
                a.iter()
                    .chain(b.iter().filter(|v| !a.contains(v)))
                    .cloned()
                    .collect(),
            ),
        };
        match &tag {
            Is(_, vs) if vs.is_empty() => None,
            _ => Some(tag),
        }
    }

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
    /// A crate const used as a code by its error type's own constructors: reported once, at
    /// the const's definition (where the fix goes), with the uses as related locations.
    pub definition: Option<ItemId>,
    /// Other places the finding is about (the uses of a const reported at its definition).
    pub related: Vec<(FileId, Span, String)>,
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
    /// The variants of the enum the caller matches on whose arm the call sits in (`Sqlx(e) =>
    /// convert_sqlx(e)` in a `From<AppError>`): the call runs only for those.
    pub arm_variant: Option<VariantTag>,
    /// The crate fn whose error value the call converts (`find(..)?`): it passes the variants
    /// that fn can return.
    pub errors_of: Option<BodyId>,
    /// The inputs (the receiver first) the call passes as a literal `Ok(..)` (`true`) or
    /// `Err(..)` (`false`).
    pub result_args: Vec<(usize, bool)>,
    /// The call sits in an arm over the caller's input that only `Ok(..)` or `Err(..)` takes
    /// (see [`ErrorSite::result_arm`]).
    pub in_result_arm: Option<(usize, bool)>,
    /// The error values a point-free mapping receives (`.map_err(helper)` on a value that is
    /// `Err(Error::NotFound(..))` in one branch and `find(..)` in another), when every branch
    /// tells.
    pub passes: Option<PassedErrors>,
    /// The caller does not pass on the error value the callee returns: it answers it
    /// (`Err(e) => return Ok(wrap(&e))`) or drops it (`.ok()`, `.unwrap_or(..)`).
    pub error_dropped: bool,
    /// The crate fn the call's value is handed to (`tool_error_result(&helper(..))`): when that
    /// fn makes a tool result of it, the error is answered there, not passed on.
    pub error_passed_to: Option<Callee>,
    /// A dispatcher, before it has picked a tool, hands the callee the request
    /// (`self.call_tool_impl(request)`): the callee goes on picking the tool.
    pub continues_dispatch: bool,
    /// It continues the dispatch from an arm whose guard lets only known tool names in
    /// (`_ if is_builtin(name) => builtin(name, ..)`): the callee's own fallback for a name it
    /// does not handle is not the unknown tool's answer.
    pub known_names: bool,
    /// On a failure path, the call hands the callee the error itself (`tool_err(e)`): every
    /// argument that is not a literal is a local, one of them the error's binding.
    pub hands_error: bool,
    /// Closures the call hands the callee's Fn-typed parameters (`self.run(|s| s.get(id))`),
    /// by parameter index (receiver not counted), with the crate fn each calls for its value:
    /// what the callee's call of that parameter returns here.
    pub closure_calls: Vec<(usize, BodyId)>,
    /// Per argument (as `args`), the error whose Display it is, when it is one
    /// (`tool_error(format!("create failed: {e}"))` in an `Err(e)` arm over a crate fn's call).
    pub shown_args: Vec<Option<(ShownError, bool)>>,
}

/// Error values of crate enums a value can hold: variants built right there, and the crate fns
/// whose errors it passes on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PassedErrors {
    pub variants: Vec<(ItemId, String)>,
    pub through: Vec<BodyId>,
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
    /// `(self.handler)(args)`: a closure a constructor stored in this Fn-typed field of a crate
    /// struct. Becomes [`Callee::Dispatch`] over the closures passed to it once every body is
    /// walked.
    Slot(ItemId, String),
}

impl Callee {
    /// The crate bodies it names (none for `From` conversions).
    pub fn bodies(&self) -> &[BodyId] {
        match self {
            Callee::Body(b) => std::slice::from_ref(b),
            Callee::Candidates(bs) | Callee::Dispatch(bs) => bs,
            Callee::FromImpls(_) | Callee::Slot(..) => &[],
        }
    }
}

/// What one body returns as its error value (built by the walk's `returns`, closed over the
/// call graph by `summary::ErrorVariants`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReturnedErrors {
    /// The crate enum the body is declared to fail with.
    pub error_enum: Option<ItemId>,
    /// Variants of it built in return position.
    pub variants: Vec<String>,
    /// Bodies whose errors (of the same enum, or of the same crate struct) it passes on.
    pub through: Vec<BodyId>,
    /// Some return position may hold any variant.
    pub unknown: bool,
    /// Messages it fails with as written, when it fails with text (`anyhow::Error`, `String`).
    pub texts: Vec<ReturnedText>,
    /// Bodies whose text errors it passes on unchanged (`check(id)?`, a tail call).
    pub texts_through: Vec<BodyId>,
    /// The variants of crate enums it builds, anywhere in it, returned or not.
    pub builds: Vec<VariantBuild>,
}

/// A value of a crate enum's variant built in a body (`AppError::Db(..)`, `.map_err(AppError::Db)`),
/// and whether the failure it stands for there is a fault of the server itself (its cause is
/// a poisoned lock, a `OnceLock` set at start-up, serialising the server's own value): a
/// variant built only so is a server fault wherever a mapping turns it into a protocol error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantBuild {
    pub enum_id: ItemId,
    pub variant: String,
    pub file: FileId,
    pub span: Span,
    pub body: BodyId,
    /// The dispatch arm it sits in, if any (see [`ErrorSite::context`]).
    pub arm: Option<SiteContext>,
    pub server_fault: bool,
    /// The failure there is about the request's shape (see [`PathFacts::schema_level`]).
    pub schema_level: bool,
    /// The request failed there before a tool was picked (see [`PathFacts::request_failure`]).
    pub request_failure: bool,
    /// Built on a lookup's miss (`let Some(l) = self.leases.get_mut(id) else { return
    /// Ok(Renewal::Unknown) }`): that lookup's store and key (see [`PathFacts::lookup_names`]).
    pub lookup_miss: Option<String>,
    pub via: BuildVia,
}

/// How code builds a variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuildVia {
    /// Names it (`AppError::Io(e)`, `Self::Poisoned`).
    Named,
    /// Names it in a `fn from(e: X) -> Self`: a conversion, built where the value is converted.
    FromFn,
    /// A `?` converts an external error through that `fn from`: not named there.
    Question,
}

/// A message a body fails with, written as a literal: `bail!("..")`, `ensure!(.., "..")`,
/// `Err("..".to_string())`, `.ok_or_else(|| anyhow!(".."))?`, `.context("..")?`. Its Display is
/// the literal; `{:#}` appends the cause when it has one (`.context` on a `Result`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReturnedText {
    pub file: FileId,
    pub span: Span,
    pub value: String,
    pub with_cause: bool,
    /// The fn takes inputs besides its receiver: a check it fails may be of a value its caller
    /// passed (with none, it can only be of the server's own state or what it read).
    pub takes_inputs: bool,
}

/// Where a value comes from, as far as the answers of tools are concerned: one of a body's own
/// answer values, what a crate fn returns, or one of the body's inputs passed on as it is (built
/// by the walk's `flow`, followed by [`crate::model::answers`]).
#[derive(Clone, Debug)]
pub enum AnswerSource {
    /// One of the body's own answer values: an index into its [`BodyAnswers::answers`].
    Answer(usize),
    /// The value a call of crate fns returns; `args[i]` is where its `i`th input comes from (the
    /// receiver first), and `arm` the dispatch arm the call sits in.
    Call {
        callee: Callee,
        arm: Option<SiteContext>,
        args: Vec<Vec<AnswerSource>>,
    },
    /// The body's `i`th input (the receiver first), returned as it is.
    Param(usize),
}

/// A success answer a tool gives (a success result's content, a text tool's returned value),
/// and where its value comes from.
#[derive(Clone, Debug)]
pub struct SuccessAnswer {
    pub sources: Vec<AnswerSource>,
    /// The dispatch arm it sits in.
    pub arm: Option<SiteContext>,
    pub file: FileId,
    pub span: Span,
}

/// How one body's answers flow: its own values that may be failure answers (text, JSON or an
/// output struct, on a failure path or an early return), where the value it returns comes from,
/// and the success answers it gives.
#[derive(Clone, Debug, Default)]
pub struct BodyAnswers {
    /// As sites on the success channel, with the dispatch arm each sits in; they count only
    /// where a success answer takes them.
    pub answers: Vec<(ErrorSite, Option<SiteContext>)>,
    pub returned: Vec<AnswerSource>,
    pub success: Vec<SuccessAnswer>,
}
