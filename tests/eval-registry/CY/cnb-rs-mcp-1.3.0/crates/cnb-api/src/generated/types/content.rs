use super::TreeEntry;
use serde::{Deserialize, Serialize};

/// Content
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Content {
    /// 当内容为text时的实际内容（base64编码）。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    /// 内容编码方式，仅当内容类型为blob时有效。枚举值：`base64`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encoding: Option<String>,
    /// 子项列表，当内容类型为tree时返回，否则为空。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entries: Option<Vec<TreeEntry>>,
    /// LFS对象的下载URL，仅当内容类型为lfs时有效。LFS download URL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lfs_download_url: Option<String>,
    /// LFS对象的唯一标识符，仅当内容类型为lfs时有效。LFS unique ID.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lfs_oid: Option<String>,
    /// LFS对象的大小（字节），仅当内容类型为lfs时有效。LFS size (bytes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lfs_size: Option<i64>,
    /// 内容名称（文件名或目录名）。Content name (file or directory name).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// 内容在仓库中的完整路径。Full path of the content in the repository.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Git对象的哈希值。Git object hash.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sha: Option<String>,
    /// 内容大小（字节）。Content size (bytes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<i64>,
    /// 内容类型。枚举值：`tree`、`blob`、`lfs`、`empty`
    #[serde(rename = "type")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub type_: Option<String>,
}

impl Content {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "content",
        "encoding",
        "entries",
        "lfs_download_url",
        "lfs_oid",
        "lfs_size",
        "name",
        "path",
        "sha",
        "size",
        "type",
    ];
}
