pub mod errors;
pub mod prelude;
pub mod sandbox;
pub mod server;
