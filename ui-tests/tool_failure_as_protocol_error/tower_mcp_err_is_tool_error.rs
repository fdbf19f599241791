//@ dep: tower-mcp = "0.25"
//@ dep: serde = "1"
//@ dep: schemars = "1"
// tower-mcp sends no tool failure as a JSON-RPC error: every `Err` a tool returns, whatever it
// holds (`Error::tool`, `Error::JsonRpc(JsonRpcError::internal_error(..))`, a `?`), becomes an
// isError result with the error's text (`ToolCatchError` around every tool). Nothing to report.
use schemars::JsonSchema;
use serde::Deserialize;
use tower_mcp::{CallToolResult, Error, JsonRpcError, McpTool, ToolBuilder};

#[derive(Debug, Deserialize, JsonSchema)]
pub struct QueryInput {
    sql: String,
}

pub fn query_tool() -> tower_mcp::Tool {
    ToolBuilder::new("query")
        .description("Run a query")
        .handler(|input: QueryInput| async move {
            if input.sql.is_empty() {
                return Err(Error::JsonRpc(JsonRpcError::invalid_params("sql is empty")));
            }
            let rows = run(&input.sql).map_err(|e| Error::tool(format!("query failed: {e}")))?;
            if rows.is_empty() {
                return Err(Error::JsonRpc(JsonRpcError::internal_error("no rows")));
            }
            Ok(CallToolResult::text(rows.join("\n")))
        })
        .build()
}

fn run(sql: &str) -> Result<Vec<String>, std::io::Error> {
    Ok(vec![sql.to_string()])
}

pub struct Count;

impl McpTool for Count {
    const NAME: &'static str = "count";
    const DESCRIPTION: &'static str = "Count rows";
    type Input = QueryInput;
    type Output = usize;

    async fn call(&self, input: Self::Input) -> tower_mcp::Result<usize> {
        let rows = run(&input.sql).map_err(|e| Error::internal(format!("cannot count: {e}")))?;
        Ok(rows.len())
    }
}
