pub mod topology;

pub use topology::MCPConfig;
