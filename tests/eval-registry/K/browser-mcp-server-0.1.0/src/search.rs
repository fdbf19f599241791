use std::collections::HashMap;
use std::time::Duration;

use crate::browser;

// ---------------------------------------------------------------------------
// Search
// ---------------------------------------------------------------------------

pub async fn handle_url_read(
    args: &serde_json::Map<String, serde_json::Value>,
) -> Result<String, String> {
    let url = required_str(args, "url")?;
    validate_url_scheme(url)?;

    let method_str = optional_str(args, "method").unwrap_or("GET");
    let http_method = reqwest::Method::from_bytes(method_str.as_bytes())
        .map_err(|e| format!("invalid HTTP method '{method_str}': {e}"))?;

    let client = browser::build_http_client(Duration::from_secs(60))?;
    let mut request = client.request(http_method, url);

    if let Some(headers_val) = optional_str(args, "headers") {
        let headers: HashMap<String, String> =
            serde_json::from_str(headers_val).map_err(|e| format!("invalid headers JSON: {e}"))?;
        for (key, value) in &headers {
            request = request.header(key.as_str(), value.as_str());
        }
    }

    if let Some(body) = optional_str(args, "body") {
        request = request.body(body.to_string());
    }

    let resp = request
        .send()
        .await
        .map_err(|e| format!("HTTP request failed: {e}"))?;

    if !resp.status().is_success() {
        return Err(format!("HTTP error {}", resp.status()));
    }

    let body = resp
        .text()
        .await
        .map_err(|e| format!("failed to read response body: {e}"))?;

    let md = htmd::convert(&body).unwrap_or_else(|e| {
        tracing::warn!(error = %e, "HTML-to-Markdown conversion failed, returning raw");
        body
    });

    Ok(md)
}

pub async fn handle_url_read_raw(
    args: &serde_json::Map<String, serde_json::Value>,
) -> Result<String, String> {
    let url = required_str(args, "url")?;
    validate_url_scheme(url)?;

    let method_str = optional_str(args, "method").unwrap_or("GET");
    let http_method = reqwest::Method::from_bytes(method_str.as_bytes())
        .map_err(|e| format!("invalid HTTP method '{method_str}': {e}"))?;

    let client = browser::build_http_client(Duration::from_secs(60))?;
    let mut request = client.request(http_method, url);

    if let Some(headers_val) = optional_str(args, "headers") {
        let headers: HashMap<String, String> =
            serde_json::from_str(headers_val).map_err(|e| format!("invalid headers JSON: {e}"))?;
        for (key, value) in &headers {
            request = request.header(key.as_str(), value.as_str());
        }
    }

    if let Some(body) = optional_str(args, "body") {
        request = request.body(body.to_string());
    }

    let resp = request
        .send()
        .await
        .map_err(|e| format!("HTTP request failed: {e}"))?;

    if !resp.status().is_success() {
        return Err(format!("HTTP error {}", resp.status()));
    }

    resp.text()
        .await
        .map_err(|e| format!("failed to read response body: {e}"))
}

pub async fn handle_url_search(
    args: &serde_json::Map<String, serde_json::Value>,
) -> Result<String, String> {
    let query = required_str(args, "query")?;
    let count = args
        .get("count")
        .and_then(|v| v.as_u64())
        .map(|n| (n as usize).clamp(1, 100))
        .unwrap_or(20);

    let provider = optional_str(args, "provider").unwrap_or("brave");
    match provider {
        "brave" => search_brave(query, count).await,
        "ddg" => search_ddg(query, count).await,
        other => Err(format!(
            "unknown search provider: {other} (expected \"brave\" or \"ddg\")"
        )),
    }
}

// ---------------------------------------------------------------------------
// Search backends
// ---------------------------------------------------------------------------

