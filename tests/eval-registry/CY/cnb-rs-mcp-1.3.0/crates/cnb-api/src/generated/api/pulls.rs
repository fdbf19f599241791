use crate::client::CnbClient;
use crate::error::ApiError;
use crate::generated::types::Commit;
use crate::generated::types::CommitStatuses;
use crate::generated::types::DeletePullAssigneesForm;
use crate::generated::types::DeletePullReviewersForm;
use crate::generated::types::Label;
use crate::generated::types::MergePullRequest;
use crate::generated::types::MergePullResponse;
use crate::generated::types::PatchPullCommentForm;
use crate::generated::types::PatchPullRequest;
use crate::generated::types::PostPullAssigneesForm;
use crate::generated::types::PostPullLabelsForm;
use crate::generated::types::PostPullRequestReviewReplyForm;
use crate::generated::types::PostPullReviewersForm;
use crate::generated::types::Pull;
use crate::generated::types::PullCommentCreationForm;
use crate::generated::types::PullCreationForm;
use crate::generated::types::PullFile;
use crate::generated::types::PullRequest;
use crate::generated::types::PullRequestComment;
use crate::generated::types::PullRequestInfo;
use crate::generated::types::PullReview;
use crate::generated::types::PullReviewComment;
use crate::generated::types::PullReviewCreationForm;
use crate::generated::types::PutPullLabelsForm;
use crate::generated::types::UploadAssetsResponse;
use crate::generated::types::UploadRequestParams;
use crate::generated::types::UserInfo;
use serde::Serialize;

/// 批量查询合并请求。Batch get pull requests. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct ListPullsByNumbersParams {
    /// Pull唯一标识编号
    #[serde(skip_serializing_if = "Option::is_none")]
    /// MANUAL FIX (P14)：`collectionFormat: csv`，逗号分隔的编号字符串（如 `"12,34"`）；`serde_urlencoded` 不能序列化数组
    pub n: Option<String>,
}

/// 查询合并请求列表。List pull requests. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct ListPullsParams {
    /// 分页页码。Page number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 分页页大小。Page size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
    /// 合并请求状态过滤。可选值：`open`,`closed`,`all`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// 作者名称过滤。示例值：`张三,李四`. Author name filter. Example: `Zhang San,Li Si`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub authors: Option<String>,
    /// 评审人名称过滤，-表示无评审人。示例值：`张三,李四`,`-`. Reviewer name filter, - means no reviewer. Example: `Zhang San,Li Si`,`-`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reviewers: Option<String>,
    /// 评审者操作符。示例值：`contains_any`,`contains_all`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reviewers_operator: Option<String>,
    /// 处理人名称过滤，-表示无处理人。示例值：`张三,李四`,`-`. Assignee name filter, - means no assignee. Example: `Zhang San,Li Si`,`-`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assignees: Option<String>,
    /// 处理人操作符。示例值：`contains_any`,`contains_all`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assignees_operator: Option<String>,
    /// 标签过滤。示例值：`git,bug,feature`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub labels: Option<String>,
    /// 标签操作符。示例值：`contains_any`,`contains_all`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub labels_operator: Option<String>,
    /// 目标分支引用。示例值：`master`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base_ref: Option<String>,
    /// 合并请求更新时间范围开始。示例：`2022-01-31`. PR update time range start. Example: `2022-01-31`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_time_begin: Option<String>,
    /// 合并请求更新时间范围结束。示例：`2022-02-16`. PR update time range end. Example: `2022-02-16`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_time_end: Option<String>,
    /// 合并请求排序字段，-前缀表示倒序。可选值：`created_at`,`-created_at`,`-updated_at`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order_by: Option<String>,
}

/// 查询合并请求评论列表。List pull request comments. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct ListPullCommentsParams {
    /// 分页页码。Page number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 分页页大小。Page size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
}

/// 查询合并请求提交列表。List pull request commits. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct ListPullCommitsParams {
    /// 分页页码。Page number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 分页页大小。Page size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
}

