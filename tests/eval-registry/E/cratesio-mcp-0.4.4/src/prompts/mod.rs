//! Prompt definitions

pub mod analyze;
pub mod compare;
pub mod evaluate_dependencies;
pub mod migration_guide;
pub mod recommend;
pub mod stack_review;
