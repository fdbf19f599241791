//! One body's facts, found by one walk over it: the error sites (every expression by which a
//! handler yields a failure or a result, with its channel, code, text and the failure path it
//! sits on), the code sites, the panic sites, the calls out of it and the closures it registers
//! as tools. Only raw evidence: which tools reach a body is the reach's job, what a lint makes
//! of a site the lint's.
//!
//! The walker is one visitor ([`Walker`], here, with the frames it keeps); what it does at each
//! kind of node is split by concern:
//! - [`construct`]: SDK constructions (protocol errors, tool results, macros, `is_error = ..`,
//!   text returned as success);
//! - [`calls`]: call edges, `?` and the `From` conversions it goes through, the error types
//!   and enum variants a call passes;
//! - [`expansion`]: crate `macro_rules!` calls, walked as what they expand to;
//! - [`dispatch`]: tool-name dispatch (a dispatcher's tool arms and its unknown-tool answer);
//! - [`failure`]: the failure path a site is on (error arms, lookup misses, fallbacks) and what
//!   the failed operation says about it (server fault, schema-level, a handle lookup).

mod calls;
mod construct;
pub(crate) mod dispatch;
mod error_texts;
mod expansion;
mod failure;
mod flow;
mod returns;
mod values;

use std::collections::HashMap;

use syn::visit::{self, Visit};
use syn::{Expr, Pat};

use crate::index::Index;
use crate::macro_args::MacroArgs;
use crate::model::bodies::{BodyCode, BodyInfo};
use crate::model::callgraph::Target;
use crate::model::callgraph::{
    bind_declared, bind_pattern, bind_scrutinee, CrateCalls, Locals, Resolver,
};
use crate::model::ids::BodyId;
use crate::model::site::{
    BodyAnswers, BuildVia, CallEdge, Callee, Channel, CodeSite, ErrorSite, ErrorSource, Origin,
    PanicSite, PathFacts, ReturnedErrors, SiteContext, VariantBuild, VariantTag,
};
use crate::resolve::{ItemId, ItemKind};
use crate::sdk::{ContentFacts, Dialect, ErrChannel, HandlerKind, ReturnFacts, TryMeaning};
use crate::source::{FileId, SourceFile, Span};
use crate::syntax::{
    last_segment, mentions_ident, pat_ident, path_segments, str_literal, variant_binding,
    TokensString,
};
use crate::text::MessageText;

use calls::{converted_value, is_from_conversion};
use failure::Frame;

/// One arm's code for a local that a `match` picks it into (see [`values`]).
#[derive(Clone, Debug)]
struct ArmCode {
    /// The variants that get it; `None` when the value matched is not a crate enum (another
    /// crate's error: the arm's code is one the local can hold, for no variant known here).
    variant: Option<VariantTag>,
    value: i64,
    written: String,
    span: Span,
    /// Where the code is written when another fn returns it (`e.rpc_code()`): that fn's
    /// file and body.
    written_in: Option<(FileId, BodyId)>,
    /// For a branch of no known variant, every code the mapping's branches pick when they
    /// differ ([`ErrorSite::code_one_of`]).
    one_of: Vec<i64>,
}

/// What the walk knew where it visited a value that may be an answer (see [`flow`]): the
/// failure frames around it and the dispatch arm.
#[derive(Clone)]
struct AnswerPoint<'a> {
    frames: Vec<Frame<'a>>,
    returning: usize,
    /// In a branch taken on a value other than the server's own state or a caller's flag
    /// (`if !client.is_connected()`, not `if !self.config.mail_enabled`).
    tests_other_value: bool,
    absent_optional: usize,
    /// In a `#[cfg(not(..))]` block ([`Walker::cfg_off`]).
    cfg_off: bool,
    arm: Option<SiteContext>,
}

/// A closure an SDK registration makes a handler.
pub struct RegisteredClosure<'a> {
    pub closure: &'a Expr,
    /// The tool name the registration gives as a string literal (`.tool_typed("head", |args, _|
    /// ..)`), if any.
    pub name: Option<String>,
    /// A tool, or a resource or prompt handler.
    pub kind: HandlerKind,
    /// What its `Err` and success become: the registration and the builder chain around it
    /// decide ([`Dialect::closure_returns`]).
    pub returns: ReturnFacts,
}

/// What one body's walk found.
#[derive(Default)]
pub struct BodyFacts<'a> {
    pub sites: Vec<(ErrorSite, Option<SiteContext>)>,
    pub codes: Vec<CodeSite>,
    pub panics: Vec<(PanicSite, Option<SiteContext>)>,
    pub calls: Vec<CallEdge>,
    /// Closures registered as handlers, found inside this body.
    pub closures: Vec<RegisteredClosure<'a>>,
    /// Closures this body hands a crate constructor to store in a Fn-typed field
    /// ([`crate::types::Types::closure_slot`]), with that struct and field.
    pub slot_closures: Vec<(&'a Expr, (ItemId, String))>,
    /// The error values it returns, when it fails with a crate enum.
    pub returned: ReturnedErrors,
    /// Receivers of `.map_err(..)` that call crate fns declared to return a `Result`, by address.
    pub result_calls: Vec<usize>,
    /// How its answers flow: values that may be failure answers, where what it returns comes
    /// from, the success answers it gives.
    pub answers: BodyAnswers,
    /// Other files whose syntax the walk read (a fn body whose codes a call returns, a macro it
    /// expanded): its facts hold only while those files are unchanged.
    pub reads: Vec<FileId>,
}

impl BodyFacts<'_> {
    /// The body continues a dispatch only for names known to be tools
    /// ([`CallEdge::known_names`]): its fallback for a name it does not handle never answers
    /// an unknown tool.
    pub fn unknown_names_unreached(&mut self) {
        let unreached = |arm: &mut Option<SiteContext>| {
            if matches!(arm, Some(SiteContext::UnknownToolArm { .. })) {
                *arm = Some(SiteContext::Unreached);
            }
        };
        self.sites.iter_mut().for_each(|(_, arm)| unreached(arm));
        self.panics.iter_mut().for_each(|(_, arm)| unreached(arm));
        self.calls
            .iter_mut()
            .for_each(|e| unreached(&mut e.context_override));
    }
}

