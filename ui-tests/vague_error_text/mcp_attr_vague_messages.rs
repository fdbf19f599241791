//@ dep: mcp-attr = "0.0.7"
// mcp-attr 0.0.7: every `Err` from a `#[tool]` fn is a JSON-RPC error (-32603 for `bail!` and
// `bail_public!(_, ..)`), so a vague message there fires both lints. `Error::new(code)` without
// `.with_message(..)` sends the code's default text ("Internal error"), which counts as vague, at
// the constructor. A `bail!` message is private (sent only by debug builds; release builds send
// "Internal error" instead), and is judged as written. Text in an isError literal is error text
// too; a message with detail is not vague.
use mcp_attr::schema::{CallToolResult, TextContent};
use mcp_attr::server::{mcp_server, McpServer};
use mcp_attr::{bail, bail_public, Error, ErrorCode, Result};

struct Units;

#[mcp_server]
impl McpServer for Units {
    /// Convert miles to kilometres.
    #[tool]
    async fn miles_to_km(&self, miles: f64) -> Result<String> {
        if !miles.is_finite() {
            bail_public!(_, "operation failed"); //~ tool_failure_as_protocol_error
            //~^ vague_error_text
        }
        if miles < 0.0 {
            bail!("failed"); //~ tool_failure_as_protocol_error
            //~^ vague_error_text
        }
        if miles > 1e9 {
            return Err(Error::new(ErrorCode::INTERNAL_ERROR)); //~ tool_failure_as_protocol_error
            //~^ vague_error_text
        }
        if miles == 0.0 {
            bail!("miles must be positive, got {miles}"); //~ tool_failure_as_protocol_error
        }
        Ok(format!("{:.3}", miles * 1.609_344))
    }

    /// Parse a length like "12 km".
    #[tool]
    async fn parse_length(&self, text: String) -> Result<CallToolResult> {
        let Some((number, unit)) = text.split_once(' ') else {
            return Ok(CallToolResult {
                content: vec![TextContent::new("error").into()], //~ vague_error_text
                is_error: Some(true),
                meta: Default::default(),
            });
        };
        match number.parse::<f64>() {
            Ok(value) => Ok(format!("{value} {unit}").into()),
            Err(e) => Ok(CallToolResult {
                content: vec![TextContent::new(format!("{number:?} is not a number: {e}; write it like \"12 km\"")).into()],
                is_error: Some(true),
                meta: Default::default(),
            }),
        }
    }
}
