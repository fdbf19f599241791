//@ rmcp = "1.8"
//@ dep: serde_json = "1"
// A `-> String` tool whose helper fails with the answer text itself (`Result<u64, String>`, its
// `Err` an `{"error": ..}` text): `Err(e) => return e` answers the failure as a success, as
// `Err(e) => return e.to_string()` does. An `Err(e)` that is logged and replaced by a default is
// no failure answer.
use rmcp::{handler::server::wrapper::Parameters, schemars, tool, tool_router};

fn error_response(code: &str, message: impl Into<String>) -> String {
    serde_json::json!({ "error": { "code": code, "message": message.into() } }).to_string()
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct ElementRequest {
    pub id: String,
    pub depth: Option<String>,
}

fn parse_id(id: &str) -> Result<u64, String> {
    id.parse::<u64>()
        .map_err(|_| error_response("invalid_id", format!("Invalid element ID: {id}")))
}

/// The tool's answer, built by a helper it returns the value of: the same `return e` there.
async fn get_value(id: &str) -> String {
    let id = match parse_id(id) {
        Ok(id) => id,
        Err(e) => return e, //~ failure_as_success
    };
    format!("value of {id}")
}

pub struct Desktop;

#[tool_router]
impl Desktop {
    #[tool(description = "Get an element")]
    async fn get_element(&self, Parameters(r): Parameters<ElementRequest>) -> String {
        let id = match parse_id(&r.id) {
            Ok(id) => id,
            Err(e) => return e, //~ failure_as_success
        };
        let depth = match r.depth.as_deref().map(parse_id) {
            Some(Ok(depth)) => depth,
            Some(Err(e)) => {
                eprintln!("ignoring depth: {e}");
                1
            }
            None => 1,
        };
        format!("element {id} at depth {depth}")
    }

    #[tool(description = "Get an element's value")]
    async fn value(&self, Parameters(r): Parameters<ElementRequest>) -> String {
        get_value(&r.id).await
    }
}
