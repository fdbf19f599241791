//! The MCP-dense corpus: many small rmcp servers in which every file holds tool handlers.
//!
//! Deterministic for a given seed. Each crate picks an rmcp generation (0.3, 0.8, 1.8, 3.11:
//! `Error`/`ErrorData`, `Content::text`/`ContentBlock::text`, `tool::Parameters`/
//! `wrapper::Parameters`), and each file picks a style (`#[tool_router]` methods or a
//! hand-written `call_tool` dispatcher over helper methods) and a mix of handler bodies:
//! correct ones and every mistake mcp-lint knows, with helpers, an error enum with
//! `impl From<…> for McpError`, consts and ordinary code around them.

use std::fmt::Write as _;
use std::path::Path;

pub struct DenseStats {
    pub crates: usize,
    pub files: usize,
    pub bytes: usize,
}

/// xorshift64*: small, fast, and the same on every machine.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const NOUNS: [&str; 24] = [
    "note", "order", "invoice", "ticket", "user", "file", "job", "report", "card", "board",
    "issue", "page", "table", "query", "draft", "bucket", "event", "alert", "zone", "city",
    "recipe", "track", "lease", "build",
];
const VERBS: [&str; 12] = [
    "get", "create", "delete", "list", "update", "search", "archive", "export", "import", "rename",
    "count", "check",
];

/// One rmcp generation's spelling.
struct Generation {
    version: &'static str,
    imports: &'static str,
    error: &'static str,
    text: &'static str,
}

const GENERATIONS: [Generation; 4] = [
    Generation {
        version: "0.3",
        imports: "use rmcp::{\n    Error as McpError, RoleServer, ServerHandler,\n    handler::server::{router::tool::ToolRouter, tool::Parameters},\n    model::*,\n    schemars,\n    service::RequestContext,\n    tool, tool_router,\n};",
        error: "McpError",
        text: "Content::text",
    },
    Generation {
        version: "0.8",
        imports: "use rmcp::{\n    ErrorData as McpError, RoleServer, ServerHandler,\n    handler::server::{router::tool::ToolRouter, wrapper::Parameters},\n    model::*,\n    schemars,\n    service::RequestContext,\n    tool, tool_router,\n};",
        error: "McpError",
        text: "Content::text",
    },
    Generation {
        version: "1.8",
        imports: "use rmcp::{\n    ErrorData, RoleServer, ServerHandler,\n    handler::server::{router::tool::ToolRouter, wrapper::Parameters},\n    model::*,\n    schemars,\n    service::RequestContext,\n    tool, tool_router,\n};",
        error: "ErrorData",
        text: "Content::text",
    },
    Generation {
        version: "3.11.0",
        imports: "use rmcp::{\n    ErrorData as McpError, RoleServer, ServerHandler,\n    handler::server::{router::tool::ToolRouter, wrapper::Parameters},\n    model::*,\n    schemars,\n    service::RequestContext,\n    tool, tool_router,\n};",
        error: "McpError",
        text: "ContentBlock::text",
    },
];

