use serde::{Deserialize, Serialize};

/// `PostTagFrom`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PostTagFrom {
    /// 标签的描述信息。Tag description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// 标签名称。Tag name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// 标签指向的目标对象。格式：`分支名称`,`标签名称`,`提交哈希`。Tag target object. Format: `branch_name`,`tag_name`,`commit_hash`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
}

impl PostTagFrom {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["message", "name", "target"];
}
