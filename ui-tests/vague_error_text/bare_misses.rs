//@ rmcp = "1.8"
// "Book not found" after a lookup of what the model asked for names neither the book nor how to
// find one: vague, as a bare rejection is. Naming the key ("Book 'x' not found") makes it
// specific; the miss of the server's own state ("Client not found" when `self.client` is unset)
// rejects no argument; a missing credential is named without its value on purpose.
use std::collections::HashMap;

use rmcp::{
    handler::server::wrapper::Parameters,
    model::{CallToolResult, Content},
    schemars, tool, tool_router, ErrorData as McpError,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct FindBook {
    pub title: String,
}

pub struct Library {
    books: HashMap<String, String>,
    client: Option<String>,
}

#[tool_router]
impl Library {
    #[tool(description = "Find a book by title")]
    async fn find_book(&self, Parameters(args): Parameters<FindBook>) -> Result<CallToolResult, McpError> {
        let Some(book) = self.books.get(&args.title) else {
            return Ok(CallToolResult::error(vec![Content::text("Book not found")])); //~ vague_error_text
        };
        Ok(CallToolResult::success(vec![Content::text(book.clone())]))
    }

    #[tool(description = "Find a book by title, naming the title it missed")]
    async fn find_book_named(&self, Parameters(args): Parameters<FindBook>) -> Result<CallToolResult, McpError> {
        let Some(book) = self.books.get(&args.title) else {
            return Ok(CallToolResult::error(vec![Content::text(format!(
                "Book {:?} not found; list_books shows the titles",
                args.title
            ))]));
        };
        Ok(CallToolResult::success(vec![Content::text(book.clone())]))
    }

    #[tool(description = "Ask the catalogue service")]
    async fn catalogue(&self, Parameters(args): Parameters<FindBook>) -> Result<CallToolResult, McpError> {
        let Some(client) = self.client.as_ref() else {
            return Ok(CallToolResult::error(vec![Content::text("Client not found")]));
        };
        if client.is_empty() {
            return Ok(CallToolResult::error(vec![Content::text("API key not found")]));
        }
        Ok(CallToolResult::success(vec![Content::text(format!("{client}: {}", args.title))]))
    }
}
