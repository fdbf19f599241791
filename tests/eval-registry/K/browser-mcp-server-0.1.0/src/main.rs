mod browser;
mod content;
mod fetch;
mod http;
mod mcp;
mod search;

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use clap::Parser;
use mcp::{extract_tool_params, tool_error, tool_result, JsonRpcResponse};
use serde_json::Value;
use tokio::sync::Mutex;

use browser::{BrowserCfg, BrowserState};

// ---------------------------------------------------------------------------
// CLI
// ---------------------------------------------------------------------------

#[derive(Parser)]
#[command(
    name = "browser-mcp-server",
    about = "Browser automation and web scraping MCP server",
    version
)]
struct Args {
    /// Transport mode: stdio or http
    #[arg(long, default_value = "stdio")]
    transport: String,

    /// Host to bind HTTP server (http transport only)
    #[arg(long, default_value = "127.0.0.1")]
    host: String,

    /// Port for HTTP server (http transport only)
    #[arg(long, default_value_t = 8080)]
    port: u16,

    /// Bearer token for HTTP authentication (http transport only)
    #[arg(long)]
    auth: Option<String>,

    /// Path to Chrome/Chromium binary (auto-detected if not set)
    #[arg(long)]
    chrome_path: Option<String>,

    /// Run in headless mode
    #[arg(long, default_value_t = true)]
    headless: bool,

    /// Max concurrent browser sessions
    #[arg(long, default_value_t = browser::DEFAULT_MAX_SESSIONS)]
    max_sessions: usize,

    /// Session auto-close after inactivity (seconds)
    #[arg(long, default_value_t = browser::DEFAULT_SESSION_TIMEOUT_SECS)]
    session_timeout_secs: u64,

    /// Per-navigation timeout (ms)
    #[arg(long, default_value_t = browser::DEFAULT_PAGE_LOAD_TIMEOUT_MS)]
    page_load_timeout_ms: u64,

    /// Page content extraction timeout (ms)
    #[arg(long, default_value_t = browser::DEFAULT_CONTENT_TIMEOUT_MS)]
    content_timeout_ms: u64,

    /// Max HTML size before truncation (bytes)
    #[arg(long, default_value_t = browser::DEFAULT_MAX_CONTENT_BYTES)]
    max_content_bytes: usize,

    /// Disable Chrome sandbox (required in Docker)
    #[arg(long)]
    no_sandbox: bool,

    /// Data directory for screenshots & Chrome profile
    #[arg(long)]
    data_dir: Option<String>,
}

// ---------------------------------------------------------------------------
// MCP tool definitions
// ---------------------------------------------------------------------------

