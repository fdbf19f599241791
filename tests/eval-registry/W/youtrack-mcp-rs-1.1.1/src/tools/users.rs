//! User-domain MCP tools: current user, search, and issue watchers.
//!
//! Every handler calls the real YouTrack REST API.

use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::CallToolResult,
    tool, tool_router,
};
use schemars::JsonSchema;
use serde::Deserialize;

use crate::render::Watchers;

use super::{cursor_skip, tool_error_result, tool_ok_result, ToolServer, DEFAULT_LIMIT};

#[derive(Debug, Deserialize, JsonSchema)]
pub struct SearchUsersRequest {
    /// Free-text query matched against name/login/email.
    pub query: String,
    /// Maximum number of users to return (default 50).
    #[serde(default)]
    pub limit: Option<usize>,
    /// Opaque cursor from a previous call's response, to fetch the next
    /// page.
    #[serde(default)]
    pub cursor: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct ListWatchersRequest {
    /// Issue id or readable id, e.g. `DEMO-1`.
    pub issue_id: String,
}

#[tool_router(router = users_router, vis = "pub(super)")]
impl ToolServer {
    #[tool(description = "Get the currently authenticated YouTrack user.")]
    async fn get_current_user(&self) -> CallToolResult {
        match self.client.get_current_user().await {
            Ok(user) => tool_ok_result(&user),
            Err(error) => tool_error_result(error.into()),
        }
    }

    #[tool(
        description = "Search YouTrack users by name, login, or email. Supports pagination via `cursor`."
    )]
    async fn search_users(&self, params: Parameters<SearchUsersRequest>) -> CallToolResult {
        let SearchUsersRequest {
            query,
            limit,
            cursor,
        } = params.0;
        let skip = match cursor_skip(cursor.as_deref()) {
            Ok(skip) => skip,
            Err(error) => return tool_error_result(error),
        };

        match self
            .client
            .search_users(&query, limit.unwrap_or(DEFAULT_LIMIT), skip)
            .await
        {
            Ok(page) => tool_ok_result(&page),
            Err(error) => tool_error_result(error.into()),
        }
    }

    // Intentionally not paginated: the watchers come embedded in the
    // issue's `watchers.issueWatchers` field on a single `GET issues/{id}`
    // call, YouTrack returns the complete set with no `$top`/`$skip`
    // support on this shape. There is no `has_more`/`next_cursor` to
    // compute, so `Watchers` returns a bare result by design, not by
    // oversight.
    #[tool(description = "List the users watching an issue.")]
    async fn list_watchers(&self, params: Parameters<ListWatchersRequest>) -> CallToolResult {
        let ListWatchersRequest { issue_id } = params.0;

        match self.client.list_watchers(&issue_id).await {
            Ok(watchers) => tool_ok_result(&Watchers { issue_id, watchers }),
            Err(error) => tool_error_result(error.into()),
        }
    }
}

