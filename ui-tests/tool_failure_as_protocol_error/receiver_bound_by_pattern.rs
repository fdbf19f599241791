//@ rmcp = "3.11"
// A tool's receiver bound by a pattern over a field the source types: `if let Some(t) =
// &self.search` in a let chain, `if let Some(t) = self.index.as_ref()` nested in an `if`, and
// `let Ok(t) = &self.fallback else` over a `Result<T, _>` field bind `t` to `T`, so `t.execute(..)`
// is `Search::execute` and `t.lookup(..)` is `Index::lookup`: their bodies are tool code.
// `Stats::execute` and `Cache::lookup` are never called from a tool: their -32603 is not a
// tool's (a matcher of the method names would take them for one, or give up on the two).
use rmcp::{
    model::{CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorCode},
    service::RequestContext,
    ErrorData as McpError, RoleServer, ServerHandler,
};

pub struct Search;

impl Search {
    pub async fn execute(&self, terms: &str) -> Result<CallToolResponse, McpError> {
        let hits = std::fs::read_to_string(terms).map_err(|e| {
            McpError::new(ErrorCode::INTERNAL_ERROR, format!("Failed to search index for {terms}: {e}"), None) //~ tool_failure_as_protocol_error
        })?;
        Ok(CallToolResult::success(vec![ContentBlock::text(hits)]).into())
    }
}

pub struct Index;

impl Index {
    pub fn lookup(&self, key: &str) -> Result<String, McpError> {
        if key.is_empty() {
            return Err(McpError::internal_error(format!("index lookup of {key:?} failed: the index is being rebuilt"), None)); //~ tool_failure_as_protocol_error
        }
        Ok(key.to_string())
    }
}

pub struct Cache;

impl Cache {
    pub fn lookup(&self, key: &str) -> Result<String, McpError> {
        Err(McpError::internal_error(format!("cache lookup of {key:?} failed"), None))
    }
}

pub struct Stats;

impl Stats {
    pub async fn execute(&self, terms: &str) -> Result<CallToolResponse, McpError> {
        Err(McpError::new(ErrorCode::INTERNAL_ERROR, format!("stats unavailable for {terms}"), None))
    }
}

pub struct Server {
    search: Option<Search>,
    index: Option<Index>,
    fallback: Result<Index, String>,
    pub stats: Stats,
    pub cache: Cache,
}

impl ServerHandler for Server {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let name = request.name.to_string();
        if name == "search"
            && let Some(search) = &self.search
        {
            return search.execute(&name).await;
        }
        if name == "lookup" {
            if let Some(index) = self.index.as_ref() {
                let found = index.lookup(&name)?;
                return Ok(CallToolResult::success(vec![ContentBlock::text(found)]).into());
            }
        }
        if name == "fallback" {
            let Ok(index) = &self.fallback else {
                return Ok(CallToolResult::error(vec![ContentBlock::text("the fallback index is not configured")]).into());
            };
            let found = index.lookup(&name)?;
            return Ok(CallToolResult::success(vec![ContentBlock::text(found)]).into());
        }
        Ok(CallToolResult::error(vec![ContentBlock::text(format!("no tool named {name}; try search or lookup"))]).into())
    }
}
