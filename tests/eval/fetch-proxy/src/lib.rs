pub mod extract;
pub mod server;
pub mod upstream;
