// Re-exports type modules
pub mod enums;
pub mod inputs;
pub mod responses;
