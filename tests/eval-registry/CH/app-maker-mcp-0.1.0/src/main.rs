mod session;

use std::{collections::BTreeMap, fs, path::PathBuf};

use base64::{Engine as _, engine::general_purpose::STANDARD as BASE64_STANDARD};
use rmcp::{
    ErrorData as McpError, ServerHandler, ServiceExt,
    handler::server::{router::tool::ToolRouter, wrapper::Json, wrapper::Parameters},
    model::{CallToolResult, Content, ServerCapabilities, ServerInfo},
    schemars, tool, tool_handler, tool_router,
    transport::stdio,
};
use serde::{Deserialize, Serialize};
use session::{
    AppSessionManager, Button, DEFAULT_CLICK_HOLD_MS, DEFAULT_DOUBLE_CLICK_INTERVAL_MS,
    DEFAULT_DRAG_RELEASE_DELAY_MS, DEFAULT_KEY_DELAY_MS, DEFAULT_MOUSE_MOVE_DURATION_MS,
    DEFAULT_PRE_CLICK_DELAY_MS, DEFAULT_SCROLL_INTERVAL_MS, Geometry, ScrollDirection,
};

#[derive(Debug, Clone)]
struct AppMakerServer {
    manager: AppSessionManager,
    tool_router: ToolRouter<Self>,
}

impl AppMakerServer {
    fn new() -> Self {
        Self {
            manager: AppSessionManager::default(),
            tool_router: Self::tool_router(),
        }
    }
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct StartRequest {
    #[schemars(
        description = "Preferred X display number. Defaults to the first free display at or after 99."
    )]
    display_number: Option<u16>,
    #[schemars(description = "Virtual display width in pixels. Defaults to 1280.")]
    width: Option<u32>,
    #[schemars(description = "Virtual display height in pixels. Defaults to 720.")]
    height: Option<u32>,
    #[schemars(description = "Virtual display color depth. Defaults to 24.")]
    depth: Option<u8>,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
struct StartOutput {
    status: String,
    display: String,
    display_number: u16,
    width: u32,
    height: u32,
    depth: u8,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
struct StopOutput {
    stopped: bool,
    killed_app_processes: usize,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct ScreenshotRequest {
    #[schemars(description = "Absolute or relative path where the screenshot should be saved.")]
    path: PathBuf,
    #[schemars(description = "Allow replacing an existing screenshot file. Defaults to false.")]
    overwrite: Option<bool>,
    #[schemars(
        description = "Paint a synthetic cursor marker at the current pointer position in a PNG screenshot. Uses a distinct pressed style when a mouse button is currently held. Defaults to false."
    )]
    show_cursor: Option<bool>,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
struct ScreenshotOutput {
    path: PathBuf,
    display: String,
    mime_type: String,
    cursor: Option<ScreenshotCursorOutput>,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
struct ScreenshotCursorOutput {
    x: i32,
    y: i32,
    pressed: bool,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct KeyboardRequest {
    #[schemars(description = "Text to type into the focused application.")]
    text: Option<String>,
    #[schemars(
        description = "xdotool key expression to send, such as Return, Tab, space, ctrl+s, etc."
    )]
    key: Option<String>,
    #[schemars(
        description = "Delay in milliseconds between typed characters or key expressions. Defaults to 40."
    )]
    delay_ms: Option<u64>,
    #[schemars(
        description = "Ask xdotool to clear modifier keys before sending key input. Defaults to true for key input."
    )]
    clear_modifiers: Option<bool>,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
