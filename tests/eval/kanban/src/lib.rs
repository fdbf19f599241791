pub mod db;
pub mod error;
pub mod server;