async fn search_brave(query: &str, count: usize) -> Result<String, String> {
    let url = format!(
        "https://search.brave.com/search?q={}&source=web",
        encode_query(query)
    );

    let client = browser::build_http_client(Duration::from_secs(30))?;
    let resp = client
        .get(&url)
        .send()
        .await
        .map_err(|e| format!("search request failed: {e}"))?;

    if !resp.status().is_success() {
        return Err(format!("search failed: HTTP {}", resp.status()));
    }

    let body = resp
        .text()
        .await
        .map_err(|e| format!("failed to read search response: {e}"))?;

    let md = htmd::convert(&body).unwrap_or_else(|e| {
        tracing::warn!(error = %e, "HTML-to-Markdown conversion failed for search");
        body
    });

    let results = extract_search_results(&md, &["brave.com", "search.brave.com"], count);
    Ok(format_search_results(&results))
}

async fn search_ddg(query: &str, count: usize) -> Result<String, String> {
    let client = browser::build_http_client(Duration::from_secs(30))?;
    let resp = client
        .post("https://html.duckduckgo.com/html/")
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body(format!("q={}", encode_query(query)))
        .send()
        .await
        .map_err(|e| format!("search request failed: {e}"))?;

    if !resp.status().is_success() {
        return Err(format!("search failed: HTTP {}", resp.status()));
    }

    let body = resp
        .text()
        .await
        .map_err(|e| format!("failed to read search response: {e}"))?;

    let md = htmd::convert(&body).unwrap_or_else(|e| {
        tracing::warn!(error = %e, "HTML-to-Markdown conversion failed for search");
        body
    });

    let results = extract_search_results(&md, &["duckduckgo.com"], count);
    Ok(format_search_results(&results))
}

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

fn required_str<'a>(
    args: &'a serde_json::Map<String, serde_json::Value>,
    name: &str,
) -> Result<&'a str, String> {
    args.get(name)
        .and_then(|v| v.as_str())
        .ok_or_else(|| format!("missing required argument: {name}"))
}

fn optional_str<'a>(
    args: &'a serde_json::Map<String, serde_json::Value>,
    name: &str,
) -> Option<&'a str> {
    args.get(name).and_then(|v| v.as_str())
}

fn validate_url_scheme(url: &str) -> Result<(), String> {
    if !url.starts_with("http://") && !url.starts_with("https://") {
        return Err("only http:// and https:// URLs are allowed".into());
    }
    Ok(())
}

/// Minimal query encoding for URL query parameters.
fn encode_query(query: &str) -> String {
    let mut out = String::with_capacity(query.len() * 3);
    for b in query.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char);
            }
            b' ' => out.push('+'),
            _ => {
                out.push('%');
                out.push(char::from(HEX[(b >> 4) as usize]));
                out.push(char::from(HEX[(b & 0xf) as usize]));
            }
        }
    }
    out
}

const HEX: [u8; 16] = *b"0123456789ABCDEF";

/// Decode percent-encoded sequences.
fn percent_decode(input: &str) -> String {
    let mut out = String::with_capacity(input.len());
    let bytes = input.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hi = bytes[i + 1];
            let lo = bytes[i + 2];
            if let (Some(h), Some(l)) = (hex_val(hi), hex_val(lo)) {
                out.push((h << 4 | l) as char);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i] as char);
        i += 1;
    }
    out
}

fn hex_val(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

#[derive(Debug, Clone)]
struct SearchResult {
    title: String,
    url: String,
    snippet: String,
}

struct ParsedLink {
    title: String,
    url: String,
}

fn parse_first_link(line: &str) -> Option<ParsedLink> {
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'[' {
            let title_start = i + 1;
            let mut depth = 1;
            let mut j = title_start;
            while j < bytes.len() && depth > 0 {
                if bytes[j] == b'[' {
                    depth += 1;
                } else if bytes[j] == b']' {
                    depth -= 1;
                }
                if depth > 0 {
                    j += 1;
                }
            }
            if depth == 0 {
                let title_end = j;
                let after_bracket = j + 1;
                if after_bracket < bytes.len() && bytes[after_bracket] == b'(' {
                    let url_start = after_bracket + 1;
                    let mut paren_depth = 1;
                    let mut k = url_start;
                    while k < bytes.len() && paren_depth > 0 {
                        if bytes[k] == b'(' {
                            paren_depth += 1;
                        } else if bytes[k] == b')' {
                            paren_depth -= 1;
                        }
                        if paren_depth > 0 {
                            k += 1;
                        }
                    }
                    if paren_depth == 0 {
                        let title = &line[title_start..title_end];
                        let url = &line[url_start..k];
                        if url.starts_with("http://") || url.starts_with("https://") {
                            return Some(ParsedLink {
                                title: title.to_string(),
                                url: url.to_string(),
                            });
                        }
                    }
                }
            }
            i = j + 1;
        } else {
            i += 1;
        }
    }
    None
}

