pub mod types;
pub mod registry;
pub mod validator;
pub mod templates;

pub use types::SkillCategory;
pub use registry::SkillsRegistry;
