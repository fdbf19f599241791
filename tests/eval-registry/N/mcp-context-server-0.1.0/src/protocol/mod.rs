pub mod request;
pub mod response;

pub use request::{
    InitializeParams, InspectCacheParams, JsonRpcRequest, ListCachesParams, ResolveContextParams,
    RpcId, ToolCallParams,
};
pub use response::{
    JsonRpcError, JsonRpcResponse, McpError, McpErrorCode, McpErrorResponse, ToolResult,
    ToolResultContent,
};
