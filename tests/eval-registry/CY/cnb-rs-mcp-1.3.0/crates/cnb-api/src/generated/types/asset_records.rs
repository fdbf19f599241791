use super::AssetRecordType;
use serde::{Deserialize, Serialize};

/// `AssetRecords`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct AssetRecords {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// 来源地址，例如 release 附件的来源地址是对应的 release 页面。issue和pr文件没有。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub origin_path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// 资源类型，`slug_img`和`slug_file`可调用`DeleteAsset`接口直接删除该资源，`repo_release`和`repo_commit`则不行
    #[serde(skip_serializing_if = "Option::is_none")]
    pub record_type: Option<AssetRecordType>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub referer: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size_in_byte: Option<i64>,
}

impl AssetRecords {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "created_at",
        "id",
        "origin_path",
        "path",
        "record_type",
        "referer",
        "size_in_byte",
    ];
}
