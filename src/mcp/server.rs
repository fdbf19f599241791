//! The MCP server: four read-only tools over rmcp's `#[tool_router]`, and a `call_tool` that
//! answers an unknown tool the way the specification shows.
//!
//! Failure follows the rules mcp-lint teaches: a call the agent has to change (missing path,
//! unknown lint, bad configuration or arguments) is an `isError` result whose text says what
//! was wrong and what to pass instead; an unknown tool is JSON-RPC -32602
//! `Unknown tool: <name>`; -32603 is kept for mcp-lint's own faults (a panicked analysis,
//! output that cannot be serialized).

use std::path::PathBuf;
use std::sync::Arc;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::{schema_for_output, ToolCallContext};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{
    tool, tool_handler, tool_router, ErrorData as McpError, Peer, RoleServer, ServerHandler,
};

use super::params::{ExplainArgs, FixPreviewArgs, LintArgs};
use super::render::{LintOutput, Output, RulesOutput};
use super::roots::Roots;
use super::work;

#[derive(Clone)]
pub struct LintServer {
    /// Relative paths in tool arguments are resolved against this directory.
    cwd: Arc<PathBuf>,
    tool_router: ToolRouter<LintServer>,
}

impl LintServer {
    pub fn new(cwd: PathBuf) -> LintServer {
        LintServer {
            cwd: Arc::new(cwd),
            tool_router: LintServer::tool_router(),
        }
    }
}

/// Run a tool's work on the blocking pool (the analysis is CPU-bound and may take seconds), and
/// turn its outcome into the tool result: `Err(text)` is a call to change, an `isError` result.
async fn run_blocking(
    work: impl FnOnce() -> Result<Output, String> + Send + 'static,
) -> Result<CallToolResult, McpError> {
    let outcome = tokio::task::spawn_blocking(work).await.map_err(|join| {
        McpError::internal_error(
            format!("mcp-lint failed while running the tool (a bug in mcp-lint): {join}"),
            None,
        )
    })?;
    let Output { text, structured } = match outcome {
        Ok(output) => output,
        Err(message) => return Ok(CallToolResult::error(vec![ContentBlock::text(message)])),
    };
    let structured = structured.transpose().map_err(|e| {
        McpError::internal_error(format!("mcp-lint failed to serialize result: {e}"), None)
    })?;
    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
    result.structured_content = structured;
    Ok(result)
}

#[tool_router]
impl LintServer {
    /// Lint Rust MCP server code.
    #[tool(
        title = "Lint MCP server error handling",
        description = "Check Rust MCP server code for how its tools report failure: \
            failures sent as JSON-RPC protocol errors the model never sees, empty or vague error \
            text, legacy or reserved error codes, unknown tools answered as tool results, \
            failures returned as success. Call it after writing or changing a server's tool \
            handlers or error paths, and before committing. Pass `paths` (files or directories) \
            or the text of one file in `source`. Returns one block per finding (location, \
            level, code and name, message, the source line, help); `structuredContent` is the \
            `mcp-lint check --format json` document. Findings are the result, not a failure: \
            isError means the call itself has to change (a missing path, a bad configuration).",
        output_schema = schema_for_output::<LintOutput<'static>>(),
        annotations(
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    async fn lint(
        &self,
        peer: Peer<RoleServer>,
        Parameters(args): Parameters<LintArgs>,
    ) -> Result<CallToolResult, McpError> {
        let cwd = Arc::clone(&self.cwd);
        let roots = Roots::of_client(&peer, &cwd).await;
        run_blocking(move || work::lint(&cwd, &roots, &args)).await
    }

    /// Explain one lint.
    #[tool(
        title = "Explain an mcp-lint lint",
        description = "The full documentation of one mcp-lint lint, by name \
            (`vague_error_text`) or code (`MCP003`), or the list of a group's lints: what it \
            finds and what not, why it matters, an example and its fix, known false positives, \
            the MCP specification text it rests on, and what it means for each rmcp version. \
            Call it when a finding's help is not enough to fix it, or before suppressing one.",
        annotations(
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    async fn explain(
        &self,
        Parameters(args): Parameters<ExplainArgs>,
    ) -> Result<CallToolResult, McpError> {
        run_blocking(move || work::explain(&args)).await
    }

    /// Preview automatic fixes.
    #[tool(
        title = "Preview mcp-lint's automatic fixes",
        description = "The unified diff `mcp-lint check --fix --diff` would apply to `paths`, \
            computed in memory: nothing is written. Call it after `lint` to see which findings \
            have an automatic fix, then apply the diff or make the edits yourself. When no \
            finding has one it says so and lists the findings to fix by hand.",
        annotations(
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    async fn fix_preview(
        &self,
        peer: Peer<RoleServer>,
        Parameters(args): Parameters<FixPreviewArgs>,
    ) -> Result<CallToolResult, McpError> {
        let cwd = Arc::clone(&self.cwd);
        let roots = Roots::of_client(&peer, &cwd).await;
        run_blocking(move || work::fix_preview(&cwd, &roots, &args)).await
    }

    /// List every lint.
    #[tool(
        title = "List mcp-lint's lints",
        description = "Every mcp-lint lint: code, name, group, default level and a one-line \
            summary. Call it to find the name or code to pass to `explain`, to put in a \
            suppression comment (`// mcp-lint: allow(<name>) <reason>`), or to set in \
            mcp-lint.toml.",
        output_schema = schema_for_output::<RulesOutput>(),
        annotations(
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    async fn rules(&self) -> Result<CallToolResult, McpError> {
        run_blocking(work::rules).await
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for LintServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("mcp-lint", env!("CARGO_PKG_VERSION")))
            .with_instructions(format!(
                "mcp-lint checks how a Rust MCP server reports failure. Call `lint` on \
                 the server's crate after changing its tools, `explain` for a finding you do \
                 not know how to fix, `fix_preview` for automatic fixes, `rules` for the list \
                 of lints. Relative paths are resolved against {}.",
                self.cwd.display()
            ))
    }

    /// rmcp's router answers an unknown tool with -32602 "tool not found", which does not say
    /// which name was wrong. The specification's example is -32602 "Unknown tool: <name>";
    /// `data.tools` lists the names that exist.
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        if !self.tool_router.has_route(&request.name) {
            let tools: Vec<String> = self
                .tool_router
                .list_all()
                .into_iter()
                .map(|t| t.name.to_string())
                .collect();
            // The unknown-tool answer the spec shows: -32602 "Unknown tool: <name>".
            return Err(McpError::invalid_params(
                format!("Unknown tool: {}", request.name),
                Some(serde_json::json!({ "tools": tools })),
            ));
        }
        let context = ToolCallContext::new(self, request, context);
        self.tool_router.call(context).await
    }
}
