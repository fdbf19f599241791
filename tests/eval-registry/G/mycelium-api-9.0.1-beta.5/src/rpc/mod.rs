pub(crate) mod dispatchers;
pub(crate) mod errors;
pub(crate) mod handlers;
pub(crate) mod jsonrpc_endpoints;
pub(crate) mod method_names;
pub(crate) mod openrpc;
pub(crate) mod params;
pub(crate) mod response_kind;
pub(crate) mod types;

pub(crate) use jsonrpc_endpoints::configure;
