//! @acp:module "MCP Tools"
//! @acp:summary "MCP tool type re-exports"
//! @acp:domain daemon
//! @acp:layer service
//!
//! Re-exports tool parameter and response types from service module.

// Types are defined in service.rs and exported via AcpMcpService
// This module exists for future expansion (e.g., tool trait abstractions)
