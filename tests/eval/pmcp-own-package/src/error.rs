use std::fmt;

pub type Result<T> = std::result::Result<T, Error>;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ErrorCode(pub i32);

impl ErrorCode {
    pub const INVALID_PARAMS: Self = Self(-32602);
    pub const INTERNAL_ERROR: Self = Self(-32603);
    pub const REQUEST_TIMEOUT: Self = Self(-32001);
}

/// The code the transport layer sends when a request times out.
pub const REQUEST_TIMEOUT: i32 = -32001;

/// Not an error code: a buffer size.
pub const READ_BUFFER: usize = 32001;

#[derive(Debug)]
pub enum Error {
    Protocol { code: ErrorCode, message: String },
    Internal(String),
    Validation(String),
    ToolRejected { message: String },
}

impl Error {
    pub fn protocol(code: ErrorCode, message: impl Into<String>) -> Self {
        Error::Protocol {
            code,
            message: message.into(),
        }
    }

    pub fn internal(message: impl Into<String>) -> Self {
        Error::Internal(message.into())
    }

    pub fn validation(message: impl Into<String>) -> Self {
        Error::Validation(message.into())
    }

    pub fn tool_rejected(message: impl Into<String>, _details: Option<serde_json::Value>) -> Self {
        Error::ToolRejected {
            message: message.into(),
        }
    }

    /// The wire code: every variant but `Protocol` is sent as -32603.
    pub fn code(&self) -> ErrorCode {
        match self {
            Error::Protocol { code, .. } => *code,
            _ => ErrorCode::INTERNAL_ERROR,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Protocol { message, .. }
            | Error::Internal(message)
            | Error::Validation(message)
            | Error::ToolRejected { message } => f.write_str(message),
        }
    }
}

impl From<serde_json::Error> for Error {
    fn from(e: serde_json::Error) -> Self {
        Error::internal(format!("serialization failed: {e}"))
    }
}
