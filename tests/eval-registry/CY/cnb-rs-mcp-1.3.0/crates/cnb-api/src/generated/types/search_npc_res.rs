use serde::{Deserialize, Serialize};

/// `SearchNpcRes`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct SearchNpcRes {
    /// NPC 头像。NPC avatar.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub avatar: Option<String>,
    /// NPC 触发的构建数量。Number of builds triggered by the NPC.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub built_count: Option<i64>,
    /// NPC 名称。NPC name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// NPC 创建的 PR 数量。Number of `PRs` created by the NPC.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pull_request_created_count: Option<i64>,
    /// NPC 合并的 PR 数量。Number of `PRs` merged by the NPC.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pull_request_merged_count: Option<i64>,
    /// 检索匹配分数。Search match score.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    /// NPC 口号。NPC slogan.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slogan: Option<String>,
    /// NPC 所属仓库的全路径。Full path of the repo the NPC belongs to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slug: Option<String>,
}

impl SearchNpcRes {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "avatar",
        "built_count",
        "name",
        "pull_request_created_count",
        "pull_request_merged_count",
        "score",
        "slogan",
        "slug",
    ];
}
