pub mod server_rmcp;

pub use server_rmcp::VideoTranscriberServer;