/// 查询合并请求标签。List pull request labels. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct ListPullLabelsParams {
    /// 分页页码。Page number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 分页页大小。Page size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
}

/// 查询合并请求评审列表。List pull request reviews. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct ListPullReviewsParams {
    /// 分页页码。Page number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 分页页大小。Page size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
}

/// 查询评审评论列表。List review comments. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct ListPullReviewCommentsParams {
    /// 分页页码。Page number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 分页页大小。Page size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
}

impl CnbClient {
    /// 获取合并请求文件。Get pull request files.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_pr_files(&self, repo: &str, file_path: &str) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/files/pulls/{}", self.base_url, repo, file_path);
        self.get::<serde_json::Value>(&url).await?;
        Ok(())
    }

    /// 删除上传附件。Delete uploaded file.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn delete_repo_files(&self, repo: &str, file_path: &str) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/files/{}", self.base_url, repo, file_path);
        self.delete(&url).await
    }

    /// 获取合并请求图片。Get pull request images.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_pr_imgs(&self, repo: &str, img_path: &str) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/imgs/pulls/{}", self.base_url, repo, img_path);
        self.get::<serde_json::Value>(&url).await?;
        Ok(())
    }

    /// 删除上传图片。Delete uploaded image.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn delete_repo_imgs(&self, repo: &str, img_path: &str) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/imgs/{}", self.base_url, repo, img_path);
        self.delete(&url).await
    }

    /// 批量查询合并请求。Batch get pull requests.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_pulls_by_numbers(
        &self,
        repo: &str,
        params: &ListPullsByNumbersParams,
    ) -> Result<Vec<PullRequestInfo>, ApiError> {
        let url = format!("{}/{}/-/pull-in-batch", self.base_url, repo);
        self.get_with_query(&url, params).await
    }

    /// 查询合并请求列表。List pull requests.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_pulls(
        &self,
        repo: &str,
        params: &ListPullsParams,
    ) -> Result<Vec<PullRequest>, ApiError> {
        let url = format!("{}/{}/-/pulls", self.base_url, repo);
        self.get_with_query(&url, params).await
    }

    /// 创建合并请求。Create pull request.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn post_pull(&self, repo: &str, body: &PullCreationForm) -> Result<Pull, ApiError> {
        let url = format!("{}/{}/-/pulls", self.base_url, repo);
        self.post_json(&url, body).await
    }

    /// 获取合并请求。Get pull request.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_pull(&self, repo: &str, number: &str) -> Result<Pull, ApiError> {
        let url = format!("{}/{}/-/pulls/{}", self.base_url, repo, number);
        self.get(&url).await
    }

    /// 更新合并请求。Update pull request.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn patch_pull(
        &self,
        repo: &str,
        number: &str,
        body: &PatchPullRequest,
    ) -> Result<Pull, ApiError> {
        let url = format!("{}/{}/-/pulls/{}", self.base_url, repo, number);
        self.patch_json(&url, body).await
    }

    /// 查询合并请求处理人。List pull request assignees.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_pull_assignees(
        &self,
        repo: &str,
        number: &str,
    ) -> Result<Vec<UserInfo>, ApiError> {
        let url = format!("{}/{}/-/pulls/{}/assignees", self.base_url, repo, number);
        self.get(&url).await
    }

    /// 添加合并请求处理人。Add pull request assignees.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn post_pull_assignees(
        &self,
        repo: &str,
        number: &str,
        body: &PostPullAssigneesForm,
    ) -> Result<Pull, ApiError> {
        let url = format!("{}/{}/-/pulls/{}/assignees", self.base_url, repo, number);
        self.post_json(&url, body).await
    }

    /// 移除合并请求处理人。Remove pull request assignee.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn delete_pull_assignees(
        &self,
        repo: &str,
        number: &str,
        body: &DeletePullAssigneesForm,
    ) -> Result<Pull, ApiError> {
        let url = format!("{}/{}/-/pulls/{}/assignees", self.base_url, repo, number);
        self.delete_with_body_and_response(&url, body).await
    }

    /// 检查用户可分配性。Check user assignability.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn can_user_be_assigned_to_pull(
        &self,
        repo: &str,
        number: &str,
        assignee: &str,
    ) -> Result<(), ApiError> {
        let url = format!(
            "{}/{}/-/pulls/{}/assignees/{}",
            self.base_url, repo, number, assignee
        );
        self.get::<serde_json::Value>(&url).await?;
        Ok(())
    }

    /// 查询合并请求评论列表。List pull request comments.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_pull_comments(
        &self,
        repo: &str,
        number: &str,
        params: &ListPullCommentsParams,
    ) -> Result<Vec<PullRequestComment>, ApiError> {
        let url = format!("{}/{}/-/pulls/{}/comments", self.base_url, repo, number);
        self.get_with_query(&url, params).await
    }

    /// 创建合并请求评论。Create pull request comment.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn post_pull_comment(
        &self,
        repo: &str,
        number: &str,
        body: &PullCommentCreationForm,
    ) -> Result<PullRequestComment, ApiError> {
        let url = format!("{}/{}/-/pulls/{}/comments", self.base_url, repo, number);
        self.post_json(&url, body).await
    }

    /// 获取合并请求评论。Get pull request comment.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_pull_comment(
        &self,
        repo: &str,
        number: &str,
        comment_id: i64,
    ) -> Result<PullRequestComment, ApiError> {
        let url = format!(
            "{}/{}/-/pulls/{}/comments/{}",
            self.base_url, repo, number, comment_id
        );
        self.get(&url).await
    }

    /// 更新合并请求评论。Update pull request comment.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn patch_pull_comment(
        &self,
        repo: &str,
        number: &str,
        comment_id: i64,
        body: &PatchPullCommentForm,
    ) -> Result<PullRequestComment, ApiError> {
        let url = format!(
            "{}/{}/-/pulls/{}/comments/{}",
            self.base_url, repo, number, comment_id
        );
        self.patch_json(&url, body).await
    }

    /// 查询合并请求状态检查。Get pull request status checks.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_pull_commit_statuses(
        &self,
        repo: &str,
        number: i64,
    ) -> Result<CommitStatuses, ApiError> {
        let url = format!(
            "{}/{}/-/pulls/{}/commit-statuses",
            self.base_url, repo, number
        );
        self.get(&url).await
    }

    /// 查询合并请求提交列表。List pull request commits.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_pull_commits(
        &self,
        repo: &str,
        number: &str,
        params: &ListPullCommitsParams,
    ) -> Result<Vec<Commit>, ApiError> {
        let url = format!("{}/{}/-/pulls/{}/commits", self.base_url, repo, number);
        self.get_with_query(&url, params).await
    }

    /// 查询合并请求文件列表。List pull request files.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_pull_files(
        &self,
        repo: &str,
        number: &str,
    ) -> Result<Vec<PullFile>, ApiError> {
        let url = format!("{}/{}/-/pulls/{}/files", self.base_url, repo, number);
        self.get(&url).await
    }

    /// 查询合并请求标签。List pull request labels.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_pull_labels(
        &self,
        repo: &str,
        number: i64,
        params: &ListPullLabelsParams,
    ) -> Result<Vec<Label>, ApiError> {
        let url = format!("{}/{}/-/pulls/{}/labels", self.base_url, repo, number);
        self.get_with_query(&url, params).await
    }

    /// 设置合并请求标签。Set pull request labels.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn put_pull_labels(
        &self,
        repo: &str,
        number: &str,
        body: &PutPullLabelsForm,
    ) -> Result<Label, ApiError> {
        let url = format!("{}/{}/-/pulls/{}/labels", self.base_url, repo, number);
        self.put_json(&url, body).await
    }

    /// 添加合并请求标签。Add pull request labels.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn post_pull_labels(
        &self,
        repo: &str,
        number: &str,
        body: &PostPullLabelsForm,
    ) -> Result<Label, ApiError> {
        let url = format!("{}/{}/-/pulls/{}/labels", self.base_url, repo, number);
        self.post_json(&url, body).await
    }

    /// 删除全部合并请求标签。Clear all pull request labels.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn delete_pull_labels(&self, repo: &str, number: &str) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/pulls/{}/labels", self.base_url, repo, number);
        self.delete(&url).await
    }

    /// 移除合并请求标签。Remove pull request label.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn delete_pull_label(
        &self,
        repo: &str,
        number: &str,
        name: &str,
    ) -> Result<Label, ApiError> {
        let url = format!(
            "{}/{}/-/pulls/{}/labels/{}",
            self.base_url, repo, number, name
        );
        self.delete_with_response(&url).await
    }

    /// 合并拉取请求。Merge pull request.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn merge_pull(
        &self,
        repo: &str,
        number: &str,
        body: &MergePullRequest,
    ) -> Result<MergePullResponse, ApiError> {
        let url = format!("{}/{}/-/pulls/{}/merge", self.base_url, repo, number);
        self.put_json(&url, body).await
    }

    /// 添加合并请求评审人。Add pull request reviewers.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn post_pull_reviewers(
        &self,
        repo: &str,
        number: &str,
        body: &PostPullReviewersForm,
    ) -> Result<Pull, ApiError> {
        let url = format!("{}/{}/-/pulls/{}/reviewers", self.base_url, repo, number);
        self.post_json(&url, body).await
    }

    /// 移除合并请求评审人。Remove pull request reviewer.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn delete_pull_reviewers(
        &self,
        repo: &str,
        number: &str,
        body: &DeletePullReviewersForm,
    ) -> Result<Pull, ApiError> {
        let url = format!("{}/{}/-/pulls/{}/reviewers", self.base_url, repo, number);
        self.delete_with_body_and_response(&url, body).await
    }

    /// 查询合并请求评审列表。List pull request reviews.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_pull_reviews(
        &self,
        repo: &str,
        number: &str,
        params: &ListPullReviewsParams,
    ) -> Result<Vec<PullReview>, ApiError> {
        let url = format!("{}/{}/-/pulls/{}/reviews", self.base_url, repo, number);
        self.get_with_query(&url, params).await
    }

    /// 创建合并请求评审。Create pull request review.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn post_pull_review(
        &self,
        repo: &str,
        number: &str,
        body: &PullReviewCreationForm,
    ) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/pulls/{}/reviews", self.base_url, repo, number);
        self.post_json::<serde_json::Value, _>(&url, body).await?;
        Ok(())
    }

    /// 查询评审评论列表。List review comments.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_pull_review_comments(
        &self,
        repo: &str,
        number: i64,
        review_id: i64,
        params: &ListPullReviewCommentsParams,
    ) -> Result<Vec<PullReviewComment>, ApiError> {
        let url = format!(
            "{}/{}/-/pulls/{}/reviews/{}/comments",
            self.base_url, repo, number, review_id
        );
        self.get_with_query(&url, params).await
    }

    /// 回复评审评论。Reply to review comment.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn post_pull_request_review_reply(
        &self,
        repo: &str,
        number: i64,
        review_id: i64,
        body: &PostPullRequestReviewReplyForm,
    ) -> Result<PullReviewComment, ApiError> {
        let url = format!(
            "{}/{}/-/pulls/{}/reviews/{}/replies",
            self.base_url, repo, number, review_id
        );
        self.post_json(&url, body).await
    }

    /// 上传文件。Upload files.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn upload_files(
        &self,
        repo: &str,
        body: &UploadRequestParams,
    ) -> Result<UploadAssetsResponse, ApiError> {
        let url = format!("{}/{}/-/upload/files", self.base_url, repo);
        self.post_json(&url, body).await
    }

    /// 上传图片。Upload images.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn upload_imgs(
        &self,
        repo: &str,
        body: &UploadRequestParams,
    ) -> Result<UploadAssetsResponse, ApiError> {
        let url = format!("{}/{}/-/upload/imgs", self.base_url, repo);
        self.post_json(&url, body).await
    }
}
