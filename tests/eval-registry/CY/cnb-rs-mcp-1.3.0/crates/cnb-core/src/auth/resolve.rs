//! 认证解析内部逻辑：从环境变量 / keyring / 配置文件解析 token。

use crate::config::AuthTokenStorage;
use crate::credential_store::CredentialStore;

use super::store::{
    credential_error_message, env_token_with_lookup, extract_access_token, extract_auth_detail,
    keyring_service_name,
};
use super::types::{
    AuthLookup, AuthLookupDetail, AuthMode, ResolvedAuth, ResolvedAuthDetail, TokenSource,
    UnavailableStoredAuth,
};

pub(super) fn resolve_auth_with_store(
    domain: &str,
    config: &crate::config::Config,
    store: &dyn CredentialStore,
) -> AuthLookup {
    resolve_auth_with_env_lookup(domain, config, store, |key| std::env::var(key).ok())
}

pub(super) fn resolve_auth_with_env_lookup<F>(
    domain: &str,
    config: &crate::config::Config,
    store: &dyn CredentialStore,
    env_lookup: F,
) -> AuthLookup
where
    F: Fn(&str) -> Option<String>,
{
    if let Some((token, source)) = env_token_with_lookup(domain, env_lookup) {
        return AuthLookup::Found(ResolvedAuth {
            token,
            source,
            username: None,
        });
    }

    let Some(host) = config.host_auth(domain) else {
        return AuthLookup::Missing;
    };
    let Some(username) = host.active_user().map(ToString::to_string) else {
        return AuthLookup::Missing;
    };
    let Some(user_auth) = host.user_auth(&username) else {
        return AuthLookup::Missing;
    };

    match user_auth.storage {
        AuthTokenStorage::Keyring => match store.get(&keyring_service_name(domain), &username) {
            Ok(secret) => AuthLookup::Found(ResolvedAuth {
                token: extract_access_token(&secret),
                source: TokenSource::Keyring,
                username: Some(username),
            }),
            Err(err) => AuthLookup::Unavailable(UnavailableStoredAuth {
                source: TokenSource::Keyring,
                username: Some(username),
                message: credential_error_message(&err),
            }),
        },
        AuthTokenStorage::Config => {
            let Some(token) = user_auth.token.filter(|token| !token.is_empty()) else {
                return AuthLookup::Unavailable(UnavailableStoredAuth {
                    source: TokenSource::ConfigFile,
                    username: Some(username),
                    message: "配置文件中未找到 token".to_string(),
                });
            };

            AuthLookup::Found(ResolvedAuth {
                token,
                source: TokenSource::ConfigFile,
                username: Some(username),
            })
        }
    }
}

pub(super) fn resolve_account_detail_with_store(
    domain: &str,
    username: &str,
    config: &crate::config::Config,
    store: &dyn CredentialStore,
) -> AuthLookupDetail {
    let Some(host) = config.host_auth(domain) else {
        return AuthLookupDetail::Missing;
    };
    let Some(user_auth) = host.user_auth(username) else {
        return AuthLookupDetail::Missing;
    };

    match user_auth.storage {
        AuthTokenStorage::Keyring => match store.get(&keyring_service_name(domain), username) {
            Ok(secret) => {
                let (token, mode) = extract_auth_detail(&secret);
                AuthLookupDetail::Found(ResolvedAuthDetail {
                    token,
                    source: TokenSource::Keyring,
                    username: username.to_string(),
                    mode,
                })
            }
            Err(err) => AuthLookupDetail::Unavailable(UnavailableStoredAuth {
                source: TokenSource::Keyring,
                username: Some(username.to_string()),
                message: credential_error_message(&err),
            }),
        },
        AuthTokenStorage::Config => {
            let Some(token) = user_auth.token.filter(|token| !token.is_empty()) else {
                return AuthLookupDetail::Unavailable(UnavailableStoredAuth {
                    source: TokenSource::ConfigFile,
                    username: Some(username.to_string()),
                    message: "配置文件中未找到 token".to_string(),
                });
            };

            AuthLookupDetail::Found(ResolvedAuthDetail {
                token,
                source: TokenSource::ConfigFile,
                username: username.to_string(),
                // 明文配置存储统一视为 PAT。
                mode: AuthMode::Pat,
            })
        }
    }
}
