//! Sequential Thinking MCP Server
//! 
//! A Model Context Protocol server implementation that provides a tool for dynamic 
//! and reflective problem-solving through a structured thinking process.

#![recursion_limit = "1024"]

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub mod core;
pub mod handlers;

pub use core::SequentialThinkingServer;
pub use handlers::SequentialThinkingHandler;

/// MCP 请求结构体
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct McpRequest {
    pub jsonrpc: String,
    pub id: Option<Value>,
    pub method: String,
    pub params: Option<Value>,
}

/// MCP 响应结构体
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct McpResponse {
    pub jsonrpc: String,
    pub id: Option<Value>,
    pub result: Option<Value>,
}