pub struct Walker<'a, 'm> {
    pub dialect: &'m dyn Dialect,
    pub index: &'m Index<'a>,
    pub file: &'m SourceFile,
    pub body: &'m BodyInfo<'a>,
    pub calls: &'m CrateCalls<'m, 'a>,
    resolver: Resolver<'m, 'a>,
    locals: Locals,
    pub fault_markers: &'m [String],
    /// The file's macro arguments parsed as expressions.
    macros: &'a MacroArgs,
    pub facts: BodyFacts<'a>,
    frames: Vec<Frame<'a>>,
    arm: Option<SiteContext>,
    /// Inside a closure or async block that is not this body's own return path.
    nested: usize,
    /// Per closure around here, the error type it states (`|| -> Result<_, E> {..}`), by name:
    /// a `?` in one returns from the closure, into that type.
    closures: Vec<Option<String>>,
    /// Builder chains a later method wraps so their tool's `Err` is caught
    /// ([`Dialect::chain_catches_errors`]): the method calls below it in the chain.
    caught_chains: Vec<&'a syn::ExprMethodCall>,
    comparison: usize,
    lets: HashMap<String, &'a Expr>,
    /// Locals a `let` destructured from tuples: each branch's value ([`Walker::let_candidates`]).
    let_candidates: HashMap<String, Vec<&'a Expr>>,
    /// How deep [`Walker::calls_request_context`] is in `let_candidates` (bounded).
    candidate_depth: std::cell::Cell<u8>,
    /// The receiving ends of channels this body made (`let (tx, rx) = oneshot::channel()`).
    own_receivers: std::collections::HashSet<String>,
    /// Sending ends of the server's own channels held in locals: made here, or an element of
    /// a tuple a crate fn returns whose type says it is one (`-> Result<(Id, mpsc::Sender<C>), E>`).
    own_senders: std::collections::HashSet<String>,
    /// Inside the branches of an `if` on one of this body's parameters
    /// ([`Walker::tests_param_flag`]).
    flag_branches: usize,
    /// Inside the `then` branch of an `if` that tests only the server's own state
    /// (`if self.config.disable_sudo`): a refusal there is the server's setting, not a check of
    /// an argument value.
    self_state_branches: usize,
    /// Inside a branch taken on something other than the server's own state (`if let
    /// Some(filter) = params.filter`): a refusal on the server's setting there still answers
    /// what the model sent.
    other_value_branches: usize,
    /// The crate type (enum or struct) the body's signature says it fails with.
    declared_error: Option<ItemId>,
    /// Locals holding task handles: a `Vec` the body pushes spawned tasks into, and what a
    /// `for` over it binds (`for probe in probes { probe.await.map_err(..)? }`).
    task_handles: std::collections::HashSet<String>,
    /// Scrutinees of `let Some(..) = .. else` in the `"tools/call"` route before a tool is
    /// picked, by address ([`Walker::fails_before_tool_pick`]).
    route_refusals: std::collections::HashSet<usize>,
    /// A guard before this point answered every name that is not a tool
    /// ([`Walker::dispatch_if`]): a tool-enum conversion after it fails on other things.
    unknown_names_answered: bool,
    /// Inside the `then` of a test of the server's own state before a tool is picked
    /// ([`Walker::tests_server_state_before_tool_pick`]).
    route_state_branches: usize,
    /// Whether the body reads a `name` member anywhere, found once when asked.
    reads_name_member: std::cell::OnceCell<bool>,
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
    /// Closures a call hands a crate fn's Fn-typed parameter, noted at the call for when the
    /// walk reaches them ([`Walker::note_closure_args`]).
    closure_args: HashMap<*const syn::ExprClosure, calls::ClosureArg>,
    /// `CallToolResult::from(error)`: an error value made into a tool result, whatever the
    /// body's own error channel.
    returns_override: Option<ReturnFacts>,
    /// Inside the tool-call arm of a general request handler: a tool-name `match` there is a
    /// dispatch.
    in_tool_call_arm: bool,
    /// In a dispatch arm whose guard lets only known tool names in ([`CallEdge::known_names`]).
    known_names_arm: bool,
    /// Inside a `match` arm over a crate enum: the variants that reach it.
    variant: Option<VariantTag>,
    /// Inside a `match` arm over an input that only `Ok(..)` or `Err(..)` takes (see
    /// [`ErrorSite::result_arm`]).
    result_arm: Option<(usize, bool)>,
    /// Inside the `Err` arm answering what a crate fn returned (see
    /// [`ErrorSite::errors_of`]).
    errors_of: Option<BodyId>,
    /// What this body returns as its error value, so far.
    returned: ReturnedErrors,
    /// The body's signature says it fails with text (see [`error_texts`]).
    fails_with_text: bool,
    /// The expressions in return position (leaves of the tail and of `return` values).
    tails: std::collections::HashSet<*const Expr>,
    /// Inside the expansion of crate macro calls: the innermost macro, and how deep.
    expanded_from: Option<ItemId>,
    expansion_depth: usize,
    /// Parameters typed as the SDK's per-request context (`ctx: Context` in turbomcp).
    request_contexts: Vec<String>,
    /// Inside a branch taken when a request field the generated schema leaves optional is
    /// absent (`let Some(x) = req.x else { here }`, `if req.x.is_none() { here }`).
    absent_optional: usize,
    /// Parameters bound to request fields the generated schema leaves optional
    /// (`Parameters(Req { content, .. })` with `content: Option<String>`), until a `let` rebinds
    /// the name.
    optional_params: Vec<String>,
    /// Inside the value of a `return`.
    returning: usize,
    /// Inside a block compiled where the tool's own code is not (`#[cfg(not(target_os =
    /// "linux"))] { .. }` beside the Linux code): its value is the tool's answer there, a
    /// fallback.
    cfg_off: usize,
    /// Locals holding a code picked per variant by a `match` (see [`values`]).
    code_locals: HashMap<String, Vec<ArmCode>>,
    /// The site being built takes one code of several the source cannot choose between.
    code_one_of: Vec<i64>,
    /// The calls (by address) whose error value this body does not pass on
    /// ([`crate::model::site::CallEdge::error_dropped`]).
    error_dropped: std::collections::HashSet<*const ()>,
    /// The calls (by address) whose value is an argument of a crate fn, and that fn
    /// ([`crate::model::site::CallEdge::error_passed_to`]).
    error_passed_to: HashMap<*const (), Callee>,
    /// The edge each call (by address) made.
    edge_of_call: HashMap<*const (), usize>,
    /// The parameters that carry the request (all but `self` and the SDK's request context).
    request_params: Vec<String>,
    /// In a body that continues a dispatch, the parameters that carry the tool name.
    tool_name_params: Vec<String>,
    /// What the walk knew at each value that may be an answer (see [`flow`]).
    answer_points: HashMap<*const Expr, AnswerPoint<'a>>,
    /// The content of each success result this body builds, with its arm and span.
    success_contents: Vec<(&'a Expr, Option<SiteContext>, Span)>,
    /// The contents of the isError results it builds (for the parameters it answers both ways).
    error_contents: Vec<&'a Expr>,
    /// Other files whose syntax the walk read ([`BodyFacts::reads`]).
    reads: std::cell::RefCell<Vec<FileId>>,
    /// Variants passed point-free (`.map_err(AppError::Db)`), noted as built at the call.
    point_free: std::collections::HashSet<*const syn::ExprPath>,
    /// Fn paths put into a registry of boxed fns (`reg.insert("x", boxed(tools::x))`): stored
    /// to run where the registry is looked up, not called here.
    registered_paths: std::collections::HashSet<*const syn::ExprPath>,
    /// `.into()` calls whose target type a `let` states (`let e: JsonRpcError = err.into()`) or
    /// the called crate fn's parameter declares (`JsonRpcResponse::err(id, e.into())`).
    into_types: HashMap<*const syn::ExprMethodCall, ItemId>,
}

impl<'a, 'm> Walker<'a, 'm> {
    pub fn new(
        dialect: &'m dyn Dialect,
        index: &'m Index<'a>,
        file: &'m SourceFile,
        body: &'m BodyInfo<'a>,
        calls: &'m CrateCalls<'m, 'a>,
        fault_markers: &'m [String],
        macros: &'a MacroArgs,
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
            macros,
            facts: BodyFacts::default(),
            frames: Vec::new(),
            arm: None,
            nested: 0,
            closures: Vec::new(),
            caught_chains: Vec::new(),
            comparison: 0,
            lets: HashMap::new(),
            let_candidates: HashMap::new(),
            candidate_depth: std::cell::Cell::new(0),
            own_receivers: std::collections::HashSet::new(),
            own_senders: std::collections::HashSet::new(),
            route_refusals: std::collections::HashSet::new(),
            task_handles: std::collections::HashSet::new(),
            flag_branches: 0,
            self_state_branches: 0,
            other_value_branches: 0,
            declared_error: None,
            err_arg: None,
            tool_values: 0,
            consumed: std::collections::HashSet::new(),
            in_tool_call_arm: false,
            known_names_arm: false,
            variant: None,
            result_arm: None,
            errors_of: None,
            returns_override: None,
            protocol_args: 0,
            code_calls: 0,
            callee_paths: std::collections::HashSet::new(),
            closure_args: HashMap::new(),
            returned: ReturnedErrors::default(),
            fails_with_text: false,
            tails: std::collections::HashSet::new(),
            expanded_from: None,
            expansion_depth: 0,
            request_contexts: Vec::new(),
            absent_optional: 0,
            cfg_off: 0,
            optional_params: Vec::new(),
            returning: 0,
            code_locals: HashMap::new(),
            code_one_of: Vec::new(),
            error_dropped: std::collections::HashSet::new(),
            error_passed_to: HashMap::new(),
            edge_of_call: HashMap::new(),
            into_types: HashMap::new(),
            point_free: std::collections::HashSet::new(),
            registered_paths: std::collections::HashSet::new(),
            request_params: Vec::new(),
            unknown_names_answered: false,
            route_state_branches: 0,
            reads_name_member: std::cell::OnceCell::new(),
            tool_name_params: Vec::new(),
            answer_points: HashMap::new(),
            success_contents: Vec::new(),
            error_contents: Vec::new(),
            reads: std::cell::RefCell::default(),
        }
    }

