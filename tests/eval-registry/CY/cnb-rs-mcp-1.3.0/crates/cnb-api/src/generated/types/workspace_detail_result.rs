use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// `WorkspaceDetailResult`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct WorkspaceDetailResult {
    /// Antigravity 客户端 remote-ssh schema。Antigravity client remote-ssh schema.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub antigravity: Option<String>,
    /// `CodeBuddy` 国际版 remote-ssh schema。`CodeBuddy` international remote-ssh schema.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub codebuddy: Option<String>,
    /// `CodeBuddy` 国内版 remote-ssh schema。`CodeBuddy` CN remote-ssh schema.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub codebuddycn: Option<String>,
    /// `CodeBuddy` Web 访问 url。`CodeBuddy` Web access URL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub codebuddyweb: Option<String>,
    /// Cursor 客户端 remote-ssh 访问 schema 地址。Cursor client remote-ssh access schema address.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
    /// `JetBrains` IDE 的 gateway schema。`JetBrains` `IDEs` gateway schema.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub jetbrains: Option<HashMap<String, String>>,
    /// 选择入口页面 url。Entry page URL.
    #[serde(rename = "jumpUrl")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub jump_url: Option<String>,
    /// Qoder 客户端 remote-ssh 访问 schema 地址。Qoder client remote-ssh access schema address.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qoder: Option<String>,
    /// remote-ssh 连接地址。Remote-ssh connection address.
    #[serde(rename = "remoteSsh")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remote_ssh: Option<String>,
    /// ssh 登录命令。SSH login command.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ssh: Option<String>,
    /// Trae 国际版 remote-ssh schema。Trae international remote-ssh schema.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trae: Option<String>,
    /// Trae 国内版 remote-ssh schema。Trae CN remote-ssh schema.
    #[serde(rename = "trae-cn")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trae_cn: Option<String>,
    /// `VSCode` 客户端 remote-ssh 访问 schema 地址。`VSCode` client remote-ssh access schema address.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vscode: Option<String>,
    /// `VSCode` 预览版 remote-ssh schema。`VSCode` Insiders remote-ssh schema.
    #[serde(rename = "vscode-insiders")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vscode_insiders: Option<String>,
    /// `WebIDE` 访问 url。`WebIDE` access URL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub webide: Option<String>,
    /// Windsurf 客户端 remote-ssh schema。Windsurf client remote-ssh schema.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub windsurf: Option<String>,
    /// Windsurf 预览版 remote-ssh schema。Windsurf Next remote-ssh schema.
    #[serde(rename = "windsurf-next")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub windsurf_next: Option<String>,
    /// Zed 客户端 ssh 访问 schema 地址。Zed client ssh access schema address.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zed: Option<String>,
}

impl WorkspaceDetailResult {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "antigravity",
        "codebuddy",
        "codebuddycn",
        "codebuddyweb",
        "cursor",
        "jetbrains",
        "jumpUrl",
        "qoder",
        "remoteSsh",
        "ssh",
        "trae",
        "trae-cn",
        "vscode",
        "vscode-insiders",
        "webide",
        "windsurf",
        "windsurf-next",
        "zed",
    ];
}
