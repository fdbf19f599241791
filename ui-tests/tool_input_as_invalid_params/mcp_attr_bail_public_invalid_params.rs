//@ dep: mcp-attr = "0.0.7"
// mcp-attr 0.0.7: `bail_public!(ErrorCode::INVALID_PARAMS, ..)` and
// `Error::new(ErrorCode::INVALID_PARAMS).with_message(.., true)` are -32602 protocol errors; in a
// `#[tool]` fn rejecting argument values with them is this lint (the span is the macro call or the
// constructor chain). In a `#[resource]` fn, -32602 for a missing resource is the 2026-07-28
// answer, and the SDK's own `resource_not_found(uri)` uses it: not this lint.
use mcp_attr::server::errors::resource_not_found;
use mcp_attr::server::{mcp_server, McpServer};
use mcp_attr::{bail_public, Error, ErrorCode, Result};

struct Images;

#[mcp_server]
impl McpServer for Images {
    /// Resize an image to a width in pixels.
    #[tool]
    async fn resize(&self, url: String, width: u32) -> Result<String> {
        if width == 0 || width > 8192 {
            bail_public!(ErrorCode::INVALID_PARAMS, "width must be 1..=8192, got {width}"); //~ tool_input_as_invalid_params
        }
        if !url.starts_with("https://") {
            return Err(Error::new(ErrorCode::INVALID_PARAMS).with_message(format!("url must be https, got {url}"), true)); //~ tool_input_as_invalid_params
        }
        Ok(format!("{url} resized to {width}px"))
    }

    /// A thumbnail, as a resource.
    #[resource("thumbs://{name}")]
    async fn thumbnail(&self, name: String) -> Result<String> {
        if !name.ends_with(".png") {
            return Err(resource_not_found(&format!("thumbs://{name}")));
        }
        Ok(format!("thumbnail of {name}"))
    }
}
