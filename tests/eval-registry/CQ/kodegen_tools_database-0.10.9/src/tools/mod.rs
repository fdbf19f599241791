//! Database tools for MCP server

// Helper functions (DBTOOL_8)
pub mod helpers;
pub use helpers::*;

pub mod timeout;

// DBTOOL_6 - ExecuteSQL - SQL query execution tool
pub mod execute_sql;
pub use execute_sql::ExecuteSQLTool;

// DBTOOL_7 - List schemas and tables
pub mod list_schemas;
pub use list_schemas::*;

pub mod list_tables;
pub use list_tables::*;

// DBTOOL_8 - Table exploration tools
pub mod get_table_schema;
pub use get_table_schema::*;

pub mod get_table_indexes;
pub use get_table_indexes::*;

pub mod get_stored_procedures;
pub use get_stored_procedures::*;

pub mod get_pool_stats;
pub use get_pool_stats::GetPoolStatsTool;
