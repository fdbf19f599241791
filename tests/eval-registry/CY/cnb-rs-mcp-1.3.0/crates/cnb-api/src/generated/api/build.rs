use crate::client::CnbClient;
use crate::error::ApiError;
use crate::generated::types::BuildAiAuditResult;
use crate::generated::types::BuildAiRequestDetailResult;
use crate::generated::types::BuildAiRequestResult;
use crate::generated::types::BuildCommonResult;
use crate::generated::types::BuildLogsResult;
use crate::generated::types::BuildResult;
use crate::generated::types::BuildStageResult;
use crate::generated::types::BuildStatusResult;
use crate::generated::types::StartBuildReq;
use serde::Serialize;

/// 查询流水线构建列表。List pipeline builds. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct GetBuildLogsParams {
    /// 起始日期，格式 "YYYY-MM-DD"，例如 "2024-12-01"。起止最多相差 7 天，未传时间参数时默认查询当天。
    /// Start date in "YYYY-MM-DD" format, e.g. "2024-12-01". The gap between start and end dates cannot exceed 7 days; defaults to today when omitted.
    #[serde(rename = "createTime")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub create_time: Option<String>,
    /// 结束日期，格式 "YYYY-MM-DD"，例如 "2024-12-01"。End date in "YYYY-MM-DD" format, e.g. "2024-12-01".
    #[serde(rename = "endTime")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_time: Option<String>,
    /// 事件名称，例如 "push"。Event name, e.g. "push"
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    /// 分页页码，默认1。Pagination page number, default(1)
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 分页页大小，默认30，最大100。Pagination page size, default(30), max(100)
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
    /// 提交ID。Commit ID.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sha: Option<String>,
    /// 构建序列号，例如 "cnb-1qa-1i3f5ecau"。Build SN, e.g. "cnb-1qa-1i3f5ecau"
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sn: Option<String>,
    /// 源分支名称，例如 "dev"。Source branch name, e.g. "dev"
    #[serde(rename = "sourceRef")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_ref: Option<String>,
    /// 构建状态："pending"、"success"、"error"、"cancel"。Build status: "pending", "success", "error", "cancel"
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// 目标分支名称，例如 "main"。Target branch name, e.g. "main"
    #[serde(rename = "targetRef")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_ref: Option<String>,
    /// 用户ID。User ID.
    #[serde(rename = "userId")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_id: Option<String>,
    /// 用户名。Username.
    #[serde(rename = "userName")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_name: Option<String>,
}

impl CnbClient {
    /// 同步分支定时任务。Sync branch crontab tasks.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn build_crontab_sync(
        &self,
        repo: &str,
        branch: &str,
    ) -> Result<BuildCommonResult, ApiError> {
        let url = format!("{}/{}/-/build/crontab/sync/{}", self.base_url, repo, branch);
        self.post_json(&url, &serde_json::Value::Object(serde_json::Map::new()))
            .await
    }

    /// 查询流水线构建列表。List pipeline builds.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_build_logs(
        &self,
        repo: &str,
        params: &GetBuildLogsParams,
    ) -> Result<BuildLogsResult, ApiError> {
        let url = format!("{}/{}/-/build/logs", self.base_url, repo);
        self.get_with_query(&url, params).await
    }

    /// 查询流水线 AI 用量汇总。Get pipeline AI usage summary.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_build_ai_audit(
        &self,
        repo: &str,
        sn: &str,
        pipeline_id: &str,
    ) -> Result<BuildAiAuditResult, ApiError> {
        let url = format!(
            "{}/{}/-/build/logs/ai-audit/{}/{}",
            self.base_url, repo, sn, pipeline_id
        );
        self.get(&url).await
    }

    /// 查询单条 AI 请求详情。Get a single AI request detail.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_build_ai_request_detail(
        &self,
        repo: &str,
        sn: &str,
        pipeline_id: &str,
        request_id: &str,
    ) -> Result<BuildAiRequestDetailResult, ApiError> {
        let url = format!(
            "{}/{}/-/build/logs/ai-request-detail/{}/{}/{}",
            self.base_url, repo, sn, pipeline_id, request_id
        );
        self.get(&url).await
    }

    /// 查询 AI 请求明细。List AI request entries.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_build_ai_request(
        &self,
        repo: &str,
        sn: &str,
        pipeline_id: &str,
        page: i64,
    ) -> Result<BuildAiRequestResult, ApiError> {
        let url = format!(
            "{}/{}/-/build/logs/ai-request/{}/{}/{}",
            self.base_url, repo, sn, pipeline_id, page
        );
        self.get(&url).await
    }

    /// 查询 Stage 详情。Get pipeline stage detail.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_build_stage(
        &self,
        repo: &str,
        sn: &str,
        pipeline_id: &str,
        stage_id: &str,
    ) -> Result<BuildStageResult, ApiError> {
        let url = format!(
            "{}/{}/-/build/logs/stage/{}/{}/{}",
            self.base_url, repo, sn, pipeline_id, stage_id
        );
        self.get(&url).await
    }

    /// 删除流水线日志内容。Delete pipeline logs content.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn build_logs_delete(
        &self,
        repo: &str,
        sn: &str,
    ) -> Result<BuildCommonResult, ApiError> {
        let url = format!("{}/{}/-/build/logs/{}", self.base_url, repo, sn);
        self.delete_with_response(&url).await
    }

    /// 流水线 Runner 日志下载。Pipeline runner log download.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn build_runner_download_log(
        &self,
        repo: &str,
        pipeline_id: &str,
    ) -> Result<String, ApiError> {
        let url = format!(
            "{}/{}/-/build/runner/download/log/{}",
            self.base_url, repo, pipeline_id
        );
        self.get_text(&url).await
    }

    /// 开始一个构建。Start a build.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn start_build(
        &self,
        repo: &str,
        body: &StartBuildReq,
    ) -> Result<BuildResult, ApiError> {
        let url = format!("{}/{}/-/build/start", self.base_url, repo);
        self.post_json(&url, body).await
    }

    /// 查询流水线构建状态。Get pipeline build status.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_build_status(
        &self,
        repo: &str,
        sn: &str,
    ) -> Result<BuildStatusResult, ApiError> {
        let url = format!("{}/{}/-/build/status/{}", self.base_url, repo, sn);
        self.get(&url).await
    }

    /// 停止一个构建。Stop a build.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn stop_build(&self, repo: &str, sn: &str) -> Result<BuildResult, ApiError> {
        let url = format!("{}/{}/-/build/stop/{}", self.base_url, repo, sn);
        self.post_json(&url, &serde_json::Value::Object(serde_json::Map::new()))
            .await
    }
}
