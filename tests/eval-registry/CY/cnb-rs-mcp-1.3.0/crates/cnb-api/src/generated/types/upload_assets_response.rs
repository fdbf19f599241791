use super::Assets;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// 上传资源响应，包含资源信息、上传地址、表单参数和后续确认接口使用的令牌。 Upload assets response, including asset info, upload URL, form params and token for the confirm API.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct UploadAssetsResponse {
    /// 资源信息。Resource info.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assets: Option<Assets>,
    /// 上传表单参数。Upload form parameters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub form: Option<HashMap<String, String>>,
    /// 后续调用 confirm 接口用的。Token for the subsequent confirm API call.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// 上传URL地址。Upload URL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upload_url: Option<String>,
}

impl UploadAssetsResponse {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["assets", "form", "token", "upload_url"];
}
