pub mod ssh_commands;

pub use ssh_commands::McpSSHCommands;
