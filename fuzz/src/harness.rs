//! What each fuzz target checks. Shared by the cargo-fuzz targets (fuzz/fuzz_targets) and by
//! tests/fuzz_regressions.rs in the main workspace (included with `#[path]`), so the saved
//! regression inputs are replayed by a normal `cargo test`.
//!
//! - `analyze_bytes`: any bytes as a one-file crate, with or without a manifest that depends on
//!   one of the SDKs (rmcp, rust-mcp-sdk, pmcp, turbomcp, mcp-attr, ultrafast-mcp).
//! - `analyze_mcp`: syntactically valid Rust assembled from MCP fragments (tool routers,
//!   dispatchers, error constructors, codes, helpers, `From` impls, closures), driven by the
//!   bytes; it must parse, and the analysis must not fail on it.
//! - `prefilter`: the prefilter never misses an `rmcp` identifier that proc_macro2 lexes.
//! - `framing`: the language server's and the MCP server's stdin readers on any bytes: no
//!   panic, an answer for every message they cannot take, and nothing but valid answers.
//!
//! A failure is a panic: `lints::analyze` turns its own panics into `internal_error`
//! findings, which the harness turns back into a panic.

use lints::{CrateInput, Dependency, FileRole, Manifest, Options, SourceInput};

/// The dependency a fuzzed crate's manifest may name: every SDK dialect gets its turn.
const SDKS: [(&str, &str); 6] = [
    ("rmcp", "0.8"),
    ("rust-mcp-sdk", "0.7"),
    ("pmcp", "1.8"),
    ("turbomcp", "3.0"),
    ("mcp-attr", "0.0.7"),
    ("ultrafast-mcp", "202506018.1"),
];

fn input(text: Vec<u8>, sdk: Option<(&str, &str)>) -> CrateInput {
    CrateInput {
        root: None,
        manifest: sdk.map(|(name, version)| Manifest {
            package_name: Some("fuzzed".into()),
            package_version: None,
            published: false,
            locked: None,
            targets: Default::default(),
            dependencies: vec![Dependency {
                name: name.into(),
                version: Some(version.into()),
                rename: None,
                path: None,
            }],
        }),
        files: vec![SourceInput {
            path: "src/lib.rs".into(),
            contents: text,
            role: FileRole::Source,
            report: true,
            named: true,
            package_path: None,
        }],
    }
}

fn options(all: bool) -> Options {
    let mut options = Options::default();
    if all {
        options
            .levels
            .apply("all", lints::Level::Warn)
            .expect("`all` is a selector");
    }
    options
}

/// Analyse and fail on an internal error.
fn check(input: &CrateInput, options: &Options) -> Vec<lints::FileReport> {
    let reports = lints::analyze(input, options);
    for r in &reports {
        for d in &r.diagnostics {
            assert_ne!(
                d.lint.name, "internal_error",
                "analysis failed: {}",
                d.message
            );
            let text_len = r.source.as_ref().map_or(0, |s| s.text.len());
            assert!(d.span.start <= d.span.end && d.span.end <= text_len.max(d.span.end));
        }
    }
    reports
}

pub fn analyze_bytes(data: &[u8]) {
    let (flags, text) = data.split_first().unwrap_or((&0, &[]));
    // Bit 0: a manifest; bit 1: every lint on; the bits above: which SDK the manifest names.
    let sdk = SDKS[usize::from(flags >> 2) % SDKS.len()];
    check(
        &input(text.to_vec(), (flags & 1 == 1).then_some(sdk)),
        &options(flags & 2 == 2),
    );
}

pub fn analyze_mcp(data: &[u8]) {
    let mut g = Gen::new(data);
    let text = g.file();
    let parsed = syn::parse_file(&text).map(drop);
    // The tree is dropped here; without `cfg(fuzzing)` its text would stay in this thread's
    // span table for the whole campaign.
    proc_macro2::extra::invalidate_current_thread_spans();
    if let Err(e) = parsed {
        panic!("the generator wrote invalid Rust ({e}):\n{text}");
    }
    // The fragments are rmcp's; other SDKs' dialects read them too (every input length picks
    // one), which exercises their tables on the shapes they share.
    let sdk = SDKS[data.len() % SDKS.len()];
    let reports = check(&input(text.clone().into_bytes(), Some(sdk)), &options(true));
    let parse_errors = reports
        .iter()
        .flat_map(|r| &r.diagnostics)
        .filter(|d| d.lint.name == "parse_error")
        .count();
    assert_eq!(
        parse_errors, 0,
        "valid Rust reported as a parse error:\n{text}"
    );
}

pub fn analyze_prefilter(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(tokens) = text.parse::<proc_macro2::TokenStream>() else {
        return;
    };
    let found = has_ident(tokens, "rmcp");
    // As in `analyze_mcp`: the tokens are gone, their text need not stay in the span table.
    proc_macro2::extra::invalidate_current_thread_spans();
    if found {
        assert!(
            mcp_lint::workspace::prefilter::has_ident(data, "rmcp"),
            "the prefilter missed an rmcp identifier in {text:?}"
        );
    }
}

