//! The protocol version a server states in its own source: the `protocolVersion` of its
//! `initialize` answer. A hand-rolled server writes it itself ([`Dialect::declares_protocol`]);
//! an SDK negotiates it. Found by the source's structure, in one pass over the package's fn
//! bodies and consts:
//! - a string literal that names a known version ([`ProtocolVersion::named`]) in the value of a
//!   `"protocolVersion"` member of a `json!` object, or of a struct literal's field that serde
//!   writes as `protocolVersion` (`protocol_version`, or renamed to it);
//! - the same in a const or static that value names (resolved, not matched by name), or in a
//!   `let` of the same fn it names (`let version = if SUPPORTED.contains(&asked) { asked } else
//!   { LATEST };`);
//! - a const or static that is a list of versions (`const SUPPORTED: &[&str] = &["2025-06-18",
//!   "2025-03-26"];`), whoever uses it.
//!
//! A value that reads the client's `protocolVersion` (`params.get("protocolVersion")
//! .unwrap_or(FALLBACK)`, also through a `let`) answers what the client asks: only the lists of
//! versions it checks the request against count there (`.filter(|v| SUPPORTED.contains(v))`),
//! not the lone version it answers a client that asked none; a plain echo declares nothing.
//!
//! An object that also has a `clientInfo` member (an `initialize` request the server sends as a
//! client) declares nothing, nor does test code.
//!
//! [`Dialect::declares_protocol`]: crate::sdk::Dialect::declares_protocol

use std::collections::HashMap;

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use syn::visit::Visit;
use syn::{Expr, Item};

use crate::index::{FnItem, Index};
use crate::options::ProtocolVersion;
use crate::resolve::{Def, DefMap, ItemId, ItemKind, ModuleId, Ns};
use crate::source::{FileId, SourceFile, Span};
use crate::types::Types;

/// The JSON member an `initialize` answer states its version in.
pub const MEMBER: &str = "protocolVersion";
/// The Rust field serde writes as [`MEMBER`] under `rename_all = "camelCase"`.
pub const FIELD: &str = "protocol_version";
/// The member only a client's `initialize` request has.
const CLIENT_MEMBER: &str = "clientInfo";

/// The newest known version a package's source declares, and where it is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeclaredProtocol {
    pub version: ProtocolVersion,
    /// The string literal that names it.
    pub file: FileId,
    pub span: Span,
}

/// What the files are to the search: a non-test file's text, else `None`.
pub type SourceOf<'s> = dyn Fn(FileId) -> Option<&'s SourceFile> + 's;

/// The version package `package` declares (see the module docs); `None` when it declares none
/// that mcp-lint knows.
pub fn declared_protocol(
    package: usize,
    index: &Index<'_>,
    (defs, types): (&DefMap<'_>, &Types<'_>),
    source_of: &SourceOf<'_>,
) -> Option<DeclaredProtocol> {
    let mut finder = Finder {
        defs,
        source_of,
        items: HashMap::new(),
        found: None,
    };
    let renamed = renamed_fields(defs, package);
    for f in index.fns.iter().filter(|f| !f.is_test) {
        let Some(scope) = defs.fn_scope(f.sig) else {
            continue;
        };
        let mut values = MemberValues::default();
        values.visit_block(f.block);
        if values.json.is_empty() && values.fields.is_empty() {
            continue;
        }
        let self_type = types.self_type(scope);
        let at = At {
            file: f.file,
            module: scope.module,
        };
        let mut locals = Locals::of(f);
        for tokens in values.json {
            let mut value = Value::default();
            match syn::parse2::<Expr>(tokens.clone()) {
                Ok(e) => finder.expr(&e, at, Some(&mut locals), &mut value),
                // Not an expression: its literals all the same.
                Err(_) => finder.tokens(tokens, at.file, &mut value),
            }
            finder.declare(value);
        }
        for s in values.fields {
            let struct_item = || match &s.path {
                p if p.is_ident("Self") => self_type,
                p => match defs.resolve_path(scope.module, p, Ns::Types) {
                    Some(Def::Item(id)) => Some(id),
                    _ => None,
                },
            };
            let renamed = renamed_fields_of(&renamed, struct_item);
            for field in s.fields.iter().filter(|v| declares(&v.member, renamed)) {
                let mut value = Value::default();
                finder.expr(&field.expr, at, Some(&mut locals), &mut value);
                finder.declare(value);
            }
        }
    }
    // Lists of versions, used or not.
    for (i, item) in defs.items.iter().enumerate() {
        let module = defs.module(item.module);
        if module.package != package || module.is_test {
            continue;
        }
        if let Some(expr) = const_value(item.syntax).filter(|e| is_version_list(e)) {
            let mut value = Value::default();
            finder.item(ItemId(i as u32), expr, &mut value);
            finder.declare(value);
        }
    }
    finder.found
}

