use std::{
    collections::{BTreeMap, BTreeSet},
    ffi::OsStr,
    path::{Path, PathBuf},
    process::Stdio,
    time::Duration,
};

use image::{Rgba, RgbaImage};
use rmcp::ErrorData as McpError;
use rmcp::schemars;
use serde::{Deserialize, Serialize};
use tokio::{process::Child, process::Command, sync::Mutex, time::sleep};

const DEFAULT_WIDTH: u32 = 1280;
const DEFAULT_HEIGHT: u32 = 720;
const DEFAULT_DEPTH: u8 = 24;
const DEFAULT_DISPLAY_START: u16 = 99;
const DISPLAY_SEARCH_LIMIT: u16 = 199;
const PARENT_DISPLAY_ENV: &str = "APPMAKER_PARENT_DISPLAY";
pub const DEFAULT_KEY_DELAY_MS: u64 = 40;
pub const DEFAULT_MOUSE_MOVE_DURATION_MS: u64 = 120;
pub const DEFAULT_PRE_CLICK_DELAY_MS: u64 = 50;
pub const DEFAULT_CLICK_HOLD_MS: u64 = 50;
pub const DEFAULT_DOUBLE_CLICK_INTERVAL_MS: u64 = 120;
pub const DEFAULT_DRAG_RELEASE_DELAY_MS: u64 = 50;
pub const DEFAULT_SCROLL_INTERVAL_MS: u64 = 40;
const MAX_INPUT_DELAY_MS: u64 = 5_000;
const MOUSE_STEP_INTERVAL_MS: u64 = 16;
const MAX_SCROLL_CLICKS: u8 = 100;
const IDLE_CURSOR_RADIUS: i32 = 10;
const PRESSED_CURSOR_RADIUS: i32 = 14;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Geometry {
    pub width: u32,
    pub height: u32,
    pub depth: u8,
}

impl Geometry {
    pub fn from_request(
        width: Option<u32>,
        height: Option<u32>,
        depth: Option<u8>,
    ) -> Result<Self, McpError> {
        let geometry = Self {
            width: width.unwrap_or(DEFAULT_WIDTH),
            height: height.unwrap_or(DEFAULT_HEIGHT),
            depth: depth.unwrap_or(DEFAULT_DEPTH),
        };

        if geometry.width == 0 || geometry.height == 0 {
            return Err(invalid_params("width and height must be greater than zero"));
        }

        if geometry.depth == 0 {
            return Err(invalid_params("depth must be greater than zero"));
        }

        Ok(geometry)
    }

    fn screen_arg(self) -> String {
        format!("{}x{}x{}", self.width, self.height, self.depth)
    }
}

#[derive(Debug, Clone, Copy)]
pub struct Button(u8);

impl TryFrom<u8> for Button {
    type Error = McpError;

    fn try_from(value: u8) -> Result<Self, Self::Error> {
        match value {
            1..=5 => Ok(Self(value)),
            _ => Err(invalid_params("button must be between 1 and 5")),
        }
    }
}

#[derive(Debug, Clone, Copy, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ScrollDirection {
    Up,
    Down,
    Left,
    Right,
}

impl ScrollDirection {
    fn button_number(self) -> u8 {
        match self {
            Self::Up => 4,
            Self::Down => 5,
            Self::Left => 6,
            Self::Right => 7,
        }
    }
}

#[derive(Debug, Clone)]
pub struct SessionInfo {
    pub status: String,
    pub display: String,
    pub display_number: u16,
    pub geometry: Geometry,
}

#[derive(Debug, Clone)]
pub struct StopResult {
    pub stopped: bool,
    pub killed_app_processes: usize,
}

#[derive(Debug, Clone)]
pub struct ScreenshotResult {
    pub display: String,
    pub path: PathBuf,
    pub cursor: Option<CursorSnapshot>,
}

#[derive(Debug, Clone, Copy)]
pub struct CursorSnapshot {
    pub x: i32,
    pub y: i32,
    pub pressed: bool,
}

#[derive(Debug, Clone)]
pub struct WindowListResult {
    pub display: String,
    pub windows: Vec<Window>,
}

#[derive(Debug, Clone)]
pub struct Window {
    pub id: String,
    pub title: String,
}

#[derive(Debug, Clone)]
pub struct WindowActionResult {
    pub display: String,
    pub window_id: String,
}

#[derive(Debug, Clone)]
pub struct RunResult {
    pub display: String,
    pub pid: Option<u32>,
    pub command: String,
}

#[derive(Debug, Clone, Default)]
pub struct AppSessionManager {
    session: std::sync::Arc<Mutex<Option<AppSession>>>,
}

#[derive(Debug)]
struct AppSession {
    display: String,
    display_number: u16,
    geometry: Geometry,
    xephyr: Child,
    window_manager: Child,
    apps: Vec<Child>,
    pressed_buttons: BTreeSet<u8>,
}

