//! The many-files crates of the cached-run benchmark (issue 12): N small files, one in ten an
//! rmcp tool that sends a database failure as a protocol error (a finding, so a warm run shows
//! it again with its text), the others a one-line fn. Two shapes: **package**, one rmcp package
//! whose `src/` holds the files; **loose**, the same files with no Cargo.toml, each its own
//! crate (a cache entry each).

use std::path::Path;

use crate::names::Written;

/// Files per directory.
const DIRECTORY: usize = 500;

const TOOL: &str = r#"use rmcp::{ErrorData as McpError, model::*, tool, tool_router};

pub struct S;

#[tool_router]
impl S {
    #[tool(description = "d")]
    async fn f(&self) -> Result<CallToolResult, McpError> {
        Err(McpError::internal_error("database connection refused while reading orders", None))
    }
}
"#;

/// Write `files` files under `out`, as one package (`loose == false`) or as loose files.
pub fn generate(out: &Path, files: usize, loose: bool) -> std::io::Result<Written> {
    let mut w = if loose {
        if out.exists() {
            std::fs::remove_dir_all(out)?;
        }
        Written::default()
    } else {
        Written::start(out, &format!("files-{files}"))?
    };
    let root = if loose {
        out.to_path_buf()
    } else {
        out.join("src")
    };
    let mut modules = String::new();
    for i in 0..files {
        let dir = format!("d{:03}", i / DIRECTORY);
        let name = format!("f{i:06}");
        let text = if i % 10 == 0 {
            TOOL.to_string()
        } else {
            format!("pub fn {name}(x: u32) -> u32 {{\n    x + {i}\n}}\n")
        };
        w.file(&root.join(&dir).join(format!("{name}.rs")), &text)?;
        if !loose {
            modules.push_str(&format!("#[path = \"{dir}/{name}.rs\"]\nmod {name};\n"));
        }
    }
    if !loose {
        w.file(
            &root.join("main.rs"),
            &format!("{modules}\nfn main() {{}}\n"),
        )?;
    }
    Ok(w)
}
