pub mod fs_search;
pub mod manager;
pub mod registry;
pub mod rg;
pub mod session;
pub mod sorting;
pub mod types;

pub use fs_search::*;
pub use manager::*;
pub use registry::*;
pub use types::*;