    pub fn walk(mut self) -> BodyFacts<'a> {
        self.locals.push_scope();
        if let Some(sig) = self.body.sig {
            // A fn declared inside another's body sees the fns of the blocks around it.
            for fns in self.calls.defs.block_scope(sig) {
                self.locals.bind_fns(fns.iter().copied());
            }
            for input in &sig.inputs {
                if let syn::FnArg::Typed(t) = input {
                    let (pat, declared) = through_newtype_wrapper(&t.pat, &t.ty);
                    // A generic known only by its crate trait bound (`t: &T`, `b: impl Tr`).
                    let bound = self.resolver.param_bound(sig, declared);
                    let ty = match bound {
                        Some(_) => None,
                        None => self.resolver.type_item(declared),
                    };
                    match (bound, pat_ident(pat)) {
                        (Some(tr), Some(name)) => self.locals.bind_bounded(name, tr),
                        // `scroll: Option<&ScrollArg>`, `http: &reqwest::Client`.
                        _ => bind_declared(&self.resolver, &mut self.locals, pat, declared, ty, 0),
                    }
                    if let (Pat::Struct(ps), Some(ty)) = (pat, ty) {
                        self.bind_optional_params(ps, ty);
                    }
                    // `Extension(parts): Extension<Parts>`: the wrapped value is the request's.
                    let wrapped =
                        !std::ptr::eq(declared, &*t.ty) && self.is_request_context_type(declared);
                    let name = if wrapped {
                        pat_ident(pat)
                    } else {
                        pat_ident(&t.pat)
                    };
                    match (name, wrapped || self.is_request_context_type(&t.ty)) {
                        (Some(name), true) => self.request_contexts.push(name),
                        (Some(name), false) => {
                            if self.body.continues_dispatch && name.contains("name") {
                                self.tool_name_params.push(name.clone());
                            }
                            self.request_params.push(name)
                        }
                        // `CallToolRequestParam { name, arguments }: CallToolRequestParam`.
                        (None, false) if matches!(&*t.pat, Pat::Struct(_)) => self
                            .request_params
                            .extend(crate::syntax::pat_idents(&t.pat)),
                        (None, _) => {}
                    }
                }
            }
        }
        if let (None, Some(enclosing)) = (self.body.sig, self.body.enclosing) {
            let at = match self.body.code {
                BodyCode::Block(b) => b.brace_token.span.open().byte_range().start,
                BodyCode::Expr(e) => syn::spanned::Spanned::span(e).byte_range().start,
            };
            crate::model::callgraph::bind_lets_before(
                &self.resolver,
                &mut self.locals,
                enclosing,
                at,
            );
        }
        self.declared_error = self.declared_error_type();
        self.fails_with_text = self.declared_error.is_none() && self.declares_text_error();
        self.returned.error_enum = self
            .declared_error
            .filter(|id| self.calls.defs.item(*id).kind == ItemKind::Enum);
        if let BodyCode::Block(b) = self.body.code {
            returns::block_tails(b, &mut self.tails, 0);
        }
        match self.body.code {
            BodyCode::Block(b) => self.visit_block(b),
            BodyCode::Expr(e) => {
                self.visit_expr(e);
                if self.body.in_sdk_library {
                    self.sdk_code_definition(e);
                }
            }
        }
        self.facts.returned = std::mem::take(&mut self.returned);
        self.facts.answers = self.answers();
        self.facts.reads = self.reads.into_inner();
        self.facts
    }

    /// Note that the walk read syntax of `file` (see [`BodyFacts::reads`]).
    fn read_from(&self, file: FileId) {
        if file != self.body.file {
            self.reads.borrow_mut().push(file);
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
        // A helper that sets the result's flag from its parameter builds, at each call, the
        // result with the flag given there ([`crate::model::site::ResultHelper`]).
        if matches!(channel, Channel::ToolSuccess | Channel::ToolError)
            && self.builds_flagged_result()
        {
            return;
        }
        let path = self.path_facts(built, &content.texts);
        let shows_error_of = match content.texts.as_slice() {
            [text] => self.shown_error(text),
            _ => None,
        };
        let related = self.expansion_note().into_iter().collect();
        let arm = self.arm.clone().or_else(|| self.unknown_tool_answer(built));
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
                code_one_of: self.code_one_of.clone(),
                result_arm: self.result_arm,
                errors_of: self.errors_of,
                answers_unknown_tool: false,
                related,
                answer_members: Vec::new(),
                shows_error_of,
            },
            arm,
        ));
    }

    /// Whether this body is a result helper whose `isError` flag is a parameter.
    fn builds_flagged_result(&self) -> bool {
        let Some(sig) = self.body.sig else {
            return false;
        };
        self.calls
            .result_helper(sig as *const syn::Signature)
            .is_some_and(|h| matches!(h.flag, crate::model::site::ResultFlag::Param(_)))
    }

    /// Past a dispatch's picks, in a helper it handed the tool name to (`Unsupported analysis
    /// tool: {tool_name}` after every sub-router declined it): an answer that names the tool
    /// name is the unknown-tool answer.
    fn unknown_tool_answer(&self, built: &dyn quote::ToTokens) -> Option<SiteContext> {
        if self.tool_name_params.is_empty() {
            return None;
        }
        let tokens = built.to_token_stream().to_string();
        self.tool_name_params
            .iter()
            .find(|p| crate::syntax::mentions_ident(&tokens, p))
            .map(|p| SiteContext::UnknownToolArm { binding: p.clone() })
    }

    /// An `Err` value the `Err` arm `answer` answers (see [`Origin::AnsweredLater`]).
    fn answered_later(&mut self, err: &Expr, context: SiteContext, answer: &Expr) {
        let origin = Origin::AnsweredLater {
            answered_at: self.file.span_of(answer),
        };
        self.answered_elsewhere(err, origin, context);
    }

    /// The body of the crate fn a call (awaited or not) runs, when the source says which.
    pub(super) fn called_body(&self, value: &Expr) -> Option<BodyId> {
        let call = crate::syntax::strip_await(value);
        if !matches!(call, Expr::Call(_) | Expr::MethodCall(_)) {
            return None;
        }
        match self.resolver.call_target(call, &self.locals)? {
            crate::model::callgraph::Target::Fn(f) => self.calls.body(f),
            _ => None,
        }
    }

    /// A value whose answer is built elsewhere, in `context`: the model gives it that answer's
    /// channel and code once every site is known, or drops it.
    fn answered_elsewhere(&mut self, value: &Expr, origin: Origin, context: SiteContext) {
        self.answered_elsewhere_at(self.file.span_of(value), origin, context);
    }

    fn answered_elsewhere_at(&mut self, span: Span, origin: Origin, context: SiteContext) {
        let site = ErrorSite {
            file: self.body.file,
            span,
            channel: Channel::ToolError,
            code: None,
            text_param: None,
            texts: Vec::new(),
            message_source: None,
            empty_content: false,
            origin,
            context: SiteContext::Unreached,
            path: PathFacts::default(),
            body: self.body.id,
            variant: None,
            code_one_of: Vec::new(),
            result_arm: None,
            errors_of: None,
            answers_unknown_tool: false,
            related: Vec::new(),
            answer_members: Vec::new(),
            shows_error_of: None,
        };
        self.facts.sites.push((site, Some(context)));
    }

    /// A value of variant `variant` of crate enum `enum_id` is built at `built` (see
    /// [`VariantBuild`]). Not inside a macro's expansion: there the span is the call's.
    pub(super) fn variant_built(
        &mut self,
        built: &impl syn::spanned::Spanned,
        enum_id: ItemId,
        variant: String,
    ) {
        let via = match self.body.sig {
            Some(sig) if sig.ident == "from" && sig.inputs.len() == 1 => BuildVia::FromFn,
            _ => BuildVia::Named,
        };
        self.variant_built_via(built, enum_id, variant, via);
    }

    /// `fs::read_to_string(path)?` converting into variant `variant` of `enum_id`: built at
    /// the `?`, with the operand as the failure's cause.
    pub(super) fn variant_converted(
        &mut self,
        operand: &'a Expr,
        enum_id: ItemId,
        variant: String,
    ) {
        self.with_frame(Frame::failing(operand), |w| {
            w.variant_built_via(operand, enum_id, variant, BuildVia::Question)
        });
    }

    fn variant_built_via(
        &mut self,
        built: &impl syn::spanned::Spanned,
        enum_id: ItemId,
        variant: String,
        via: BuildVia,
    ) {
        if self.expanded_from.is_some() {
            return;
        }
        let path = self.path_facts(&proc_macro2::TokenStream::new(), &[]);
        self.returned.builds.push(VariantBuild {
            enum_id,
            variant,
            file: self.body.file,
            span: self.file.span_of(built),
            body: self.body.id,
            arm: self.arm.clone(),
            server_fault: path.server_fault,
            schema_level: path.schema_level,
            request_failure: path.request_failure,
            lookup_miss: path
                .lookup_miss
                .then(|| path.lookup_names.clone())
                .flatten(),
            via,
        });
    }

    /// `Err(e) => Err(e.to_mcp_error())` in a `match` over `self.fetch(..)`: the mapping (the
    /// call made as edge `edge`, if any) gets the errors `fetch` can return, so only their arms
    /// count.
    fn err_binding_errors(&mut self, receiver: &Expr, edge: usize) {
        if self.facts.calls.len() <= edge {
            return;
        }
        if let Some(b) = self.err_binding_errors_of(receiver) {
            let edge = &mut self.facts.calls[edge];
            if edge.variant.is_none() && edge.errors_of.is_none() {
                edge.errors_of = Some(b);
            }
        }
    }

    /// The crate's `fn from` converting `value`'s crate type into `ty` (`impl From<ServerError>
    /// for JsonRpcError`), when both are known and there is one.
    fn conversion_for_into(&self, value: &Expr, target: ItemId) -> Option<crate::types::FnKey> {
        let source = self.resolver.type_of(value, &self.locals)?;
        self.calls
            .only_from_fn_into(self.calls.from_fns_of(source), target)
    }

    /// `JsonRpcResponse::err(id, e.into())`: an argument converted by `.into()` to the crate
    /// type the called crate fn's parameter declares, resolved where the fn is.
    fn note_into_args(
        &mut self,
        f: crate::types::FnKey,
        path_call: bool,
        args: impl Iterator<Item = &'a Expr>,
    ) {
        let (Some(scope), Some((_, _, sig))) =
            (self.calls.types.scope_of(f), self.calls.blocks.get(&f))
        else {
            return;
        };
        let params = sig.inputs.iter().filter_map(|input| match input {
            syn::FnArg::Typed(t) => Some(&*t.ty),
            syn::FnArg::Receiver(_) => None,
        });
        // A method call's receiver is no argument; `Type::method(recv, ..)` passes it first.
        let skip =
            usize::from(path_call && matches!(sig.inputs.first(), Some(syn::FnArg::Receiver(_))));
        let self_ty = self.calls.types.self_type(scope);
        for (arg, ty) in args.skip(skip).zip(params) {
            if let Expr::MethodCall(mc) = crate::syntax::strip_parens(arg) {
                if mc.method == "into" && mc.args.is_empty() {
                    if let Some(target) =
                        crate::types::resolve_type_item(self.calls.defs, scope.module, ty, self_ty)
                    {
                        self.into_types.insert(mc, target);
                    }
                }
            }
        }
    }

    fn with_frame<F: FnOnce(&mut Self)>(&mut self, frame: Frame<'a>, f: F) {
        self.frames.push(frame);
        f(self);
        self.frames.pop();
    }

    /// An error code written in a code position of this body.
    fn code_site(&mut self, span: Span, value: i64, written: String, named: bool) {
        // In an error made into an isError result (`CallToolError::new(RpcError { code, .. })`)
        // the code never reaches the wire.
        if self.returns().wraps_protocol_errors {
            return;
        }
        self.code_site_in((self.body.file, self.body.id), span, value, written, named);
    }

    /// An error code written in a code position of `body` (this one, or a fn whose returned
    /// code this body uses).
    fn code_site_in(
        &mut self,
        (file, body): (FileId, BodyId),
        span: Span,
        value: i64,
        written: String,
        named: bool,
    ) {
        self.facts.codes.push(CodeSite {
            file,
            body,
            span,
            value,
            written,
            named,
            definition: None,
            related: Vec::new(),
        });
    }

    /// A const or static initialiser.
    fn is_const_body(&self) -> bool {
        self.body.kind.is_none() && matches!(self.body.code, BodyCode::Expr(_))
    }

    /// The text parameter an opaque message comes from: the one text-typed parameter the built
    /// expression mentions.
    fn text_param_of(&self, built: &dyn quote::ToTokens, texts: &[MessageText]) -> Option<usize> {
        if texts.is_empty() || !texts.iter().all(MessageText::is_opaque) {
            return None;
        }
        let tokens = built.to_token_stream_string();
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

    /// `CallToolError::from_message(..)`: a call of a constructor of the SDK's tool error type.
    pub(super) fn tool_error_constructor<'e>(&self, expr: &'e Expr) -> Option<&'e syn::ExprCall> {
        let Expr::Call(c) = expr else {
            return None;
        };
        let Expr::Path(p) = &*c.func else {
            return None;
        };
        let segs = &p.path.segments;
        let ty = segs.iter().rev().nth(1)?.ident.to_string();
        self.dialect.is_tool_error_type_name(&ty).then_some(c)
    }

    /// `x.into()` / `T::from(x)` of a value the SDK builds (`CallToolError::unknown_tool(..)`):
    /// the SDK's conversion, not one of the crate's `From` impls.
    fn converts_sdk_value(&self, value: &Expr) -> bool {
        matches!(crate::syntax::strip_await(converted_value(value)), Expr::Call(c)
            if self.dialect.construction_of_call(c, self.index, &self.returns()).is_some())
    }

    /// The error channel constructions take here.
    fn returns(&self) -> ReturnFacts {
        self.returns_override.unwrap_or(self.body.returns)
    }

    /// `walk` with the bindings of an `if`'s condition in scope (`if let Some(t) = &self.t`, also
    /// in a let chain).
    fn with_if_bindings(&mut self, cond: &'a Expr, walk: impl FnOnce(&mut Self)) {
        self.locals.push_scope();
        let requests = self.request_contexts.len();
        for l in chained_lets(cond) {
            bind_scrutinee(&self.resolver, &mut self.locals, &l.pat, &l.expr);
            self.bind_request_pattern(&l.pat, &l.expr);
        }
        walk(self);
        self.request_contexts.truncate(requests);
        self.locals.pop_scope();
    }
}

