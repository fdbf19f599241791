//! Memory management, coordination, and specific implementations

pub mod coordinator;
pub mod surreal;
pub mod pool;

pub use coordinator::MemoryCoordinator;
pub use pool::CoordinatorPool;
pub use surreal::*;
