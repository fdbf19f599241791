pub mod data_prompts_impl;
pub mod node_prompts_impl;
pub mod prompts_impl;
pub mod validation_prompts_impl;
