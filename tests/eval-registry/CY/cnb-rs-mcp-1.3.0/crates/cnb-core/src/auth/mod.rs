//! 认证管理。
//!
//! Token 解析优先级：
//! 1. 环境变量：`CNB_TOKEN_{domain 去掉点和横杠}` / `CNB_TOKEN`
//! 2. 系统 keyring
//! 3. 配置文件：`~/.cnb/config.toml`

mod persist;
pub(crate) mod resolve;
pub(crate) mod store;
#[allow(clippy::module_inception)]
mod tests;
mod types;

use crate::config::Config;
use crate::credential_store::SystemCredentialStore;

pub use types::*;

use persist::{
    get_oauth_blob_with_store, logout_user_with_store, logout_with_store, persist_login_with_store,
    switch_user_with_store,
};
use resolve::{resolve_account_detail_with_store, resolve_auth_with_store};
use store::env_token;

/// 获取指定域名的认证 Token 及其来源。
#[must_use]
pub fn get_token_with_source(domain: &str, config: &Config) -> Option<(String, TokenSource)> {
    match resolve_auth(domain, config) {
        AuthLookup::Found(resolved) => Some((resolved.token, resolved.source)),
        AuthLookup::Missing | AuthLookup::Unavailable(_) => None,
    }
}

/// 获取指定域名的认证 Token。
#[must_use]
pub fn get_token(domain: &str, config: &Config) -> Option<String> {
    get_token_with_source(domain, config).map(|(token, _)| token)
}

/// 解析当前认证状态。
#[must_use]
pub fn resolve_auth(domain: &str, config: &Config) -> AuthLookup {
    let store = SystemCredentialStore;
    resolve_auth_with_store(domain, config, &store)
}

/// 判断当前认证是否来自环境变量。
#[must_use]
pub fn active_env_source(domain: &str) -> Option<TokenSource> {
    env_token(domain).map(|(_, source)| source)
}

/// 查询指定 username 在该 domain 下的账号详情（仅从 keyring/config 读取，不查环境变量）。
///
/// 配合 [`stored_accounts`] 在 `auth status` 等场景里逐账号渲染。
#[must_use]
pub fn resolve_account_detail(domain: &str, username: &str, config: &Config) -> AuthLookupDetail {
    let store = SystemCredentialStore;
    resolve_account_detail_with_store(domain, username, config, &store)
}

/// 列出指定域名下保存的所有账号。
#[must_use]
pub fn stored_accounts(domain: &str, config: &Config) -> Vec<AuthAccount> {
    let Some(host) = config.host_auth(domain) else {
        return Vec::new();
    };

    let active_user = host.active_user();
    host.usernames()
        .into_iter()
        .filter_map(|username| {
            host.user_auth(&username).map(|user_auth| AuthAccount {
                active: active_user == Some(username.as_str()),
                storage: user_auth.storage,
                username,
            })
        })
        .collect()
}

/// 获取当前激活且由本地保存的账号元数据。
#[must_use]
pub fn active_stored_auth(domain: &str, config: &Config) -> Option<ActiveStoredAuth> {
    let host = config.host_auth(domain)?;
    let username = host.active_user()?.to_string();
    let user_auth = host.user_auth(&username)?;

    Some(ActiveStoredAuth {
        username,
        storage: user_auth.storage,
    })
}

/// 持久化登录结果，默认优先使用系统 keyring。
///
/// # Errors
///
/// Returns an error if the config file cannot be written, or the token cannot be
/// persisted to the selected storage.
pub fn persist_login(
    domain: &str,
    token: &str,
    username: &str,
    insecure_storage: bool,
) -> anyhow::Result<LoginResult> {
    let store = SystemCredentialStore;
    persist_login_with_store(domain, token, username, insecure_storage, &store)
}

/// 将 OAuth 设备授权流拿到的 token 集合持久化。
///
/// 与 [`persist_login`] 的区别：写入 keyring 的不是裸字符串，而是
/// [`OAuthSecretBlob`] 的 JSON 序列化结果，包含 `refresh_token` 与
/// `expires_at` 以便后续静默刷新。读取端通过 JSON 解析自动识别两种格式。
///
/// # Errors
///
/// Returns an error if the blob cannot be serialized, the config file cannot be
/// written, or the token cannot be persisted to the selected storage.
pub fn persist_oauth_login(
    domain: &str,
    blob: &OAuthSecretBlob,
    username: &str,
    insecure_storage: bool,
) -> anyhow::Result<LoginResult> {
    let serialized = blob
        .to_json()
        .map_err(|err| anyhow::anyhow!("序列化 OAuth 凭证失败：{err}"))?;
    let store = SystemCredentialStore;
    persist_login_with_store(domain, &serialized, username, insecure_storage, &store)
}

/// 切换当前激活账号。
///
/// # Errors
///
/// Returns an error if the target account does not exist, the target secret cannot
/// be read, or the config file cannot be updated.
pub fn switch_user(domain: &str, username: &str) -> anyhow::Result<bool> {
    let store = SystemCredentialStore;
    switch_user_with_store(domain, username, &store)
}

/// 删除当前域名下的激活账号。
///
/// # Errors
///
/// Returns an error if the system credential store cannot be updated or the config
/// file cannot be written.
pub fn logout(domain: &str) -> anyhow::Result<Option<LogoutResult>> {
    let store = SystemCredentialStore;
    logout_with_store(domain, &store)
}

/// 退出指定域名 + 指定 username 的账号（不要求该账号是 active 状态）。
///
/// 如果被移除的是 active 账号，结果中 `switched_to` 表示自动切换到的另一个保存账号；
/// 如果被移除的不是 active 账号，`switched_to` 为 `None`（active 账号不变）。
///
/// # Errors
///
/// Returns an error if the system credential store cannot be updated or the config
/// file cannot be written.
pub fn logout_user(domain: &str, username: &str) -> anyhow::Result<Option<LogoutResult>> {
    let store = SystemCredentialStore;
    logout_user_with_store(domain, username, &store)
}

/// 获取指定 domain + username 的 OAuth 凭证 blob（含 `access_token` / `refresh_token` / `expires_at`）。
///
/// 仅当该账号是 OAuth 登录的且能正常读出 keyring/config 时返回 `Some`，
/// 否则（账号不存在、keyring 不可用、secret 是 PAT 字符串等）返回 `None`。
/// 主要给 `auth refresh` 命令用。
#[must_use]
pub fn get_oauth_blob(domain: &str, username: &str, config: &Config) -> Option<OAuthSecretBlob> {
    let store = SystemCredentialStore;
    get_oauth_blob_with_store(domain, username, config, &store)
}
