use crate::client::CnbClient;
use crate::error::ApiError;
use crate::generated::types::ApiTag;
use crate::generated::types::BffApiCommitStatus;
use crate::generated::types::Blob;
use crate::generated::types::Branch;
use crate::generated::types::BranchDetail;
use crate::generated::types::Commit;
use crate::generated::types::CommitAnnotation;
use crate::generated::types::CommitAnnotationInBatch;
use crate::generated::types::CommitAsset;
use crate::generated::types::CommitAssetUploadURL;
use crate::generated::types::CompareResponse;
use crate::generated::types::Content;
use crate::generated::types::CreateBranchForm;
use crate::generated::types::GetCommitAnnotationsInBatchForm;
use crate::generated::types::HeadRef;
use crate::generated::types::PostBlobForm;
use crate::generated::types::PostCommitAssetUploadURLForm;
use crate::generated::types::PostTagFrom;
use crate::generated::types::PutCommitAnnotationsForm;
use crate::generated::types::PutTagAnnotationsForm;
use crate::generated::types::TagAnnotation;
use serde::Serialize;

/// 下载 Commit 附件。Download commit attachments. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct GetCommitAssetsParams {
    /// 是否可下载;302跳转12h有效最多10次。Downloadable;302 valid 12h,max 10 downloads.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub share: Option<bool>,
}

/// 查询分支列表。List branches. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct ListBranchesParams {
    /// 分页页码。Page number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 分页页大小。Page size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
    /// 分支名称关键字，按分支名过滤。Branch name keyword, filter by branch name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
}

/// 确认提交附件上传。Confirm commit asset upload. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct PostCommitAssetUploadConfirmationParams {
    /// 附件保持的天数。0 表示永久，最大不能超过 180 天. Attachment retention days. 0 means permanent, max 180 days.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ttl: Option<i64>,
}

/// 查询提交列表。List commits. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct ListCommitsParams {
    /// 提交标识符。格式：`分支名称`,`提交哈希值`. Commit identifier. Format: `branch_name`,`commit_hash`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sha: Option<String>,
    /// 作者匹配模式，支持Git原生正则表达式匹配作者信息。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    /// 提交者匹配模式，支持Git原生正则表达式匹配提交者信息。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub committer: Option<String>,
    /// 提交时间起始范围。示例：`2025-01-01T00:00:00Z`. Commit time range start. Example: `2025-01-01T00:00:00Z`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub since: Option<String>,
    /// 提交时间结束范围。示例：`2025-12-31T23:59:59Z`. Commit time range end. Example: `2025-12-31T23:59:59Z`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub until: Option<String>,
    /// 分页页码。Page number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 分页页大小。Page size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
}

/// 查询仓库根目录内容。Get repository root contents. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct GetContentWithoutPathParams {
    /// 提交的哈希值或分支名称。Commit hash or branch name.
    #[serde(rename = "ref")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ref_: Option<String>,
}

/// 查询仓库文件内容。Get repository file content. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct GetContentParams {
    /// 提交的哈希值或分支名称。Commit hash or branch name.
    #[serde(rename = "ref")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ref_: Option<String>,
}

/// 获取文件原始内容。Get raw file content. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct GetRawParams {
    /// 获得文件内容大小限制（字节），0表示使用`gitConfig.RawFileLimitInByte`配置值。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_in_byte: Option<i64>,
}

/// 查询标签列表。List tags. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct ListTagsParams {
    /// 分页页码。Page number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 分页页大小。Page size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
}

/// 获取 LFS 文件下载链接。Get LFS file download URL. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct GetPresignedLFSDownloadLinkParams {
    /// LFS文件名称。未提供时默认使用oid作为文件名。
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