impl<'a> Visit<'a> for Walker<'a, '_> {
    fn visit_expr_call(&mut self, call: &'a syn::ExprCall) {
        if let Some(closure) = self.dialect.handler_closure(call) {
            self.facts.closures.push(RegisteredClosure {
                closure,
                name: registered_name(call.args.iter()),
                kind: HandlerKind::Tool,
                returns: self.dialect.closure_returns(None, false),
            });
            for arg in &call.args {
                if !std::ptr::eq(arg, closure) {
                    self.visit_expr(arg);
                }
            }
            return;
        }
        if self.dialect.wraps_error_as_result(call) {
            // A protocol error built in the argument is only the isError result's text.
            let outer = self.returns_override.replace(ReturnFacts {
                err: ErrChannel::ToolError,
                wraps_protocol_errors: true,
                ..self.body.returns
            });
            visit::visit_expr_call(self, call);
            self.returns_override = outer;
            return;
        }
        if let (Expr::Path(p), true) = (&*call.func, call.args.iter().any(is_into_call)) {
            if let Target::Fn(f) = self.resolver.path_target(p, &self.locals) {
                self.note_into_args(f, true, call.args.iter());
            }
        }
        if let Expr::Path(p) = &*call.func {
            let segs = path_segments(&p.path);
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
                    // `Err(e.into())`, `Err(McpError::from(e))`: the crate's `From` impls convert;
                    // an SDK value (`CallToolError::unknown_tool(..).into()`) the SDK's own.
                    if self.body.returns.err == ErrChannel::Protocol
                        && is_from_conversion(value)
                        && !self.converts_sdk_value(value)
                    {
                        let span = self.file.span_of(call);
                        let source = self.error_value_source(value);
                        // `Err(e.into())` of another crate's error where the SDK's own `From`
                        // converts it (jsoncall's blanket impl): made right here, as by `?`.
                        let by_sdk = matches!(value, Expr::MethodCall(_))
                            && match &source {
                                ErrorSource::Local(..) => self.sdk_converts_crate_error(&source),
                                _ => self.dialect.converts_crate_errors(),
                            };
                        if let (true, TryMeaning::Protocol(code)) =
                            (by_sdk, self.dialect.try_meaning(&self.body.returns, false))
                        {
                            self.sdk_conversion_site(call, span, None, code, Origin::QuestionMark);
                        } else {
                            let edge = self.facts.calls.len();
                            self.push_edge(Callee::FromImpls(source), span, None, &[]);
                            self.err_binding_errors(converted_value(value), edge);
                        }
                    }
                }
                // `fn err(e: VaultError) -> McpError { McpError::from(e) }`: a helper whose value
                // is the protocol error converts through the crate's `From` impls.
                "from"
                    if call.args.len() == 1
                        && self.nested == 0
                        && self.returns_protocol_error_value()
                        && self.converts_into_protocol_error(p) =>
                {
                    let span = self.file.span_of(call);
                    let source = self.error_value_source(&call.args[0]);
                    let edge = self.facts.calls.len();
                    self.push_edge(Callee::FromImpls(source), span, None, &[]);
                    self.err_binding_errors(&call.args[0], edge);
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
            let target = match self.resolver.path_target(p, &self.locals) {
                Target::NotCrateFn | Target::Unknown => {
                    self.registry_entry(&call.func).unwrap_or(Target::Unknown)
                }
                other => other,
            };
            if let Target::Variant(e, v) = &target {
                self.variant_built(call, *e, v.clone());
            }
            // `tool_error_result(&helper(..))`: what `helper` returns is the other crate fn's
            // input.
            if let Some(outer) = self.callee(target.clone()) {
                for arg in &call.args {
                    if let Some(address) = failure::call_address(arg) {
                        self.error_passed_to.insert(address, outer.clone());
                    }
                }
            }
            // The argument that picks the callee's arm: the first that builds a variant.
            let variant_arg = call
                .args
                .iter()
                .find(|a| self.resolver.variant_of(a, &self.locals).is_some());
            let stored = self.slot_closures(&target, call.args.iter());
            let edges = self.facts.calls.len();
            self.note_closure_args(&target, &call.args, edges, true);
            self.call_edge(target, call, variant_arg, 0, &call.args);
            if matches!(&*call.func, Expr::Path(_)) {
                self.request_only_call(edges, call.args.iter());
            }
            self.fns_passed_by_path(&call.args);
            if !stored.is_empty() {
                // Each stored closure is a body of its own, run where the field is called.
                for (i, arg) in call.args.iter().enumerate() {
                    match stored.iter().find(|(at, _)| *at == i) {
                        Some((_, slot)) => self.facts.slot_closures.push((arg, slot.clone())),
                        None => self.visit_expr(arg),
                    }
                }
                return;
            }
            if code_call {
                self.code_calls += 1;
                visit::visit_expr_call(self, call);
                self.code_calls -= 1;
                return;
            }
        }
        if let Some(target) = self.slot_target(&call.func) {
            self.call_edge(target, call, None, 0, &call.args);
        }
        visit::visit_expr_call(self, call);
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        if self.nested == 0 {
            if let Expr::Return(syn::ExprReturn {
                expr: Some(value), ..
            }) = expr
            {
                returns::tails(value, &mut self.tails, 0);
            }
            if self.tails.contains(&(expr as *const Expr)) {
                self.returned_value(expr);
            }
        }
        self.note_answer_point(expr);
        let (tool_value, protocol_value) = self.constructions_at(expr);
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
        let lookup = self.is_map_lookup(self.lookup_source(&m.expr));
        let scrutinee = self.resolver.type_of(&m.expr, &self.locals);
        let mut err_answers = Vec::new();
        // `match response { Err(e) => .. }`: what `response` was bound to says `e`'s type.
        let value = self.let_init(&m.expr).unwrap_or(&m.expr);
        let after_dispatch = self.answers_after_dispatch(m, value);
        // One `Err(e)` arm, unguarded, takes every error value: with several or a pattern
        // inside, which arm the unknown tool's value reaches is not read here.
        let mut err_arms = m
            .arms
            .iter()
            .filter(|a| variant_binding(&a.pat, "Err").is_some());
        let one_err_arm = match (err_arms.next(), err_arms.next()) {
            (Some(a), None) => a.guard.is_none() && takes_any_error(&a.pat),
            _ => false,
        };
        let unknown_err = if std::ptr::eq(value, &*m.expr) || !one_err_arm {
            None
        } else {
            self.unknown_tool_err_value(value)
        };
        // `match style { "blue" => .., _ => return error(..) }` on a value the tool was given: the
        // catch-all arm is taken on a value none of the others names, as an `if` on it would be.
        let literal_arms = m.arms.iter().any(|a| is_literal_pat(&a.pat))
            && m.arms
                .iter()
                .all(|a| is_literal_pat(&a.pat) || matches!(a.pat, Pat::Wild(_)));
        let on_other_value = literal_arms && !failure::reads_only_self(&m.expr);
        for arm in &m.arms {
            self.locals.push_scope();
            bind_scrutinee(&self.resolver, &mut self.locals, &arm.pat, value);
            let unmatched = on_other_value && matches!(arm.pat, Pat::Wild(_));
            self.other_value_branches += usize::from(unmatched);
            let tag = scrutinee.and_then(|e| self.variant_tag(e, &arm.pat, &m.arms));
            let inner = tag.or_else(|| self.variant.clone());
            let outer_tag = std::mem::replace(&mut self.variant, inner);
            let result_arm = self.result_arm_of(&m.expr, &arm.pat).or(self.result_arm);
            let outer_result_arm = std::mem::replace(&mut self.result_arm, result_arm);
            let sites_before = self.facts.sites.len();
            let err_binding = variant_binding(&arm.pat, "Err");
            // `"uploaded" if args.certificate.is_none() => return Err(..)`: a guard testing an
            // optional field's absence, as the `if` form.
            let absent = arm
                .guard
                .as_ref()
                .is_some_and(|(_, g)| self.tests_optional_field_absent(g))
                || self.matches_optional_fields_absent(&m.expr, &arm.pat);
            self.absent_optional += usize::from(absent);
            // `Some(p) => ..` over `req.params`: in the arm, `p` holds what the scrutinee does
            // (as a `let Some(p) = req.params else` would), so a name read from it is the request's.
            let some_binding = variant_binding(&arm.pat, "Some")
                .flatten()
                .map(|b| (b.clone(), self.lets.insert(b, &m.expr)));
            match (after_dispatch, &err_binding) {
                (Some(errors_of), Some(_)) => {
                    let outer = std::mem::replace(&mut self.errors_of, errors_of);
                    self.in_tool_call_answer(|w| w.match_arm(m, arm, lookup));
                    self.errors_of = outer;
                }
                _ => self.match_arm(m, arm, lookup),
            }
            self.absent_optional -= usize::from(absent);
            if let Some((b, outer)) = some_binding {
                match outer {
                    Some(o) => self.lets.insert(b, o),
                    None => self.lets.remove(&b),
                };
            }
            if err_binding.is_some() {
                if let Some((err, context)) = &unknown_err {
                    self.answered_later(err, context.clone(), &arm.body);
                }
                // Where what a crate fn returned is answered: its unknown-tool `Err` too (in
                // the one `Err(e)` arm, or in the arm naming its variant, `Err(E::Unknown(n))`).
                let named = match &arm.pat {
                    Pat::TupleStruct(t) => t
                        .elems
                        .first()
                        .and_then(crate::syntax::pat_path)
                        .and_then(crate::syntax::last_segment),
                    _ => None,
                };
                let answers_returned = one_err_arm || named.is_some();
                if let Some(callee) = answers_returned.then(|| self.called_body(value)).flatten() {
                    let marker = Origin::ErrArmOf {
                        callee,
                        variant: named.filter(|_| !one_err_arm),
                    };
                    self.answered_elsewhere(&arm.body, marker, SiteContext::Unreached);
                }
            }
            if let Some(binding) = err_binding {
                let answer = self.err_answer(
                    failure::Branch::Expr(&arm.body),
                    binding.as_deref(),
                    sites_before,
                );
                err_answers.push(answer);
            }
            self.other_value_branches -= usize::from(unmatched);
            self.variant = outer_tag;
            self.result_arm = outer_result_arm;
            self.locals.pop_scope();
        }
        // `let data = self.dispatch(..).await; match data { .. }`: the call the local holds.
        self.settle_error_of(value, &err_answers);
    }

