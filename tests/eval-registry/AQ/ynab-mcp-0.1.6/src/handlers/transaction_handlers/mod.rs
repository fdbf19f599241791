pub mod approve;
pub mod bulk;
pub mod clear;
pub mod create;
pub mod main;
pub mod update;

pub use approve::ApproveTransactionHandler;
pub use bulk::BulkTransactionHandler;
pub use clear::ClearTransactionHandler;
pub use create::CreateTransactionHandler;
pub use main::TransactionHandlers;
pub use update::UpdateTransactionHandler;
