//! Memory tools for candle-agent MCP server

pub mod memorize;
pub mod memorize_manager;
pub mod check_memorize_status;
pub mod recall;
pub mod list_memory_libraries;

pub use memorize::MemorizeTool;
pub use memorize_manager::MemorizeSessionManager;
pub use check_memorize_status::CheckMemorizeStatusTool;
pub use recall::RecallTool;
pub use list_memory_libraries::ListMemoryLibrariesTool;
