use serde::{Deserialize, Serialize};

/// `UploadBadgeReq`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct UploadBadgeReq {
    /// 徽章 key。目前允许上传的 key 包括：security/tca。Badge key. Allowed keys include: security/tca.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// 是否上传 latest 徽章，默认 false。Whether to upload the latest badge; default false.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latest: Option<bool>,
    /// 点击徽章右侧的跳转链接。Badge right side click redirect link.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
    /// 徽章右侧显示内容。Badge right side display content.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// 提交SHA。Commit SHA.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sha: Option<String>,
    /// 徽章数值，不传默认用 message 代替。Badge numeric value; defaults to message when omitted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<i64>,
}

impl UploadBadgeReq {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["key", "latest", "link", "message", "sha", "value"];
}
