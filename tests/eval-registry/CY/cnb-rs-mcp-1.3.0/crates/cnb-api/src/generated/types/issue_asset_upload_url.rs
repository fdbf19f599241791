use serde::{Deserialize, Serialize};

/// `IssueAssetUploadURL`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct IssueAssetUploadURL {
    /// 资源链接。添加到 body 中提交。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub asset_link: Option<String>,
    /// 资源下载链接。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub download_url: Option<String>,
    /// 文件名。File name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// 资源路径。Resource path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// 上传地址。使用 HTTP Put 请求流试发送数据。Upload URL. Send data via HTTP PUT streaming.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upload_url: Option<String>,
}

impl IssueAssetUploadURL {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["asset_link", "download_url", "name", "path", "upload_url"];
}
