//@ dep: turbomcp = "2.3"
//@ dep: tokio = "1"
//@ dep: serde_json = "1"
// turbomcp 2.x: `?` on a `serde_json::Error` converts through turbomcp's own
// `From<serde_json::Error>` (`McpError::Serialization`), sent as -32602, not the -32002 of its
// other foreign errors (`std::io::Error` is `Transport`). A JSON text the model gave that does not
// decode breaks the shape of its argument: no finding; serialising the server's own value is a
// server fault: no finding. The file the model named that cannot be read is a tool failure sent
// as -32002.
use std::collections::HashMap;

use turbomcp::prelude::*;

#[derive(Clone)]
struct Vars;

#[server(name = "vars", version = "1.0.0")]
impl Vars {
    #[tool("Load CI variables from a JSON object text or a file")]
    async fn load_vars(&self, variables_json: Option<String>, path: Option<String>) -> McpResult<String> {
        let vars: HashMap<String, String> = match (variables_json, path) {
            (Some(raw), _) => serde_json::from_str(&raw)?,
            (None, Some(path)) => {
                let text = tokio::fs::read_to_string(&path).await?; //~ tool_failure_as_protocol_error
                serde_json::from_str(&text)?
            }
            (None, None) => HashMap::new(),
        };
        Ok(serde_json::to_string_pretty(&vars)?)
    }
}

fn main() {}