impl AppSessionManager {
    pub async fn start(
        &self,
        requested_display: Option<u16>,
        geometry: Geometry,
    ) -> Result<SessionInfo, McpError> {
        let mut session = self.session.lock().await;

        if let Some(existing) = session.as_mut() {
            if existing.is_alive() {
                if requested_display.is_some_and(|number| number != existing.display_number) {
                    return Err(invalid_params(format!(
                        "session is already running on {}; stop it before starting another display",
                        existing.display
                    )));
                }

                if existing.geometry != geometry {
                    return Err(invalid_params(
                        "session is already running with a different geometry; stop it before changing size or depth",
                    ));
                }

                return Ok(existing.info("already-running"));
            }

            existing.stop().await;
            *session = None;
        }

        let display_number = match requested_display {
            Some(number) => {
                ensure_display_number_available(number)?;
                number
            }
            None => find_free_display_number()?,
        };
        let display = format!(":{display_number}");
        let parent_display = detect_parent_display(&display).await?;

        let mut xephyr = spawn_xephyr(&display, geometry, &parent_display).await?;
        wait_for_display(&display, &mut xephyr)
            .await
            .map_err(|error| {
                let _ = xephyr.start_kill();
                error
            })?;

        let mut window_manager = spawn_window_manager(&display).await.map_err(|error| {
            let _ = xephyr.start_kill();
            error
        })?;
        sleep(Duration::from_millis(250)).await;
        if let Ok(Some(status)) = window_manager.try_wait() {
            let _ = xephyr.start_kill();
            return Err(internal_error(format!(
                "fluxbox exited during startup with status {status}"
            )));
        }

        let new_session = AppSession {
            display,
            display_number,
            geometry,
            xephyr,
            window_manager,
            apps: Vec::new(),
            pressed_buttons: BTreeSet::new(),
        };
        let info = new_session.info("started");
        *session = Some(new_session);

        Ok(info)
    }

    pub async fn stop(&self) -> StopResult {
        let mut session = self.session.lock().await;
        let Some(mut active_session) = session.take() else {
            return StopResult {
                stopped: false,
                killed_app_processes: 0,
            };
        };

        let killed_app_processes = active_session.apps.len();
        active_session.stop().await;

        StopResult {
            stopped: true,
            killed_app_processes,
        }
    }

