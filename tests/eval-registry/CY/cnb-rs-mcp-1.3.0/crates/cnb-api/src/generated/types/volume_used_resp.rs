use serde::{Deserialize, Serialize};

/// `VolumeUsedResp`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct VolumeUsedResp {
    /// 云原生构建 GPU 用量，单位核秒
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ci_gpu_in_sec: Option<i64>,
    /// 云原生构建 用量，单位核秒。Cloud native build usage, in core-seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ci_in_sec: Option<i64>,
    /// Credit 用量，单位 `milli_credit`，1000 `milli_credits` = 1 credit
    #[serde(skip_serializing_if = "Option::is_none")]
    pub credit_in_milli: Option<i64>,
    /// 云原生开发 GPU 用量，单位核秒
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dev_gpu_in_sec: Option<i64>,
    /// 云原生开发 用量，单位核秒。Cloud native dev usage, in core-seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dev_in_sec: Option<i64>,
    /// 云原生构建 GPU 冻结用量，单位核秒。Frozen cloud native build GPU usage, in core-seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub freeze_ci_gpu_in_sec: Option<i64>,
    /// 预冻结用量（in-flight 流水线预扣费）。Frozen volume (pre-deducted for in-flight pipelines).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub freeze_ci_in_sec: Option<i64>,
    /// Credit 冻结用量，单位 `milli_credit`。Frozen credit usage, in milli-credits.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub freeze_credit_in_milli: Option<i64>,
    /// 云原生开发 GPU 冻结用量，单位核秒。Frozen cloud native dev GPU usage, in core-seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub freeze_dev_gpu_in_sec: Option<i64>,
    /// 云原生开发 冻结用量，单位核秒。Frozen cloud native dev usage, in core-seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub freeze_dev_in_sec: Option<i64>,
    /// Git 用量，单位字节，git 仓库除了 lfs 文件的用量。Git usage in bytes, excluding LFS files.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub git_in_byte: Option<i64>,
    /// 对象存储 用量，单位字节，包括 git lfs、制品、release 和 commit 附件等
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object_in_byte: Option<i64>,
}

impl VolumeUsedResp {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "ci_gpu_in_sec",
        "ci_in_sec",
        "credit_in_milli",
        "dev_gpu_in_sec",
        "dev_in_sec",
        "freeze_ci_gpu_in_sec",
        "freeze_ci_in_sec",
        "freeze_credit_in_milli",
        "freeze_dev_gpu_in_sec",
        "freeze_dev_in_sec",
        "git_in_byte",
        "object_in_byte",
    ];
}
