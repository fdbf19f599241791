use serde::{Deserialize, Serialize};

/// `MetadataCondition`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct MetadataCondition {
    /// 运算符: "is", "is not", "contains", "not contains", "starts with", "ends with", "is empty", "is not empty"
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comparison_operator: Option<String>,
    /// 字段名称: "position", "path", "type"
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// 比较值（"is empty" 和 "is not empty" 时忽略此字段）
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
}

impl MetadataCondition {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["comparison_operator", "name", "value"];
}