fn tools_list() -> Value {
    serde_json::json!({
        "tools": [
            {
                "name": "open",
                "description": "Open a URL in the browser. Without session_id creates a new session; with session_id navigates in existing one. Returns session ID and page content as Markdown",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "url": { "type": "string", "description": "URL to open" },
                        "session_id": { "type": "string", "description": "Existing session ID for navigation (omit to create new session)" }
                    },
                    "required": ["url"]
                }
            },
            {
                "name": "screenshot",
                "description": "Take a screenshot of the page. Returns the file path to the saved PNG",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "session_id": { "type": "string", "description": "Session ID" },
                        "full_page": { "type": "boolean", "description": "Capture full page (default: true)" }
                    },
                    "required": ["session_id"]
                }
            },
            {
                "name": "click",
                "description": "Click an element by CSS selector. Returns updated page content as Markdown",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "session_id": { "type": "string", "description": "Session ID" },
                        "selector": { "type": "string", "description": "CSS selector of the element to click" }
                    },
                    "required": ["session_id", "selector"]
                }
            },
            {
                "name": "fill",
                "description": "Fill an input field with text. Returns updated page content as Markdown",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "session_id": { "type": "string", "description": "Session ID" },
                        "selector": { "type": "string", "description": "CSS selector of the input element" },
                        "value": { "type": "string", "description": "Text to type into the input" }
                    },
                    "required": ["session_id", "selector", "value"]
                }
            },
            {
                "name": "select",
                "description": "Select an option in a <select> element. Returns updated page content as Markdown",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "session_id": { "type": "string", "description": "Session ID" },
                        "selector": { "type": "string", "description": "CSS selector of the <select> element" },
                        "value": { "type": "string", "description": "Option value to select" }
                    },
                    "required": ["session_id", "selector", "value"]
                }
            },
            {
                "name": "wait_for",
                "description": "Wait for an element to appear on the page",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "session_id": { "type": "string", "description": "Session ID" },
                        "selector": { "type": "string", "description": "CSS selector to wait for" },
                        "timeout_ms": { "type": "number", "description": "Timeout in milliseconds (default: 5000)" }
                    },
                    "required": ["session_id", "selector"]
                }
            },
            {
                "name": "evaluate",
                "description": "Execute JavaScript in the page context. Returns the result as a string",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "session_id": { "type": "string", "description": "Session ID" },
                        "script": { "type": "string", "description": "JavaScript code to execute" }
                    },
                    "required": ["session_id", "script"]
                }
            },
            {
                "name": "scroll",
                "description": "Scroll the page. Returns updated page content as Markdown",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "session_id": { "type": "string", "description": "Session ID" },
                        "direction": { "type": "string", "description": "Scroll direction: down (default) or up" },
                        "pixels": { "type": "number", "description": "Number of pixels to scroll (default: 500)" }
                    },
                    "required": ["session_id"]
                }
            },
            {
                "name": "get_text",
                "description": "Get the innerText of an element",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "session_id": { "type": "string", "description": "Session ID" },
                        "selector": { "type": "string", "description": "CSS selector of the element" }
                    },
                    "required": ["session_id", "selector"]
                }
            },
            {
                "name": "inspect",
                "description": "Return a compact DOM tree showing tag names, IDs, classes, key attributes, and text content. Use to discover CSS selectors for click/fill/get_text. Optionally scope to a subtree with selector",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "session_id": { "type": "string", "description": "Session ID" },
                        "selector": { "type": "string", "description": "CSS selector of the root element to inspect (default: body)" }
                    },
                    "required": ["session_id"]
                }
            },
            {
                "name": "get_attribute",
                "description": "Get the value of an element's attribute",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "session_id": { "type": "string", "description": "Session ID" },
                        "selector": { "type": "string", "description": "CSS selector of the element" },
                        "attribute": { "type": "string", "description": "Attribute name to get" }
                    },
                    "required": ["session_id", "selector", "attribute"]
                }
            },
            {
                "name": "go_back",
                "description": "Navigate back in browser history. Returns updated page content as Markdown",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "session_id": { "type": "string", "description": "Session ID" }
                    },
                    "required": ["session_id"]
                }
            },
            {
                "name": "close",
                "description": "Close a browser session",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "session_id": { "type": "string", "description": "Session ID to close" }
                    },
                    "required": ["session_id"]
                }
            },
            {
                "name": "press_key",
                "description": "Press a keyboard key. Supported: Enter, Escape, Tab, Backspace, Delete, Space, ArrowUp, ArrowDown, ArrowLeft, ArrowRight, Home, End, PageUp, PageDown",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "session_id": { "type": "string", "description": "Session ID" },
                        "key": { "type": "string", "description": "Key name (e.g. Enter, Escape, Tab)" }
                    },
                    "required": ["session_id", "key"]
                }
            },
            {
                "name": "hover",
                "description": "Hover over an element by CSS selector (scrolls into view and moves mouse). Returns updated page content as Markdown",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "session_id": { "type": "string", "description": "Session ID" },
                        "selector": { "type": "string", "description": "CSS selector of the element to hover" }
                    },
                    "required": ["session_id", "selector"]
                }
            },
            {
                "name": "reload",
                "description": "Reload the current page. Returns updated page content as Markdown",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "session_id": { "type": "string", "description": "Session ID" }
                    },
                    "required": ["session_id"]
                }
            },
            {
                "name": "go_forward",
                "description": "Navigate forward in browser history. Returns updated page content as Markdown",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "session_id": { "type": "string", "description": "Session ID" }
                    },
                    "required": ["session_id"]
                }
            },
            {
                "name": "get_cookies",
                "description": "Get cookies for the current page. Returns JSON array with name, value, domain, path, expires, secure, httpOnly",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "session_id": { "type": "string", "description": "Session ID" }
                    },
                    "required": ["session_id"]
                }
            },
            {
                "name": "set_cookie",
                "description": "Set a cookie. If domain is omitted, uses the current page URL",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "session_id": { "type": "string", "description": "Session ID" },
                        "name": { "type": "string", "description": "Cookie name" },
                        "value": { "type": "string", "description": "Cookie value" },
                        "domain": { "type": "string", "description": "Cookie domain (optional)" },
                        "path": { "type": "string", "description": "Cookie path (optional)" },
                        "secure": { "type": "boolean", "description": "Secure flag (optional)" },
                        "http_only": { "type": "boolean", "description": "HttpOnly flag (optional)" }
                    },
                    "required": ["session_id", "name", "value"]
                }
            },
            {
                "name": "clear_cookies",
                "description": "Delete cookies. If name is specified, deletes that cookie; otherwise deletes all cookies",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "session_id": { "type": "string", "description": "Session ID" },
                        "name": { "type": "string", "description": "Cookie name to delete (omit to delete all)" }
                    },
                    "required": ["session_id"]
                }
            },
            {
                "name": "url_read",
                "description": "Fetch a URL via HTTP and convert the HTML response to Markdown. Lightweight — no browser needed",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "url": { "type": "string", "description": "URL to fetch (http/https only)" },
                        "method": { "type": "string", "description": "HTTP method (default: GET)" },
                        "headers": { "type": "string", "description": "Request headers as JSON string" },
                        "body": { "type": "string", "description": "Request body (optional)" }
                    },
                    "required": ["url"]
                }
            },
            {
                "name": "url_read_raw",
                "description": "Fetch a URL via HTTP and return the raw response body. Lightweight — no browser needed",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "url": { "type": "string", "description": "URL to fetch (http/https only)" },
                        "method": { "type": "string", "description": "HTTP method (default: GET)" },
                        "headers": { "type": "string", "description": "Request headers as JSON string" },
                        "body": { "type": "string", "description": "Request body (optional)" }
                    },
                    "required": ["url"]
                }
            },
            {
                "name": "url_search",
                "description": "Web search returning title, URL, and snippet for each result. Uses Brave or DuckDuckGo",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "query": { "type": "string", "description": "Search query" },
                        "count": { "type": "number", "description": "Max results (default: 20, max: 100)" },
                        "provider": { "type": "string", "description": "Search provider: brave (default) or ddg" }
                    },
                    "required": ["query"]
                }
            },
            {
                "name": "fetch",
                "description": "Fetch a URL and return its content. Uses fast HTTP path first, falls back to browser for JS-rendered pages or bot-protected sites",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "url": { "type": "string", "description": "URL to fetch" },
                        "render": { "type": "string", "description": "Output format: html, markdown (default), text, or screenshot" },
                        "use_browser": { "type": "boolean", "description": "Force browser rendering (default: false)" },
                        "wait_for": { "type": "string", "description": "CSS selector to wait for before extracting content (browser only)" }
                    },
                    "required": ["url"]
                }
            },
            {
                "name": "read_markdown",
                "description": "Fetch a page and extract main article content as clean Markdown using Mozilla Readability algorithm. Strips navigation, ads, and sidebars",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "url": { "type": "string", "description": "URL to read" },
                        "extract_main": { "type": "boolean", "description": "Use readability to extract main content (default: true)" },
                        "include_images": { "type": "boolean", "description": "Keep image references in output (default: false)" },
                        "include_links": { "type": "boolean", "description": "Keep hyperlinks in output (default: true)" }
                    },
                    "required": ["url"]
                }
            },
            {
                "name": "probe",
                "description": "Check URL reachability via HTTP HEAD request. Optionally also check via browser",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "url": { "type": "string", "description": "URL to probe" },
                        "check_browser": { "type": "boolean", "description": "Also check via browser (default: false)" }
                    },
                    "required": ["url"]
                }
            },
            {
                "name": "submit_form",
                "description": "Open a page, fill form fields, and submit. Returns page content after submission",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "url": { "type": "string", "description": "URL containing the form" },
                        "form_selector": { "type": "string", "description": "CSS selector for the form element (default: 'form')" },
                        "fields": { "type": "object", "description": "Map of CSS selector -> value for form fields" },
                        "submit_button": { "type": "string", "description": "CSS selector for submit button (auto-detected if omitted)" },
                        "wait_for_navigation": { "type": "boolean", "description": "Wait for page navigation after submit (default: true)" }
                    },
                    "required": ["url", "fields"]
                }
            }
        ]
    })
}

