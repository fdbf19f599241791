use rmcp::ErrorData as McpError;

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("database error: {0}")]
    Db(#[from] sqlx::Error),
    #[error("{kind} {id} not found")]
    NotFound { kind: &'static str, id: String },
}

impl From<AppError> for McpError {
    fn from(e: AppError) -> Self {
        McpError::internal_error(e.to_string(), None)
    }
}
