use serde::{Deserialize, Serialize};

/// `PullFile`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PullFile {
    /// 新增行数。Number of added lines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub additions: Option<i64>,
    /// 文件的Blob对象访问地址。File blob object access URL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blob_url: Option<String>,
    /// 文件内容访问地址。File content access URL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contents_url: Option<String>,
    /// 删除行数。Number of deleted lines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deletions: Option<i64>,
    /// 文件名称。File name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filename: Option<String>,
    /// 文件的差异补丁内容。File diff patch content.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub patch: Option<String>,
    /// 文件的原始内容访问地址。File raw content access URL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub raw_url: Option<String>,
    /// 文件的提交哈希值。File commit hash.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sha: Option<String>,
    /// 文件更改状态。枚举值：`add`,`modify`,`delete`,`rename`,`copy`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
}

impl PullFile {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "additions",
        "blob_url",
        "contents_url",
        "deletions",
        "filename",
        "patch",
        "raw_url",
        "sha",
        "status",
    ];
}
