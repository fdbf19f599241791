//@ dep: serde_json = "1"
//@ dep: axum = "0.8"
//@ dep: reqwest = "0.12"
//@ dep: tokio = "1"
// JSON that looks like MCP but is not a server's answer to `tools/call`: a REST endpoint that
// reuses the JSON-RPC error shape, a JSON-RPC *client* that sends `"method": "tools/call"` and
// inspects the error codes and `isError` flags it gets back, and tests that build responses. No
// `"tools/call"` dispatch reaches any of it, so nothing here is a tool, and text that never reaches
// an MCP result or error ("internal error" on the HTTP side) is not judged.
use axum::extract::Path;
use axum::http::StatusCode;
use axum::Json;
use serde_json::{json, Value};

/// `GET /api/reports/{id}`: the dashboard's REST API.
pub async fn get_report(Path(id): Path<String>) -> (StatusCode, Json<Value>) {
    match std::fs::read_to_string(format!("reports/{id}.json")) {
        Ok(text) => (StatusCode::OK, Json(json!({ "report": text }))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            (StatusCode::NOT_FOUND, Json(json!({ "error": { "code": -32001, "message": format!("no report {id}") } })))
        }
        Err(_) => (StatusCode::INTERNAL_SERVER_ERROR, Json(json!({ "error": { "code": -32603, "message": "internal error" } }))),
    }
}

/// A client for a remote MCP server.
pub struct RemoteTools {
    client: reqwest::Client,
    url: String,
}

impl RemoteTools {
    pub async fn call(&self, name: &str, arguments: Value) -> Result<String, String> {
        let request = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": { "name": name, "arguments": arguments } });
        let response: Value = self
            .client
            .post(&self.url)
            .json(&request)
            .send()
            .await
            .map_err(|e| format!("cannot reach {}: {e}", self.url))?
            .json()
            .await
            .map_err(|e| format!("{} sent invalid JSON: {e}", self.url))?;
        if let Some(error) = response.get("error") {
            return match error["code"].as_i64() {
                Some(-32601) | Some(-32602) => Err(format!("the server has no tool {name}")),
                Some(-32001) => Err("the server's session expired".to_string()),
                _ => Err(format!("{name} failed: {}", error["message"])),
            };
        }
        let result = &response["result"];
        let text = result["content"][0]["text"].as_str().unwrap_or_default().to_string();
        if result["isError"].as_bool() == Some(true) {
            return Err(text);
        }
        Ok(text)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    #[test]
    fn error_results_are_detected() {
        let empty = json!({ "content": [], "isError": true });
        let failed = json!({ "jsonrpc": "2.0", "id": 7, "error": { "code": -32603, "message": "failed" } });
        assert_eq!(empty["isError"], true);
        assert_eq!(failed["error"]["code"], -32603);
    }
}
