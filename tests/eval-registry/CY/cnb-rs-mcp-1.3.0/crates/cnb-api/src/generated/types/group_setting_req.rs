use serde::{Deserialize, Serialize};

/// `GroupSettingReq`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct GroupSettingReq {
    /// 组织限制指定邮箱认证才能加入。Require email verification.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email_verification: Option<Vec<String>>,
    /// 组织保护开关，0 - 关闭，1 - 打开。Org protection. 0/1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group_protection: Option<i64>,
    /// 是否对外隐藏组织成员，0 - 否, 1 - 是。Hide members.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hide_members: Option<i64>,
    /// 是否对外隐藏子组织，0 - 否, 1 - 是。Hide sub-orgs. 0/1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hide_sub_groups: Option<i64>,
    /// `NpcPriceLimit` NPC 价格上限，单位毫元/百万token（milli-money/`MTok`，1 毫元 = 0.001 单位货币；saas-global 为 $、其他发行版为 ¥），0 表示不限制。
    /// NPC price limit, in milli-money per million tokens (1 milli-money = 0.001 currency unit; $ for saas-global, ¥ for other distributions), 0 means unlimited.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub npc_price_limit: Option<i64>,
    /// 是否对外显示私有仓库水印，0 - 否, 1 - 是。Show watermark.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub show_private_repo_watermark: Option<i64>,
    /// `SettingValue` 组织设置值，多个选项，用逗号拼接。可选值来自 `SettingNamesArray` 的值，e.g. `disable_organization_readme`,`cloud_native_dev_only`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub values: Option<String>,
    /// `VisitorNpcPriceLimit` 访客可用 NPC 价格上限，量纲同 `NpcPriceLimit`（毫元/`MTok`），0 表示不对访客额外管控（跟随 `NpcPriceLimit`）。
    /// 访客口径与「仅允许仓库成员@NPC」一致：与根组织树无任何成员/外部协作者关系的用户。
    /// 仓库成员（含最低 Guest 角色）、仓库外部协作者、组织成员、兄弟仓成员均不算访客。
    /// Visitor NPC price limit, same unit as `NpcPriceLimit` (milli-money/`MTok`), 0 means no extra control for visitors.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visitor_npc_price_limit: Option<i64>,
}

impl GroupSettingReq {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "email_verification",
        "group_protection",
        "hide_members",
        "hide_sub_groups",
        "npc_price_limit",
        "show_private_repo_watermark",
        "values",
        "visitor_npc_price_limit",
    ];
}
