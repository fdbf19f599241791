//@ rmcp = "1.8"
// Calls go to the fn their path, import or receiver type names, never to every fn of the name:
// a renamed import is followed, same-named private helpers of other modules and a local closure
// that shadows a module fn are not blamed, `?` converts through the `From` impl of the operand's
// own error type (not another module's type of the same name), a `dyn Trait` call reaches every
// impl, and a trait's default method is the body an impl that does not override it runs.
use rmcp::{
    handler::server::wrapper::Parameters, model::*, schemars, tool, tool_router,
    ErrorData as McpError,
};
use serde::Deserialize;

mod upstream {
    use rmcp::ErrorData as McpError;

    pub fn execute(query: &str) -> Result<String, McpError> {
        Err(McpError::internal_error(format!("upstream API rejected {query}"), None)) //~ tool_failure_as_protocol_error
    }
}

mod startup {
    use rmcp::ErrorData as McpError;

    // Same name as the tools' own check; only start-up code calls this one.
    fn validate(path: &str) -> Result<(), McpError> {
        Err(McpError::internal_error(format!("config file {path} is unreadable"), None))
    }

    pub fn load() {
        let _ = validate("/etc/app.toml");
    }
}

mod checks {
    pub fn validate(query: &str) -> Result<(), String> {
        if query.is_empty() {
            return Err("query must not be empty".to_string());
        }
        Ok(())
    }
}

mod store {
    #[derive(Debug)]
    pub struct AppError(pub String);

    pub fn load(key: &str) -> Result<String, AppError> {
        Err(AppError(format!("no row for {key}")))
    }

    impl From<AppError> for rmcp::ErrorData {
        fn from(e: AppError) -> Self {
            rmcp::ErrorData::internal_error(format!("store: {}", e.0), None) //~ tool_failure_as_protocol_error
        }
    }
}

mod cache {
    // Another module's error type of the same name: no tool's `?` converts it.
    #[derive(Debug)]
    pub struct AppError(pub String);

    impl From<AppError> for rmcp::ErrorData {
        fn from(e: AppError) -> Self {
            rmcp::ErrorData::internal_error(format!("cache: {}", e.0), None)
        }
    }
}

fn helper() -> McpError {
    McpError::internal_error("only start-up code builds this", None)
}

pub trait Backend: Send + Sync {
    fn fetch(&self, key: &str) -> Result<String, McpError>;

    fn describe(&self) -> Result<String, McpError> {
        Err(McpError::internal_error("backend has no description", None)) //~ tool_failure_as_protocol_error
    }
}

struct Disk;

impl Backend for Disk {
    fn fetch(&self, key: &str) -> Result<String, McpError> {
        Err(McpError::internal_error(format!("disk read of {key} failed"), None)) //~ tool_failure_as_protocol_error
    }
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct Query {
    pub q: String,
}

pub struct Server {
    backend: Box<dyn Backend>,
}

use upstream::execute as run_x;

#[tool_router]
impl Server {
    #[tool(description = "Search upstream")]
    async fn search(&self, Parameters(args): Parameters<Query>) -> Result<CallToolResult, McpError> {
        if let Err(e) = checks::validate(&args.q) {
            return Ok(CallToolResult::error(vec![Content::text(e)]));
        }
        // A local closure named like the module fn `helper`: not a call of it.
        let helper = |q: &str| q.trim().to_string();
        let q = helper(&args.q);
        let text = run_x(&q)?;
        let row = store::load(&q)?;
        Ok(CallToolResult::success(vec![Content::text(format!("{text} {row}"))]))
    }

    #[tool(description = "Read through the backend")]
    async fn read(&self, Parameters(args): Parameters<Query>) -> Result<CallToolResult, McpError> {
        let value = self.backend.fetch(&args.q)?;
        let about = self.backend.describe()?;
        Ok(CallToolResult::success(vec![Content::text(format!("{value} ({about})"))]))
    }
}

pub fn start() {
    startup::load();
    let _ = helper();
}
