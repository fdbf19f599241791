use super::UserInfo;
use serde::{Deserialize, Serialize};

/// `BffApiSceneReaction`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct BffApiSceneReaction {
    /// 该表情的数量。Reaction count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<i64>,
    /// 当前用户是否已使用该 Reaction。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub has_reacted: Option<bool>,
    /// Reaction 表情类型。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reaction: Option<String>,
    /// 最近使用该 Reaction 的用户列表。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub top_users: Option<Vec<UserInfo>>,
}

impl BffApiSceneReaction {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["count", "has_reacted", "reaction", "top_users"];
}
