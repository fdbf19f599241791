//! Profile tool router: read the authenticated user's account summary.

use rmcp::{model::CallToolResult, tool, tool_router, ErrorData as McpError};
use serde_json::json;

use crate::server::HardcoverServer;
use crate::tools::{client_err, ok_json, tool_err};

const ME_QUERY: &str = r#"
query {
  me {
    id
    username
    name
    books_count
    followers_count
    followed_users_count
    pro
  }
}
"#;

#[tool_router(router = profile_router, vis = "pub")]
impl HardcoverServer {
    /// Get the authenticated user's Hardcover profile: id, username, display
    /// name, library size, follower counts, and whether the account is Pro.
    #[tool(
        description = "Get the authenticated user's Hardcover profile (id, username, name, book and follower counts, pro status).",
        annotations(read_only_hint = true)
    )]
    async fn get_profile(&self) -> Result<CallToolResult, McpError> {
        let data = match self.client.graphql(ME_QUERY, json!({})).await {
            Ok(data) => data,
            Err(e) => return client_err(e),
        };

        let me = match data
            .get("me")
            .and_then(|v| v.as_array())
            .and_then(|a| a.first())
        {
            Some(me) => me,
            None => return tool_err("no profile found for the current token"),
        };

        let shaped = json!({
            "id": me.get("id"),
            "username": me.get("username"),
            "name": me.get("name"),
            "books_count": me.get("books_count"),
            "followers_count": me.get("followers_count"),
            "followed_users_count": me.get("followed_users_count"),
            "pro": me.get("pro"),
        });

        ok_json(&shaped)
    }
}
