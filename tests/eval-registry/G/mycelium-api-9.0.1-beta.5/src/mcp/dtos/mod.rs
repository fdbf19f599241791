mod mcp_types;

pub(crate) use mcp_types::*;
