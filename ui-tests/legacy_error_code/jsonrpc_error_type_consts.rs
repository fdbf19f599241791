//@ dep: serde_json = "1"
// A hand-rolled server's error type with its codes in a module of consts. A const its own
// constructors use as the code (`Self::new(error_codes::X, ..)`, `Self { code: error_codes::X,
// .. }`) is reported once, at its definition, with the uses attached; whether a constructor has a
// caller does not matter, the const is the error object's vocabulary. Not reported: a const of
// the range nothing uses as a code, one used as something else, and a standard code whose name a
// legacy const of another module shares (the path says which const is meant).
use serde_json::{json, Value};

pub mod error_codes {
    pub const INVALID_PARAMS: i64 = -32602;
    pub const INTERNAL_ERROR: i64 = -32603;
    pub const PROJECT_NOT_FOUND: i64 = -32001; //~ legacy_error_code
    pub const PROJECT_NOT_INDEXED: i64 = -32002; //~ legacy_error_code
    pub const SERVER_BUSY: i64 = -32009; //~ legacy_error_code
    /// Defined, never used as a code.
    pub const INDEX_STALE: i64 = -32007;
}

pub mod retry {
    /// Not a code: a marker the retry loop compares offsets with.
    pub const GIVE_UP_OFFSET: i64 = -32010;
    /// The same name as a standard code of `error_codes`, another value.
    pub const INTERNAL_ERROR: i64 = -32005;

    pub fn gave_up(offset: i64) -> bool {
        offset <= GIVE_UP_OFFSET
    }
}

pub struct JsonRpcError {
    pub code: i64,
    pub message: String,
    pub data: Option<Value>,
}

impl JsonRpcError {
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        Self { code, message: message.into(), data: None }
    }

    pub fn with_data(code: i64, message: impl Into<String>, data: Value) -> Self {
        Self { code, message: message.into(), data: Some(data) }
    }

    pub fn invalid_params(message: impl Into<String>) -> Self {
        Self::new(error_codes::INVALID_PARAMS, message)
    }

    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(error_codes::INTERNAL_ERROR, message)
    }

    pub fn server_busy() -> Self {
        Self { code: error_codes::SERVER_BUSY, message: "server busy: too many calls in flight".into(), data: None }
    }

    pub fn project_not_found(project: &str) -> Self {
        Self::with_data(error_codes::PROJECT_NOT_FOUND, "Project not found", json!({ "project": project }))
    }

    pub fn project_not_indexed(project: &str) -> Self {
        Self::with_data(error_codes::PROJECT_NOT_INDEXED, "Project not indexed", json!({ "project": project }))
    }

    /// A second use of the same const: still one finding, at the const.
    pub fn project_missing(project: &str) -> Self {
        Self::new(error_codes::PROJECT_NOT_FOUND, format!("no project {project}"))
    }
}

pub fn handle(request: &Value, in_flight: usize) -> Result<Value, JsonRpcError> {
    match request["method"].as_str().unwrap_or_default() {
        "resources/read" if in_flight > 8 => Err(JsonRpcError::server_busy()),
        "tools/call" => Ok(json!({ "content": [{ "type": "text", "text": "ok" }], "isError": false })),
        "shutdown" => Err(JsonRpcError::internal("shutting down")),
        method => Err(JsonRpcError::invalid_params(format!("method not found: {method}"))),
    }
}
