//! The error-site crate: one rmcp 1.8 tool fn whose body is a chain of N `if .. { return
//! Err(McpError::internal_error(..)) } else if ..` branches, each a failure of the tool
//! reported on the protocol channel (so every branch is a finding with a fix).

use std::fmt::Write as _;
use std::path::Path;

use crate::names::Written;

/// Write the crate with an `N`-site tool fn under `out`.
pub fn generate(out: &Path, sites: usize) -> std::io::Result<Written> {
    let mut w = Written::start(out, &format!("sites-{sites}"))?;
    let mut s = String::from(
        r#"//! One tool that checks a record against every rule in turn.

use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::*,
    schemars, tool, tool_router, ErrorData as McpError,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct Record {
    /// The record's id.
    pub id: String,
    /// Which rule the record is checked against.
    pub rule: u32,
    /// The record's fields.
    pub fields: Vec<String>,
}

#[derive(Clone)]
pub struct Checker {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Checker {
    pub fn new() -> Self {
        Self { tool_router: Self::tool_router() }
    }

    #[tool(description = "Check a record against one rule")]
    async fn check(&self, Parameters(record): Parameters<Record>) -> Result<CallToolResult, McpError> {
"#,
    );
    for i in 0..sites {
        let keyword = if i == 0 { "        if" } else { " else if" };
        let _ = write!(
            s,
            "{keyword} record.rule == {i} && record.fields.len() < {need} {{\n            return Err(McpError::internal_error(format!(\"rule {i} needs {need} fields, record {{}} has {{}}\", record.id, record.fields.len()), None));\n        }}",
            need = i % 7 + 1
        );
    }
    s.push_str(
        "\n        Ok(CallToolResult::success(vec![Content::text(format!(\"record {} passes rule {}\", record.id, record.rule))]))\n    }\n}\n\nfn main() {\n    let _ = Checker::new();\n}\n",
    );
    w.file(&out.join("src/main.rs"), &s)?;
    Ok(w)
}
