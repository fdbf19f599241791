//@ rmcp = "0.9"
//@ dep: serde_json = "1"
// A hand-written `call_tool` that hands the tool name to a dispatch helper (`self.dispatch(
// &request.name, args).await`) and answers the helper's every `Err` itself with an isError
// result (`Err(error) => Ok(CallToolResult::error(..error.message..))`): the protocol errors the
// helper and the fns it calls build never reach the wire (no MCP001), and the helper's
// unknown-tool `Err` is an isError answer (MCP007), not a protocol error with a wrong code.
// The same helper behind a `call_tool` that passes its `Err` on (`self.dispatch(..).await`)
// sends them as protocol errors: reported there.
use rmcp::{model::*, service::RequestContext, ErrorData, RoleServer, ServerHandler};
use serde_json::Value;

pub struct Answered;

impl Answered {
    async fn fetch(&self, url: &str) -> Result<Value, ErrorData> {
        let body = std::fs::read_to_string(url)
            .map_err(|_| ErrorData::internal_error("Upstream unavailable", None))?;
        Ok(Value::String(body))
    }

    async fn dispatch(&self, name: &str, args: Value) -> Result<Value, ErrorData> {
        match name {
            "fetch" => self.fetch(args["url"].as_str().unwrap_or_default()).await,
            "echo" => Ok(args),
            _ => Err(ErrorData::invalid_params("Unknown tool", None)), //~ unknown_tool_as_tool_error
        }
    }
}

impl ServerHandler for Answered {
    async fn call_tool(
        &self,
        request: CallToolRequestParam,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let args = Value::Object(request.arguments.unwrap_or_default());
        let data = self.dispatch(&request.name, args).await;
        match data {
            Ok(data) => Ok(CallToolResult::success(vec![Content::text(data.to_string())])),
            Err(error) => Ok(CallToolResult::error(vec![Content::text(error.message)])),
        }
    }
}

pub struct PassedOn;

impl PassedOn {
    async fn fetch(&self, url: &str) -> Result<Value, ErrorData> {
        let body = std::fs::read_to_string(url)
            .map_err(|e| ErrorData::internal_error(format!("cannot read {url}: {e}"), None))?; //~ tool_failure_as_protocol_error
        Ok(Value::String(body))
    }

    async fn dispatch(&self, name: &str, args: Value) -> Result<Value, ErrorData> {
        match name {
            "fetch" => self.fetch(args["url"].as_str().unwrap_or_default()).await,
            _ => Err(ErrorData::invalid_params(format!("Unknown tool: {name}"), None)),
        }
    }
}

impl ServerHandler for PassedOn {
    async fn call_tool(
        &self,
        request: CallToolRequestParam,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let args = Value::Object(request.arguments.unwrap_or_default());
        let data = self.dispatch(&request.name, args).await?;
        Ok(CallToolResult::success(vec![Content::text(data.to_string())]))
    }
}