    pub async fn screenshot(
        &self,
        path: PathBuf,
        overwrite: bool,
        show_cursor: bool,
    ) -> Result<ScreenshotResult, McpError> {
        let (display, pointer_pressed) = self.with_session_pointer_state().await?;
        let path = absolutize(path)?;

        if show_cursor && !is_png_path(&path) {
            return Err(invalid_params(
                "show_cursor currently requires a .png screenshot path",
            ));
        }

        if path.exists() && !overwrite {
            return Err(invalid_params(format!(
                "{} already exists; pass overwrite=true to replace it",
                path.display()
            )));
        }

        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|error| {
                internal_error(format!("failed to create {}: {error}", parent.display()))
            })?;
        }

        let cursor = if show_cursor {
            let (pointer_x, pointer_y) = current_mouse_position(&display).await?;
            Some(CursorSnapshot {
                x: pointer_x,
                y: pointer_y,
                pressed: pointer_pressed,
            })
        } else {
            None
        };

        let scrot_result = command_with_display("scrot", &display)
            .arg(&path)
            .output()
            .await;

        let result = match scrot_result {
            Ok(output) if output.status.success() => Ok(ScreenshotResult {
                display,
                path,
                cursor,
            }),
            Ok(_) => {
                let import_output = command_with_display("import", &display)
                    .arg("-window")
                    .arg("root")
                    .arg(&path)
                    .output()
                    .await
                    .map_err(|error| {
                        internal_error(format!(
                            "scrot failed and ImageMagick import could not start: {error}"
                        ))
                    })?;

                ensure_success(import_output, "ImageMagick import")?;
                Ok(ScreenshotResult {
                    display,
                    path,
                    cursor,
                })
            }
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                let output = command_with_display("import", &display)
                    .arg("-window")
                    .arg("root")
                    .arg(&path)
                    .output()
                    .await
                    .map_err(|error| {
                        internal_error(format!(
                            "neither scrot nor ImageMagick import could start: {error}"
                        ))
                    })?;

                ensure_success(output, "ImageMagick import")?;
                Ok(ScreenshotResult {
                    display,
                    path,
                    cursor,
                })
            }
            Err(error) => Err(internal_error(format!("failed to run scrot: {error}"))),
        }?;

        if let Some(cursor) = result.cursor {
            paint_cursor_overlay(&result.path, cursor)?;
        }

        Ok(result)
    }

    pub async fn send_keyboard(
        &self,
        text: Option<String>,
        key: Option<String>,
        delay_ms: u64,
        clear_modifiers: bool,
    ) -> Result<String, McpError> {
        validate_delay("delay_ms", delay_ms)?;
        let display = self.with_session_display().await?;

        match (text, key) {
            (Some(text), None) => {
                let output = command_with_display("xdotool", &display)
                    .arg("type")
                    .arg("--delay")
                    .arg(delay_ms.to_string())
                    .arg(text)
                    .output()
                    .await
                    .map_err(|error| {
                        internal_error(format!("failed to run xdotool type: {error}"))
                    })?;
                ensure_success(output, "xdotool type")?;
            }
            (None, Some(key)) => {
                let keys = key
                    .split_whitespace()
                    .filter(|key| !key.is_empty())
                    .collect::<Vec<_>>();

                if keys.is_empty() {
                    return Err(invalid_params("key cannot be empty"));
                }

                for (index, key) in keys.iter().enumerate() {
                    let mut command = command_with_display("xdotool", &display);
                    command.arg("key");
                    if clear_modifiers {
                        command.arg("--clearmodifiers");
                    }
                    let output = command.arg(key).output().await.map_err(|error| {
                        internal_error(format!("failed to run xdotool key: {error}"))
                    })?;
                    ensure_success(output, "xdotool key")?;

                    if index + 1 < keys.len() && delay_ms > 0 {
                        sleep(Duration::from_millis(delay_ms)).await;
                    }
                }
            }
            (Some(_), Some(_)) => {
                return Err(invalid_params("provide either text or key, not both"));
            }
            (None, None) => return Err(invalid_params("provide text or key")),
        }

        Ok(display)
    }

    pub async fn send_click(
        &self,
        x: i32,
        y: i32,
        button: Button,
        hold_ms: u64,
        move_duration_ms: u64,
        pre_click_delay_ms: u64,
    ) -> Result<String, McpError> {
        validate_delay("hold_ms", hold_ms)?;
        validate_delay("move_duration_ms", move_duration_ms)?;
        validate_delay("pre_click_delay_ms", pre_click_delay_ms)?;

        let display = self.with_session_display().await?;
        move_mouse(&display, x, y, move_duration_ms).await?;

        if pre_click_delay_ms > 0 {
            sleep(Duration::from_millis(pre_click_delay_ms)).await;
        }

        self.click_current_position(&display, button, hold_ms)
            .await?;

        Ok(display)
    }

    pub async fn send_double_click(
        &self,
        x: i32,
        y: i32,
        button: Button,
        hold_ms: u64,
        interval_ms: u64,
        move_duration_ms: u64,
        pre_click_delay_ms: u64,
    ) -> Result<String, McpError> {
        validate_delay("hold_ms", hold_ms)?;
        validate_delay("interval_ms", interval_ms)?;
        validate_delay("move_duration_ms", move_duration_ms)?;
        validate_delay("pre_click_delay_ms", pre_click_delay_ms)?;

        let display = self.with_session_display().await?;
        move_mouse(&display, x, y, move_duration_ms).await?;

        if pre_click_delay_ms > 0 {
            sleep(Duration::from_millis(pre_click_delay_ms)).await;
        }

        self.click_current_position(&display, button, hold_ms)
            .await?;

        if interval_ms > 0 {
            sleep(Duration::from_millis(interval_ms)).await;
        }

        self.click_current_position(&display, button, hold_ms)
            .await?;

        Ok(display)
    }

    pub async fn send_mouse_down(
        &self,
        x: i32,
        y: i32,
        button: Button,
        move_duration_ms: u64,
        pre_press_delay_ms: u64,
    ) -> Result<String, McpError> {
        validate_delay("move_duration_ms", move_duration_ms)?;
        validate_delay("pre_press_delay_ms", pre_press_delay_ms)?;

        let display = self.with_session_display().await?;
        move_mouse(&display, x, y, move_duration_ms).await?;

        if pre_press_delay_ms > 0 {
            sleep(Duration::from_millis(pre_press_delay_ms)).await;
        }

        self.press_button(&display, button).await?;
        Ok(display)
    }

    pub async fn send_mouse_up(&self, button: Button) -> Result<String, McpError> {
        let display = self.with_session_display().await?;
        self.release_button(&display, button).await?;
        Ok(display)
    }

    pub async fn send_drag(
        &self,
        from_x: i32,
        from_y: i32,
        to_x: i32,
        to_y: i32,
        button: Button,
        start_move_duration_ms: u64,
        drag_duration_ms: u64,
        hold_ms: u64,
        release_delay_ms: u64,
    ) -> Result<String, McpError> {
        validate_delay("start_move_duration_ms", start_move_duration_ms)?;
        validate_delay("drag_duration_ms", drag_duration_ms)?;
        validate_delay("hold_ms", hold_ms)?;
        validate_delay("release_delay_ms", release_delay_ms)?;

        let display = self.with_session_display().await?;
        move_mouse(&display, from_x, from_y, start_move_duration_ms).await?;
        self.press_button(&display, button).await?;

        if hold_ms > 0 {
            sleep(Duration::from_millis(hold_ms)).await;
        }

        move_mouse(&display, to_x, to_y, drag_duration_ms).await?;

        if release_delay_ms > 0 {
            sleep(Duration::from_millis(release_delay_ms)).await;
        }

        self.release_button(&display, button).await?;

        Ok(display)
    }

    pub async fn send_scroll(
        &self,
        x: i32,
        y: i32,
        direction: ScrollDirection,
        clicks: u8,
        interval_ms: u64,
        move_duration_ms: u64,
        pre_scroll_delay_ms: u64,
    ) -> Result<String, McpError> {
        if clicks == 0 || clicks > MAX_SCROLL_CLICKS {
            return Err(invalid_params(format!(
                "clicks must be between 1 and {MAX_SCROLL_CLICKS}"
            )));
        }
        validate_delay("interval_ms", interval_ms)?;
        validate_delay("move_duration_ms", move_duration_ms)?;
        validate_delay("pre_scroll_delay_ms", pre_scroll_delay_ms)?;

        let display = self.with_session_display().await?;
        move_mouse(&display, x, y, move_duration_ms).await?;

        if pre_scroll_delay_ms > 0 {
            sleep(Duration::from_millis(pre_scroll_delay_ms)).await;
        }

        for click_index in 0..clicks {
            scroll_once(&display, direction).await?;

            if click_index + 1 < clicks && interval_ms > 0 {
                sleep(Duration::from_millis(interval_ms)).await;
            }
        }

        Ok(display)
    }

    pub async fn send_move(&self, x: i32, y: i32, duration_ms: u64) -> Result<String, McpError> {
        validate_delay("duration_ms", duration_ms)?;
        let display = self.with_session_display().await?;
        move_mouse(&display, x, y, duration_ms).await?;
        Ok(display)
    }

    pub async fn list_windows(&self) -> Result<WindowListResult, McpError> {
        let display = self.with_session_display().await?;
        let windows = list_windows_for_display(&display).await?;
        Ok(WindowListResult { display, windows })
    }

    pub async fn focus_window(
        &self,
        window_id: Option<String>,
        title: Option<String>,
    ) -> Result<WindowActionResult, McpError> {
        let display = self.with_session_display().await?;
        let window_id = resolve_window(&display, window_id, title).await?;
        let output = command_with_display("xdotool", &display)
            .arg("windowactivate")
            .arg("--sync")
            .arg(&window_id)
            .output()
            .await
            .map_err(|error| {
                internal_error(format!("failed to run xdotool windowactivate: {error}"))
            })?;

        ensure_success(output, "xdotool windowactivate")?;

        Ok(WindowActionResult { display, window_id })
    }

    pub async fn kill_window(
        &self,
        window_id: Option<String>,
        title: Option<String>,
    ) -> Result<WindowActionResult, McpError> {
        let display = self.with_session_display().await?;
        let window_id = resolve_window(&display, window_id, title).await?;
        let output = command_with_display("xdotool", &display)
            .arg("windowkill")
            .arg(&window_id)
            .output()
            .await
            .map_err(|error| {
                internal_error(format!("failed to run xdotool windowkill: {error}"))
            })?;

        ensure_success(output, "xdotool windowkill")?;

        Ok(WindowActionResult { display, window_id })
    }

    pub async fn run_app(
        &self,
        command: String,
        args: Vec<String>,
        working_directory: Option<PathBuf>,
        env: BTreeMap<String, String>,
    ) -> Result<RunResult, McpError> {
        if command.trim().is_empty() {
            return Err(invalid_params("command cannot be empty"));
        }

        let mut session = self.session.lock().await;
        let active_session = session.as_mut().ok_or_else(session_not_started)?;
        active_session.reap_finished_apps();

        let mut process = Command::new(&command);
        process
            .args(args)
            .env("DISPLAY", &active_session.display)
            .env("QT_QPA_PLATFORM", "xcb")
            .env("GDK_BACKEND", "x11")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .kill_on_drop(true);

        for (key, value) in env {
            process.env(key, value);
        }

        if let Some(working_directory) = working_directory {
            process.current_dir(working_directory);
        }

        let child = process
            .spawn()
            .map_err(|error| internal_error(format!("failed to launch {command}: {error}")))?;
        let pid = child.id();
        let display = active_session.display.clone();
        active_session.apps.push(child);

        Ok(RunResult {
            display,
            pid,
            command,
        })
    }

    async fn with_session_display(&self) -> Result<String, McpError> {
        let mut session = self.session.lock().await;
        let active_session = session.as_mut().ok_or_else(session_not_started)?;
        if !active_session.is_alive() {
            active_session.stop().await;
            *session = None;
            return Err(internal_error(
                "the appmaker display stopped unexpectedly; start it again",
            ));
        }
        active_session.reap_finished_apps();
        Ok(active_session.display.clone())
    }

    async fn with_session_pointer_state(&self) -> Result<(String, bool), McpError> {
        let mut session = self.session.lock().await;
        let active_session = session.as_mut().ok_or_else(session_not_started)?;
        if !active_session.is_alive() {
            active_session.stop().await;
            *session = None;
            return Err(internal_error(
                "the appmaker display stopped unexpectedly; start it again",
            ));
        }
        active_session.reap_finished_apps();
        Ok((
            active_session.display.clone(),
            !active_session.pressed_buttons.is_empty(),
        ))
    }

    async fn click_current_position(
        &self,
        display: &str,
        button: Button,
        hold_ms: u64,
    ) -> Result<(), McpError> {
        self.press_button(display, button).await?;

        if hold_ms > 0 {
            sleep(Duration::from_millis(hold_ms)).await;
        }

        self.release_button(display, button).await
    }

    async fn press_button(&self, display: &str, button: Button) -> Result<(), McpError> {
        mouse_down(display, button).await?;
        self.set_button_pressed(button, true).await;
        Ok(())
    }

    async fn release_button(&self, display: &str, button: Button) -> Result<(), McpError> {
        mouse_up(display, button).await?;
        self.set_button_pressed(button, false).await;
        Ok(())
    }

    async fn set_button_pressed(&self, button: Button, pressed: bool) {
        let mut session = self.session.lock().await;
        if let Some(active_session) = session.as_mut() {
            if pressed {
                active_session.pressed_buttons.insert(button.0);
            } else {
                active_session.pressed_buttons.remove(&button.0);
            }
        }
    }
}

