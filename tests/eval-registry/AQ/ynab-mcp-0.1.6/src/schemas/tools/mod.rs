pub mod transactions;

pub use transactions::TransactionToolSchemas;