mod python_dependencies;

pub use python_dependencies::*;
