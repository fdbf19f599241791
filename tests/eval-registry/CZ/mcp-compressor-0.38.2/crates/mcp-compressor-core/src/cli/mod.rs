pub mod help;
pub mod mapping;
pub mod parser;
