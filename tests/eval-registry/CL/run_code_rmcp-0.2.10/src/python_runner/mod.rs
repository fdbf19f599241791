mod dependencies;
#[allow(clippy::module_inception)]
mod python_runner;

pub use dependencies::parse_import;
pub use python_runner::PythonRunner;
