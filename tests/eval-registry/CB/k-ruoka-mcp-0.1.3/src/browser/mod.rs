pub mod basket;
pub mod catalog;
pub mod session;

pub use session::{ApiError, KrApi, LaunchMode, Session};
