use crate::client::CnbClient;
use crate::error::ApiError;
use crate::generated::types::ArtifactoryDtoTag;
use crate::generated::types::Package;
use crate::generated::types::PackageDetail;
use crate::generated::types::Provenance;
use crate::generated::types::Registry4User;
use crate::generated::types::TagDetail;
use crate::generated::types::UpdatePackageRequest;
use serde::Serialize;

/// 查询制品列表。 List all packages. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct ListPackagesParams {
    /// 制品类型。Type.
    #[serde(rename = "type")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub type_: Option<String>,
    /// 页码。Pagination page number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 页数。Pagination page size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
    /// 顺序类型。Ordering type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ordering: Option<String>,
    /// 关键字。Key word to search package name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// 获取制品标签详情。Get package tag details. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct GetPackageTagDetailParams {
    /// 摘要。Digest.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    /// 架构，docker制品必需，例: linux/amd64/v3。required for docker artifacts
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arch: Option<String>,
}

/// 查询制品标签列表。List package tags. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct ListPackageTagsParams {
    /// 页码。Pagination page number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 页数。Pagination page size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
    /// 顺序。Ordering type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ordering: Option<String>,
    /// 关键字。Key word to search tag name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tag_name: Option<String>,
}

/// 查询我的制品仓库。List my registries. 的请求参数
#[derive(Debug, Default, Clone, Serialize)]
pub struct GetGroupSubRegistriesParams {
    /// 页码。Page number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// 每页数量。Number of items per page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_size: Option<i64>,
    /// 制品仓库类型。Registry type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub registry_type: Option<String>,
    /// 制品仓库可见性类型。Registry visibility type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filter_type: Option<String>,
    /// 排序类型，默认`created_at`。Sort order, default `created_at`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order_by: Option<String>,
    /// 排序顺序。Sort order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub desc: Option<bool>,
    /// 查询范围。Query scope: all/current org/sub-org registries.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub descendant: Option<String>,
    /// 搜索关键字。Search keyword.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search: Option<String>,
}

impl CnbClient {
    /// 删除制品库。Delete the registry.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn delete_registry(&self, registry: &str) -> Result<(), ApiError> {
        let url = format!("{}/{}", self.base_url, registry);
        self.delete(&url).await
    }

    /// 查询制品列表。 List all packages.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_packages(
        &self,
        slug: &str,
        params: &ListPackagesParams,
    ) -> Result<Vec<Package>, ApiError> {
        let url = format!("{}/{}/-/packages", self.base_url, slug);
        self.get_with_query(&url, params).await
    }

    /// 获取指定制品的详细信息。 Get the package detail.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_package(
        &self,
        slug: &str,
        type_: &str,
        name: &str,
    ) -> Result<PackageDetail, ApiError> {
        let url = format!("{}/{}/-/packages/{}/{}", self.base_url, slug, type_, name);
        self.get(&url).await
    }

    /// 删除制品。Delete the specific package.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn delete_package(
        &self,
        slug: &str,
        type_: &str,
        name: &str,
    ) -> Result<(), ApiError> {
        let url = format!("{}/{}/-/packages/{}/{}", self.base_url, slug, type_, name);
        self.delete(&url).await
    }

    /// 更新制品描述。Update the description of the specific package.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn update_package_description(
        &self,
        slug: &str,
        type_: &str,
        name: &str,
        body: &UpdatePackageRequest,
    ) -> Result<(), ApiError> {
        let url = format!(
            "{}/{}/-/packages/{}/{}/-/description",
            self.base_url, slug, type_, name
        );
        self.put_json::<serde_json::Value, _>(&url, body).await?;
        Ok(())
    }

    /// 获取制品标签详情。Get package tag details.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_package_tag_detail(
        &self,
        slug: &str,
        type_: &str,
        name: &str,
        tag: &str,
        params: &GetPackageTagDetailParams,
    ) -> Result<TagDetail, ApiError> {
        let url = format!(
            "{}/{}/-/packages/{}/{}/-/tag/{}",
            self.base_url, slug, type_, name, tag
        );
        self.get_with_query(&url, params).await
    }

    /// 删除制品标签。Delete package tag.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn delete_package_tag(
        &self,
        slug: &str,
        type_: &str,
        name: &str,
        tag: &str,
    ) -> Result<(), ApiError> {
        let url = format!(
            "{}/{}/-/packages/{}/{}/-/tag/{}",
            self.base_url, slug, type_, name, tag
        );
        self.delete(&url).await
    }

    /// 获取制品标签溯源。Get package tag provenance.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_package_tag_provenance(
        &self,
        slug: &str,
        type_: &str,
        name: &str,
        tag: &str,
    ) -> Result<Provenance, ApiError> {
        let url = format!(
            "{}/{}/-/packages/{}/{}/-/tag/{}/provenance",
            self.base_url, slug, type_, name, tag
        );
        self.get(&url).await
    }

    /// 查询制品标签列表。List package tags.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn list_package_tags(
        &self,
        slug: &str,
        type_: &str,
        name: &str,
        params: &ListPackageTagsParams,
    ) -> Result<ArtifactoryDtoTag, ApiError> {
        let url = format!(
            "{}/{}/-/packages/{}/{}/-/tags",
            self.base_url, slug, type_, name
        );
        self.get_with_query(&url, params).await
    }

    /// 查询我的制品仓库。List my registries.
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_group_sub_registries(
        &self,
        slug: &str,
        params: &GetGroupSubRegistriesParams,
    ) -> Result<Vec<Registry4User>, ApiError> {
        let url = format!("{}/{}/-/registries", self.base_url, slug);
        self.get_with_query(&url, params).await
    }
}
