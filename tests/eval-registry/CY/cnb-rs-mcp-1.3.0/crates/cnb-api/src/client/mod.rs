//! CNB API HTTP 客户端

use crate::error::ApiError;
use crate::generated::types::Content;
use crate::types::User;
use reqwest::header::{ACCEPT, AUTHORIZATION, HeaderMap, HeaderValue};

/// CNB API 客户端
pub struct CnbClient {
    pub(crate) http: reqwest::Client,
    pub(crate) http_plain: reqwest::Client,
    pub(crate) base_url: String,
    pub(crate) base_web_url: String,
    pub(crate) token: String,
    pub(crate) repo: String,
}

impl CnbClient {
    /// 创建新的 CNB API 客户端
    ///
    /// # Errors
    ///
    /// Returns [`ApiError`] if the authorization header is invalid or the underlying
    /// HTTP client cannot be constructed.
    pub fn new(
        base_url: &str,
        base_web_url: &str,
        token: &str,
        repo: &str,
    ) -> Result<Self, ApiError> {
        let mut headers = HeaderMap::new();
        headers.insert(
            ACCEPT,
            HeaderValue::from_static("application/vnd.cnb.api+json"),
        );
        if !token.is_empty() {
            let auth_value = format!("Bearer {token}");
            headers.insert(
                AUTHORIZATION,
                HeaderValue::from_str(&auth_value).map_err(|e| ApiError::Auth {
                    message: e.to_string(),
                    trace_id: None,
                })?,
            );
        }

        let http = reqwest::Client::builder()
            .default_headers(headers)
            .build()?;

        let http_plain = reqwest::Client::new();

        Ok(Self {
            http,
            http_plain,
            // 去除末尾 `/`，与 generated 代码的 `{base_url}/{path}` 拼接模板对齐
            base_url: base_url.trim_end_matches('/').to_string(),
            base_web_url: base_web_url.to_string(),
            token: token.to_string(),
            repo: repo.to_string(),
        })
    }

    #[must_use]
    pub fn base_url(&self) -> &str {
        &self.base_url
    }
    #[must_use]
    pub fn base_web_url(&self) -> &str {
        &self.base_web_url
    }
    #[must_use]
    pub fn repo(&self) -> &str {
        &self.repo
    }
    #[must_use]
    pub fn token(&self) -> &str {
        &self.token
    }

    /// 获取无默认认证头的 HTTP 客户端引用（用于外部模块复用连接池）
    #[must_use]
    pub fn http_client(&self) -> &reqwest::Client {
        &self.http_plain
    }

    /// 获取当前用户信息（薄 wrapper for `users::get_user_info`）。
    ///
    /// **为什么保留**：与 generated 的 `users::get_user_info` 走同一 endpoint `GET /user`，
    /// 但返回手写 [`User`] 而非 generated `UsersResult`。`User` 字段命名更贴合 CLI 使用习惯，
    /// 且 `client.me()` 已被 8+ 命令依赖。等手写 [`User`] 被删除 / 迁移至 generated 类型时
    /// 可一并去掉本方法。
    ///
    /// 治理规则参见 `crates/cnb-api/CONTRIBUTING.md`。
    ///
    /// # Errors
    ///
    /// Returns [`ApiError`] if the request fails, the response cannot be deserialized,
    /// or the CNB API returns a non-success status.
    pub async fn me(&self) -> Result<User, ApiError> {
        let url = format!("{}/user", self.base_url);
        let resp = self.send_with_retry(|| self.http.get(&url)).await?;
        Self::handle_response(resp).await
    }

