use crate::client::CnbClient;
use crate::error::ApiError;
use crate::generated::types::AssetGroup;
use crate::generated::types::DeleteIssueAssigneesForm;
use crate::generated::types::Issue;
use crate::generated::types::IssueActivity;
use crate::generated::types::IssueAssetUploadURL;
use crate::generated::types::IssueComment;
use crate::generated::types::IssueDetail;
use crate::generated::types::IssuePropertiesForm;
use crate::generated::types::IssueProperty;
use crate::generated::types::IssuePropertyUpdateResult;
use crate::generated::types::Label;
use crate::generated::types::PatchIssueAssigneesForm;
use crate::generated::types::PatchIssueCommentForm;
use crate::generated::types::PatchIssueForm;
use crate::generated::types::PostAssetGroupForm;
use crate::generated::types::PostIssueAssetUploadURLForm;
use crate::generated::types::PostIssueAssigneesForm;
use crate::generated::types::PostIssueCommentForm;
use crate::generated::types::PostIssueForm;
use crate::generated::types::PostIssueLabelsForm;
use crate::generated::types::PutIssueLabelsForm;
use crate::generated::types::RepoProperty;
use crate::generated::types::UserInfo;
use crate::generated::types::UserIssue;
use serde::Serialize;

/// 查询我的 Issue 列表。List my issues. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct ListUserIssuesParams {
    /// 分页页码，输入值小于1，则调整为1。Page number. Values less than 1 are adjusted to 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 分页大小,<0为10,>100为100. Page size, clamped to 10 if <0 or 100 if >100.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
    /// Issue筛选类型。可选值：`created`（我创建的）、`assigned`（分配给我的）
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filter: Option<String>,
    /// Issue状态过滤。可选值：`open`、`closed`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// Issue优先级过滤。示例：`-2P,-1P,P0,P1,P2,P3`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub priority: Option<String>,
    /// Issue标签过滤。示例：`git,bug,feature`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub labels: Option<String>,
    /// 标签过滤操作符。可选值：`contains_any`,`contains_all`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub labels_operator: Option<String>,
    /// Issue更新时间范围开始。示例：`2022-01-31`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_time_begin: Option<String>,
    /// Issue更新时间范围结束。示例：`2022-02-16`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_time_end: Option<String>,
    /// Issue关闭时间范围开始。示例：`2022-01-31`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub close_time_begin: Option<String>,
    /// Issue关闭时间范围结束。示例：`2022-02-16`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub close_time_end: Option<String>,
    /// Issue创建时间范围开始。示例：`2022-01-31`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_time_begin: Option<String>,
    /// Issue创建时间范围结束。示例：`2022-02-16`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_time_end: Option<String>,
    /// Issue排序字段，-前缀表示倒序。可选值：`created_at`,`-created_at`,`-updated_at`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order_by: Option<String>,
}

/// 查询仓库 Issue 列表。List repository issues. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct ListIssuesParams {
    /// 分页页码，输入值小于1，则调整为1。Page number. Values less than 1 are adjusted to 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 分页大小,<0为10,>100为100. Page size, clamped to 10 if <0 or 100 if >100.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
    /// Issue状态过滤。可选值：`open`、`closed`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// Issue搜索关键词，支持在标题和内容中模糊搜索。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keyword: Option<String>,
    /// Issue优先级过滤。示例：`-2P,-1P,P0,P1,P2,P3`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub priority: Option<String>,
    /// Issue标签过滤。示例：`git,bug,feature`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub labels: Option<String>,
    /// 标签过滤操作符。可选值：`contains_any`,`contains_all`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub labels_operator: Option<String>,
    /// Issue创建者过滤，多个作者用英文逗号分隔。示例：`张三,李四`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub authors: Option<String>,
    /// Issue处理人过滤，多个处理人用英文逗号分隔，-表示未分配处理人。示例：`张三,李四`,`-`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assignees: Option<String>,
    /// Issue更新时间范围开始。示例：`2022-01-31`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_time_begin: Option<String>,
    /// Issue更新时间范围结束。示例：`2022-02-16`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_time_end: Option<String>,
    /// Issue关闭时间范围开始。示例：`2022-01-31`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub close_time_begin: Option<String>,
    /// Issue关闭时间范围结束。示例：`2022-02-16`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub close_time_end: Option<String>,
    /// Issue排序字段，-前缀表示倒序。可选值：`created_at`,`-created_at`,`-updated_at`,`-last_acted_at`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order_by: Option<String>,
}