impl AppSession {
    fn info(&self, status: impl Into<String>) -> SessionInfo {
        SessionInfo {
            status: status.into(),
            display: self.display.clone(),
            display_number: self.display_number,
            geometry: self.geometry,
        }
    }

    fn is_alive(&mut self) -> bool {
        matches!(self.xephyr.try_wait(), Ok(None))
    }

    fn reap_finished_apps(&mut self) {
        self.apps
            .retain_mut(|child| matches!(child.try_wait(), Ok(None) | Err(_)));
    }

    async fn stop(&mut self) {
        for app in &mut self.apps {
            stop_child(app).await;
        }
        self.apps.clear();

        stop_child(&mut self.window_manager).await;
        stop_child(&mut self.xephyr).await;
    }
}

async fn stop_child(child: &mut Child) {
    if matches!(child.try_wait(), Ok(Some(_))) {
        return;
    }

    let _ = child.start_kill();
    let _ = child.wait().await;
}

async fn spawn_xephyr(
    display: &str,
    geometry: Geometry,
    parent_display: &str,
) -> Result<Child, McpError> {
    Command::new("Xephyr")
        .arg(display)
        .arg("-screen")
        .arg(geometry.screen_arg())
        .arg("-resizeable")
        .arg("-sw-cursor")
        .arg("-no-host-grab")
        .env("DISPLAY", parent_display)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .map_err(|error| match error.kind() {
            std::io::ErrorKind::NotFound => {
                internal_error("Xephyr is not installed or not on PATH")
            }
            _ => internal_error(format!(
                "failed to start Xephyr on parent display {parent_display}: {error}"
            )),
        })
}

