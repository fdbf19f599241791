//@ rmcp = "1.8"
// What a fn can fail with is summarised once, by the variant of its error value, and a call
// gets the arms of the variants it can pass: `StoreError::Missing(..).into()` reaches the
// `Missing` arm of the `From` impl only, `find(..)?` the arms of the variants `find` returns
// (not `Corrupt`, which only `check` returns and no tool calls), and an error helper that
// matches its parameter gives each call the arm of the variant that call passes. Fns that
// call each other (a cycle) share what they reach; a cycle only start-up code enters is not
// tool code.
use rmcp::{
    handler::server::wrapper::Parameters, model::*, schemars, tool, tool_router,
    ErrorData as McpError,
};
use serde::Deserialize;

pub enum StoreError {
    Missing(String),
    Stale(String),
    Corrupt(String),
}

impl From<StoreError> for McpError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Missing(k) => McpError::invalid_request(format!("no entry {k}"), None), //~ tool_failure_as_protocol_error
            StoreError::Stale(k) => McpError::internal_error(format!("entry {k} is being rewritten"), None), //~ tool_failure_as_protocol_error
            StoreError::Corrupt(k) => McpError::internal_error(format!("entry {k} is corrupt"), None),
        }
    }
}

fn find(key: &str) -> Result<String, StoreError> {
    if key.starts_with('~') {
        return Err(StoreError::Stale(key.to_string()));
    }
    Err(StoreError::Missing(key.to_string()))
}

fn check(key: &str) -> Result<(), StoreError> {
    Err(StoreError::Corrupt(key.to_string()))
}

/// Start-up code converts this one too, so the fix belongs at each tool's call: the call of
/// `cached` reports only `Evicted`'s code, the only variant `cached` returns.
pub enum CacheError {
    Evicted(String),
    Poisoned,
}

impl From<CacheError> for McpError {
    fn from(e: CacheError) -> Self {
        match e {
            CacheError::Evicted(k) => McpError::invalid_request(format!("{k} was evicted; fetch it again"), None),
            CacheError::Poisoned => McpError::internal_error("the cache lock is poisoned", None),
        }
    }
}

fn cached(key: &str) -> Result<String, CacheError> {
    Err(CacheError::Evicted(key.to_string()))
}

fn lock_cache() -> Result<(), CacheError> {
    Err(CacheError::Poisoned)
}

pub enum Reason {
    Throttled,
    Offline,
}

fn refusal(what: &str, reason: Reason) -> McpError {
    match reason {
        Reason::Throttled => McpError::invalid_request(format!("{what} is throttled"), None), //~ tool_failure_as_protocol_error
        Reason::Offline => McpError::internal_error(format!("{what} is offline"), None),
    }
}

fn walk_dir(path: &str, depth: u32) -> Result<u32, McpError> {
    if depth > 8 {
        return Err(McpError::internal_error(format!("{path} nests too deep"), None)); //~ tool_failure_as_protocol_error
    }
    walk_entry(path, depth)
}

fn walk_entry(path: &str, depth: u32) -> Result<u32, McpError> {
    if path.ends_with(".lock") {
        return Err(McpError::internal_error(format!("{path} is locked"), None)); //~ tool_failure_as_protocol_error
    }
    walk_dir(path, depth + 1)
}

fn index_dir(path: &str) -> Result<u32, McpError> {
    if path.is_empty() {
        return Err(McpError::internal_error("empty index path", None));
    }
    index_entry(path)
}

fn index_entry(path: &str) -> Result<u32, McpError> {
    if path.ends_with('/') {
        return Err(McpError::internal_error(format!("{path} is a directory"), None));
    }
    index_dir(path.trim_end_matches('x'))
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct Key {
    pub key: String,
}

pub struct Server;

#[tool_router]
impl Server {
    #[tool(description = "Get an entry")]
    async fn get(&self, Parameters(args): Parameters<Key>) -> Result<CallToolResult, McpError> {
        if args.key.is_empty() {
            return Err(StoreError::Missing(args.key).into());
        }
        let value = find(&args.key)?;
        let hit = cached(&args.key)?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![Content::text(format!("{value} {hit}"))]))
    }

    #[tool(description = "Mirror an entry")]
    async fn mirror(&self, Parameters(args): Parameters<Key>) -> Result<CallToolResult, McpError> {
        if args.key.len() > 64 {
            return Err(refusal(&args.key, Reason::Throttled));
        }
        Ok(CallToolResult::success(vec![Content::text(args.key)]))
    }

    #[tool(description = "Count the files under a path")]
    async fn count(&self, Parameters(args): Parameters<Key>) -> Result<CallToolResult, McpError> {
        let n = walk_dir(&args.key, 0)?;
        Ok(CallToolResult::success(vec![Content::text(n.to_string())]))
    }
}

pub fn warm() -> Result<(), McpError> {
    lock_cache()?;
    Ok(())
}

pub fn start() -> Result<(), StoreError> {
    check("boot")?;
    let _ = index_dir("/var/lib/app");
    Ok(())
}
