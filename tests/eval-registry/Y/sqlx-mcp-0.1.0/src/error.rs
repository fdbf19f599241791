//! Error types for SQLx MCP Server
//!
//! Provides error handling for multiple database engines (MySQL, PostgreSQL, SQLite).

use crate::config::ConfigError;
use rmcp::model::ErrorData as McpError;

/// Application-level errors
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("Configuration error: {0}")]
    Config(#[from] ConfigError),

    #[error("Database error: {0}")]
    Database(#[from] sqlx::Error),

    #[error("Validation error: {0}")]
    Validation(String),

    #[error("Security violation: {0}")]
    Security(String),

    #[error("Connection not found: {0}")]
    ConnectionNotFound(String),

    #[error("No default connection configured")]
    NoDefaultConnection,
}

impl AppError {
    /// Convert to MCP error for tool responses
    pub fn to_mcp_error(&self) -> McpError {
        match self {
            AppError::Config(e) => McpError::internal_error(e.to_string(), None),
            AppError::Database(e) => {
                let safe_message = sanitize_db_error(e);
                McpError::internal_error(safe_message, None)
            }
            AppError::Validation(msg) => McpError::invalid_params(msg.clone(), None),
            AppError::Security(msg) => McpError::invalid_request(msg.clone(), None),
            AppError::ConnectionNotFound(name) => {
                McpError::invalid_params(format!("Connection '{}' not found", name), None)
            }
            AppError::NoDefaultConnection => {
                McpError::invalid_params("No default connection configured. Specify a 'connection' parameter.".to_string(), None)
            }
        }
    }
}

/// Sanitize database error messages to prevent information leakage
fn sanitize_db_error(error: &sqlx::Error) -> String {
    match error {
        sqlx::Error::Configuration(_) => "Database configuration error".to_string(),
        sqlx::Error::Database(db_err) => {
            let code = db_err.code().map(|c| c.to_string()).unwrap_or_default();
            format!("Database error (code: {})", code)
        }
        sqlx::Error::RowNotFound => "No rows found".to_string(),
        sqlx::Error::ColumnNotFound(col) => format!("Column not found: {}", col),
        sqlx::Error::PoolTimedOut => "Database connection timeout".to_string(),
        sqlx::Error::PoolClosed => "Database connection pool closed".to_string(),
        _ => "Database operation failed".to_string(),
    }
}

/// MySQL-specific error code handling
#[allow(dead_code)] // Used in tests
fn sanitize_mysql_error_code(code: &str) -> String {
    match code {
        "1045" => "Authentication failed".to_string(),
        "1049" => "Unknown database".to_string(),
        "1054" => "Unknown column in query".to_string(),
        "1062" => "Duplicate entry".to_string(),
        "1064" => "SQL syntax error".to_string(),
        "1146" => "Table does not exist".to_string(),
        "1451" | "1452" => "Foreign key constraint violation".to_string(),
        "2002" | "2003" => "Cannot connect to database server".to_string(),
        _ => format!("MySQL error (code: {})", code),
    }
}

/// PostgreSQL-specific error code handling
#[allow(dead_code)] // Used in tests
fn sanitize_postgres_error_code(code: &str) -> String {
    match code {
        "28P01" => "Authentication failed".to_string(),
        "3D000" => "Database does not exist".to_string(),
        "42P01" => "Table does not exist".to_string(),
        "42703" => "Column does not exist".to_string(),
        "42601" => "SQL syntax error".to_string(),
        "23505" => "Duplicate key violation".to_string(),
        "23503" => "Foreign key constraint violation".to_string(),
        "08001" | "08006" => "Cannot connect to database server".to_string(),
        _ => format!("PostgreSQL error (code: {})", code),
    }
}

/// SQLite-specific error handling
#[allow(dead_code)] // Used in tests
fn sanitize_sqlite_error(code: &str) -> String {
    match code {
        "1" => "SQL syntax error".to_string(),
        "14" => "Cannot open database file".to_string(),
        "19" => "Constraint violation".to_string(),
        "26" => "File is not a database".to_string(),
        _ => format!("SQLite error (code: {})", code),
    }
}

/// Result type alias for application operations
pub type AppResult<T> = Result<T, AppError>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_mysql_error_codes() {
        assert_eq!(sanitize_mysql_error_code("1045"), "Authentication failed");
        assert_eq!(sanitize_mysql_error_code("1049"), "Unknown database");
        assert_eq!(sanitize_mysql_error_code("1146"), "Table does not exist");
    }

    #[test]
    fn test_postgres_error_codes() {
        assert_eq!(sanitize_postgres_error_code("28P01"), "Authentication failed");
        assert_eq!(sanitize_postgres_error_code("42P01"), "Table does not exist");
        assert_eq!(sanitize_postgres_error_code("23505"), "Duplicate key violation");
    }

    #[test]
    fn test_sqlite_error_codes() {
        assert_eq!(sanitize_sqlite_error("1"), "SQL syntax error");
        assert_eq!(sanitize_sqlite_error("14"), "Cannot open database file");
        assert_eq!(sanitize_sqlite_error("19"), "Constraint violation");
    }
}
