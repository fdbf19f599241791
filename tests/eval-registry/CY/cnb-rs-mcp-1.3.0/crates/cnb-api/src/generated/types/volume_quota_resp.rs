use super::QuotaItem;
use serde::{Deserialize, Serialize};

/// `VolumeQuotaResp`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct VolumeQuotaResp {
    /// 云原生构建 GPU 限额，单位核秒
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ci_gpu_in_sec: Option<QuotaItem>,
    /// 云原生构建 限额，单位核秒。Cloud native build quota, in core-seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ci_in_sec: Option<QuotaItem>,
    /// Credit 限额，单位 `milli_credit`，1000 `milli_credits` = 1 credit
    #[serde(skip_serializing_if = "Option::is_none")]
    pub credit_in_milli: Option<QuotaItem>,
    /// 云原生开发 GPU 限额，单位核秒
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dev_gpu_in_sec: Option<QuotaItem>,
    /// 云原生开发 限额，单位核秒。Cloud native dev quota, in core-seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dev_in_sec: Option<QuotaItem>,
    /// Git 限额，单位字节，git 仓库除了 lfs 文件的限额。Git quota in bytes, excluding LFS files.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub git_in_byte: Option<QuotaItem>,
    /// 对象存储 限额，单位字节，包括 git lfs、制品、release 和 commit 附件等
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object_in_byte: Option<QuotaItem>,
}

impl VolumeQuotaResp {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "ci_gpu_in_sec",
        "ci_in_sec",
        "credit_in_milli",
        "dev_gpu_in_sec",
        "dev_in_sec",
        "git_in_byte",
        "object_in_byte",
    ];
}
