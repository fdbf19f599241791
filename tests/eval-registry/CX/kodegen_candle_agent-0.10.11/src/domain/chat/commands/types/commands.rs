//! Command types module aggregator
//!
//! Re-exports all command-related types from focused submodules.

// Re-export all public types from sibling modules for backwards compatibility
pub use super::command_core::ImmutableChatCommand;
pub use super::command_enums::{OutputType, SettingsCategory};
pub use super::command_results::CommandExecutionResult;

// All impl blocks are in their respective modules
// No additional code needed here
