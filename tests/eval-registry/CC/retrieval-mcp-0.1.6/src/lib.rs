pub mod config;
pub mod index;
pub mod logging;
pub mod search;
pub mod source;
pub mod tools;
