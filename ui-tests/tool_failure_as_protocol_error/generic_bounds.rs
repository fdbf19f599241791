//@ rmcp = "1.8"
// A parameter of a generic type is known by its bounds (`s: &S` with `S: Store`, `where A:
// Audit`, `store: impl Store`), and so is a field of a generic type (`inner: B` in `struct
// Cached<B: Store>`, or in `impl<Q: Audit> Pool<Q>`): a method call on it runs the bound trait's method. Its default
// body is what the source says runs; an abstract method names no body (which impl the caller
// passes the source of the generic fn does not say), so nothing is reported for it. Never the
// crate's other methods of the same name.
use rmcp::{
    handler::server::wrapper::Parameters, model::*, schemars, tool, tool_router,
    ErrorData as McpError,
};
use serde::Deserialize;

pub trait Store: Send + Sync {
    fn lookup(&self, key: &str) -> Result<String, McpError>;

    fn describe(&self) -> Result<String, McpError> {
        Err(McpError::internal_error("store has no description", None)) //~ tool_failure_as_protocol_error
    }

    fn health(&self) -> Result<(), McpError> {
        Err(McpError::internal_error("store health is unknown", None)) //~ tool_failure_as_protocol_error
    }
}

pub trait Audit {
    fn record(&self, what: &str) -> Result<(), McpError> {
        Err(McpError::internal_error(format!("audit log rejected {what}"), None)) //~ tool_failure_as_protocol_error
    }

    fn rotate(&self) -> Result<(), McpError> {
        Err(McpError::internal_error("audit log cannot rotate", None)) //~ tool_failure_as_protocol_error
    }
}

pub struct Disk;

impl Store for Disk {
    fn lookup(&self, key: &str) -> Result<String, McpError> {
        Ok(format!("value of {key}"))
    }
}

impl Audit for Disk {}

// Same method names as the traits', on types no tool reaches.
pub struct Report;

impl Report {
    pub fn describe(&self) -> Result<String, McpError> {
        Err(McpError::internal_error("report template missing", None))
    }

    pub fn lookup(&self, key: &str) -> Result<String, McpError> {
        Err(McpError::internal_error(format!("report index lost {key}"), None))
    }

    pub fn record(&self, what: &str) -> Result<(), McpError> {
        Err(McpError::internal_error(format!("report journal full: {what}"), None))
    }

    pub fn health(&self) -> Result<(), McpError> {
        Err(McpError::internal_error("report renderer down", None))
    }

    pub fn rotate(&self) -> Result<(), McpError> {
        Err(McpError::internal_error("report archive full", None))
    }
}

pub struct Cached<B: Store> {
    inner: B,
}

impl<B: Store> Cached<B> {
    fn check(&self) -> Result<(), McpError> {
        self.inner.health()
    }
}

pub struct Pool<P> {
    audit: std::sync::Arc<P>,
}

impl<Q: Audit> Pool<Q> {
    fn roll(&self) -> Result<(), McpError> {
        self.audit.rotate()
    }
}

fn describe_any<S: Store>(store: &S) -> Result<String, McpError> {
    store.describe()
}

fn lookup_in(store: impl Store, key: &str) -> Result<String, McpError> {
    store.lookup(key)
}

fn audited<A>(audit: &A, what: &str) -> Result<(), McpError>
where
    A: Audit,
{
    audit.record(what)
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct Query {
    pub q: String,
}

pub struct Server {
    store: Disk,
    cached: Cached<Disk>,
    pool: Pool<Disk>,
}

#[tool_router]
impl Server {
    #[tool(description = "Describe the store")]
    async fn describe(&self) -> Result<CallToolResult, McpError> {
        let text = describe_any(&self.store)?;
        Ok(CallToolResult::success(vec![Content::text(text)]))
    }

    #[tool(description = "Look a key up")]
    async fn lookup(&self, Parameters(args): Parameters<Query>) -> Result<CallToolResult, McpError> {
        audited(&self.store, &args.q)?;
        let value = lookup_in(Disk, &args.q)?;
        self.cached.check()?;
        self.pool.roll()?;
        Ok(CallToolResult::success(vec![Content::text(value)]))
    }
}

pub fn report() {
    let r = Report;
    let _ = (r.describe(), r.lookup("k"), r.record("x"), r.health(), r.rotate());
}
