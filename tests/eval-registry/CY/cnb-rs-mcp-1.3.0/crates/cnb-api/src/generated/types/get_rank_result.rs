use super::RankDetailWithIncr;
use serde::{Deserialize, Serialize};

/// 获取排行榜返回结果，包含更新时间与排名列表。 Get rank result, including update time and rank list.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct GetRankResult {
    /// 仓库排名详情列表。Repository rank detail list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rank_list: Option<Vec<RankDetailWithIncr>>,
    /// 榜单更新时间。Leaderboard update time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<String>,
}

impl GetRankResult {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["rank_list", "updated_at"];
}