async fn spawn_window_manager(display: &str) -> Result<Child, McpError> {
    background_command_with_display("fluxbox", display)
        .spawn()
        .map_err(|error| match error.kind() {
            std::io::ErrorKind::NotFound => {
                internal_error("fluxbox is not installed or not on PATH")
            }
            _ => internal_error(format!("failed to start fluxbox: {error}")),
        })
}

fn background_command_with_display(program: impl AsRef<OsStr>, display: &str) -> Command {
    let mut command = Command::new(program);
    command
        .env("DISPLAY", display)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true);
    command
}

async fn wait_for_display(display: &str, xephyr: &mut Child) -> Result<(), McpError> {
    for _ in 0..50 {
        if let Ok(Some(status)) = xephyr.try_wait() {
            return Err(internal_error(format!(
                "Xephyr exited during startup with status {status}"
            )));
        }

        match command_with_display("xdotool", display)
            .arg("getdisplaygeometry")
            .output()
            .await
        {
            Ok(output) if output.status.success() => return Ok(()),
            Ok(_) => sleep(Duration::from_millis(100)).await,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                return Err(internal_error("xdotool is not installed or not on PATH"));
            }
            Err(_) => sleep(Duration::from_millis(100)).await,
        }
    }

    Err(internal_error(format!(
        "Xephyr display {display} did not become ready"
    )))
}

async fn detect_parent_display(target_display: &str) -> Result<String, McpError> {
    let mut candidates = Vec::new();

    if let Ok(display) = std::env::var(PARENT_DISPLAY_ENV) {
        push_display_candidate(&mut candidates, display);
    }

    if let Ok(display) = std::env::var("DISPLAY") {
        push_display_candidate(&mut candidates, display);
    }

    push_display_candidate(&mut candidates, ":0".to_string());
    push_display_candidate(&mut candidates, ":1".to_string());

    for candidate in candidates {
        if candidate == target_display {
            continue;
        }

        if display_is_usable(&candidate).await? {
            return Ok(candidate);
        }
    }

    Err(internal_error(format!(
        "no usable parent X display found; set {PARENT_DISPLAY_ENV} to the display Xephyr should open on"
    )))
}

fn push_display_candidate(candidates: &mut Vec<String>, display: String) {
    let display = display.trim();
    if display.is_empty() || candidates.iter().any(|candidate| candidate == display) {
        return;
    }

    candidates.push(display.to_string());
}