/// Where an expression is written: its file and the module its paths resolve in.
#[derive(Clone, Copy)]
struct At {
    file: FileId,
    module: ModuleId,
}

/// A version a value names, and where.
#[derive(Clone, Debug)]
struct Named {
    version: ProtocolVersion,
    file: FileId,
    span: Span,
    /// An element of a list of versions (`["2025-06-18", "2025-03-26"]`, inline or a const's).
    listed: bool,
}

/// What one `protocolVersion` value names.
#[derive(Default)]
struct Value {
    named: Vec<Named>,
    /// It reads the client's `protocolVersion` (`params["protocolVersion"]`, also through a
    /// `let`): the server answers what it is asked, and a lone version there is only the answer
    /// to a client that asked none.
    echoes: bool,
}

struct Finder<'d, 'a, 'r, 's> {
    defs: &'d DefMap<'a>,
    source_of: &'r SourceOf<'s>,
    /// What each const or static read so far names (empty while it is being read: a cycle).
    items: HashMap<ItemId, Vec<Named>>,
    found: Option<DeclaredProtocol>,
}

impl Finder<'_, '_, '_, '_> {
    /// Add what `expr` names to `value`: its literals, and those of the consts, statics and
    /// locals its paths name.
    fn expr(
        &mut self,
        expr: &Expr,
        at: At,
        mut locals: Option<&mut Locals<'_>>,
        value: &mut Value,
    ) {
        let mut uses = Uses::default();
        uses.visit_expr(expr);
        for (lit, listed) in uses.literals {
            self.literal(&lit, at.file, listed, value);
        }
        for (path, listed) in uses.paths {
            if let (Some(name), Some(locals)) = (path.get_ident(), locals.as_deref_mut()) {
                if let Some(inits) = locals.take(&name.to_string()) {
                    for init in inits {
                        self.expr(init, at, Some(locals), value);
                    }
                    continue;
                }
            }
            if let Some(Def::Item(id)) = self.defs.resolve_path(at.module, &path, Ns::Values) {
                let item = self.defs.item(id);
                if let (ItemKind::Const | ItemKind::Static, Some(init)) =
                    (item.kind, const_value(item.syntax))
                {
                    let from = value.named.len();
                    self.item(id, init, value);
                    // A const written as an element of a list is one of the list's versions.
                    for n in &mut value.named[from..] {
                        n.listed |= listed;
                    }
                }
            }
        }
    }

    /// Add what a const or static's value names to `value`, read once.
    fn item(&mut self, id: ItemId, init: &Expr, value: &mut Value) {
        if let Some(named) = self.items.get(&id) {
            value.named.extend(named.iter().cloned());
            return;
        }
        let module = self.defs.item(id).module;
        if self.defs.module(module).is_test {
            return;
        }
        self.items.insert(id, Vec::new());
        let file = self.defs.module(module).file;
        let mut own = Value::default();
        self.expr(init, At { file, module }, None, &mut own);
        value.named.extend(own.named.iter().cloned());
        self.items.insert(id, own.named);
    }

    /// Tokens that are no expression: the string literals among them.
    fn tokens(&mut self, tokens: TokenStream, file: FileId, value: &mut Value) {
        for t in tokens {
            match t {
                TokenTree::Group(g) => self.tokens(g.stream(), file, value),
                TokenTree::Literal(l) => {
                    if let Ok(lit) = syn::parse2::<syn::LitStr>(TokenTree::Literal(l).into()) {
                        self.literal(&lit, file, false, value);
                    }
                }
                _ => {}
            }
        }
    }

