use serde::{Deserialize, Serialize};

/// `GetBadgeResult`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct GetBadgeResult {
    /// 徽章颜色。Badge color.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
    /// 徽章左侧显示内容。Badge left side display content.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// 徽章链接。Badge link.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
    /// 徽章链接列表。Badge link list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub links: Option<Vec<String>>,
    /// 徽章右侧显示内容。Badge right side display content.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// 徽章 logo（data: URL 形式，通常是 base64 编码的 SVG，如 `data:image/svg+xml;base64,...`）
    ///
    /// MANUAL FIX: swagger 未声明该字段但 CNB 实际响应包含 logo。重生后需保留本字段（见 PATCHES.md P7）。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub logo: Option<String>,
}

impl GetBadgeResult {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["color", "label", "link", "links", "message", "logo"];
}
