use super::MissionFilter;
use serde::{Deserialize, Serialize};

/// 任务集资源筛选请求，包含筛选条件与需返回的字段列表。 Mission resource filter request, including filter conditions and fields to return.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct MissionFilterFrom {
    /// Fields 指定需要返回的字段（基于响应中 issue/`pull_request` 的 JSON key），
    /// 传空或不传则返回全量字段；传入时核心字段（id、`repo_slug`、number）始终会被返回。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fields: Option<Vec<String>>,
    /// 筛选条件列表。Filter selector list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selectors: Option<Vec<MissionFilter>>,
}

impl MissionFilterFrom {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["fields", "selectors"];
}
