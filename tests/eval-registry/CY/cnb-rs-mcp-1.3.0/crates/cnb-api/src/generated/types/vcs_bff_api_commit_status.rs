use serde::{Deserialize, Serialize};

/// `VcsBffApiCommitStatus`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct VcsBffApiCommitStatus {
    /// 状态检查的上下文标识符。Status check context identifier.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
    /// 创建时间。Created at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// 状态检查的描述信息。Status check description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// 状态检查结果。Status check result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// 状态检查的详细信息链接地址。Status check detail link URL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_url: Option<String>,
    /// 最后更新时间。 Last updated at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<String>,
}

impl VcsBffApiCommitStatus {
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
