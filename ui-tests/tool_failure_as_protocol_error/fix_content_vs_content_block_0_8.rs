//@ rmcp = "0.8"
// Before rmcp 2.0 the block type is `Content`; the fix writes the name the module has for it:
// through `model::*` in one module, an alias in the other.
mod glob {
    use rmcp::{model::*, tool, tool_router, ErrorData as McpError};

    pub struct Notes;

    #[tool_router]
    impl Notes {
        #[tool(description = "Delete a note")]
        async fn delete(&self) -> Result<CallToolResult, McpError> {
            Err(McpError::invalid_request("notes are read-only in this workspace; copy the note instead", None)) //~ tool_failure_as_protocol_error
        }
    }
}

mod alias {
    use rmcp::model::{CallToolResult, Content as Block};
    use rmcp::{tool, tool_router, Error as RmcpError};

    pub struct Notes;

    #[tool_router]
    impl Notes {
        #[tool(description = "Rename a note")]
        async fn rename(&self, title: String) -> Result<CallToolResult, RmcpError> {
            if title.trim().is_empty() {
                return Err(RmcpError::internal_error("a title needs at least one visible character", None)); //~ tool_failure_as_protocol_error
            }
            Ok(CallToolResult::success(vec![Block::text(title)]))
        }
    }
}
