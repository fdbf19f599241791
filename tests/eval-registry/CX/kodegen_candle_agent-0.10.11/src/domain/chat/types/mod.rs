pub mod responses;

pub use responses::*;
