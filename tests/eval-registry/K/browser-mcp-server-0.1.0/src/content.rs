use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Mutex;

use crate::browser::BrowserState;

/// Fetch a page and extract main article content as clean Markdown.
///
/// Pipeline: fetch HTML -> readability (strip nav/ads/sidebars) -> htmd (-> markdown).
pub async fn handle_read_markdown(
    args: &serde_json::Map<String, serde_json::Value>,
    state: &Arc<Mutex<BrowserState>>,
) -> Result<String, String> {
    let url = args
        .get("url")
        .and_then(|v| v.as_str())
        .ok_or_else(|| "missing required argument: url".to_string())?
        .to_string();

    let extract_main = args
        .get("extract_main")
        .and_then(|v| v.as_bool())
        .unwrap_or(true);

    let include_links = args
        .get("include_links")
        .and_then(|v| v.as_bool())
        .unwrap_or(true);

    let include_images = args
        .get("include_images")
        .and_then(|v| v.as_bool())
        .unwrap_or(false);

    // Try HTTP first for speed
    let html = match fetch_html(&url).await {
        Ok(html) => html,
        Err(_) => {
            // Fall back to browser
            fetch_html_browser(&url, state).await?
        }
    };

    // readability + htmd in spawn_blocking (both CPU-bound)
    let url_clone = url.clone();
    tokio::task::spawn_blocking(move || {
        extract_readable_markdown(
            &html,
            &url_clone,
            extract_main,
            include_links,
            include_images,
        )
    })
    .await
    .map_err(|e| format!("content extraction failed: {e}"))?
}

async fn fetch_html(url: &str) -> Result<String, String> {
    let client = crate::browser::build_http_client(Duration::from_secs(30))?;

    let response = client
        .get(url)
        .send()
        .await
        .map_err(|e| format!("HTTP request failed: {e}"))?;

    let status = response.status().as_u16();
    if status == 403 || status == 429 {
        return Err(format!("HTTP {status} — bot protection"));
    }

    if !response.status().is_success() {
        return Err(format!("HTTP {status}"));
    }

    response
        .text()
        .await
        .map_err(|e| format!("failed to read response body: {e}"))
}

async fn fetch_html_browser(url: &str, state: &Arc<Mutex<BrowserState>>) -> Result<String, String> {
    let mut open_args = serde_json::Map::new();
    open_args.insert("url".into(), serde_json::Value::String(url.to_string()));
    let open_result = crate::browser::handle_open(&open_args, state).await?;

    let session_id = crate::browser::extract_session_id(&open_result)?;

    // Get raw HTML from the session page
    let html = {
        let state_lock = state.lock().await;
        let session = state_lock
            .sessions
            .get(&session_id)
            .ok_or_else(|| "session not found after open".to_string())?;
        session
            .page
            .content()
            .await
            .map_err(|e| format!("failed to get page content: {e}"))?
    };

    // Close temporary session
    let mut close_args = serde_json::Map::new();
    close_args.insert("session_id".into(), serde_json::Value::String(session_id));
    let _ = crate::browser::handle_close(&close_args, state).await;

    Ok(html)
}

fn extract_readable_markdown(
    html: &str,
    url: &str,
    extract_main: bool,
    include_links: bool,
    include_images: bool,
) -> Result<String, String> {
    let parsed_url: url::Url = url.parse().map_err(|e| format!("invalid URL: {e}"))?;

    let html_to_convert = if extract_main {
        // Use readability to extract main content
        match readability::extractor::extract(&mut html.as_bytes(), &parsed_url) {
            Ok(product) => {
                let mut result = String::new();
                if !product.title.is_empty() {
                    result.push_str("# ");
                    result.push_str(&product.title);
                    result.push_str("\n\n");
                }
                result.push_str(&product.content);
                result
            }
            Err(e) => {
                // readability extraction is best-effort — fall back to raw HTML
                let _ = e;
                html.to_string()
            }
        }
    } else {
        html.to_string()
    };

    // Convert to markdown with htmd
    let mut md = htmd::convert(&html_to_convert).unwrap_or_else(|_| html_to_convert.clone());

    // Post-process: strip images/links if requested
    if !include_images {
        md = strip_markdown_images(&md);
    }

    if !include_links {
        md = strip_markdown_links(&md);
    }

    Ok(md)
}

