//! 认证持久化内部逻辑：登录写入、账号切换、登出删除。

use crate::config::{AuthTokenStorage, Config};
use crate::credential_store::{CredentialError, CredentialStore};

use super::store::{attach_rollback_error, credential_error_message, keyring_service_name};
use super::types::{LoginResult, LoginStorage, LogoutResult, OAuthSecretBlob};

pub(super) fn persist_login_with_store(
    domain: &str,
    token: &str,
    username: &str,
    insecure_storage: bool,
    store: &dyn CredentialStore,
) -> anyhow::Result<LoginResult> {
    let mut config = Config::load()?;

    if insecure_storage {
        config.upsert_config_auth(domain, username, token);
        config.save()?;

        return Ok(LoginResult {
            storage: LoginStorage::ConfigFile,
            used_fallback: false,
        });
    }

    match store.set(&keyring_service_name(domain), username, token) {
        Ok(()) => {
            config.upsert_keyring_auth(domain, username);
            if let Err(err) = config.save() {
                let rollback = store.delete(&keyring_service_name(domain), username);
                return Err(attach_rollback_error(
                    err.context("写入认证配置失败"),
                    rollback,
                    domain,
                    username,
                ));
            }

            Ok(LoginResult {
                storage: LoginStorage::Keyring,
                used_fallback: false,
            })
        }
        Err(CredentialError::NotFound) => {
            // set 不应出现 NotFound；保守起见仍回退到明文配置。
            config.upsert_config_auth(domain, username, token);
            config.save()?;

            Ok(LoginResult {
                storage: LoginStorage::ConfigFile,
                used_fallback: true,
            })
        }
        Err(CredentialError::Timeout | CredentialError::Unavailable(_)) => {
            config.upsert_config_auth(domain, username, token);
            config.save()?;

            Ok(LoginResult {
                storage: LoginStorage::ConfigFile,
                used_fallback: true,
            })
        }
    }
}

pub(super) fn switch_user_with_store(
    domain: &str,
    username: &str,
    store: &dyn CredentialStore,
) -> anyhow::Result<bool> {
    let mut config = Config::load()?;
    let Some(host) = config.host_auth(domain) else {
        return Ok(false);
    };
    let Some(user_auth) = host.user_auth(username) else {
        return Ok(false);
    };

    match user_auth.storage {
        AuthTokenStorage::Keyring => {
            store
                .get(&keyring_service_name(domain), username)
                .map(drop)
                .map_err(|err| {
                    anyhow::anyhow!("无法切换到 {username}：{}", credential_error_message(&err))
                })?;
        }
        AuthTokenStorage::Config => {
            if user_auth.token.as_deref().is_none_or(str::is_empty) {
                anyhow::bail!("无法切换到 {username}：配置文件中未找到可用 token");
            }
        }
    }

    if !config.switch_auth_user(domain, username) {
        return Ok(false);
    }

    config.save()?;
    Ok(true)
}

pub(super) fn logout_with_store(
    domain: &str,
    store: &dyn CredentialStore,
) -> anyhow::Result<Option<LogoutResult>> {
    let mut config = Config::load()?;
    let Some(active_auth) = super::active_stored_auth(domain, &config) else {
        return Ok(None);
    };
    do_logout(
        &mut config,
        store,
        domain,
        &active_auth.username,
        active_auth.storage,
    )
}

pub(super) fn logout_user_with_store(
    domain: &str,
    username: &str,
    store: &dyn CredentialStore,
) -> anyhow::Result<Option<LogoutResult>> {
    let mut config = Config::load()?;
    let Some(host) = config.host_auth(domain) else {
        return Ok(None);
    };
    let Some(user_auth) = host.user_auth(username) else {
        return Ok(None);
    };
    let storage = user_auth.storage;
    do_logout(&mut config, store, domain, username, storage)
}

/// 内部统一 logout 流程：已确定要删除的 username 和 storage 后，执行 keyring 删除 + config 移除 + save。
fn do_logout(
    config: &mut Config,
    store: &dyn CredentialStore,
    domain: &str,
    username: &str,
    storage: AuthTokenStorage,
) -> anyhow::Result<Option<LogoutResult>> {
    if storage == AuthTokenStorage::Keyring {
        match store.delete(&keyring_service_name(domain), username) {
            Ok(()) | Err(CredentialError::NotFound) => {}
            Err(err) => {
                anyhow::bail!(
                    "删除 keyring 中的登录信息失败：{}",
                    credential_error_message(&err)
                );
            }
        }
    }

    if !config.remove_auth_user(domain, username) {
        return Ok(None);
    }

    // 若被移除的是 active 账号，`remove_auth_user` 内部会清空 active，
    // 这里 `active_user()` 重新读取，自动切到下一个账号（若有）。
    let switched_to = config
        .host_auth(domain)
        .and_then(|host| host.active_user())
        .map(ToString::to_string);
    config.save()?;

    Ok(Some(LogoutResult {
        username: username.to_string(),
        switched_to,
    }))
}

pub(super) fn get_oauth_blob_with_store(
    domain: &str,
    username: &str,
    config: &Config,
    store: &dyn CredentialStore,
) -> Option<OAuthSecretBlob> {
    let host = config.host_auth(domain)?;
    let user_auth = host.user_auth(username)?;

    let secret = match user_auth.storage {
        AuthTokenStorage::Keyring => store.get(&keyring_service_name(domain), username).ok()?,
        AuthTokenStorage::Config => user_auth.token.as_ref()?.clone(),
    };

    OAuthSecretBlob::from_json(&secret).ok()
}
