//@ rmcp = "0.8"
//@ dep: serde = "1"
//@ dep: serde_json = "1"
// The central error -> code mapping as a method: `impl From<AppError> for McpError` builds
// `McpError::new(ErrorCode(e.rpc_code()), ..)`, and `rpc_code` picks the code per variant. Each
// `?` gets the code of the variants its operand can fail with: `read`'s `Io` (passed point-free,
// `.map_err(AppError::Io)`) is a tool failure sent as -32603, its `BadPath` an argument value
// rejected with -32602, and the mapping's -32001 is a legacy code. `stat` fails only with `Io`,
// so its `?` is no argument rejection. `weight` returns an integer that is never used as a code,
// and `legacy_code` is never used at all: their literals are no codes.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Content, ErrorCode};
use rmcp::{schemars, tool, tool_router, ErrorData as McpError};

#[derive(Debug)]
pub enum AppError {
    NotFound(String),
    BadPath(String),
    Io(std::io::Error),
}

impl AppError {
    pub fn rpc_code(&self) -> i32 {
        match self {
            AppError::NotFound(_) => -32001, //~ legacy_error_code
            AppError::BadPath(_) => -32602,
            AppError::Io(_) => -32603,
        }
    }

    pub fn weight(&self) -> i32 {
        match self {
            AppError::NotFound(_) => -32005,
            _ => 1,
        }
    }

    pub fn legacy_code(&self) -> i32 {
        match self {
            _ => -32010,
        }
    }
}

impl std::fmt::Display for AppError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?} (weight {})", self.weight())
    }
}

impl From<AppError> for McpError {
    fn from(e: AppError) -> Self {
        McpError::new(ErrorCode(e.rpc_code()), e.to_string(), None) //~ tool_failure_as_protocol_error
        //~| tool_input_as_invalid_params
    }
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct PathArgs {
    pub path: String,
}

fn read(path: &str) -> Result<String, AppError> {
    if path.contains("..") {
        return Err(AppError::BadPath(format!("{path} leaves the workspace")));
    }
    std::fs::read_to_string(path).map_err(AppError::Io)
}

fn stat(path: &str) -> Result<u64, AppError> {
    std::fs::metadata(path).map(|m| m.len()).map_err(AppError::Io)
}

pub struct Server;

#[tool_router]
impl Server {
    #[tool(description = "Read a file")]
    async fn read_file(&self, Parameters(args): Parameters<PathArgs>) -> Result<CallToolResult, McpError> {
        let text = read(&args.path)?;
        Ok(CallToolResult::success(vec![Content::text(text)]))
    }

    #[tool(description = "Size of a file")]
    async fn file_size(&self, Parameters(args): Parameters<PathArgs>) -> Result<CallToolResult, McpError> {
        let size = stat(&args.path)?;
        Ok(CallToolResult::success(vec![Content::text(size.to_string())]))
    }
}
