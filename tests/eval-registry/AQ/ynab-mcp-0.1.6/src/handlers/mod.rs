pub mod analysis;
pub mod base;
pub mod budgets;
pub mod common;
pub mod prompts;
pub mod resource_handlers;
pub mod system;
pub mod tools;
pub mod transaction_handlers;
pub mod transaction_updater;
pub mod transfers;
pub mod validation;

pub use analysis::*;
pub use budgets::*;
pub use common::*;
pub use prompts::*;
pub use resource_handlers::*;
pub use system::*;
pub use tools::*;
pub use transaction_handlers::*;
pub use transfers::*;
// Note: InputValidator is imported directly by handlers that need it
