//! 凭证存储辅助函数：环境变量查找、keyring 服务名、token 提取、错误格式化。

use crate::credential_store::CredentialError;

use super::types::{AuthMode, OAuthSecretBlob, TokenSource};

pub(super) fn env_token(domain: &str) -> Option<(String, TokenSource)> {
    env_token_with_lookup(domain, |key| std::env::var(key).ok())
}

pub(super) fn env_token_with_lookup<F>(domain: &str, env_lookup: F) -> Option<(String, TokenSource)>
where
    F: Fn(&str) -> Option<String>,
{
    let env_key = format!("CNB_TOKEN_{}", domain.replace(['.', '-'], ""));
    if let Some(token) = env_lookup(&env_key)
        && !token.is_empty()
    {
        return Some((token, TokenSource::EnvDomain(env_key)));
    }

    if let Some(token) = env_lookup("CNB_TOKEN")
        && !token.is_empty()
    {
        return Some((token, TokenSource::EnvGeneric));
    }

    None
}

pub(super) fn keyring_service_name(domain: &str) -> String {
    format!("cnb-rs:{domain}")
}

/// 从 keyring 取回的 secret 中提取 `access_token`。
///
/// keyring 中既可能是历史/PAT 登录写入的裸 token 字符串，也可能是
/// OAuth 登录写入的 `OAuthSecretBlob` JSON。这里通过 JSON 解析尝试自动识别：
///
/// - 若是 OAuth blob：返回其 `access_token` 字段；
/// - 否则按裸 token 原样返回。
pub(super) fn extract_access_token(secret: &str) -> String {
    extract_auth_detail(secret).0
}

/// 同时解析 `access_token` 与认证模式。
///
/// 配合 [`super::resolve_account_detail`] 在 status 等场景区分 OAuth 与 PAT。
pub(super) fn extract_auth_detail(secret: &str) -> (String, AuthMode) {
    OAuthSecretBlob::from_json(secret).map_or_else(
        |_| (secret.to_string(), AuthMode::Pat),
        |blob| {
            let mode = AuthMode::OAuth {
                expires_at: blob.expires_at,
                has_refresh_token: blob.refresh_token.is_some(),
            };
            (blob.access_token, mode)
        },
    )
}

pub(super) fn credential_error_message(error: &CredentialError) -> String {
    match error {
        CredentialError::NotFound => "keyring 中未找到对应 token".to_string(),
        CredentialError::Timeout => "访问 keyring 超时".to_string(),
        CredentialError::Unavailable(message) => message.clone(),
    }
}

pub(super) fn attach_rollback_error(
    err: anyhow::Error,
    rollback: Result<(), CredentialError>,
    domain: &str,
    username: &str,
) -> anyhow::Error {
    match rollback {
        Ok(()) | Err(CredentialError::NotFound) => err,
        Err(rollback_err) => err.context(format!(
            "回滚 keyring 失败（{} / {}）：{}",
            domain,
            username,
            credential_error_message(&rollback_err)
        )),
    }
}
