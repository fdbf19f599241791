use std::collections::HashSet;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::Router;
use serde_json::Value;
use tokio::sync::Mutex;
use tracing::info;

use crate::browser::BrowserState;
use crate::mcp;

struct AppState {
    browser_state: Arc<Mutex<BrowserState>>,
    tools_list: Value,
    auth_token: Option<String>,
    sessions: std::sync::Mutex<HashSet<String>>,
}

pub async fn run_http_server(
    browser_state: Arc<Mutex<BrowserState>>,
    tools_list: Value,
    host: &str,
    port: u16,
    auth_token: Option<String>,
) {
    let state = Arc::new(AppState {
        browser_state,
        tools_list,
        auth_token,
        sessions: std::sync::Mutex::new(HashSet::new()),
    });

    let app = Router::new()
        .route("/mcp", post(handle_post).delete(handle_delete))
        .with_state(state);

    let addr = format!("{host}:{port}");
    info!("HTTP server listening on {addr}");

    let listener = tokio::net::TcpListener::bind(&addr)
        .await
        .expect("failed to bind HTTP listener");

    axum::serve(listener, app).await.expect("HTTP server error");
}

fn check_auth(state: &AppState, headers: &HeaderMap) -> Result<(), StatusCode> {
    let expected = match &state.auth_token {
        Some(t) => t,
        None => return Ok(()),
    };

    let auth = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");

    if let Some(token) = auth.strip_prefix("Bearer ") {
        if token == expected.as_str() {
            return Ok(());
        }
    }

    Err(StatusCode::UNAUTHORIZED)
}

fn get_session_id(headers: &HeaderMap) -> Option<String> {
    headers
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .map(|s| s.to_string())
}

async fn handle_post(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    body: String,
) -> Response {
    if let Err(status) = check_auth(&state, &headers) {
        return status.into_response();
    }

    // Check Content-Type
    let content_type = headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if !content_type.contains("application/json") {
        return (
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "Content-Type must be application/json",
        )
            .into_response();
    }

    // Peek at the method to determine if this is an initialize request
    let is_initialize = serde_json::from_str::<serde_json::Value>(&body)
        .ok()
        .and_then(|v| v.get("method").and_then(|m| m.as_str()).map(String::from))
        .as_deref()
        == Some("initialize");

    if !is_initialize {
        // Require valid session ID for non-initialize requests
        let session_id = match get_session_id(&headers) {
            Some(id) => id,
            None => {
                return (StatusCode::BAD_REQUEST, "Missing Mcp-Session-Id header").into_response()
            }
        };

        let sessions = state.sessions.lock().expect("session lock poisoned");
        if !sessions.contains(&session_id) {
            return (StatusCode::BAD_REQUEST, "Invalid session ID").into_response();
        }
    }

    // Dispatch the request (async — browser ops are async)
    let browser_state = Arc::clone(&state.browser_state);
    let tools_list = state.tools_list.clone();

    let result = mcp::dispatch_request(&body, &tools_list, "browser-mcp-server", |id, params| {
        let bs = browser_state.clone();
        async move { crate::handle_tools_call(id, params, &bs).await }
    })
    .await;

    match result {
        Some(response_json) => {
            let mut builder = Response::builder()
                .status(StatusCode::OK)
                .header("content-type", "application/json");

            // If this was an initialize request, create a session
            if is_initialize {
                let session_id = uuid::Uuid::new_v4().to_string();
                state
                    .sessions
                    .lock()
                    .expect("session lock poisoned")
                    .insert(session_id.clone());
                builder = builder.header("mcp-session-id", &session_id);
            }

            match builder.body(Body::from(response_json)) {
                Ok(resp) => resp,
                Err(_) => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
            }
        }
        None => {
            // Notification — no response body needed
            (StatusCode::ACCEPTED, "").into_response()
        }
    }
}

async fn handle_delete(State(state): State<Arc<AppState>>, headers: HeaderMap) -> Response {
    if let Err(status) = check_auth(&state, &headers) {
        return status.into_response();
    }

    let session_id = match get_session_id(&headers) {
        Some(id) => id,
        None => return (StatusCode::BAD_REQUEST, "Missing Mcp-Session-Id header").into_response(),
    };

    let mut sessions = state.sessions.lock().expect("session lock poisoned");
    if sessions.remove(&session_id) {
        (StatusCode::OK, "Session terminated").into_response()
    } else {
        (StatusCode::NOT_FOUND, "Session not found").into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_check_auth_valid() {
        let mut headers = HeaderMap::new();
        headers.insert("authorization", "Bearer secret123".parse().unwrap());

        let result = check_auth_standalone(Some("secret123"), &headers);
        assert!(result.is_ok());
    }

    #[test]
    fn test_check_auth_invalid() {
        let mut headers = HeaderMap::new();
        headers.insert("authorization", "Bearer wrong".parse().unwrap());

        let result = check_auth_standalone(Some("secret123"), &headers);
        assert!(result.is_err());
    }

    #[test]
    fn test_check_auth_missing() {
        let headers = HeaderMap::new();

        let result = check_auth_standalone(Some("secret123"), &headers);
        assert!(result.is_err());
    }

    #[test]
    fn test_no_token_configured() {
        let headers = HeaderMap::new();

        let result = check_auth_standalone(None, &headers);
        assert!(result.is_ok());
    }

    #[test]
    fn test_session_lifecycle() {
        let sessions: std::sync::Mutex<HashSet<String>> = std::sync::Mutex::new(HashSet::new());

        let session_id = uuid::Uuid::new_v4().to_string();
        sessions.lock().unwrap().insert(session_id.clone());
        assert!(sessions.lock().unwrap().contains(&session_id));

        assert!(sessions.lock().unwrap().remove(&session_id));
        assert!(!sessions.lock().unwrap().contains(&session_id));
    }

    #[test]
    fn test_missing_session_id() {
        let headers = HeaderMap::new();
        assert!(get_session_id(&headers).is_none());
    }

    #[test]
    fn test_get_session_id_present() {
        let mut headers = HeaderMap::new();
        headers.insert("mcp-session-id", "test-id-123".parse().unwrap());
        assert_eq!(get_session_id(&headers), Some("test-id-123".to_string()));
    }

    /// Standalone auth check that doesn't need AppState.
    fn check_auth_standalone(token: Option<&str>, headers: &HeaderMap) -> Result<(), StatusCode> {
        let expected = match token {
            Some(t) => t,
            None => return Ok(()),
        };

        let auth = headers
            .get("authorization")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");

        if let Some(bearer_token) = auth.strip_prefix("Bearer ") {
            if bearer_token == expected {
                return Ok(());
            }
        }

        Err(StatusCode::UNAUTHORIZED)
    }
}
