pub mod screenshot;
pub mod platform;