/// Handler bodies over `args: {Noun}Args`, `self.store` and `self.root`. The return type is
/// `Result<CallToolResult, {Err}>` unless the template says otherwise.
const BODIES: [(&str, &str); 15] = [
    // tool_failure_as_protocol_error
    (
        "",
        r#"let path = self.root.join(&args.id);
        let text = tokio::fs::read_to_string(&path)
            .await
            .map_err(|e| {Err}::internal_error(format!("cannot read {noun} {}: {e}", args.id), None))?;
        Ok(CallToolResult::success(vec![{text}(text)]))"#,
    ),
    // tool_input_as_invalid_params
    (
        "",
        r#"if args.limit == 0 || args.limit > MAX_{NOUN}S as u32 {
            return Err({Err}::invalid_params(format!("limit must be 1-{}, got {}", MAX_{NOUN}S, args.limit), None));
        }
        let store = self.store.lock().await;
        let names: Vec<String> = store.keys().take(args.limit as usize).cloned().collect();
        Ok(CallToolResult::success(vec![{text}(names.join("\n"))]))"#,
    ),
    // empty_error_content
    (
        "",
        r#"if args.text.trim().is_empty() {
            return Ok(CallToolResult::error(vec![]));
        }
        self.store.lock().await.insert(args.id.clone(), args.text.clone());
        Ok(CallToolResult::success(vec![{text}(format!("saved {noun} {}", args.id))]))"#,
    ),
    // vague_error_text
    (
        "",
        r#"let store = self.store.lock().await;
        match store.get(&args.id) {
            Some(v) => Ok(CallToolResult::success(vec![{text}(v.clone())])),
            None => Ok(CallToolResult::error(vec![{text}("Something went wrong")])),
        }"#,
    ),
    // legacy_error_code
    (
        "",
        r#"let lock = self.root.join(format!("{}.lock", args.id));
        if tokio::fs::try_exists(&lock).await.unwrap_or(false) {
            return Err({Err}::new(ErrorCode(-32001), format!("{noun} {} is locked by another editor", args.id), None));
        }
        tokio::fs::write(self.root.join(&args.id), &args.text)
            .await
            .map_err(|e| {Err}::internal_error(e.to_string(), None))?;
        Ok(CallToolResult::success(vec![{text}("written")]))"#,
    ),
    // failure_as_success
    (
        "",
        r#"match tokio::fs::write(self.root.join(&args.id), &args.text).await {
            Ok(()) => Ok(CallToolResult::success(vec![{text}(format!("saved {}", args.id))])),
            Err(e) => Ok(CallToolResult::success(vec![{text}(format!("Error: {e}"))])),
        }"#,
    ),
    // stale_handle_as_success
    (
        "",
        r#"let mut store = self.store.lock().await;
        let Some(entry) = store.get_mut(&args.id) else {
            return Ok(CallToolResult::success(vec![{text}(format!("{noun} {} not found", args.id))]));
        };
        entry.push_str(&args.text);
        Ok(CallToolResult::success(vec![{text}(format!("{} characters", entry.len()))]))"#,
    ),
    // panic_in_tool
    (
        "",
        r#"let text = std::fs::read_to_string(self.root.join(&args.id)).unwrap();
        let words = text.split_whitespace().count();
        Ok(CallToolResult::success(vec![{text}(words.to_string())]))"#,
    ),
    // correct: a specific isError result
    (
        "",
        r#"let store = self.store.lock().await;
        let Some(value) = store.get(&args.id) else {
            return Ok(CallToolResult::error(vec![{text}(format!(
                "no {noun} with id `{}`; call list_{noun}s for the valid ids",
                args.id
            ))]));
        };
        Ok(CallToolResult::success(vec![{text}(value.clone())]))"#,
    ),
    // a helper whose error converts through `impl From<{Noun}Error> for {Err}`
    (
        "",
        r#"let store = self.store.lock().await;
        let value = load_{noun}(&store, &args.id)?;
        Ok(CallToolResult::success(vec![{text}(value)]))"#,
    ),
    // ordinary computation, correct error
    (
        "",
        r#"let mut counts: HashMap<char, usize> = HashMap::new();
        for c in args.text.chars().filter(|c| c.is_alphanumeric()) {
            *counts.entry(c.to_ascii_lowercase()).or_default() += 1;
        }
        let mut pairs: Vec<(char, usize)> = counts.into_iter().collect();
        pairs.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let lines: Vec<String> = pairs
            .iter()
            .take(args.limit.max(1) as usize)
            .map(|(c, n)| format!("{c}: {n}"))
            .collect();
        if lines.is_empty() {
            return Ok(CallToolResult::error(vec![{text}(format!(
                "`text` has no letters or digits; pass the {noun} text to analyse"
            ))]));
        }
        Ok(CallToolResult::success(vec![{text}(lines.join("\n"))]))"#,
    ),
    // JSON input checked with invalid_params, then a correct tool error
    (
        "",
        r#"let value: serde_json::Value = serde_json::from_str(&args.text)
            .map_err(|e| {Err}::invalid_params(format!("`text` is not JSON: {e}"), None))?;
        let Some(object) = value.as_object() else {
            return Ok(CallToolResult::error(vec![{text}("`text` must be a JSON object, e.g. {\"a\": 1}")]));
        };
        Ok(CallToolResult::success(vec![{text}(format!("{} keys", object.len()))]))"#,
    ),
    // empty text in an error
    (
        "",
        r#"let removed = self.store.lock().await.remove(&args.id);
        if removed.is_none() {
            return Ok(CallToolResult::error(vec![{text}("")]));
        }
        Ok(CallToolResult::success(vec![{text}(format!("deleted {noun} {}", args.id))]))"#,
    ),
    // reserved_error_code
    (
        "",
        r#"if args.id.starts_with("archive/") {
            return Err({Err}::new(ErrorCode(-32050), "the archive is read-only during the migration", None));
        }
        let store = self.store.lock().await;
        Ok(CallToolResult::success(vec![{text}(store.len().to_string())]))"#,
    ),
    // `Err(String)` from a tool: an isError result
    (
        "Result<String, String>",
        r#"let n: i64 = args
            .text
            .trim()
            .parse()
            .map_err(|e| format!("`text` must be an integer, e.g. 42: {e}"))?;
        if n < 0 {
            return Err(format!("`text` must not be negative, got {n}"));
        }
        Ok((n * 2).to_string())"#,
    ),
];

