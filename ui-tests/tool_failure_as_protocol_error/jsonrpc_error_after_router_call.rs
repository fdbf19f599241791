//@ dep: serde_json = "1"
// A hand-rolled server whose transport loop maps the router's errors:
// `match process_request(&req).await { Ok(v) => .., Err(e) => JsonRpcResponse::error(id,
// e.error_code(), e.to_string()) }`, where `process_request` holds the `"tools/call"` branch.
// The `Err` arm answers the tool call's failures too, so it is judged as the tool-call arm: a
// tool's pool failure leaves as -32001 (MCP001 at the construction, naming each code a failure
// gets there; MCP004 at the legacy codes the mapping picks; the unknown tool's `MethodNotFound`
// leaves as -32601, unknown_tool_wrong_code's). The same mapping of a router with
// no `"tools/call"` branch (an admin endpoint) answers no tool: silent.
use serde_json::{json, Value};

#[derive(Debug)]
pub enum McpError {
    ParseError(String),
    MethodNotFound(String),
    InvalidParams(String),
    PoolError(String),
    Database(String),
}

impl McpError {
    pub const fn error_code(&self) -> i64 {
        match self {
            McpError::ParseError(_) => -32700,
            McpError::MethodNotFound(_) => -32601,
            McpError::InvalidParams(_) => -32602,
            McpError::PoolError(_) => -32001, //~ legacy_error_code
            McpError::Database(_) => -32003, //~ legacy_error_code
        }
    }
}

impl std::fmt::Display for McpError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}

pub type McpResult<T> = std::result::Result<T, McpError>;

pub struct JsonRpcRequest {
    pub id: Option<Value>,
    pub method: String,
    pub params: Option<Value>,
}

pub struct JsonRpcResponse {
    pub id: Option<Value>,
    pub result: Option<Value>,
    pub error: Option<Value>,
}

impl JsonRpcResponse {
    pub fn success(id: Option<Value>, result: Value) -> Self {
        JsonRpcResponse { id, result: Some(result), error: None }
    }

    pub fn error(id: Option<Value>, code: i64, message: String) -> Self {
        JsonRpcResponse { id, result: None, error: Some(json!({ "code": code, "message": message })) }
    }
}

pub struct Pool;

impl Pool {
    pub async fn acquire(&self) -> McpResult<u32> {
        Err(McpError::PoolError("no connection available".to_string()))
    }
}

async fn handle_tools_call(req: &JsonRpcRequest, pool: &Pool) -> McpResult<Value> {
    let name = req
        .params
        .as_ref()
        .and_then(|p| p.get("name"))
        .and_then(Value::as_str)
        .ok_or_else(|| McpError::InvalidParams("missing 'name'".to_string()))?;
    let client = pool.acquire().await?;
    match name {
        "count_rows" => Ok(json!({ "content": [{ "type": "text", "text": client.to_string() }] })),
        other => Err(McpError::MethodNotFound(other.to_string())), //~ unknown_tool_wrong_code
    }
}

pub async fn process_request(req: &JsonRpcRequest, pool: &Pool) -> McpResult<Value> {
    match req.method.as_str() {
        "ping" => Ok(json!({})),
        "tools/call" => handle_tools_call(req, pool).await,
        other => Err(McpError::MethodNotFound(other.to_string())),
    }
}

pub async fn serve_line(line: &str, pool: &Pool) -> JsonRpcResponse {
    let req: JsonRpcRequest = match parse(line) {
        Ok(req) => req,
        Err(e) => return JsonRpcResponse::error(None, e.error_code(), e.to_string()),
    };
    match process_request(&req, pool).await {
        Ok(result) => JsonRpcResponse::success(req.id, result),
        Err(e) => JsonRpcResponse::error(req.id, e.error_code(), e.to_string()), //~ tool_failure_as_protocol_error
    }
}

fn parse(line: &str) -> McpResult<JsonRpcRequest> {
    let v: Value = serde_json::from_str(line).map_err(|e| McpError::ParseError(e.to_string()))?;
    let method = v.get("method").and_then(Value::as_str).unwrap_or_default().to_string();
    Ok(JsonRpcRequest { id: v.get("id").cloned(), method, params: v.get("params").cloned() })
}

/// An admin endpoint of the same process: its router has no tool-call branch.
pub async fn process_admin(req: &JsonRpcRequest) -> McpResult<Value> {
    match req.method.as_str() {
        "admin/vacuum" => Err(McpError::Database("vacuum failed".to_string())),
        other => Err(McpError::MethodNotFound(other.to_string())),
    }
}

pub async fn serve_admin(req: JsonRpcRequest) -> JsonRpcResponse {
    match process_admin(&req).await {
        Ok(result) => JsonRpcResponse::success(req.id, result),
        Err(e) => JsonRpcResponse::error(req.id, e.error_code(), e.to_string()),
    }
}
