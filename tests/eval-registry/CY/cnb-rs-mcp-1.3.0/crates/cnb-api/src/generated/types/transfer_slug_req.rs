use serde::{Deserialize, Serialize};

/// 资源转移请求，包含资源的源路径和目标路径。 Resource transfer request, including source path and target path.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct TransferSlugReq {
    /// 资源（仓库/制品库等）当前所在的源路径。Current source path of the resource (repo/registry, etc.).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// 资源要转移到的目标路径。Target path to which the resource is transferred.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
}

impl TransferSlugReq {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &["source", "target"];
}
