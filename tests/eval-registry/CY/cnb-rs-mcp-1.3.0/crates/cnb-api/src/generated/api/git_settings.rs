use crate::client::CnbClient;
use crate::error::ApiError;
use crate::generated::types::BranchProtection;
use crate::generated::types::PipelineSettings;
use crate::generated::types::PullRequestSettings;
use crate::generated::types::PushLimitSettings;

impl CnbClient {
    /// 查询保护分支规则列表。List branch protection rules.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_branch_protections(
        &self,
        repo: &str,
    ) -> Result<Vec<BranchProtection>, ApiError> {
        let url = format!("{}/{}/-/settings/branch-protections", self.base_url, repo);
        self.get(&url).await
    }

    /// 创建保护分支规则。Create branch protection rule.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn post_branch_protection(
        &self,
        repo: &str,
        body: &BranchProtection,
    ) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/settings/branch-protections", self.base_url, repo);
        self.post_json::<serde_json::Value, _>(&url, body).await?;
        Ok(())
    }

    /// 获取保护分支规则。Get branch protection rule.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_branch_protection(
        &self,
        repo: &str,
        id: &str,
    ) -> Result<BranchProtection, ApiError> {
        let url = format!(
            "{}/{}/-/settings/branch-protections/{}",
            self.base_url, repo, id
        );
        self.get(&url).await
    }

    /// 删除保护分支规则。Delete branch protection rule.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn delete_branch_protection(&self, repo: &str, id: &str) -> Result<(), ApiError> {
        let url = format!(
            "{}/{}/-/settings/branch-protections/{}",
            self.base_url, repo, id
        );
        self.delete(&url).await
    }

    /// 更新保护分支规则。Update branch protection rule.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn patch_branch_protection(
        &self,
        repo: &str,
        id: &str,
        body: &BranchProtection,
    ) -> Result<(), ApiError> {
        let url = format!(
            "{}/{}/-/settings/branch-protections/{}",
            self.base_url, repo, id
        );
        self.patch_json::<serde_json::Value, _>(&url, body).await?;
        Ok(())
    }

    /// 查询云原生构建设置。Get cloud native build settings.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_pipeline_settings(&self, repo: &str) -> Result<PipelineSettings, ApiError> {
        let url = format!("{}/{}/-/settings/cloud-native-build", self.base_url, repo);
        self.get(&url).await
    }

    /// 更新云原生构建设置。Update cloud native build settings.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn put_pipeline_settings(
        &self,
        repo: &str,
        body: &PipelineSettings,
    ) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/settings/cloud-native-build", self.base_url, repo);
        self.put_json::<serde_json::Value, _>(&url, body).await?;
        Ok(())
    }

    /// 查询合并请求设置。Get pull request settings.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_pull_request_settings(
        &self,
        repo: &str,
    ) -> Result<PullRequestSettings, ApiError> {
        let url = format!("{}/{}/-/settings/pull-request", self.base_url, repo);
        self.get(&url).await
    }

    /// 更新合并请求设置。Update pull request settings.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn put_pull_request_settings(
        &self,
        repo: &str,
        body: &PullRequestSettings,
    ) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/settings/pull-request", self.base_url, repo);
        self.put_json::<serde_json::Value, _>(&url, body).await?;
        Ok(())
    }

    /// 查询推送管控设置。Get push control settings.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_push_limit_settings(&self, repo: &str) -> Result<PushLimitSettings, ApiError> {
        let url = format!("{}/{}/-/settings/push-limit", self.base_url, repo);
        self.get(&url).await
    }

    /// 设置推送管控。Set push control.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn put_push_limit_settings(
        &self,
        repo: &str,
        body: &PushLimitSettings,
    ) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/settings/push-limit", self.base_url, repo);
        self.put_json::<serde_json::Value, _>(&url, body).await?;
        Ok(())
    }
}
