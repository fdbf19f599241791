use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Mutex;

use crate::browser::{self, BrowserState};

/// HTTP-first fast path for fetching pages.
///
/// Tries reqwest first (no browser overhead). Falls back to browser if:
/// - `use_browser` is explicitly `true`
/// - HTTP response is 403/429 (bot protection)
pub async fn handle_fetch(
    args: &serde_json::Map<String, serde_json::Value>,
    state: &Arc<Mutex<BrowserState>>,
) -> Result<String, String> {
    let url = args
        .get("url")
        .and_then(|v| v.as_str())
        .ok_or_else(|| "missing required argument: url".to_string())?;

    let render = args
        .get("render")
        .and_then(|v| v.as_str())
        .unwrap_or("markdown");

    let use_browser = args
        .get("use_browser")
        .and_then(|v| v.as_bool())
        .unwrap_or(false);

    let wait_for = args.get("wait_for").and_then(|v| v.as_str());

    // Try HTTP first (unless browser explicitly requested)
    if !use_browser {
        match fetch_http(url, render).await {
            Ok(content) => return Ok(content),
            Err(HttpFetchError::BotProtection(status)) => {
                tracing::info!(url, status, "HTTP blocked, falling back to browser");
            }
            Err(HttpFetchError::Other(e)) => return Err(e),
        }
    }

    // Browser path
    fetch_browser(url, render, wait_for, state).await
}

enum HttpFetchError {
    BotProtection(u16),
    Other(String),
}

async fn fetch_http(url: &str, render: &str) -> Result<String, HttpFetchError> {
    let client = crate::browser::build_http_client(Duration::from_secs(30))
        .map_err(HttpFetchError::Other)?;

    let response = client
        .get(url)
        .send()
        .await
        .map_err(|e| HttpFetchError::Other(format!("HTTP request failed: {e}")))?;

    let status = response.status().as_u16();
    if status == 403 || status == 429 {
        return Err(HttpFetchError::BotProtection(status));
    }

    if !response.status().is_success() {
        return Err(HttpFetchError::Other(format!("HTTP {status}")));
    }

    let html = response
        .text()
        .await
        .map_err(|e| HttpFetchError::Other(format!("failed to read response body: {e}")))?;

    render_content(&html, render).map_err(HttpFetchError::Other)
}

async fn fetch_browser(
    url: &str,
    render: &str,
    wait_for: Option<&str>,
    state: &Arc<Mutex<BrowserState>>,
) -> Result<String, String> {
    // Open page in a temporary session
    let mut open_args = serde_json::Map::new();
    open_args.insert("url".into(), serde_json::Value::String(url.to_string()));
    let open_result = browser::handle_open(&open_args, state).await?;

    let session_id = browser::extract_session_id(&open_result)?;

    // Wait for selector if specified
    if let Some(selector) = wait_for {
        let mut wait_args = serde_json::Map::new();
        wait_args.insert(
            "session_id".into(),
            serde_json::Value::String(session_id.clone()),
        );
        wait_args.insert(
            "selector".into(),
            serde_json::Value::String(selector.to_string()),
        );
        wait_args.insert(
            "timeout_ms".into(),
            serde_json::Value::Number(serde_json::Number::from(10_000u64)),
        );
        let _ = browser::handle_wait_for(&wait_args, state).await;
    }

    // Get page HTML for custom rendering (open already returns markdown)
    let result = if render == "markdown" {
        // open already returns markdown content, extract it
        let content = open_result.splitn(4, '\n').last().unwrap_or("").to_string();
        Ok(content)
    } else if render == "screenshot" {
        let mut screenshot_args = serde_json::Map::new();
        screenshot_args.insert(
            "session_id".into(),
            serde_json::Value::String(session_id.clone()),
        );
        browser::handle_screenshot(&screenshot_args, state).await
    } else {
        // For html/text, get raw content from the session page
        let state_lock = state.lock().await;
        if let Some(session) = state_lock.sessions.get(&session_id) {
            let html = session
                .page
                .content()
                .await
                .map_err(|e| format!("failed to get page content: {e}"))?;
            drop(state_lock);
            render_content(&html, render)
        } else {
            drop(state_lock);
            Err(format!("session not found: {session_id}"))
        }
    };

    // Close temporary session
    let mut close_args = serde_json::Map::new();
    close_args.insert("session_id".into(), serde_json::Value::String(session_id));
    let _ = browser::handle_close(&close_args, state).await;

    result
}

fn render_content(html: &str, render: &str) -> Result<String, String> {
    match render {
        "html" => Ok(html.to_string()),
        "text" | "markdown" => Ok(htmd::convert(html).unwrap_or_else(|_| html.to_string())),
        other => Err(format!(
            "unknown render mode: {other} (expected html, markdown, text, or screenshot)"
        )),
    }
}

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn render_content_html() {
        let html = "<h1>Hello</h1>";
        let result = render_content(html, "html").unwrap();
        assert_eq!(result, "<h1>Hello</h1>");
    }

    #[test]
    fn render_content_markdown() {
        let html = "<h1>Hello</h1><p>World</p>";
        let result = render_content(html, "markdown").unwrap();
        assert!(result.contains("Hello"));
        assert!(result.contains("World"));
    }

    #[test]
    fn render_content_unknown() {
        let result = render_content("<h1>x</h1>", "pdf");
        assert!(result.is_err());
    }
}