    fn visit_expr_if(&mut self, i: &'a syn::ExprIf) {
        // `if request.method == "tools/call" { .. }` in a router: the block answers tool calls.
        if self.arm.is_none() && self.dialect.is_tool_call_test(&i.cond) {
            self.visit_expr(&i.cond);
            self.in_tool_call_answer(|w| w.visit_block(&i.then_branch));
            if let Some((_, e)) = &i.else_branch {
                self.visit_expr(e);
            }
            return;
        }
        // `if cond && let Ok(x) = helper(..) { .. }`: the error is not bound.
        for l in chained_lets(&i.cond) {
            if variant_binding(&l.pat, "Ok").is_some() {
                self.drop_error_of(&l.expr);
            }
        }
        // The bindings are in scope in the `then` branch (and, harmlessly, in the `else`).
        self.with_if_bindings(&i.cond, |w| w.expr_if(i));
    }

    fn visit_expr_while(&mut self, w: &'a syn::ExprWhile) {
        self.locals.push_scope();
        for l in chained_lets(&w.cond) {
            bind_scrutinee(&self.resolver, &mut self.locals, &l.pat, &l.expr);
        }
        visit::visit_expr_while(self, w);
        self.locals.pop_scope();
    }

    fn visit_local(&mut self, local: &'a syn::Local) {
        // `let error: JsonRpcError = e.into();`: the annotation names the conversion.
        if let (Pat::Type(pt), Some(init)) = (&local.pat, &local.init) {
            if let Expr::MethodCall(mc) = crate::syntax::strip_parens(&init.expr) {
                if mc.method == "into" && mc.args.is_empty() {
                    if let Some(target) = self.resolver.type_item(&pt.ty) {
                        self.into_types.insert(mc, target);
                    }
                }
            }
        }
        self.local_value(local);
        self.code_local(local);
        // From here on the name is another value (`let Some(id) = id else` read the field).
        if !self.optional_params.is_empty() {
            let rebound = crate::syntax::pat_idents(&local.pat);
            self.optional_params.retain(|n| !rebound.contains(n));
        }
        self.bind_request_context(local);
        // Bound after the initialiser: `let x = x.parse()` reads the outer `x`.
        match &local.init {
            Some(init) => bind_scrutinee(&self.resolver, &mut self.locals, &local.pat, &init.expr),
            None => bind_pattern(&self.resolver, &mut self.locals, &local.pat, None, 0),
        }
    }

