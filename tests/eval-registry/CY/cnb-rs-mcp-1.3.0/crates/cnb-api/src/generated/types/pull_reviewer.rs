use super::UserInfo;
use serde::{Deserialize, Serialize};

/// `PullReviewer`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PullReviewer {
    /// 评审状态。枚举值：`pending`,`commented`,`approved`,`changes_requested`,`dismissed`。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub review_state: Option<String>,
    /// 评审人信息。Reviewer information.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user: Option<UserInfo>,
}

impl PullReviewer {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["review_state", "user"];
}
