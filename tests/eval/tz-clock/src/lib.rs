mod handler;
mod prompts;
mod tools;
mod zones;

pub use handler::Clock;

pub(crate) use rmcp::ErrorData as McpError;
