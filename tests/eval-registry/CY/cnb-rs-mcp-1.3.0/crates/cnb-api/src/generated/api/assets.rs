use crate::client::CnbClient;
use crate::error::ApiError;
use crate::generated::types::AssetRecords;
use serde::Serialize;

/// 获取仓库 asset 记录列表。Get repository asset records. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct ListAssetsParams {
    /// 第几页，从1开始。Page number, starting from 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 每页多少条数据。Number of items per page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
}

impl CnbClient {
    /// 删除 asset 记录。Delete an asset record by ID.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn delete_asset(&self, repo: &str, asset_id: i64) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/assets/{}", self.base_url, repo, asset_id);
        self.delete(&url).await
    }

    /// 获取 Issue/PR 文件。Get issue/PR files.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_files(&self, repo: &str, file_path: &str) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/files/{}", self.base_url, repo, file_path);
        self.get::<serde_json::Value>(&url).await?;
        Ok(())
    }

    /// 获取 Issue/PR 图片。Get issue/PR images.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_imgs(&self, repo: &str, img_path: &str) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/imgs/{}", self.base_url, repo, img_path);
        self.get::<serde_json::Value>(&url).await?;
        Ok(())
    }

    /// 获取仓库 asset 记录列表。Get repository asset records.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_assets(
        &self,
        slug: &str,
        params: &ListAssetsParams,
    ) -> Result<Vec<AssetRecords>, ApiError> {
        let url = format!("{}/{}/-/list-assets", self.base_url, slug);
        self.get_with_query(&url, params).await
    }
}
