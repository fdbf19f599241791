//! CLI tools for working with MCP

// This module will contain CLI functionality for generating server and client stubs
// and for running MCP servers and clients.

/// CLI command definitions
pub mod commands {
    // To be implemented
}

/// Code generation templates
pub mod templates {
    // To be implemented
}