async fn display_is_usable(display: &str) -> Result<bool, McpError> {
    let output = command_with_display("xdotool", display)
        .arg("getdisplaygeometry")
        .output()
        .await
        .map_err(|error| match error.kind() {
            std::io::ErrorKind::NotFound => {
                internal_error("xdotool is not installed or not on PATH")
            }
            _ => internal_error(format!("failed to probe parent display {display}: {error}")),
        })?;

    Ok(output.status.success())
}

async fn move_mouse(
    display: &str,
    target_x: i32,
    target_y: i32,
    duration_ms: u64,
) -> Result<(), McpError> {
    if duration_ms == 0 {
        return move_mouse_once(display, target_x, target_y).await;
    }

    let (start_x, start_y) = current_mouse_position(display).await?;
    let steps = (duration_ms / MOUSE_STEP_INTERVAL_MS).clamp(1, 240);
    let step_delay_ms = (duration_ms / steps).max(1);

    for step in 1..=steps {
        let next_x = interpolate(start_x, target_x, step, steps);
        let next_y = interpolate(start_y, target_y, step, steps);
        move_mouse_once(display, next_x, next_y).await?;

        if step < steps {
            sleep(Duration::from_millis(step_delay_ms)).await;
        }
    }

    Ok(())
}

async fn move_mouse_once(display: &str, x: i32, y: i32) -> Result<(), McpError> {
    let output = command_with_display("xdotool", display)
        .arg("mousemove")
        .arg(x.to_string())
        .arg(y.to_string())
        .output()
        .await
        .map_err(|error| internal_error(format!("failed to run xdotool mousemove: {error}")))?;

    ensure_success(output, "xdotool mousemove")
}

async fn mouse_down(display: &str, button: Button) -> Result<(), McpError> {
    let output = command_with_display("xdotool", display)
        .arg("mousedown")
        .arg(button.0.to_string())
        .output()
        .await
        .map_err(|error| internal_error(format!("failed to run xdotool mousedown: {error}")))?;

    ensure_success(output, "xdotool mousedown")
}

async fn mouse_up(display: &str, button: Button) -> Result<(), McpError> {
    let output = command_with_display("xdotool", display)
        .arg("mouseup")
        .arg(button.0.to_string())
        .output()
        .await
        .map_err(|error| internal_error(format!("failed to run xdotool mouseup: {error}")))?;

    ensure_success(output, "xdotool mouseup")
}

async fn scroll_once(display: &str, direction: ScrollDirection) -> Result<(), McpError> {
    let output = command_with_display("xdotool", display)
        .arg("click")
        .arg(direction.button_number().to_string())
        .output()
        .await
        .map_err(|error| internal_error(format!("failed to run xdotool scroll click: {error}")))?;

    ensure_success(output, "xdotool scroll click")
}

async fn current_mouse_position(display: &str) -> Result<(i32, i32), McpError> {
    let output = command_with_display("xdotool", display)
        .arg("getmouselocation")
        .arg("--shell")
        .output()
        .await
        .map_err(|error| {
            internal_error(format!("failed to run xdotool getmouselocation: {error}"))
        })?;

    if !output.status.success() {
        ensure_success(output, "xdotool getmouselocation")?;
        unreachable!("ensure_success returns an error for unsuccessful output");
    }

    let text = String::from_utf8_lossy(&output.stdout);
    let x = parse_shell_i32(&text, "X")?;
    let y = parse_shell_i32(&text, "Y")?;

    Ok((x, y))
}

fn parse_shell_i32(output: &str, key: &str) -> Result<i32, McpError> {
    let prefix = format!("{key}=");
    output
        .lines()
        .find_map(|line| line.strip_prefix(&prefix))
        .ok_or_else(|| internal_error(format!("xdotool getmouselocation did not return {key}")))?
        .parse::<i32>()
        .map_err(|error| {
            internal_error(format!(
                "failed to parse {key} from xdotool output: {error}"
            ))
        })
}

fn interpolate(start: i32, target: i32, step: u64, steps: u64) -> i32 {
    let start = i64::from(start);
    let target = i64::from(target);
    (start + ((target - start) * step as i64 / steps as i64)) as i32
}

fn validate_delay(name: &str, delay_ms: u64) -> Result<(), McpError> {
    if delay_ms > MAX_INPUT_DELAY_MS {
        return Err(invalid_params(format!(
            "{name} must be {MAX_INPUT_DELAY_MS} or less"
        )));
    }

    Ok(())
}

fn is_png_path(path: &Path) -> bool {
    path.extension()
        .and_then(|extension| extension.to_str())
        .is_some_and(|extension| extension.eq_ignore_ascii_case("png"))
}

fn paint_cursor_overlay(path: &Path, cursor: CursorSnapshot) -> Result<(), McpError> {
    let mut image = image::open(path)
        .map_err(|error| {
            internal_error(format!(
                "failed to decode screenshot {} for cursor overlay: {error}",
                path.display()
            ))
        })?
        .to_rgba8();

    draw_cursor_marker(&mut image, cursor);
    image.save(path).map_err(|error| {
        internal_error(format!(
            "failed to write screenshot {} with cursor overlay: {error}",
            path.display()
        ))
    })
}

