//@ rmcp = "1.8"
// A method call goes to the method of the receiver's type where the source states it: a struct
// field's type, a parameter's type, a `let` annotation, a constructor's `-> Self`, the impl a
// value's type has (of several impls of one trait), an impl's override rather than the trait's
// default. Every type here has a same-named twin that fails differently; only start-up code
// calls the twins. A receiver whose type is not written anywhere, with candidates that
// disagree, resolves to none of them.
use rmcp::{
    handler::server::wrapper::Parameters, model::*, schemars, tool, tool_router,
    ErrorData as McpError,
};
use serde::Deserialize;

pub struct Store;
pub struct Archive;

impl Store {
    pub fn lookup(&self, key: &str) -> Result<String, McpError> {
        Err(McpError::internal_error(format!("store has no row {key}"), None)) //~ tool_failure_as_protocol_error
    }
}

impl Archive {
    pub fn lookup(&self, key: &str) -> Result<String, McpError> {
        Err(McpError::internal_error(format!("archive has no row {key}"), None))
    }

    pub fn scan(&self, prefix: &str) -> Result<Vec<String>, McpError> {
        Err(McpError::internal_error(format!("archive scan of {prefix} failed"), None))
    }
}

pub struct Index;

impl Index {
    pub fn scan(&self, prefix: &str) -> Result<Vec<String>, McpError> {
        Err(McpError::internal_error(format!("index scan of {prefix} failed"), None)) //~ tool_failure_as_protocol_error
    }
}

pub struct Client {
    base: String,
}

impl Client {
    pub fn new() -> Self {
        Client {
            base: "https://api.example.com".to_string(),
        }
    }

    pub fn fetch(&self, path: &str) -> Result<String, McpError> {
        Err(McpError::internal_error(format!("GET {}{path} failed", self.base), None)) //~ tool_failure_as_protocol_error
    }
}

pub struct Mirror;

impl Mirror {
    pub fn open() -> Mirror {
        Mirror
    }

    pub fn fetch(&self, path: &str) -> Result<String, McpError> {
        Err(McpError::internal_error(format!("mirror GET {path} failed"), None))
    }
}

pub trait Source {
    fn pull(&self, key: &str) -> Result<String, McpError>;

    fn summary(&self) -> Result<String, McpError> {
        Err(McpError::internal_error("this source has no summary", None))
    }
}

pub struct LocalSource;
pub struct RemoteSource;

impl Source for LocalSource {
    fn pull(&self, key: &str) -> Result<String, McpError> {
        Err(McpError::internal_error(format!("local file {key} is missing"), None)) //~ tool_failure_as_protocol_error
    }

    fn summary(&self) -> Result<String, McpError> {
        Err(McpError::invalid_request("local sources are summarised on demand only", None)) //~ tool_failure_as_protocol_error
    }
}

impl Source for RemoteSource {
    fn pull(&self, key: &str) -> Result<String, McpError> {
        Err(McpError::internal_error(format!("remote {key} is unreachable"), None))
    }
}

pub struct Probe;
pub struct Sensor;

impl Probe {
    pub fn sample(&self) -> Result<u32, McpError> {
        Err(McpError::internal_error("probe is offline", None))
    }
}

impl Sensor {
    pub fn sample(&self) -> Result<u32, McpError> {
        Ok(7)
    }
}

fn read_store(store: &Store, key: &str) -> Result<String, McpError> {
    store.lookup(key)
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct Key {
    pub key: String,
}

pub struct Server {
    store: Store,
    local: LocalSource,
}

#[tool_router]
impl Server {
    #[tool(description = "Read a row through the field's type")]
    async fn row(&self, Parameters(args): Parameters<Key>) -> Result<CallToolResult, McpError> {
        let row = self.store.lookup(&args.key)?;
        let again = read_store(&self.store, &args.key)?;
        let index: Index = make_index();
        let hits = index.scan(&args.key)?;
        Ok(CallToolResult::success(vec![Content::text(format!("{row} {again} {}", hits.len()))]))
    }

    #[tool(description = "Fetch through a constructed client")]
    async fn fetch(&self, Parameters(args): Parameters<Key>) -> Result<CallToolResult, McpError> {
        let c = Client::new();
        let body = c.fetch(&args.key)?;
        Ok(CallToolResult::success(vec![Content::text(body)]))
    }

    #[tool(description = "Pull from the local source")]
    async fn pull(&self, Parameters(args): Parameters<Key>) -> Result<CallToolResult, McpError> {
        let value = self.local.pull(&args.key)?;
        let about = self.local.summary()?;
        Ok(CallToolResult::success(vec![Content::text(format!("{value} ({about})"))]))
    }

    #[tool(description = "Sample whatever device is attached")]
    async fn sample(&self) -> Result<CallToolResult, McpError> {
        // Another crate's value: which `sample` runs is not written here.
        let device = hardware::attached();
        let n = device.sample()?;
        Ok(CallToolResult::success(vec![Content::text(n.to_string())]))
    }
}

fn make_index() -> Index {
    Index
}

pub fn start() {
    let _ = Archive.lookup("boot");
    let _ = Archive.scan("boot");
    let _ = Mirror::open().fetch("/boot");
    let _ = RemoteSource.pull("boot");
    let _ = RemoteSource.summary();
    let _ = Probe.sample();
    let _ = Sensor.sample();
}
