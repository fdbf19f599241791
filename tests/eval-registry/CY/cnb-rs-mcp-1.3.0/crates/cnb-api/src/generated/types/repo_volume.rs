use super::SlugType;
use serde::{Deserialize, Serialize};

/// 仓库用量信息，包含用量、仓库地址、资源标识与类型。 Repo volume info, including usage, repo path, resource ID and type.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct RepoVolume {
    /// 是否已删除。Whether the resource is deleted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_deleted: Option<bool>,
    /// 资源 ID。Resource ID.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource_id: Option<String>,
    /// 资源类型。Resource type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource_type: Option<SlugType>,
    /// 仓库地址。Repository path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slug: Option<String>,
    /// 用量：存储 byte，核时核秒，credit 为 `milli_credit`。Usage: storage byte; core-hour; credit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub volume: Option<String>,
}

impl RepoVolume {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "is_deleted",
        "resource_id",
        "resource_type",
        "slug",
        "volume",
    ];
}
