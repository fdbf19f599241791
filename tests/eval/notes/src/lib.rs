pub mod prompts;
pub mod server;
pub mod store;
