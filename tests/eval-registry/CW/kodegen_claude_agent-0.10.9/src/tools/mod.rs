//! Tools for managing Claude agent sessions
//!
//! Provides MCP tools for spawning, managing, and interacting with Claude agent sessions.

mod claude_agent;

pub use claude_agent::ClaudeAgentTool;