/// Remove markdown image syntax `![alt](url)` from text.
fn strip_markdown_images(md: &str) -> String {
    let mut result = String::with_capacity(md.len());
    let mut chars = md.chars().peekable();

    while let Some(ch) = chars.next() {
        if ch == '!' && chars.peek() == Some(&'[') {
            // Skip ![alt](url)
            chars.next(); // skip '['
            let mut depth = 1;
            for c in chars.by_ref() {
                if c == '[' {
                    depth += 1;
                } else if c == ']' {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
            }
            // Skip (url) part
            if chars.peek() == Some(&'(') {
                chars.next();
                let mut paren_depth = 1;
                for c in chars.by_ref() {
                    if c == '(' {
                        paren_depth += 1;
                    } else if c == ')' {
                        paren_depth -= 1;
                        if paren_depth == 0 {
                            break;
                        }
                    }
                }
            }
        } else {
            result.push(ch);
        }
    }

    result
}

/// Convert markdown links `[text](url)` to just `text`.
fn strip_markdown_links(md: &str) -> String {
    let mut result = String::with_capacity(md.len());
    let mut chars = md.chars().peekable();

    while let Some(ch) = chars.next() {
        if ch == '[' {
            // Collect link text
            let mut text = String::new();
            let mut depth = 1;
            for c in chars.by_ref() {
                if c == '[' {
                    depth += 1;
                    text.push(c);
                } else if c == ']' {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                    text.push(c);
                } else {
                    text.push(c);
                }
            }
            // Check if followed by (url)
            if chars.peek() == Some(&'(') {
                chars.next();
                let mut paren_depth = 1;
                for c in chars.by_ref() {
                    if c == '(' {
                        paren_depth += 1;
                    } else if c == ')' {
                        paren_depth -= 1;
                        if paren_depth == 0 {
                            break;
                        }
                    }
                }
                result.push_str(&text);
            } else {
                result.push('[');
                result.push_str(&text);
                result.push(']');
            }
        } else {
            result.push(ch);
        }
    }

    result
}

/// HEAD/GET probe — check URL reachability via HTTP and optionally browser.
pub async fn handle_probe(
    args: &serde_json::Map<String, serde_json::Value>,
    state: &Arc<Mutex<BrowserState>>,
) -> Result<String, String> {
    let url = args
        .get("url")
        .and_then(|v| v.as_str())
        .ok_or_else(|| "missing required argument: url".to_string())?;

    let check_browser = args
        .get("check_browser")
        .and_then(|v| v.as_bool())
        .unwrap_or(false);

    let client = crate::browser::build_http_client(Duration::from_secs(15))?;

    // HTTP HEAD probe
    let http_result = match client.head(url).send().await {
        Ok(resp) => {
            let status = resp.status().as_u16();
            let content_type = resp
                .headers()
                .get("content-type")
                .and_then(|v| v.to_str().ok())
                .unwrap_or("")
                .to_string();
            serde_json::json!({
                "status": status,
                "content_type": content_type,
                "ok": resp.status().is_success(),
            })
        }
        Err(e) => {
            serde_json::json!({
                "error": format!("{e}"),
                "ok": false,
            })
        }
    };

    let mut result = serde_json::json!({ "http": http_result });

    // Browser probe (optional)
    if check_browser {
        let browser_result = match probe_browser(url, state).await {
            Ok(status) => serde_json::json!({
                "status": status,
                "ok": (200..400).contains(&status),
            }),
            Err(e) => serde_json::json!({
                "error": e,
                "ok": false,
            }),
        };
        result["browser"] = browser_result;
    }

    serde_json::to_string_pretty(&result).map_err(|e| format!("JSON serialization failed: {e}"))
}

async fn probe_browser(url: &str, state: &Arc<Mutex<BrowserState>>) -> Result<u16, String> {
    let mut open_args = serde_json::Map::new();
    open_args.insert("url".into(), serde_json::Value::String(url.to_string()));
    let open_result = crate::browser::handle_open(&open_args, state).await?;

    let session_id = crate::browser::extract_session_id(&open_result)?;

    // Try to get actual HTTP status via Performance API (Chromium 131+)
    let mut eval_args = serde_json::Map::new();
    eval_args.insert(
        "session_id".into(),
        serde_json::Value::String(session_id.clone()),
    );
    eval_args.insert(
        "script".into(),
        serde_json::Value::String(
            "(() => { const e = performance.getEntriesByType('navigation'); \
             return e.length > 0 && e[0].responseStatus ? e[0].responseStatus : 200; })()"
                .to_string(),
        ),
    );
    let status = match crate::browser::handle_evaluate(&eval_args, state).await {
        Ok(s) => s.trim().parse::<u16>().unwrap_or(200),
        Err(_) => 200,
    };

    let mut close_args = serde_json::Map::new();
    close_args.insert("session_id".into(), serde_json::Value::String(session_id));
    let _ = crate::browser::handle_close(&close_args, state).await;

    Ok(status)
}

/// Fill form fields and submit — uses browser session.
pub async fn handle_submit_form(
    args: &serde_json::Map<String, serde_json::Value>,
    state: &Arc<Mutex<BrowserState>>,
) -> Result<String, String> {
    let url = args
        .get("url")
        .and_then(|v| v.as_str())
        .ok_or_else(|| "missing required argument: url".to_string())?;

    let form_selector = args
        .get("form_selector")
        .and_then(|v| v.as_str())
        .unwrap_or("form");

    let fields = args
        .get("fields")
        .and_then(|v| v.as_object())
        .ok_or_else(|| {
            "missing required argument: fields (object of selector->value)".to_string()
        })?;

    let submit_button = args.get("submit_button").and_then(|v| v.as_str());

    let wait_for_navigation = args
        .get("wait_for_navigation")
        .and_then(|v| v.as_bool())
        .unwrap_or(true);

    // Open page
    let mut open_args = serde_json::Map::new();
    open_args.insert("url".into(), serde_json::Value::String(url.to_string()));
    let open_result = crate::browser::handle_open(&open_args, state).await?;

    let session_id = crate::browser::extract_session_id(&open_result)?;

    // Wait for form
    let mut wait_args = serde_json::Map::new();
    wait_args.insert(
        "session_id".into(),
        serde_json::Value::String(session_id.clone()),
    );
    wait_args.insert(
        "selector".into(),
        serde_json::Value::String(form_selector.to_string()),
    );
    wait_args.insert(
        "timeout_ms".into(),
        serde_json::Value::Number(serde_json::Number::from(10_000u64)),
    );
    crate::browser::handle_wait_for(&wait_args, state).await?;

    // Fill fields
    for (selector, value) in fields {
        let value_str = value.as_str().unwrap_or_default();
        let mut fill_args = serde_json::Map::new();
        fill_args.insert(
            "session_id".into(),
            serde_json::Value::String(session_id.clone()),
        );
        fill_args.insert(
            "selector".into(),
            serde_json::Value::String(selector.clone()),
        );
        fill_args.insert(
            "value".into(),
            serde_json::Value::String(value_str.to_string()),
        );
        crate::browser::handle_fill(&fill_args, state).await?;
    }

    // Click submit
    let submit_selector = submit_button.unwrap_or("button[type='submit'], input[type='submit']");

    let mut click_args = serde_json::Map::new();
    click_args.insert(
        "session_id".into(),
        serde_json::Value::String(session_id.clone()),
    );
    click_args.insert(
        "selector".into(),
        serde_json::Value::String(submit_selector.to_string()),
    );
    crate::browser::handle_click(&click_args, state).await?;

    // Wait for navigation if requested
    if wait_for_navigation {
        tokio::time::sleep(Duration::from_secs(2)).await;
    }

    // Get final page content
    let content = {
        let state_lock = state.lock().await;
        let session = state_lock
            .sessions
            .get(&session_id)
            .ok_or_else(|| "session not found after form submission".to_string())?;
        let content_timeout = Duration::from_millis(state_lock.config.content_timeout_ms);
        let max_content_bytes = state_lock.config.max_content_bytes;
        crate::browser::get_page_content(&session.page, content_timeout, max_content_bytes).await?
    };

    // Close temporary session
    let mut close_args = serde_json::Map::new();
    close_args.insert("session_id".into(), serde_json::Value::String(session_id));
    let _ = crate::browser::handle_close(&close_args, state).await;

    Ok(content)
}

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strip_images() {
        let md = "Hello ![alt text](http://img.png) world";
        let result = strip_markdown_images(md);
        assert_eq!(result, "Hello  world");
    }

    #[test]
    fn strip_images_no_images() {
        let md = "Hello world";
        let result = strip_markdown_images(md);
        assert_eq!(result, "Hello world");
    }

    #[test]
    fn strip_links() {
        let md = "Visit [Example](https://example.com) now";
        let result = strip_markdown_links(md);
        assert_eq!(result, "Visit Example now");
    }

    #[test]
    fn strip_links_no_links() {
        let md = "Plain text";
        let result = strip_markdown_links(md);
        assert_eq!(result, "Plain text");
    }

    #[test]
    fn strip_links_bracket_not_link() {
        let md = "[not a link]";
        let result = strip_markdown_links(md);
        assert_eq!(result, "[not a link]");
    }
}
