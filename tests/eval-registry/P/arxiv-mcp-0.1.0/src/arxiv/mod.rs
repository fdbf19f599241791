pub mod api;
pub mod types;
