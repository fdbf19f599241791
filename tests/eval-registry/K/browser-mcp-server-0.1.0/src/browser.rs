use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use chromiumoxide::browser::{Browser, BrowserConfig};
use chromiumoxide::cdp::browser_protocol::emulation::{
    SetAutomationOverrideParams, SetUserAgentOverrideParams, UserAgentBrandVersion,
    UserAgentMetadata,
};
use chromiumoxide::cdp::browser_protocol::input::{DispatchKeyEventParams, DispatchKeyEventType};
use chromiumoxide::cdp::browser_protocol::network::{CookieParam, DeleteCookiesParams};
use chromiumoxide::cdp::browser_protocol::page::AddScriptToEvaluateOnNewDocumentParams;
use chromiumoxide::Page;
use futures::StreamExt;
use tokio::sync::Mutex;
use tokio::task::JoinHandle;

// ---------------------------------------------------------------------------
// Config
// ---------------------------------------------------------------------------

#[derive(Debug, Clone)]
pub struct BrowserCfg {
    pub chrome_path: Option<String>,
    pub headless: bool,
    pub max_sessions: usize,
    pub session_timeout_secs: u64,
    pub page_load_timeout_ms: u64,
    pub content_timeout_ms: u64,
    pub max_content_bytes: usize,
    pub no_sandbox: bool,
    pub data_dir: PathBuf,
}

pub const DEFAULT_MAX_SESSIONS: usize = 5;
pub const DEFAULT_SESSION_TIMEOUT_SECS: u64 = 300;
pub const DEFAULT_PAGE_LOAD_TIMEOUT_MS: u64 = 60_000;
pub const DEFAULT_CONTENT_TIMEOUT_MS: u64 = 60_000;
pub const DEFAULT_MAX_CONTENT_BYTES: usize = 1_000_000;

