use cnb_api::client::CnbClient;
use cnb_api::generated::api::build::GetBuildLogsParams;
use cnb_api::generated::types::StartBuildReq;
use rmcp::schemars::JsonSchema;
use serde::Deserialize;

use crate::error::api_err;

#[derive(Deserialize, JsonSchema)]
pub(crate) struct GetBuildLogsInput {
    /// 仓库路径
    pub repo: String,
    /// 页码
    pub page: Option<i64>,
    /// 每页条数（最大 100）
    pub pagesize: Option<i64>,
    /// 构建 ID
    pub sn: Option<String>,
    /// 构建状态
    pub status: Option<String>,
    /// 触发事件
    pub event: Option<String>,
    /// Commit ID
    pub sha: Option<String>,
    /// 源分支名
    pub source_ref: Option<String>,
    /// 目标分支名
    pub target_ref: Option<String>,
    /// 构建开始时间，格式 YYYY-MM-DD
    pub create_time: Option<String>,
    /// 构建结束时间，格式 YYYY-MM-DD
    pub end_time: Option<String>,
}

pub(crate) async fn get_build_logs(
    client: &CnbClient,
    input: GetBuildLogsInput,
) -> Result<String, String> {
    let params = GetBuildLogsParams {
        page: input.page,
        page_size: input.pagesize,
        sn: input.sn,
        status: input.status,
        event: input.event,
        sha: input.sha,
        source_ref: input.source_ref,
        target_ref: input.target_ref,
        create_time: input.create_time,
        end_time: input.end_time,
        ..Default::default()
    };
    client
        .get_build_logs(&input.repo, &params)
        .await
        .map(|v| serde_json::to_string(&v).unwrap_or_default())
        .map_err(api_err)
}

#[derive(Deserialize, JsonSchema)]
pub(crate) struct GetBuildStageInput {
    /// 仓库路径
    pub repo: String,
    /// 构建序列号
    pub sn: String,
    /// 流水线 ID，格式 {sn}-001, {sn}-002 等
    pub pipeline_id: String,
    /// 阶段 ID，如 prepare / beforeEnd / end / stage-0 / stage-1
    pub stage_id: String,
}

pub(crate) async fn get_build_stage(
    client: &CnbClient,
    input: GetBuildStageInput,
) -> Result<String, String> {
    client
        .get_build_stage(&input.repo, &input.sn, &input.pipeline_id, &input.stage_id)
        .await
        .map(|v| serde_json::to_string(&v).unwrap_or_default())
        .map_err(api_err)
}

#[derive(Deserialize, JsonSchema)]
pub(crate) struct GetBuildStatusInput {
    /// 仓库路径
    pub repo: String,
    /// 构建 ID
    pub sn: String,
}

pub(crate) async fn get_build_status(
    client: &CnbClient,
    input: GetBuildStatusInput,
) -> Result<String, String> {
    client
        .get_build_status(&input.repo, &input.sn)
        .await
        .map(|v| serde_json::to_string(&v).unwrap_or_default())
        .map_err(api_err)
}

#[derive(Deserialize, JsonSchema)]
pub(crate) struct StartBuildInput {
    /// 仓库路径
    pub repo: String,
    /// 分支名
    pub branch: String,
    /// 触发事件
    pub event: String,
    /// 是否同步等待完成
    pub sync: Option<String>,
    /// 配置
    pub config: Option<String>,
    /// Commit ID
    pub sha: Option<String>,
    /// Git tag
    pub tag: Option<String>,
}

pub(crate) async fn start_build(
    client: &CnbClient,
    input: StartBuildInput,
) -> Result<String, String> {
    let body = StartBuildReq {
        branch: Some(input.branch),
        event: Some(input.event),
        sync: input.sync,
        config: input.config,
        sha: input.sha,
        tag: input.tag,
        ..Default::default()
    };
    client
        .start_build(&input.repo, &body)
        .await
        .map(|v| serde_json::to_string(&v).unwrap_or_default())
        .map_err(api_err)
}

#[derive(Deserialize, JsonSchema)]
pub(crate) struct StopBuildInput {
    /// 仓库路径
    pub repo: String,
    /// 构建 ID
    pub sn: String,
}

pub(crate) async fn stop_build(
    client: &CnbClient,
    input: StopBuildInput,
) -> Result<String, String> {
    client
        .stop_build(&input.repo, &input.sn)
        .await
        .map(|v| serde_json::to_string(&v).unwrap_or_default())
        .map_err(api_err)
}

#[derive(Deserialize, JsonSchema)]
pub(crate) struct BuildLogsDeleteInput {
    /// 仓库路径
    pub repo: String,
    /// 构建 ID
    pub sn: String,
}

pub(crate) async fn build_logs_delete(
    client: &CnbClient,
    input: BuildLogsDeleteInput,
) -> Result<String, String> {
    client
        .build_logs_delete(&input.repo, &input.sn)
        .await
        .map(|v| serde_json::to_string(&v).unwrap_or_default())
        .map_err(api_err)
}

#[derive(Deserialize, JsonSchema)]
pub(crate) struct BuildRunnerDownloadLogInput {
    /// 仓库路径
    pub repo: String,
    /// 流水线 ID
    pub pipeline_id: String,
}

pub(crate) async fn build_runner_download_log(
    client: &CnbClient,
    input: BuildRunnerDownloadLogInput,
) -> Result<String, String> {
    client
        .build_runner_download_log(&input.repo, &input.pipeline_id)
        .await
        .map_err(api_err)
}