/// The `prefilter` target's entry point.
pub fn prefilter(data: &[u8]) {
    analyze_prefilter(data);
}

fn has_ident(tokens: proc_macro2::TokenStream, word: &str) -> bool {
    tokens.into_iter().any(|t| match t {
        proc_macro2::TokenTree::Ident(i) => {
            let s = i.to_string();
            s == word || s.strip_prefix("r#") == Some(word)
        }
        proc_macro2::TokenTree::Group(g) => has_ident(g.stream(), word),
        _ => false,
    })
}

// ------------------------------------------------------------------ the fragment generator

/// Turns bytes into choices; when the bytes run out every choice is 0.
pub struct Gen<'a> {
    data: &'a [u8],
    at: usize,
    depth: usize,
    /// The spelling of the rmcp generation chosen for this file.
    error: &'static str,
    text: &'static str,
}

const MESSAGES: [&str; 8] = [
    "failed",
    "",
    "database connection refused while reading orders",
    "no note named {name}; call list_notes for the names",
    "Something went wrong",
    "limit must be 1-50",
    "   ",
    "Error: {e}",
];
const CODES: [i64; 8] = [-32001, -32000, -32019, -32050, -32602, -32603, -32002, 42];
const IDENTS: [&str; 6] = ["name", "e", "id", "args", "value", "text"];

impl<'a> Gen<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        let mut g = Gen {
            data,
            at: 0,
            depth: 0,
            error: "McpError",
            text: "Content::text",
        };
        match g.pick(4) {
            0 => {}
            1 => g.error = "ErrorData",
            2 => g.text = "ContentBlock::text",
            _ => {
                g.error = "ErrorData";
                g.text = "ContentBlock::text";
            }
        }
        g
    }

    fn byte(&mut self) -> u8 {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }

    fn pick(&mut self, n: usize) -> usize {
        self.byte() as usize % n
    }

    fn message(&mut self) -> String {
        let m = MESSAGES[self.pick(MESSAGES.len())];
        if m.contains('{') && self.pick(2) == 0 {
            format!("format!(\"{m}\")")
        } else {
            format!("{:?}", m.replace(['{', '}'], ""))
        }
    }

    fn code(&mut self) -> String {
        let c = CODES[self.pick(CODES.len())];
        match self.pick(3) {
            0 => format!("ErrorCode({c})"),
            1 => "ErrorCode::INTERNAL_ERROR".to_string(),
            _ => "ErrorCode::RESOURCE_NOT_FOUND".to_string(),
        }
    }

    fn content(&mut self) -> String {
        let text = self.text;
        match self.pick(5) {
            0 => "vec![]".to_string(),
            1 => "Vec::new()".to_string(),
            2 => format!("vec![{text}({})]", self.message()),
            3 => format!("vec![{text}({}), {text}(\"see the docs\")]", self.message()),
            _ => format!("vec![{text}(e.to_string())]"),
        }
    }

    /// An expression of type `Result<CallToolResult, Error>` (or close enough for syn).
    fn result(&mut self) -> String {
        self.depth += 1;
        let deep = self.depth > 4;
        let e = self.error;
        let out = match if deep { self.pick(6) } else { self.pick(12) } {
            0 => format!("Err({e}::internal_error({}, None))", self.message()),
            1 => format!("Err({e}::invalid_params({}, None))", self.message()),
            2 => format!("Err({e}::new({}, {}, None))", self.code(), self.message()),
            3 => format!("Ok(CallToolResult::error({}))", self.content()),
            4 => format!("Ok(CallToolResult::success({}))", self.content()),
            5 => format!(
                "Ok(CallToolResult {{ content: {}, is_error: Some(true), ..Default::default() }})",
                self.content()
            ),
            6 => format!(
                "{{ let v = helper(id).map_err(|e| {e}::internal_error(e.to_string(), None))?; {} }}",
                self.result()
            ),
            7 => format!(
                "match lookup(id) {{ Ok(value) => {}, Err(e) => {} }}",
                self.result(),
                self.result()
            ),
            8 => format!(
                "if id.is_empty() {{ return {}; }} else {{ {} }}",
                self.result(),
                self.result()
            ),
            9 => format!(
                "{{ let Some(value) = store.get(id) else {{ return {}; }}; {} }}",
                self.result(),
                self.result()
            ),
            10 => format!(
                "{{ let f = |x: u32| -> Result<CallToolResult, {e}> {{ {} }}; f(1) }}",
                self.result()
            ),
            _ => format!(
                "{{ let n: u32 = {}.parse().unwrap(); let _ = n; {} }}",
                IDENTS[self.pick(IDENTS.len())],
                self.result()
            ),
        };
        self.depth -= 1;
        out
    }

    fn tool(&mut self, i: usize) -> String {
        let e = self.error;
        let body = self.result();
        match self.pick(3) {
            0 => format!(
                "    #[tool(description = \"tool {i}\")]\n    async fn tool_{i}(&self, Parameters(args): Parameters<Args>) -> Result<CallToolResult, {e}> {{\n        let id = &args.id;\n        let store = &self.store;\n        {body}\n    }}\n"
            ),
            1 => format!(
                "    #[tool(description = \"tool {i}\")]\n    async fn tool_{i}(&self, Parameters(args): Parameters<Args>) -> Result<String, String> {{\n        let id = &args.id;\n        if id.is_empty() {{ return Err({}.to_string()); }}\n        Ok(id.to_string())\n    }}\n",
                self.message()
            ),
            _ => format!(
                "    #[tool(description = \"tool {i}\")]\n    fn tool_{i}(&self) -> Result<CallToolResult, {e}> {{\n        let id = \"x\";\n        let store = &self.store;\n        {body}\n    }}\n"
            ),
        }
    }

    /// A whole file.
    pub fn file(&mut self) -> String {
        let e = self.error;
        let mut s = String::new();
        s.push_str(match e {
            "McpError" => "use rmcp::{ErrorData as McpError, model::*, tool, tool_router, handler::server::wrapper::Parameters, service::RequestContext, RoleServer, ServerHandler};\n",
            _ => "use rmcp::{ErrorData, model::*, tool, tool_router, handler::server::wrapper::Parameters, service::RequestContext, RoleServer, ServerHandler};\n",
        });
        s.push_str("use std::collections::HashMap;\n\npub struct Args { pub id: String }\npub struct Server { store: HashMap<String, String> }\n\n");
        s.push_str(&format!(
            "fn helper(id: &str) -> Result<String, std::io::Error> {{ std::fs::read_to_string(id) }}\nfn lookup(id: &str) -> Result<String, {e}> {{ helper(id).map_err(|e| {e}::internal_error(e.to_string(), None)) }}\n"
        ));
        if self.pick(2) == 0 {
            s.push_str(&format!("pub const CODE: ErrorCode = {};\n", self.code()));
        }
        if self.pick(2) == 0 {
            s.push_str(&format!(
                "pub enum AppError {{ Missing(String) }}\nimpl From<AppError> for {e} {{ fn from(a: AppError) -> Self {{ match a {{ AppError::Missing(m) => {e}::internal_error(m, None) }} }} }}\n"
            ));
        }
        let tools = 1 + self.pick(4);
        s.push_str("\n#[tool_router]\nimpl Server {\n");
        for i in 0..tools {
            s.push_str(&self.tool(i));
        }
        s.push_str("}\n");
        if self.pick(2) == 0 {
            let arm = self.result();
            let unknown = if self.pick(2) == 0 {
                format!("Err({e}::invalid_params(format!(\"unknown tool {{other}}\"), None))")
            } else {
                format!(
                    "Ok(CallToolResult::error(vec![{}(\"unknown tool\")]))",
                    self.text
                )
            };
            s.push_str(&format!(
                "\nimpl ServerHandler for Server {{\n    async fn call_tool(&self, request: CallToolRequestParam, _context: RequestContext<RoleServer>) -> Result<CallToolResult, {e}> {{\n        let id = \"x\";\n        let store = &self.store;\n        match request.name.as_ref() {{\n            \"tool_0\" => {arm},\n            other => {unknown},\n        }}\n    }}\n}}\n"
            ));
        }
        s
    }
}

