use super::Commit;
use super::TagObjectVerification;
use serde::{Deserialize, Serialize};

/// `ApiTag`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ApiTag {
    /// 标签指向的commit对象详细信息。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit: Option<Commit>,
    /// 标签名称。Tag name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// 标签目标对象哈希值。Tag target object hash.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// 目标对象类型。Target object type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_type: Option<String>,
    /// 标签的GPG签名验证信息。Tag GPG signature verification info.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verification: Option<TagObjectVerification>,
}

impl ApiTag {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["commit", "name", "target", "target_type", "verification"];
}