struct InputOutput {
    display: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct ClickRequest {
    x: i32,
    y: i32,
    #[schemars(description = "Mouse button number: 1 left, 2 middle, 3 right. Defaults to 1.")]
    button: Option<u8>,
    #[schemars(
        description = "Milliseconds to hold the button down before release. Defaults to 50."
    )]
    hold_ms: Option<u64>,
    #[schemars(
        description = "Milliseconds used for gradual pointer movement before the click. Defaults to 120."
    )]
    move_duration_ms: Option<u64>,
    #[schemars(
        description = "Milliseconds to wait after pointer movement before pressing. Defaults to 50."
    )]
    pre_click_delay_ms: Option<u64>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct MoveRequest {
    x: i32,
    y: i32,
    #[schemars(description = "Milliseconds used for gradual pointer movement. Defaults to 120.")]
    duration_ms: Option<u64>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct DoubleClickRequest {
    x: i32,
    y: i32,
    #[schemars(description = "Mouse button number: 1 left, 2 middle, 3 right. Defaults to 1.")]
    button: Option<u8>,
    #[schemars(
        description = "Milliseconds to hold each click down before release. Defaults to 50."
    )]
    hold_ms: Option<u64>,
    #[schemars(description = "Milliseconds between the two clicks. Defaults to 120.")]
    interval_ms: Option<u64>,
    #[schemars(
        description = "Milliseconds used for gradual pointer movement before the double-click. Defaults to 120."
    )]
    move_duration_ms: Option<u64>,
    #[schemars(
        description = "Milliseconds to wait after pointer movement before pressing. Defaults to 50."
    )]
    pre_click_delay_ms: Option<u64>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct MouseDownRequest {
    x: i32,
    y: i32,
    #[schemars(description = "Mouse button number: 1 left, 2 middle, 3 right. Defaults to 1.")]
    button: Option<u8>,
    #[schemars(
        description = "Milliseconds used for gradual pointer movement before pressing. Defaults to 120."
    )]
    move_duration_ms: Option<u64>,
    #[schemars(
        description = "Milliseconds to wait after pointer movement before pressing. Defaults to 50."
    )]
    pre_press_delay_ms: Option<u64>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct MouseUpRequest {
    #[schemars(description = "Mouse button number: 1 left, 2 middle, 3 right. Defaults to 1.")]
    button: Option<u8>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct DragRequest {
    from_x: i32,
    from_y: i32,
    to_x: i32,
    to_y: i32,
    #[schemars(description = "Mouse button number to hold while dragging. Defaults to 1.")]
    button: Option<u8>,
    #[schemars(
        description = "Milliseconds used for gradual pointer movement before pressing. Defaults to 120."
    )]
    start_move_duration_ms: Option<u64>,
    #[schemars(
        description = "Milliseconds used for gradual movement from start to end. Defaults to 120."
    )]
    drag_duration_ms: Option<u64>,
    #[schemars(description = "Milliseconds to wait after pressing before moving. Defaults to 50.")]
    hold_ms: Option<u64>,
    #[schemars(description = "Milliseconds to wait at the end before release. Defaults to 50.")]
    release_delay_ms: Option<u64>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct ScrollRequest {
    x: i32,
    y: i32,
    #[schemars(description = "Scroll direction: up, down, left, or right.")]
    direction: ScrollDirection,
    #[schemars(description = "Number of wheel clicks to send. Defaults to 1.")]
    clicks: Option<u8>,
    #[schemars(description = "Milliseconds between wheel clicks. Defaults to 40.")]
    interval_ms: Option<u64>,
    #[schemars(
        description = "Milliseconds used for gradual pointer movement before scrolling. Defaults to 120."
    )]
    move_duration_ms: Option<u64>,
    #[schemars(
        description = "Milliseconds to wait after pointer movement before scrolling. Defaults to 50."
    )]
    pre_scroll_delay_ms: Option<u64>,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
