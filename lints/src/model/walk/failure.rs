//! The failure path a site is on: the frames the walk enters (an `Err(e) =>` arm, `if let
//! Err`, the `else` of `let Some(..) = lookup`, a `map_err` / `ok_or_else` closure) and the facts
//! they give a site ([`PathFacts`]): on a failure path, a lookup miss and whether it names a
//! handle, a server fault, a schema-level failure, whether the text uses the error.

use syn::visit::{self, Visit};
use syn::{Expr, Pat};

use super::Walker;
use crate::model::bodies::BodyCode;
use crate::model::callgraph::{through_borrowing_calls, Locals, Target};
use crate::model::site::{Callee, Channel, PathFacts, SiteContext, TOOL_CALL_ARM};
use crate::resolve::{Def, Ns};
use crate::sdk::{ErrChannel, HandlerKind};
use crate::syntax::{
    is_none_pat, last_segment, mentions_ident, pat_ident, path_segments, strip_await, strip_refs,
    tail_expr, variant_binding, TokensString,
};
use crate::text::MessageText;

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum FrameKind {
    Failure,
    LookupMiss,
    /// The fallback arm of a match on a JSON value's type (`Some(Value::String(s)) => ..,
    /// Some(_) => ..`, `match v.as_str() { .., None => .. }`): the argument is absent or of
    /// the wrong JSON type, which the schema answers.
    WrongShape,
}

#[derive(Clone)]
pub(super) struct Frame<'a> {
    pub(super) kind: FrameKind,
    pub(super) binding: Option<String>,
    pub(super) cause: Option<&'a Expr>,
    /// Certainly a `Result`'s error path (an `Err` pattern, a `map_err(|e| ..)` closure), not
    /// an `Option` fallback that may be a normal outcome.
    pub(super) definite: bool,
    /// The error a joined task's value or a timeout's future failed with (`Ok(Err(e))`).
    pub(super) joined: bool,
}

impl<'a> Frame<'a> {
    /// A path on which `cause` failed: the branch an `if` takes when `cause` tells a failure,
    /// the operand of a `?`. A failure path, not a definite one.
    pub(super) fn failing(cause: &'a Expr) -> Frame<'a> {
        Frame {
            kind: FrameKind::Failure,
            binding: None,
            cause: Some(cause),
            definite: false,
            joined: false,
        }
    }
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
    "failed to parse parameters",
    "needs a tool name",
    "missing tool name",
    "no tool name",
    "requires a tool name",
];

/// Methods of a `Result` that use its error value up or drop it (`helper(..).ok()`): the
/// caller does not pass it on.
pub(super) const DROPPING_METHODS: &[&str] = &[
    "ok",
    "is_ok",
    "is_err",
    "unwrap_or",
    "unwrap_or_default",
    "unwrap_or_else",
];

/// What an `Err(e)` branch does with the error of the call it matched.
pub(super) enum ErrAnswer {
    /// Returns it as it is, or builds a protocol error from it (`"code": e.code`).
    PassedOn,
    /// Hands it to this crate fn (`Ok(tool_error_result(&e))`): the fn decides.
    HandedTo(Callee),
    /// Answers it some other way (`Ok(CallToolResult::error(..))`, a default value).
    Answered,
}

/// The code of an `Err(e)` branch: a match arm's body, or the block of `if let Err(e)`.
#[derive(Clone, Copy)]
pub(super) enum Branch<'e> {
    Expr(&'e Expr),
    Block(&'e syn::Block),
}

impl<'e> Branch<'e> {
    fn visit(self, v: &mut impl Visit<'e>) {
        match self {
            Branch::Expr(e) => v.visit_expr(e),
            Branch::Block(b) => v.visit_block(b),
        }
    }

    /// The value it evaluates to.
    fn tail(self) -> Option<&'e Expr> {
        match self {
            Branch::Expr(e) => Some(tail_expr(e)),
            Branch::Block(b) => match b.stmts.last() {
                Some(syn::Stmt::Expr(e, None)) => Some(tail_expr(e)),
                _ => None,
            },
        }
    }

    /// Whether it returns or yields the error bound to `name` as it is (through `.into()`,
    /// `From::from`, `&`): `Err(name)`, `name` as a tail value.
    fn passes_on(self, name: &str) -> bool {
        let mut v = PassesOn { name, found: false };
        self.visit(&mut v);
        v.found || self.tail().is_some_and(|t| is_error_named(t, name))
    }
}

/// The call `expr` makes (through `&`, parentheses and `.await`), by address: how its edge is
/// found when the walk reaches it.
pub(super) fn call_address(expr: &Expr) -> Option<*const ()> {
    match strip_await(strip_refs(expr)) {
        Expr::Call(c) => Some(c as *const syn::ExprCall as *const ()),
        Expr::MethodCall(mc) => Some(mc as *const syn::ExprMethodCall as *const ()),
        _ => None,
    }
}

/// Whether `expr` reads the local `name` anywhere (`&e`, `e.code`, `e.to_string()`).
pub(super) fn names_local(expr: &Expr, name: &str) -> bool {
    struct Names<'n> {
        name: &'n str,
        found: bool,
    }
    impl<'v> Visit<'v> for Names<'_> {
        fn visit_expr_path(&mut self, p: &'v syn::ExprPath) {
            self.found |= p.path.is_ident(self.name);
        }
        fn visit_item(&mut self, _: &'v syn::Item) {}
    }
    let mut v = Names { name, found: false };
    v.visit_expr(expr);
    v.found
}

/// `name`, `&name`, `name.into()`, `name.clone()`, `From::from(name)`.
pub(super) fn is_error_named(e: &Expr, name: &str) -> bool {
    match strip_refs(e) {
        Expr::Path(p) => p.path.is_ident(name),
        Expr::MethodCall(mc)
            if mc.args.is_empty() && (mc.method == "into" || mc.method == "clone") =>
        {
            is_error_named(&mc.receiver, name)
        }
        Expr::Call(c)
            if c.args.len() == 1
                && matches!(&*c.func, Expr::Path(p) if p.path.segments.last()
                    .is_some_and(|s| s.ident == "from" || s.ident == "into")) =>
        {
            is_error_named(&c.args[0], name)
        }
        _ => false,
    }
}

/// Finds `Err(name)` (and `Err(name.into())`, ..) anywhere in what it visits.
struct PassesOn<'n> {
    name: &'n str,
    found: bool,
}

impl<'v> Visit<'v> for PassesOn<'_> {
    fn visit_expr_call(&mut self, c: &'v syn::ExprCall) {
        let err = matches!(&*c.func, Expr::Path(p) if p.path.is_ident("Err"));
        if err && c.args.first().is_some_and(|a| is_error_named(a, self.name)) {
            self.found = true;
        }
        visit::visit_expr_call(self, c);
    }
    fn visit_item(&mut self, _: &'v syn::Item) {}
}

/// The `None` of a lookup by a key that is not a literal (`map.get(&id)`, also through
/// `.cloned()` and the like): the failure is the miss, whatever the map was reached through.
fn misses_keyed_lookup(cause: &Expr) -> bool {
    let step = crate::syntax::through_methods(
        strip_await(cause),
        &[
            "cloned", "copied", "as_ref", "as_deref", "as_mut", "to_owned", "clone",
        ],
    );
    let Expr::MethodCall(m) = strip_refs(strip_await(step)) else {
        return false;
    };
    LOOKUP_METHODS.contains(&m.method.to_string().as_str())
        && !m.args.is_empty()
        && !m.args.iter().all(|a| matches!(strip_refs(a), Expr::Lit(_)))
}

/// Lookup methods whose `None` / `Err` means "no such handle".
const LOOKUP_METHODS: &[&str] = &[
    "get",
    "contains_key",
    "get_mut",
    "get_key_value",
    "remove",
    "take",
    "find_by_id",
    "lookup",
];

