//@ dep: turbomcp = "3.6"
//@ dep: turbomcp-core = "3.6"
// A conversion both `#[tool]`s and a resource reach (`impl From<StoreError> for McpError`):
// a tool's `Err` is an isError result whatever kind it carries, so a kind's legacy code goes
// on the wire only through the resource. Only the arms of the variants the resource can pass
// are reported: `Io` (`read_manifest`'s file), not `Locked`, which only the tools' `lock()`
// builds.
use turbomcp::prelude::*;
use turbomcp_core::ErrorKind;

#[derive(Debug)]
pub enum StoreError {
    Locked,
    Io(std::io::Error),
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}

impl From<StoreError> for McpError {
    fn from(err: StoreError) -> Self {
        match err {
            e @ StoreError::Locked => McpError::new(ErrorKind::Unavailable, e.to_string()),
            StoreError::Io(e) => McpError::new(ErrorKind::PermissionDenied, e.to_string()), //~ legacy_error_code
        }
    }
}

#[derive(Clone)]
struct Store {
    busy: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl Store {
    fn lock(&self) -> Result<(), StoreError> {
        if self.busy.swap(true, std::sync::atomic::Ordering::SeqCst) {
            return Err(StoreError::Locked);
        }
        Ok(())
    }

    fn read_manifest(&self, id: &str) -> Result<String, StoreError> {
        std::fs::read_to_string(format!("/var/lib/store/{id}.json")).map_err(StoreError::Io)
    }
}

#[server(name = "store", version = "1.0.0")]
impl Store {
    /// Take the store for a while.
    #[tool]
    async fn take(&self) -> McpResult<String> {
        self.lock()?;
        Ok("taken".to_string())
    }

    #[resource("store://manifests/{id}", description = "A manifest", mime_type = "application/json")]
    async fn manifest(&self, uri: String, _ctx: &RequestContext) -> McpResult<String> {
        let id = uri.trim_start_matches("store://manifests/");
        Ok(self.read_manifest(id)?)
    }
}

fn main() {}
