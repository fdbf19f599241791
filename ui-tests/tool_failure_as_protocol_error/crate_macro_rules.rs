//@ rmcp = "1.8"
// Crate `macro_rules!` are expanded by substitution: `tool_err!(..)` builds
// `Err(McpError::internal_error(..))`, found at the call. `#[macro_use] mod errors` keeps its
// `bail_invalid!` in scope below it, with `$crate::` paths. Two modules define a `my_err!`
// each; a call goes to the one in scope where it is written (`mod archive`'s builds an isError
// result). A `$t:ty` fragment takes the type written there; a macro whose arm cannot be told
// from the tokens (a `$b:block` fragment) is not guessed at.
use rmcp::{handler::server::wrapper::Parameters, model::*, schemars, tool, tool_router, ErrorData as McpError};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct Query {
    pub q: String,
}

macro_rules! tool_err {
    ($msg:expr) => {
        Err(McpError::internal_error($msg, None))
    };
    ($fmt:literal, $($arg:tt)*) => {
        Err(McpError::internal_error(format!($fmt, $($arg)*), None))
    };
}

#[macro_use]
mod errors {
    macro_rules! bail_invalid {
        ($msg:expr) => {
            return Err($crate::McpError::invalid_request($msg, None))
        };
    }
}

macro_rules! my_err {
    ($m:expr) => {
        Err(McpError::internal_error($m, None))
    };
}

// Declared after the crate's `my_err!`, with one of its own that shadows it.
mod archive {
    use rmcp::{model::*, tool, tool_router, ErrorData as McpError};

    macro_rules! my_err {
        ($m:expr) => {
            Ok(CallToolResult::error(vec![Content::text($m)]))
        };
    }

    pub struct Archive;

    #[tool_router]
    impl Archive {
        #[tool(description = "Restore an archived document")]
        async fn restore(&self) -> Result<CallToolResult, McpError> {
            my_err!("the archive is read-only until the migration ends")
        }
    }
}

macro_rules! typed_err {
    ($t:ty, $m:expr) => {
        Err(McpError::internal_error($m, None))
    };
}

macro_rules! block_err {
    ($b:block, $m:expr) => {
        Err(McpError::internal_error($m, None))
    };
}

pub struct Search;

#[tool_router]
impl Search {
    #[tool(description = "Search the index")]
    async fn search(&self, Parameters(Query { q }): Parameters<Query>) -> Result<CallToolResult, McpError> {
        if q.is_empty() {
            return tool_err!("the query is empty; give at least one term"); //~ tool_failure_as_protocol_error
        }
        if q.len() > 200 {
            return tool_err!("the query has {} characters; the limit is {}", q.len(), 200); //~ tool_failure_as_protocol_error
        }
        if q.contains('*') {
            bail_invalid!("wildcards are not supported; list the terms instead"); //~ tool_failure_as_protocol_error
        }
        Ok(CallToolResult::success(vec![Content::text(q)]))
    }

    #[tool(description = "Look a term up")]
    async fn lookup(&self, Parameters(Query { q }): Parameters<Query>) -> Result<CallToolResult, McpError> {
        if q.contains(' ') {
            return my_err!("one term at a time"); //~ tool_failure_as_protocol_error
        }
        if q.contains('?') {
            return typed_err!(Vec<String>, "no questions"); //~ tool_failure_as_protocol_error
        }
        if q.contains('!') {
            return block_err!({ 1 }, "no exclamations");
        }
        Ok(CallToolResult::success(vec![Content::text(q)]))
    }
}
