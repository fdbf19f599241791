// Public exports for testing and library usage
pub mod graph;
pub mod manager;
pub mod storage;
