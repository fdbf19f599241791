use serde::{Deserialize, Serialize};

/// `CommitDiffFilePatch`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct CommitDiffFilePatch {
    /// 新增行数。Number of added lines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub additions: Option<i64>,
    /// 删除行数。Number of deleted lines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deletions: Option<i64>,
    /// 文件权限模式。File permission mode.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    /// 文件名。File name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Git差异补丁内容。Git diff patch content.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub patch: Option<String>,
    /// 文件路径。File path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// 重命名前的原文件名。Original file name before rename.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub previous_filename: Option<String>,
    /// 重命名前的文件权限模式。File permission mode before rename.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub previous_mode: Option<String>,
    /// 文件变更状态。枚举值：`added`,`modified`,`deleted`,`renamed`,`copied`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
}

impl CommitDiffFilePatch {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "additions",
        "deletions",
        "mode",
        "name",
        "patch",
        "path",
        "previous_filename",
        "previous_mode",
        "status",
    ];
}
