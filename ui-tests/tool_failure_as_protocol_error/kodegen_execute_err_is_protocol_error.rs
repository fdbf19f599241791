//@ dep: kodegen_mcp_schema = "0.10"
//@ dep: serde = "1"
//@ dep: anyhow = "1"
//@ dep: reqwest = "0.12"
//@ dep: thiserror = "2"
// kodegen (kodegen_mcp_schema 0.10, over rmcp 0.11): a tool is `impl Tool for T { async fn
// execute(&self, args, ctx) -> Result<ToolResponse<..>, McpError> }`, and its framework sends
// every `Err` as a JSON-RPC error (`ToolHandler::call`: `Err(rmcp::ErrorData::from(e))`), with
// the code `From<McpError> for rmcp::ErrorData` picks per variant: -32602 for
// `InvalidArguments`, -32603 for `PermissionDenied`, `Other` and the rest, and -32603 for what
// `?` converts itself (`anyhow::Error`, `std::io::Error`). So a file the model named that cannot
// be read, a refusal of the file the model named, an `anyhow!` error handed to `?`, and
// `.map_err(McpError::Other)?` are tool failures sent as protocol errors; a value check sent as
// -32602 is tool_input_as_invalid_params.
// Not reported: the tool's declaration (`name`, `description`) and its
// `Ok(ToolResponse::new(..))`; a `?` on the crate's own error, which only the crate's
// `From<StoreError> for McpError` converts (its arm for the variant tools pass, `Query`, is the
// finding; the `Pool` arm and the helper only it calls run for no tool); an optional line count
// whose error `if .. && let Ok(n) = ..` drops; a collect whose items are all `Ok`; an HTTP
// client built from constants (`.build()` fails only on the server's own mistake); and
// `.map_err(McpError::Other)` on a crate fn that never fails.
use kodegen_mcp_schema::{McpError, Tool, ToolExecutionContext, ToolResponse};
use serde::{Deserialize, Serialize};

#[derive(Deserialize)]
pub struct ReadArgs {
    pub path: String,
    pub max_lines: usize,
    pub url: Option<String>,
}

#[derive(Serialize)]
pub struct ReadOutput {
    pub lines: usize,
}

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("query failed: {0}")]
    Query(String),
    #[error("pool: {0}")]
    Pool(String),
}

impl From<StoreError> for McpError {
    fn from(err: StoreError) -> Self {
        match err {
            StoreError::Query(msg) => McpError::Other(anyhow::anyhow!("[query] {msg}")), //~ tool_failure_as_protocol_error
            StoreError::Pool(msg) => pool_error(msg),
        }
    }
}

fn pool_error(msg: String) -> McpError {
    McpError::Network(format!("[pool] {msg}"))
}

fn checked_line_limit(path: &str, max_lines: usize) -> Result<usize, StoreError> {
    if max_lines > 10_000 {
        return Err(StoreError::Query(format!("{path}: at most 10000 lines, got {max_lines}")));
    }
    Ok(max_lines)
}

async fn count_lines(path: &str) -> Result<usize, McpError> {
    let text = tokio_read(path)?;
    Ok(text.lines().count())
}

fn tokio_read(path: &str) -> std::io::Result<String> {
    std::fs::read_to_string(path)
}

fn display_name(path: &str) -> anyhow::Result<String> {
    Ok(format!("file {path}"))
}

fn split_statements(text: &str) -> anyhow::Result<Vec<String>> {
    if text.is_empty() {
        anyhow::bail!("nothing to split");
    }
    Ok(text.split(';').map(str::to_string).collect())
}

pub struct ReadFileTool;

impl Tool for ReadFileTool {
    type Args = ReadArgs;
    type Prompts = ();

    fn name() -> &'static str {
        "read_file"
    }

    fn description() -> &'static str {
        "Read a text file"
    }

    async fn execute(&self, args: Self::Args, _ctx: ToolExecutionContext) -> Result<ToolResponse<ReadOutput>, McpError> {
        if args.max_lines == 0 {
            return Err(McpError::InvalidArguments("max_lines must be at least 1, got 0".to_string())); //~ tool_input_as_invalid_params
        }
        let limit = checked_line_limit(&args.path, args.max_lines)?;
        let text = std::fs::read_to_string(&args.path)?; //~ tool_failure_as_protocol_error
        if text.starts_with("#!") {
            return Err(McpError::PermissionDenied(format!("{} is a script; only data files are read", args.path))); //~ tool_failure_as_protocol_error
        }
        let statements = split_statements(&text) //~ tool_failure_as_protocol_error
            .map_err(|e| anyhow::anyhow!("{}: {e}", args.path))?;
        let numbered: Vec<String> = statements
            .iter()
            .enumerate()
            .map(|(i, s)| Ok::<String, McpError>(format!("{i}: {s}")))
            .collect::<Result<_, _>>()?;
        let mut lines = numbered.len().min(limit);
        if text.len() < 1024 && let Ok(n) = count_lines(&args.path).await {
            lines = n.min(limit);
        }
        if let Some(url) = &args.url {
            let client = reqwest::Client::builder()
                .user_agent(concat!("reader/", env!("CARGO_PKG_VERSION")))
                .timeout(std::time::Duration::from_secs(30))
                .build()
                .map_err(|e| McpError::Network(format!("cannot build the HTTP client: {e}")))?;
            let body = client.get(url).send().await.map_err(|e| McpError::Network(e.to_string()))?; //~ tool_failure_as_protocol_error
            let extra = body.text().await.map_err(McpError::Other)?; //~ tool_failure_as_protocol_error
            lines += extra.lines().count();
        }
        let title = display_name(&args.path).map_err(McpError::Other)?;
        Ok(ToolResponse::new(format!("{title}\n{text}"), ReadOutput { lines }))
    }
}
