use serde::{Deserialize, Serialize};

/// `GetBadgeReq`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct GetBadgeReq {
    /// 分支名，例如：main。不传则为默认分支，获取默认分支最新徽章。传了分支名，则获取该分支最新提交记录对应的徽章。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branch: Option<String>,
}

impl GetBadgeReq {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["branch"];
}
