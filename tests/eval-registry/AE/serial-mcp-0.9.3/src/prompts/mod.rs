pub mod diagnose;
pub mod interactive;
pub mod types;