struct WindowInfo {
    id: String,
    title: String,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
struct ListWindowsOutput {
    display: String,
    windows: Vec<WindowInfo>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct WindowTargetRequest {
    #[schemars(description = "Window ID returned by appmaker-list-windows.")]
    window_id: Option<String>,
    #[schemars(description = "Window title substring or xdotool --name pattern.")]
    title: Option<String>,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
struct WindowActionOutput {
    display: String,
    window_id: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct RunRequest {
    command: String,
    #[schemars(description = "Command arguments. Shell parsing is not used.")]
    args: Option<Vec<String>>,
    #[schemars(description = "Working directory for the launched application.")]
    working_directory: Option<PathBuf>,
    #[schemars(description = "Extra environment variables for the launched application.")]
    env: Option<BTreeMap<String, String>>,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
struct RunOutput {
    display: String,
    pid: Option<u32>,
    command: String,
}

#[tool_router]
impl AppMakerServer {
    #[tool(
        name = "appmaker-start",
        description = "Start the visible isolated application display and its window manager."
    )]
    async fn start(
        &self,
        Parameters(request): Parameters<StartRequest>,
    ) -> Result<Json<StartOutput>, McpError> {
        let geometry = Geometry::from_request(request.width, request.height, request.depth)?;
        let info = self.manager.start(request.display_number, geometry).await?;

        Ok(Json(StartOutput {
            status: info.status,
            display: info.display,
            display_number: info.display_number,
            width: info.geometry.width,
            height: info.geometry.height,
            depth: info.geometry.depth,
        }))
    }

    #[tool(
        name = "appmaker-stop",
        description = "Stop the isolated application display and every app launched in it."
    )]
    async fn stop(&self) -> Result<Json<StopOutput>, McpError> {
        let result = self.manager.stop().await;
        Ok(Json(StopOutput {
            stopped: result.stopped,
            killed_app_processes: result.killed_app_processes,
        }))
    }

