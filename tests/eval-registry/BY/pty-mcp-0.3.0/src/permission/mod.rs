pub mod guard;
pub mod policy;

pub use guard::{PermissionGuard, SpawnValidationInput, SpawnValidationResult};
pub use policy::PermissionPolicy;
