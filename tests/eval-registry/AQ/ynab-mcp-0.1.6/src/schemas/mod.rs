pub mod prompt_schemas;
pub mod tool_schemas;

pub use prompt_schemas::*;
pub use tool_schemas::*;