    #[tool(
        name = "appmaker-screenshot",
        description = "Capture the isolated application display to an image file."
    )]
    async fn screenshot(
        &self,
        Parameters(request): Parameters<ScreenshotRequest>,
    ) -> Result<CallToolResult, McpError> {
        let result = self
            .manager
            .screenshot(
                request.path,
                request.overwrite.unwrap_or(false),
                request.show_cursor.unwrap_or(false),
            )
            .await?;

        screenshot_result(result)
    }

    #[tool(
        name = "appmaker-send-keyboard",
        description = "Send keyboard text or a key expression to the focused app."
    )]
    async fn send_keyboard(
        &self,
        Parameters(request): Parameters<KeyboardRequest>,
    ) -> Result<Json<InputOutput>, McpError> {
        let display = self
            .manager
            .send_keyboard(
                request.text,
                request.key,
                request.delay_ms.unwrap_or(DEFAULT_KEY_DELAY_MS),
                request.clear_modifiers.unwrap_or(true),
            )
            .await?;

        Ok(Json(InputOutput { display }))
    }

    #[tool(
        name = "appmaker-send-click",
        description = "Move the pointer and click inside the isolated display."
    )]
    async fn send_click(
        &self,
        Parameters(request): Parameters<ClickRequest>,
    ) -> Result<Json<InputOutput>, McpError> {
        let display = self
            .manager
            .send_click(
                request.x,
                request.y,
                Button::try_from(request.button.unwrap_or(1))?,
                request.hold_ms.unwrap_or(DEFAULT_CLICK_HOLD_MS),
                request
                    .move_duration_ms
                    .unwrap_or(DEFAULT_MOUSE_MOVE_DURATION_MS),
                request
                    .pre_click_delay_ms
                    .unwrap_or(DEFAULT_PRE_CLICK_DELAY_MS),
            )
            .await?;

        Ok(Json(InputOutput { display }))
    }

    #[tool(
        name = "appmaker-send-move",
        description = "Move the pointer inside the isolated display."
    )]
    async fn send_move(
        &self,
        Parameters(request): Parameters<MoveRequest>,
    ) -> Result<Json<InputOutput>, McpError> {
        let display = self
            .manager
            .send_move(
                request.x,
                request.y,
                request
                    .duration_ms
                    .unwrap_or(DEFAULT_MOUSE_MOVE_DURATION_MS),
            )
            .await?;
        Ok(Json(InputOutput { display }))
    }

    #[tool(
        name = "appmaker-send-double-click",
        description = "Move the pointer and perform a paced double-click inside the isolated display."
    )]
    async fn send_double_click(
        &self,
        Parameters(request): Parameters<DoubleClickRequest>,
    ) -> Result<Json<InputOutput>, McpError> {
        let display = self
            .manager
            .send_double_click(
                request.x,
                request.y,
                Button::try_from(request.button.unwrap_or(1))?,
                request.hold_ms.unwrap_or(DEFAULT_CLICK_HOLD_MS),
                request
                    .interval_ms
                    .unwrap_or(DEFAULT_DOUBLE_CLICK_INTERVAL_MS),
                request
                    .move_duration_ms
                    .unwrap_or(DEFAULT_MOUSE_MOVE_DURATION_MS),
                request
                    .pre_click_delay_ms
                    .unwrap_or(DEFAULT_PRE_CLICK_DELAY_MS),
            )
            .await?;
        Ok(Json(InputOutput { display }))
    }

    #[tool(
        name = "appmaker-send-mouse-down",
        description = "Move the pointer and press a mouse button without releasing it."
    )]
    async fn send_mouse_down(
        &self,
        Parameters(request): Parameters<MouseDownRequest>,
    ) -> Result<Json<InputOutput>, McpError> {
        let display = self
            .manager
            .send_mouse_down(
                request.x,
                request.y,
                Button::try_from(request.button.unwrap_or(1))?,
                request
                    .move_duration_ms
                    .unwrap_or(DEFAULT_MOUSE_MOVE_DURATION_MS),
                request
                    .pre_press_delay_ms
                    .unwrap_or(DEFAULT_PRE_CLICK_DELAY_MS),
            )
            .await?;
        Ok(Json(InputOutput { display }))
    }

    #[tool(
        name = "appmaker-send-mouse-up",
        description = "Release a mouse button at the current pointer position."
    )]
    async fn send_mouse_up(
        &self,
        Parameters(request): Parameters<MouseUpRequest>,
    ) -> Result<Json<InputOutput>, McpError> {
        let display = self
            .manager
            .send_mouse_up(Button::try_from(request.button.unwrap_or(1))?)
            .await?;
        Ok(Json(InputOutput { display }))
    }

    #[tool(
        name = "appmaker-send-drag",
        description = "Drag from one position to another with gradual movement and a held mouse button."
    )]
    async fn send_drag(
        &self,
        Parameters(request): Parameters<DragRequest>,
    ) -> Result<Json<InputOutput>, McpError> {
        let display = self
            .manager
            .send_drag(
                request.from_x,
                request.from_y,
                request.to_x,
                request.to_y,
                Button::try_from(request.button.unwrap_or(1))?,
                request
                    .start_move_duration_ms
                    .unwrap_or(DEFAULT_MOUSE_MOVE_DURATION_MS),
                request
                    .drag_duration_ms
                    .unwrap_or(DEFAULT_MOUSE_MOVE_DURATION_MS),
                request.hold_ms.unwrap_or(DEFAULT_CLICK_HOLD_MS),
                request
                    .release_delay_ms
                    .unwrap_or(DEFAULT_DRAG_RELEASE_DELAY_MS),
            )
            .await?;
        Ok(Json(InputOutput { display }))
    }

    #[tool(
        name = "appmaker-send-scroll",
        description = "Move the pointer and send mouse wheel scroll events inside the isolated display."
    )]
    async fn send_scroll(
        &self,
        Parameters(request): Parameters<ScrollRequest>,
    ) -> Result<Json<InputOutput>, McpError> {
        let display = self
            .manager
            .send_scroll(
                request.x,
                request.y,
                request.direction,
                request.clicks.unwrap_or(1),
                request.interval_ms.unwrap_or(DEFAULT_SCROLL_INTERVAL_MS),
                request
                    .move_duration_ms
                    .unwrap_or(DEFAULT_MOUSE_MOVE_DURATION_MS),
                request
                    .pre_scroll_delay_ms
                    .unwrap_or(DEFAULT_PRE_CLICK_DELAY_MS),
            )
            .await?;
        Ok(Json(InputOutput { display }))
    }

    #[tool(
        name = "appmaker-list-windows",
        description = "List visible windows inside the isolated display."
    )]
    async fn list_windows(&self) -> Result<Json<ListWindowsOutput>, McpError> {
        let result = self.manager.list_windows().await?;
        Ok(Json(ListWindowsOutput {
            display: result.display,
            windows: result
                .windows
                .into_iter()
                .map(|window| WindowInfo {
                    id: window.id,
                    title: window.title,
                })
                .collect(),
        }))
    }

    #[tool(
        name = "appmaker-focus-window",
        description = "Focus a window inside the isolated display by ID or title."
    )]
    async fn focus_window(
        &self,
        Parameters(request): Parameters<WindowTargetRequest>,
    ) -> Result<Json<WindowActionOutput>, McpError> {
        let result = self
            .manager
            .focus_window(request.window_id, request.title)
            .await?;
        Ok(Json(WindowActionOutput {
            display: result.display,
            window_id: result.window_id,
        }))
    }

    #[tool(
        name = "appmaker-kill-window",
        description = "Close a window inside the isolated display by ID or title."
    )]
    async fn kill_window(
        &self,
        Parameters(request): Parameters<WindowTargetRequest>,
    ) -> Result<Json<WindowActionOutput>, McpError> {
        let result = self
            .manager
            .kill_window(request.window_id, request.title)
            .await?;
        Ok(Json(WindowActionOutput {
            display: result.display,
            window_id: result.window_id,
        }))
    }

    #[tool(
        name = "appmaker-run",
        description = "Launch a command inside the isolated application display."
    )]
    async fn run(
        &self,
        Parameters(request): Parameters<RunRequest>,
    ) -> Result<Json<RunOutput>, McpError> {
        let result = self
            .manager
            .run_app(
                request.command,
                request.args.unwrap_or_default(),
                request.working_directory,
                request.env.unwrap_or_default(),
            )
            .await?;

        Ok(Json(RunOutput {
            display: result.display,
            pid: result.pid,
            command: result.command,
        }))
    }
}