/// Shared User-Agent string matching Chrome 131 on Linux.
pub const USER_AGENT: &str = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 \
                              (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

// ---------------------------------------------------------------------------
// Session
// ---------------------------------------------------------------------------

pub struct BrowserSession {
    pub page: Page,
    pub last_used: Instant,
}

// ---------------------------------------------------------------------------
// State
// ---------------------------------------------------------------------------

pub struct BrowserState {
    pub browser: Option<Browser>,
    pub handler_task: Option<JoinHandle<()>>,
    pub sessions: HashMap<String, BrowserSession>,
    pub config: BrowserCfg,
}

impl BrowserState {
    pub async fn ensure_browser(&mut self) -> Result<&Browser, String> {
        if let Some(ref browser) = self.browser {
            return Ok(browser);
        }

        let user_data_dir = self.config.data_dir.join("chrome-profile");
        if let Err(e) = std::fs::create_dir_all(&user_data_dir) {
            tracing::warn!(error = %e, "failed to create chrome user-data-dir");
        }
        clean_stale_chrome_locks(&user_data_dir);

        let mut builder = BrowserConfig::builder().user_data_dir(&user_data_dir);

        if let Some(ref path) = self.config.chrome_path {
            builder = builder.chrome_executable(path);
        }

        if self.config.no_sandbox {
            builder = builder.no_sandbox();
        }

        if self.config.headless {
            builder = builder.arg("--headless=new");
        }

        builder = builder
            .arg("--disable-gpu")
            .arg("--disable-dev-shm-usage")
            .arg("--disable-blink-features=AutomationControlled")
            .arg("--window-size=1920,1080");

        let browser_config = builder
            .build()
            .map_err(|e| format!("failed to build browser config: {e}"))?;

        let (browser, mut handler) = Browser::launch(browser_config).await.map_err(|e| {
            format!(
                "failed to launch Chrome: {e}. \
                 Install chromium or set --chrome-path"
            )
        })?;

        let task = tokio::spawn(async move { while handler.next().await.is_some() {} });

        self.browser = Some(browser);
        self.handler_task = Some(task);

        self.browser
            .as_ref()
            .ok_or_else(|| "browser handle unexpectedly None after launch".into())
    }

    pub fn generate_session_id(&self) -> String {
        use std::collections::hash_map::DefaultHasher;
        use std::hash::{Hash, Hasher};

        loop {
            let mut hasher = DefaultHasher::new();
            Instant::now().hash(&mut hasher);
            std::thread::current().id().hash(&mut hasher);
            let id = format!("{:016x}", hasher.finish());
            let id = id[..8].to_string();
            if !self.sessions.contains_key(&id) {
                return id;
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

/// Build a reqwest HTTP client with the shared User-Agent and given timeout.
pub fn build_http_client(timeout: Duration) -> Result<reqwest::Client, String> {
    reqwest::Client::builder()
        .user_agent(USER_AGENT)
        .timeout(timeout)
        .build()
        .map_err(|e| format!("failed to build HTTP client: {e}"))
}

/// Remove stale `SingletonLock` and `SingletonSocket` files from a Chrome
/// user-data-dir. These files persist after a crash and prevent re-launch.
pub fn clean_stale_chrome_locks(dir: &std::path::Path) {
    for name in ["SingletonLock", "SingletonSocket"] {
        let path = dir.join(name);
        if path.exists() {
            tracing::warn!(path = %path.display(), "removing stale Chrome lock file");
            if let Err(e) = std::fs::remove_file(&path) {
                tracing::warn!(path = %path.display(), error = %e, "failed to remove lock file");
            }
        }
    }
}

/// Apply enhanced stealth patches on top of `Page::enable_stealth_mode()`.
pub async fn apply_enhanced_stealth(page: &Page) -> Result<(), String> {
    // 1. Disable automation override
    page.execute(SetAutomationOverrideParams::new(false))
        .await
        .map_err(|e| format!("setAutomationOverride failed: {e}"))?;

    // 2. Modern UA + Client Hints
    let ua = USER_AGENT;

    let brands = vec![
        UserAgentBrandVersion::new("Chromium", "131"),
        UserAgentBrandVersion::new("Google Chrome", "131"),
        UserAgentBrandVersion::new("Not_A Brand", "24"),
    ];
    let full_version_list = vec![
        UserAgentBrandVersion::new("Chromium", "131.0.6778.139"),
        UserAgentBrandVersion::new("Google Chrome", "131.0.6778.139"),
        UserAgentBrandVersion::new("Not_A Brand", "24.0.0.0"),
    ];

    let metadata = UserAgentMetadata {
        brands: Some(brands),
        full_version_list: Some(full_version_list),
        platform: "Linux".into(),
        platform_version: "6.1.0".into(),
        architecture: "x86".into(),
        model: String::new(),
        mobile: false,
        bitness: Some("64".into()),
        wow64: Some(false),
    };

    let mut ua_params = SetUserAgentOverrideParams::new(ua);
    ua_params.accept_language = Some("en-US,en;q=0.9".into());
    ua_params.platform = Some("Linux x86_64".into());
    ua_params.user_agent_metadata = Some(metadata);

    page.execute(ua_params)
        .await
        .map_err(|e| format!("setUserAgentOverride failed: {e}"))?;

    // 3. JS stealth patches (runs before any page script)
    let script_params =
        AddScriptToEvaluateOnNewDocumentParams::new(include_str!("../assets/stealth.js"));
    page.execute(script_params)
        .await
        .map_err(|e| format!("addScriptToEvaluateOnNewDocument failed: {e}"))?;

    Ok(())
}

/// JS snippet that resolves once the DOM has been idle (no mutations) for 500ms,
/// with a hard cap of 5s so live-updating pages don't block forever.
pub const DOM_IDLE_JS: &str = r#"new Promise(resolve => {
    let timer, done = false;
    const finish = () => { if (done) return; done = true; obs.disconnect(); resolve('idle'); };
    const obs = new MutationObserver(() => { clearTimeout(timer); timer = setTimeout(finish, 500); });
    const root = document.documentElement || document.body;
    if (!root) { resolve('idle'); return; }
    obs.observe(root, { childList: true, subtree: true, characterData: true });
    timer = setTimeout(finish, 500);
    setTimeout(finish, 5000);
})"#;

pub async fn get_page_content(
    page: &Page,
    timeout: Duration,
    max_content_bytes: usize,
) -> Result<String, String> {
    // Wait for SPA content: MutationObserver-based DOM idle check.
    let _ = tokio::time::timeout(Duration::from_secs(6), page.evaluate(DOM_IDLE_JS)).await;

    let html = tokio::time::timeout(timeout, page.content())
        .await
        .map_err(|_| "page content extraction timed out".to_string())?
        .map_err(|e| format!("failed to get page content: {e}"))?;

    // Cap HTML size to prevent slow conversion on heavy pages
    let html = if html.len() > max_content_bytes {
        let boundary = html.floor_char_boundary(max_content_bytes);
        html[..boundary].to_string()
    } else {
        html
    };

    // htmd::convert is CPU-bound — don't block the async runtime
    tokio::task::spawn_blocking(move || htmd::convert(&html).unwrap_or(html))
        .await
        .map_err(|e| format!("markdown conversion failed: {e}"))
}

// ---------------------------------------------------------------------------
// MCP tool handlers
// ---------------------------------------------------------------------------

/// Extract session_id from `handle_open` response (first line: "session: <id>").
pub fn extract_session_id(open_response: &str) -> Result<String, String> {
    open_response
        .lines()
        .next()
        .and_then(|line| line.strip_prefix("session: "))
        .map(|s| s.to_string())
        .ok_or_else(|| "failed to parse session_id from open response".to_string())
}

/// Helper: extract a required string argument.
fn get_str_arg(
    args: &serde_json::Map<String, serde_json::Value>,
    name: &str,
) -> Result<String, String> {
    args.get(name)
        .and_then(|v| v.as_str())
        .map(|s| s.to_string())
        .ok_or_else(|| format!("missing required argument: {name}"))
}

/// Look up a session by ID and update its last_used timestamp.
fn get_session<'a>(
    state: &'a mut BrowserState,
    session_id: &str,
) -> Result<&'a mut BrowserSession, String> {
    let session = state
        .sessions
        .get_mut(session_id)
        .ok_or_else(|| format!("session not found: {session_id}"))?;
    session.last_used = Instant::now();
    Ok(session)
}

pub async fn handle_open(
    args: &serde_json::Map<String, serde_json::Value>,
    state: &Arc<Mutex<BrowserState>>,
) -> Result<String, String> {
    let url = get_str_arg(args, "url")?;
    let existing_session_id = args
        .get("session_id")
        .and_then(|v| v.as_str())
        .map(|s| s.to_string());

    let mut state = state.lock().await;

    let content_timeout = Duration::from_millis(state.config.content_timeout_ms);
    let max_content_bytes = state.config.max_content_bytes;

    // Navigate in existing session
    if let Some(ref sid) = existing_session_id {
        let session = state
            .sessions
            .get_mut(sid.as_str())
            .ok_or_else(|| format!("session not found: {sid}"))?;
        session.last_used = Instant::now();

        session
            .page
            .goto(&url)
            .await
            .map_err(|e| format!("navigation failed: {e}"))?;

        let content = get_page_content(&session.page, content_timeout, max_content_bytes).await?;

        let title = session
            .page
            .get_title()
            .await
            .ok()
            .flatten()
            .unwrap_or_default();
        let current_url = session.page.url().await.ok().flatten().unwrap_or_default();

        return Ok(format!(
            "session: {sid}\ntitle: {title}\nurl: {current_url}\n\n{content}"
        ));
    }

    // New session
    if state.sessions.len() >= state.config.max_sessions {
        return Err(format!(
            "max sessions ({}) reached, close an existing session first",
            state.config.max_sessions
        ));
    }

    let browser = state.ensure_browser().await?;

    let page = browser
        .new_page(&url)
        .await
        .map_err(|e| format!("failed to open page: {e}"))?;

    if let Err(e) = page.enable_stealth_mode().await {
        tracing::warn!(error = %e, "stealth mode activation failed (proceeding)");
    }

    if let Err(e) = apply_enhanced_stealth(&page).await {
        tracing::warn!(error = %e, "enhanced stealth failed (proceeding)");
    }

    let timeout_ms = state.config.page_load_timeout_ms;
    let wait_result = tokio::time::timeout(
        Duration::from_millis(timeout_ms),
        page.wait_for_navigation(),
    )
    .await;

    match wait_result {
        Ok(Err(e)) => {
            tracing::warn!(error = %e, "wait_for_navigation error (proceeding)");
        }
        Err(_) => {
            tracing::warn!("page load timeout after {timeout_ms}ms (proceeding)");
        }
        Ok(Ok(_)) => {}
    }

    let content = get_page_content(&page, content_timeout, max_content_bytes).await?;

    let title = page.get_title().await.ok().flatten().unwrap_or_default();
    let current_url = page.url().await.ok().flatten().unwrap_or_default();

    let session_id = state.generate_session_id();
    state.sessions.insert(
        session_id.clone(),
        BrowserSession {
            page,
            last_used: Instant::now(),
        },
    );

    Ok(format!(
        "session: {session_id}\ntitle: {title}\nurl: {current_url}\n\n{content}"
    ))
}

pub async fn handle_screenshot(
    args: &serde_json::Map<String, serde_json::Value>,
    state: &Arc<Mutex<BrowserState>>,
) -> Result<String, String> {
    let session_id = get_str_arg(args, "session_id")?;
    let full_page = args
        .get("full_page")
        .and_then(|v| v.as_bool())
        .unwrap_or(true);

    let mut state = state.lock().await;

    let screenshot_dir = state.config.data_dir.join("screenshots");
    std::fs::create_dir_all(&screenshot_dir)
        .map_err(|e| format!("failed to create screenshots directory: {e}"))?;

    let timestamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let filename = format!("{session_id}_{timestamp}.png");
    let filepath = screenshot_dir.join(&filename);

    let session = get_session(&mut state, &session_id)?;

    let params = chromiumoxide::cdp::browser_protocol::page::CaptureScreenshotParams::builder();
    let params = if full_page {
        params.capture_beyond_viewport(true)
    } else {
        params
    };

    let screenshot_data = session
        .page
        .screenshot(params.build())
        .await
        .map_err(|e| format!("screenshot failed: {e}"))?;

    std::fs::write(&filepath, &screenshot_data)
        .map_err(|e| format!("failed to save screenshot: {e}"))?;

    let abs_path = filepath
        .canonicalize()
        .unwrap_or(filepath)
        .to_string_lossy()
        .to_string();

    Ok(abs_path)
}

pub async fn handle_click(
    args: &serde_json::Map<String, serde_json::Value>,
    state: &Arc<Mutex<BrowserState>>,
) -> Result<String, String> {
    let session_id = get_str_arg(args, "session_id")?;
    let selector = get_str_arg(args, "selector")?;

    let mut state = state.lock().await;
    let content_timeout = Duration::from_millis(state.config.content_timeout_ms);
    let max_content_bytes = state.config.max_content_bytes;
    let session = get_session(&mut state, &session_id)?;

    let element = session
        .page
        .find_element(&selector)
        .await
        .map_err(|e| format!("element not found '{selector}': {e}"))?;

    element
        .click()
        .await
        .map_err(|e| format!("click failed: {e}"))?;

    get_page_content(&session.page, content_timeout, max_content_bytes).await
}

pub async fn handle_fill(
    args: &serde_json::Map<String, serde_json::Value>,
    state: &Arc<Mutex<BrowserState>>,
) -> Result<String, String> {
    let session_id = get_str_arg(args, "session_id")?;
    let selector = get_str_arg(args, "selector")?;
    let value = get_str_arg(args, "value")?;

    let mut state = state.lock().await;
    let content_timeout = Duration::from_millis(state.config.content_timeout_ms);
    let max_content_bytes = state.config.max_content_bytes;
    let session = get_session(&mut state, &session_id)?;

    // Check if value contains non-ASCII characters (e.g., Cyrillic)
    // type_str() simulates keyboard which doesn't work with Unicode
    let has_non_ascii = !value.is_ascii();

    if has_non_ascii {
        // Use JavaScript to set value directly for Unicode support
        let js = format!(
            r#"
            (() => {{
                const el = document.querySelector({selector});
                if (!el) return 'element not found';
                el.focus();
                el.value = {value};
                el.dispatchEvent(new Event('input', {{ bubbles: true }}));
                el.dispatchEvent(new Event('change', {{ bubbles: true }}));
                return 'ok';
            }})()
            "#,
            selector = serde_json::to_string(&selector).unwrap_or_default(),
            value = serde_json::to_string(&value).unwrap_or_default(),
        );

        match session.page.evaluate(js).await {
            Ok(result) => {
                let result_str = result.into_value::<String>().unwrap_or_default();
                if result_str != "ok" {
                    return Err(format!("fill failed: {result_str}"));
                }
            }
            Err(e) => return Err(format!("fill failed: {e}")),
        }
    } else {
        // ASCII-only: use native typing for better compatibility with SPAs
        let element = session
            .page
            .find_element(&selector)
            .await
            .map_err(|e| format!("element not found '{selector}': {e}"))?;

        element
            .click()
            .await
            .map_err(|e| format!("focus failed: {e}"))?;

        element
            .type_str(&value)
            .await
            .map_err(|e| format!("type failed: {e}"))?;
    }

    get_page_content(&session.page, content_timeout, max_content_bytes).await
}

pub async fn handle_select(
    args: &serde_json::Map<String, serde_json::Value>,
    state: &Arc<Mutex<BrowserState>>,
) -> Result<String, String> {
    let session_id = get_str_arg(args, "session_id")?;
    let selector = get_str_arg(args, "selector")?;
    let value = get_str_arg(args, "value")?;

    let mut state = state.lock().await;
    let content_timeout = Duration::from_millis(state.config.content_timeout_ms);
    let max_content_bytes = state.config.max_content_bytes;
    let session = get_session(&mut state, &session_id)?;

    let js = format!(
        r#"
        (() => {{
            const el = document.querySelector({selector});
            if (!el) return 'element not found';
            el.value = {value};
            el.dispatchEvent(new Event('change', {{ bubbles: true }}));
            return 'ok';
        }})()
        "#,
        selector = serde_json::to_string(&selector).unwrap_or_default(),
        value = serde_json::to_string(&value).unwrap_or_default(),
    );

    match session.page.evaluate(js).await {
        Ok(result) => {
            let result_str = result.into_value::<String>().unwrap_or_default();
            if result_str != "ok" {
                return Err(format!("select failed: {result_str}"));
            }
        }
        Err(e) => return Err(format!("select failed: {e}")),
    }

    get_page_content(&session.page, content_timeout, max_content_bytes).await
}

pub async fn handle_wait_for(
    args: &serde_json::Map<String, serde_json::Value>,
    state: &Arc<Mutex<BrowserState>>,
) -> Result<String, String> {
    let session_id = get_str_arg(args, "session_id")?;
    let selector = get_str_arg(args, "selector")?;
    let timeout_ms = args
        .get("timeout_ms")
        .and_then(|v| {
            v.as_u64()
                .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
        })
        .unwrap_or(5000);

    let mut state = state.lock().await;
    let session = get_session(&mut state, &session_id)?;

    let result = tokio::time::timeout(
        Duration::from_millis(timeout_ms),
        session.page.find_element(&selector),
    )
    .await;

    match result {
        Ok(Ok(_)) => Ok("found".into()),
        Ok(Err(e)) => Err(format!("element not found '{selector}': {e}")),
        Err(_) => Err(format!(
            "timeout waiting for '{selector}' after {timeout_ms}ms"
        )),
    }
}

pub async fn handle_evaluate(
    args: &serde_json::Map<String, serde_json::Value>,
    state: &Arc<Mutex<BrowserState>>,
) -> Result<String, String> {
    let session_id = get_str_arg(args, "session_id")?;
    let script = get_str_arg(args, "script")?;

    let mut state = state.lock().await;
    let session = get_session(&mut state, &session_id)?;

    match session.page.evaluate(script).await {
        Ok(result) => {
            let value_str = result
                .into_value::<serde_json::Value>()
                .map(|v| match v {
                    serde_json::Value::String(s) => s,
                    other => serde_json::to_string(&other).unwrap_or_default(),
                })
                .unwrap_or_default();
            Ok(value_str)
        }
        Err(e) => Err(format!("evaluate failed: {e}")),
    }
}

pub async fn handle_scroll(
    args: &serde_json::Map<String, serde_json::Value>,
    state: &Arc<Mutex<BrowserState>>,
) -> Result<String, String> {
    let session_id = get_str_arg(args, "session_id")?;
    let direction = args
        .get("direction")
        .and_then(|v| v.as_str())
        .unwrap_or("down");
    let pixels = args
        .get("pixels")
        .and_then(|v| {
            v.as_u64()
                .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
        })
        .unwrap_or(500) as i64;

    let scroll_y = match direction {
        "up" => -pixels,
        _ => pixels,
    };

    let mut state = state.lock().await;
    let content_timeout = Duration::from_millis(state.config.content_timeout_ms);
    let max_content_bytes = state.config.max_content_bytes;
    let session = get_session(&mut state, &session_id)?;

    let js = format!("window.scrollBy(0, {scroll_y})");
    session
        .page
        .evaluate(js)
        .await
        .map_err(|e| format!("scroll failed: {e}"))?;

    get_page_content(&session.page, content_timeout, max_content_bytes).await
}

pub async fn handle_get_text(
    args: &serde_json::Map<String, serde_json::Value>,
    state: &Arc<Mutex<BrowserState>>,
) -> Result<String, String> {
    let session_id = get_str_arg(args, "session_id")?;
    let selector = get_str_arg(args, "selector")?;

    let mut state = state.lock().await;
    let session = get_session(&mut state, &session_id)?;

    let js = format!(
        r#"
        (() => {{
            const el = document.querySelector({selector});
            return el ? el.innerText : null;
        }})()
        "#,
        selector = serde_json::to_string(&selector).unwrap_or_default(),
    );

    match session.page.evaluate(js).await {
        Ok(result) => {
            let text = result.into_value::<Option<String>>().unwrap_or(None);
            match text {
                Some(t) => Ok(t),
                None => Err(format!("element not found: {selector}")),
            }
        }
        Err(e) => Err(format!("get_text failed: {e}")),
    }
}

pub async fn handle_inspect(
    args: &serde_json::Map<String, serde_json::Value>,
    state: &Arc<Mutex<BrowserState>>,
) -> Result<String, String> {
    let session_id = get_str_arg(args, "session_id")?;
    let selector = args
        .get("selector")
        .and_then(|v| v.as_str())
        .unwrap_or("body");

    let selector_json = serde_json::to_string(&selector).unwrap_or_default();

    let js = format!(
        r#"
        (() => {{
            const SKIP = new Set(['SCRIPT','STYLE','SVG','NOSCRIPT','LINK','META']);
            const ATTRS = ['href','src','type','name','placeholder','role','aria-label','data-testid','action','value','for'];
            const MAX_DEPTH = 15, MAX_ELEMS = 2000;
            let count = 0;
            function walk(el, depth) {{
                if (count >= MAX_ELEMS || depth > MAX_DEPTH) return '';
                if (SKIP.has(el.tagName)) return '';
                count++;
                let line = el.tagName.toLowerCase();
                if (el.id) line += '#' + el.id;
                if (el.classList.length) line += '.' + [...el.classList].join('.');
                const attrs = [];
                for (const a of ATTRS) {{
                    const v = el.getAttribute(a);
                    if (v !== null && v !== '') attrs.push(a + '=' + JSON.stringify(v));
                }}
                if (attrs.length) line += '[' + attrs.join(', ') + ']';
                const text = el.childNodes.length === 1 && el.childNodes[0].nodeType === 3
                    ? el.childNodes[0].textContent.trim() : '';
                if (text && text.length <= 80) line += ' "' + text + '"';
                else if (text) line += ' "' + text.substring(0, 77) + '..."';
                const indent = '  '.repeat(depth);
                let result = indent + line + '\n';
                for (const child of el.children) {{
                    result += walk(child, depth + 1);
                }}
                return result;
            }}
            const root = document.querySelector({selector});
            if (!root) return 'element not found: ' + {selector};
            return walk(root, 0);
        }})()
        "#,
        selector = selector_json,
    );

    let mut state = state.lock().await;
    let session = get_session(&mut state, &session_id)?;

    match session.page.evaluate(js).await {
        Ok(result) => {
            let tree = result.into_value::<String>().unwrap_or_default();
            Ok(tree)
        }
        Err(e) => Err(format!("inspect failed: {e}")),
    }
}

pub async fn handle_get_attribute(
    args: &serde_json::Map<String, serde_json::Value>,
    state: &Arc<Mutex<BrowserState>>,
) -> Result<String, String> {
    let session_id = get_str_arg(args, "session_id")?;
    let selector = get_str_arg(args, "selector")?;
    let attribute = get_str_arg(args, "attribute")?;

    let mut state = state.lock().await;
    let session = get_session(&mut state, &session_id)?;

    let js = format!(
        r#"
        (() => {{
            const el = document.querySelector({selector});
            return el ? el.getAttribute({attribute}) : null;
        }})()
        "#,
        selector = serde_json::to_string(&selector).unwrap_or_default(),
        attribute = serde_json::to_string(&attribute).unwrap_or_default(),
    );

    match session.page.evaluate(js).await {
        Ok(result) => {
            let attr = result.into_value::<Option<String>>().unwrap_or(None);
            match attr {
                Some(a) => Ok(a),
                None => Err(format!(
                    "element not found or attribute missing: {selector}[{attribute}]"
                )),
            }
        }
        Err(e) => Err(format!("get_attribute failed: {e}")),
    }
}

pub async fn handle_go_back(
    args: &serde_json::Map<String, serde_json::Value>,
    state: &Arc<Mutex<BrowserState>>,
) -> Result<String, String> {
    let session_id = get_str_arg(args, "session_id")?;

    let mut state = state.lock().await;
    let content_timeout = Duration::from_millis(state.config.content_timeout_ms);
    let max_content_bytes = state.config.max_content_bytes;
    let session = get_session(&mut state, &session_id)?;

    session
        .page
        .evaluate("window.history.back()")
        .await
        .map_err(|e| format!("go_back failed: {e}"))?;

    get_page_content(&session.page, content_timeout, max_content_bytes).await
}

pub async fn handle_close(
    args: &serde_json::Map<String, serde_json::Value>,
    state: &Arc<Mutex<BrowserState>>,
) -> Result<String, String> {
    let session_id = get_str_arg(args, "session_id")?;

    let mut state = state.lock().await;
    let session = match state.sessions.remove(&session_id) {
        Some(s) => s,
        None => return Err(format!("session not found: {session_id}")),
    };

    if let Err(e) = session.page.close().await {
        tracing::warn!(session_id = %session_id, error = %e, "error closing page");
    }

    Ok(format!("closed session {session_id}"))
}

// ---------------------------------------------------------------------------
// Key definitions for press_key
// ---------------------------------------------------------------------------

struct KeyDef {
    key: &'static str,
    code: &'static str,
    key_code: i64,
    text: &'static str,
}

fn get_key_def(name: &str) -> Option<KeyDef> {
    Some(match name {
        "Enter" => KeyDef {
            key: "Enter",
            code: "Enter",
            key_code: 13,
            text: "\r",
        },
        "Tab" => KeyDef {
            key: "Tab",
            code: "Tab",
            key_code: 9,
            text: "",
        },
        "Escape" => KeyDef {
            key: "Escape",
            code: "Escape",
            key_code: 27,
            text: "",
        },
        "Backspace" => KeyDef {
            key: "Backspace",
            code: "Backspace",
            key_code: 8,
            text: "",
        },
        "Delete" => KeyDef {
            key: "Delete",
            code: "Delete",
            key_code: 46,
            text: "",
        },
        "Space" => KeyDef {
            key: " ",
            code: "Space",
            key_code: 32,
            text: " ",
        },
        "ArrowUp" => KeyDef {
            key: "ArrowUp",
            code: "ArrowUp",
            key_code: 38,
            text: "",
        },
        "ArrowDown" => KeyDef {
            key: "ArrowDown",
            code: "ArrowDown",
            key_code: 40,
            text: "",
        },
        "ArrowLeft" => KeyDef {
            key: "ArrowLeft",
            code: "ArrowLeft",
            key_code: 37,
            text: "",
        },
        "ArrowRight" => KeyDef {
            key: "ArrowRight",
            code: "ArrowRight",
            key_code: 39,
            text: "",
        },
        "Home" => KeyDef {
            key: "Home",
            code: "Home",
            key_code: 36,
            text: "",
        },
        "End" => KeyDef {
            key: "End",
            code: "End",
            key_code: 35,
            text: "",
        },
        "PageUp" => KeyDef {
            key: "PageUp",
            code: "PageUp",
            key_code: 33,
            text: "",
        },
        "PageDown" => KeyDef {
            key: "PageDown",
            code: "PageDown",
            key_code: 34,
            text: "",
        },
        _ => return None,
    })
}

pub async fn handle_press_key(
    args: &serde_json::Map<String, serde_json::Value>,
    state: &Arc<Mutex<BrowserState>>,
) -> Result<String, String> {
    let session_id = get_str_arg(args, "session_id")?;
    let key_name = get_str_arg(args, "key")?;

    let def = get_key_def(&key_name).ok_or_else(|| format!("unsupported key: {key_name}"))?;

    let mut state = state.lock().await;
    let session = get_session(&mut state, &session_id)?;

    // KeyDown
    let mut down = DispatchKeyEventParams::new(DispatchKeyEventType::KeyDown);
    down.key = Some(def.key.into());
    down.code = Some(def.code.into());
    down.windows_virtual_key_code = Some(def.key_code);
    down.native_virtual_key_code = Some(def.key_code);
    if !def.text.is_empty() {
        down.text = Some(def.text.into());
    }

    session
        .page
        .execute(down)
        .await
        .map_err(|e| format!("keyDown failed: {e}"))?;

    // KeyUp
    let mut up = DispatchKeyEventParams::new(DispatchKeyEventType::KeyUp);
    up.key = Some(def.key.into());
    up.code = Some(def.code.into());
    up.windows_virtual_key_code = Some(def.key_code);
    up.native_virtual_key_code = Some(def.key_code);

    session
        .page
        .execute(up)
        .await
        .map_err(|e| format!("keyUp failed: {e}"))?;

    Ok(format!("pressed {key_name}"))
}

pub async fn handle_hover(
    args: &serde_json::Map<String, serde_json::Value>,
    state: &Arc<Mutex<BrowserState>>,
) -> Result<String, String> {
    let session_id = get_str_arg(args, "session_id")?;
    let selector = get_str_arg(args, "selector")?;

    let mut state = state.lock().await;
    let content_timeout = Duration::from_millis(state.config.content_timeout_ms);
    let max_content_bytes = state.config.max_content_bytes;
    let session = get_session(&mut state, &session_id)?;

    let element = session
        .page
        .find_element(&selector)
        .await
        .map_err(|e| format!("element not found '{selector}': {e}"))?;

    element
        .hover()
        .await
        .map_err(|e| format!("hover failed: {e}"))?;

    get_page_content(&session.page, content_timeout, max_content_bytes).await
}

pub async fn handle_reload(
    args: &serde_json::Map<String, serde_json::Value>,
    state: &Arc<Mutex<BrowserState>>,
) -> Result<String, String> {
    let session_id = get_str_arg(args, "session_id")?;

    let mut state = state.lock().await;
    let content_timeout = Duration::from_millis(state.config.content_timeout_ms);
    let max_content_bytes = state.config.max_content_bytes;
    let session = get_session(&mut state, &session_id)?;

    session
        .page
        .reload()
        .await
        .map_err(|e| format!("reload failed: {e}"))?;

    get_page_content(&session.page, content_timeout, max_content_bytes).await
}

pub async fn handle_go_forward(
    args: &serde_json::Map<String, serde_json::Value>,
    state: &Arc<Mutex<BrowserState>>,
) -> Result<String, String> {
    let session_id = get_str_arg(args, "session_id")?;

    let mut state = state.lock().await;
    let content_timeout = Duration::from_millis(state.config.content_timeout_ms);
    let max_content_bytes = state.config.max_content_bytes;
    let session = get_session(&mut state, &session_id)?;

    session
        .page
        .evaluate("window.history.forward()")
        .await
        .map_err(|e| format!("go_forward failed: {e}"))?;

    get_page_content(&session.page, content_timeout, max_content_bytes).await
}

pub async fn handle_get_cookies(
    args: &serde_json::Map<String, serde_json::Value>,
    state: &Arc<Mutex<BrowserState>>,
) -> Result<String, String> {
    let session_id = get_str_arg(args, "session_id")?;

    let mut state = state.lock().await;
    let session = get_session(&mut state, &session_id)?;

    let cookies = session
        .page
        .get_cookies()
        .await
        .map_err(|e| format!("get_cookies failed: {e}"))?;

    let slim: Vec<serde_json::Value> = cookies
        .iter()
        .map(|c| {
            serde_json::json!({
                "name": c.name,
                "value": c.value,
                "domain": c.domain,
                "path": c.path,
                "expires": c.expires,
                "secure": c.secure,
                "httpOnly": c.http_only,
            })
        })
        .collect();

    serde_json::to_string_pretty(&slim).map_err(|e| format!("json serialization failed: {e}"))
}

pub async fn handle_set_cookie(
    args: &serde_json::Map<String, serde_json::Value>,
    state: &Arc<Mutex<BrowserState>>,
) -> Result<String, String> {
    let session_id = get_str_arg(args, "session_id")?;
    let name = get_str_arg(args, "name")?;
    let value = get_str_arg(args, "value")?;

    let mut cookie = CookieParam::new(&name, &value);
    if let Some(d) = args.get("domain").and_then(|v| v.as_str()) {
        cookie.domain = Some(d.into());
    }
    if let Some(p) = args.get("path").and_then(|v| v.as_str()) {
        cookie.path = Some(p.into());
    }
    if let Some(s) = args.get("secure").and_then(|v| v.as_bool()) {
        cookie.secure = Some(s);
    }
    if let Some(h) = args.get("http_only").and_then(|v| v.as_bool()) {
        cookie.http_only = Some(h);
    }

    let mut state = state.lock().await;
    let session = get_session(&mut state, &session_id)?;

    // CookieParam requires either url or domain
    if cookie.domain.is_none() {
        let url = session.page.url().await.ok().flatten().unwrap_or_default();
        cookie.url = Some(url);
    }

    session
        .page
        .set_cookie(cookie)
        .await
        .map_err(|e| format!("set_cookie failed: {e}"))?;

    Ok(format!("cookie '{name}' set"))
}

pub async fn handle_clear_cookies(
    args: &serde_json::Map<String, serde_json::Value>,
    state: &Arc<Mutex<BrowserState>>,
) -> Result<String, String> {
    let session_id = get_str_arg(args, "session_id")?;
    let name_filter = args.get("name").and_then(|v| v.as_str()).map(String::from);

    let mut state = state.lock().await;
    let session = get_session(&mut state, &session_id)?;

    match name_filter {
        Some(name) => {
            let params = DeleteCookiesParams::new(&name);
            session
                .page
                .execute(params)
                .await
                .map_err(|e| format!("delete_cookie failed: {e}"))?;
            Ok(format!("cookie '{name}' deleted"))
        }
        None => {
            // Delete all: get list first, then delete each by name
            let cookies = session
                .page
                .get_cookies()
                .await
                .map_err(|e| format!("get_cookies failed: {e}"))?;
            let count = cookies.len();
            for c in &cookies {
                let params = DeleteCookiesParams::new(&c.name);
                session
                    .page
                    .execute(params)
                    .await
                    .map_err(|e| format!("delete_cookie '{}' failed: {e}", c.name))?;
            }
            Ok(format!("deleted {count} cookies"))
        }
    }
}

// ---------------------------------------------------------------------------
// Background task (session cleanup)
// ---------------------------------------------------------------------------

pub async fn cleanup_loop(state: Arc<Mutex<BrowserState>>) {
    tracing::info!("browser cleanup loop started");

    loop {
        tokio::time::sleep(Duration::from_secs(30)).await;

        let mut state = state.lock().await;
        let timeout = Duration::from_secs(state.config.session_timeout_secs);
        let now = Instant::now();
        let expired: Vec<String> = state
            .sessions
            .iter()
            .filter(|(_, session)| now.duration_since(session.last_used) > timeout)
            .map(|(id, _)| id.clone())
            .collect();

        for id in &expired {
            if let Some(session) = state.sessions.remove(id) {
                tracing::info!(session_id = %id, "session expired, closing");
                if let Err(e) = session.page.close().await {
                    tracing::debug!(session_id = %id, error = %e, "error closing expired page");
                }
            }
        }

        // If no sessions remain and browser is running, close it
        if state.sessions.is_empty() && state.browser.is_some() {
            tracing::info!("no active sessions, closing browser");
            state.browser = None;
            if let Some(task) = state.handler_task.take() {
                task.abort();
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;

    fn test_config() -> BrowserCfg {
        BrowserCfg {
            chrome_path: None,
            headless: true,
            max_sessions: DEFAULT_MAX_SESSIONS,
            session_timeout_secs: DEFAULT_SESSION_TIMEOUT_SECS,
            page_load_timeout_ms: DEFAULT_PAGE_LOAD_TIMEOUT_MS,
            content_timeout_ms: DEFAULT_CONTENT_TIMEOUT_MS,
            max_content_bytes: DEFAULT_MAX_CONTENT_BYTES,
            no_sandbox: false,
            data_dir: PathBuf::from("/tmp"),
        }
    }

    #[test]
    fn session_id_generation() {
        let state = BrowserState {
            browser: None,
            handler_task: None,
            sessions: HashMap::new(),
            config: test_config(),
        };

        let id1 = state.generate_session_id();
        assert_eq!(id1.len(), 8);
        assert!(id1.chars().all(|c| c.is_ascii_hexdigit()));

        std::thread::sleep(Duration::from_nanos(1));
        let id2 = state.generate_session_id();
        assert_ne!(id1, id2);
    }

    #[test]
    fn clean_stale_locks_removes_files() {
        let dir = std::env::temp_dir().join("browser-mcp-test-locks");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create dir");

        std::fs::write(dir.join("SingletonLock"), "stale").expect("write lock");
        std::fs::write(dir.join("SingletonSocket"), "stale").expect("write socket");
        assert!(dir.join("SingletonLock").exists());
        assert!(dir.join("SingletonSocket").exists());

        clean_stale_chrome_locks(&dir);

        assert!(!dir.join("SingletonLock").exists());
        assert!(!dir.join("SingletonSocket").exists());

        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn clean_stale_locks_no_files() {
        let dir = std::env::temp_dir().join("browser-mcp-test-no-locks");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create dir");

        clean_stale_chrome_locks(&dir);

        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn get_str_arg_present() {
        let mut map = serde_json::Map::new();
        map.insert(
            "url".into(),
            serde_json::Value::String("https://example.com".into()),
        );
        assert_eq!(get_str_arg(&map, "url").unwrap(), "https://example.com");
    }

    #[test]
    fn get_str_arg_missing() {
        let map = serde_json::Map::new();
        assert!(get_str_arg(&map, "url").is_err());
    }

    #[test]
    fn key_def_known_keys() {
        let enter = get_key_def("Enter").expect("Enter should be defined");
        assert_eq!(enter.key, "Enter");
        assert_eq!(enter.code, "Enter");
        assert_eq!(enter.key_code, 13);
        assert_eq!(enter.text, "\r");

        let tab = get_key_def("Tab").expect("Tab should be defined");
        assert_eq!(tab.key_code, 9);

        let esc = get_key_def("Escape").expect("Escape should be defined");
        assert_eq!(esc.key_code, 27);
        assert!(esc.text.is_empty());

        let space = get_key_def("Space").expect("Space should be defined");
        assert_eq!(space.key, " ");
        assert_eq!(space.text, " ");
        assert_eq!(space.key_code, 32);
    }

    #[test]
    fn key_def_unknown_key() {
        assert!(get_key_def("F1").is_none());
        assert!(get_key_def("").is_none());
        assert!(get_key_def("enter").is_none()); // case-sensitive
    }

    #[test]
    fn stealth_metadata_builds() {
        let brands = vec![
            UserAgentBrandVersion::new("Chromium", "131"),
            UserAgentBrandVersion::new("Google Chrome", "131"),
            UserAgentBrandVersion::new("Not_A Brand", "24"),
        ];
        let full_version_list = vec![
            UserAgentBrandVersion::new("Chromium", "131.0.6778.139"),
            UserAgentBrandVersion::new("Google Chrome", "131.0.6778.139"),
            UserAgentBrandVersion::new("Not_A Brand", "24.0.0.0"),
        ];

        let metadata = UserAgentMetadata {
            brands: Some(brands),
            full_version_list: Some(full_version_list),
            platform: "Linux".into(),
            platform_version: "6.1.0".into(),
            architecture: "x86".into(),
            model: String::new(),
            mobile: false,
            bitness: Some("64".into()),
            wow64: Some(false),
        };

        assert_eq!(metadata.platform, "Linux");
        assert!(!metadata.mobile);
        assert_eq!(metadata.bitness.as_deref(), Some("64"));
    }
}