/// This domain's tool router, merged into [`ToolServer::new`].
pub(super) fn router() -> ToolRouter<ToolServer> {
    ToolServer::users_router()
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use rmcp::handler::server::wrapper::Parameters;
    use url::Url;
    use wiremock::matchers::{method, path};
    use wiremock::{Mock, MockServer, ResponseTemplate};

    use super::*;
    use crate::client::YouTrackClient;
    use crate::config::Config;

    fn test_server(base_url: &str) -> ToolServer {
        let config = Config {
            youtrack_url: Url::parse(base_url).unwrap(),
            youtrack_token: "test-token".to_string(),
        };
        ToolServer::new(Arc::new(YouTrackClient::new(&config).unwrap()))
    }

    #[tokio::test]
    async fn get_current_user_returns_a_successful_result_with_rendered_text_and_json() {
        let server = MockServer::start().await;
        Mock::given(method("GET"))
            .and(path("/api/users/me"))
            .respond_with(ResponseTemplate::new(200).set_body_json(serde_json::json!(
                { "login": "jdoe", "fullName": "Jane Doe", "email": "jane@example.com" }
            )))
            .mount(&server)
            .await;
        let tool_server = test_server(&server.uri());

        let result = tool_server.get_current_user().await;

        assert_ne!(result.is_error, Some(true));
        let structured = result.structured_content.unwrap();
        assert_eq!(structured["login"], "jdoe");
    }

    #[tokio::test]
    async fn get_current_user_maps_401_to_a_tool_error() {
        let server = MockServer::start().await;
        Mock::given(method("GET"))
            .and(path("/api/users/me"))
            .respond_with(ResponseTemplate::new(401))
            .mount(&server)
            .await;
        let tool_server = test_server(&server.uri());

        let result = tool_server.get_current_user().await;

        assert_eq!(result.is_error, Some(true));
        let structured = result.structured_content.unwrap();
        assert_eq!(structured["code"], "unauthorized");
    }

    #[tokio::test]
    async fn search_users_returns_a_page_with_rendered_text_and_json() {
        let server = MockServer::start().await;
        Mock::given(method("GET"))
            .and(path("/api/users"))
            .respond_with(ResponseTemplate::new(200).set_body_json(serde_json::json!([
                { "login": "jdoe", "fullName": "Jane Doe" }
            ])))
            .mount(&server)
            .await;
        let tool_server = test_server(&server.uri());

        let result = tool_server
            .search_users(Parameters(SearchUsersRequest {
                query: "jane".to_string(),
                limit: None,
                cursor: None,
            }))
            .await;

        assert_ne!(result.is_error, Some(true));
        let structured = result.structured_content.unwrap();
        assert_eq!(structured["items"][0]["login"], "jdoe");
    }

    #[tokio::test]
    async fn search_users_maps_an_invalid_cursor_to_a_validation_error() {
        let tool_server = test_server("https://example.myjetbrains.com");

        let result = tool_server
            .search_users(Parameters(SearchUsersRequest {
                query: "jane".to_string(),
                limit: None,
                cursor: Some("not-a-valid-cursor".to_string()),
            }))
            .await;

        assert_eq!(result.is_error, Some(true));
        let structured = result.structured_content.unwrap();
        assert_eq!(structured["code"], "validation");
    }

    #[tokio::test]
    async fn list_watchers_returns_the_issue_id_alongside_its_watchers() {
        let server = MockServer::start().await;
        Mock::given(method("GET"))
            .and(path("/api/issues/DEMO-1"))
            .respond_with(ResponseTemplate::new(200).set_body_json(serde_json::json!({
                "watchers": { "issueWatchers": [
                    { "user": { "login": "jdoe", "fullName": "Jane Doe" } }
                ] }
            })))
            .mount(&server)
            .await;
        let tool_server = test_server(&server.uri());

        let result = tool_server
            .list_watchers(Parameters(ListWatchersRequest {
                issue_id: "DEMO-1".to_string(),
            }))
            .await;

        assert_ne!(result.is_error, Some(true));
        let structured = result.structured_content.unwrap();
        assert_eq!(structured["issue_id"], "DEMO-1");
        assert_eq!(structured["watchers"][0]["login"], "jdoe");
    }

    #[tokio::test]
    async fn list_watchers_maps_404_to_a_tool_error() {
        let server = MockServer::start().await;
        Mock::given(method("GET"))
            .and(path("/api/issues/DEMO-404"))
            .respond_with(ResponseTemplate::new(404))
            .mount(&server)
            .await;
        let tool_server = test_server(&server.uri());

        let result = tool_server
            .list_watchers(Parameters(ListWatchersRequest {
                issue_id: "DEMO-404".to_string(),
            }))
            .await;

        assert_eq!(result.is_error, Some(true));
        let structured = result.structured_content.unwrap();
        assert_eq!(structured["code"], "not_found");
    }
}
