pub mod identity;
pub mod lease;
pub mod role_filter;
pub mod server;
pub mod tools;
