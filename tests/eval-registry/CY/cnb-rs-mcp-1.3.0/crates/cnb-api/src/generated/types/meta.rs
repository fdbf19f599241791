use serde::{Deserialize, Serialize};

/// Meta
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Meta {
    /// 生成数据的分支名称。Branch name where data was generated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gen_branch: Option<String>,
    /// 生成数据的提交哈希。Commit hash where data was generated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gen_hash: Option<String>,
    /// 数据更新时间戳。Data update timestamp.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<String>,
}

impl Meta {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["gen_branch", "gen_hash", "updated_at"];
}
