//! The name-reuse crate: one rmcp 1.8 server of K small modules in which every module defines
//! the same helper names (`validate`, `internal`, `AppError`, `From<AppError> for McpError`,
//! `Handler::run`), so only name resolution tells which one a tool reaches.
//!
//! Layout: `src/main.rs` declares groups `g00`..; `src/gNN/mod.rs` declares its 64 modules
//! (and has the same helpers once more); `src/gNN/mKKKK.rs` is one module of about 25 lines.
//! Modules come in four kinds, by index modulo 16:
//!
//! - 1: a `#[tool_router]` whose tool calls the module's helpers by bare name, its `?` going
//!   through the module's own `From<AppError>`, and `.map_err(internal)`;
//! - 6: the tools in an inline `mod tools` with `use super::*`, calling `super::validate` and
//!   the module's `Handler` by its `crate::` path, failing with an isError result;
//! - 11: the helpers in an inline `pub mod helpers`, reached through a glob import and a
//!   renamed one (`use self::helpers::{validate as check_id}`);
//! - the others: helpers only, reached by no tool (their `internal_error`s are right where
//!   they are).

use std::fmt::Write as _;
use std::path::Path;

/// Modules per group directory.
const GROUP: usize = 64;

const CARGO_TOML: &str = r#"[package]
name = "NAME"
version = "0.1.0"
edition = "2021"

[dependencies]
rmcp = { version = "1.8", features = ["server", "macros", "transport-io"] }
serde = { version = "1", features = ["derive"] }
tokio = { version = "1", features = ["full"] }
"#;

/// What a generator wrote.
#[derive(Default)]
pub struct Written {
    pub files: usize,
    pub lines: usize,
    pub bytes: usize,
}

impl Written {
    /// Write `text` to `path`, counting it.
    pub fn file(&mut self, path: &Path, text: &str) -> std::io::Result<()> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        std::fs::write(path, text)?;
        self.files += 1;
        self.lines += text.lines().count();
        self.bytes += text.len();
        Ok(())
    }

    /// Start a crate at `out` (replacing what is there) with its Cargo.toml: an rmcp 1.8
    /// server called `name`.
    pub fn start(out: &Path, name: &str) -> std::io::Result<Written> {
        if out.exists() {
            std::fs::remove_dir_all(out)?;
        }
        std::fs::create_dir_all(out.join("src"))?;
        std::fs::write(out.join("Cargo.toml"), CARGO_TOML.replace("NAME", name))?;
        Ok(Written::default())
    }
}

/// The one-line edit the language-server benchmark makes: in this file, the line that holds
/// `EDIT_LINE` (a kind-1 module's success result), replaced by `edited_line(n)`.
pub const EDIT_FILE: &str = "src/g00/m0001.rs";
pub const EDIT_LINE: &str = "        Ok(CallToolResult::success(vec![Content::text(out)]))";

pub fn edited_line(n: usize) -> String {
    format!(
        "        Ok(CallToolResult::success(vec![Content::text(format!(\"{{out}} (edit {n})\"))]))"
    )
}

/// Write the crate of `modules` modules (at least 2: `main` and the edit use module 1) under
/// `out`.
pub fn generate(out: &Path, modules: usize) -> std::io::Result<Written> {
    let mut w = Written::start(out, &format!("names-{modules}"))?;
    let groups = modules.div_ceil(GROUP);
    let mut main = String::from("//! A server of many small modules that reuse helper names.\n\n");
    for g in 0..groups {
        let _ = writeln!(main, "mod g{g:02};");
    }
    main.push_str(
        "\n#[tokio::main]\nasync fn main() {\n    let tools = g00::m0001::Tools::new();\n    let _ = tools;\n}\n",
    );
    w.file(&out.join("src/main.rs"), &main)?;
    for g in 0..groups {
        let mut group =
            format!("//! Group {g}: its own helpers, with the same names as every module's.\n\n");
        for m in g * GROUP..((g + 1) * GROUP).min(modules) {
            let _ = writeln!(group, "pub mod m{m:04};");
            w.file(&out.join(format!("src/g{g:02}/m{m:04}.rs")), &module(g, m))?;
        }
        group.push('\n');
        group.push_str(&helpers(&format!("g{g:02}"), "internal_error", ""));
        w.file(&out.join(format!("src/g{g:02}/mod.rs")), &group)?;
    }
    Ok(w)
}

