pub mod lexical;
pub mod process;
pub mod semantic;
