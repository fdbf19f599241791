//! Research session management with registry pattern

pub mod registry;
pub mod session;

pub use registry::ResearchRegistry;
pub use session::ResearchSession;
