pub mod outputs;
pub mod tools;