    fn visit_block(&mut self, b: &'a syn::Block) {
        self.locals.push_scope();
        self.locals
            .bind_fns(crate::syntax::block_fns(b).map(|(_, f)| f));
        self.stmts(&b.stmts);
        self.locals.pop_scope();
    }

    fn visit_expr_for_loop(&mut self, f: &'a syn::ExprForLoop) {
        self.visit_expr(&f.expr);
        // `for probe in probes` over the body's spawned handles: each is a handle too.
        let over = crate::syntax::through_methods(&f.expr, &["into_iter", "drain", "iter_mut"]);
        if let (Expr::Path(p), Pat::Ident(pi)) = (crate::syntax::strip_refs(over), &*f.pat) {
            if p.path
                .get_ident()
                .is_some_and(|v| self.task_handles.contains(&v.to_string()))
            {
                self.task_handles.insert(pi.ident.to_string());
            }
        }
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
        if let Some(registered) = self.registry_insert(mc) {
            self.registered_paths.insert(registered);
        }
        if mc.args.iter().any(is_into_call) {
            if let Target::Fn(f) =
                self.resolver
                    .method_target(&mc.receiver, &mc.method.to_string(), &self.locals)
            {
                self.note_into_args(f, false, mc.args.iter());
            }
        }
        // `io.add_method("tools/call", |params| ..)`: the handler answers tool calls.
        if let Some(route) = self
            .dialect
            .tool_call_route(mc)
            .filter(|_| self.arm.is_none())
        {
            self.visit_expr(&mc.receiver);
            self.in_tool_call_answer(|w| w.visit_expr(route));
            return;
        }
        let caught = self.caught_chains.iter().any(|c| std::ptr::eq(*c, mc));
        if caught || self.dialect.chain_catches_errors(&mc.method.to_string()) {
            if let Expr::MethodCall(below) = &*mc.receiver {
                self.caught_chains.push(below);
            }
        }
        if let Some((closure, kind)) = self.dialect.handler_closure_of_method(mc) {
            let registration = mc.method.to_string();
            self.facts.closures.push(RegisteredClosure {
                closure,
                name: registered_name(mc.args.iter()).or_else(|| chain_root_name(mc)),
                kind,
                returns: match kind {
                    HandlerKind::Tool => self.dialect.closure_returns(Some(&registration), caught),
                    // A resource's or a prompt's `Err` is a JSON-RPC error.
                    _ => ReturnFacts {
                        err: ErrChannel::Protocol,
                        ..ReturnFacts::UNKNOWN
                    },
                },
            });
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
        // `.map_err(AppError::Db)`, `.ok_or(AppError::Config)`: the variant is built on the
        // receiver's failure.
        if let ("map_err" | "ok_or" | "ok_or_else", [Expr::Path(p)]) =
            (method.as_str(), &mc.args.iter().collect::<Vec<_>>()[..])
        {
            if let Target::Variant(e, v) = self.resolver.path_target(p, &self.locals) {
                self.point_free.insert(p);
                self.with_frame(Frame::failing(&mc.receiver), |w| w.variant_built(p, e, v));
            }
        }
        if method == "map_err" {
            self.note_result_call(&mc.receiver);
            // The callee's error is answered here, as the SDK's tool error: whatever protocol
            // error it holds does not go on as one.
            // Replaced by a value of its own (`|e| CoreError::Other(e.to_string())`): its code
            // does not go on either.
            if self.maps_to_tool_error(mc) || calls::replaces_error(mc) {
                self.drop_error_of(&mc.receiver);
            }
        }
        // `probes.push(tokio::spawn(..))`: a vec of the body's task handles.
        if method == "push" && mc.args.len() == 1 && self.starts_own_task(&mc.args[0]) {
            if let Expr::Path(p) = &*mc.receiver {
                if let Some(v) = p.path.get_ident() {
                    self.task_handles.insert(v.to_string());
                }
            }
        }
        if self.failure_method(mc, &method) {
            return;
        }
        if failure::DROPPING_METHODS.contains(&method.as_str()) {
            self.drop_error_of(&mc.receiver);
        }
        if let Some(target) = self.into_types.get(&(mc as *const _)).copied() {
            // The crate's `From<receiver's type> for T`: a call of it with the receiver.
            if let Some(f) = self.conversion_for_into(&mc.receiver, target) {
                let variant_arg = Some(&*mc.receiver)
                    .filter(|r| self.resolver.variant_of(r, &self.locals).is_some());
                self.call_edge(
                    Target::Fn(f),
                    mc,
                    variant_arg,
                    0,
                    std::iter::once(&*mc.receiver),
                );
                self.err_binding_errors(&mc.receiver, self.facts.calls.len() - 1);
                return visit::visit_expr_method_call(self, mc);
            }
        }
        let target = self
            .resolver
            .method_target(&mc.receiver, &method, &self.locals);
        let edges = self.facts.calls.len();
        self.note_closure_args(&target, &mc.args, edges, false);
        self.call_edge(target, mc, Some(&*mc.receiver), 1, &mc.args);
        if calls::is_self_rooted(&mc.receiver) {
            self.request_only_call(edges, mc.args.iter());
        }
        self.err_binding_errors(&mc.receiver, edges);
        self.fns_passed_by_path(&mc.args);
        visit::visit_expr_method_call(self, mc);
    }

    fn visit_expr_try(&mut self, t: &'a syn::ExprTry) {
        if self.unknown_tool_conversion(t) {
            return visit::visit_expr_try(self, t);
        }
        self.try_operand(t);
        if self.nested == 0 {
            self.returned_operand(&t.expr);
            if self.fails_with_text {
                self.text_operand(&t.expr);
                // `cache.get_or_init(..).await?` in a fn failing with `anyhow::Error`: a protocol
                // error the callee returns becomes a report, which whoever answers it wraps anew.
                self.drop_error_of(&t.expr);
            }
            // `let result = match name { "a" => .., _ => Err(NotFound(..)) }?;`: the `Err`
            // values the operand evaluates to are returned by the `?`, as a tail's would be.
            let tails = &mut self.tails;
            returns::leaves(&t.expr, &mut |leaf| {
                if crate::syntax::err_payload(leaf).is_some() {
                    tails.insert(leaf);
                }
            });
        }
        visit::visit_expr_try(self, t);
    }

    fn visit_expr_assign(&mut self, a: &'a syn::ExprAssign) {
        self.is_error_assignment(a);
        visit::visit_expr_assign(self, a);
    }

    fn visit_expr_binary(&mut self, b: &'a syn::ExprBinary) {
        let comparison = matches!(b.op, syn::BinOp::Eq(_) | syn::BinOp::Ne(_));
        self.comparison += usize::from(comparison);
        visit::visit_expr_binary(self, b);
        self.comparison -= usize::from(comparison);
    }

    fn visit_expr_block(&mut self, b: &'a syn::ExprBlock) {
        let off = crate::syntax::is_cfg_not(&b.attrs);
        self.cfg_off += usize::from(off);
        visit::visit_expr_block(self, b);
        self.cfg_off -= usize::from(off);
    }

    fn visit_expr_return(&mut self, r: &'a syn::ExprReturn) {
        // A closure's `return` is not this body's; `nested` already tells them apart.
        self.returning += 1;
        visit::visit_expr_return(self, r);
        self.returning -= 1;
    }

    fn visit_expr_closure(&mut self, c: &'a syn::ExprClosure) {
        self.nested += 1;
        self.locals.push_scope();
        let inputs = self.closure_inputs(c);
        for (i, input) in c.inputs.iter().enumerate() {
            // An untyped parameter has the type the callee's Fn bound gives it.
            let declared = inputs.get(i).copied().flatten();
            bind_pattern(&self.resolver, &mut self.locals, input, declared, 0);
        }
        self.closure_called(c);
        self.closures
            .push(crate::syntax::output_error_name(&c.output));
        visit::visit_expr_closure(self, c);
        self.closures.pop();
        self.locals.pop_scope();
        self.nested -= 1;
    }

    fn visit_expr_async(&mut self, a: &'a syn::ExprAsync) {
        self.nested += 1;
        visit::visit_expr_async(self, a);
        self.nested -= 1;
    }

    fn visit_macro(&mut self, mac: &'a syn::Macro) {
        if !self.macro_construction(mac) && self.expand_macro(mac) {
            return;
        }
        let name = last_segment(&mac.path).unwrap_or_default();
        if name == "ensure" && self.nested == 0 {
            self.unknown_name_ensured(mac);
        }
        if self.fails_with_text && self.nested == 0 {
            self.text_macro(mac);
        }
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
        // `format!("{}", f()?)`, `vec![Content::text(..)]`, a `tokio::select!` arm's `Err(..)`.
        for arg in self.macros.get(mac) {
            self.visit_expr(arg);
        }
    }

    fn visit_item(&mut self, _item: &'a syn::Item) {
        // Nested items are not part of this body.
    }
}

/// The tool name a registration call names first among its arguments, as a string literal.
fn registered_name<'e>(mut args: impl Iterator<Item = &'e Expr>) -> Option<String> {
    args.find_map(str_literal)
}

