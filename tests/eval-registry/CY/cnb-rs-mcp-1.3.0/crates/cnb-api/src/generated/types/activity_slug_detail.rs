use serde::{Deserialize, Serialize};

/// `ActivitySlugDetail`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ActivitySlugDetail {
    /// 完整仓库路径。Full repository path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
}

impl ActivitySlugDetail {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["path"];
}
