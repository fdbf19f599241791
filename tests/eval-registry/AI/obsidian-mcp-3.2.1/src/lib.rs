pub mod client;
pub mod config;
pub mod daemon;
pub mod error;
pub mod models;
pub mod tools;
pub mod upgrade;
pub mod vault;

#[cfg(test)]
pub(crate) mod test_helpers;