/// Write `crates` servers under `out` (replacing what is there).
pub fn generate(out: &Path, crates: usize, seed: u64) -> std::io::Result<DenseStats> {
    if out.exists() {
        std::fs::remove_dir_all(out)?;
    }
    let mut rng = Rng::new(seed);
    let mut stats = DenseStats {
        crates,
        files: 0,
        bytes: 0,
    };
    for c in 0..crates {
        let generation = &GENERATIONS[rng.below(GENERATIONS.len())];
        let dir = out.join(format!("server-{c:04}"));
        std::fs::create_dir_all(dir.join("src"))?;
        std::fs::write(
            dir.join("Cargo.toml"),
            format!(
                "[package]\nname = \"server-{c:04}\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\nrmcp = {{ version = \"{}\", features = [\"server\", \"macros\"] }}\ntokio = {{ version = \"1\", features = [\"full\"] }}\nserde = {{ version = \"1\", features = [\"derive\"] }}\nserde_json = \"1\"\n",
                generation.version
            ),
        )?;
        let modules = 3 + rng.below(8);
        let mut names = Vec::new();
        for m in 0..modules {
            let noun = NOUNS[(c * 7 + m * 5 + rng.below(3)) % NOUNS.len()];
            let name = format!("{noun}_{m}");
            let text = module(&mut rng, generation, noun, m);
            stats.bytes += text.len();
            std::fs::write(dir.join("src").join(format!("{name}.rs")), text)?;
            names.push(name);
        }
        let main = main_file(&mut rng, generation, &names);
        stats.bytes += main.len();
        std::fs::write(dir.join("src/main.rs"), main)?;
        stats.files += modules + 1;
    }
    Ok(stats)
}

fn capitalized(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

fn fill(template: &str, g: &Generation, noun: &str) -> String {
    template
        .replace("{Err}", g.error)
        .replace("{text}", g.text)
        .replace("{NOUN}", &noun.to_ascii_uppercase())
        .replace("{Noun}", &capitalized(noun))
        .replace("{noun}", noun)
}

/// One module: args, an error enum with `From`, a helper, and a service with 4-10 tools.
fn module(rng: &mut Rng, g: &Generation, noun: &str, index: usize) -> String {
    let mut s = String::new();
    let header = r#"//! {Noun} tools.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use serde::Deserialize;
use tokio::sync::Mutex;

"#;
    s.push_str(&fill(header, g, noun));
    s.push_str(g.imports);
    let common = r#"

/// At most this many {noun}s are listed at once.
pub const MAX_{NOUN}S: usize = 50;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct {Noun}Args {
    /// The {noun}'s id, as returned by `list_{noun}s`.
    pub id: String,
    /// How many entries to return, 1-50.
    #[serde(default)]
    pub limit: u32,
    /// Free text.
    #[serde(default)]
    pub text: String,
}

#[derive(Debug)]
pub enum {Noun}Error {
    NotFound(String),
    Storage(std::io::Error),
    Invalid(String),
}

impl std::fmt::Display for {Noun}Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            {Noun}Error::NotFound(id) => write!(f, "no {noun} with id `{id}`"),
            {Noun}Error::Storage(e) => write!(f, "storage failed: {e}"),
            {Noun}Error::Invalid(why) => write!(f, "invalid {noun}: {why}"),
        }
    }
}

impl From<{Noun}Error> for {Err} {
    fn from(e: {Noun}Error) -> Self {
        match e {
            {Noun}Error::NotFound(_) => {Err}::invalid_params(e.to_string(), None),
            {Noun}Error::Storage(_) => {Err}::internal_error(e.to_string(), None),
            {Noun}Error::Invalid(_) => {Err}::invalid_params(e.to_string(), None),
        }
    }
}

fn load_{noun}(store: &HashMap<String, String>, id: &str) -> Result<String, {Noun}Error> {
    if id.is_empty() {
        return Err({Noun}Error::Invalid("the id is empty".to_string()));
    }
    store
        .get(id)
        .cloned()
        .ok_or_else(|| {Noun}Error::NotFound(id.to_string()))
}

fn summarize(values: &[String], width: usize) -> String {
    let mut out = String::new();
    for (i, v) in values.iter().enumerate() {
        let line: String = v.chars().take(width).collect();
        out.push_str(&format!("{:>3}. {}\n", i + 1, line));
    }
    out
}

