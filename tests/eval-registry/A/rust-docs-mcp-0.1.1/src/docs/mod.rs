pub mod outputs;
pub mod query;
pub mod tools;

pub use query::DocQuery;