    fn literal(&mut self, lit: &syn::LitStr, file: FileId, listed: bool, value: &mut Value) {
        let text = lit.value();
        value.echoes |= text == MEMBER;
        let (Some(version), Some(source)) = (ProtocolVersion::named(&text), (self.source_of)(file))
        else {
            return;
        };
        value.named.push(Named {
            version,
            file,
            span: source.span_of(lit),
            listed,
        });
    }

    /// Keep the newest version `value` declares: what it names, or when it echoes the client's
    /// only the lists of versions it offers.
    fn declare(&mut self, value: Value) {
        let declared = value
            .named
            .into_iter()
            .filter(|n| n.listed || !value.echoes);
        for n in declared {
            if self.found.as_ref().is_none_or(|f| n.version > f.version) {
                self.found = Some(DeclaredProtocol {
                    version: n.version,
                    file: n.file,
                    span: n.span,
                });
            }
        }
    }
}

/// What one fn body states `protocolVersion` with: the value tokens of `json!` members, and the
/// struct literals (their fields are told apart once the struct is resolved).
#[derive(Default)]
struct MemberValues<'v> {
    json: Vec<TokenStream>,
    fields: Vec<&'v syn::ExprStruct>,
}

impl<'v> Visit<'v> for MemberValues<'v> {
    fn visit_macro(&mut self, mac: &'v syn::Macro) {
        if mac.path.segments.last().is_some_and(|s| s.ident == "json") {
            json_members(mac.tokens.clone(), &mut self.json);
        }
    }

    fn visit_expr_struct(&mut self, s: &'v syn::ExprStruct) {
        let client = s
            .fields
            .iter()
            .any(|f| member_name(&f.member) == "client_info");
        if !client {
            self.fields.push(s);
        }
        syn::visit::visit_expr_struct(self, s);
    }

    /// A nested item is walked as its own fn, in its own scope.
    fn visit_item(&mut self, _: &'v Item) {}
}

/// The value tokens of every `"protocolVersion"` member in a `json!` body's objects, at any
/// depth, but not in an object that has a `"clientInfo"` member.
fn json_members(stream: TokenStream, out: &mut Vec<TokenStream>) {
    for t in stream {
        let TokenTree::Group(g) = t else { continue };
        if g.delimiter() != Delimiter::Brace {
            json_members(g.stream(), out);
            continue;
        }
        let mut members: Vec<Vec<TokenTree>> = vec![Vec::new()];
        for t in g.stream() {
            match &t {
                TokenTree::Punct(p) if p.as_char() == ',' => members.push(Vec::new()),
                _ => members.last_mut().expect("never empty").push(t),
            }
        }
        let key = |member: &[TokenTree]| match member {
            [TokenTree::Literal(key), TokenTree::Punct(colon), ..] if colon.as_char() == ':' => {
                syn::parse2::<syn::LitStr>(TokenTree::Literal(key.clone()).into())
                    .ok()
                    .map(|k| k.value())
            }
            _ => None,
        };
        let client = members
            .iter()
            .any(|m| key(m).as_deref() == Some(CLIENT_MEMBER));
        for member in members {
            if !client && key(&member).as_deref() == Some(MEMBER) {
                out.push(member[2..].iter().cloned().collect());
            }
            json_members(member.into_iter().collect(), out);
        }
    }
}

/// The string literals an expression holds (each with whether it is an element of an array)
/// and the paths it names.
#[derive(Default)]
struct Uses {
    literals: Vec<(syn::LitStr, bool)>,
    paths: Vec<(syn::Path, bool)>,
    /// Inside an array's elements.
    arrays: usize,
}

impl<'v> Visit<'v> for Uses {
    fn visit_lit_str(&mut self, lit: &'v syn::LitStr) {
        self.literals.push((lit.clone(), self.arrays > 0));
    }

    fn visit_expr_array(&mut self, a: &'v syn::ExprArray) {
        self.arrays += 1;
        syn::visit::visit_expr_array(self, a);
        self.arrays -= 1;
    }

    fn visit_expr_path(&mut self, p: &'v syn::ExprPath) {
        if p.qself.is_none() {
            self.paths.push((p.path.clone(), self.arrays > 0));
        }
    }

    /// A closure's or a block's nested item is not the value.
    fn visit_item(&mut self, _: &'v Item) {}
}

/// The `let` bindings of a fn body by name, each read once (a value that names itself, or two
/// that name each other, end there).
struct Locals<'f> {
    block: &'f syn::Block,
    lets: Option<HashMap<String, Vec<&'f Expr>>>,
}