    /// 文件内容拉取的便捷 wrapper（供 download 命令使用）。
    ///
    /// **为什么保留**：generated `git::get_content` 需要构造 `GetContentParams`，
    /// 而 download 场景只关心 `ref`，本 wrapper 把参数封装收敛在一处，避免每个调用方重复样板。
    /// URL 仍走 generated，不引入新 endpoint。
    ///
    /// 治理规则参见 `crates/cnb-api/CONTRIBUTING.md`。
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体反序列化失败时返回 [`ApiError`]。
    pub async fn get_content_for_download(
        &self,
        path: &str,
        git_ref: &str,
    ) -> Result<Content, ApiError> {
        let params = crate::generated::api::git::GetContentParams {
            ref_: Some(git_ref.to_string()),
        };
        self.get_content(&self.repo, path, &params).await
    }

    /// 列出仓库 badges（合法 wrapper）。
    ///
    /// **为什么保留**：generated `list_badge` 声明返 `ListBadgeResult { badges: Vec<Badge> }` 对象，
    /// 但 CNB 后端**实际返裸 `[Badge, ...]` 数组**（swagger 与实际不符），
    /// generated 反序列化抛 `invalid type: map, expected a sequence`。
    /// 本 wrapper 直接 deserialize 成 `Vec<Badge>` 绕开 swagger 错。
    ///
    /// 治理规则参见 `crates/cnb-api/CONTRIBUTING.md`、`crates/cnb-api/PATCHES.md` P5。
    ///
    /// # Errors
    ///
    /// 请求发送失败、服务端返回非 2xx 或响应体无法反序列化为 badge 列表时返回 [`ApiError`]。
    pub async fn list_badges_v2(
        &self,
        repo: &str,
    ) -> Result<Vec<crate::generated::types::Badge>, ApiError> {
        let url = format!("{}/{}/-/badge/list", self.base_url, repo);
        self.get(&url).await
    }

    /// 获取 badge 响应原文（合法 wrapper）。
    ///
    /// **为什么保留**：CNB badge 端点的两个非常规设计 generated 都无法表达：
    /// 1. **dual-mode 响应**：badge 名不带 `.json` 后缀返 SVG XML；带 `.json` 后缀返
    ///    `GetBadgeResult` JSON。swagger summary 里写「svg 或 JSON 数据」但 200 schema
    ///    只声明了 JSON 那一支，default mode 是 SVG 与 schema 不符，generated 反序列化抛错。
    /// 2. **branch query**：swagger 把 `branch` 字段放在 GET body 里（不寻常），codegen
    ///    遵守 HTTP 惯例忽略 GET body，但 CNB 实际通过 `?branch=` query 接受（GET body
    ///    返 HTTP 400）。
    ///
    /// 本 wrapper 走 `get_text` 拿响应原文（调用方决定 badge 名是否加 `.json` 后缀），
    /// 并支持可选 branch query。
    ///
    /// 治理规则参见 `crates/cnb-api/CONTRIBUTING.md`、`crates/cnb-api/PATCHES.md` P11。
    ///
    /// # Errors
    ///
    /// 请求发送或响应体读取失败，或服务端返回非 2xx 状态时返回 [`ApiError`]。
    pub async fn get_badge_svg(
        &self,
        repo: &str,
        sha: &str,
        badge: &str,
        branch: Option<&str>,
    ) -> Result<String, ApiError> {
        let mut url = format!("{}/{}/-/badge/git/{}/{}", self.base_url, repo, sha, badge);
        if let Some(b) = branch
            && !b.is_empty()
        {
            url.push_str("?branch=");
            url.push_str(&urlencoding::encode(b));
        }
        self.get_text(&url).await
    }

