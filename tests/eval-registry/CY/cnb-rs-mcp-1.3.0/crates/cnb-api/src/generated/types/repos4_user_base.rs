use super::NullTime;
use super::RepoDisplayModule;
use super::RepoLanguage;
use super::RepoStatus;
use super::Slugs;
use super::Visibility;
use serde::{Deserialize, Serialize};

/// 用户的仓库查询接口返回值，包含仓库基本信息、简介与统计，不包含访问者相关信息。 User repo query response, including repo basic info, profile and statistics, without visitor-specific info.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Repos4UserBase {
    /// 创建时间。Creation time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// 仓库描述。Repository description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// 仓库展示模块。Repository display module.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub display_module: Option<RepoDisplayModule>,
    /// 仓库特性标记。Repository feature flags.
    #[serde(skip_serializing_if = "Option::is_none")]
    /// MANUAL FIX (P13)：实际是逗号分隔的 `FlagsRepo` 字符串（如 `"Skills,Wiki"`），非单一 enum
    pub flags: Option<String>,
    /// Fork 数量。Fork count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fork_count: Option<i64>,
    /// 预留。Reserved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forked_from_repo: Option<Slugs>,
    /// 是否冻结。Whether the repository is frozen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub freeze: Option<bool>,
    /// 仓库唯一标识。Repository unique ID.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// 仓库程序语言，预留。Repo language (reserved).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// 仓库语言。Repository language.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub languages: Option<RepoLanguage>,
    /// 最新代码更新人姓名。Latest code updater name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_update_nickname: Option<String>,
    /// 最新代码更新人账户名。Latest code updater username.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_update_username: Option<String>,
    /// 最新代码更新时间。Latest code update time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_updated_at: Option<NullTime>,
    /// 仓库开源协议。Repository license.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub license: Option<String>,
    /// 标记数量。Mark count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mark_count: Option<i64>,
    /// 仓库名称。Repository name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// NPC 触发的构建数。NPC-triggered build count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub npc_builded_count: Option<i64>,
    /// NPC 创建的合并请求数。NPC-created PR count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub npc_created_pull_count: Option<i64>,
    /// NPC 合并的合并请求数。NPC-merged PR count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub npc_merged_pull_count: Option<i64>,
    /// 开启的issue数。Number of open issues.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub open_issue_count: Option<i64>,
    /// 开启的pull request数。Number of open pull requests.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub open_pull_request_count: Option<i64>,
    /// 完整仓库路径。Full repository path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// 第二语言。Second language.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub second_languages: Option<RepoLanguage>,
    /// 仓库主页。Repository site.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub site: Option<String>,
    /// Skill 仓库扫描结论：unknown/white/suspicious/black，来自 result。Scan result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skill_scan_status: Option<String>,
    /// Star 数量。Star count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub star_count: Option<i64>,
    /// 仓库状态。Repository status.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<RepoStatus>,
    /// 仓库标签列表。Repository tag list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<serde_json::Value>>,
    /// 仓库主题标签。Repository topic tags.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub topics: Option<String>,
    /// 更新时间。Update time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<String>,
    /// 仓库可见性。Repository visibility level.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visibility_level: Option<Visibility>,
    /// 仓库 Web 地址。Repository web URL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub web_url: Option<String>,
}

impl Repos4UserBase {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "created_at",
        "description",
        "display_module",
        "flags",
        "fork_count",
        "forked_from_repo",
        "freeze",
        "id",
        "language",
        "languages",
        "last_update_nickname",
        "last_update_username",
        "last_updated_at",
        "license",
        "mark_count",
        "name",
        "npc_builded_count",
        "npc_created_pull_count",
        "npc_merged_pull_count",
        "open_issue_count",
        "open_pull_request_count",
        "path",
        "second_languages",
        "site",
        "skill_scan_status",
        "star_count",
        "status",
        "tags",
        "topics",
        "updated_at",
        "visibility_level",
        "web_url",
    ];
}
