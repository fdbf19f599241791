mod error;
mod server;
mod tools;

pub use server::CnbMcpServer;
