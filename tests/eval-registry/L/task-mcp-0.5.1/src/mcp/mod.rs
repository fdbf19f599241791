mod server;

pub use server::TaskMcpServer;
pub use server::run;
