use super::UserInfo;
use serde::{Deserialize, Serialize};

/// `CommitAsset`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct CommitAsset {
    /// 提交附件作者信息。Commit attachment author info.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author: Option<UserInfo>,
    /// 附件内容类型。Attachment content type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content_type: Option<String>,
    /// 附件创建时间。Attachment created at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// 附件哈希算法。Attachment hash algorithm.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hash_algo: Option<String>,
    /// 附件哈希值。Attachment hash.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hash_value: Option<String>,
    /// 附件唯一标识符。Attachment unique identifier.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// 附件名称。Attachment name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// 附件路径。Attachment path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// 附件大小（字节）。Attachment size (bytes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size_in_byte: Option<i64>,
    /// 附件更新时间。Attachment updated at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<String>,
}

impl CommitAsset {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "author",
        "content_type",
        "created_at",
        "hash_algo",
        "hash_value",
        "id",
        "name",
        "path",
        "size_in_byte",
        "updated_at",
    ];
}
