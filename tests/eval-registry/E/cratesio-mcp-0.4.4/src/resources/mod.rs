//! Resource definitions

pub mod crate_info;
pub mod docs;
pub mod readme;