    /// 拿仓库指定文件的原始内容（合法 wrapper）。
    ///
    /// **为什么保留**：generated `git::get_raw` 把响应套上 `get_with_query::<String, _>`
    /// （JSON 反序列化），但 `/{repo}/-/git/raw/{ref}/{path}` 端点服务端实际返**裸文本**
    /// （markdown / 源码 / 任意 mime）。`serde_json::from_str` 对非 JSON 字面量抛
    /// `invalid number at line 1 column 2`，导致 generated 函数对绝大多数文件不可用
    /// （除非内容恰好是合法 JSON 字面量，例如 `"42"` 这种）。
    ///
    /// 本 wrapper 走 `get_text` 直接拿响应原文，绕过 JSON 反序列化。
    /// CLI 端 `src/commands/repo/file/raw.rs` 及 `cnb-skills` fetcher 调本 wrapper。
    ///
    /// 治理规则参见 `crates/cnb-api/CONTRIBUTING.md`、`crates/cnb-api/PATCHES.md` P9。
    ///
    /// # Errors
    ///
    /// 请求发送或响应体读取失败，或服务端返回非 2xx 状态时返回 [`ApiError`]。
    pub async fn get_raw_text(
        &self,
        repo: &str,
        ref_with_path: &str,
        params: &crate::generated::api::git::GetRawParams,
    ) -> Result<String, ApiError> {
        let url = format!("{}/{}/-/git/raw/{}", self.base_url, repo, ref_with_path);
        let full_url = Self::append_query(url, params);
        self.get_text(&full_url).await
    }

    // ==================== Generated API helpers ====================

    /// GET 请求（供生成代码调用）
    pub(crate) async fn get<T: serde::de::DeserializeOwned>(
        &self,
        url: &str,
    ) -> Result<T, ApiError> {
        let resp = self.send_with_retry(|| self.http.get(url)).await?;
        Self::handle_response(resp).await
    }

    /// GET 请求（带 query 参数，供生成代码调用）
    pub(crate) async fn get_with_query<T: serde::de::DeserializeOwned, Q: serde::Serialize>(
        &self,
        url: &str,
        query: &Q,
    ) -> Result<T, ApiError> {
        let query_string = serde_urlencoded::to_string(query).unwrap_or_default();
        let full_url = if query_string.is_empty() {
            url.to_string()
        } else {
            format!("{url}?{query_string}")
        };
        let resp = self.send_with_retry(|| self.http.get(&full_url)).await?;
        Self::handle_response(resp).await
    }

    /// POST 请求（JSON body，供生成代码调用）
    pub(crate) async fn post_json<T: serde::de::DeserializeOwned, B: serde::Serialize>(
        &self,
        url: &str,
        body: &B,
    ) -> Result<T, ApiError> {
        let resp = self.http.post(url).json(body).send().await?;
        Self::handle_response(resp).await
    }

    /// PUT 请求（JSON body，供生成代码调用）
    pub(crate) async fn put_json<T: serde::de::DeserializeOwned, B: serde::Serialize>(
        &self,
        url: &str,
        body: &B,
    ) -> Result<T, ApiError> {
        let resp = self.http.put(url).json(body).send().await?;
        Self::handle_response(resp).await
    }

    /// PATCH 请求（JSON body，供生成代码调用）
    pub(crate) async fn patch_json<T: serde::de::DeserializeOwned, B: serde::Serialize>(
        &self,
        url: &str,
        body: &B,
    ) -> Result<T, ApiError> {
        let resp = self.http.patch(url).json(body).send().await?;
        Self::handle_response(resp).await
    }

    /// DELETE 请求（无返回体，供生成代码调用）
    pub(crate) async fn delete(&self, url: &str) -> Result<(), ApiError> {
        let resp = self.http.delete(url).send().await?;
        Self::handle_empty_response(resp).await
    }

    /// DELETE 请求（有返回体，供生成代码调用）
    pub(crate) async fn delete_with_response<T: serde::de::DeserializeOwned>(
        &self,
        url: &str,
    ) -> Result<T, ApiError> {
        let resp = self.http.delete(url).send().await?;
        Self::handle_response(resp).await
    }

    /// DELETE 请求（JSON body + 返回体，供生成代码调用）
    pub(crate) async fn delete_with_body_and_response<
        T: serde::de::DeserializeOwned,
        B: serde::Serialize,
    >(
        &self,
        url: &str,
        body: &B,
    ) -> Result<T, ApiError> {
        let resp = self.http.delete(url).json(body).send().await?;
        Self::handle_response(resp).await
    }