impl CnbClient {
    /// 下载 Commit 附件。Download commit attachments.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_commit_assets(
        &self,
        repo: &str,
        commit_id: &str,
        filename: &str,
        params: &GetCommitAssetsParams,
    ) -> Result<String, ApiError> {
        let url = format!(
            "{}/{}/-/commit-assets/download/{}/{}",
            self.base_url, repo, commit_id, filename
        );
        let url = Self::append_query(url, params);
        self.get_text(&url).await
    }

    /// 下载提交变更文件。Download changed files.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_archive_commit_changed_files(
        &self,
        repo: &str,
        sha1: &str,
    ) -> Result<String, ApiError> {
        let url = format!(
            "{}/{}/-/git/archive-commit-changed-files/{}",
            self.base_url, repo, sha1
        );
        self.get_text(&url).await
    }

    /// 下载比较变更文件。Download compared changed files.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_archive_compare_changed_files(
        &self,
        repo: &str,
        base_head: &str,
    ) -> Result<String, ApiError> {
        let url = format!(
            "{}/{}/-/git/archive-compare-changed-files/{}",
            self.base_url, repo, base_head
        );
        self.get_text(&url).await
    }

    /// 下载仓库归档。Download repository archive.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_archive(&self, repo: &str, ref_with_path: &str) -> Result<String, ApiError> {
        let url = format!("{}/{}/-/git/archive/{}", self.base_url, repo, ref_with_path);
        self.get_text(&url).await
    }

    /// 创建 Blob 对象。Create blob object.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn create_blob(&self, repo: &str, body: &PostBlobForm) -> Result<Blob, ApiError> {
        let url = format!("{}/{}/-/git/blobs", self.base_url, repo);
        self.post_json(&url, body).await
    }

    /// 锁定分支。Lock branch.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn create_branch_lock(&self, repo: &str, branch: &str) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/git/branch-locks/{}", self.base_url, repo, branch);
        self.post_json::<serde_json::Value, _>(
            &url,
            &serde_json::Value::Object(serde_json::Map::new()),
        )
        .await?;
        Ok(())
    }

    /// 解锁分支。Unlock branch.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn delete_branch_lock(&self, repo: &str, branch: &str) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/git/branch-locks/{}", self.base_url, repo, branch);
        self.delete(&url).await
    }

    /// 查询分支列表。List branches.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_branches(
        &self,
        repo: &str,
        params: &ListBranchesParams,
    ) -> Result<Vec<Branch>, ApiError> {
        let url = format!("{}/{}/-/git/branches", self.base_url, repo);
        self.get_with_query(&url, params).await
    }

    /// 创建分支。Create branch.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn create_branch(&self, repo: &str, body: &CreateBranchForm) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/git/branches", self.base_url, repo);
        self.post_json::<serde_json::Value, _>(&url, body).await?;
        Ok(())
    }

    /// 获取分支。Get branch.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_branch(&self, repo: &str, branch: &str) -> Result<BranchDetail, ApiError> {
        let url = format!("{}/{}/-/git/branches/{}", self.base_url, repo, branch);
        self.get(&url).await
    }

    /// 删除分支。Delete branch.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn delete_branch(&self, repo: &str, branch: &str) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/git/branches/{}", self.base_url, repo, branch);
        self.delete(&url).await
    }

    /// 批量查询提交元数据。Batch get commit annotations.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_commit_annotations_in_batch(
        &self,
        repo: &str,
        body: &GetCommitAnnotationsInBatchForm,
    ) -> Result<Vec<CommitAnnotationInBatch>, ApiError> {
        let url = format!(
            "{}/{}/-/git/commit-annotations-in-batch",
            self.base_url, repo
        );
        self.post_json(&url, body).await
    }

    /// 查询提交元数据。Get commit annotations.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_commit_annotations(
        &self,
        repo: &str,
        sha: &str,
    ) -> Result<Vec<CommitAnnotation>, ApiError> {
        let url = format!(
            "{}/{}/-/git/commit-annotations/{}",
            self.base_url, repo, sha
        );
        self.get(&url).await
    }

    /// 设置提交元数据。Set commit annotations.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn put_commit_annotations(
        &self,
        repo: &str,
        sha: &str,
        body: &PutCommitAnnotationsForm,
    ) -> Result<(), ApiError> {
        let url = format!(
            "{}/{}/-/git/commit-annotations/{}",
            self.base_url, repo, sha
        );
        self.put_json::<serde_json::Value, _>(&url, body).await?;
        Ok(())
    }

    /// 删除提交元数据。Delete commit annotations.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn delete_commit_annotation(
        &self,
        repo: &str,
        sha: &str,
        key: &str,
    ) -> Result<(), ApiError> {
        let url = format!(
            "{}/{}/-/git/commit-annotations/{}/{}",
            self.base_url, repo, sha, key
        );
        self.delete(&url).await
    }

    /// 查询提交附件列表。List commit assets.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_commit_assets_by_sha(
        &self,
        repo: &str,
        sha1: &str,
    ) -> Result<Vec<CommitAsset>, ApiError> {
        let url = format!("{}/{}/-/git/commit-assets/{}", self.base_url, repo, sha1);
        self.get(&url).await
    }

    /// 确认提交附件上传。Confirm commit asset upload.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn post_commit_asset_upload_confirmation(
        &self,
        repo: &str,
        sha1: &str,
        upload_token: &str,
        asset_path: &str,
        params: &PostCommitAssetUploadConfirmationParams,
    ) -> Result<(), ApiError> {
        let url = format!(
            "{}/{}/-/git/commit-assets/{}/asset-upload-confirmation/{}/{}",
            self.base_url, repo, sha1, upload_token, asset_path
        );
        let url = Self::append_query(url, params);
        self.post_json::<serde_json::Value, _>(
            &url,
            &serde_json::Value::Object(serde_json::Map::new()),
        )
        .await?;
        Ok(())
    }

    /// 获取提交附件上传地址。Get commit asset upload URL.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn post_commit_asset_upload_url(
        &self,
        repo: &str,
        sha1: &str,
        body: &PostCommitAssetUploadURLForm,
    ) -> Result<CommitAssetUploadURL, ApiError> {
        let url = format!(
            "{}/{}/-/git/commit-assets/{}/asset-upload-url",
            self.base_url, repo, sha1
        );
        self.post_json(&url, body).await
    }

    /// 删除提交附件。Delete commit asset.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn delete_commit_asset(
        &self,
        repo: &str,
        sha1: &str,
        asset_id: &str,
    ) -> Result<(), ApiError> {
        let url = format!(
            "{}/{}/-/git/commit-assets/{}/{}",
            self.base_url, repo, sha1, asset_id
        );
        self.delete(&url).await
    }

    /// 查询提交状态检查。Get commit statuses.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_commit_statuses(
        &self,
        repo: &str,
        commitish: &str,
    ) -> Result<Vec<BffApiCommitStatus>, ApiError> {
        let url = format!(
            "{}/{}/-/git/commit-statuses/{}",
            self.base_url, repo, commitish
        );
        self.get(&url).await
    }

    /// 查询提交列表。List commits.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_commits(
        &self,
        repo: &str,
        params: &ListCommitsParams,
    ) -> Result<Vec<Commit>, ApiError> {
        let url = format!("{}/{}/-/git/commits", self.base_url, repo);
        self.get_with_query(&url, params).await
    }

    /// 获取提交。Get commit.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_commit(&self, repo: &str, ref_: &str) -> Result<Commit, ApiError> {
        let url = format!("{}/{}/-/git/commits/{}", self.base_url, repo, ref_);
        self.get(&url).await
    }

    /// 比较提交差异。Compare commits.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_compare_commits(
        &self,
        repo: &str,
        base_head: &str,
    ) -> Result<CompareResponse, ApiError> {
        let url = format!("{}/{}/-/git/compare/{}", self.base_url, repo, base_head);
        self.get(&url).await
    }

    /// 查询仓库根目录内容。Get repository root contents.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_content_without_path(
        &self,
        repo: &str,
        params: &GetContentWithoutPathParams,
    ) -> Result<Content, ApiError> {
        let url = format!("{}/{}/-/git/contents", self.base_url, repo);
        self.get_with_query(&url, params).await
    }

    /// 查询仓库文件内容。Get repository file content.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_content(
        &self,
        repo: &str,
        file_path: &str,
        params: &GetContentParams,
    ) -> Result<Content, ApiError> {
        let url = format!("{}/{}/-/git/contents/{}", self.base_url, repo, file_path);
        self.get_with_query(&url, params).await
    }

    /// 获取默认分支。Get default branch.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_head(&self, repo: &str) -> Result<HeadRef, ApiError> {
        let url = format!("{}/{}/-/git/head", self.base_url, repo);
        self.get(&url).await
    }

    /// 获取文件原始内容。Get raw file content.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_raw(
        &self,
        repo: &str,
        ref_with_path: &str,
        params: &GetRawParams,
    ) -> Result<String, ApiError> {
        let url = format!("{}/{}/-/git/raw/{}", self.base_url, repo, ref_with_path);
        self.get_with_query(&url, params).await
    }

    /// 删除标签元数据。Delete tag annotations.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn delete_tag_annotation(
        &self,
        repo: &str,
        tag_with_key: &str,
    ) -> Result<(), ApiError> {
        let url = format!(
            "{}/{}/-/git/tag-annotations/{}",
            self.base_url, repo, tag_with_key
        );
        self.delete(&url).await
    }

    /// 查询标签元数据。Get tag annotations.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_tag_annotations(
        &self,
        repo: &str,
        tag: &str,
    ) -> Result<Vec<TagAnnotation>, ApiError> {
        let url = format!("{}/{}/-/git/tag-annotations/{}", self.base_url, repo, tag);
        self.get(&url).await
    }

    /// 设置标签元数据。Set tag annotations.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn put_tag_annotations(
        &self,
        repo: &str,
        tag: &str,
        body: &PutTagAnnotationsForm,
    ) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/git/tag-annotations/{}", self.base_url, repo, tag);
        self.put_json::<serde_json::Value, _>(&url, body).await?;
        Ok(())
    }

    /// 查询标签列表。List tags.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_tags(
        &self,
        repo: &str,
        params: &ListTagsParams,
    ) -> Result<Vec<ApiTag>, ApiError> {
        let url = format!("{}/{}/-/git/tags", self.base_url, repo);
        self.get_with_query(&url, params).await
    }

    /// 创建标签。Create tag.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn create_tag(&self, repo: &str, body: &PostTagFrom) -> Result<ApiTag, ApiError> {
        let url = format!("{}/{}/-/git/tags", self.base_url, repo);
        self.post_json(&url, body).await
    }

    /// 获取标签。Get tag.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_tag(&self, repo: &str, tag: &str) -> Result<ApiTag, ApiError> {
        let url = format!("{}/{}/-/git/tags/{}", self.base_url, repo, tag);
        self.get(&url).await
    }

    /// 删除标签。Delete tag.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn delete_tag(&self, repo: &str, tag: &str) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/git/tags/{}", self.base_url, repo, tag);
        self.delete(&url).await
    }

    /// 获取 LFS 文件下载链接。Get LFS file download URL.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_presigned_lfs_download_link(
        &self,
        slug: &str,
        oid: &str,
        params: &GetPresignedLFSDownloadLinkParams,
    ) -> Result<String, ApiError> {
        let url = format!("{}/{}/-/lfs/{}", self.base_url, slug, oid);
        let url = Self::append_query(url, params);
        self.get_text(&url).await
    }
}