/// 批量查询 Issue。Batch get issues. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct GetIssuesInBatchParams {
    /// Issue 编号列表，多个编号用英文逗号分隔，一次最多 100 个。示例：`?numbers=1,2,3`。Issue number list, comma-separated; up to 100 per request. Example: `?numbers=1,2,3`.
    #[serde(skip_serializing_if = "Option::is_none")]
    /// MANUAL FIX (P17)：`collectionFormat: csv`，逗号分隔的编号字符串（如 `"343,345"`）；`serde_urlencoded` 不能序列化数组
    pub numbers: Option<String>,
}

/// 查询 Issue 动态。List issue activities. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct ListIssueActivitiesParams {
    /// 分页页码。Page number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 分页页大小。Page size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
}

/// 查询 Issue 评论。List issue comments. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct ListIssueCommentsParams {
    /// 排序方式。支持 created, updated 升序; -created, -updated 降序
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sort: Option<String>,
    /// 分页页码。Page number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 分页页大小。Page size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
}

/// 查询 Issue 标签。List issue labels. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct ListIssueLabelsParams {
    /// 分页页码。Page number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 分页页大小。Page size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
}

/// 查询仓库隐藏自定义属性。Get hidden custom properties. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct ListRepoInvisiblePropertiesParams {
    /// 页码，默认1。Page number, default 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 每页数量，默认10。Page size, default 10.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
    /// 搜索关键字。Search keyword.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keyword: Option<String>,
}