// ---------------------------------------------------------------------------
// Tool dispatch
// ---------------------------------------------------------------------------

pub(crate) async fn handle_tools_call(
    id: Value,
    params: Option<Value>,
    state: &Arc<Mutex<BrowserState>>,
) -> JsonRpcResponse {
    let tcp = match extract_tool_params(id.clone(), params) {
        Ok(p) => p,
        Err(resp) => return resp,
    };

    let result = match tcp.tool_name.as_str() {
        // Browser session tools
        "open" => browser::handle_open(&tcp.arguments, state).await,
        "screenshot" => browser::handle_screenshot(&tcp.arguments, state).await,
        "click" => browser::handle_click(&tcp.arguments, state).await,
        "fill" => browser::handle_fill(&tcp.arguments, state).await,
        "select" => browser::handle_select(&tcp.arguments, state).await,
        "wait_for" => browser::handle_wait_for(&tcp.arguments, state).await,
        "evaluate" => browser::handle_evaluate(&tcp.arguments, state).await,
        "scroll" => browser::handle_scroll(&tcp.arguments, state).await,
        "get_text" => browser::handle_get_text(&tcp.arguments, state).await,
        "inspect" => browser::handle_inspect(&tcp.arguments, state).await,
        "get_attribute" => browser::handle_get_attribute(&tcp.arguments, state).await,
        "go_back" => browser::handle_go_back(&tcp.arguments, state).await,
        "press_key" => browser::handle_press_key(&tcp.arguments, state).await,
        "hover" => browser::handle_hover(&tcp.arguments, state).await,
        "reload" => browser::handle_reload(&tcp.arguments, state).await,
        "go_forward" => browser::handle_go_forward(&tcp.arguments, state).await,
        "get_cookies" => browser::handle_get_cookies(&tcp.arguments, state).await,
        "set_cookie" => browser::handle_set_cookie(&tcp.arguments, state).await,
        "clear_cookies" => browser::handle_clear_cookies(&tcp.arguments, state).await,
        "close" => browser::handle_close(&tcp.arguments, state).await,
        // Simple HTTP tools (no browser needed)
        "url_read" => search::handle_url_read(&tcp.arguments).await,
        "url_read_raw" => search::handle_url_read_raw(&tcp.arguments).await,
        "url_search" => search::handle_url_search(&tcp.arguments).await,
        // Scraper tools
        "fetch" => fetch::handle_fetch(&tcp.arguments, state).await,
        "read_markdown" => content::handle_read_markdown(&tcp.arguments, state).await,
        "probe" => content::handle_probe(&tcp.arguments, state).await,
        "submit_form" => content::handle_submit_form(&tcp.arguments, state).await,
        _ => Err(format!("unknown tool: {}", tcp.tool_name)),
    };

    match result {
        Ok(text) => tool_result(id, &text),
        Err(e) => tool_error(id, &e),
    }
}

