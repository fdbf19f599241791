pub mod money;
pub mod response;

pub use money::*;
pub use response::*;