impl CnbClient {
    /// 查询我的 Issue 列表。List my issues.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_user_issues(
        &self,
        params: &ListUserIssuesParams,
    ) -> Result<Vec<UserIssue>, ApiError> {
        let url = format!("{}/user/issues", self.base_url);
        self.get_with_query(&url, params).await
    }

    /// 获取 Issue 文件。Get issue files.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_issue_files(&self, repo: &str, file_path: &str) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/files/issues/{}", self.base_url, repo, file_path);
        self.get::<serde_json::Value>(&url).await?;
        Ok(())
    }

    /// 获取 Issue 图片。Get issue images.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_issue_imgs(&self, repo: &str, img_path: &str) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/imgs/issues/{}", self.base_url, repo, img_path);
        self.get::<serde_json::Value>(&url).await?;
        Ok(())
    }

    /// 查询仓库 Issue 列表。List repository issues.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_issues(
        &self,
        repo: &str,
        params: &ListIssuesParams,
    ) -> Result<Vec<Issue>, ApiError> {
        let url = format!("{}/{}/-/issues", self.base_url, repo);
        self.get_with_query(&url, params).await
    }

    /// 创建 Issue。Create issue.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn create_issue(
        &self,
        repo: &str,
        body: &PostIssueForm,
    ) -> Result<IssueDetail, ApiError> {
        let url = format!("{}/{}/-/issues", self.base_url, repo);
        self.post_json(&url, body).await
    }

    /// 创建 Issue 附件组。Create issue asset group.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn post_asset_group(
        &self,
        repo: &str,
        body: &PostAssetGroupForm,
    ) -> Result<AssetGroup, ApiError> {
        let url = format!("{}/{}/-/issues/asset-groups", self.base_url, repo);
        self.post_json(&url, body).await
    }

    /// 创建附件组文件上传链接。Create asset group file upload URL.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn post_issue_file_asset_upload_url(
        &self,
        repo: &str,
        asset_group_id: &str,
        body: &PostIssueAssetUploadURLForm,
    ) -> Result<IssueAssetUploadURL, ApiError> {
        let url = format!(
            "{}/{}/-/issues/asset-groups/{}/file-asset-upload-url",
            self.base_url, repo, asset_group_id
        );
        self.post_json(&url, body).await
    }

    /// 创建附件组图片上传链接。Create asset group image upload URL.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn post_issue_image_asset_upload_url(
        &self,
        repo: &str,
        asset_group_id: &str,
        body: &PostIssueAssetUploadURLForm,
    ) -> Result<IssueAssetUploadURL, ApiError> {
        let url = format!(
            "{}/{}/-/issues/asset-groups/{}/image-asset-upload-url",
            self.base_url, repo, asset_group_id
        );
        self.post_json(&url, body).await
    }

    /// 批量查询 Issue。Batch get issues.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_issues_in_batch(
        &self,
        repo: &str,
        params: &GetIssuesInBatchParams,
    ) -> Result<Vec<Issue>, ApiError> {
        let url = format!("{}/{}/-/issues/batch", self.base_url, repo);
        self.get_with_query(&url, params).await
    }

    /// 获取 Issue。Get issue.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_issue(&self, repo: &str, number: i64) -> Result<IssueDetail, ApiError> {
        let url = format!("{}/{}/-/issues/{}", self.base_url, repo, number);
        self.get(&url).await
    }

    /// 更新 Issue。Update issue.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn update_issue(
        &self,
        repo: &str,
        number: i64,
        body: &PatchIssueForm,
    ) -> Result<IssueDetail, ApiError> {
        let url = format!("{}/{}/-/issues/{}", self.base_url, repo, number);
        self.patch_json(&url, body).await
    }

    /// 查询 Issue 动态。List issue activities.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_issue_activities(
        &self,
        repo: &str,
        number: i64,
        params: &ListIssueActivitiesParams,
    ) -> Result<Vec<IssueActivity>, ApiError> {
        let url = format!("{}/{}/-/issues/{}/activities", self.base_url, repo, number);
        self.get_with_query(&url, params).await
    }

    /// 查询 Issue 最新动态。Get latest issue activity.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_issue_activities_latest(
        &self,
        repo: &str,
        number: i64,
        id: i64,
    ) -> Result<Vec<IssueActivity>, ApiError> {
        let url = format!(
            "{}/{}/-/issues/{}/activities/latest/{}",
            self.base_url, repo, number, id
        );
        self.get(&url).await
    }

    /// 查询 Issue 处理人。List issue assignees.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_issue_assignees(
        &self,
        repo: &str,
        number: &str,
    ) -> Result<Vec<UserInfo>, ApiError> {
        let url = format!("{}/{}/-/issues/{}/assignees", self.base_url, repo, number);
        self.get(&url).await
    }

    /// 添加 Issue 处理人。Add issue assignees.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn post_issue_assignees(
        &self,
        repo: &str,
        number: &str,
        body: &PostIssueAssigneesForm,
    ) -> Result<IssueDetail, ApiError> {
        let url = format!("{}/{}/-/issues/{}/assignees", self.base_url, repo, number);
        self.post_json(&url, body).await
    }

    /// 移除 Issue 处理人。Remove issue assignee.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn delete_issue_assignees(
        &self,
        repo: &str,
        number: &str,
        body: &DeleteIssueAssigneesForm,
    ) -> Result<IssueDetail, ApiError> {
        let url = format!("{}/{}/-/issues/{}/assignees", self.base_url, repo, number);
        self.delete_with_body_and_response(&url, body).await
    }

    /// 更新 Issue 处理人。Update issue assignees.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn patch_issue_assignees(
        &self,
        repo: &str,
        number: &str,
        body: &PatchIssueAssigneesForm,
    ) -> Result<IssueDetail, ApiError> {
        let url = format!("{}/{}/-/issues/{}/assignees", self.base_url, repo, number);
        self.patch_json(&url, body).await
    }

    /// 检查用户可分配性。Check user assignability.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn can_user_be_assigned_to_issue(
        &self,
        repo: &str,
        number: &str,
        assignee: &str,
    ) -> Result<(), ApiError> {
        let url = format!(
            "{}/{}/-/issues/{}/assignees/{}",
            self.base_url, repo, number, assignee
        );
        self.get::<serde_json::Value>(&url).await?;
        Ok(())
    }

    /// 创建 Issue 评论文件上传链接。Create issue comment file upload URL.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn post_issue_comment_file_asset_upload_url(
        &self,
        repo: &str,
        number: i64,
        body: &PostIssueAssetUploadURLForm,
    ) -> Result<IssueAssetUploadURL, ApiError> {
        let url = format!(
            "{}/{}/-/issues/{}/comment-file-asset-upload-url",
            self.base_url, repo, number
        );
        self.post_json(&url, body).await
    }

    /// Issue 评论图片上传链接。Create comment image upload URL.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn post_issue_comment_image_asset_upload_url(
        &self,
        repo: &str,
        number: i64,
        body: &PostIssueAssetUploadURLForm,
    ) -> Result<IssueAssetUploadURL, ApiError> {
        let url = format!(
            "{}/{}/-/issues/{}/comment-image-asset-upload-url",
            self.base_url, repo, number
        );
        self.post_json(&url, body).await
    }

    /// 查询 Issue 评论。List issue comments.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_issue_comments(
        &self,
        repo: &str,
        number: i64,
        params: &ListIssueCommentsParams,
    ) -> Result<Vec<IssueComment>, ApiError> {
        let url = format!("{}/{}/-/issues/{}/comments", self.base_url, repo, number);
        self.get_with_query(&url, params).await
    }

    /// 创建 Issue 评论。Create issue comment.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn post_issue_comment(
        &self,
        repo: &str,
        number: i64,
        body: &PostIssueCommentForm,
    ) -> Result<IssueComment, ApiError> {
        let url = format!("{}/{}/-/issues/{}/comments", self.base_url, repo, number);
        self.post_json(&url, body).await
    }

    /// 查询 Issue 评论。List issue comments.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_issue_comment(
        &self,
        repo: &str,
        number: i64,
        comment_id: i64,
    ) -> Result<IssueComment, ApiError> {
        let url = format!(
            "{}/{}/-/issues/{}/comments/{}",
            self.base_url, repo, number, comment_id
        );
        self.get(&url).await
    }

    /// 更新 Issue 评论。Update issue comment.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn patch_issue_comment(
        &self,
        repo: &str,
        number: i64,
        comment_id: i64,
        body: &PatchIssueCommentForm,
    ) -> Result<IssueComment, ApiError> {
        let url = format!(
            "{}/{}/-/issues/{}/comments/{}",
            self.base_url, repo, number, comment_id
        );
        self.patch_json(&url, body).await
    }

    /// 查询 Issue 标签。List issue labels.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_issue_labels(
        &self,
        repo: &str,
        number: i64,
        params: &ListIssueLabelsParams,
    ) -> Result<Vec<Label>, ApiError> {
        let url = format!("{}/{}/-/issues/{}/labels", self.base_url, repo, number);
        self.get_with_query(&url, params).await
    }

    /// 设置 Issue 标签。Set issue labels.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn put_issue_labels(
        &self,
        repo: &str,
        number: i64,
        body: &PutIssueLabelsForm,
    ) -> Result<Label, ApiError> {
        let url = format!("{}/{}/-/issues/{}/labels", self.base_url, repo, number);
        self.put_json(&url, body).await
    }

    /// 添加 Issue 标签。Add issue labels.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn post_issue_labels(
        &self,
        repo: &str,
        number: i64,
        body: &PostIssueLabelsForm,
    ) -> Result<Vec<Label>, ApiError> {
        let url = format!("{}/{}/-/issues/{}/labels", self.base_url, repo, number);
        self.post_json(&url, body).await
    }

    /// 删除 Issue 标签。Delete issue labels.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn delete_issue_labels(&self, repo: &str, number: i64) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/issues/{}/labels", self.base_url, repo, number);
        self.delete(&url).await
    }

    /// 移除 Issue 标签。Remove issue label.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn delete_issue_label(
        &self,
        repo: &str,
        number: i64,
        name: &str,
    ) -> Result<Vec<Label>, ApiError> {
        let url = format!(
            "{}/{}/-/issues/{}/labels/{}",
            self.base_url, repo, number, name
        );
        self.delete_with_response(&url).await
    }

    /// 获取 Issue 自定义属性。Get issue custom properties.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_issue_properties(
        &self,
        repo: &str,
        number: i64,
    ) -> Result<Vec<IssueProperty>, ApiError> {
        let url = format!("{}/{}/-/issues/{}/property", self.base_url, repo, number);
        self.get(&url).await
    }

    /// 更新 Issue 属性。Update issue properties.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn update_issue_properties(
        &self,
        repo: &str,
        number: i64,
        body: &IssuePropertiesForm,
    ) -> Result<IssuePropertyUpdateResult, ApiError> {
        let url = format!("{}/{}/-/issues/{}/property", self.base_url, repo, number);
        self.patch_json(&url, body).await
    }

    /// 查询仓库可见自定义属性。Get repository visible custom properties.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_repo_visible_properties(
        &self,
        repo: &str,
    ) -> Result<Vec<RepoProperty>, ApiError> {
        let url = format!("{}/{}/-/property", self.base_url, repo);
        self.get(&url).await
    }

    /// 查询仓库隐藏自定义属性。Get hidden custom properties.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_repo_invisible_properties(
        &self,
        repo: &str,
        params: &ListRepoInvisiblePropertiesParams,
    ) -> Result<Vec<RepoProperty>, ApiError> {
        let url = format!("{}/{}/-/property/invisible", self.base_url, repo);
        self.get_with_query(&url, params).await
    }
}