    /// GET 请求返回原始文本响应体（非 JSON 接口用，如日志下载、文件 raw 内容）
    ///
    /// 与 `get` 的区别：不尝试 JSON 解析，直接返 utf8 字符串。
    /// CNB 部分接口（如 `/-/build/runner/download/log/{pipeline_id}`）服务端返
    /// 原始文本日志而非 JSON，用 `get::<serde_json::Value>` 会抛 `invalid number`。
    pub(crate) async fn get_text(&self, url: &str) -> Result<String, ApiError> {
        let resp = self.send_with_retry(|| self.http.get(url)).await?;
        let status = resp.status().as_u16();
        if !(200..300).contains(&status) {
            return Err(Self::map_error_status(status, resp).await);
        }
        resp.text().await.map_err(ApiError::Network)
    }

    /// 把 query 参数追加到 URL（供生成代码在非 GET 方法中调用）
    pub(crate) fn append_query<Q: serde::Serialize>(url: String, query: &Q) -> String {
        let qs = serde_urlencoded::to_string(query).unwrap_or_default();
        if qs.is_empty() {
            url
        } else {
            format!("{url}?{qs}")
        }
    }

    // ==================== Internal ====================

    /// 发送 **读操作** 请求并在 5xx / 网络错误时自动重试（最多 3 次，退避 100ms → 500ms → 1s）
    ///
    /// 4xx 错误不重试（客户端错误重试无意义）。
    /// `build` 闭包每次重试时重新构建 `RequestBuilder`。
    ///
    /// # 重试策略设计说明
    ///
    /// 此方法仅用于 **幂等的读操作**（GET 请求）。写操作（POST/PUT/PATCH/DELETE）
    /// 直接调用 `.send()` 而不经过此方法，因为写操作通常不是幂等的——自动重试
    /// 可能导致资源重复创建、重复删除等副作用。各写操作方法中不使用
    /// `send_with_retry` 是刻意为之，而非遗漏。
    pub(crate) async fn send_with_retry<F>(&self, build: F) -> Result<reqwest::Response, ApiError>
    where
        F: Fn() -> reqwest::RequestBuilder,
    {
        const MAX_RETRIES: u32 = 3;
        const DELAYS_MS: [u64; 3] = [100, 500, 1000];

        let mut last_err: Option<ApiError> = None;

        for attempt in 0..=MAX_RETRIES {
            if attempt > 0 {
                let delay = DELAYS_MS
                    .get((attempt - 1) as usize)
                    .copied()
                    .unwrap_or(1000);
                tracing::warn!("请求失败，{delay}ms 后第 {attempt} 次重试...");
                tokio::time::sleep(std::time::Duration::from_millis(delay)).await;
            }

            match build().send().await {
                Ok(resp) => {
                    let status = resp.status().as_u16();
                    // 5xx 可重试
                    if status >= 500 && attempt < MAX_RETRIES {
                        let trace_id = crate::error::extract_trace_id(resp.headers());
                        let body = resp.text().await.unwrap_or_default();
                        last_err = Some(ApiError::HttpStatus {
                            status,
                            body,
                            trace_id,
                        });
                        continue;
                    }
                    return Ok(resp);
                }
                // 网络错误可重试（排除请求构建错误）
                Err(e) if attempt < MAX_RETRIES && !e.is_builder() => {
                    last_err = Some(ApiError::Network(e));
                }
                Err(e) => return Err(ApiError::Network(e)),
            }
        }

        Err(last_err.unwrap_or_else(|| ApiError::Api("重试次数用尽".to_string())))
    }

    pub(crate) async fn paginate<T, F, Fut>(&self, fetch: F) -> Result<Vec<T>, ApiError>
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

