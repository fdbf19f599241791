pub mod session;
pub mod tools;
pub mod types;
