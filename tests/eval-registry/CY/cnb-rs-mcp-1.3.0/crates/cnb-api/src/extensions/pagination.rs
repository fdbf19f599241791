use crate::client::CnbClient;
use crate::error::ApiError;

/// Pagination extension trait
#[allow(async_fn_in_trait)]
pub trait CnbClientExt {
    /// 自动分页获取所有数据
    ///
    /// # Generic Parameters
    ///
    /// * `T` - The item type being paginated
    /// * `F` - The fetch function that takes (page, `page_size`) and returns a Future
    /// * `Fut` - The Future type returned by the fetch function
    ///
    /// # Errors
    ///
    /// Returns [`ApiError`] if any paginated request fails.
    async fn paginate<T, F, Fut>(&self, fetch: F) -> Result<Vec<T>, ApiError>
    where
        F: Fn(u32, u32) -> Fut,
        Fut: std::future::Future<Output = Result<Vec<T>, ApiError>>;

    /// 获取仓库所有提交（自动分页）
    async fn list_all_commits(
        &self,
        repo: &str,
    ) -> Result<Vec<crate::generated::types::Commit>, ApiError>;
}

impl CnbClientExt for CnbClient {
    async fn paginate<T, F, Fut>(&self, fetch: F) -> Result<Vec<T>, ApiError>
    where
        F: Fn(u32, u32) -> Fut,
        Fut: std::future::Future<Output = Result<Vec<T>, ApiError>>,
    {
        const PAGE_SIZE_U32: u32 = 100;
        const PAGE_SIZE_USIZE: usize = 100;
        let mut all = Vec::new();
        let mut page = 1u32;
        loop {
            let items = fetch(page, PAGE_SIZE_U32).await?;
            let count = items.len();
            all.extend(items);
            if count < PAGE_SIZE_USIZE {
                break;
            }
            page += 1;
        }
        Ok(all)
    }

    async fn list_all_commits(
        &self,
        repo: &str,
    ) -> Result<Vec<crate::generated::types::Commit>, ApiError> {
        self.paginate(|page, page_size| async move {
            let params = crate::generated::api::git::ListCommitsParams {
                page: Some(i64::from(page)),
                page_size: Some(i64::from(page_size)),
                ..Default::default()
            };
            self.list_commits(repo, &params).await
        })
        .await
    }
}
