//@ dep: turbomcp = "2.3"
//@ dep: tokio = "1"
// turbomcp 2.x: `tokio::try_join!(a, b)?` fails with the joined futures' error, here the crate's
// `ForgeError`, which `?` converts through the crate's `From<ForgeError> for McpError`: its arm is
// the tool's answer (reached only from tools, so reported there), not the SDK's -32002 for a
// foreign error at the `?`.
use turbomcp::prelude::*;

#[derive(Debug)]
pub enum ForgeError {
    NoPipeline(u64),
}

impl From<ForgeError> for McpError {
    fn from(e: ForgeError) -> Self {
        match e {
            ForgeError::NoPipeline(id) => McpError::internal(format!("pipeline {id} does not exist")), //~ tool_failure_as_protocol_error
        }
    }
}

async fn pipeline(id: u64) -> Result<String, ForgeError> {
    if id == 0 {
        return Err(ForgeError::NoPipeline(id));
    }
    Ok(format!("pipeline {id}: passed"))
}

#[derive(Clone)]
struct Forge;

#[server(name = "forge", version = "1.0.0")]
impl Forge {
    #[tool("Compare two pipelines")]
    async fn compare_pipelines(&self, a: u64, b: u64) -> McpResult<String> {
        let (left, right) = tokio::try_join!(pipeline(a), pipeline(b))?;
        Ok(format!("{left}\n{right}"))
    }
}

fn main() {}
