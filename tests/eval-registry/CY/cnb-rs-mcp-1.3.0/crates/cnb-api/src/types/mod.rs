//! CNB API 数据类型定义（仅保留无法由生成的 API 替代的类型）

pub mod ai;
pub mod content;
pub mod gpg_key;
pub mod mission;
pub mod registry;
pub mod repo;
pub mod user;

pub use ai::*;
pub use content::*;
pub use gpg_key::*;
pub use mission::*;
pub use registry::*;
pub use repo::*;
pub use user::*;
