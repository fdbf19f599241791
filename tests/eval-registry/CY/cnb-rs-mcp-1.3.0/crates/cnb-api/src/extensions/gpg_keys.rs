//! GPG keys 添加 / 删除扩展
//!
//! `_live-swagger.json` 仅暴露 `GET /user/gpg-keys`（list），缺 `POST` 与 `DELETE`。
//! 完整 swagger.json（web 端）含两者，本扩展手动 mirror swagger 定义补齐 add / delete 能力。

use crate::client::CnbClient;
use crate::error::ApiError;
use crate::generated::api::users::ListGPGKeysParams;
use crate::generated::types::GPGPublicKey;
use serde::{Deserialize, Serialize};

/// 添加 GPG key 的请求体。
///
/// 字段命名对齐 CNB swagger `web.AddGPGKeyForm`：
/// - `armoredPublicKey`：ASCII-armored PGP 公钥
/// - `name`：key 标题
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AddGpgKeyForm {
    /// ASCII-armored 格式的 PGP 公钥（即 `gpg --armor --export <KEY_ID>` 的输出）
    #[serde(rename = "armoredPublicKey")]
    pub armored_public_key: String,
    /// key 标题
    pub name: String,
}

/// GPG keys 扩展：add / delete + 修正 list 返回类型
#[allow(async_fn_in_trait)]
pub trait CnbClientExt {
    /// 列出当前用户全部 GPG keys。对应 `GET /user/gpg-keys`。
    ///
    /// **修正 generated `list_gpg_keys` 的 schema 错误**：
    /// generator 用的 `_live-swagger.json` 写返回类型是单个 `GPGPublicKey`，
    /// 但 CNB API 实际返回 `Vec<GPGPublicKey>`（array），用 generated 版本
    /// 反序列化会 `invalid type: map, expected a string` 错误。本扩展 mirror
    /// `swagger.json` 正确定义返回数组。
    ///
    /// # Errors
    ///
    /// 返回 [`ApiError`] 如果请求失败或 token 无权限。
    async fn list_gpg_keys_vec(
        &self,
        params: &ListGPGKeysParams,
    ) -> Result<Vec<GPGPublicKey>, ApiError>;

    /// 添加 GPG key。对应 `POST /user/gpg-keys`。
    ///
    /// # Errors
    ///
    /// 返回 [`ApiError`] 如果请求失败、token 无权限或 key 内容非法。
    async fn add_gpg_key(&self, form: &AddGpgKeyForm) -> Result<GPGPublicKey, ApiError>;

    /// 删除指定 GPG key。对应 `DELETE /user/gpg-keys/{id}`。
    ///
    /// 注意：`id` 是主密钥 ID（`GPGPublicKey.id`），不是 `key_id` 字段。
    /// 从 `list_gpg_keys_vec` 返回值取 `id` 字段或在 CNB Web 设置页查看。
    ///
    /// # Errors
    ///
    /// 返回 [`ApiError`] 如果 key 不存在或 token 无权限。
    async fn delete_gpg_key(&self, id: &str) -> Result<(), ApiError>;
}

impl CnbClientExt for CnbClient {
    async fn list_gpg_keys_vec(
        &self,
        params: &ListGPGKeysParams,
    ) -> Result<Vec<GPGPublicKey>, ApiError> {
        let url = format!("{}/user/gpg-keys", self.base_url);
        self.get_with_query(&url, params).await
    }

    async fn add_gpg_key(&self, form: &AddGpgKeyForm) -> Result<GPGPublicKey, ApiError> {
        let url = format!("{}/user/gpg-keys", self.base_url);
        self.post_json(&url, form).await
    }

    async fn delete_gpg_key(&self, id: &str) -> Result<(), ApiError> {
        let url = format!("{}/user/gpg-keys/{id}", self.base_url);
        self.delete(&url).await
    }
}
