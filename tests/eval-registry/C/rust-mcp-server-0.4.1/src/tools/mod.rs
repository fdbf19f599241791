pub mod cargo;
pub mod cargo_deny;
pub mod cargo_expand;
pub mod cargo_hack;
pub mod cargo_insta;
pub mod cargo_machete;
pub mod rustc;
pub mod rustup;

pub use crate::globals::get_workspace_root;
pub use crate::serde_utils::Registry;