/// The helpers every module has, by the same names; `code` is the constructor the `From`
/// impl uses, `indent` the indentation of an inline module.
fn helpers(tag: &str, code: &str, indent: &str) -> String {
    let text = format!(
        r#"#[derive(Debug)]
pub struct AppError(pub String);
impl From<AppError> for McpError {{
    fn from(e: AppError) -> Self {{ McpError::{code}(format!("{tag}: {{}}", e.0), None) }}
}}

pub fn validate(id: &str) -> Result<(), AppError> {{
    if id.is_empty() {{ return Err(AppError("the id is empty".to_string())); }}
    Ok(())
}}

pub fn internal(e: AppError) -> McpError {{ McpError::internal_error(format!("{tag} failed: {{}}", e.0), None) }}

pub struct Handler;
impl Handler {{
    pub fn run(&self, id: &str) -> Result<String, AppError> {{ validate(id)?; Ok(format!("{tag} ran {{id}}")) }}
}}
"#
    );
    indented(&text, indent)
}

/// `text` with every non-empty line indented by `indent`.
fn indented(text: &str, indent: &str) -> String {
    text.lines()
        .map(|l| {
            if l.is_empty() {
                "\n".to_string()
            } else {
                format!("{indent}{l}\n")
            }
        })
        .collect()
}

const TOOL_IMPORTS: &str = "use rmcp::{handler::server::{router::tool::ToolRouter, wrapper::Parameters}, model::*, schemars, tool, tool_router, ErrorData as McpError};\nuse serde::Deserialize;\n";

const ARGS: &str = "#[derive(Debug, Deserialize, schemars::JsonSchema)]\npub struct Args { pub id: String }\n\n#[derive(Clone)]\npub struct Tools { tool_router: ToolRouter<Self> }\n";

fn module(g: usize, m: usize) -> String {
    let tag = format!("m{m:04}");
    let path = format!("crate::g{g:02}::{tag}");
    match m % 16 {
        1 => format!(
            r#"//! Module {m}: a tool that calls this module's helpers by name.

{TOOL_IMPORTS}
{helpers}
{ARGS}
#[tool_router]
impl Tools {{
    pub fn new() -> Self {{
        Self {{ tool_router: Self::tool_router() }}
    }}

    #[tool(description = "Run job {m}")]
    async fn run_{m}(&self, Parameters(args): Parameters<Args>) -> Result<CallToolResult, McpError> {{
        validate(&args.id)?;
        let out = Handler.run(&args.id).map_err(internal)?;
{EDIT_LINE}
    }}
}}
"#,
            helpers = helpers(&tag, "invalid_params", "")
        ),
        6 => format!(
            r#"//! Module {m}: tools in an inline module, through `super::` and `crate::` paths.

use rmcp::ErrorData as McpError;

{helpers}
mod tools {{
    use super::*;
{imports}
{args}
    #[tool_router]
    impl Tools {{
        #[tool(description = "Check job {m}")]
        async fn check_{m}(&self, Parameters(args): Parameters<Args>) -> Result<CallToolResult, McpError> {{
            if let Err(e) = super::validate(&args.id) {{
                return Ok(CallToolResult::error(vec![Content::text(format!("bad id: {{}}", e.0))]));
            }}
            match {path}::Handler.run(&args.id) {{
                Ok(out) => Ok(CallToolResult::success(vec![Content::text(out)])),
                Err(e) => Ok(CallToolResult::error(vec![Content::text(e.0)])),
            }}
        }}
    }}
}}
"#,
            helpers = helpers(&tag, "internal_error", ""),
            imports = indented(TOOL_IMPORTS, "    "),
            args = indented(ARGS, "    "),
        ),
        11 => format!(
            r#"//! Module {m}: helpers in an inline module, through a glob and a renamed import.

{TOOL_IMPORTS}
use self::helpers::*;
use self::helpers::{{validate as check_id}};

pub mod helpers {{
    use rmcp::ErrorData as McpError;

{helpers}}}

{ARGS}
#[tool_router]
impl Tools {{
    #[tool(description = "Export job {m}")]
    async fn export_{m}(&self, Parameters(args): Parameters<Args>) -> Result<CallToolResult, McpError> {{
        check_id(&args.id)?;
        let out = Handler.run(&args.id).map_err(internal)?;
        Ok(CallToolResult::success(vec![Content::text(out)]))
    }}
}}
"#,
            helpers = helpers(&tag, "internal_error", "    ")
        ),
        _ => format!(
            "//! Module {m}: start-up helpers; no tool reaches them.\n\nuse rmcp::ErrorData as McpError;\n\n{}",
            helpers(&tag, "internal_error", "")
        ),
    }
}
