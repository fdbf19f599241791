use serde::{Deserialize, Serialize};

/// `SpecialAmount`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct SpecialAmount {
    /// 云原生构建cpu核时。Cloud native build CPU core-hours.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compute_build_corehour: Option<i64>,
    /// 云原生构建 CPU 额度的说明文案。Description of the cloud-native build CPU quota.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compute_build_desc: Option<String>,
    /// null 即永久有效。Null = permanent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compute_build_expire: Option<String>,
    /// 云原生构建gpu核时。Cloud native build GPU core-hours.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compute_build_gpu_corehour: Option<i64>,
    /// 云原生构建 GPU 额度的说明文案。Description of the cloud-native build GPU quota.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compute_build_gpu_desc: Option<String>,
    /// null 即永久有效。Null = permanent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compute_build_gpu_expire: Option<String>,
    /// 云原生开发cpu核时。Cloud native dev CPU core-hours.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compute_develop_corehour: Option<i64>,
    /// 云原生开发 CPU 额度的说明文案。Description of the cloud-native development CPU quota.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compute_develop_desc: Option<String>,
    /// null 即永久有效。Null = permanent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compute_develop_expire: Option<String>,
    /// 云原生开发gpu核时。Cloud native dev GPU core-hours.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compute_develop_gpu_corehour: Option<i64>,
    /// 云原生开发 GPU 额度的说明文案。Description of the cloud-native development GPU quota.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compute_develop_gpu_desc: Option<String>,
    /// null 即永久有效。Null = permanent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compute_develop_gpu_expire: Option<String>,
    /// 模型调用量的 Credit。Credit for model invocations.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub credit: Option<i64>,
    /// Credit 额度的说明文案。Description of the credit quota.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub credit_desc: Option<String>,
    /// null 即永久有效。Null = permanent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub credit_expire: Option<String>,
    /// Git 存储额度的说明文案。Description of the Git storage quota.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub storage_git_desc: Option<String>,
    /// null 即永久有效。Null = permanent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub storage_git_expire: Option<String>,
    /// git存储空间。Git storage space.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub storage_git_gib: Option<i64>,
    /// 对象存储额度的说明文案。Description of the object storage quota.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub storage_object_desc: Option<String>,
    /// null 即永久有效。Null = permanent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub storage_object_expire: Option<String>,
    /// 对象存储空间。Object storage space.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub storage_object_gib: Option<i64>,
}

impl SpecialAmount {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "compute_build_corehour",
        "compute_build_desc",
        "compute_build_expire",
        "compute_build_gpu_corehour",
        "compute_build_gpu_desc",
        "compute_build_gpu_expire",
        "compute_develop_corehour",
        "compute_develop_desc",
        "compute_develop_expire",
        "compute_develop_gpu_corehour",
        "compute_develop_gpu_desc",
        "compute_develop_gpu_expire",
        "credit",
        "credit_desc",
        "credit_expire",
        "storage_git_desc",
        "storage_git_expire",
        "storage_git_gib",
        "storage_object_desc",
        "storage_object_expire",
        "storage_object_gib",
    ];
}
