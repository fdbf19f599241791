pub mod authorization;

pub use authorization::{Authorization, AuthorizationMode};
