//! HTTP client for the Hardcover GraphQL API.
//!
//! One chokepoint — [`HardcoverClient::graphql`] — issues every request and
//! normalizes the three ways Hardcover reports failure (HTTP 401/429, top-level
//! GraphQL `errors[]`) into a single [`ClientError`].

use std::fmt;
use std::time::Duration;

use serde_json::{json, Value};
use tokio::sync::OnceCell;

const ENDPOINT: &str = "https://api.hardcover.app/v1/graphql";
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// Errors returned by [`HardcoverClient::graphql`].
#[derive(Debug)]
pub enum ClientError {
    /// HTTP 401 — token invalid or expired.
    Auth,
    /// HTTP 429 — rate limit exceeded.
    Throttled,
    /// One or more GraphQL `errors[]` messages (joined), or an unexpected shape.
    Api(String),
    /// Transport-level failure (network, timeout, malformed JSON).
    Transport(String),
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::Auth => write!(
                f,
                "Hardcover token invalid or expired — generate a new one at \
                 https://hardcover.app/account/api and update HARDCOVER_API_TOKEN"
            ),
            ClientError::Throttled => write!(
                f,
                "Hardcover rate limit hit (60 requests/minute) — wait a moment and retry"
            ),
            ClientError::Api(msg) => write!(f, "Hardcover API error: {}", msg),
            ClientError::Transport(msg) => write!(f, "Hardcover request failed: {}", msg),
        }
    }
}

impl std::error::Error for ClientError {}

/// A configured client for the Hardcover GraphQL API.
#[derive(Debug)]
pub struct HardcoverClient {
    http: reqwest::Client,
    me_id: OnceCell<i64>,
}

impl HardcoverClient {
    /// Build a client with the auth token baked into default headers.
    pub fn new(token: String) -> anyhow::Result<Self> {
        let user_agent = format!(
            "hardcover-mcp/{} (https://github.com/rickbassham/hardcover-mcp)",
            env!("CARGO_PKG_VERSION")
        );

        let mut headers = reqwest::header::HeaderMap::new();
        let mut auth_value = reqwest::header::HeaderValue::from_str(&format!("Bearer {}", token))
            .map_err(|e| anyhow::anyhow!("invalid token characters: {}", e))?;
        auth_value.set_sensitive(true);
        headers.insert(reqwest::header::AUTHORIZATION, auth_value);
        headers.insert(
            reqwest::header::CONTENT_TYPE,
            reqwest::header::HeaderValue::from_static("application/json"),
        );

        let http = reqwest::Client::builder()
            .user_agent(user_agent)
            .default_headers(headers)
            .timeout(REQUEST_TIMEOUT)
            .build()?;

        Ok(Self {
            http,
            me_id: OnceCell::new(),
        })
    }

    /// Execute a GraphQL query/mutation and return its `data` object.
    pub async fn graphql(&self, query: &str, variables: Value) -> Result<Value, ClientError> {
        let response = self
            .http
            .post(ENDPOINT)
            .json(&json!({ "query": query, "variables": variables }))
            .send()
            .await
            .map_err(|e| ClientError::Transport(e.to_string()))?;

        let status = response.status().as_u16();
        let body: Value = response
            .json()
            .await
            .map_err(|e| ClientError::Transport(format!("could not parse response body: {}", e)))?;

        handle_response(status, body)
    }

    /// The authenticated user's id, fetched once and cached.
    pub async fn me_id(&self) -> Result<i64, ClientError> {
        self.me_id
            .get_or_try_init(|| async {
                let data = self.graphql("query { me { id } }", json!({})).await?;
                data.get("me")
                    .and_then(Value::as_array)
                    .and_then(|arr| arr.first())
                    .and_then(|me| me.get("id"))
                    .and_then(Value::as_i64)
                    .ok_or_else(|| {
                        ClientError::Api("could not read authenticated user id from `me`".into())
                    })
            })
            .await
            .copied()
    }
}

/// Pure mapping from an HTTP status code + parsed body to a result.
///
/// Kept free of any network dependency so it can be unit-tested directly.
fn handle_response(status: u16, body: Value) -> Result<Value, ClientError> {
    if status == 401 {
        return Err(ClientError::Auth);
    }
    if status == 429 {
        return Err(ClientError::Throttled);
    }

    if let Some(errors) = body.get("errors").and_then(Value::as_array) {
        if !errors.is_empty() {
            let joined = errors
                .iter()
                .map(|e| {
                    e.get("message")
                        .and_then(Value::as_str)
                        .map(str::to_string)
                        .unwrap_or_else(|| e.to_string())
                })
                .collect::<Vec<_>>()
                .join("; ");
            return Err(ClientError::Api(joined));
        }
    }

    if let Some(data) = body.get("data") {
        if !data.is_null() {
            return Ok(data.clone());
        }
    }

    Err(ClientError::Api(format!(
        "unexpected response (HTTP {}): {}",
        status, body
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn returns_data_on_success() {
        let body = json!({ "data": { "me": [{ "id": 42 }] } });
        let data = handle_response(200, body).unwrap();
        assert_eq!(data["me"][0]["id"], 42);
    }

    #[test]
    fn maps_401_to_auth() {
        let body = json!({ "error": "Unable to verify token" });
        assert!(matches!(handle_response(401, body), Err(ClientError::Auth)));
    }

    #[test]
    fn maps_429_to_throttled() {
        let body = json!({ "error": "Throttled" });
        assert!(matches!(
            handle_response(429, body),
            Err(ClientError::Throttled)
        ));
    }

    #[test]
    fn joins_graphql_errors() {
        let body = json!({
            "errors": [
                { "message": "field 'foo' not found" },
                { "message": "syntax error" }
            ]
        });
        match handle_response(200, body) {
            Err(ClientError::Api(msg)) => {
                assert!(msg.contains("field 'foo' not found"));
                assert!(msg.contains("syntax error"));
                assert!(msg.contains("; "));
            }
            other => panic!("expected Api error, got {:?}", other),
        }
    }

    #[test]
    fn empty_errors_array_falls_through_to_data() {
        let body = json!({ "errors": [], "data": { "ok": true } });
        let data = handle_response(200, body).unwrap();
        assert_eq!(data["ok"], true);
    }

    #[test]
    fn missing_data_and_errors_is_api_error() {
        let body = json!({ "unexpected": true });
        assert!(matches!(
            handle_response(200, body),
            Err(ClientError::Api(_))
        ));
    }

    #[test]
    fn null_data_without_errors_is_api_error() {
        let body = json!({ "data": null });
        assert!(matches!(
            handle_response(200, body),
            Err(ClientError::Api(_))
        ));
    }

    #[test]
    fn error_messages_are_actionable() {
        assert!(ClientError::Auth.to_string().contains("account/api"));
        assert!(ClientError::Throttled
            .to_string()
            .contains("60 requests/minute"));
    }
}