impl<'a> Walker<'a, '_> {
    pub(super) fn path_facts(
        &self,
        built: &dyn quote::ToTokens,
        texts: &[MessageText],
    ) -> PathFacts {
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
            lookup_names: self
                .frames
                .last()
                .filter(|f| f.kind == FrameKind::LookupMiss)
                .and_then(|f| f.cause)
                .and_then(|cause| self.lookup_names(cause)),
            // The miss of a lookup by a key the tool computed is the lookup's, not the lock's
            // the map was read under (`self.notes.lock().await.get(&p.id).cloned()`).
            server_fault: causes
                .iter()
                .any(|c| !misses_keyed_lookup(c) && calls_any(c, SERVER_FAULT_CALLS))
                || causes
                    .iter()
                    .any(|c| is_serializing_call(c) || self.serializes_sdk_value(c))
                || causes.iter().any(|c| {
                    self.decodes_own_output(c)
                        || self.reparses_own_value(c)
                        || self.writes_own_buffer(c)
                        || self.receives_from_own_channel(c)
                        || self.sends_on_own_channel(c)
                })
                || causes.iter().any(|c| self.calls_request_context(c))
                || causes.iter().any(|c| self.reads_request_framing(c))
                || causes
                    .iter()
                    .any(|c| self.reads_own_process(c) || self.reads_own_clock(c))
                // `match spawned { Err(e) => .. }`: also what the local was bound to.
                || causes.iter().any(|c| {
                    self.spawns_thread(c) || self.let_init(c).is_some_and(|i| self.spawns_thread(i))
                })
                || causes
                    .iter()
                    .any(|c| self.awaits_own_task(c) || self.awaits_own_worker_future(c))
                // `let token = std::env::var("TOKEN")?; Client::builder().token(token).build()`
                || causes.iter().any(|c| {
                    builds_own_value(c, &|local| {
                        self.let_init(local)
                            .is_some_and(|init| self.reads_own_process(through_try(init)))
                    })
                })
                || causes.iter().any(|c| self.misses_locked_own_state(c))
                || causes.iter().any(|c| self.misses_frozen_option(c))
                // `self.cache.get(&key)` of a crate fn that fails only on a server fault
                // (`self.entries.read()?` converted to its own error type).
                || causes.iter().any(|c| self.fails_only_on_server_fault(c))
                || causes
                    .iter()
                    .any(|c| parses_constant(c) || self.misses_once_cell(c))
                || mentions(SERVER_FAULT_WORDS)
                || marker_hit,
            // The source says the request matched the schema: words cannot make it schema-level.
            schema_level: self.absent_optional == 0
                && !causes.iter().any(|c| self.reads_optional_field(c))
                && !causes.iter().any(|c| self.reads_inside_free_form_field(c))
                && (cause_calls(SCHEMA_CALLS)
                    || causes.iter().any(|c| deserializes_text(c))
                    || causes.iter().any(|c| reads_argument_field(c))
                    || mentions(SCHEMA_WORDS)
                    || lowered_texts.iter().any(|t| names_meta_member(t))
                    || self.frames.iter().any(|f| f.kind == FrameKind::WrongShape)
                    || lowered_texts.iter().any(|t| names_absent_argument(t))),
            client_declaration: causes.iter().any(|c| self.reads_client_declaration(c)),
            request_failure: self.fails_before_tool_pick(&causes)
                || self.lacks_request_params(&causes)
                || self.route_state_branches > 0,
            server_state: match causes.is_empty() {
                true => self.self_state_branches > 0,
                false => causes.iter().all(|c| self.reads_only_own_state(c, 0)),
            },
            stored_key: !causes.is_empty() && causes.iter().all(|c| self.keyed_by_stored_record(c)),
            uses_error: self
                .frames
                .iter()
                .rev()
                .find_map(|f| f.binding.as_ref())
                // Printed only when there is a binding to look for.
                .is_some_and(|b| mentions_ident(&built.to_token_stream_string(), b)),
            // Known only once every body is walked.
            variant_value_check: false,
            early_return: self.returning > 0,
            in_fallback: !self.frames.is_empty() || self.cfg_off > 0,
        }
    }

    /// `std::thread::Builder::new()..spawn(..)`: the server's own thread (unlike
    /// `Command::spawn`, a process the model may have asked for).
    fn spawns_thread(&self, expr: &Expr) -> bool {
        let Expr::MethodCall(mc) = strip_await(expr) else {
            return false;
        };
        if mc.method != "spawn" && mc.method != "spawn_scoped" {
            return false;
        }
        // Through the builder's methods and the locals it was kept in
        // (`let builder = thread::Builder::new().name(..); builder.spawn(..)`).
        let mut root = &*mc.receiver;
        for _ in 0..8 {
            root = match root {
                Expr::MethodCall(inner) => &inner.receiver,
                Expr::Path(_) => match self.let_init(root) {
                    Some(init) => init,
                    None => break,
                },
                _ => break,
            };
        }
        self.external_fn(root)
            .is_some_and(|path| path.iter().take(3).eq(["std", "thread", "Builder"].iter()))
    }

    /// The item of another crate a call `f(..)` goes to, by its path there (`std::env::var`), as
    /// name resolution finds it.
    pub(super) fn external_fn(&self, call: &Expr) -> Option<Vec<String>> {
        let (Expr::Call(c), Some(scope)) = (call, self.body.scope) else {
            return None;
        };
        let Expr::Path(p) = &*c.func else {
            return None;
        };
        match self
            .calls
            .defs
            .resolve_path(scope.module, &p.path, Ns::Values)
        {
            Some(Def::External(path)) => Some(path),
            _ => None,
        }
    }

    /// `std::env::current_exe()`, `env::current_dir()`, `env::var("HOME")`, a scratch directory
    /// or file from `tempfile` (`tempdir()`, `NamedTempFile::new()`, its `Builder`): the
    /// process's own environment, asked with nothing the request carries (no argument, or
    /// literals only). Its failure is the server's fault, whatever the message says;
    /// `env::var(&args.name)` asks with the model's value and stays a tool failure.
    fn reads_own_process(&self, expr: &Expr) -> bool {
        let mut root = strip_await(expr);
        // Through the adapters on its result (`.map(|p| p.display().to_string())`).
        while let Expr::MethodCall(mc) = root {
            root = strip_await(&mc.receiver);
        }
        let root = self.let_init(root).unwrap_or(root);
        let Expr::Call(c) = root else {
            return false;
        };
        let own_values = c.args.iter().all(|a| matches!(a, Expr::Lit(_)));
        own_values
            && self.external_fn(root).is_some_and(|path| {
                (path.len() == 3 && path[..2] == ["std", "env"])
                    || matches!(path[0].as_str(), "tempfile" | "dirs" | "dirs_next" | "home")
            })
    }

    /// `SystemTime::now().duration_since(UNIX_EPOCH)`: the server's own clock, asked with
    /// constants (a clock set before 1970).
    fn reads_own_clock(&self, expr: &Expr) -> bool {
        // Through the adapters on its result (`.map(|d| d.as_secs())`).
        let expr = crate::syntax::through_methods(strip_await(expr), &["map", "inspect"]);
        let Expr::MethodCall(m) = expr else {
            return false;
        };
        m.method == "duration_since"
            && m.args.iter().all(is_constant)
            && self.external_fn(strip_await(&m.receiver)).is_some_and(
                |path| matches!(path.as_slice(), [.., t, f] if t == "SystemTime" && f == "now"),
            )
    }

    /// The values a local destructured from a tuple in each branch of its `let` can hold.
    pub(super) fn let_candidates(&self, expr: &Expr) -> Option<&[&'a Expr]> {
        match strip_refs(expr) {
            Expr::Path(p) => p
                .path
                .get_ident()
                .and_then(|i| self.let_candidates.get(&i.to_string()))
                .map(Vec::as_slice),
            _ => None,
        }
    }

    /// The crate fn whose error `e` is, when `e` is the binding of the innermost definite `Err`
    /// arm around here and that arm's `match` is over a call of that fn.
    pub(super) fn err_binding_errors_of(&self, e: &Expr) -> Option<crate::model::ids::BodyId> {
        let name = match crate::syntax::strip_refs(e) {
            Expr::Path(p) => p.path.get_ident()?.to_string(),
            _ => return None,
        };
        self.errors_of(self.definite_frame_of(&name)?.cause?)
    }

    /// The innermost frame binding `name`, when it is certainly a `Result`'s error path.
    pub(super) fn definite_frame_of(&self, name: &str) -> Option<&Frame<'a>> {
        let frame = self
            .frames
            .iter()
            .rev()
            .find(|f| f.binding.as_deref() == Some(name))?;
        frame.definite.then_some(frame)
    }

    /// [`joined_value`] of `expr`, or of the handle a local holds (`let task = tokio::spawn(..);
    /// match task.await`).
    fn joined_value(&self, expr: &'a Expr) -> Option<&'a Expr> {
        joined_value(expr).or_else(|| joined_value(self.let_init(strip_await(expr))?))
    }

    /// What the local `expr` names was bound to (`let x = init;`), when it is a local of this
    /// body.
    pub(super) fn let_init(&self, expr: &Expr) -> Option<&'a Expr> {
        match strip_refs(expr) {
            Expr::Path(p) => p
                .path
                .get_ident()
                .and_then(|i| self.lets.get(&i.to_string()).copied()),
            _ => None,
        }
    }

    /// The lookup a local holds when `expr` reads it (`let hit = self.items.get(&id); if let
    /// Some(v) = hit.as_ref()`, `let row = query.fetch_optional(db).await?; match row`): the
    /// lookup's own expression, so the test of the local is the lookup's miss; else `expr`.
    pub(super) fn lookup_source(&self, expr: &'a Expr) -> &'a Expr {
        let local = match strip_refs(expr) {
            Expr::MethodCall(m)
                if m.args.is_empty()
                    && matches!(
                        m.method.to_string().as_str(),
                        "as_ref" | "as_deref" | "as_mut" | "cloned" | "copied"
                    ) =>
            {
                &*m.receiver
            }
            other => other,
        };
        match self.let_init(local) {
            Some(init) if self.is_map_lookup(init) || unwraps_optional_answer(init) => init,
            _ => expr,
        }
    }

    /// `!declares_sampling` where `let declares_sampling = peer.peer_info().is_some_and(|i|
    /// i.capabilities.sampling.is_some())`: the condition reads what the client declared in
    /// `initialize` (through `!`, comparisons and the locals it names).
    fn reads_client_declaration(&self, cond: &Expr) -> bool {
        struct Reads<'w, 'm, 'a> {
            walker: &'w Walker<'a, 'm>,
            depth: usize,
            found: bool,
        }
        impl<'v> Visit<'v> for Reads<'_, '_, '_> {
            fn visit_expr_method_call(&mut self, m: &'v syn::ExprMethodCall) {
                let method = m.method.to_string();
                if m.args.is_empty()
                    && crate::sdk::CLIENT_DECLARATION_METHODS.contains(&method.as_str())
                {
                    self.found = true;
                }
                syn::visit::visit_expr_method_call(self, m);
            }
            fn visit_expr_path(&mut self, p: &'v syn::ExprPath) {
                if self.depth < 4 {
                    let init = p
                        .path
                        .get_ident()
                        .and_then(|i| self.walker.lets.get(&i.to_string()));
                    if let Some(init) = init.copied() {
                        self.depth += 1;
                        self.visit_expr(init);
                        self.depth -= 1;
                    }
                }
            }
        }
        let mut reads = Reads {
            walker: self,
            depth: 0,
            found: false,
        };
        reads.visit_expr(cond);
        reads.found
    }

    /// In the `"tools/call"` route before a tool is picked, the `else` of a `let Some(..) = ..
    /// else` on what the request holds or the server's state (`let Some(name) =
    /// params.get("name") else`, `let Some(service) = service else`): every cause is such a
    /// scrutinee, and none runs crate code (a tool's run goes through the crate's fns) or reads
    /// the tool's arguments.
    /// In a dispatcher before it picks a tool, the request's own params missing
    /// (`params.ok_or_else(|| RpcError::invalid_params(..))?` of `fn call_tool(&self, params:
    /// Option<Value>)`): the request breaks the `CallToolRequest` schema, before any tool.
    fn lacks_request_params(&self, causes: &[&'a Expr]) -> bool {
        let request_param = |c: &Expr| {
            let root =
                crate::syntax::through_methods(c, &["ok_or", "ok_or_else", "as_ref", "as_deref"]);
            matches!(strip_refs(root), Expr::Path(p) if p.path.get_ident()
                .is_some_and(|i| self.request_params.iter().any(|r| i == r)))
        };
        self.body.kind == Some(HandlerKind::Dispatcher)
            && self.arm.is_none()
            && !causes.is_empty()
            && causes.iter().all(|c| request_param(c))
    }

    /// `self.store.berth(&call.berth)` where `call` holds what an earlier call on the server's
    /// own state returned (`let call = self.store.get_call(&p.call_id)?.ok_or_else(..)?`): a call
    /// on `self` whose every argument is read out of such a record.
    fn keyed_by_stored_record(&self, cause: &Expr) -> bool {
        let cause = crate::syntax::through_methods(strip_await(cause), &["map_err", "map"]);
        let Expr::MethodCall(mc) = strip_await(cause) else {
            return false;
        };
        let on_self = |e: &Expr| matches!(strip_await(e), Expr::MethodCall(m) if reads_only_self(&m.receiver));
        // A local bound (through `?`, `ok_or_else(..)`, `unwrap`, other locals) to a call on self.
        let stored = |local: &Expr| {
            let mut value = local;
            for _ in 0..4 {
                let Some(init) = self.let_init(value) else {
                    return false;
                };
                value = crate::syntax::through_unwrapping(
                    init,
                    &["ok_or", "ok_or_else", "unwrap", "expect", "map_err"],
                );
                if on_self(value) {
                    return true;
                }
                if !matches!(value, Expr::Path(_)) {
                    return false;
                }
            }
            false
        };
        let record_field = |arg: &Expr| {
            let arg =
                crate::syntax::through_methods(strip_refs(arg), &["clone", "as_str", "as_ref"]);
            let Expr::Field(f) = strip_refs(arg) else {
                return false;
            };
            let mut f = f;
            while let Expr::Field(inner) = &*f.base {
                f = inner;
            }
            matches!(&*f.base, Expr::Path(p) if p.path.get_ident().is_some_and(|i| i != "self"))
                && stored(&f.base)
        };
        reads_only_self(&mc.receiver) && !mc.args.is_empty() && mc.args.iter().all(record_field)
    }

    /// `if !state.allow_call() { return rpc_error(..) }` where the `"tools/call"` route has not
    /// picked a tool yet: a test of the server's own state (a rate limit, a full queue) given
    /// nothing from the request. Refusing there is the server not serving the request, not a
    /// tool failing.
    pub(super) fn tests_server_state_before_tool_pick(&self, cond: &Expr) -> bool {
        // A route fn handed the request (`tools_call(state, id, params)`) reads the tool's name
        // from it; a tool fn given its arguments does not.
        let routing = self.in_tool_call_arm
            || (self.body.kind == Some(HandlerKind::Dispatcher)
                && self.arm.is_none()
                && *self
                    .reads_name_member
                    .get_or_init(|| reads_name_member(self.body.code)));
        // A parameter of a crate type that is not the JSON-RPC message (`state: &AppState`);
        // not a value taken out of the request, as a decoded tool is.
        let param = |local: &Expr| {
            let Expr::Path(p) = local else { return false };
            self.body.sig.is_some_and(|sig| {
                sig.inputs.iter().any(|input| {
                    matches!(input, syn::FnArg::Typed(t)
                    if crate::syntax::pat_ident(&t.pat).is_some_and(|n| p.path.is_ident(&n)))
                })
            })
        };
        let server_state = |local: &Expr| {
            let framing = crate::sdk::jsonrpc::FRAMING_FIELDS;
            param(local)
                && self
                    .resolver
                    .type_of(local, &self.locals)
                    .is_some_and(|ty| {
                        !framing
                            .iter()
                            .all(|f| self.calls.types.field(ty, f).is_some())
                    })
        };
        routing && self.picking_tool() && reads_only_self_or(cond, &server_state)
    }

    fn fails_before_tool_pick(&self, causes: &[&'a Expr]) -> bool {
        struct RunsTool<'w, 'm, 'a> {
            walker: &'w Walker<'a, 'm>,
            depth: usize,
            found: bool,
        }
        impl<'v> Visit<'v> for RunsTool<'_, '_, '_> {
            fn visit_expr(&mut self, e: &'v Expr) {
                let crate_call = matches!(e, Expr::Call(_) | Expr::MethodCall(_))
                    && !matches!(
                        self.walker.call_target(e),
                        None | Some(Target::NotCrateFn | Target::Unknown)
                    );
                let arguments = match e {
                    Expr::Lit(l) => matches!(&l.lit, syn::Lit::Str(s) if s.value() == "arguments"),
                    Expr::Field(f) => {
                        matches!(&f.member, syn::Member::Named(n) if n == "arguments")
                    }
                    _ => false,
                };
                if crate_call || arguments {
                    self.found = true;
                    return;
                }
                if let (Expr::Path(_), true) = (e, self.depth < 3) {
                    if let Some(init) = self.walker.let_init(e) {
                        self.depth += 1;
                        self.visit_expr(init);
                        self.depth -= 1;
                    }
                }
                syn::visit::visit_expr(self, e);
            }
        }
        if !(self.in_tool_call_arm && self.picking_tool()) || causes.is_empty() {
            return false;
        }
        causes.iter().all(|c| {
            if !self.route_refusals.contains(&(*c as *const Expr as usize)) {
                return false;
            }
            let mut runs = RunsTool {
                walker: self,
                depth: 0,
                found: false,
            };
            runs.visit_expr(c);
            !runs.found
        })
    }

    /// `req.id` of a hand-rolled server's JSON-RPC request struct (it declares `jsonrpc`, `id`
    /// and `method`).
    fn reads_request_framing(&self, expr: &Expr) -> bool {
        self.resolver.reads_field_of_struct_with(
            expr,
            &self.locals,
            crate::sdk::jsonrpc::FRAMING_FIELDS,
            crate::sdk::jsonrpc::REQUEST_FIELDS,
        )
    }

    /// `signal.into_meta_entry()` (through `.map_err(..)`): an SDK method that serialises its
    /// receiver.
    fn serializes_sdk_value(&self, cause: &Expr) -> bool {
        let mut e = strip_await(cause);
        while let Expr::MethodCall(mc) = e {
            if self.dialect.is_serializing_method(&mc.method.to_string()) {
                return true;
            }
            e = strip_await(&mc.receiver);
        }
        // `Content::json(value)`: an SDK fn, by what its path resolves to (a crate's own
        // `Content` is not the SDK's).
        self.external_fn(e)
            .is_some_and(|path| self.dialect.is_serializing_fn(&path))
    }

    /// `String::from_utf8(buf)` where `buf` is a buffer this body made empty (also inside a
    /// `Cursor`, read back with `into_inner()`) and that nothing reads into: only crate fns
    /// and writers (`engine::run(&mut buf, ..)`, `graph.serialize(&mut buf)`) fill it. Decoding
    /// the server's own output is a server fault; bytes read from a file, socket or process
    /// (`file.read_to_end(&mut buf)`, `io::copy(.., &mut buf)`) may be the model's, and are not.
    pub(super) fn decodes_own_output(&self, cause: &Expr) -> bool {
        let Expr::Call(call) = strip_await(cause) else {
            return false;
        };
        let BodyCode::Block(block) = self.body.code else {
            return false;
        };
        let Some(buffers) = call
            .args
            .iter()
            .map(|a| self.own_buffer(a))
            .collect::<Option<Vec<String>>>()
        else {
            return false;
        };
        !buffers.is_empty()
            && buffers
                .iter()
                .all(|b| self.only_writers_fill(block, b, call))
    }

    /// `serde_json::from_value(v)` where `v = serde_json::to_value(&self.state)?` (or the text
    /// of `to_string`): reading back a value the server has just serialised itself fails only
    /// on the server's own types. Text that came from elsewhere is not.
    pub(super) fn reparses_own_value(&self, cause: &Expr) -> bool {
        let Expr::Call(c) = strip_await(cause) else {
            return false;
        };
        let Expr::Path(p) = &*c.func else {
            return false;
        };
        let segs = path_segments(&p.path);
        let decodes = matches!(segs.as_slice(), [.., m, f]
            if (m.starts_with("serde") || m == "toml") && f.starts_with("from_"));
        let [arg] = c.args.iter().collect::<Vec<_>>()[..] else {
            return false;
        };
        let arg = crate::syntax::through_methods(strip_refs(arg), &["as_str", "as_bytes", "clone"]);
        let value = self.let_init(arg).map_or(arg, through_try);
        decodes && (is_serializing_call(value) || self.returns_serialization(value))
    }

    /// `self.store.snapshot_json()` of a crate fn whose value is a serialisation
    /// (`serde_json::to_string_pretty(&vehicles).map_err(..)` as its tail, or in `Ok(..)`).
    fn returns_serialization(&self, call: &Expr) -> bool {
        let call = strip_await(crate::syntax::through_methods(call, &["map_err"]));
        let Some(f) = self.called_fn(call) else {
            return false;
        };
        let Some((block, file, _)) = self.calls.blocks.get(&f) else {
            return false;
        };
        // The answer depends on that fn's file.
        self.read_from(*file);
        let Some(syn::Stmt::Expr(tail, None)) = block.stmts.last() else {
            return false;
        };
        let tail = match crate::syntax::ok_payload(strip_await(tail)) {
            Some(inner) => through_try(inner),
            None => tail,
        };
        is_serializing_call(crate::syntax::through_methods(tail, &["map_err"]))
    }

    /// `graph.serialize(&mut buf).with_format(f).execute()`, also through the local the
    /// builder was kept in: a value written into a buffer this body made empty, given nothing
    /// else, is the server's own value going to memory, and its failure is the server's (no
    /// I/O the request could have made fail). `engine::run(&mut buf, &config)` is given what to
    /// compute, which may be the model's, and is not.
    pub(super) fn writes_own_buffer(&self, cause: &Expr) -> bool {
        let own = |a: &Expr| {
            matches!(a, Expr::Reference(r) if r.mutability.is_some()
                && self.own_buffer(&r.expr).is_some())
        };
        let into_own_buffer = |args: &syn::punctuated::Punctuated<Expr, syn::Token![,]>| {
            args.len() == 1 && args.iter().all(own)
        };
        let mut expr = strip_await(cause);
        for _ in 0..16 {
            expr = match expr {
                Expr::MethodCall(mc) => {
                    let method = mc.method.to_string();
                    // `img.write_to(&mut Cursor::new(&mut buf), ImageFormat::Png)`: an encoder
                    // writing into the body's own buffer, whatever else it is given.
                    let encodes = (method.starts_with("write") || method.starts_with("encode"))
                        && mc.args.iter().any(own);
                    if (into_own_buffer(&mc.args) || encodes) && !reads_into(&method) {
                        return true;
                    }
                    strip_await(&mc.receiver)
                }
                Expr::Call(c) => {
                    let reads = matches!(&*c.func, Expr::Path(p) if p.path.segments.last()
                        .is_some_and(|s| reads_into(&s.ident.to_string())));
                    return into_own_buffer(&c.args) && !reads;
                }
                Expr::Path(_) => match self.let_init(expr) {
                    Some(init) => strip_await(init),
                    None => return false,
                },
                _ => return false,
            };
        }
        false
    }

    /// `h.await` where `let h = tokio::spawn(..)`, or a handle of a `Vec` the body pushed
    /// spawned tasks into: awaiting the body's own task fails only with its `JoinError`.
    fn awaits_own_task(&self, cause: &Expr) -> bool {
        // Also through the local the outcome was kept in (`let joined = handle.await;`).
        let cause = self.let_init(cause).unwrap_or(cause);
        let Expr::Await(a) = crate::syntax::strip_refs(cause) else {
            return false;
        };
        if self.starts_own_task(strip_await(&a.base)) {
            return true;
        }
        let Expr::Path(p) = strip_await(&a.base) else {
            return false;
        };
        let Some(name) = p.path.get_ident().map(|i| i.to_string()) else {
            return false;
        };
        self.task_handles.contains(&name)
            || self
                .let_init(strip_await(&a.base))
                .is_some_and(|init| self.starts_own_task(init))
    }

    /// `open_repo(p).await` where `open_repo` returns a future of the crate's own whose error
    /// is a worker's (`impl Future for AsyncTask<T> { type Output = Result<T, RecvError>; }`):
    /// the await fails only when the server's own task dropped its sender or panicked.
    fn awaits_own_worker_future(&self, cause: &Expr) -> bool {
        // Also through the local it was kept in (`let result = client.get(id).await;`).
        let cause = self.let_init(cause).unwrap_or(cause);
        let Expr::Await(a) = crate::syntax::strip_refs(cause) else {
            return false;
        };
        // The future itself may be a local, one call per branch (`let task = if bare {
        // init_bare(p) } else { init(p) }; task.await`).
        let future = self.let_init(&a.base).unwrap_or(&a.base);
        let mut leaves = Vec::new();
        super::calls::value_leaves(future, &mut leaves, 0);
        let types = self.calls.types;
        !leaves.is_empty()
            && leaves.iter().all(|leaf| {
                self.called_fn(leaf)
                    .and_then(|f| types.return_type(self.calls.defs, f))
                    .and_then(|ty| types.future_error(ty))
                    .is_some_and(|e| matches!(e, "RecvError" | "JoinError" | "Canceled"))
            })
    }

    /// [`spawns_task`], or a call of a crate fn declared to return the task's handle (`fn
    /// spawn_driver(..) -> tokio::task::JoinHandle<..>`).
    pub(super) fn starts_own_task(&self, init: &Expr) -> bool {
        spawns_task(init)
            || self.called_fn(init).is_some_and(|f| {
                matches!(self.calls.types.return_syntax(f), Some(syn::ReturnType::Type(_, ty))
                    if crate::syntax::type_name(ty).is_some_and(|n| n == "JoinHandle"))
            })
    }

    /// `rx.await`, `rx.recv().await`: receiving from a channel this body made, which fails only
    /// when the body's own sender was dropped unsent (the worker it was moved into died).
    fn receives_from_own_channel(&self, cause: &Expr) -> bool {
        let own = |e: &Expr| {
            matches!(strip_refs(e), Expr::Path(p) if p.path.get_ident()
                .is_some_and(|i| self.own_receivers.contains(&i.to_string())))
        };
        if under_deadline(cause, &|op| self.receives_from_own_channel(op)) {
            return true;
        }
        match strip_await(cause) {
            Expr::MethodCall(mc) => {
                matches!(
                    mc.method.to_string().as_str(),
                    "recv" | "recv_async" | "blocking_recv" | "recv_timeout"
                ) && own(&mc.receiver)
            }
            other => own(other),
        }
    }

    /// `self.worker.send(cmd).await`, `tx.send(cmd)` on a sender of the server's own (a field
    /// or parameter declared `mpsc::Sender<..>`, a local made with the channel or returned as
    /// one), also under a deadline (`timeout(WAIT, tx.send(cmd))`): it fails only when the
    /// server's own receiver is gone.
    fn sends_on_own_channel(&self, cause: &Expr) -> bool {
        if under_deadline(cause, &|op| self.sends_on_own_channel(op)) {
            return true;
        }
        match strip_await(cause) {
            Expr::MethodCall(mc) => {
                matches!(
                    mc.method.to_string().as_str(),
                    "send" | "try_send" | "send_async" | "blocking_send" | "send_timeout"
                ) && mc.args.len() <= 2
                    && self.is_own_sender(&mc.receiver, 0)
            }
            _ => false,
        }
    }

    /// Whether `expr` is a sending end of one of the server's own channels (see
    /// [`Walker::sends_on_own_channel`]).
    fn is_own_sender(&self, expr: &Expr, depth: usize) -> bool {
        if depth > 4 {
            return false;
        }
        match strip_refs(expr) {
            Expr::MethodCall(m) if m.method == "clone" && m.args.is_empty() => {
                self.is_own_sender(&m.receiver, depth + 1)
            }
            Expr::Field(f) => self.declared_field_type(f).is_some_and(is_sender_type),
            e @ Expr::Path(p) => {
                let Some(name) = p.path.get_ident().map(|i| i.to_string()) else {
                    return false;
                };
                self.own_senders.contains(&name)
                    || self.param_type(&name).is_some_and(is_sender_type)
                    || self
                        .let_init(e)
                        .is_some_and(|init| self.is_own_sender(init, depth + 1))
            }
            _ => false,
        }
    }

    /// The type a crate struct declares for the field `f` reads (`self.worker`: `mpsc::Sender<..>`).
    pub(super) fn declared_field_type(&self, f: &syn::ExprField) -> Option<&'a syn::Type> {
        let syn::Member::Named(name) = &f.member else {
            return None;
        };
        self.resolver
            .type_of(&f.base, &self.locals)
            .and_then(|ty| self.calls.types.field(ty, &name.to_string()))
    }

    /// `self.config.export_dir.as_ref()`, `&self.settings.token`: the `None` of an `Option`
    /// field the server set when it was built. Read through `&self` and fields none of whose
    /// declared types can change behind a shared reference (no lock, cell or atomic), no call
    /// since could have filled it: the server's configuration lacks it.
    pub(super) fn misses_frozen_option(&self, cause: &Expr) -> bool {
        let shared_self = self.body.sig.is_some_and(takes_shared_self);
        if !shared_self {
            return false;
        }
        let cause = crate::syntax::through_methods(strip_await(cause), OPTION_VIEWS);
        match strip_refs(cause) {
            Expr::Field(last) => self.frozen_fields(last, true),
            // `(*self.telematics).as_ref()` of an `Arc<Option<T>>`.
            Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => {
                matches!(strip_refs(&u.expr), Expr::Field(last) if self.frozen_fields(last, true))
            }
            // `self.carrier.account()`, of `fn account(&self) -> Option<&str> {
            // self.account.as_deref() }`.
            Expr::MethodCall(mc) if mc.args.is_empty() => {
                let receiver_frozen = match strip_refs(&mc.receiver) {
                    Expr::Path(p) => p.path.is_ident("self"),
                    Expr::Field(f) => self.frozen_fields(f, false),
                    _ => false,
                };
                receiver_frozen && self.reads_own_frozen_option(cause)
            }
            _ => false,
        }
    }

    /// Whether `last` and the fields it is read through from `self` are declared with types
    /// that cannot change behind a shared reference; `option_last`: `last` is an `Option`.
    fn frozen_fields(&self, last: &syn::ExprField, option_last: bool) -> bool {
        let mut field = last;
        for depth in 0..8 {
            let Some(ty) = self.declared_field_type(field) else {
                return false;
            };
            // The field read last is the `Option`.
            if (depth == 0 && option_last && !is_frozen_option(ty)) || is_mutable(ty) {
                return false;
            }
            match strip_refs(&field.base) {
                Expr::Path(p) if p.path.is_ident("self") => return true,
                // `let cfg = config::get().ok_or_else(..)?; cfg.export_dir.as_ref()`: a value
                // the server set once at start-up, read from its cell.
                Expr::Path(_) => {
                    return self.let_init(&field.base).is_some_and(|init| {
                        let cell = crate::syntax::through_unwrapping(
                            init,
                            &[
                                "ok_or",
                                "ok_or_else",
                                "expect",
                                "unwrap",
                                "context",
                                "with_context",
                            ],
                        );
                        self.misses_once_cell(cell)
                    })
                }
                Expr::Field(f) => field = f,
                _ => return false,
            }
        }
        false
    }

    /// `call` goes to a crate method `fn x(&self) -> Option<..>` whose whole body reads an
    /// `Option` field of its own that cannot change behind `&self` (`self.account.as_deref()`).
    fn reads_own_frozen_option(&self, call: &Expr) -> bool {
        let Some(f) = self.called_fn(call) else {
            return false;
        };
        let types = self.calls.types;
        let (Some((block, _, sig)), Some(ty)) = (
            self.calls.blocks.get(&f),
            types.scope_of(f).and_then(|s| types.self_type(s)),
        ) else {
            return false;
        };
        let [syn::Stmt::Expr(tail, None)] = &block.stmts[..] else {
            return false;
        };
        let Expr::Field(field) = strip_refs(crate::syntax::through_methods(tail, OPTION_VIEWS))
        else {
            return false;
        };
        let (Expr::Path(base), syn::Member::Named(name)) = (strip_refs(&field.base), &field.member)
        else {
            return false;
        };
        takes_shared_self(sig)
            && base.path.is_ident("self")
            && types
                .field(ty, &name.to_string())
                .is_some_and(is_frozen_option)
    }

    /// The type this body's signature declares for parameter `name`.
    fn param_type(&self, name: &str) -> Option<&'a syn::Type> {
        self.body.sig?.inputs.iter().find_map(|input| match input {
            syn::FnArg::Typed(pt) => {
                matches!(&*pt.pat, Pat::Ident(pi) if pi.ident == name).then_some(&*pt.ty)
            }
            syn::FnArg::Receiver(_) => None,
        })
    }

    /// The local an argument decodes, when the body made it an empty buffer: `buf`,
    /// `cursor.into_inner()`, or a local bound to either.
    fn own_buffer(&self, arg: &Expr) -> Option<String> {
        let mut expr = strip_refs(arg);
        for _ in 0..4 {
            expr = match expr {
                Expr::MethodCall(mc) if mc.method == "into_inner" && mc.args.is_empty() => {
                    strip_refs(&mc.receiver)
                }
                // `Cursor::new(&mut buf)`.
                Expr::Call(c)
                    if c.args.len() == 1
                        && matches!(&*c.func, Expr::Path(p) if p.path.segments.len() >= 2
                            && p.path.segments.last().is_some_and(|s| s.ident == "new")
                            && p.path.segments[p.path.segments.len() - 2].ident == "Cursor") =>
                {
                    strip_refs(&c.args[0])
                }
                Expr::Path(p) => {
                    let name = p.path.get_ident()?.to_string();
                    let init = self.lets.get(&name)?;
                    if is_empty_buffer(init) {
                        return Some(name);
                    }
                    init
                }
                _ => return None,
            };
        }
        None
    }

    /// Whether every use of local `buf` in `block` but `reader`'s is `&mut buf` given to a
    /// crate fn or to a writer (no read into it), or a method given nothing (`buf.len()`).
    fn only_writers_fill(&self, block: &syn::Block, buf: &str, reader: &syn::ExprCall) -> bool {
        struct Uses<'w, 'm, 'a> {
            walker: &'w Walker<'a, 'm>,
            buf: &'w str,
            reader: *const syn::ExprCall,
            ok: bool,
        }
        impl Uses<'_, '_, '_> {
            fn writes(&self, arg: &Expr) -> bool {
                matches!(arg, Expr::Reference(r) if r.mutability.is_some()
                    && matches!(&*r.expr, Expr::Path(p) if p.path.is_ident(self.buf)))
            }
        }
        impl<'v> Visit<'v> for Uses<'_, '_, '_> {
            fn visit_expr_call(&mut self, c: &'v syn::ExprCall) {
                if std::ptr::eq(c, self.reader) {
                    return;
                }
                let (crate_fn, reads) = match &*c.func {
                    Expr::Path(p) => (
                        matches!(
                            self.walker.resolver.path_target(p, &Locals::default()),
                            Target::Fn(_)
                        ),
                        p.path
                            .segments
                            .last()
                            .is_some_and(|s| reads_into(&s.ident.to_string())),
                    ),
                    _ => (false, true),
                };
                for arg in &c.args {
                    if self.writes(arg) {
                        self.ok &= crate_fn || !reads;
                    } else {
                        self.visit_expr(arg);
                    }
                }
                self.visit_expr(&c.func);
            }
            fn visit_expr_method_call(&mut self, m: &'v syn::ExprMethodCall) {
                let on_buf =
                    matches!(strip_refs(&m.receiver), Expr::Path(p) if p.path.is_ident(self.buf));
                // `buf.len()`, `buf.into_inner()`: a method given nothing puts nothing in it.
                if on_buf && m.args.is_empty() {
                    return;
                }
                for arg in &m.args {
                    if self.writes(arg) {
                        self.ok &= !reads_into(&m.method.to_string());
                    } else {
                        self.visit_expr(arg);
                    }
                }
                self.visit_expr(&m.receiver);
            }
            fn visit_expr_path(&mut self, p: &'v syn::ExprPath) {
                if p.path.is_ident(self.buf) {
                    self.ok = false;
                }
            }
            fn visit_item(&mut self, _: &'v syn::Item) {}
        }
        let mut uses = Uses {
            walker: self,
            buf,
            reader,
            ok: true,
        };
        uses.visit_block(block);
        uses.ok
    }

    /// What the `Err(binding)` branch just walked (its sites from `sites_from` on) does with the
    /// error.
    pub(super) fn err_answer(
        &self,
        branch: Branch<'_>,
        binding: Option<&str>,
        sites_from: usize,
    ) -> ErrAnswer {
        let Some(name) = binding else {
            return ErrAnswer::Answered;
        };
        let passes = branch.passes_on(name);
        // A protocol error rebuilt from the error passes it on when its code comes from it
        // (`McpError::new(e.code(), ..)`); one with a code of its own
        // (`McpError::internal_error(format!("Search error: {e}"), None)`) replaces it, and is
        // the one answer that goes out.
        let rebuilt = self.facts.sites[sites_from..].iter().any(|(s, _)| {
            s.channel == Channel::Protocol
                && s.path.uses_error
                && (s.code.is_none() || s.variant.is_some())
        });
        if passes || rebuilt {
            return ErrAnswer::PassedOn;
        }
        match self.crate_call_with(branch, name) {
            Some(callee) => ErrAnswer::HandedTo(callee),
            None => ErrAnswer::Answered,
        }
    }

    /// Set what the call `scrutinee` makes does with its error, from the answers of the
    /// branches that bind it.
    pub(super) fn settle_error_of(&mut self, scrutinee: &Expr, answers: &[ErrAnswer]) {
        let Some(&edge) = call_address(scrutinee).and_then(|a| self.edge_of_call.get(&a)) else {
            return;
        };
        if answers.is_empty() || answers.iter().any(|a| matches!(a, ErrAnswer::PassedOn)) {
            return;
        }
        let handed: Vec<&Callee> = answers
            .iter()
            .filter_map(|a| match a {
                ErrAnswer::HandedTo(c) => Some(c),
                _ => None,
            })
            .collect();
        let edge = &mut self.facts.calls[edge];
        match handed.as_slice() {
            [] => edge.error_dropped = true,
            [first, rest @ ..] if rest.iter().all(|c| c == first) => {
                edge.error_passed_to = Some((*first).clone());
            }
            _ => {}
        }
    }

    /// The crate fn a call in `branch` hands the error `name` to (`tool_error_result(&e)`,
    /// `self.answer(e.code, ..)`): the first such call's.
    fn crate_call_with(&self, branch: Branch<'_>, name: &str) -> Option<Callee> {
        struct Calls<'w, 'a, 'm> {
            walker: &'w Walker<'a, 'm>,
            name: &'w str,
            found: Option<Callee>,
        }
        impl<'v> Visit<'v> for Calls<'_, '_, '_> {
            fn visit_expr(&mut self, e: &'v Expr) {
                if self.found.is_some() {
                    return;
                }
                let args: Vec<&Expr> = match e {
                    Expr::Call(c) => c.args.iter().collect(),
                    Expr::MethodCall(mc) => std::iter::once(&*mc.receiver)
                        .chain(mc.args.iter())
                        .collect(),
                    _ => Vec::new(),
                };
                if args.iter().any(|a| names_local(a, self.name)) {
                    self.found = self
                        .walker
                        .call_target(e)
                        .and_then(|t| self.walker.callee(t));
                }
                visit::visit_expr(self, e);
            }
            fn visit_item(&mut self, _: &'v syn::Item) {}
        }
        let mut calls = Calls {
            walker: self,
            name,
            found: None,
        };
        branch.visit(&mut calls);
        calls.found
    }

    /// The request's tool name (`request.name`) when `expr` reads it, as the answer names it.
    pub(super) fn reads_tool_name(&self, expr: &Expr) -> Option<String> {
        struct Reads<'n> {
            params: &'n [String],
            found: Option<String>,
        }
        impl<'v> Visit<'v> for Reads<'_> {
            fn visit_expr_field(&mut self, f: &'v syn::ExprField) {
                let named = matches!(&f.member, syn::Member::Named(m) if m == "name");
                if let (true, Expr::Path(p)) = (named, &*f.base) {
                    if let Some(base) = p.path.get_ident() {
                        if self.params.iter().any(|r| base == r) {
                            self.found.get_or_insert_with(|| format!("{base}.name"));
                        }
                    }
                }
                visit::visit_expr_field(self, f);
            }
            fn visit_item(&mut self, _: &'v syn::Item) {}
        }
        let mut reads = Reads {
            params: &self.request_params,
            found: None,
        };
        reads.visit_expr(expr);
        reads.found
    }

    /// Record that the call `expr` makes (through `&`, parentheses and `.await`) has its error
    /// value used up here ([`crate::model::site::CallEdge::error_dropped`]).
    pub(super) fn drop_error_of(&mut self, expr: &Expr) {
        if let Some(address) = call_address(expr) {
            self.error_dropped.insert(address);
        }
    }

    /// `if extra.is_cancelled() { return Err(..) }`: a branch taken on the state of the SDK's
    /// request context (cancellation, the server's own metadata) or on what the client
    /// declared (`if !peer.peer_info()..capabilities.sampling.is_some()`) fails for the
    /// server's or the session's reason, not the tool's, so the `then` block is walked as the
    /// failure of that condition.
    pub(super) fn guards_on_request_context(&mut self, i: &'a syn::ExprIf) -> bool {
        let (cond, _) = without_not(&i.cond);
        let declaration = self.reads_client_declaration(cond);
        if !declaration && !self.calls_request_context(cond) {
            return false;
        }
        self.visit_expr(&i.cond);
        let frame = Frame::failing(cond);
        // `if claims.role == "admin" { .. } else { Err(..) }`: a comparison's failure is the
        // branch that answers `Err`, whichever it is, and so is a test of the client's
        // declaration (`is_some_and`, `is_none`: either way round); `if extra.is_cancelled()
        // { .. }` fails in its `then`.
        let comparison = declaration || matches!(cond, Expr::Binary(_));
        if !comparison || block_answers_err(&i.then_branch) {
            self.with_frame(frame.clone(), |w| w.visit_block(&i.then_branch));
        } else {
            self.visit_block(&i.then_branch);
        }
        if let Some((_, e)) = &i.else_branch {
            match &**e {
                Expr::Block(b) if comparison && block_answers_err(&b.block) => {
                    self.with_frame(frame, |w| w.visit_expr(e))
                }
                _ => self.visit_expr(e),
            }
        }
        true
    }

    /// `if declared { return Ok(()); }` where the condition reads what the client declared in
    /// `initialize`: the statements after it run when the client did not declare it, so they
    /// are that check's failure path (the guard written the other way round from `if
    /// !declared { return Err(..) }`). The condition, when `s` is such a guard.
    pub(super) fn declaration_guard(&self, s: &'a syn::Stmt) -> Option<&'a Expr> {
        let syn::Stmt::Expr(Expr::If(i), _) = s else {
            return None;
        };
        let exits_ok = matches!(i.then_branch.stmts.last(), Some(syn::Stmt::Expr(Expr::Return(r), _))
            if r.expr.as_deref().is_some_and(crate::syntax::is_ok_call));
        let negated = without_not(&i.cond).1;
        (i.else_branch.is_none() && exits_ok && !negated && self.reads_client_declaration(&i.cond))
            .then_some(&*i.cond)
    }

    /// `if output.status.success() { .. } else { here }`, `if !resp.status().is_success() { here }`:
    /// the branch taken when an operation's outcome says it failed is that failure's path (not
    /// a definite one: its answer may be a recovery), so an answer there that says it failed is
    /// the failure answer.
    pub(super) fn branches_on_outcome(&mut self, i: &'a syn::ExprIf) -> bool {
        let (cond, negated) = without_not(&i.cond);
        let succeeded = match outcome_test(cond).or_else(|| self.crate_outcome_test(cond)) {
            Some(says_success) => says_success != negated,
            None => return false,
        };
        self.visit_expr(&i.cond);
        let frame = Frame::failing(cond);
        if succeeded {
            self.visit_block(&i.then_branch);
            if let Some((_, e)) = &i.else_branch {
                self.with_frame(frame, |w| w.visit_expr(e));
            }
        } else {
            self.with_frame(frame, |w| w.visit_block(&i.then_branch));
            if let Some((_, e)) = &i.else_branch {
                self.visit_expr(e);
            }
        }
        true
    }

    /// `out.success()` of a crate method `fn success(&self) -> bool` (`is_success`,
    /// `succeeded`, `passed`): the crate's own test of an outcome's success.
    fn crate_outcome_test(&self, cond: &Expr) -> Option<bool> {
        let Expr::MethodCall(mc) = cond else {
            return None;
        };
        let named = ["success", "is_success", "succeeded", "passed"]
            .contains(&mc.method.to_string().as_str());
        let Some(Target::Fn(f)) = self
            .call_target(cond)
            .filter(|_| named && mc.args.is_empty())
        else {
            return None;
        };
        matches!(self.calls.types.return_syntax(f),
            Some(syn::ReturnType::Type(_, t)) if crate::syntax::type_name(t).as_deref() == Some("bool"))
        .then_some(true)
    }

    /// The local a method `match`'s scrutinee reads from (`req` of `req.method.as_str()`, also
    /// through a local: `request` of `let method = request.get("method")..; match method`).
    fn request_local(&self, scrutinee: &Expr) -> Option<String> {
        let mut e = scrutinee;
        let mut found = None;
        for _ in 0..4 {
            let root = super::calls::read_root(e);
            let Expr::Path(p) = root else {
                break;
            };
            found = Some(p.path.get_ident()?.to_string());
            match self.let_init(root) {
                Some(init) => e = init,
                None => break,
            }
        }
        found
    }

    pub(super) fn match_arm(&mut self, m: &'a syn::ExprMatch, arm: &'a syn::Arm, lookup: bool) {
        {
            if self.arm.is_none() && self.dialect.is_tool_call_arm(&arm.pat) {
                // `RequestFromClient::CallToolRequest(params) =>`: this arm answers tool calls.
                self.arm = Some(SiteContext::Tool {
                    tools: vec![TOOL_CALL_ARM.to_string()],
                    helper: None,
                });
                self.in_tool_call_arm = true;
                // `match req.method.as_str() { "tools/call" => .. }` in a loop over parsed lines:
                // what the method was read from is the request, in this arm as a handler's
                // request parameter would be.
                let request = self
                    .request_local(&m.expr)
                    .filter(|r| !self.request_params.contains(r));
                if let Some(r) = &request {
                    self.request_params.push(r.clone());
                }
                // `RequestFromClient::CallToolRequest(params) =>`: what the arm binds is the
                // request's params, which a helper it is handed picks the tool from.
                let bound: Vec<String> = crate::syntax::pat_idents(&arm.pat)
                    .into_iter()
                    .filter(|b| !self.request_params.contains(b))
                    .collect();
                let pushed = self.request_params.len();
                self.request_params.extend(bound);
                if let Some((_, g)) = &arm.guard {
                    self.visit_expr(g);
                }
                // `"tools/call" if !session.initialized => rpc_error(..)`: the guard tests the
                // server's own state before any tool is picked, as an `if` first in the arm would.
                let state_guard = arm
                    .guard
                    .as_ref()
                    .is_some_and(|(_, g)| self.tests_server_state_before_tool_pick(g));
                self.route_state_branches += usize::from(state_guard);
                self.visit_expr(&arm.body);
                self.route_state_branches -= usize::from(state_guard);
                self.request_params.truncate(pushed);
                if request.is_some() {
                    self.request_params.pop();
                }
                self.in_tool_call_arm = false;
                self.arm = None;
                return;
            }
            // `match Tools::try_from(params) { Ok(t) => t, Err(e) => .. }`: the `?` of a tool-enum
            // conversion written out; the `Err` arm answers the unknown tool.
            if variant_binding(&arm.pat, "Err").is_some() && self.converts_to_tool_enum(&m.expr) {
                if let Some((_, g)) = &arm.guard {
                    self.visit_expr(g);
                }
                // `Err(_) if !MyTools::tools().iter().any(|t| t.name == name) => ..` before it
                // answered the unknown names: this `Err` is of a known tool's arguments.
                if !self.unknown_names_answered_before(m, arm) {
                    return self.visit_unknown_tool_branch("params.name".to_string(), &arm.body);
                }
                return self.visit_expr(&arm.body);
            }
            // `match parse_name(request.name) { .., Err(e) => .. }` before a tool is picked: the
            // request names no tool the server has.
            // An arm for one of its error variants (`Err(NameError::Reserved(t))`) is a name the
            // server knows and handles: no failure.
            let parsed_name = (self.picking_tool()
                && variant_binding(&arm.pat, "Err").is_some()
                && !runs_the_tool(&m.expr))
            .then(|| self.reads_tool_name(&m.expr))
            .flatten();
            if let Some(name) = parsed_name {
                if let Some((_, g)) = &arm.guard {
                    self.visit_expr(g);
                }
                if catches_any_error(&arm.pat) {
                    return self.visit_unknown_tool_branch(name, &arm.body);
                }
                return self.visit_expr(&arm.body);
            }
            if is_none_pat(&arm.pat) {
                if let Some(name) = self.tool_registry_lookup(&m.expr) {
                    if let Some((_, g)) = &arm.guard {
                        self.visit_expr(g);
                    }
                    return self.visit_unknown_tool_branch(name, &arm.body);
                }
            }
            // What a `None` arm tests: the lookup a local holds, or the scrutinee itself.
            let source = if is_none_pat(&arm.pat) {
                self.lookup_source(&m.expr)
            } else {
                &m.expr
            };
            let failed_outcome = failed_outcome_guard(m, arm);
            // `Ok(Err(e)) =>` of a joined task or a timeout: the error of the value the task or
            // future answers (`spawn_blocking(move || read(&path)).await`).
            let joined_error = nested_err_binding(&arm.pat)
                .and_then(|binding| Some((binding, self.joined_value(&m.expr)?)));
            let frame = match &arm.pat {
                // `Ok(o) if o.status.success() => .., Ok(o) => here`: the outcome said it failed.
                _ if failed_outcome.is_some() => failed_outcome.map(Frame::failing),
                _ if joined_error.is_some() => joined_error.map(|(binding, value)| Frame {
                    kind: FrameKind::Failure,
                    binding,
                    cause: Some(value),
                    definite: true,
                    joined: true,
                }),
                // `Err(e) if e.kind() == ErrorKind::NotFound =>` of `fs::remove_file(..)`: the
                // thing is already gone, which is what the removal was for.
                p if variant_binding(p, "Err").is_some() && already_removed(&m.expr, arm) => None,
                p if variant_binding(p, "Err").is_some() => Some(Frame {
                    kind: if lookup {
                        FrameKind::LookupMiss
                    } else {
                        FrameKind::Failure
                    },
                    binding: variant_binding(p, "Err").flatten(),
                    cause: Some(&m.expr),
                    definite: true,
                    joined: false,
                }),
                // `match extract(&p) { Ok(d) => d, _ => .. }`: the catch-all after an `Ok(d)`
                // arm takes every `Err` (and, under a guard on the `Ok` arm, some successes
                // too: then it is not certain).
                Pat::Wild(_) if arm.guard.is_none() && catch_all_is_err(m).is_some() => {
                    Some(Frame {
                        kind: if lookup {
                            FrameKind::LookupMiss
                        } else {
                            FrameKind::Failure
                        },
                        binding: None,
                        cause: Some(&m.expr),
                        definite: catch_all_is_err(m) == Some(true),
                        joined: false,
                    })
                }
                // `Ok(None) =>` of a call answering an optional value (`client.rule(id)`): what
                // was asked for is not there.
                p if is_ok_none(p) => Some(Frame {
                    kind: FrameKind::LookupMiss,
                    binding: None,
                    cause: Some(&m.expr),
                    definite: false,
                    joined: false,
                }),
                // `Ok(false) =>` of a call answering whether it acted (`client.click(id)`): the
                // action did not happen. Not certain: a yes/no query answers `false` on purpose,
                // so only an answer that says it failed is reported there.
                p if is_ok_false(p) => Some(Frame::failing(&m.expr)),
                p if is_none_pat(p) && lookup => Some(Frame {
                    kind: FrameKind::LookupMiss,
                    binding: None,
                    cause: Some(source),
                    definite: false,
                    joined: false,
                }),
                p if is_none_pat(p)
                    && self
                        .resolver
                        .reads_optional_schema_field(&m.expr, &self.locals) =>
                {
                    self.absent_optional += 1;
                    if let Some((_, g)) = &arm.guard {
                        self.visit_expr(g);
                    }
                    self.visit_expr(&arm.body);
                    self.absent_optional -= 1;
                    return;
                }
                // `match parts.headers.get("x-user") { None => Err(..) }`: the request lacks it.
                p if is_none_pat(p) && self.calls_request_context(&m.expr) => {
                    Some(Frame::failing(&m.expr))
                }
                // `match request.get("params") { None => .. }` before a tool is picked: the
                // request lacks a member, a shape the `CallToolRequest` schema answers.
                p if is_json_type_fallback(m, p)
                    || (is_none_pat(p) && self.local_reads_argument_field(&m.expr))
                    || (is_none_pat(p) && self.picking_tool() && reads_argument_field(&m.expr)) =>
                {
                    Some(Frame {
                        kind: FrameKind::WrongShape,
                        binding: None,
                        cause: Some(&m.expr),
                        definite: false,
                        joined: false,
                    })
                }
                // `None =>` of `client.instrument(id).await?` (directly or through a local): the
                // `Ok(None)` above, unwrapped first.
                p if is_none_pat(p) && unwraps_optional_answer(source) => Some(Frame {
                    kind: FrameKind::LookupMiss,
                    binding: None,
                    cause: Some(source),
                    definite: false,
                    joined: false,
                }),
                // `None =>` of any other optional value (`ws.used_range()`): nothing there. Not
                // certain to be a failure: only an answer that says it failed is reported.
                p if is_none_pat(p) => Some(Frame::failing(&m.expr)),
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
    pub(super) fn local_value(&mut self, local: &'a syn::Local) {
        let Some(init) = &local.init else {
            return visit::visit_local(self, local);
        };
        if let Pat::Ident(pi) = &local.pat {
            // `let name = name.to_string();`: a copy of what `name` held, which stays its value.
            let name = pi.ident.to_string();
            let copy = crate::syntax::through_methods(
                &init.expr,
                &["to_string", "to_owned", "clone", "as_str"],
            );
            let copies_itself = self.lets.contains_key(&name)
                && matches!(copy, Expr::Path(p) if p.path.is_ident(&pi.ident));
            if !copies_itself {
                self.lets.insert(name, &init.expr);
            }
        }
        // `let Some(name) = params.get("name").and_then(Value::as_str) else { .. }`: the
        // value `name` is read out of.
        // (`let Some(route) = route else`: what `route` held stays its value.)
        if let (Some(Some(name)), Some(_)) = (variant_binding(&local.pat, "Some"), &init.diverge) {
            let itself = matches!(&*init.expr, Expr::Path(p) if p.path.is_ident(&name));
            if !itself {
                self.lets.insert(name, &init.expr);
            }
        }
        if let Pat::Type(pt) = &local.pat {
            if let Pat::Ident(pi) = &*pt.pat {
                self.lets.insert(pi.ident.to_string(), &init.expr);
            }
        }
        // `let (tx, rx) = oneshot::channel();`: receiving fails only when the body's own
        // sender is gone.
        if let (Pat::Tuple(t), true) = (&local.pat, makes_channel(&init.expr)) {
            if let Some(Pat::Ident(rx)) = t.elems.iter().nth(1) {
                self.own_receivers.insert(rx.ident.to_string());
            }
            if let Some(Pat::Ident(tx)) = t.elems.first() {
                self.own_senders.insert(tx.ident.to_string());
            }
        }
        // `let (id, tx) = self.session_sender(..).await?;` with `-> Result<(String,
        // mpsc::Sender<Command>), E>`: the sending end of a channel of the server's own.
        if let Pat::Tuple(t) = &local.pat {
            let returned = self
                .called_fn(through_try(&init.expr))
                .and_then(|f| self.calls.types.return_syntax(f));
            if let Some(syn::ReturnType::Type(_, ty)) = returned {
                if let syn::Type::Tuple(elems) = crate::types::ok_type(ty).unwrap_or(ty) {
                    for (pat, ty) in t.elems.iter().zip(&elems.elems) {
                        if let (Pat::Ident(pi), true) = (pat, is_sender_type(ty)) {
                            self.own_senders.insert(pi.ident.to_string());
                        }
                    }
                }
            }
        }
        // `let (result, what) = match ask { A => (a, "x"), B => (b, "y") }`: each name's
        // values, one per branch.
        if let Pat::Tuple(t) = &local.pat {
            let mut leaves = Vec::new();
            super::calls::value_leaves(&init.expr, &mut leaves, 0);
            for (i, elem) in t.elems.iter().enumerate() {
                let Pat::Ident(pi) = elem else { continue };
                let values: Option<Vec<&'a Expr>> = leaves
                    .iter()
                    .map(|l| match l {
                        Expr::Tuple(tu) => tu.elems.iter().nth(i),
                        _ => None,
                    })
                    .collect();
                if let Some(values) = values.filter(|v| !v.is_empty()) {
                    self.let_candidates.insert(pi.ident.to_string(), values);
                }
            }
        }
        // `let Ok(x) = helper(..) else { .. }`: the error is not bound.
        if init.diverge.is_some() && variant_binding(&local.pat, "Ok").is_some() {
            self.drop_error_of(&init.expr);
        }
        self.visit_expr(&init.expr);
        if let Some((_, diverge)) = &init.diverge {
            // `let Some(tool) = self.tools.get(name) else { unknown }`: what follows runs the
            // tool found, so an answer naming the tool is that tool's, not the unknown tool's.
            let picks_tool = variant_binding(&local.pat, "Some").is_some()
                && self.tool_registry_lookup(&init.expr).is_some();
            self.visit_refuted(&local.pat, &init.expr, diverge);
            if picks_tool {
                self.tool_name_params.clear();
            }
        }
    }

    /// The `else` of `if let PAT = scrutinee` or `let PAT = scrutinee else`: a lookup miss when
    /// PAT is `Some(..)` on a lookup, a failure when PAT is `Ok(..)`.
    pub(super) fn visit_refuted(&mut self, pat: &Pat, scrutinee: &'a Expr, branch: &'a Expr) {
        let source = self.lookup_source(scrutinee);
        let lookup = self.is_map_lookup(source);
        let some = variant_binding(pat, "Some").is_some();
        if let (true, Some(name)) = (some, self.tool_registry_lookup(scrutinee)) {
            return self.visit_unknown_tool_branch(name, branch);
        }
        let miss = some && lookup;
        let failed = variant_binding(pat, "Ok").is_some();
        // `let Some(x) = args.get("x") else`, `let Some(s) = v.as_str() else`: the argument's
        // shape, recorded as the cause so the branch counts as schema-level.
        let shape =
            some && (reads_argument_field(scrutinee) || self.local_reads_argument_field(scrutinee));
        // `if let Some(n) = v.as_u64() { .. } else if let Some(s) = v.as_str() { here } else {
        // .. }`: the next branch tries another shape, and what fails inside it fails on a value
        // of that shape; only the last `else` is the shape refused.
        if shape {
            if let Expr::If(next) = branch {
                if let Expr::Let(l) = &*next.cond {
                    let another_shape = variant_binding(&l.pat, "Some").is_some()
                        && (reads_argument_field(&l.expr)
                            || self.local_reads_argument_field(&l.expr));
                    if another_shape {
                        return self.visit_expr(branch);
                    }
                }
            }
        }
        // `let Some(id) = req.id.clone() else`: the request's framing, not a tool's failure.
        let framing = some && self.reads_request_framing(scrutinee);
        // `let Some(city) = answered_city(&extra) else`: the request's own answers.
        let request = some && self.calls_request_context(scrutinee);
        if some && self.reads_optional_field(scrutinee) {
            self.absent_optional += 1;
            self.visit_expr(branch);
            self.absent_optional -= 1;
            return;
        }
        // `let Some(service) = service else` in the `"tools/call"` route before a tool is
        // picked: the route cannot dispatch this request.
        let route = some && self.in_tool_call_arm && self.picking_tool();
        if route {
            self.route_refusals
                .insert(scrutinee as *const Expr as usize);
        }
        // `if let Some(i) = client.instrument(id).await? { .. } else { here }`: what was asked
        // for is not there (as `Ok(None)`).
        let answered_none =
            some && !(shape || framing || request || route) && unwraps_optional_answer(source);
        // `if let Some(token) = guard.as_ref() { .. } else { here }` on `self.auth.lock()`, or a
        // `OnceCell` the server set at start-up, or an `Option` of its configuration (`let
        // Some(token) = &self.config.token else`): what is missing is the server's own state,
        // as for `guard.as_ref().ok_or_else(..)`.
        let own_state = some
            && !(shape || framing || request || route)
            && (self.misses_locked_own_state(scrutinee)
                || self.misses_once_cell(scrutinee)
                || self.misses_frozen_option(scrutinee));
        if !(miss || failed || shape || framing || request || route || answered_none || own_state) {
            // `let Some(client) = self.client.as_ref() else { here }`: the server's own state,
            // as an `if` that tests only `self`.
            let own = some && reads_only_self(scrutinee);
            return self.in_own_state_branch(own, |w| w.visit_expr(branch));
        }
        let kind = if lookup || answered_none {
            FrameKind::LookupMiss
        } else {
            FrameKind::Failure
        };
        let frame = Frame {
            kind,
            binding: None,
            cause: Some(if kind == FrameKind::LookupMiss {
                source
            } else {
                scrutinee
            }),
            definite: failed,
            joined: false,
        };
        self.with_frame(frame, |w| w.visit_expr(branch));
    }

    /// Visits a branch taken on the server's own state alone (`own`: `if self.client.is_none()`,
    /// the `else` of `let Some(c) = self.client.as_ref()`), unless a test of another value
    /// encloses it.
    pub(super) fn in_own_state_branch(&mut self, own: bool, visit: impl FnOnce(&mut Self)) {
        let own = usize::from(own && self.other_value_branches == 0);
        self.self_state_branches += own;
        visit(self);
        self.self_state_branches -= own;
    }

    /// `if let PAT = x { .. } else { .. }`: the `then` branch of `if let Err(e)` is a failure
    /// path, and so is the `else` of `if let Some(..)` on a lookup or of `if let Ok(..)`.
    pub(super) fn if_let(&mut self, i: &'a syn::ExprIf, l: &'a syn::ExprLet) {
        // `if let Ok(x) = helper(..)`: the error is not bound.
        if variant_binding(&l.pat, "Ok").is_some() {
            self.drop_error_of(&l.expr);
        }
        self.visit_expr(&l.expr);
        let lookup = self.is_map_lookup(&l.expr);
        // `if let Err(e) = x { here }`
        if let Some(binding) = variant_binding(&l.pat, "Err") {
            let kind = if lookup {
                FrameKind::LookupMiss
            } else {
                FrameKind::Failure
            };
            let sites_before = self.facts.sites.len();
            let name = binding.clone();
            self.with_frame(
                Frame {
                    kind,
                    binding,
                    cause: Some(&l.expr),
                    definite: true,
                    joined: false,
                },
                |w| w.visit_block(&i.then_branch),
            );
            let answer =
                self.err_answer(Branch::Block(&i.then_branch), name.as_deref(), sites_before);
            self.settle_error_of(&l.expr, &[answer]);
            if let Some((_, e)) = &i.else_branch {
                self.visit_expr(e);
            }
            return;
        }
        let other = usize::from(!reads_only_self(&l.expr));
        self.other_value_branches += other;
        self.visit_block(&i.then_branch);
        self.other_value_branches -= other;
        // `if let Some(x) = lookup { .. } else { here }`, `if let Ok(x) = y { .. } else { here }`
        if let Some((_, e)) = &i.else_branch {
            self.visit_refuted(&l.pat, &l.expr, e);
        }
    }

    /// `.map_err(..)`, `.ok_or(..)`, `.unwrap_or_else(..)` and the like: their closure (or
    /// value, or helper fn) runs on the receiver's failure. False for any other method.
    pub(super) fn failure_method(&mut self, mc: &'a syn::ExprMethodCall, method: &str) -> bool {
        let failure_closure = matches!(
            method,
            "map_err"
                | "unwrap_or_else"
                | "or_else"
                | "ok_or_else"
                | "ok_or"
                | "map_or_else"
                | "unwrap_or"
        );
        if !failure_closure {
            return false;
        }
        // `tools.get(&name).ok_or_else(|| ..)?` in a dispatcher: the unknown-tool answer.
        if method.starts_with("ok_or") {
            if let Some(name) = self.tool_registry_lookup(&mc.receiver) {
                self.visit_expr(&mc.receiver);
                for arg in &mc.args {
                    let answer = match arg {
                        Expr::Closure(c) => &*c.body,
                        other => other,
                    };
                    self.visit_unknown_tool_branch(name.clone(), answer);
                }
                return true;
            }
        }
        // The receiver is a crate fn that never fails: its error closure never runs. (One
        // that fails only on a server fault runs it there: its text is still read, under the
        // receiver's failure frame.)
        if matches!(method, "map_err" | "or_else" | "unwrap_or_else")
            && self.never_fails(&mc.receiver)
            && !self.fails_only_on_server_fault(&mc.receiver)
        {
            self.visit_expr(&mc.receiver);
            return true;
        }
        // `.ok_or("msg")`, `.map_err(|e| format!(..))` in a tool whose `Err` is an isError
        // result: the value is the isError text (whether `?` or the tail returns it).
        if self.body.returns.err == ErrChannel::ToolError && self.nested == 0 {
            let value = match (method, mc.args.first()) {
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
        let lookup = self.is_map_lookup(&mc.receiver) && method.starts_with("ok_or");
        let kind = if lookup {
            FrameKind::LookupMiss
        } else {
            FrameKind::Failure
        };
        // The frame of a fallback that is not a closure (`.map_err(helper)`, `.unwrap_or(v)`).
        let fallback = || Frame {
            kind,
            binding: None,
            cause: Some(&mc.receiver),
            definite: false,
            joined: false,
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
                    let sites_before = self.facts.sites.len();
                    let error_name = binding.clone();
                    self.with_frame(
                        Frame {
                            kind,
                            binding,
                            cause: Some(&mc.receiver),
                            definite,
                            joined: false,
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
                    // `helper().map_err(|e| McpError::internal_error(format!("x failed: {e}"),
                    // None))`: a protocol error of the closure's own code replaces the helper's,
                    // which then goes nowhere (as in an `Err(e) =>` arm).
                    let replaced = method == "map_err"
                        && self.facts.sites[sites_before..].iter().any(|(s, _)| {
                            s.channel == Channel::Protocol
                                && s.code.is_some()
                                && s.variant.is_none()
                        });
                    if replaced {
                        let answer = self.err_answer(
                            Branch::Expr(&c.body),
                            error_name.as_deref(),
                            sites_before,
                        );
                        self.settle_error_of(&mc.receiver, &[answer]);
                    }
                }
                Expr::Path(p) => {
                    // `.map_err(internal)`, `.map_err(Self::to_mcp)`: a helper builds the error.
                    if let Some(last) = p.path.segments.last() {
                        let name = last.ident.to_string();
                        if name == "from" || name == "into" {
                            // Only a conversion into the protocol error goes through the
                            // crate's `From<..> for McpError`: `.map_err(Into::into)` in a fn
                            // returning another error type converts into that one.
                            if self.converts_into_protocol_error(p) {
                                let span = self.file.span_of(arg);
                                self.conversion_edge(&mc.receiver, span);
                            }
                        } else {
                            self.with_frame(fallback(), |w| {
                                w.point_free_constructor(arg, p);
                            });
                            let target = self.resolver.path_target(p, &self.locals);
                            if let Some(callee) = self.callee(target) {
                                let span = self.file.span_of(arg);
                                self.push_edge(callee, span, Some(&mc.receiver), &[]);
                                self.edge_passes_errors_of(&mc.receiver);
                            }
                        }
                    }
                }
                other => self.with_frame(fallback(), |w| {
                    w.visit_expr(other);
                    if w.body.returns.ok_is_text
                        && w.body.kind == Some(HandlerKind::Tool)
                        && method == "unwrap_or"
                    {
                        w.text_success(other);
                    }
                }),
            }
        }
        true
    }
}

impl Walker<'_, '_> {
    /// Whether `expr` reads a request field the generated schema leaves optional: `req.x`, or a
    /// parameter bound to such a field by destructuring (`Parameters(Req { x, .. })`) that no
    /// `let` has rebound yet.
    pub(super) fn reads_optional_field(&self, expr: &Expr) -> bool {
        if self
            .resolver
            .reads_optional_schema_field(expr, &self.locals)
        {
            return true;
        }
        match through_borrowing_calls(expr) {
            Expr::Path(p) => {
                p.path
                    .get_ident()
                    .is_some_and(|i| self.optional_params.iter().any(|n| i == n))
                    // `let json = normalize_payload(params.json)`: the field, passed through.
                    || matches!(self.let_init(expr), Some(Expr::Call(c))
                        if c.args.len() == 1 && self.resolver.reads_optional_schema_field(&c.args[0], &self.locals))
            }
            _ => false,
        }
    }

    /// Whether `expr` reads inside a request field the generated input schema leaves free-form
    /// (`req.params.as_ref().and_then(|p| p.get("offset"))`, also through the locals it was
    /// kept in): the request matched the schema whatever that field holds.
    pub(super) fn reads_inside_free_form_field(&self, expr: &Expr) -> bool {
        let mut expr = expr;
        for _ in 0..8 {
            let mut kept_in = None;
            for step in super::calls::read_steps(expr) {
                match step {
                    Expr::Field(_)
                        if self
                            .resolver
                            .reads_free_form_schema_field(step, &self.locals) =>
                    {
                        return true
                    }
                    Expr::Path(_) => kept_in = self.let_init(step),
                    _ => {}
                }
            }
            match kept_in {
                Some(init) => expr = init,
                None => return false,
            }
        }
        false
    }

    /// A local bound to a read of an argument's JSON value (`let id = args.get("id")
    /// .and_then(|v| v.as_str())`): its `None` is the argument absent or of the wrong type.
    pub(super) fn local_reads_argument_field(&self, expr: &Expr) -> bool {
        self.let_init(expr).is_some_and(reads_argument_field)
    }

    /// `(Some(_), None) | (None, Some(_)) =>` of `match (self.width, self.height)`: an arm taken
    /// when some of a tuple of optional request fields are absent, a rule across them (the
    /// request matched the schema, which requires neither).
    pub(super) fn matches_optional_fields_absent(&self, scrutinee: &Expr, pat: &Pat) -> bool {
        fn has_none(pat: &Pat, width: usize) -> bool {
            match pat {
                Pat::Or(o) => o.cases.iter().all(|c| has_none(c, width)),
                Pat::Tuple(t) => t.elems.len() == width && t.elems.iter().any(is_none_pat),
                _ => false,
            }
        }
        let Expr::Tuple(t) = scrutinee else {
            return false;
        };
        t.elems.len() >= 2
            && has_none(pat, t.elems.len())
            && t.elems.iter().all(|e| self.reads_optional_field(e))
    }

    /// `req.x.is_none()`, alone or as an operand of `&&` / `||`: a test that a request field the
    /// generated schema leaves optional is absent.
    pub(super) fn tests_optional_field_absent(&self, cond: &Expr) -> bool {
        match cond {
            Expr::Paren(p) => self.tests_optional_field_absent(&p.expr),
            Expr::Binary(b) if matches!(b.op, syn::BinOp::And(_) | syn::BinOp::Or(_)) => {
                self.tests_optional_field_absent(&b.left)
                    || self.tests_optional_field_absent(&b.right)
            }
            Expr::MethodCall(m) if m.method == "is_none" && m.args.is_empty() => {
                self.reads_optional_field(&m.receiver)
            }
            // `args.names.as_ref().is_none_or(|d| d.is_empty())`: absent, or as good as.
            Expr::MethodCall(m) if m.method == "is_none_or" && m.args.len() == 1 => self
                .reads_optional_field(crate::syntax::through_methods(
                    &m.receiver,
                    &["as_ref", "as_deref"],
                )),
            _ => false,
        }
    }
}

/// The request's `_meta` member named in a text ("`_meta` must be an object"), not a word
/// that holds it (`include_metadata`, `has_meta`).
fn names_meta_member(text: &str) -> bool {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    text.match_indices("_meta").any(|(i, m)| {
        !word(text[..i].chars().next_back()) && !word(text[i + m.len()..].chars().next())
    })
}

/// "required string argument 'x' is missing", "field `y` is required", "'x' required": a
/// required argument, field or parameter that is absent.
pub(super) fn names_absent_argument(text: &str) -> bool {
    let absent = text.contains("required") || text.contains("missing");
    let what = ["argument", "field", "param", "property"]
        .iter()
        .any(|w| text.contains(w));
    // Only a quoted name before it: `'preset' required`, "`{}` required".
    let quoted_name_required = text.strip_suffix(" required").is_some_and(|name| {
        let name = name.trim();
        let quoted = ['\'', '`', '"']
            .iter()
            .any(|q| name.len() >= 2 && name.starts_with(*q) && name.ends_with(*q));
        quoted && !name[1..name.len() - 1].trim().contains(' ')
    });
    (absent && what) || quoted_name_required
}

/// `Ok(None)`.
fn is_ok_none(pat: &Pat) -> bool {
    matches!(pat, Pat::TupleStruct(ts) if ts.path.is_ident("Ok")
        && ts.elems.len() == 1 && is_none_pat(&ts.elems[0]))
}

/// `Ok(false)`.
fn is_ok_false(pat: &Pat) -> bool {
    matches!(pat, Pat::TupleStruct(ts) if ts.path.is_ident("Ok")
        && ts.elems.len() == 1
        && matches!(&ts.elems[0], Pat::Lit(l) if matches!(&l.lit, syn::Lit::Bool(b) if !b.value)))
}

/// `Err(e)`, `Err(_)`: an arm taking every error (not one variant of it).
fn catches_any_error(pat: &Pat) -> bool {
    matches!(pat, Pat::TupleStruct(ts) if ts.path.is_ident("Err")
        && matches!(ts.elems.first(), Some(Pat::Ident(_) | Pat::Wild(_))))
}

/// `_`, `None`, `Some(_)`: an arm that takes what the others do not.
fn is_fallback_pat(pat: &Pat) -> bool {
    match pat {
        Pat::Wild(_) => true,
        p if is_none_pat(p) => true,
        Pat::TupleStruct(ts) => {
            ts.path.is_ident("Some") && ts.elems.len() == 1 && matches!(ts.elems[0], Pat::Wild(_))
        }
        _ => false,
    }
}

/// The arm for an absent or mistyped JSON value: the fallback of a match whose arms name
/// `Value::String`/`Number`/.. variants (also inside `Some(..)`), or the `None` of a match on a
/// JSON accessor (`match v.as_str() { Some(s) => .., None => .. }`; its `_` after string
/// literals is a value check).
fn is_json_type_fallback(m: &syn::ExprMatch, pat: &Pat) -> bool {
    fn names_json_variant(pat: &Pat) -> bool {
        let variant = |path: &syn::Path| {
            let segs = path_segments(path);
            matches!(segs.as_slice(), [.., ty, v] if ty == "Value"
                && matches!(v.as_str(), "String" | "Number" | "Bool" | "Array" | "Object" | "Null"))
        };
        match pat {
            Pat::TupleStruct(ts) if ts.path.is_ident("Some") => {
                ts.elems.iter().any(names_json_variant)
            }
            Pat::TupleStruct(ts) => variant(&ts.path),
            Pat::Path(p) => variant(&p.path),
            Pat::Or(o) => o.cases.iter().any(names_json_variant),
            _ => false,
        }
    }
    let accessor = matches!(strip_await(&m.expr), Expr::MethodCall(mc)
        if mc.args.is_empty() && reads_argument_field(&m.expr));
    // `Some(other) => Err(..("must be a string, got {other}"))`: a catch-all that binds the
    // value is a fallback too; after an arm whose guard tests the value (`Some(Value::Number(n))
    // if n.is_u64()`) it also catches values of the right type: a value check.
    let catch_all = is_fallback_pat(pat)
        || matches!(pat, Pat::Ident(i) if i.subpat.is_none())
        || matches!(pat, Pat::TupleStruct(ts) if ts.path.is_ident("Some")
            && matches!(&ts.elems.iter().collect::<Vec<_>>()[..], [Pat::Ident(i)] if i.subpat.is_none()));
    let typed_arms: Vec<&syn::Arm> = m
        .arms
        .iter()
        .filter(|a| names_json_variant(&a.pat))
        .collect();
    (accessor && is_none_pat(pat))
        || (catch_all && !typed_arms.is_empty() && typed_arms.iter().all(|a| a.guard.is_none()))
}

/// `serde_json::from_str(..)` (any format crate's, or imported bare): decoding the arguments
/// into a type, which the schema answers. `SortOrder::from_str(s)` is a type's `FromStr`, a
/// check of the value.
fn deserializes_text(expr: &Expr) -> bool {
    struct Finder(bool);
    impl<'v> Visit<'v> for Finder {
        fn visit_expr_call(&mut self, c: &'v syn::ExprCall) {
            if let Expr::Path(p) = &*c.func {
                let segs: Vec<String> = p
                    .path
                    .segments
                    .iter()
                    .map(|s| s.ident.to_string())
                    .collect();
                let module_fn = match segs.as_slice() {
                    [.., owner, f] if f == "from_str" => {
                        !owner.starts_with(|c: char| c.is_uppercase()) && owner != "Self"
                    }
                    [f] => f == "from_str",
                    _ => false,
                };
                self.0 |= module_fn;
            }
            visit::visit_expr_call(self, c);
        }
        fn visit_item(&mut self, _: &'v syn::Item) {}
    }
    let mut f = Finder(false);
    f.visit_expr(expr);
    f.0
}

/// Whether an expression (a failed operation) calls any of `names`.
pub(super) fn calls_any(expr: &Expr, names: &[&str]) -> bool {
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
pub(super) fn reads_argument_field(expr: &Expr) -> bool {
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
            // `.and_then(Value::as_str).map(str::to_string)`: an adapter over the read.
            // Only over a member read (`n.as_u64().map(Some)` on a number already read is a
            // check of its value).
            let adapted = matches!(
                name.as_str(),
                "map" | "cloned" | "copied" | "to_string" | "to_owned" | "as_deref"
            ) && matches!(strip_await(&m.receiver), Expr::MethodCall(r)
                if (r.method == "get" || r.method == "and_then") && reads_argument_field(&m.receiver));
            field_get || json_accessor || mapped_accessor || adapted
        }
        _ => false,
    }
}

/// `Vec::new()`, `Vec::with_capacity(..)`, `String::new()`, `vec![]`, `Cursor::new(Vec::new())`:
/// an empty buffer.
fn is_empty_buffer(init: &Expr) -> bool {
    match init {
        Expr::Call(c) => match &*c.func {
            Expr::Path(p) => match path_segments(&p.path).as_slice() {
                [.., ty, f]
                    if (ty == "Vec" || ty == "String") && (f == "new" || f == "with_capacity") =>
                {
                    true
                }
                [.., ty, f] if ty == "Cursor" && f == "new" => {
                    c.args.first().is_some_and(is_empty_buffer)
                }
                _ => false,
            },
            _ => false,
        },
        Expr::Macro(m) => m.mac.path.is_ident("vec") && m.mac.tokens.is_empty(),
        _ => false,
    }
}

/// The `std::io` ways of filling a buffer from a source (`read_to_end`, `read_exact`,
/// `recv_from`, `io::copy`): what they put in it came from outside the server.
fn reads_into(name: &str) -> bool {
    name.starts_with("read") || name.starts_with("recv") || name == "copy" || name == "fill_buf"
}

/// `serde_json::to_string(..)` and friends: serialising the server's own output.
pub(super) fn is_serializing_call(expr: &Expr) -> bool {
    struct Finder(bool);
    impl<'v> Visit<'v> for Finder {
        fn visit_expr_call(&mut self, c: &'v syn::ExprCall) {
            if let Expr::Path(p) = &*c.func {
                let segs = path_segments(&p.path);
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

/// An `Err` arm guarded by `e.kind() == ErrorKind::NotFound` over a removal of a file or
/// directory (`std::fs::remove_file(p)`, `tokio::fs::remove_dir_all(p).await`).
fn already_removed(scrutinee: &Expr, arm: &syn::Arm) -> bool {
    let Some((_, guard)) = &arm.guard else {
        return false;
    };
    let guard = guard.to_token_stream_string();
    let removal = match strip_await(scrutinee) {
        Expr::Call(c) => matches!(&*c.func, Expr::Path(p) if matches!(
            last_segment(&p.path).as_deref(),
            Some("remove_file" | "remove_dir" | "remove_dir_all")
        )),
        _ => false,
    };
    removal && guard.contains("kind") && guard.contains("NotFound")
}

/// `x.get(&id)`, `map.remove(key)`: a lookup on a runtime key (not a string literal, which is
/// reading a field of the arguments).
impl Walker<'_, '_> {
    /// A condition true when a lookup misses: `x.get(k).is_none()`, `!x.get(k).is_some()`,
    /// `!x.contains_key(k)`; the lookup.
    pub(super) fn missed_lookup<'e>(&self, cond: &'e Expr) -> Option<&'e Expr> {
        let (test, negated) = without_not(cond);
        let Expr::MethodCall(m) = test else {
            return None;
        };
        match (m.method.to_string().as_str(), negated) {
            ("is_none", false) | ("is_some", true) => {
                self.is_map_lookup(&m.receiver).then_some(&*m.receiver)
            }
            ("contains_key", true) => is_lookup(test).then_some(test),
            _ => None,
        }
    }

    /// [`lookup_names`], also of a crate fn that looks up its argument
    /// (`self.scans.next_page(&args.scan_id, 3)`: `self.scans &args.scan_id`).
    fn lookup_names(&self, cause: &Expr) -> Option<String> {
        lookup_names(cause).or_else(|| {
            let at = usize::from(self.called_facts(cause)?.lookup_of_param?);
            let (receiver, args) = match strip_await(cause) {
                Expr::MethodCall(m) => (m.receiver.to_token_stream_string(), &m.args),
                Expr::Call(c) => (String::new(), &c.args),
                _ => return None,
            };
            Some(format!(
                "{receiver} {}",
                args.get(at)?.to_token_stream_string()
            ))
        })
    }

    /// [`is_lookup`], unless the `get` resolves to a crate fn that is no lookup (an HTTP client's
    /// `self.client.get::<T>(&url)`): the source says which fn it is.
    pub(super) fn is_map_lookup(&self, expr: &Expr) -> bool {
        // `find_sheet(&wb, &input.sheet_name)`, a crate fn whose value is a lookup of the key
        // it is given (`wb.sheet_names().iter().position(|n| *n == name)`).
        if let Expr::Call(_) = strip_await(expr) {
            return self
                .called_facts(expr)
                .is_some_and(|facts| facts.lookup_of_param.is_some());
        }
        if !is_lookup(expr) {
            // `self.store.find(&id)`, a crate method whose value is a lookup of the key it is
            // given (`self.docs.read().await.get(id).cloned()`).
            return matches!(strip_await(expr), Expr::MethodCall(_))
                && self
                    .called_fn(expr)
                    .and_then(|f| self.calls.fn_facts(f))
                    .is_some_and(|facts| facts.lookup_of_param.is_some());
        }
        let Some(call) = lookup_call(expr) else {
            return true;
        };
        let method = call.method.to_string();
        match self
            .resolver
            .method_target(&call.receiver, &method, &self.locals)
        {
            crate::model::callgraph::Target::Fn(f) => self
                .calls
                .fn_facts(f)
                .is_some_and(|facts| facts.lookup_of_param.is_some()),
            _ => true,
        }
    }
}

pub(super) fn is_lookup(expr: &Expr) -> bool {
    match strip_await(expr) {
        Expr::MethodCall(m) => {
            let lookup = LOOKUP_METHODS.iter().any(|l| m.method == l)
                && m.args.len() == 1
                && !matches!(&m.args[0], Expr::Lit(_));
            lookup
                || searched_key(m).is_some()
                || (matches!(
                    m.method.to_string().as_str(),
                    "cloned"
                        | "copied"
                        | "ok_or"
                        | "ok_or_else"
                        | "as_ref"
                        | "as_deref"
                        | "filter"
                        | "map"
                ) && is_lookup(&m.receiver))
        }
        Expr::Reference(r) => is_lookup(&r.expr),
        _ => false,
    }
}

/// `client.instrument(id).await.map_err(f)?`: a call's `Result<Option<T>>` unwrapped by `?`,
/// whose `None` (once a pattern tests it) is the `Ok(None)` of a service asked for something.
/// Also unwrapped by hand: `match client.instrument(id).await { Ok(v) => v, Err(e) => return .. }`.
pub(super) fn unwraps_optional_answer(expr: &Expr) -> bool {
    let operand = match strip_await(expr) {
        Expr::Try(t) => &*t.expr,
        Expr::Match(m) if m.arms.iter().any(yields_ok_binding) => &*m.expr,
        _ => return false,
    };
    let operand = crate::syntax::through_methods(
        operand,
        &[
            "map_err",
            "context",
            "with_context",
            "wrap_err",
            "wrap_err_with",
        ],
    );
    matches!(operand, Expr::Call(_) | Expr::MethodCall(_))
}

/// `Ok(v) => v`: the arm that hands on a `Result`'s value.
fn yields_ok_binding(arm: &syn::Arm) -> bool {
    let Some(Some(binding)) = variant_binding(&arm.pat, "Ok") else {
        return false;
    };
    matches!(tail_expr(&arm.body), Expr::Path(p) if p.path.is_ident(&binding))
}

/// The token text of the store and the key of the lookup inside a cause chain
/// (`sessions.get(&session_id)` → `sessions & session_id`), for the lints that judge what the
/// lookup is.
pub(super) fn lookup_names(expr: &Expr) -> Option<String> {
    lookup_call(expr).map(|m| {
        format!(
            "{} {}",
            m.receiver.to_token_stream_string(),
            lookup_key(m).to_token_stream_string()
        )
    })
}

/// The key a lookup call looks for: its argument (`tools.get(&name)`), or what a search
/// compares each item with (`names.iter().position(|n| *n == name)`: `name`).
pub(super) fn lookup_key(m: &syn::ExprMethodCall) -> &Expr {
    searched_key(m).unwrap_or(&m.args[0])
}

/// `iter().position(|n| *n == name)`, `iter().find(|t| t.name == name)`: a search for the item
/// equal to a key; the key (the side of `==` that is not the item).
pub(super) fn searched_key(m: &syn::ExprMethodCall) -> Option<&Expr> {
    if !(m.method == "position" || m.method == "find") || m.args.len() != 1 {
        return None;
    }
    let Expr::Closure(c) = &m.args[0] else {
        return None;
    };
    let [param] = c.inputs.iter().collect::<Vec<_>>()[..] else {
        return None;
    };
    let param = match param {
        Pat::Reference(r) => &*r.pat,
        other => other,
    };
    let item = crate::syntax::pat_ident(param)?;
    let Expr::Binary(b) = crate::syntax::tail_expr(&c.body) else {
        return None;
    };
    if !matches!(b.op, syn::BinOp::Eq(_)) {
        return None;
    }
    let mentions_item = |e: &Expr| mentions_ident(&e.to_token_stream_string(), &item);
    match (mentions_item(&b.left), mentions_item(&b.right)) {
        (true, false) => Some(strip_item_access(&b.right)),
        (false, true) => Some(strip_item_access(&b.left)),
        _ => None,
    }
}

/// `*name`, `&name`, `name.as_str()`: the key itself.
fn strip_item_access(e: &Expr) -> &Expr {
    match e {
        Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => strip_item_access(&u.expr),
        Expr::Reference(r) => strip_item_access(&r.expr),
        Expr::MethodCall(m)
            if m.args.is_empty() && (m.method == "as_str" || m.method == "as_ref") =>
        {
            strip_item_access(&m.receiver)
        }
        other => other,
    }
}

/// The lookup call inside a cause chain (`tools.get(&name)` in `tools.get(&name).cloned()`).
pub(super) fn lookup_call(expr: &Expr) -> Option<&syn::ExprMethodCall> {
    match strip_await(expr) {
        Expr::MethodCall(m)
            if LOOKUP_METHODS.iter().any(|l| m.method == l) && m.args.len() == 1 =>
        {
            Some(m)
        }
        Expr::MethodCall(m) if searched_key(m).is_some() => Some(m),
        Expr::MethodCall(m) => lookup_call(&m.receiver),
        Expr::Reference(r) => lookup_call(&r.expr),
        _ => None,
    }
}

/// A block whose last statement answers `Err(..)` (as its value or by `return`).
fn block_answers_err(b: &syn::Block) -> bool {
    let last = match b.stmts.last() {
        Some(syn::Stmt::Expr(e, _)) => e,
        _ => return false,
    };
    let value = match last {
        Expr::Return(r) => match &r.expr {
            Some(v) => &**v,
            None => return false,
        },
        other => other,
    };
    matches!(value, Expr::Call(c) if matches!(&*c.func, Expr::Path(p) if p.path.is_ident("Err")))
}

/// `ElicitationSchema::builder().required_bool_with("confirm", |f| f.title("Confirm")).build()`:
/// a builder the server fills with its own values only (literals, constants, closures that set
/// literals on what they are handed); its `build()` fails only on the server's own mistake.
fn builds_own_value(cause: &Expr, own_local: &dyn Fn(&Expr) -> bool) -> bool {
    fn own_arg(a: &Expr, own_local: &dyn Fn(&Expr) -> bool) -> bool {
        match strip_refs(a) {
            // `"x"`, `TIMEOUT`, `concat!("app/", env!("CARGO_PKG_VERSION"))`.
            e if is_constant(e) => true,
            e @ Expr::Path(_) => own_local(e),
            // `Duration::from_secs(30)`: a value made of own values.
            Expr::Call(c) => {
                matches!(&*c.func, Expr::Path(_)) && c.args.iter().all(|a| own_arg(a, own_local))
            }
            Expr::Closure(c) => match (c.inputs.len(), c.inputs.first().and_then(pat_ident)) {
                (1, Some(param)) => chain_on(tail_expr(&c.body), Some(&param), own_local),
                _ => false,
            },
            _ => false,
        }
    }
    // A chain of methods given own arguments, down to the closure's parameter or to a
    // constructor (`Type::builder()`, `Type::new()`, `Type::default()`) given own arguments.
    fn chain_on(e: &Expr, param: Option<&str>, own_local: &dyn Fn(&Expr) -> bool) -> bool {
        match strip_await(e) {
            Expr::MethodCall(m) => {
                m.args.iter().all(|a| own_arg(a, own_local))
                    && chain_on(&m.receiver, param, own_local)
            }
            Expr::Path(p) => param.is_some_and(|n| p.path.is_ident(n)),
            Expr::Call(c) => {
                matches!(&*c.func, Expr::Path(p) if p.path.segments.len() >= 2
                && p.path.segments.last().is_some_and(|s| {
                    matches!(s.ident.to_string().as_str(), "builder" | "new" | "default")
                })) && c.args.iter().all(|a| own_arg(a, own_local))
            }
            _ => false,
        }
    }
    match strip_await(cause) {
        Expr::MethodCall(m) if m.method == "build" && m.args.is_empty() => {
            chain_on(&m.receiver, None, own_local)
        }
        _ => false,
    }
}

impl Walker<'_, '_> {
    /// `guard.as_ref()` where `guard = self.browser.lock().await` (also through `?`,
    /// `.map_err(..)` and methods given no values): the `None` of state the server keeps behind
    /// a lock and fills itself. The tool's input has no part in it: a fault of the server.
    fn misses_locked_own_state(&self, cause: &Expr) -> bool {
        let Expr::MethodCall(m) = strip_await(cause) else {
            return false;
        };
        let accessor = matches!(
            m.method.to_string().as_str(),
            "as_ref" | "as_mut" | "as_deref" | "as_deref_mut" | "clone" | "cloned" | "take"
        );
        accessor && m.args.is_empty() && self.locked_own_state(&m.receiver, false, 0)
    }

    /// `self.client.get()` on a field declared `OnceCell<..>` / `OnceLock<..>`, `CONFIG.get()` on
    /// such a `static`: state the server sets once at start-up, whose `None` is its own fault.
    fn misses_once_cell(&self, cause: &Expr) -> bool {
        let cause = crate::syntax::through_methods(
            cause,
            &["cloned", "copied", "as_ref", "as_deref", "map"],
        );
        let Some(scope) = self.body.scope else {
            return false;
        };
        // `config::get()` where `fn get() -> Option<&'static Config> { CONFIG.get() }`: the
        // crate's accessor of a static cell.
        if let Expr::Call(c) = strip_await(cause) {
            let Some(f) = self.called_fn(cause).filter(|_| c.args.is_empty()) else {
                return false;
            };
            let (Some((block, ..)), Some(callee)) =
                (self.calls.blocks.get(&f), self.calls.types.scope_of(f))
            else {
                return false;
            };
            return match &block.stmts[..] {
                [syn::Stmt::Expr(tail, None)] => self.misses_once_cell_in(tail, callee.module),
                _ => false,
            };
        }
        self.misses_once_cell_in(cause, scope.module)
    }

    /// [`Self::misses_once_cell`] of `cause` written in `module`: `self.cell.get()`, `CELL.get()`.
    fn misses_once_cell_in(&self, cause: &Expr, module: crate::resolve::ModuleId) -> bool {
        let Expr::MethodCall(m) = strip_await(cause) else {
            return false;
        };
        if m.method != "get" || !m.args.is_empty() {
            return false;
        }
        let declared = match strip_refs(&m.receiver) {
            Expr::Field(f) => self.declared_field_type(f),
            Expr::Path(p) => match self.calls.defs.resolve_path(module, &p.path, Ns::Values) {
                Some(Def::Item(id)) => match self.calls.defs.item(id).syntax {
                    syn::Item::Static(st) => Some(&*st.ty),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        };
        // `Arc<OnceLock<String>>`: a cell shared by the server's clones.
        declared
            .map(crate::types::through_wrappers)
            .and_then(crate::syntax::type_name)
            .is_some_and(|n| matches!(n.as_str(), "OnceCell" | "OnceLock"))
    }

    /// Whether `expr` reads only `self` (through locals, `?`, error mapping and methods given
    /// only literals) and, on the way, takes one of its locks.
    fn locked_own_state(&self, expr: &Expr, locked: bool, depth: usize) -> bool {
        if depth > 12 {
            return false;
        }
        match strip_await(expr) {
            Expr::Path(p) if p.path.is_ident("self") => locked,
            Expr::Path(_) => self
                .let_init(expr)
                .is_some_and(|init| self.locked_own_state(init, locked, depth + 1)),
            Expr::Field(f) => self.locked_own_state(&f.base, locked, depth + 1),
            Expr::Try(t) => self.locked_own_state(&t.expr, locked, depth + 1),
            Expr::Reference(r) => self.locked_own_state(&r.expr, locked, depth + 1),
            Expr::Unary(u) => self.locked_own_state(&u.expr, locked, depth + 1),
            Expr::MethodCall(m) => {
                let name = m.method.to_string();
                let maps_error = matches!(name.as_str(), "map_err" | "context" | "with_context");
                let lock = m.args.is_empty()
                    && matches!(name.as_str(), "lock" | "read" | "write" | "blocking_lock");
                (maps_error || m.args.iter().all(|a| matches!(a, Expr::Lit(_))))
                    && self.locked_own_state(&m.receiver, locked || lock, depth + 1)
            }
            _ => false,
        }
    }

    /// [`reads_only_self`], also through locals bound to such a read (`let guard =
    /// self.vars.read().await; guard.as_ref()`).
    fn reads_only_own_state(&self, expr: &Expr, depth: usize) -> bool {
        reads_only_self_or(expr, &|local| {
            depth < 4
                && self
                    .let_init(local)
                    .is_some_and(|init| self.reads_only_own_state(init, depth + 1))
        })
    }
}

/// `self.forge.as_deref()`, `self.config.enabled`: an expression over the server's own state
/// only (`self`, its fields, methods given nothing but literals).
pub(super) fn reads_only_self(expr: &Expr) -> bool {
    reads_only_self_or(expr, &|_| false)
}

/// A read of `self` (its fields, methods given only literals), or of a local `local` accepts.
fn reads_only_self_or(expr: &Expr, local: &dyn Fn(&Expr) -> bool) -> bool {
    match strip_await(expr) {
        Expr::Path(p) => p.path.is_ident("self") || local(expr),
        Expr::Field(f) => reads_only_self_or(&f.base, local),
        // `self.maintenance.load(Ordering::Relaxed)`: a literal or a path that names no local
        // (a variant, an associated const) reads nothing else.
        Expr::MethodCall(m) => {
            m.args.iter().all(|a| match a {
                Expr::Lit(_) => true,
                Expr::Path(p) => p.qself.is_none() && p.path.segments.len() > 1,
                _ => false,
            }) && reads_only_self_or(&m.receiver, local)
        }
        Expr::Reference(r) => reads_only_self_or(&r.expr, local),
        Expr::Paren(p) => reads_only_self_or(&p.expr, local),
        Expr::Unary(u) => reads_only_self_or(&u.expr, local),
        _ => false,
    }
}

/// `tokio::spawn(..)`, `task::spawn_blocking(..)`, `set.spawn(..)`: a call that starts a task
/// of the server's own, whose handle fails only with a `JoinError`.
pub(super) fn spawns_task(expr: &Expr) -> bool {
    match strip_await(expr) {
        Expr::Call(c) => matches!(&*c.func, Expr::Path(p) if p.path.segments.last()
            .is_some_and(|s| s.ident == "spawn" || s.ident == "spawn_blocking")
            && p.path.segments.len() >= 2),
        _ => false,
    }
}

/// The value a joined task or a timeout answers: what the closure or async block given to
/// `spawn` / `spawn_blocking` evaluates to, the future `timeout(duration, future)` awaits.
/// `Ok(Err(e))` of the join (or of the timeout) is that value's error.
fn joined_value(expr: &Expr) -> Option<&Expr> {
    let Expr::Call(c) = strip_await(expr) else {
        return None;
    };
    let Expr::Path(p) = &*c.func else {
        return None;
    };
    let last = p.path.segments.last()?.ident.to_string();
    let task = match (last.as_str(), c.args.len()) {
        ("spawn" | "spawn_blocking", 1) if p.path.segments.len() >= 2 => c.args.first()?,
        ("timeout", 2) => c.args.last()?,
        _ => return None,
    };
    let value = match task {
        Expr::Closure(cl) => &cl.body,
        Expr::Async(a) => return crate::syntax::tail_of(&a.block).map(tail_expr),
        other => other,
    };
    Some(tail_expr(value))
}

/// `Ok(Err(e))`: the binding of the error inside a success (`Some(None)` for `Ok(Err(_))`).
fn nested_err_binding(pat: &Pat) -> Option<Option<String>> {
    let Pat::TupleStruct(ts) = pat else {
        return None;
    };
    if !ts.path.is_ident("Ok") || ts.elems.len() != 1 {
        return None;
    }
    variant_binding(ts.elems.first()?, "Err")
}

/// `oneshot::channel()`, `mpsc::channel(8)`, `mpsc::unbounded_channel()`, `sync_channel(0)`,
/// `flume::bounded(1)`: a call that makes a channel's two ends.
fn makes_channel(init: &Expr) -> bool {
    let Expr::Call(c) = init else { return false };
    let Expr::Path(p) = &*c.func else {
        return false;
    };
    let segs = &p.path.segments;
    let last = segs.last().map(|s| s.ident.to_string()).unwrap_or_default();
    match last.as_str() {
        "channel" | "unbounded_channel" | "sync_channel" => true,
        "bounded" | "unbounded" => segs.len() >= 2 && segs[segs.len() - 2].ident == "flume",
        _ => false,
    }
}

/// The outcome test a `match` arm is the failure branch of: its own guard when that holds on
/// failure (`Ok(o) if !o.status.success() =>`), or the guard of an earlier arm of the same
/// variant (or before a `_`) that holds on success (`Ok(o) if o.status.success() => ..,
/// Ok(o) => here`).
fn failed_outcome_guard<'a>(m: &'a syn::ExprMatch, arm: &'a syn::Arm) -> Option<&'a Expr> {
    let holds_on_success = |g: &'a Expr| {
        let (cond, negated) = without_not(g);
        outcome_test(cond).map(|s| (cond, s != negated))
    };
    if let Some((_, g)) = &arm.guard {
        return holds_on_success(g).and_then(|(cond, success)| (!success).then_some(cond));
    }
    let variant = |p: &Pat| {
        crate::syntax::pat_path(p)
            .and_then(|path| path.segments.last())
            .map(|s| s.ident.to_string())
    };
    let same_variant = |p: &Pat| {
        matches!(arm.pat, Pat::Wild(_)) || (variant(p).is_some() && variant(p) == variant(&arm.pat))
    };
    let at = m.arms.iter().position(|a| std::ptr::eq(a, arm))?;
    m.arms[..at].iter().rev().find_map(|a| {
        let (_, g) = a.guard.as_ref()?;
        let (cond, success) = holds_on_success(g)?;
        (success && same_variant(&a.pat)).then_some(cond)
    })
}

/// A test of an operation's outcome: `Some(true)` when it holds on success
/// (`output.status.success()`, `resp.status().is_success()`, `r.is_ok()`), `Some(false)` when
/// it holds on failure (`r.is_err()`, `status.is_server_error()`).
fn outcome_test(cond: &Expr) -> Option<bool> {
    // `reply.success`, `status.ok`: an outcome's own flag.
    if let Expr::Field(f) = cond {
        return match &f.member {
            syn::Member::Named(n) if n == "success" || n == "ok" || n == "succeeded" => Some(true),
            syn::Member::Named(n) if n == "failed" => Some(false),
            _ => None,
        };
    }
    // `x == Some(true)` / `x == true` is `x`, `x != Some(true)` its negation.
    if let Expr::Binary(b) = cond {
        let is_true = |e: &Expr| {
            let e = match e {
                Expr::Call(c)
                    if c.args.len() == 1
                        && matches!(&*c.func, Expr::Path(p) if p.path.is_ident("Some")) =>
                {
                    &c.args[0]
                }
                e => e,
            };
            matches!(e, Expr::Lit(syn::ExprLit { lit: syn::Lit::Bool(t), .. }) if t.value)
        };
        return match b.op {
            syn::BinOp::Eq(_) if is_true(&b.right) => outcome_test(&b.left),
            syn::BinOp::Ne(_) if is_true(&b.right) => outcome_test(&b.left).map(|s| !s),
            _ => None,
        };
    }
    // A reply's `"success"` member read as a bool: `reply["success"].as_bool() == Some(true)`,
    // `reply.get("success").and_then(|v| v.as_bool()).unwrap_or(false)`, `get_bool(&reply,
    // "success", false)`.
    if reads_bool_member(cond, "success") || reads_bool_member(cond, "ok") {
        return Some(true);
    }
    let Expr::MethodCall(mc) = cond else {
        return None;
    };
    if !mc.args.is_empty() {
        return None;
    }
    match mc.method.to_string().as_str() {
        "is_err" | "is_client_error" | "is_server_error" => Some(false),
        "is_ok" | "is_success" => Some(true),
        // `ExitStatus::success`: on the status of a finished process.
        "success" => crate::syntax::mentions_ident(
            &quote::ToTokens::to_token_stream(&*mc.receiver).to_string(),
            "status",
        )
        .then_some(true),
        _ => None,
    }
}

/// Whether `cond` reads the JSON member `key` as a bool: the string literal `key` and an
/// `as_bool` (or a crate fn whose name says bool) in one expression.
fn reads_bool_member(cond: &Expr, key: &str) -> bool {
    struct Reads<'k> {
        key: &'k str,
        member: bool,
        as_bool: bool,
    }
    impl<'v> Visit<'v> for Reads<'_> {
        fn visit_lit_str(&mut self, l: &'v syn::LitStr) {
            self.member |= l.value() == self.key;
        }
        fn visit_ident(&mut self, i: &'v proc_macro2::Ident) {
            let i = i.to_string();
            self.as_bool |= i == "as_bool" || i.split('_').any(|w| w == "bool");
        }
    }
    let mut r = Reads {
        key,
        member: false,
        as_bool: false,
    };
    r.visit_expr(cond);
    r.member && r.as_bool
}

/// A condition without its leading `!`s, and whether there was an odd number of them.
pub(super) fn without_not(cond: &Expr) -> (&Expr, bool) {
    let mut cond = cond;
    let mut negated = false;
    while let Expr::Unary(syn::ExprUnary {
        op: syn::UnOp::Not(_),
        expr,
        ..
    }) = cond
    {
        negated = !negated;
        cond = expr;
    }
    (cond, negated)
}

/// A `match` whose arms are one `Ok(x)` / `Ok(_)` and a catch-all: the catch-all takes every
/// `Err`, and only those (`Some(true)`) unless the `Ok` arm has a guard (`Some(false)`).
fn catch_all_is_err(m: &syn::ExprMatch) -> Option<bool> {
    let takes_every_ok = |p: &Pat| {
        matches!(p, Pat::TupleStruct(ts) if ts.path.is_ident("Ok")
            && ts.elems.len() == 1
            && matches!(&ts.elems[0], Pat::Wild(_) | Pat::Ident(syn::PatIdent { subpat: None, .. })))
    };
    let [ok, rest] = m.arms.as_slice() else {
        return None;
    };
    (takes_every_ok(&ok.pat) && matches!(rest.pat, Pat::Wild(_))).then_some(ok.guard.is_none())
}

/// A call given the request's name and more (`self.execute(&request.name, args)`): it runs the
/// tool, so its `Err` is any tool's failure, not a name it could not parse
/// (`Tool::from_str(&request.name)`, `parse_name(request.name)`).
fn runs_the_tool(scrutinee: &Expr) -> bool {
    let call = strip_await(scrutinee);
    let call = match call {
        Expr::Try(t) => strip_await(&t.expr),
        other => other,
    };
    match call {
        Expr::Call(c) => c.args.len() > 1,
        Expr::MethodCall(m) => m.args.len() > 1,
        _ => false,
    }
}

/// A value the source fixes: a literal, a constant, `concat!` / `env!` / `stringify!` text, or a
/// reference to one.
fn is_constant(e: &Expr) -> bool {
    match strip_refs(e) {
        Expr::Lit(_) => true,
        e @ Expr::Path(_) => crate::syntax::is_const_path(e),
        Expr::Macro(m) => matches!(
            crate::syntax::last_segment(&m.mac.path).as_deref(),
            Some("concat" | "env" | "stringify")
        ),
        _ => false,
    }
}

/// Types whose constructor only parses or compiles the text it is given (no I/O).
const PARSED_TYPES: &[&str] = &[
    "Regex",
    "RegexSet",
    "RegexBuilder",
    "Url",
    "Uri",
    "Glob",
    "GlobSet",
    "Pattern",
    "Version",
    "VersionReq",
    "Selector",
];

/// `Regex::new(r"^[a-z]+$")`, `Url::parse("https://..")`, `"42".parse::<u32>()`,
/// `Uuid::parse_str(DEFAULT_ID)`, `Url::parse(&self.base_url)`: parsing a value the source fixes
/// or the server's own configuration fails only on the server's own mistake (a parse of the
/// tool's input is the tool's failure).
fn parses_constant(cause: &Expr) -> bool {
    let own = |e: &Expr| is_constant(e) || reads_only_self(e);
    match strip_await(cause) {
        Expr::MethodCall(m) => m.method == "parse" && m.args.is_empty() && own(&m.receiver),
        Expr::Call(c) => {
            let Expr::Path(p) = &*c.func else {
                return false;
            };
            let segs = path_segments(&p.path);
            let [.., ty, f] = segs.as_slice() else {
                return false;
            };
            let parser = matches!(f.as_str(), "parse" | "from_str" | "parse_str" | "try_from")
                || (f == "new" && PARSED_TYPES.contains(&ty.as_str()));
            parser && !c.args.is_empty() && c.args.iter().all(own)
        }
        _ => false,
    }
}

/// `mpsc::Sender<T>`, `UnboundedSender<T>`, `SyncSender<T>` (tokio, std, flume, crossbeam):
/// the sending end of an in-process channel.
fn is_sender_type(ty: &syn::Type) -> bool {
    crate::syntax::type_name(ty)
        .is_some_and(|n| matches!(n.as_str(), "Sender" | "UnboundedSender" | "SyncSender"))
}

/// The operand under `?`s and `.await`s.
fn through_try(expr: &Expr) -> &Expr {
    let mut e = strip_await(expr);
    while let Expr::Try(t) = e {
        e = strip_await(&t.expr);
    }
    e
}

/// `timeout(WAIT, op).await`, and `timeout(WAIT, op).await.map_err(..)?` (what is left once the
/// deadline's error is mapped: `op`'s), where `own` holds for `op`: the same operation under a
/// deadline of the server's own.
fn under_deadline(cause: &Expr, own: &dyn Fn(&Expr) -> bool) -> bool {
    let deadline = |e: &Expr| match strip_await(e) {
        Expr::Call(c) if c.args.len() == 2 && is_timeout_fn(&c.func) => own(&c.args[1]),
        _ => false,
    };
    match strip_await(cause) {
        e if deadline(e) => true,
        Expr::Try(t) => matches!(strip_await(&t.expr), Expr::MethodCall(mc)
            if mc.method == "map_err" && deadline(&mc.receiver)),
        _ => false,
    }
}

/// `tokio::time::timeout`, `time::timeout`, `timeout` (an async deadline around a future).
fn is_timeout_fn(func: &Expr) -> bool {
    matches!(func, Expr::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "timeout"))
}

/// The views of an `Option` that keep its `None`: `x.as_ref()`, `x.as_deref()`, `x.cloned()`.
const OPTION_VIEWS: &[&str] = &["as_ref", "as_deref", "cloned", "clone", "copied"];

/// Whether `code` reads a `name` member: `params.get("name")`, `request.name`.
fn reads_name_member(code: crate::model::bodies::BodyCode<'_>) -> bool {
    struct Finder(bool);
    impl<'v> Visit<'v> for Finder {
        fn visit_lit_str(&mut self, s: &'v syn::LitStr) {
            self.0 |= s.value() == "name";
        }
        fn visit_member(&mut self, m: &'v syn::Member) {
            self.0 |= matches!(m, syn::Member::Named(n) if n == "name");
        }
    }
    let mut f = Finder(false);
    match code {
        crate::model::bodies::BodyCode::Block(b) => f.visit_block(b),
        crate::model::bodies::BodyCode::Expr(e) => f.visit_expr(e),
    }
    f.0
}

/// `&self`, not `&mut self` or `self`.
fn takes_shared_self(sig: &syn::Signature) -> bool {
    sig.receiver()
        .is_some_and(|r| r.reference.is_some() && r.mutability.is_none())
}

/// A declared type that can change behind a shared reference (a lock, cell or atomic).
fn is_mutable(ty: &syn::Type) -> bool {
    const MUTABLE: &[&str] = &["Mutex", "RwLock", "Cell", "OnceLock", "Atomic", "ArcSwap"];
    let written = ty.to_token_stream_string();
    MUTABLE.iter().any(|m| written.contains(m))
}

/// An `Option` field type nothing can fill behind `&self`, also shared (`Arc<Option<T>>`).
fn is_frozen_option(ty: &syn::Type) -> bool {
    let shared = match crate::syntax::type_name(ty).as_deref() {
        Some("Arc" | "Rc" | "Box") => crate::syntax::last_type_argument(ty),
        _ => Some(ty),
    };
    shared.is_some_and(|t| crate::syntax::type_name(t).as_deref() == Some("Option"))
        && !is_mutable(ty)
}
