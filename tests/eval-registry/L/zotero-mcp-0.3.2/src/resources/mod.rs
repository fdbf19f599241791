pub mod collections;
pub mod tags;
