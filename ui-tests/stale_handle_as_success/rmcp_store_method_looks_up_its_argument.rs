//@ rmcp = "0.8"
// A store method whose value is a lookup of the key it is given (`self.docs.read().get(id)
// .cloned()`, `map.remove(handle).filter(..)`, or a `let .. = map.get_mut(id)..?;` in a fn
// returning `Option`) misses like the map itself: its `None` is the handle's miss, whatever the
// method is called.
use std::collections::HashMap;
use std::sync::RwLock;
use std::time::{Duration, Instant};

use rmcp::{handler::server::wrapper::Parameters, schemars, tool, tool_router};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ScanArgs {
    /// The scan handle `grep` returned.
    pub scan_id: String,
}

#[derive(Clone)]
pub struct Scan {
    hits: Vec<String>,
    cursor: usize,
    created: Instant,
}

pub struct Scans {
    inner: RwLock<HashMap<String, Scan>>,
}

const SCAN_TTL: Duration = Duration::from_secs(900);

impl Scans {
    pub fn find(&self, id: &str) -> Option<Scan> {
        self.inner.read().ok()?.get(id).cloned()
    }

    pub fn take(&self, id: &str) -> Option<Scan> {
        let mut map = self.inner.write().ok()?;
        map.remove(id).filter(|s| s.created.elapsed() < SCAN_TTL)
    }

    pub fn next_page(&self, id: &str, page: usize) -> Option<(Vec<String>, bool)> {
        let mut map = self.inner.write().ok()?;
        let scan = map.get_mut(id).filter(|s| s.created.elapsed() < SCAN_TTL)?;
        let end = (scan.cursor + page).min(scan.hits.len());
        let out = scan.hits[scan.cursor..end].to_vec();
        scan.cursor = end;
        Some((out, end < scan.hits.len()))
    }

    /// Not a lookup of its argument: the newest scan, whatever is asked.
    pub fn latest(&self, _id: &str) -> Option<Scan> {
        self.inner.read().ok()?.values().max_by_key(|s| s.created).cloned()
    }
}

pub struct Grep {
    scans: Scans,
}

#[tool_router]
impl Grep {
    #[tool(description = "Show a scan's hit count")]
    async fn scan_size(&self, Parameters(args): Parameters<ScanArgs>) -> String {
        let scan = match self.scans.find(&args.scan_id) {
            Some(scan) => scan,
            None => return format!("No scan {}.", args.scan_id), //~ stale_handle_as_success
        };
        format!("{} hits", scan.hits.len())
    }

    #[tool(description = "Close a scan")]
    async fn close_scan(&self, Parameters(args): Parameters<ScanArgs>) -> Result<String, String> {
        let Some(scan) = self.scans.take(&args.scan_id) else {
            return Ok(format!("scan {} not found", args.scan_id)); //~ stale_handle_as_success
        };
        Ok(format!("closed after {} hits", scan.hits.len()))
    }

    #[tool(description = "Next page of a scan")]
    async fn next_results(&self, Parameters(args): Parameters<ScanArgs>) -> Result<String, String> {
        let (hits, more) = match self.scans.next_page(&args.scan_id, 50) {
            Some(page) => page,
            None => return Ok(format!("No scan {}.", args.scan_id)), //~ stale_handle_as_success
        };
        Ok(format!("{}{}", hits.join("\n"), if more { "\n(more)" } else { "" }))
    }

    #[tool(description = "Show the newest scan")]
    async fn latest_scan(&self, Parameters(args): Parameters<ScanArgs>) -> Result<String, String> {
        // `latest` does not look its argument up: no scan yet is an answer, not a miss.
        let Some(scan) = self.scans.latest(&args.scan_id) else {
            return Ok("no scans yet; run grep first".to_string());
        };
        Ok(format!("{} hits", scan.hits.len()))
    }
}
