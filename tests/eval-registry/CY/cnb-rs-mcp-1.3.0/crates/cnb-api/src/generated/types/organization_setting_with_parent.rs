use serde::{Deserialize, Serialize};

/// `OrganizationSettingWithParent`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct OrganizationSettingWithParent {
    /// 上级group设置了`hide_members`为1，则下级都不能显示
    #[serde(skip_serializing_if = "Option::is_none")]
    pub can_show_members: Option<bool>,
    /// 上级group设置了`hide_sub_groups`为1，则下级都不能显示
    #[serde(skip_serializing_if = "Option::is_none")]
    pub can_show_sub_groups: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub can_show_watermark: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email_verification: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group_protection: Option<i64>,
    /// 是否对外隐藏组织成员，0 - 否, 1 - 是。Hide members.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hide_members: Option<i64>,
    /// 是否对外隐藏子组织，0 - 否, 1 - 是。Hide sub-orgs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hide_sub_groups: Option<i64>,
    /// NPC 价格上限，单位毫元/百万token（milli-money/`MTok`），0 表示不限制。
    /// saas-global 发行版对应 $、其他发行版对应 ¥。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub npc_price_limit: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub root_email_verification: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub root_group_protection: Option<bool>,
    /// 根组织设置的 NPC 价格上限，单位同上（毫元/`MTok`）
    #[serde(skip_serializing_if = "Option::is_none")]
    pub root_npc_price_limit: Option<i64>,
    /// MANUAL FIX (P8)：实际是 comma-separated `SettingValue` 字符串（如 `"a,b,c"`）或空串 `""`，
    /// 而非单一 `SettingValue` enum；generated 类型用单一 enum 会导致反序列化失败。重生后保留本字段。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub root_values: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub show_private_repo_watermark: Option<i64>,
    /// MANUAL FIX (P8)：见 `root_values` 注释，同理用 String 而非 `SettingValue`。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub values: Option<String>,
    /// 访客可用 NPC 价格上限，量纲同上（毫元/`MTok`），0 表示不对访客额外管控（跟随 `NpcPriceLimit`）。
    /// 由根组织统一管控，子组织不可单独配置，故无需 Root 副本（其值恒等于本字段）。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visitor_npc_price_limit: Option<i64>,
}

impl OrganizationSettingWithParent {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "can_show_members",
        "can_show_sub_groups",
        "can_show_watermark",
        "email_verification",
        "group_protection",
        "hide_members",
        "hide_sub_groups",
        "npc_price_limit",
        "root_email_verification",
        "root_group_protection",
        "root_npc_price_limit",
        "root_values",
        "show_private_repo_watermark",
        "values",
        "visitor_npc_price_limit",
    ];
}