#[derive(Clone)]
pub struct {Noun}Service {
    store: Arc<Mutex<HashMap<String, String>>>,
    root: PathBuf,
    tool_router: ToolRouter<Self>,
}
"#;
    s.push_str(&fill(common, g, noun));
    let tools = 4 + rng.below(7);
    let dispatcher = rng.below(4) == 0;
    let mut methods = Vec::new();
    for t in 0..tools {
        let verb = rng.pick(&VERBS);
        let (ret, body) = BODIES[rng.below(BODIES.len())];
        let ret = if ret.is_empty() {
            format!("Result<CallToolResult, {}>", g.error)
        } else {
            ret.to_string()
        };
        methods.push((
            format!("{verb}_{noun}_{index}_{t}"),
            ret,
            fill(body, g, noun),
        ));
    }
    let noun_cap = capitalized(noun);
    if dispatcher {
        let _ = writeln!(s, "\nimpl {noun_cap}Service {{");
        for (name, ret, body) in &methods {
            let _ = writeln!(
                s,
                "    async fn {name}_impl(&self, args: {noun_cap}Args) -> {ret} {{\n        {body}\n    }}\n"
            );
        }
        s.push_str("}\n");
        let _ = writeln!(
            s,
            "\nimpl ServerHandler for {noun_cap}Service {{\n    async fn call_tool(\n        &self,\n        request: CallToolRequestParam,\n        _context: RequestContext<RoleServer>,\n    ) -> Result<CallToolResult, {err}> {{\n        let args: {noun_cap}Args = serde_json::from_value(serde_json::Value::Object(request.arguments.clone().unwrap_or_default()))\n            .map_err(|e| {err}::invalid_params(format!(\"bad arguments for {{}}: {{e}}\", request.name), None))?;\n        match request.name.as_ref() {{",
            err = g.error
        );
        for (name, ret, _) in &methods {
            if ret.starts_with("Result<CallToolResult") {
                let _ = writeln!(s, "            \"{name}\" => self.{name}_impl(args).await,");
            } else {
                let _ = writeln!(
                    s,
                    "            \"{name}\" => match self.{name}_impl(args).await {{\n                Ok(text) => Ok(CallToolResult::success(vec![{text}(text)])),\n                Err(e) => Ok(CallToolResult::error(vec![{text}(e)])),\n            }},",
                    text = g.text
                );
            }
        }
        let unknown = if rng.below(2) == 0 {
            format!(
                "Ok(CallToolResult::error(vec![{}(format!(\"unknown tool {{other}}\"))]))",
                g.text
            )
        } else {
            format!(
                "Err({}::invalid_params(format!(\"unknown tool {{other}}\"), None))",
                g.error
            )
        };
        let _ = writeln!(s, "            other => {unknown},\n        }}\n    }}\n}}");
    } else {
        let _ = writeln!(s, "\n#[tool_router]\nimpl {noun_cap}Service {{");
        let _ = writeln!(
            s,
            "    pub fn new(root: PathBuf) -> Self {{\n        Self {{\n            store: Arc::default(),\n            root,\n            tool_router: Self::tool_router(),\n        }}\n    }}\n"
        );
        for (name, ret, body) in &methods {
            let description = format!(
                "{} a {noun}",
                capitalized(name.split('_').next().unwrap_or("use"))
            );
            let _ = writeln!(
                s,
                "    #[tool(description = \"{description}\")]\n    async fn {name}(&self, Parameters(args): Parameters<{noun_cap}Args>) -> {ret} {{\n        {body}\n    }}\n"
            );
        }
        s.push_str("}\n");
    }
    s
}

/// `main.rs`: the modules, a health tool and a `main`.
fn main_file(rng: &mut Rng, g: &Generation, modules: &[String]) -> String {
    let mut s = String::new();
    for m in modules {
        let _ = writeln!(s, "mod {m};");
    }
    s.push('\n');
    s.push_str(g.imports);
    let body = if rng.below(2) == 0 {
        "Ok(CallToolResult::success(vec![{text}(format!(\"up for {} s\", self.started.elapsed().as_secs()))]))"
    } else {
        "if self.started.elapsed().as_secs() > 86_400 {\n            return Err({Err}::internal_error(\"uptime counter overflowed\", None));\n        }\n        Ok(CallToolResult::success(vec![{text}(\"ok\")]))"
    };
    let main = r#"

#[derive(Clone)]
pub struct Health {
    started: std::time::Instant,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Health {
    #[tool(description = "Report whether the server is up")]
    async fn health(&self) -> Result<CallToolResult, {Err}> {
        BODY
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let health = Health { started: std::time::Instant::now(), tool_router: Health::tool_router() };
    let _ = health;
    Ok(())
}
"#;
    s.push_str(&fill(&main.replace("BODY", body), g, "server"));
    s
}