    pub(crate) async fn handle_empty_response(resp: reqwest::Response) -> Result<(), ApiError> {
        let status = resp.status().as_u16();
        if (200..300).contains(&status) {
            return Ok(());
        }
        Err(Self::map_error_status(status, resp).await)
    }

    pub(crate) async fn handle_response<T: serde::de::DeserializeOwned>(
        resp: reqwest::Response,
    ) -> Result<T, ApiError> {
        let status = resp.status().as_u16();
        if (200..300).contains(&status) {
            // 不用 resp.json::<T>() 是因为：
            // 1. 空 body 时 reqwest 会报 "error decoding response body"（被包装成 Network 错误，看不到具体原因），
            //    但 CNB 的部分修改类 endpoint（如 archive/unarchive）确实返回 200 + 空 body
            // 2. 解析失败时走 ApiError::Json 比 ApiError::Network 更准确，错误信息也会带上 JSON 字段路径
            let bytes = resp.bytes().await?;
            if bytes.is_empty() {
                // 空 body 当作 JSON null：调用方用 serde_json::Value 会拿到 Null，
                // 用 Option<X> 会拿到 None，用 () 会成功 unit deserialize
                return Ok(serde_json::from_slice(b"null")?);
            }
            // CNB 在"无数据"场景偶尔返回字面量 `null`（如 list_assets / top_contributors 等返回 Vec<T> 的 endpoint）。
            // 按 null → [] → {} 顺序兜底，让 `Vec<T>` / `HashMap<K,V>` 这种集合类型不会被这种约定崩掉。
            // 非 null body 直接走标准 from_slice，行为不变。
            let trimmed = std::str::from_utf8(&bytes).unwrap_or("").trim();
            if trimmed == "null" {
                return serde_json::from_slice::<T>(b"null")
                    .or_else(|_| serde_json::from_slice::<T>(b"[]"))
                    .or_else(|_| serde_json::from_slice::<T>(b"{}"))
                    .map_err(Into::into);
            }
            return Ok(serde_json::from_slice(&bytes)?);
        }
        Err(Self::map_error_status(status, resp).await)
    }

    /// 对 URL 路径进行编码：保留 `/` 不编码，其余特殊字符（空格、中文等）按段进行 percent-encoding。
    #[must_use]
    pub fn encode_path(path: &str) -> String {
        if path.is_empty() {
            return String::new();
        }
        path.split('/')
            .map(|seg| urlencoding::encode(seg).into_owned())
            .collect::<Vec<_>>()
            .join("/")
    }

    /// 将非成功 HTTP 状态码映射为对应的 `ApiError`
    pub(crate) async fn map_error_status(status: u16, resp: reqwest::Response) -> ApiError {
        let trace_id = crate::error::extract_trace_id(resp.headers());
        if status == 401 {
            return ApiError::Auth {
                message: "CNB_TOKEN 缺失或无效。请设置：export CNB_TOKEN=\"your_token\""
                    .to_string(),
                trace_id,
            };
        }
        let body = resp.text().await.unwrap_or_default();
        if status == 404 {
            return ApiError::NotFound { body, trace_id };
        }
        ApiError::HttpStatus {
            status,
            body,
            trace_id,
        }
    }

