#[cfg(test)]
// 测试里 panic-on-unexpected 是合理的诊断手段，不算技术债
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use std::collections::BTreeMap;
    use std::sync::Mutex;

    use crate::auth::resolve::resolve_auth_with_env_lookup;
    use crate::auth::store::{extract_access_token, extract_auth_detail};
    use crate::auth::types::*;
    use crate::auth::{resolve_account_detail_with_store, stored_accounts};
    use crate::config::{AuthConfigToml, Config, HostAuth, UserAuth};
    use crate::credential_store::{CredentialError, CredentialStore};

    #[derive(Debug, Default)]
    struct MemoryCredentialStore {
        values: Mutex<BTreeMap<(String, String), String>>,
        fail_set: Option<CredentialError>,
        fail_get: Option<CredentialError>,
        fail_delete: Option<CredentialError>,
    }

    impl MemoryCredentialStore {
        fn insert(&self, service: &str, account: &str, secret: &str) {
            let mut values = self
                .values
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            values.insert(
                (service.to_string(), account.to_string()),
                secret.to_string(),
            );
        }
    }

    impl CredentialStore for MemoryCredentialStore {
        fn get(&self, service: &str, account: &str) -> Result<String, CredentialError> {
            if let Some(err) = &self.fail_get {
                return Err(err.clone());
            }

            let values = self
                .values
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            values
                .get(&(service.to_string(), account.to_string()))
                .cloned()
                .ok_or(CredentialError::NotFound)
        }

        fn set(&self, service: &str, account: &str, secret: &str) -> Result<(), CredentialError> {
            if let Some(err) = &self.fail_set {
                return Err(err.clone());
            }

            let mut values = self
                .values
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            values.insert(
                (service.to_string(), account.to_string()),
                secret.to_string(),
            );
            Ok(())
        }

        fn delete(&self, service: &str, account: &str) -> Result<(), CredentialError> {
            if let Some(err) = &self.fail_delete {
                return Err(err.clone());
            }

            let mut values = self
                .values
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if values
                .remove(&(service.to_string(), account.to_string()))
                .is_some()
            {
                Ok(())
            } else {
                Err(CredentialError::NotFound)
            }
        }
    }

    fn config_with_host(domain: &str, host: HostAuth) -> Config {
        Config {
            auth: Some(AuthConfigToml {
                hosts: BTreeMap::from([(domain.to_string(), host)]),
            }),
            ..Config::default()
        }
    }

    fn resolve_auth_without_env(
        domain: &str,
        config: &Config,
        store: &dyn CredentialStore,
    ) -> AuthLookup {
        resolve_auth_with_env_lookup(domain, config, store, |_| None)
    }

    #[test]
    fn resolve_auth_prefers_domain_env() {
        let store = MemoryCredentialStore::default();
        let lookup =
            resolve_auth_with_env_lookup("cnb.cool", &Config::default(), &store, |key| match key {
                "CNB_TOKEN_cnbcool" => Some("domain-token".to_string()),
                "CNB_TOKEN" => Some("generic-token".to_string()),
                _ => None,
            });

        let AuthLookup::Found(resolved) = lookup else {
            panic!("expected token from env");
        };
        assert_eq!(resolved.token, "domain-token");
        assert_eq!(
            resolved.source,
            TokenSource::EnvDomain("CNB_TOKEN_cnbcool".to_string())
        );
    }

    #[test]
    fn resolve_auth_reads_keyring_before_config() {
        let store = MemoryCredentialStore::default();
        store.insert("cnb-rs:cnb.cool", "octocat", "secret-token");
        let config = config_with_host(
            "cnb.cool",
            HostAuth {
                user: Some("octocat".to_string()),
                users: BTreeMap::from([("octocat".to_string(), UserAuth::keyring())]),
                ..HostAuth::default()
            },
        );

        let lookup = resolve_auth_without_env("cnb.cool", &config, &store);
        let AuthLookup::Found(resolved) = lookup else {
            panic!("expected token from keyring");
        };

        assert_eq!(resolved.source, TokenSource::Keyring);
        assert_eq!(resolved.username.as_deref(), Some("octocat"));
        assert_eq!(resolved.token, "secret-token");
    }

    #[test]
    fn resolve_auth_reports_keyring_failure() {
        let store = MemoryCredentialStore {
            fail_get: Some(CredentialError::Unavailable("keyring offline".to_string())),
            ..MemoryCredentialStore::default()
        };
        let config = config_with_host(
            "cnb.cool",
            HostAuth {
                user: Some("octocat".to_string()),
                users: BTreeMap::from([("octocat".to_string(), UserAuth::keyring())]),
                ..HostAuth::default()
            },
        );

        let lookup = resolve_auth_without_env("cnb.cool", &config, &store);
        let AuthLookup::Unavailable(unavailable) = lookup else {
            panic!("expected unavailable result");
        };

        assert_eq!(unavailable.source, TokenSource::Keyring);
        assert_eq!(unavailable.username.as_deref(), Some("octocat"));
        assert!(unavailable.message.contains("keyring offline"));
    }

    #[test]
    fn resolve_auth_unwraps_oauth_blob_from_keyring() {
        // 模拟 OAuth 登录写入：keyring 里是 OAuthSecretBlob 的 JSON 序列化。
        let blob = OAuthSecretBlob {
            access_token: "oauth-access".to_string(),
            refresh_token: Some("oauth-refresh".to_string()),
            expires_at: 1_700_000_000,
        };
        let Ok(serialized) = blob.to_json() else {
            panic!("serialize blob should succeed");
        };
        let store = MemoryCredentialStore::default();
        store.insert("cnb-rs:cnb.cool", "octocat", &serialized);
        let config = config_with_host(
            "cnb.cool",
            HostAuth {
                user: Some("octocat".to_string()),
                users: BTreeMap::from([("octocat".to_string(), UserAuth::keyring())]),
                ..HostAuth::default()
            },
        );

        let lookup = resolve_auth_without_env("cnb.cool", &config, &store);
        let AuthLookup::Found(resolved) = lookup else {
            panic!("expected token from keyring");
        };

        // 关键：返回的 token 是 access_token，不是整个 JSON 字符串。
        assert_eq!(resolved.token, "oauth-access");
        assert_eq!(resolved.source, TokenSource::Keyring);
    }

    #[test]
    fn extract_access_token_passes_through_bare_pat() {
        // 兼容历史 PAT 登录：keyring 写入的不是 JSON，原样返回。
        assert_eq!(extract_access_token("ghp_xxxx"), "ghp_xxxx");
    }

    #[test]
    fn extract_auth_detail_identifies_oauth_blob() {
        let blob = OAuthSecretBlob {
            access_token: "ax".to_string(),
            refresh_token: Some("rx".to_string()),
            expires_at: 1_700_000_000,
        };
        let Ok(serialized) = blob.to_json() else {
            panic!("serialize should succeed");
        };
        let (token, mode) = extract_auth_detail(&serialized);
        assert_eq!(token, "ax");
        assert_eq!(
            mode,
            AuthMode::OAuth {
                expires_at: 1_700_000_000,
                has_refresh_token: true,
            }
        );
    }

    #[test]
    fn extract_auth_detail_treats_bare_string_as_pat() {
        let (token, mode) = extract_auth_detail("cnb_pat_abc");
        assert_eq!(token, "cnb_pat_abc");
        assert_eq!(mode, AuthMode::Pat);
    }

    #[test]
    fn resolve_account_detail_returns_pat_for_bare_keyring_secret() {
        let store = MemoryCredentialStore::default();
        store.insert("cnb-rs:cnb.cool", "alice", "cnb_pat_abc");
        let config = config_with_host(
            "cnb.cool",
            HostAuth {
                user: Some("alice".to_string()),
                users: BTreeMap::from([("alice".to_string(), UserAuth::keyring())]),
                ..HostAuth::default()
            },
        );

        let detail = resolve_account_detail_with_store("cnb.cool", "alice", &config, &store);
        let AuthLookupDetail::Found(found) = detail else {
            panic!("expected found");
        };
        assert_eq!(found.token, "cnb_pat_abc");
        assert_eq!(found.mode, AuthMode::Pat);
        assert_eq!(found.source, TokenSource::Keyring);
    }

    #[test]
    fn resolve_account_detail_returns_oauth_mode_for_blob() {
        let blob = OAuthSecretBlob {
            access_token: "ax".to_string(),
            refresh_token: Some("rx".to_string()),
            expires_at: 2_000_000_000,
        };
        let Ok(serialized) = blob.to_json() else {
            panic!("serialize should succeed");
        };
        let store = MemoryCredentialStore::default();
        store.insert("cnb-rs:cnb.cool", "bob", &serialized);
        let config = config_with_host(
            "cnb.cool",
            HostAuth {
                user: Some("bob".to_string()),
                users: BTreeMap::from([("bob".to_string(), UserAuth::keyring())]),
                ..HostAuth::default()
            },
        );

        let detail = resolve_account_detail_with_store("cnb.cool", "bob", &config, &store);
        let AuthLookupDetail::Found(found) = detail else {
            panic!("expected found");
        };
        assert_eq!(found.token, "ax");
        assert_eq!(
            found.mode,
            AuthMode::OAuth {
                expires_at: 2_000_000_000,
                has_refresh_token: true,
            }
        );
    }

    #[test]
    fn resolve_account_detail_reports_missing_for_unknown_user() {
        let store = MemoryCredentialStore::default();
        let config = config_with_host(
            "cnb.cool",
            HostAuth {
                user: Some("alice".to_string()),
                users: BTreeMap::from([("alice".to_string(), UserAuth::keyring())]),
                ..HostAuth::default()
            },
        );

        let detail = resolve_account_detail_with_store("cnb.cool", "ghost", &config, &store);
        assert_eq!(detail, AuthLookupDetail::Missing);
    }

    #[test]
    fn stored_accounts_supports_legacy_single_user() {
        let config = config_with_host(
            "cnb.cool",
            HostAuth {
                legacy_token: Some("legacy-token".to_string()),
                legacy_username: Some("octocat".to_string()),
                ..HostAuth::default()
            },
        );

        let accounts = stored_accounts("cnb.cool", &config);
        assert_eq!(accounts.len(), 1);
        assert_eq!(accounts[0].username, "octocat");
        assert_eq!(accounts[0].storage, crate::config::AuthTokenStorage::Config);
        assert!(accounts[0].active);
    }

    #[test]
    fn oauth_secret_blob_roundtrip() {
        let blob = OAuthSecretBlob {
            access_token: "a".to_string(),
            refresh_token: Some("r".to_string()),
            expires_at: 1_700_000_000,
        };
        let Ok(raw) = blob.to_json() else {
            panic!("serialize should succeed");
        };
        let Ok(decoded) = OAuthSecretBlob::from_json(&raw) else {
            panic!("deserialize should succeed");
        };
        assert_eq!(decoded.access_token, "a");
        assert_eq!(decoded.refresh_token.as_deref(), Some("r"));
        assert_eq!(decoded.expires_at, 1_700_000_000);
    }

    #[test]
    fn oauth_secret_blob_accepts_missing_expires_at() {
        // 兼容历史可能写入但缺 `expires_at` 字段的 JSON。
        let raw = r#"{"access_token":"a"}"#;
        let Ok(decoded) = OAuthSecretBlob::from_json(raw) else {
            panic!("deserialize should succeed");
        };
        assert_eq!(decoded.access_token, "a");
        assert_eq!(decoded.refresh_token, None);
        assert_eq!(decoded.expires_at, 0);
    }
}
