//! Model-related builders extracted from cyrup_domain

pub mod model_info_builder;

// Re-export for convenience
pub use model_info_builder::ModelInfoBuilder;