    /// 发送任意 HTTP 请求并返回原始响应（`cnb api` 子命令与需要裸字节响应的下载类命令使用，如 `commit changed-files`）
    ///
    /// 与 generated 代码的私有方法（`get` / `post_json` / ...）的关键区别：
    /// - **不解析 JSON**：直接返回 `reqwest::Response`，调用方决定怎么处理 body
    /// - **不重试**：写操作不重试是 cnb-api 的全局策略；本方法对所有 method 都不重试，
    ///   保持 `cnb api` 的行为与用户传入的 `--method` 完全一致（用户/脚本层自行 retry）
    /// - **不映射错误状态码**：4xx/5xx 也作为 Ok(Response) 返回，让 `cnb api` 子命令
    ///   能像 `curl` 一样把响应原样吐出，并通过退出码区分成功/失败
    ///
    /// 用法：复用 self.http 客户端（已自带 `Authorization: Bearer $token` + Accept
    /// header）；调用方可通过 `extra_headers` 追加 / 覆盖任意 header；body 可选 + 可指定
    /// content-type（默认 `application/json`）。
    ///
    /// # Errors
    ///
    /// 仅在底层网络层（DNS 失败、连接断开、TLS handshake 失败等）失败时返回
    /// [`ApiError::Network`]。HTTP 4xx/5xx **不**视为错误。
    pub async fn request_raw(
        &self,
        method: reqwest::Method,
        url: &str,
        extra_headers: &[(String, String)],
        body: Option<Vec<u8>>,
        content_type: Option<&str>,
    ) -> Result<reqwest::Response, ApiError> {
        let mut req = self.http.request(method, url);
        for (k, v) in extra_headers {
            req = req.header(k.as_str(), v.as_str());
        }
        if let Some(body_bytes) = body {
            let ct = content_type.unwrap_or("application/json");
            req = req.header("Content-Type", ct).body(body_bytes);
        }
        req.send().await.map_err(ApiError::Network)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn init_crypto_provider() {
        let _ = rustls::crypto::ring::default_provider().install_default();
    }

    #[test]
    fn encode_path_simple() {
        assert_eq!(CnbClient::encode_path("src/main.rs"), "src/main.rs");
    }

    #[test]
    fn encode_path_with_special_chars() {
        // 空格和中文应被编码，`/` 保留
        let encoded = CnbClient::encode_path("docs/我的文件 1.md");
        assert!(encoded.contains('/'));
        assert!(!encoded.contains(' '));
        assert!(!encoded.contains('我'));
    }

    #[test]
    fn encode_path_single_segment() {
        assert_eq!(CnbClient::encode_path("README.md"), "README.md");
    }

    #[test]
    fn encode_path_empty() {
        assert_eq!(CnbClient::encode_path(""), "");
    }

    #[test]
    fn encode_path_preserves_slashes() {
        let encoded = CnbClient::encode_path("a/b/c/d");
        assert_eq!(encoded, "a/b/c/d");
    }

    #[test]
    fn issue_label_mutation_responses_are_label_arrays() -> Result<(), serde_json::Error> {
        let cases = [
            (
                r##"[{"id":"100","name":"keep-open","description":"keep-open","color":"#E5FCD5"}]"##,
                "keep-open",
            ),
            (
                r##"[{"id":"101","name":"ready-for-agent","description":"ready","color":"#0e8a16"}]"##,
                "ready-for-agent",
            ),
        ];

        for (body, expected_name) in cases {
            let labels: Vec<crate::generated::types::Label> = serde_json::from_str(body)?;
            assert_eq!(labels.len(), 1);
            assert_eq!(labels[0].name.as_deref(), Some(expected_name));
        }
        Ok(())
    }

    #[test]
    fn new_client_with_token() {
        init_crypto_provider();
        let client = CnbClient::new(
            "https://api.cnb.cool/",
            "https://cnb.cool/",
            "test_token",
            "org/repo",
        );
        assert!(client.is_ok());
        let client = client.unwrap_or_else(|e| panic!("创建客户端失败：{e}"));
        assert_eq!(client.base_url(), "https://api.cnb.cool");
        assert_eq!(client.base_web_url(), "https://cnb.cool/");
        assert_eq!(client.repo(), "org/repo");
        assert_eq!(client.token(), "test_token");
    }

    #[test]
    fn new_client_without_token() {
        init_crypto_provider();
        let client = CnbClient::new("https://api.cnb.cool/", "https://cnb.cool/", "", "org/repo");
        assert!(client.is_ok());
    }
}
