use super::BuildAiRequestEntry;
use serde::{Deserialize, Serialize};

/// `BuildAiRequestResult`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct BuildAiRequestResult {
    /// 返回码，0 表示成功。Return code. 0 means success.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<i64>,
    /// AI 请求明细列表（当前页）。AI request entries of the current page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<Vec<BuildAiRequestEntry>>,
}

impl BuildAiRequestResult {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["code", "content"];
}
