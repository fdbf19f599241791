use super::StatusesMap;
use super::UserInfo;
use serde::{Deserialize, Serialize};

/// `PullReview`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PullReview {
    /// Review的作者信息。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author: Option<UserInfo>,
    /// Review的详细内容。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
    /// Review的创建时间。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// Review的唯一标识符。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Review的状态。枚举值：`approved`、`changes_requested`、`commented`、`dismissed`、`pending`等。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// Statuses 该 Review 关联的状态，按分类分组（如 `npc`）。Statuses attached to the review, grouped by category (e.g. `npc`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub statuses: Option<StatusesMap>,
    /// Review的最后更新时间。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<String>,
}

impl PullReview {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "author",
        "body",
        "created_at",
        "id",
        "state",
        "statuses",
        "updated_at",
    ];
}