/// The name a builder chain's root call gives as a string literal (`ToolBuilder::new("fetch")`
/// under `.mrtr_handler(..)`).
fn chain_root_name(mc: &syn::ExprMethodCall) -> Option<String> {
    let mut receiver = &*mc.receiver;
    while let Expr::MethodCall(below) = receiver {
        receiver = &below.receiver;
    }
    match receiver {
        Expr::Call(root) => registered_name(root.args.iter()),
        _ => None,
    }
}

impl<'a> Walker<'a, '_> {
    /// `if cond { then } else { .. }` visited in order, the `then` block by `then`.
    fn visit_if_with(&mut self, i: &'a syn::ExprIf, then: impl FnOnce(&mut Self, &'a syn::Block)) {
        self.visit_expr(&i.cond);
        then(self, &i.then_branch);
        if let Some((_, e)) = &i.else_branch {
            self.visit_expr(e);
        }
    }

    /// An `if` whose `let` bindings are in scope: a dispatch, a test of an optional field's
    /// absence, an `if let`, or a plain `if`.
    fn expr_if(&mut self, i: &'a syn::ExprIf) {
        if self.dispatch_if(i) {
            return;
        }
        let Expr::Let(l) = &*i.cond else {
            if self.tests_optional_field_absent(&i.cond) {
                return self.visit_if_with(i, |w, then| {
                    w.absent_optional += 1;
                    w.visit_block(then);
                    w.absent_optional -= 1;
                });
            }
            if self.guards_on_request_context(i) || self.branches_on_outcome(i) {
                return;
            }
            // `if sessions.get(&id).is_none() { .. }`, `if !cells.contains_key(&c) { .. }`:
            // the `then` block is the lookup's miss.
            if let Some(lookup) = self.missed_lookup(&i.cond) {
                let frame = Frame {
                    kind: failure::FrameKind::LookupMiss,
                    binding: None,
                    cause: Some(lookup),
                    definite: false,
                    joined: false,
                };
                return self.visit_if_with(i, |w, then| {
                    w.other_value_branches += 1;
                    w.with_frame(frame, |w| w.visit_block(then));
                    w.other_value_branches -= 1;
                });
            }
            // `if self.config.token.is_none() { return Err(..) }`: the server was set up
            // without it, its own fault.
            if let Expr::MethodCall(m) = crate::syntax::strip_parens(&i.cond) {
                if m.method == "is_none"
                    && m.args.is_empty()
                    && self.misses_frozen_option(&m.receiver)
                {
                    let frame = Frame::failing(&m.receiver);
                    return self.visit_if_with(i, |w, then| {
                        w.in_own_state_branch(true, |w| {
                            w.with_frame(frame, |w| w.visit_block(then))
                        })
                    });
                }
            }
            if self.tests_server_state_before_tool_pick(&i.cond) {
                return self.visit_if_with(i, |w, then| {
                    w.route_state_branches += 1;
                    w.visit_block(then);
                    w.route_state_branches -= 1;
                });
            }
            if failure::reads_only_self(&i.cond) {
                return self.visit_if_with(i, |w, then| {
                    w.in_own_state_branch(true, |w| w.visit_block(then))
                });
            }
            let flag = self.tests_param_flag(&i.cond);
            self.flag_branches += usize::from(flag);
            self.other_value_branches += 1;
            match self
                .flag_variant_tags(&i.cond)
                .filter(|_| self.variant.is_none())
            {
                // Each branch is reached by the variants its flag value comes from.
                Some((then_tag, else_tag)) => {
                    self.visit_expr(&i.cond);
                    self.variant = Some(then_tag);
                    self.visit_block(&i.then_branch);
                    self.variant = Some(else_tag);
                    if let Some((_, e)) = &i.else_branch {
                        self.visit_expr(e);
                    }
                    self.variant = None;
                }
                None => visit::visit_expr_if(self, i),
            }
            self.other_value_branches -= 1;
            self.flag_branches -= usize::from(flag);
            return;
        };
        self.if_let(i, l);
    }

    /// `req.order.as_deref().map(parse_sort_order).transpose()?`,
    /// `tokio::task::spawn_blocking(read_clipboard)`: a crate fn passed by path is called by the
    /// combinator or the callee, from here.
    fn fns_passed_by_path(&mut self, args: &'a syn::punctuated::Punctuated<Expr, syn::Token![,]>) {
        for arg in args {
            if let Expr::Path(p) = arg {
                if self.registered_paths.contains(&(p as *const _)) {
                    continue;
                }
                let target = self.resolver.path_target(p, &self.locals);
                if let Some(callee) = self.callee(target) {
                    let span = self.file.span_of(arg);
                    self.push_edge(callee, span, None, &[]);
                }
            }
        }
    }

    /// A block's statements; those after a guard that returns `Ok` on what the client declared
    /// are walked as that check's failure ([`Walker::declaration_guard`]).
    fn stmts(&mut self, stmts: &'a [syn::Stmt]) {
        for (k, s) in stmts.iter().enumerate() {
            // `let err = CallToolError::from_message(..); return Ok(CallToolResult::from(err));`:
            // the error is built for the isError result it is made into.
            // Only a tool error's constructor is looked after (the rest of the block is read
            // once per such `let`, not per statement).
            let wrapped = match s {
                syn::Stmt::Local(l) => {
                    l.init
                        .as_ref()
                        .is_some_and(|init| self.tool_error_constructor(&init.expr).is_some())
                        && pat_ident(&l.pat)
                            .is_some_and(|name| wrapped_later(self.dialect, &name, &stmts[k + 1..]))
                }
                _ => false,
            };
            if wrapped {
                let outer = self.returns_override.replace(ReturnFacts {
                    err: ErrChannel::ToolError,
                    ..self.returns()
                });
                self.visit_stmt(s);
                self.returns_override = outer;
            } else {
                self.visit_stmt(s);
            }
            if let Some(cond) = self.declaration_guard(s) {
                let frame = Frame::failing(cond);
                self.with_frame(frame, |w| {
                    stmts[k + 1..].iter().for_each(|s| w.visit_stmt(s))
                });
                return;
            }
        }
    }

    /// Records the names a parameter's struct pattern binds to fields the generated schema leaves
    /// optional.
    fn bind_optional_params(&mut self, ps: &syn::PatStruct, ty: ItemId) {
        for fp in &ps.fields {
            let (syn::Member::Named(field), Some(name)) = (&fp.member, pat_ident(&fp.pat)) else {
                continue;
            };
            if self.resolver.optional_schema_field(ty, &field.to_string()) {
                self.optional_params.push(name);
            }
        }
    }
}

