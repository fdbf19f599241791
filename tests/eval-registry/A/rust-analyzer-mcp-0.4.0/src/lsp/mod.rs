mod client;
mod connection;
mod handlers;

pub use client::RustAnalyzerClient;
