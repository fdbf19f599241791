pub mod tempo;
pub mod tools;
