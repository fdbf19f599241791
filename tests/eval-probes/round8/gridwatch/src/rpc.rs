//! JSON-RPC 2.0 over `POST /mcp`: framing, batches and method routing.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::error::AppError;
use crate::tools;
use crate::SharedState;

pub const PROTOCOL_VERSION: &str = "2026-07-28";
const SUPPORTED_VERSIONS: &[&str] = &["2025-11-25", "2026-07-28"];

#[derive(Debug, Serialize)]
pub struct JsonRpcError {
    pub code: i64,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

#[derive(Debug, Deserialize)]
pub struct JsonRpcRequest {
    pub jsonrpc: String,
    #[serde(default)]
    pub id: Option<Value>,
    pub method: String,
    #[serde(default)]
    pub params: Option<Value>,
}

#[derive(Debug, Serialize)]
pub struct JsonRpcResponse {
    pub jsonrpc: &'static str,
    pub id: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<JsonRpcError>,
}

impl JsonRpcResponse {
    fn ok(id: Value, result: Value) -> Self {
        JsonRpcResponse { jsonrpc: "2.0", id, result: Some(result), error: None }
    }

    fn err(id: Value, error: JsonRpcError) -> Self {
        JsonRpcResponse { jsonrpc: "2.0", id, result: None, error: Some(error) }
    }
}

/// `POST /mcp`: a single request, a notification, or a batch of them.
pub async fn mcp_endpoint(State(state): State<SharedState>, body: Bytes) -> Response {
    let parsed: Value = match serde_json::from_slice(&body) {
        Ok(v) => v,
        Err(e) => {
            let err = JsonRpcError::from(AppError::Parse(e.to_string()));
            return Json(JsonRpcResponse::err(Value::Null, err)).into_response();
        }
    };

    match parsed {
        Value::Array(items) if items.is_empty() => {
            let err = JsonRpcError::from(AppError::InvalidRequest("empty batch".into()));
            Json(JsonRpcResponse::err(Value::Null, err)).into_response()
        }
        Value::Array(items) => {
            let mut out = Vec::with_capacity(items.len());
            for item in items {
                if let Some(resp) = handle_one(&state, item).await {
                    out.push(resp);
                }
            }
            if out.is_empty() {
                StatusCode::ACCEPTED.into_response()
            } else {
                Json(out).into_response()
            }
        }
        single => match handle_one(&state, single).await {
            Some(resp) => Json(resp).into_response(),
            None => StatusCode::ACCEPTED.into_response(),
        },
    }
}

/// Handles one message; `None` for notifications.
async fn handle_one(state: &SharedState, raw: Value) -> Option<JsonRpcResponse> {
    let req: JsonRpcRequest = match serde_json::from_value(raw) {
        Ok(r) => r,
        Err(e) => {
            let err = JsonRpcError::from(AppError::InvalidRequest(e.to_string()));
            return Some(JsonRpcResponse::err(Value::Null, err));
        }
    };
    if req.jsonrpc != "2.0" {
        let err: JsonRpcError = AppError::InvalidRequest(format!("jsonrpc must be \"2.0\", got {:?}", req.jsonrpc)).into();
        return Some(JsonRpcResponse::err(req.id.unwrap_or(Value::Null), err));
    }
    let Some(id) = req.id.clone() else {
        tracing::debug!(method = %req.method, "notification");
        return None;
    };

    let outcome = route(state, &req.method, req.params.unwrap_or(Value::Null)).await;
    Some(match outcome {
        Ok(result) => JsonRpcResponse::ok(id, result),
        Err(e) => JsonRpcResponse::err(id, e.into()),
    })
}

/// Dispatches one request by method name.
async fn route(state: &SharedState, method: &str, params: Value) -> Result<Value, AppError> {
    match method {
        "initialize" => {
            let requested = params
                .get("protocolVersion")
                .and_then(Value::as_str)
                .unwrap_or(PROTOCOL_VERSION);
            let version = if SUPPORTED_VERSIONS.contains(&requested) {
                requested
            } else {
                PROTOCOL_VERSION
            };
            Ok(json!({
                "protocolVersion": version,
                "capabilities": { "tools": {}, "resources": {} },
                "serverInfo": { "name": "gridwatch", "version": env!("CARGO_PKG_VERSION") }
            }))
        }
        "ping" => Ok(json!({})),
        "tools/list" => Ok(json!({ "tools": tools::definitions() })),
        "tools/call" => call_tool_route(state, params).await,
        "resources/list" => {
            let subs = state.db.substations(None)?;
            let resources: Vec<Value> = subs
                .iter()
                .map(|s| json!({
                    "uri": format!("gridwatch://substation/{}", s.id),
                    "name": s.name,
                    "mimeType": "application/json"
                }))
                .collect();
            Ok(json!({ "resources": resources }))
        }
        "resources/read" => {
            let uri = params
                .get("uri")
                .and_then(Value::as_str)
                .ok_or_else(|| AppError::InvalidParams("resources/read requires a string `uri`".into()))?;
            let id = uri
                .strip_prefix("gridwatch://substation/")
                .ok_or_else(|| AppError::InvalidParams(format!("unsupported resource URI {uri}")))?;
            let sub = state.db.substation(id)?;
            let Some(sub) = sub else {
                return Err(AppError::NotFound { kind: "substation", id: id.to_string() });
            };
            let text = serde_json::to_string_pretty(&sub)?;
            Ok(json!({ "contents": [{ "uri": uri, "mimeType": "application/json", "text": text }] }))
        }
        other => Err(AppError::MethodNotFound(other.to_string())),
    }
}

/// `tools/call`: picks the tool; the tool's `Err` is sent as a JSON-RPC error by the caller.
async fn call_tool_route(state: &SharedState, params: Value) -> Result<Value, AppError> {
    let name = params
        .get("name")
        .and_then(Value::as_str)
        .ok_or_else(|| AppError::InvalidParams("tools/call requires a string `name`".into()))?;
    let args = match params.get("arguments") {
        None | Some(Value::Null) => json!({}),
        Some(v @ Value::Object(_)) => v.clone(),
        Some(_) => {
            return Err(AppError::InvalidParams("`arguments` must be an object".into()));
        }
    };
    tracing::info!(tool = name, "tools/call");
    tools::call(state, name, &args).await
}