fn draw_cursor_marker(image: &mut RgbaImage, cursor: CursorSnapshot) {
    if cursor.pressed {
        draw_disc(
            image,
            cursor.x,
            cursor.y,
            PRESSED_CURSOR_RADIUS + 3,
            rgba(0, 0, 0, 85),
        );
        draw_disc(
            image,
            cursor.x,
            cursor.y,
            PRESSED_CURSOR_RADIUS,
            rgba(255, 122, 87, 145),
        );
        draw_ring(
            image,
            cursor.x,
            cursor.y,
            PRESSED_CURSOR_RADIUS,
            PRESSED_CURSOR_RADIUS - 2,
            rgba(255, 255, 255, 240),
        );
        draw_disc(image, cursor.x, cursor.y, 5, rgba(255, 66, 56, 245));
    } else {
        draw_disc(
            image,
            cursor.x,
            cursor.y,
            IDLE_CURSOR_RADIUS + 3,
            rgba(0, 0, 0, 85),
        );
        draw_disc(
            image,
            cursor.x,
            cursor.y,
            IDLE_CURSOR_RADIUS,
            rgba(255, 255, 255, 225),
        );
        draw_ring(
            image,
            cursor.x,
            cursor.y,
            IDLE_CURSOR_RADIUS,
            IDLE_CURSOR_RADIUS - 2,
            rgba(28, 185, 165, 245),
        );
        draw_disc(image, cursor.x, cursor.y, 3, rgba(24, 24, 27, 235));
    }
}

fn draw_disc(image: &mut RgbaImage, center_x: i32, center_y: i32, radius: i32, color: Rgba<u8>) {
    draw_circle_region(image, center_x, center_y, radius, 0, color);
}

fn draw_ring(
    image: &mut RgbaImage,
    center_x: i32,
    center_y: i32,
    outer_radius: i32,
    inner_radius: i32,
    color: Rgba<u8>,
) {
    draw_circle_region(image, center_x, center_y, outer_radius, inner_radius, color);
}

fn draw_circle_region(
    image: &mut RgbaImage,
    center_x: i32,
    center_y: i32,
    outer_radius: i32,
    inner_radius: i32,
    color: Rgba<u8>,
) {
    let outer_squared = outer_radius * outer_radius;
    let inner_squared = inner_radius * inner_radius;

    for pixel_y in (center_y - outer_radius)..=(center_y + outer_radius) {
        for pixel_x in (center_x - outer_radius)..=(center_x + outer_radius) {
            let dx = pixel_x - center_x;
            let dy = pixel_y - center_y;
            let distance_squared = dx * dx + dy * dy;
            if distance_squared <= outer_squared && distance_squared >= inner_squared {
                blend_pixel(image, pixel_x, pixel_y, color);
            }
        }
    }
}

fn blend_pixel(image: &mut RgbaImage, pixel_x: i32, pixel_y: i32, color: Rgba<u8>) {
    if pixel_x < 0 || pixel_y < 0 {
        return;
    }

    let (width, height) = image.dimensions();
    let pixel_x = pixel_x as u32;
    let pixel_y = pixel_y as u32;
    if pixel_x >= width || pixel_y >= height {
        return;
    }

    let destination = image.get_pixel_mut(pixel_x, pixel_y);
    let alpha = u16::from(color[3]);
    let inverse_alpha = 255 - alpha;

    for channel in 0..3 {
        destination[channel] = ((u16::from(color[channel]) * alpha
            + u16::from(destination[channel]) * inverse_alpha)
            / 255) as u8;
    }
    destination[3] = destination[3].max(color[3]);
}

fn rgba(red: u8, green: u8, blue: u8, alpha: u8) -> Rgba<u8> {
    Rgba([red, green, blue, alpha])
}

async fn list_windows_for_display(display: &str) -> Result<Vec<Window>, McpError> {
    let output = command_with_display("xdotool", display)
        .arg("search")
        .arg("--onlyvisible")
        .arg("--name")
        .arg(".")
        .output()
        .await
        .map_err(|error| internal_error(format!("failed to run xdotool search: {error}")))?;

    if !output.status.success() {
        return Ok(Vec::new());
    }

    let ids = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .map(ToOwned::to_owned)
        .collect::<Vec<_>>();

    let mut windows = Vec::with_capacity(ids.len());
    for id in ids {
        let title_output = command_with_display("xdotool", display)
            .arg("getwindowname")
            .arg(&id)
            .output()
            .await
            .map_err(|error| {
                internal_error(format!("failed to read window title for {id}: {error}"))
            })?;

        let title = if title_output.status.success() {
            String::from_utf8_lossy(&title_output.stdout)
                .trim()
                .to_string()
        } else {
            String::new()
        };

        if !title.is_empty() {
            windows.push(Window { id, title });
        }
    }

    Ok(windows)
}

