//@ rmcp = "1.3"
// The server's own machinery around a tool's work: a blocking worker's answer received on a
// oneshot channel the tool made (`rx.await` fails only when the worker died before sending: the
// `JoinError` case), and an image encoded into an in-memory buffer the tool made (the analogue
// of serialising its own answer). Both are server faults: -32603 is right, nothing is reported.
// The work itself (the clipboard the worker could not read, an image saved to the path the
// model gave) is the tool's failure and is reported, also from a helper handed to
// `spawn_blocking` by path rather than in a closure.
use std::io::Cursor;

use image::{ImageFormat, RgbaImage};
use rmcp::{
    handler::server::wrapper::Parameters, model::*, schemars, tool, tool_router,
    ErrorData,
};
use serde::Deserialize;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct SaveArgs {
    pub path: String,
}

pub struct Clipboard;

fn read_clipboard_text() -> Result<String, ErrorData> {
    std::fs::read_to_string("/dev/clipboard").map_err(|e| {
        ErrorData::internal_error(format!("cannot read the clipboard: {e}"), None) //~ tool_failure_as_protocol_error
    })
}

/// On a blocking thread: the helper is handed to `spawn_blocking` by path.
async fn read_clipboard_async() -> Result<String, ErrorData> {
    tokio::task::spawn_blocking(read_clipboard_text)
        .await
        .map_err(|e| ErrorData::internal_error(format!("Task failed: {e}"), None))?
}

fn set_text(text: &str) -> Result<(), String> {
    std::fs::write("/dev/clipboard", text).map_err(|e| e.to_string())
}

fn capture() -> RgbaImage {
    RgbaImage::new(1, 1)
}

#[tool_router]
impl Clipboard {
    #[tool(description = "Read the clipboard")]
    async fn get_clipboard(&self) -> Result<CallToolResult, ErrorData> {
        let text = read_clipboard_async().await?;
        Ok(CallToolResult::success(vec![Content::text(text)]))
    }

    #[tool(description = "Set the clipboard")]
    async fn set_clipboard(&self, text: String) -> Result<CallToolResult, ErrorData> {
        let (tx, rx) = tokio::sync::oneshot::channel::<Result<(), String>>();
        tokio::task::spawn_blocking(move || {
            let _ = tx.send(set_text(&text));
        });
        rx.await
            .map_err(|_| ErrorData::internal_error("Clipboard task failed".to_string(), None))?
            .map_err(|e| ErrorData::internal_error(format!("Failed to set clipboard: {e}"), None))?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![Content::text("set")]))
    }

    #[tool(description = "Capture the screen as PNG")]
    async fn screenshot(&self) -> Result<CallToolResult, ErrorData> {
        let img = capture();
        let mut buf = Vec::new();
        img.write_to(&mut Cursor::new(&mut buf), ImageFormat::Png)
            .map_err(|e| ErrorData::internal_error(format!("Failed to encode PNG: {e}"), None))?;
        Ok(CallToolResult::success(vec![Content::image(
            base64::encode(&buf),
            "image/png",
        )]))
    }

    #[tool(description = "Capture the screen into a file")]
    async fn save_screenshot(
        &self,
        Parameters(args): Parameters<SaveArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        let img = capture();
        let mut file = std::fs::File::create(&args.path)
            .map_err(|e| ErrorData::internal_error(format!("cannot create {}: {e}", args.path), None))?; //~ tool_failure_as_protocol_error
        img.write_to(&mut file, ImageFormat::Png)
            .map_err(|e| ErrorData::internal_error(format!("cannot write {}: {e}", args.path), None))?; //~ tool_failure_as_protocol_error
        Ok(CallToolResult::success(vec![Content::text("saved")]))
    }
}
