use serde::{Deserialize, Serialize};

/// `MissionPostViewReq`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct MissionPostViewReq {
    /// 视图唯一标识列表，按此顺序排序。View unique identifier list, in this order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ids: Option<Vec<String>>,
}

impl MissionPostViewReq {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["ids"];
}