fn screenshot_result(result: session::ScreenshotResult) -> Result<CallToolResult, McpError> {
    let mime_type = mime_type_for_path(&result.path).to_string();
    let image = fs::read(&result.path).map_err(|error| {
        McpError::internal_error(
            format!(
                "failed to read screenshot {}: {error}",
                result.path.display()
            ),
            None,
        )
    })?;
    let encoded = BASE64_STANDARD.encode(image);
    let cursor = result.cursor.map(|cursor| ScreenshotCursorOutput {
        x: cursor.x,
        y: cursor.y,
        pressed: cursor.pressed,
    });
    let metadata = ScreenshotOutput {
        path: result.path,
        display: result.display,
        mime_type: mime_type.clone(),
        cursor,
    };
    let structured = serde_json::to_value(&metadata).map_err(|error| {
        McpError::internal_error(
            format!("failed to serialize screenshot metadata: {error}"),
            None,
        )
    })?;

    let mut tool_result = CallToolResult::success(vec![
        Content::text(format!(
            "Screenshot saved to {} on display {}.",
            metadata.path.display(),
            metadata.display
        )),
        Content::image(encoded, mime_type),
    ]);
    tool_result.structured_content = Some(structured);

    Ok(tool_result)
}

fn mime_type_for_path(path: &std::path::Path) -> &'static str {
    match path
        .extension()
        .and_then(|extension| extension.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("jpg" | "jpeg") => "image/jpeg",
        Some("gif") => "image/gif",
        Some("webp") => "image/webp",
        Some("bmp") => "image/bmp",
        _ => "image/png",
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for AppMakerServer {
    fn get_info(&self) -> ServerInfo {
        ServerInfo::new(ServerCapabilities::builder().enable_tools().build()).with_instructions(
            "Control applications in a visible isolated Xephyr display. Start the display first, then launch apps with appmaker-run and inspect them with screenshots/window tools.",
        )
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .init();

    let service = AppMakerServer::new().serve(stdio()).await?;
    service.waiting().await?;

    Ok(())
}
