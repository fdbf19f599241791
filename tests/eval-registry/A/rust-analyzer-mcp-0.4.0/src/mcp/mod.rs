mod handlers;
mod server;
mod tools;

pub use server::RustAnalyzerMCPServer;
