//! Individual command implementations

pub mod get_foundry_help;
pub mod install;
pub mod status;
pub mod uninstall; // kept for help content builders used by ops