impl<'f> Locals<'f> {
    fn of(f: &FnItem<'f>) -> Locals<'f> {
        Locals {
            block: f.block,
            lets: None,
        }
    }

    /// The initialisers of the `let`s named `name`, the first time it is asked for.
    fn take(&mut self, name: &str) -> Option<Vec<&'f Expr>> {
        let block = self.block;
        let lets = self.lets.get_or_insert_with(|| {
            let mut lets = Lets::default();
            lets.visit_block(block);
            lets.0
        });
        lets.remove(name)
    }
}

#[derive(Default)]
struct Lets<'f>(HashMap<String, Vec<&'f Expr>>);

impl<'f> Visit<'f> for Lets<'f> {
    fn visit_local(&mut self, local: &'f syn::Local) {
        let pat = match &local.pat {
            syn::Pat::Type(t) => &*t.pat,
            p => p,
        };
        if let (syn::Pat::Ident(id), Some(init)) = (pat, &local.init) {
            self.0
                .entry(id.ident.to_string())
                .or_default()
                .push(&init.expr);
        }
        syn::visit::visit_local(self, local);
    }

    fn visit_item(&mut self, _: &'f Item) {}
}

/// Per crate struct with a field serde writes as `protocolVersion` under another name
/// (`#[serde(rename = "protocolVersion")] version: String`): those fields.
fn renamed_fields(defs: &DefMap<'_>, package: usize) -> HashMap<ItemId, Vec<String>> {
    let mut renamed = HashMap::new();
    for (i, item) in defs.items.iter().enumerate() {
        let Item::Struct(s) = item.syntax else {
            continue;
        };
        if defs.module(item.module).package != package {
            continue;
        }
        let fields: Vec<String> = s
            .fields
            .iter()
            .filter_map(|f| f.ident.as_ref().map(|id| (id, &f.attrs)))
            .filter(|(id, attrs)| crate::syntax::serde_name(id, attrs, &s.attrs) == MEMBER)
            .map(|(id, _)| id.to_string())
            .collect();
        if !fields.is_empty() {
            renamed.insert(ItemId(i as u32), fields);
        }
    }
    renamed
}

/// The renamed fields of the struct a literal builds, resolved only when some struct has any.
fn renamed_fields_of(
    renamed: &HashMap<ItemId, Vec<String>>,
    struct_item: impl FnOnce() -> Option<ItemId>,
) -> &[String] {
    if renamed.is_empty() {
        return &[];
    }
    struct_item()
        .and_then(|id| renamed.get(&id))
        .map_or(&[], Vec::as_slice)
}

/// Whether a struct literal's field states the protocol version: named `protocol_version` (or
/// `protocolVersion`), or renamed to it by serde.
fn declares(member: &syn::Member, renamed: &[String]) -> bool {
    let name = member_name(member);
    name == FIELD || name == MEMBER || renamed.contains(&name)
}

fn member_name(member: &syn::Member) -> String {
    match member {
        syn::Member::Named(id) => {
            let name = id.to_string();
            name.strip_prefix("r#").map(str::to_string).unwrap_or(name)
        }
        syn::Member::Unnamed(_) => String::new(),
    }
}

fn const_value(item: &Item) -> Option<&Expr> {
    match item {
        Item::Const(c) => Some(&c.expr),
        Item::Static(s) => Some(&s.expr),
        _ => None,
    }
}

/// `&["2025-06-18", "2025-03-26"]`, `[LATEST, "2025-03-26"]`: an array (or a reference to
/// one) of dates and paths with at least one date.
fn is_version_list(expr: &Expr) -> bool {
    let mut e = expr;
    while let Expr::Reference(r) = e {
        e = &r.expr;
    }
    let Expr::Array(a) = e else { return false };
    let is_date = |e: &Expr| matches!(e, Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) if is_date(&s.value()));
    a.elems.iter().any(is_date)
        && a.elems
            .iter()
            .all(|e| is_date(e) || matches!(e, Expr::Path(_)))
}

/// `YYYY-MM-DD`.
fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 10
        && b.iter().enumerate().all(|(i, c)| {
            if i == 4 || i == 7 {
                *c == b'-'
            } else {
                c.is_ascii_digit()
            }
        })
}