/// The `framing` target's entry point: the same bytes as the language server's stdin and as
/// the MCP server's. Neither reader may panic or hold more than the input; every answer is a
/// JSON-RPC error with a valid id (`null`, a string or an integer) and one of the codes the
/// readers give, and every message delivered passes the JSON-RPC checks again.
pub fn framing(data: &[u8]) {
    let mut answers = Vec::new();
    let again = |value: serde_json::Value| {
        redelivered(value);
        true
    };
    mcp_lint::lsp::framing::read_messages(
        data,
        |message| again(serde_json::to_value(&message).expect("a message serializes")),
        |answer| answers.push(answer),
    )
    .expect("reading from memory does not fail");
    mcp_lint::mcp::transport::read_messages(
        data,
        |message| again(serde_json::to_value(&message).expect("a message serializes")),
        |answer| answers.push(answer),
    )
    .expect("reading from memory does not fail");
    for answer in answers {
        assert_eq!(answer["jsonrpc"], "2.0", "{answer}");
        let id = &answer["id"];
        assert!(
            id.is_null() || id.is_string() || id.as_i64().is_some() || id.as_u64().is_some(),
            "{answer}"
        );
        let code = answer["error"]["code"].as_i64().expect("an error code");
        assert!([-32700, -32600, -32602].contains(&code), "{answer}");
        assert!(answer["error"]["message"].is_string(), "{answer}");
    }
}

/// A delivered request or notification, serialized again, is still one (lsp-server leaves
/// out `jsonrpc`; a response's `"result": null` comes back without `result`, so responses are
/// not checked again).
fn redelivered(mut value: serde_json::Value) {
    let Some(object) = value.as_object_mut().filter(|o| o.contains_key("method")) else {
        return;
    };
    object.insert("jsonrpc".into(), "2.0".into());
    let bytes = serde_json::to_vec(&value).expect("serializes");
    if let Err(answer) = mcp_lint::jsonrpc::check(&bytes) {
        panic!("delivered {value} fails the checks again: {answer}");
    }
}
