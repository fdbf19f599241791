pub mod cache;
pub mod client;
pub mod health;
pub mod models;

pub use client::YnabClient;
pub use models::*;
