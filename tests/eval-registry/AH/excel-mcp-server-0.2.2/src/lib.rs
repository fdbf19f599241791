pub mod cell_ref;
pub mod engines;
pub mod error;
pub mod server;
pub mod store;
pub mod tools;
pub mod types;