fn extract_search_results(
    markdown: &str,
    skip_domains: &[&str],
    count: usize,
) -> Vec<SearchResult> {
    let mut results: Vec<SearchResult> = Vec::new();
    let lines: Vec<&str> = markdown.lines().collect();
    let mut i = 0;

    while i < lines.len() && results.len() < count {
        let line = lines[i];

        if let Some(link) = parse_first_link(line) {
            let url = percent_decode(&link.url);
            let dominated = skip_domains.iter().any(|d| url.contains(d));
            let title_too_short = link.title.chars().count() < 4;

            if !dominated && !title_too_short {
                let mut snippet_parts: Vec<&str> = Vec::new();
                let mut j = i + 1;
                let mut snippet_chars = 0;
                while j < lines.len() && snippet_chars < 200 {
                    let next = lines[j].trim();
                    if next.is_empty() {
                        break;
                    }
                    if parse_first_link(next).is_some() {
                        break;
                    }
                    snippet_parts.push(next);
                    snippet_chars += next.len();
                    j += 1;
                }
                let mut snippet = snippet_parts.join(" ");
                if snippet.len() > 200 {
                    if let Some(pos) = snippet[..200].rfind(' ') {
                        snippet.truncate(pos);
                    } else {
                        snippet.truncate(200);
                    }
                    snippet.push_str("...");
                }

                results.push(SearchResult {
                    title: link.title,
                    url,
                    snippet,
                });
            }
        }
        i += 1;
    }
    results
}

fn format_search_results(results: &[SearchResult]) -> String {
    if results.is_empty() {
        return "No results found.".to_string();
    }
    let mut out = String::new();
    for (i, r) in results.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&format!("{}. {}\n", i + 1, r.title));
        out.push_str(&format!("   {}\n", r.url));
        if !r.snippet.is_empty() {
            out.push_str(&format!("   {}\n", r.snippet));
        }
    }
    out
}

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encode_query_basic() {
        assert_eq!(encode_query("hello world"), "hello+world");
        assert_eq!(encode_query("a&b=c"), "a%26b%3Dc");
    }

    #[test]
    fn percent_decode_basic() {
        assert_eq!(percent_decode("hello%20world"), "hello world");
        assert_eq!(percent_decode("a%26b"), "a&b");
    }

    #[test]
    fn extract_basic_results() {
        let md = "\
[Rust Programming Language](https://www.rust-lang.org/)
The official Rust site with documentation and downloads.

[Rust by Example](https://doc.rust-lang.org/rust-by-example/)
Learn Rust with practical examples.
";
        let results = extract_search_results(md, &[], 10);
        assert_eq!(results.len(), 2);
        assert_eq!(results[0].title, "Rust Programming Language");
        assert_eq!(results[0].url, "https://www.rust-lang.org/");
    }

    #[test]
    fn extract_filters_skip_domains() {
        let md = "\
[Brave Search](https://brave.com/search)
Brave search engine

[Real Result](https://example.com/page)
An actual result
";
        let results = extract_search_results(md, &["brave.com"], 10);
        assert_eq!(results.len(), 1);
        assert_eq!(results[0].title, "Real Result");
    }

    #[test]
    fn format_empty() {
        assert_eq!(format_search_results(&[]), "No results found.");
    }

    #[test]
    fn validate_scheme_rejects_file() {
        assert!(validate_url_scheme("file:///etc/passwd").is_err());
    }

    #[test]
    fn validate_scheme_accepts_https() {
        assert!(validate_url_scheme("https://example.com").is_ok());
    }
}
