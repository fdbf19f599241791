pub mod app;
pub mod error;
pub mod models;
pub mod server;

pub use server::{run_stdio, run_streamable_http};
