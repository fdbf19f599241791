//@ rmcp = "3.1"
//@ dep: serde_json = "1"
// A `-> String` tool's `match` on a value the model gave, whose arms name the values it knows
// (`"blue" =>`, `"green" =>`): the catch-all `_ =>` is taken on any other value, as the `else` of an
// `if` on it would be, and an early `return` of a helper's failure JSON there is the failure told
// as success. Not firing: a catch-all that answers data (a default), and one on the server's own
// setting (`match self.theme.as_str()`), which is not judged at each call.
use rmcp::{handler::server::wrapper::Parameters, schemars, tool, tool_router};
use serde_json::json;

fn error(description: &str) -> String {
    json!({ "status": "error", "message": description }).to_string()
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct StyleInput {
    pub style_name: String,
}

pub struct Tables {
    theme: String,
}

#[tool_router]
impl Tables {
    #[tool(description = "Style a table")]
    async fn style_table(&self, Parameters(input): Parameters<StyleInput>) -> String {
        let colour = match input.style_name.as_str() {
            "blue" => "#4472C4",
            "green" => "#548235",
            _ => {
                return error(&format!("Unknown table style '{}': use blue or green", input.style_name)); //~ failure_as_success
            }
        };
        json!({ "status": "success", "colour": colour }).to_string()
    }

    #[tool(description = "Style a table, blue unless named")]
    async fn style_or_default(&self, Parameters(input): Parameters<StyleInput>) -> String {
        let colour = match input.style_name.as_str() {
            "green" => "#548235",
            _ => "#4472C4",
        };
        json!({ "status": "success", "colour": colour }).to_string()
    }

    #[tool(description = "Style a table in the server's theme")]
    async fn style_in_theme(&self) -> String {
        let colour = match self.theme.as_str() {
            "blue" => "#4472C4",
            _ => return error("the server's theme is not set up"),
        };
        json!({ "status": "success", "colour": colour }).to_string()
    }
}
