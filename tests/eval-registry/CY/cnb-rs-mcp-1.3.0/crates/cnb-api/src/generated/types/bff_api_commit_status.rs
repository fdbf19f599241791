use serde::{Deserialize, Serialize};

/// `BffApiCommitStatus`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct BffApiCommitStatus {
    /// 提交状态上下文标识符。Commit status context identifier.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
    /// 创建时间。Created at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// 提交状态描述信息。Commit status description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// 提交状态。枚举值：`pending`,`success`,`failure`,`error`,`skip`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// 提交状态详情链接。Commit status details link.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_url: Option<String>,
    /// 更新时间。Updated at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<String>,
}

impl BffApiCommitStatus {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "context",
        "created_at",
        "description",
        "state",
        "target_url",
        "updated_at",
    ];
}