// ---------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------

#[tokio::main]
async fn main() {
    let args = Args::parse();

    // Suppress noisy chromiumoxide WS deserialization errors (non-blocking)
    use tracing_subscriber::EnvFilter;
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_env_filter(
            EnvFilter::from_default_env()
                .add_directive("browser_mcp_server=info".parse().expect("valid directive"))
                .add_directive("chromiumoxide=off".parse().expect("valid directive")),
        )
        .init();

    let data_dir = match &args.data_dir {
        Some(d) => PathBuf::from(d),
        None => {
            let base = dirs::data_dir().unwrap_or_else(|| PathBuf::from("."));
            base.join("browser-mcp-server")
        }
    };

    if let Err(e) = std::fs::create_dir_all(&data_dir) {
        tracing::warn!(error = %e, "failed to create data directory");
    }

    let config = BrowserCfg {
        chrome_path: args.chrome_path,
        headless: args.headless,
        max_sessions: args.max_sessions,
        session_timeout_secs: args.session_timeout_secs,
        page_load_timeout_ms: args.page_load_timeout_ms,
        content_timeout_ms: args.content_timeout_ms,
        max_content_bytes: args.max_content_bytes,
        no_sandbox: args.no_sandbox,
        data_dir,
    };

    let state = Arc::new(Mutex::new(BrowserState {
        browser: None,
        handler_task: None,
        sessions: HashMap::new(),
        config,
    }));

    // Spawn cleanup loop
    let cleanup_state = state.clone();
    tokio::spawn(browser::cleanup_loop(cleanup_state));

    let tools = tools_list();

    tracing::info!("browser-mcp-server starting");

    match args.transport.as_str() {
        "stdio" => {
            mcp::run_async_stdio_loop("browser-mcp-server", tools, |id, params| {
                let state = state.clone();
                async move { handle_tools_call(id, params, &state).await }
            })
            .await;
        }
        "http" => {
            http::run_http_server(state, tools, &args.host, args.port, args.auth).await;
        }
        other => {
            eprintln!("Unknown transport: {other}");
            std::process::exit(1);
        }
    }
}
