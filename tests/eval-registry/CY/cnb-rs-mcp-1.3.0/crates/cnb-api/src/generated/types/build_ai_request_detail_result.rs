use super::BuildAiRequestDetailEntry;
use serde::{Deserialize, Serialize};

/// `BuildAiRequestDetailResult`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct BuildAiRequestDetailResult {
    /// 返回码，0 表示成功。Return code. 0 means success.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<i64>,
    /// 请求详情。Request detail.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<BuildAiRequestDetailEntry>,
}

impl BuildAiRequestDetailResult {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["code", "content"];
}
