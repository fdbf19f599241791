use super::BuildPipelineInfo;
use serde::{Deserialize, Serialize};

/// `LogInfo`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct LogInfo {
    /// 构建日志 url。Build log URL.
    #[serde(rename = "buildLogUrl")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub build_log_url: Option<String>,
    /// 提交日志 title
    #[serde(rename = "commitTitle")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit_title: Option<String>,
    /// 构建开始时间。Build start time.
    #[serde(rename = "createTime")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub create_time: Option<String>,
    /// 构建耗时，单位：ms。Build duration, unit: ms.
    ///
    /// MANUAL FIX: CNB 后端返回数字字符串而非 i64，使用 [`crate::serde_helpers::int_or_string`] 兼容。
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "crate::serde_helpers::int_or_string::deserialize")]
    pub duration: Option<i64>,
    /// 事件名。Event name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    /// 事件 url。Event URL.
    #[serde(rename = "eventUrl")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event_url: Option<String>,
    /// 构建用户是否被冻结。Whether the build user is frozen.
    ///
    /// MANUAL FIX: CNB 后端返回 `"0"` / `"1"` 字符串而非 schema 声明的 boolean，
    /// 使用 [`crate::serde_helpers::bool_or_string`] 兼容反序列化。
    /// 如果 generator 重新生成需保留 `deserialize_with` 标注。
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "crate::serde_helpers::bool_or_string::deserialize")]
    pub freeze: Option<bool>,
    /// 组织名。Organization name.
    #[serde(rename = "groupName")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group_name: Option<String>,
    /// 流水线标签。Pipeline labels.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub labels: Option<String>,
    /// 构建用户昵称。Build user nickname.
    #[serde(rename = "nickName")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nick_name: Option<String>,
    /// 失败的子流水线个数。Number of failed sub-pipelines.
    ///
    /// MANUAL FIX: CNB 后端返回数字字符串而非 i64，使用 [`crate::serde_helpers::int_or_string`] 兼容。
    #[serde(rename = "pipelineFailCount")]
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "crate::serde_helpers::int_or_string::deserialize")]
    pub pipeline_fail_count: Option<i64>,
    /// 成功的子流水线个数。Number of successful sub-pipelines.
    ///
    /// MANUAL FIX: CNB 后端返回数字字符串而非 i64，使用 [`crate::serde_helpers::int_or_string`] 兼容。
    #[serde(rename = "pipelineSuccessCount")]
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "crate::serde_helpers::int_or_string::deserialize")]
    pub pipeline_success_count: Option<i64>,
    /// 子流水线个数。Number of sub-pipelines.
    ///
    /// MANUAL FIX: CNB 后端返回数字字符串而非 i64，使用 [`crate::serde_helpers::int_or_string`] 兼容。
    #[serde(rename = "pipelineTotalCount")]
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "crate::serde_helpers::int_or_string::deserialize")]
    pub pipeline_total_count: Option<i64>,
    /// 该构建下的流水线列表。Pipeline list under this build.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pipelines: Option<Vec<BuildPipelineInfo>>,
    /// 提交SHA。Commit SHA.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sha: Option<String>,
    /// 仓库路径。Repository path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slug: Option<String>,
    /// 构建号。Build number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sn: Option<String>,
    /// 源分支名。Source branch name.
    #[serde(rename = "sourceRef")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_ref: Option<String>,
    /// 源仓库路径。Source repository path.
    #[serde(rename = "sourceSlug")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_slug: Option<String>,
    /// 构建状态。Build status.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// 目标分支名。Target branch name.
    #[serde(rename = "targetRef")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_ref: Option<String>,
    /// 构建 title
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// 用户名。Username.
    #[serde(rename = "userName")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_name: Option<String>,
}

impl LogInfo {
    /// `--json` 模式输出的字段名列表（由 codegen 自动生成）。
    pub const JSON_FIELDS: &[&str] = &[
        "buildLogUrl",
        "commitTitle",
        "createTime",
        "duration",
        "event",
        "eventUrl",
        "freeze",
        "groupName",
        "labels",
        "nickName",
        "pipelineFailCount",
        "pipelineSuccessCount",
        "pipelineTotalCount",
        "pipelines",
        "sha",
        "slug",
        "sn",
        "sourceRef",
        "sourceSlug",
        "status",
        "targetRef",
        "title",
        "userName",
    ];
}