/// Whether every later use of the local `name` in `rest` is the argument of a call the SDK
/// makes an isError result of (`CallToolResult::from(err)`, `CallToolResult::with_error(err)`).
fn wrapped_later(dialect: &dyn Dialect, name: &str, rest: &[syn::Stmt]) -> bool {
    struct Uses<'d, 'n> {
        dialect: &'d dyn Dialect,
        name: &'n str,
        all: usize,
        wrapped: usize,
    }
    impl<'v> Visit<'v> for Uses<'_, '_> {
        fn visit_expr_call(&mut self, c: &'v syn::ExprCall) {
            let arg_is_local = c.args.len() == 1
                && matches!(crate::syntax::strip_refs(&c.args[0]), Expr::Path(p) if p.path.is_ident(self.name));
            if arg_is_local && self.dialect.wraps_error_as_result(c) {
                self.wrapped += 1;
                self.all += 1;
                return;
            }
            visit::visit_expr_call(self, c);
        }
        fn visit_expr_path(&mut self, p: &'v syn::ExprPath) {
            if p.path.is_ident(self.name) {
                self.all += 1;
            }
        }
    }
    let mut uses = Uses {
        dialect,
        name,
        all: 0,
        wrapped: 0,
    };
    rest.iter().for_each(|s| uses.visit_stmt(s));
    uses.wrapped > 0 && uses.wrapped == uses.all
}

/// The `let`s of a condition, also of a let chain (`let Some(t) = &self.t && t.ready()`).
fn chained_lets(cond: &Expr) -> Vec<&syn::ExprLet> {
    match cond {
        Expr::Let(l) => vec![l],
        Expr::Binary(b) if matches!(b.op, syn::BinOp::And(_)) => {
            let mut lets = chained_lets(&b.left);
            lets.extend(chained_lets(&b.right));
            lets
        }
        Expr::Paren(p) => chained_lets(&p.expr),
        _ => Vec::new(),
    }
}

/// `Parameters(req): Parameters<Request>`, `Json(body): Json<Body>`: a parameter destructuring
/// a one-field generic wrapper of the same name binds its field to the type argument.
fn through_newtype_wrapper<'p>(pat: &'p Pat, ty: &'p syn::Type) -> (&'p Pat, &'p syn::Type) {
    let (Pat::TupleStruct(ts), syn::Type::Path(tp)) = (pat, ty) else {
        return (pat, ty);
    };
    let (Some(wrapper), Some(written)) = (ts.path.segments.last(), tp.path.segments.last()) else {
        return (pat, ty);
    };
    let mut args = crate::syntax::type_arguments(&written.arguments);
    match (ts.elems.len(), args.next(), args.next()) {
        (1, Some(inner), None) if wrapper.ident == written.ident => (&ts.elems[0], inner),
        _ => (pat, ty),
    }
}

/// `Err(e)`, `Err(_)`: an arm that takes every error value.
/// `x.into()`.
fn is_into_call(expr: &Expr) -> bool {
    matches!(crate::syntax::strip_parens(expr), Expr::MethodCall(mc) if mc.method == "into" && mc.args.is_empty())
}

fn takes_any_error(pat: &Pat) -> bool {
    match pat {
        Pat::TupleStruct(ts) if ts.elems.len() == 1 => {
            matches!(&ts.elems[0], Pat::Ident(i) if i.subpat.is_none())
                || matches!(&ts.elems[0], Pat::Wild(_))
        }
        Pat::Reference(r) => takes_any_error(&r.pat),
        _ => false,
    }
}

/// `"blue"`, `1 | 2`: a pattern of literals only.
fn is_literal_pat(pat: &Pat) -> bool {
    match pat {
        Pat::Lit(_) => true,
        Pat::Or(o) => o.cases.iter().all(is_literal_pat),
        _ => false,
    }
}