async fn resolve_window(
    display: &str,
    window_id: Option<String>,
    title: Option<String>,
) -> Result<String, McpError> {
    match (window_id, title) {
        (Some(window_id), None) if !window_id.trim().is_empty() => Ok(window_id),
        (None, Some(title)) if !title.trim().is_empty() => {
            let output = command_with_display("xdotool", display)
                .arg("search")
                .arg("--onlyvisible")
                .arg("--name")
                .arg(&title)
                .output()
                .await
                .map_err(|error| {
                    internal_error(format!("failed to run xdotool search: {error}"))
                })?;

            if !output.status.success() {
                return Err(invalid_params(format!(
                    "no visible window matched title {title:?}"
                )));
            }

            String::from_utf8_lossy(&output.stdout)
                .lines()
                .map(str::trim)
                .find(|line| !line.is_empty())
                .map(ToOwned::to_owned)
                .ok_or_else(|| invalid_params(format!("no visible window matched title {title:?}")))
        }
        (Some(_), Some(_)) => Err(invalid_params(
            "provide either window_id or title, not both",
        )),
        _ => Err(invalid_params("provide window_id or title")),
    }
}

fn command_with_display(program: impl AsRef<OsStr>, display: &str) -> Command {
    let mut command = Command::new(program);
    command
        .env("DISPLAY", display)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    command
}

fn ensure_success(output: std::process::Output, program: &str) -> Result<(), McpError> {
    if output.status.success() {
        return Ok(());
    }

    let stderr = String::from_utf8_lossy(&output.stderr).trim().to_string();
    let stdout = String::from_utf8_lossy(&output.stdout).trim().to_string();
    let details = if stderr.is_empty() { stdout } else { stderr };

    Err(internal_error(format!(
        "{program} failed with status {}{}",
        output.status,
        if details.is_empty() {
            String::new()
        } else {
            format!(": {details}")
        }
    )))
}

fn find_free_display_number() -> Result<u16, McpError> {
    (DEFAULT_DISPLAY_START..=DISPLAY_SEARCH_LIMIT)
        .find(|number| !display_number_has_files(*number))
        .ok_or_else(|| internal_error("no free display number found between 99 and 199"))
}

fn ensure_display_number_available(display_number: u16) -> Result<(), McpError> {
    if display_number_has_files(display_number) {
        return Err(invalid_params(format!(
            "display :{display_number} appears to be in use"
        )));
    }

    Ok(())
}

fn display_number_has_files(display_number: u16) -> bool {
    Path::new(&format!("/tmp/.X11-unix/X{display_number}")).exists()
        || Path::new(&format!("/tmp/.X{display_number}-lock")).exists()
}

fn absolutize(path: PathBuf) -> Result<PathBuf, McpError> {
    if path.as_os_str().is_empty() {
        return Err(invalid_params("path cannot be empty"));
    }

    if path.is_absolute() {
        Ok(path)
    } else {
        std::env::current_dir()
            .map(|current_dir| current_dir.join(path))
            .map_err(|error| {
                internal_error(format!("failed to resolve current directory: {error}"))
            })
    }
}

fn session_not_started() -> McpError {
    invalid_params("appmaker-start must be called before this tool")
}

fn invalid_params(message: impl Into<String>) -> McpError {
    McpError::invalid_params(message.into(), None)
}

fn internal_error(message: impl Into<String>) -> McpError {
    McpError::internal_error(message.into(), None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::time::{SystemTime, UNIX_EPOCH};

    #[test]
    fn cursor_overlay_marks_idle_and_pressed_states_differently() {
        let idle_path = unique_temp_png("idle");
        let pressed_path = unique_temp_png("pressed");
        let blank = RgbaImage::from_pixel(48, 48, rgba(255, 255, 255, 255));
        blank.save(&idle_path).unwrap();
        blank.save(&pressed_path).unwrap();

        paint_cursor_overlay(
            &idle_path,
            CursorSnapshot {
                x: 24,
                y: 24,
                pressed: false,
            },
        )
        .unwrap();
        paint_cursor_overlay(
            &pressed_path,
            CursorSnapshot {
                x: 24,
                y: 24,
                pressed: true,
            },
        )
        .unwrap();

        let idle = image::open(&idle_path).unwrap().to_rgba8();
        let pressed = image::open(&pressed_path).unwrap().to_rgba8();
        let blank_pixel = rgba(255, 255, 255, 255);

        assert_ne!(*idle.get_pixel(24, 24), blank_pixel);
        assert_ne!(*pressed.get_pixel(24, 24), blank_pixel);
        assert_ne!(*idle.get_pixel(24, 24), *pressed.get_pixel(24, 24));

        fs::remove_file(idle_path).unwrap();
        fs::remove_file(pressed_path).unwrap();
    }

    fn unique_temp_png(label: &str) -> PathBuf {
        let timestamp = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        std::env::temp_dir().join(format!("appmaker-cursor-overlay-{label}-{timestamp}.png"))
    }
}
