use std::{ops::Deref, time::Instant};

use headers::{Authorization, authorization::Bearer};
use jsonwebtoken::{Algorithm, Validation, decode, decode_header, jwk};
use jwks::Jwk;
use serde::{Deserialize, Serialize};
use url::Url;

use super::log_throttle::LogThrottle;

/// A validated authentication token
///
/// Note: This is used as a marker to ensure that we have validated this
/// separately from just reading the header itself.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ValidToken {
    pub(crate) token: Authorization<Bearer>,
    pub(crate) scopes: Vec<String>,
    pub(crate) principal: Principal,
}

/// The identity a validated token was issued for. Unlike the bearer token, it
/// stays the same across token refreshes.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(test, derive(Default))]
pub(crate) struct Principal {
    /// The issuer of the authorization server whose keys verified the token,
    /// which scopes `subject` even when the token has no `iss` claim.
    pub(crate) issuer: String,
    pub(crate) subject: String,
}

impl Deref for ValidToken {
    type Target = Authorization<Bearer>;

    fn deref(&self) -> &Self::Target {
        &self.token
    }
}

/// Resolves a signing key for a `(server, key_id)` pair, returning it together
/// with the issuer that server advertises in discovery.
///
/// This is the single seam that production fetches over the network and tests
/// substitute in memory. Everything else about validation lives in
/// [`TokenValidator`], so adding a new validation input does not touch this
/// trait or its implementations.
pub(super) trait KeyResolver {
    /// Fetch the signing key for `key_id`, together with the issuer the server
    /// advertises in its discovery metadata. Returns `None` when the server
    /// does not serve a key with that `key_id`.
    ///
    /// When accepted issuers are configured, the returned issuer binds token
    /// validation to the server whose key verified the signature: the token's
    /// `iss` claim must equal it.
    async fn resolve_key(&self, server: &Url, key_id: &str) -> Option<(Jwk, String)>;
}

/// Coalesces attacker-influenced token-validation warnings across requests.
/// Each kind has its own throttle so noise in one cannot hide another.
/// Suppressed events still log at debug.
#[derive(Default)]
pub(super) struct TokenValidationReporter {
    missing_jwk_algorithm: LogThrottle,
    unsupported_jwk_algorithm: LogThrottle,
    missing_audience: LogThrottle,
    missing_issuer: LogThrottle,
    issuer_mismatch: LogThrottle,
    validation_failed: LogThrottle,
}

/// Validates bearer JWTs against the configured audiences and authorization
/// servers. Configured issuers add an `iss` allowlist and bind the claim to the
/// server whose key verified the signature.
pub(super) struct TokenValidator<'a, R: KeyResolver> {
    /// Accepted audiences. Ignored when `allow_any_audience` is set.
    pub(super) audiences: &'a [String],
    /// Additional accepted token issuers. Empty skips JWT `iss` validation;
    /// metadata validation performed by the network resolver remains independent.
    pub(super) issuers: &'a [String],
    /// Skip audience validation entirely.
    pub(super) allow_any_audience: bool,
    /// Upstream authorization servers to try, in order.
    pub(super) servers: &'a [Url],
    /// Resolves signing keys (the network seam).
    pub(super) keys: R,
    /// Coalesces validation warnings across requests.
    pub(super) reporter: &'a TokenValidationReporter,
}

impl<R: KeyResolver> TokenValidator<'_, R> {
    /// Attempt to validate a token against the configured rules.
    pub(super) async fn validate(&self, token: Authorization<Bearer>) -> Option<ValidToken> {
        let jwt = token.token();
        let header = decode_header(jwt).ok()?;
        let key_id = header.kid.as_ref()?;

        for server in self.servers {
            let Some((jwk, discovered_issuer)) = self.keys.resolve_key(server, key_id).await else {
                continue;
            };

            let validation = {
                let Some(alg) = jwk.alg else {
                    if let Some(suppressed) =
                        self.reporter.missing_jwk_algorithm.record(Instant::now())
                    {
                        tracing::warn!(suppressed, "Skipping JWK with no algorithm specified");
                    } else {
                        tracing::debug!("Skipping JWK with no algorithm specified");
                    }
                    continue;
                };
                let Some(algorithm) = jwt_algorithm(alg) else {
                    if let Some(suppressed) = self
                        .reporter
                        .unsupported_jwk_algorithm
                        .record(Instant::now())
                    {
                        tracing::warn!(
                            algorithm = ?alg,
                            suppressed,
                            "Skipping JWT signed by unsupported algorithm"
                        );
                    } else {
                        tracing::debug!(
                            algorithm = ?alg,
                            "Skipping JWT signed by unsupported algorithm"
                        );
                    }
                    continue;
                };
                let mut val = Validation::new(algorithm);
                if self.allow_any_audience {
                    val.validate_aud = false;
                } else {
                    val.set_audience(self.audiences);
                }

                if !self.issuers.is_empty() {
                    val.set_issuer(self.issuers);
                }

                val
            };

            match decode::<Claims>(jwt, &jwk.decoding_key, &validation) {
                Ok(token_data) => {
                    // When audience validation is enabled, explicitly reject tokens
                    // with a missing `aud` claim. The `jsonwebtoken` crate skips its
                    // own audience check when the claim is absent from the raw JWT,
                    // so we enforce it here.
                    if !self.allow_any_audience && token_data.claims.aud.is_empty() {
                        if let Some(suppressed) =
                            self.reporter.missing_audience.record(Instant::now())
                        {
                            tracing::warn!(suppressed, "Token is missing the required `aud` claim");
                        } else {
                            tracing::debug!("Token is missing the required `aud` claim");
                        }
                        break;
                    }
                    if !self.issuers.is_empty() {
                        // When token issuer validation is enabled, explicitly reject
                        // tokens with a missing `iss` claim. The `jsonwebtoken` crate
                        // skips its own issuer check when the claim is absent from the
                        // raw JWT, so we enforce it here.
                        let Some(token_issuer) = token_data.claims.iss.as_deref() else {
                            if let Some(suppressed) =
                                self.reporter.missing_issuer.record(Instant::now())
                            {
                                tracing::warn!(
                                    suppressed,
                                    "Token is missing the required `iss` claim"
                                );
                            } else {
                                tracing::debug!("Token is missing the required `iss` claim");
                            }
                            break;
                        };

                        // Bind the issuer to the server whose JWKS verified the
                        // signature: the token's `iss` must equal that server's
                        // discovered issuer identifier. This prevents a token signed
                        // by one configured server from being accepted while claiming
                        // a different configured server's issuer.
                        if discovered_issuer != token_issuer {
                            if let Some(suppressed) =
                                self.reporter.issuer_mismatch.record(Instant::now())
                            {
                                tracing::warn!(
                                    token_issuer,
                                    server_issuer = %discovered_issuer,
                                    suppressed,
                                    "Token `iss` does not match the issuer of the server that signed it"
                                );
                            } else {
                                tracing::debug!(
                                    token_issuer,
                                    server_issuer = %discovered_issuer,
                                    "Token `iss` does not match the issuer of the server that signed it"
                                );
                            }
                            break;
                        }
                    }
                    let principal = Principal {
                        issuer: discovered_issuer,
                        subject: token_data.claims.sub.clone(),
                    };
                    return Some(ValidToken {
                        token,
                        scopes: token_data.claims.scopes(),
                        principal,
                    });
                }
                Err(error) => {
                    if let Some(suppressed) = self.reporter.validation_failed.record(Instant::now())
                    {
                        tracing::warn!(error = %error, suppressed, "Token failed validation");
                    } else {
                        tracing::debug!(error = %error, "Token failed validation");
                    }
                }
            };
        }

        None
    }
}

/// Claims which must be present in the JWT (and must match validation) in order
/// for a JWT to be considered valid.
///
/// See: https://auth0.com/docs/secure/tokens/json-web-tokens/json-web-token-claims#registered-claims
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Claims {
    /// The intended audience of this token.
    /// Can be either a single string or an array of strings per JWT spec. (https://datatracker.ietf.org/doc/html/rfc7519#section-4.1.3)
    /// Some providers (e.g., AWS Cognito) omit `aud` entirely in access tokens,
    /// so this field defaults to an empty vec when absent.
    #[serde(default, deserialize_with = "deserialize_audience")]
    aud: Vec<String>,

    /// The issuer of this token (`iss`). Optional in the struct so tokens
    /// without it still deserialize; enforced in `validate` when issuers are configured.
    #[serde(default)]
    iss: Option<String>,

    /// The subject the token was issued for. Required so a token without a
    /// `sub` claim is rejected at deserialize time.
    sub: String,

    /// OAuth scope claim, as a space-separated string (RFC 9068) or an array of strings.
    #[serde(default)]
    scope: Option<ScopeClaimValue>,

    /// Non-standard scope claim. Okta emits this as an array of
    /// strings; Microsoft Entra emits it as a space-separated string.
    /// Used as a fallback when the RFC 9068 `scope` claim is absent.
    #[serde(default)]
    scp: Option<ScopeClaimValue>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(untagged)]
enum ScopeClaimValue {
    Array(Vec<String>),
    String(String),
}

impl Claims {
    /// Resolve the scopes granted by this token, preferring the RFC 9068
    /// `scope` claim and falling back to the `scp` claim used by Okta (array)
    /// and Microsoft Entra (space-separated string).
    fn scopes(self) -> Vec<String> {
        match self.scope.or(self.scp) {
            Some(ScopeClaimValue::String(s)) => s.split_whitespace().map(String::from).collect(),
            Some(ScopeClaimValue::Array(v)) => v,
            None => Vec::new(),
        }
    }
}

/// Accepts the JWT `aud` claim as either a single string or an array of
/// strings, normalizing both to a `Vec<String>` (empty when absent).
fn deserialize_audience<'de, D>(deserializer: D) -> Result<Vec<String>, D::Error>
where
    D: serde::Deserializer<'de>,
{
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Audience {
        Single(String),
        Multiple(Vec<String>),
    }

    Ok(match Option::<Audience>::deserialize(deserializer)? {
        Some(Audience::Single(s)) => vec![s],
        Some(Audience::Multiple(v)) => v,
        None => Vec::new(),
    })
}

/// Maps a JWKS key algorithm to the `jsonwebtoken` [`Algorithm`] used for
/// verification, returning `None` for algorithms this library does not support.
fn jwt_algorithm(alg: jwk::KeyAlgorithm) -> Option<Algorithm> {
    Some(match alg {
        jwk::KeyAlgorithm::HS256 => Algorithm::HS256,
        jwk::KeyAlgorithm::HS384 => Algorithm::HS384,
        jwk::KeyAlgorithm::HS512 => Algorithm::HS512,
        jwk::KeyAlgorithm::ES256 => Algorithm::ES256,
        jwk::KeyAlgorithm::ES384 => Algorithm::ES384,
        jwk::KeyAlgorithm::RS256 => Algorithm::RS256,
        jwk::KeyAlgorithm::RS384 => Algorithm::RS384,
        jwk::KeyAlgorithm::RS512 => Algorithm::RS512,
        jwk::KeyAlgorithm::PS256 => Algorithm::PS256,
        jwk::KeyAlgorithm::PS384 => Algorithm::PS384,
        jwk::KeyAlgorithm::PS512 => Algorithm::PS512,
        jwk::KeyAlgorithm::EdDSA => Algorithm::EdDSA,
        _ => return None,
    })
}

#[cfg(test)]
mod test {
    use std::str::FromStr;

    use headers::{Authorization, authorization::Bearer};
    use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, encode, jwk::KeyAlgorithm};
    use jwks::Jwk;
    use serde::Serialize;
    use tracing_test::traced_test;
    use url::Url;

    use super::{
        Claims, KeyResolver, Principal, TokenValidationReporter, TokenValidator, ValidToken,
        jwt_algorithm,
    };

    /// A single upstream server in the stub resolver: its URL, the one
    /// `(kid, jwk)` it serves, and the issuer it advertises in discovery.
    struct TestServer {
        url: Url,
        key_pair: (String, Jwk),
        discovered_issuer: String,
    }

    /// In-memory [`KeyResolver`] that stands in for the network in tests.
    struct StubKeyResolver<'a> {
        servers: &'a [TestServer],
    }

    impl KeyResolver for StubKeyResolver<'_> {
        async fn resolve_key(&self, server: &Url, key_id: &str) -> Option<(Jwk, String)> {
            // Find the requested server, then return its key only if the `kid` matches.
            let test_server = self.servers.iter().find(|s| &s.url == server)?;
            test_server.key_pair.0.eq(key_id).then(|| {
                (
                    test_server.key_pair.1.clone(),
                    test_server.discovered_issuer.clone(),
                )
            })
        }
    }

    /// Thin test harness that owns the validation inputs and delegates to the
    /// real [`TokenValidator`] through a [`StubKeyResolver`]. Keeps the test
    /// call sites concise while exercising the production validation path.
    struct TestTokenValidator {
        audiences: Vec<String>,
        issuers: Vec<String>,
        allow_any_audience: bool,
        servers: Vec<TestServer>,
        /// Parsed server URLs, kept index-aligned with `servers`.
        server_urls: Vec<Url>,
        reporter: TokenValidationReporter,
    }

    impl TestTokenValidator {
        fn new(
            audiences: Vec<String>,
            issuers: Vec<String>,
            allow_any_audience: bool,
            servers: Vec<TestServer>,
        ) -> Self {
            let server_urls = servers.iter().map(|s| s.url.clone()).collect();
            Self {
                audiences,
                issuers,
                allow_any_audience,
                servers,
                server_urls,
                reporter: TokenValidationReporter::default(),
            }
        }

        /// Convenience for the common single-server case. The discovered issuer
        /// defaults to the server URL with any trailing slash trimmed, matching
        /// how a compliant server advertises its issuer identifier.
        fn single(
            audiences: Vec<String>,
            issuers: Vec<String>,
            allow_any_audience: bool,
            key_pair: (String, Jwk),
            server: Url,
        ) -> Self {
            let discovered_issuer = server.as_str().trim_end_matches('/').to_string();
            Self::new(
                audiences,
                issuers,
                allow_any_audience,
                vec![TestServer {
                    url: server,
                    key_pair,
                    discovered_issuer,
                }],
            )
        }

        /// Run the real [`TokenValidator`] against this harness's inputs.
        async fn validate(&self, token: Authorization<Bearer>) -> Option<ValidToken> {
            TokenValidator {
                audiences: &self.audiences,
                issuers: &self.issuers,
                allow_any_audience: self.allow_any_audience,
                servers: &self.server_urls,
                keys: StubKeyResolver {
                    servers: &self.servers,
                },
                reporter: &self.reporter,
            }
            .validate(token)
            .await
        }
    }

    /// Creates a key for signing / verifying JWTs
    fn create_key(base64_secret: &str) -> (EncodingKey, DecodingKey) {
        let encode =
            EncodingKey::from_base64_secret(base64_secret).expect("create valid encoding key");
        let decode =
            DecodingKey::from_base64_secret(base64_secret).expect("create valid decoding key");

        (encode, decode)
    }

    fn create_jwt(
        key_id: String,
        key: EncodingKey,
        audience: String,
        expires_at: i64,
    ) -> Authorization<Bearer> {
        #[derive(Serialize)]
        struct Claims {
            aud: String,
            exp: i64,
            sub: String,
        }

        let header = {
            let mut h = Header::new(Algorithm::HS512);
            h.kid = Some(key_id);

            h
        };
        let token = encode(
            &header,
            &Claims {
                aud: audience,
                exp: expires_at,
                sub: "test user".to_string(),
            },
            &key,
        )
        .expect("encode JWT");

        Authorization::bearer(&token).expect("create bearer token")
    }

    /// Checks that `message` was warned once and the repeat was logged at debug.
    fn warned_once_then_debugged(lines: &[&str], message: &str) -> Result<(), String> {
        let count = |level: &str| {
            lines
                .iter()
                .filter(|line| line.contains(level) && line.contains(message))
                .count()
        };
        match (count("WARN"), count("DEBUG")) {
            (1, 1) => Ok(()),
            counts => Err(format!(
                "Expected one WARN and one DEBUG for {message:?}, got {counts:?}"
            )),
        }
    }

    #[tokio::test]
    async fn it_validates_jwt() {
        let key_id = "some-example-id".to_string();
        let (encode_key, decode_key) = create_key("DEADBEEF");
        let jwk = Jwk {
            alg: Some(KeyAlgorithm::HS512),
            decoding_key: decode_key,
        };

        let audience = "test-audience".to_string();
        let in_the_future = chrono::Utc::now().timestamp() + 1000;
        let jwt = create_jwt(key_id.clone(), encode_key, audience.clone(), in_the_future);

        let server =
            Url::from_str("https://auth.example.com").expect("should parse a valid example server");

        let test_validator =
            TestTokenValidator::single(vec![audience], vec![], false, (key_id, jwk), server);

        let token = jwt.token().to_string();
        assert_eq!(
            test_validator
                .validate(jwt)
                .await
                .expect("valid token")
                .token
                .token(),
            token
        );
    }

    #[traced_test]
    #[tokio::test]
    async fn it_rejects_different_key() {
        let key_id = "some-example-id".to_string();
        let (_, decode_key) = create_key("CAFED00D");
        let (bad_encode_key, _) = create_key("DEADC0DE");
        let jwk = Jwk {
            alg: Some(KeyAlgorithm::HS512),
            decoding_key: decode_key,
        };

        let audience = "test-audience".to_string();
        let in_the_future = chrono::Utc::now().timestamp() + 1000;
        let jwt = create_jwt(
            key_id.clone(),
            bad_encode_key,
            audience.clone(),
            in_the_future,
        );

        let server =
            Url::from_str("https://auth.example.com").expect("should parse a valid example server");

        let test_validator =
            TestTokenValidator::single(vec![audience], vec![], false, (key_id, jwk), server);

        assert_eq!(test_validator.validate(jwt).await, None);

        logs_assert(|lines: &[&str]| {
            lines
                .iter()
                .filter(|line| line.contains("WARN"))
                .any(|line| line.contains("InvalidSignature"))
                .then_some(())
                .ok_or("Expected warning for validation failure".to_string())
        });
    }

    #[traced_test]
    #[tokio::test]
    async fn repeated_validation_failures_warn_once_then_log_at_debug() {
        let key_id = "some-example-id".to_string();
        let (_, decode_key) = create_key("CAFED00D");
        let (bad_encode_key, _) = create_key("DEADC0DE");
        let jwk = Jwk {
            alg: Some(KeyAlgorithm::HS512),
            decoding_key: decode_key,
        };

        let audience = "test-audience".to_string();
        let in_the_future = chrono::Utc::now().timestamp() + 1000;
        let jwt = create_jwt(
            key_id.clone(),
            bad_encode_key,
            audience.clone(),
            in_the_future,
        );
        let server =
            Url::from_str("https://auth.example.com").expect("should parse a valid example server");
        let test_validator =
            TestTokenValidator::single(vec![audience], vec![], false, (key_id, jwk), server);

        assert_eq!(test_validator.validate(jwt.clone()).await, None);
        assert_eq!(test_validator.validate(jwt).await, None);

        logs_assert(|lines: &[&str]| {
            let warnings = lines
                .iter()
                .filter(|line| line.contains("WARN") && line.contains("Token failed validation"))
                .collect::<Vec<_>>();
            match warnings.as_slice() {
                [warning] if warning.contains("suppressed=0") => Ok(()),
                _ => Err(format!(
                    "Expected one immediate validation warning with suppressed=0, got {warnings:?}"
                )),
            }?;
            warned_once_then_debugged(lines, "Token failed validation")
        });
    }

    #[traced_test]
    #[tokio::test]
    async fn it_rejects_expired() {
        let key_id = "some-example-id".to_string();
        let (encode_key, decode_key) = create_key("F0CACC1A");
        let jwk = Jwk {
            alg: Some(KeyAlgorithm::HS512),
            decoding_key: decode_key,
        };

        let audience = "test-audience".to_string();
        let in_the_past = chrono::Utc::now().timestamp() - 1000;
        let jwt = create_jwt(key_id.clone(), encode_key, audience.clone(), in_the_past);

        let server =
            Url::from_str("https://auth.example.com").expect("should parse a valid example server");

        let test_validator =
            TestTokenValidator::single(vec![audience], vec![], false, (key_id, jwk), server);

        assert_eq!(test_validator.validate(jwt).await, None);

        logs_assert(|lines: &[&str]| {
            lines
                .iter()
                .filter(|line| line.contains("WARN"))
                .any(|line| line.contains("ExpiredSignature"))
                .then_some(())
                .ok_or("Expected warning for validation failure".to_string())
        });
    }

    #[traced_test]
    #[tokio::test]
    async fn it_rejects_different_audience() {
        let key_id = "some-example-id".to_string();
        let (encode_key, decode_key) = create_key("F0CACC1A");
        let jwk = Jwk {
            alg: Some(KeyAlgorithm::HS512),
            decoding_key: decode_key,
        };

        let audience = "test-audience".to_string();
        let bad_audience = "not-test-audience".to_string();
        let in_the_future = chrono::Utc::now().timestamp() + 1000;
        let jwt = create_jwt(key_id.clone(), encode_key, bad_audience, in_the_future);

        let server =
            Url::from_str("https://auth.example.com").expect("should parse a valid example server");

        let test_validator =
            TestTokenValidator::single(vec![audience], vec![], false, (key_id, jwk), server);

        assert_eq!(test_validator.validate(jwt).await, None);

        logs_assert(|lines: &[&str]| {
            lines
                .iter()
                .filter(|line| line.contains("WARN"))
                .any(|line| line.contains("InvalidAudience"))
                .then_some(())
                .ok_or("Expected warning for validation failure".to_string())
        });
    }

    #[tokio::test]
    async fn it_validates_jwt_with_array_audience() {
        use serde_json::json;

        let key_id = "some-example-id".to_string();
        let (encode_key, decode_key) = create_key("DEADBEEF");
        let jwk = Jwk {
            alg: Some(KeyAlgorithm::HS512),
            decoding_key: decode_key,
        };

        let audience = "test-audience".to_string();
        let in_the_future = chrono::Utc::now().timestamp() + 1000;

        let header = {
            let mut h = Header::new(Algorithm::HS512);
            h.kid = Some(key_id.clone());
            h
        };

        let claims = json!({
            "aud": ["test-audience", "another-audience"],
            "exp": in_the_future,
            "sub": "test user"
        });

        let token = encode(&header, &claims, &encode_key).expect("encode JWT");
        let jwt = Authorization::bearer(&token).expect("create bearer token");

        let server =
            Url::from_str("https://auth.example.com").expect("should parse a valid example server");

        let test_validator =
            TestTokenValidator::single(vec![audience], vec![], false, (key_id, jwk), server);

        assert_eq!(
            test_validator
                .validate(jwt)
                .await
                .expect("valid token")
                .token
                .token(),
            token
        );
    }

    #[tokio::test]
    async fn it_validates_jwt_with_allow_any_audience() {
        let key_id = "some-example-id".to_string();
        let (encode_key, decode_key) = create_key("DEADBEEF");
        let jwk = Jwk {
            alg: Some(KeyAlgorithm::HS512),
            decoding_key: decode_key,
        };

        let audience = "any-audience".to_string();
        let in_the_future = chrono::Utc::now().timestamp() + 1000;
        let jwt = create_jwt(key_id.clone(), encode_key, audience, in_the_future);

        let server =
            Url::from_str("https://auth.example.com").expect("should parse a valid example server");

        // allow_any_audience should skip audience validation entirely
        let test_validator =
            TestTokenValidator::single(vec![], vec![], true, (key_id, jwk), server);

        let token = jwt.token().to_string();
        let valid = test_validator.validate(jwt).await.unwrap();
        assert_eq!(valid.0.token(), token);
        assert_eq!(
            valid.principal,
            Principal {
                issuer: "https://auth.example.com".to_string(),
                subject: "test user".to_string()
            }
        );
    }

    #[tokio::test]
    async fn it_validates_jwt_with_missing_audience_when_allow_any() {
        use serde_json::json;

        let key_id = "some-example-id".to_string();
        let (encode_key, decode_key) = create_key("DEADBEEF");
        let jwk = Jwk {
            alg: Some(KeyAlgorithm::HS512),
            decoding_key: decode_key,
        };

        let in_the_future = chrono::Utc::now().timestamp() + 1000;

        // Create a JWT without the `aud` claim (like AWS Cognito access tokens)
        let header = {
            let mut h = Header::new(Algorithm::HS512);
            h.kid = Some(key_id.clone());
            h
        };

        let claims = json!({
            "exp": in_the_future,
            "sub": "test user"
        });

        let token = encode(&header, &claims, &encode_key).expect("encode JWT");
        let jwt = Authorization::bearer(&token).expect("create bearer token");

        let server =
            Url::from_str("https://auth.example.com").expect("should parse a valid example server");

        let test_validator =
            TestTokenValidator::single(vec![], vec![], true, (key_id, jwk), server);

        assert_eq!(
            test_validator
                .validate(jwt)
                .await
                .expect("valid token")
                .token
                .token(),
            token
        );
    }

    #[traced_test]
    #[tokio::test]
    async fn it_rejects_missing_audience_when_audience_required() {
        use serde_json::json;

        let key_id = "some-example-id".to_string();
        let (encode_key, decode_key) = create_key("DEADBEEF");
        let jwk = Jwk {
            alg: Some(KeyAlgorithm::HS512),
            decoding_key: decode_key,
        };

        let in_the_future = chrono::Utc::now().timestamp() + 1000;

        // Create a JWT without the `aud` claim
        let header = {
            let mut h = Header::new(Algorithm::HS512);
            h.kid = Some(key_id.clone());
            h
        };

        let claims = json!({
            "exp": in_the_future,
            "sub": "test user"
        });

        let token = encode(&header, &claims, &encode_key).expect("encode JWT");
        let jwt = Authorization::bearer(&token).expect("create bearer token");

        let server =
            Url::from_str("https://auth.example.com").expect("should parse a valid example server");

        // With allow_any_audience=false and configured audiences, missing aud should fail
        let test_validator = TestTokenValidator::single(
            vec!["expected-audience".to_string()],
            vec![],
            false,
            (key_id, jwk),
            server,
        );

        assert_eq!(test_validator.validate(jwt.clone()).await, None);
        assert_eq!(test_validator.validate(jwt).await, None);

        logs_assert(|lines: &[&str]| {
            warned_once_then_debugged(lines, "missing the required `aud` claim")
        });
    }

    #[traced_test]
    #[tokio::test]
    async fn it_rejects_array_audience_with_no_matches() {
        use serde_json::json;

        let key_id = "some-example-id".to_string();
        let (encode_key, decode_key) = create_key("DEADBEEF");
        let jwk = Jwk {
            alg: Some(KeyAlgorithm::HS512),
            decoding_key: decode_key,
        };

        let expected_audience = "expected-audience".to_string();
        let in_the_future = chrono::Utc::now().timestamp() + 1000;

        let header = {
            let mut h = Header::new(Algorithm::HS512);
            h.kid = Some(key_id.clone());
            h
        };

        let claims = json!({
            "aud": ["wrong-audience-1", "wrong-audience-2"],
            "exp": in_the_future,
            "sub": "test user"
        });

        let token = encode(&header, &claims, &encode_key).expect("encode JWT");
        let jwt = Authorization::bearer(&token).expect("create bearer token");

        let server =
            Url::from_str("https://auth.example.com").expect("should parse a valid example server");

        let test_validator = TestTokenValidator::single(
            vec![expected_audience],
            vec![],
            false,
            (key_id, jwk),
            server,
        );

        assert_eq!(test_validator.validate(jwt).await, None);

        logs_assert(|lines: &[&str]| {
            lines
                .iter()
                .filter(|line| line.contains("WARN"))
                .any(|line| line.contains("InvalidAudience"))
                .then_some(())
                .ok_or("Expected warning for validation failure".to_string())
        });
    }

    #[tokio::test]
    async fn it_validates_jwt_with_matching_issuer() {
        use serde_json::json;

        let key_id = "some-example-id".to_string();
        let (encode_key, decode_key) = create_key("DEADBEEF");
        let jwk = Jwk {
            alg: Some(KeyAlgorithm::HS512),
            decoding_key: decode_key,
        };

        let audience = "test-audience".to_string();
        let issuer = "https://auth.example.com".to_string();
        let in_the_future = chrono::Utc::now().timestamp() + 1000;

        let header = {
            let mut h = Header::new(Algorithm::HS512);
            h.kid = Some(key_id.clone());
            h
        };

        let claims = json!({
            "aud": "test-audience",
            "iss": "https://auth.example.com",
            "exp": in_the_future,
            "sub": "test user"
        });

        let token = encode(&header, &claims, &encode_key).expect("encode JWT");
        let jwt = Authorization::bearer(&token).expect("create bearer token");

        let server =
            Url::from_str("https://auth.example.com").expect("should parse a valid example server");

        let test_validator =
            TestTokenValidator::single(vec![audience], vec![issuer], false, (key_id, jwk), server);

        let valid = test_validator.validate(jwt).await.expect("valid token");
        assert_eq!(valid.token.token(), token);
        assert_eq!(valid.principal.issuer, "https://auth.example.com");
    }

    #[traced_test]
    #[tokio::test]
    async fn it_rejects_different_issuer() {
        use serde_json::json;

        let key_id = "some-example-id".to_string();
        let (encode_key, decode_key) = create_key("DEADBEEF");
        let jwk = Jwk {
            alg: Some(KeyAlgorithm::HS512),
            decoding_key: decode_key,
        };

        let audience = "test-audience".to_string();
        let issuer = "https://auth.example.com".to_string();
        let in_the_future = chrono::Utc::now().timestamp() + 1000;

        let header = {
            let mut h = Header::new(Algorithm::HS512);
            h.kid = Some(key_id.clone());
            h
        };

        let claims = json!({
            "aud": "test-audience",
            "iss": "https://evil.example.com",
            "exp": in_the_future,
            "sub": "test user"
        });

        let token = encode(&header, &claims, &encode_key).expect("encode JWT");
        let jwt = Authorization::bearer(&token).expect("create bearer token");

        let server =
            Url::from_str("https://auth.example.com").expect("should parse a valid example server");

        let test_validator =
            TestTokenValidator::single(vec![audience], vec![issuer], false, (key_id, jwk), server);

        assert_eq!(test_validator.validate(jwt).await, None);

        logs_assert(|lines: &[&str]| {
            lines
                .iter()
                .filter(|line| line.contains("WARN"))
                .any(|line| line.contains("InvalidIssuer"))
                .then_some(())
                .ok_or("Expected warning for validation failure".to_string())
        });
    }

    #[tokio::test]
    async fn it_validates_jwt_when_issuer_matches_any_configured() {
        use serde_json::json;

        let key_id = "some-example-id".to_string();
        let (encode_key, decode_key) = create_key("DEADBEEF");
        let jwk = Jwk {
            alg: Some(KeyAlgorithm::HS512),
            decoding_key: decode_key,
        };

        let audience = "test-audience".to_string();
        let in_the_future = chrono::Utc::now().timestamp() + 1000;

        let header = {
            let mut h = Header::new(Algorithm::HS512);
            h.kid = Some(key_id.clone());
            h
        };

        // The configured allowlist holds two issuers. The authorization server
        // advertises the SECOND one as its discovered issuer, and the token's
        // `iss` matches it — exercising both the allowlist (any-match) and the
        // discovery binding to the actual signer.
        let claims = json!({
            "aud": "test-audience",
            "iss": "https://auth.other.com",
            "exp": in_the_future,
            "sub": "test user"
        });

        let token = encode(&header, &claims, &encode_key).expect("encode JWT");
        let jwt = Authorization::bearer(&token).expect("create bearer token");

        let server =
            Url::from_str("https://auth.example.com").expect("should parse a valid example server");

        let test_validator = TestTokenValidator::new(
            vec![audience],
            vec![
                "https://auth.example.com".to_string(),
                "https://auth.other.com".to_string(),
            ],
            false,
            vec![TestServer {
                url: server,
                key_pair: (key_id, jwk),
                discovered_issuer: "https://auth.other.com".to_string(),
            }],
        );

        assert_eq!(
            test_validator
                .validate(jwt)
                .await
                .expect("valid token")
                .token
                .token(),
            token
        );
    }

    #[traced_test]
    #[tokio::test]
    async fn it_rejects_missing_issuer_when_issuer_required() {
        use serde_json::json;

        let key_id = "some-example-id".to_string();
        let (encode_key, decode_key) = create_key("DEADBEEF");
        let jwk = Jwk {
            alg: Some(KeyAlgorithm::HS512),
            decoding_key: decode_key,
        };

        let audience = "test-audience".to_string();
        let issuer = "https://auth.example.com".to_string();
        let in_the_future = chrono::Utc::now().timestamp() + 1000;

        // Create a JWT without the `iss` claim
        let header = {
            let mut h = Header::new(Algorithm::HS512);
            h.kid = Some(key_id.clone());
            h
        };

        let claims = json!({
            "aud": "test-audience",
            "exp": in_the_future,
            "sub": "test user"
        });

        let token = encode(&header, &claims, &encode_key).expect("encode JWT");
        let jwt = Authorization::bearer(&token).expect("create bearer token");

        let server =
            Url::from_str("https://auth.example.com").expect("should parse a valid example server");

        // With configured issuers, a missing iss claim should fail
        let test_validator =
            TestTokenValidator::single(vec![audience], vec![issuer], false, (key_id, jwk), server);

        assert_eq!(test_validator.validate(jwt.clone()).await, None);
        assert_eq!(test_validator.validate(jwt).await, None);

        logs_assert(|lines: &[&str]| {
            warned_once_then_debugged(lines, "missing the required `iss` claim")
        });
    }

    #[tokio::test]
    async fn it_validates_jwt_with_no_issuers_configured() {
        use serde_json::json;

        let key_id = "some-example-id".to_string();
        let (encode_key, decode_key) = create_key("DEADBEEF");
        let jwk = Jwk {
            alg: Some(KeyAlgorithm::HS512),
            decoding_key: decode_key,
        };

        let audience = "test-audience".to_string();
        let in_the_future = chrono::Utc::now().timestamp() + 1000;

        // No `iss` claim at all - should still be valid when issuers are not configured
        let header = {
            let mut h = Header::new(Algorithm::HS512);
            h.kid = Some(key_id.clone());
            h
        };

        let claims = json!({
            "aud": "test-audience",
            "exp": in_the_future,
            "sub": "test user"
        });

        let token = encode(&header, &claims, &encode_key).expect("encode JWT");
        let jwt = Authorization::bearer(&token).expect("create bearer token");

        let server =
            Url::from_str("https://auth.example.com").expect("should parse a valid example server");

        // An empty allowlist skips token `iss` validation for backward compatibility.
        let test_validator =
            TestTokenValidator::single(vec![audience], vec![], false, (key_id, jwk), server);

        assert_eq!(
            test_validator
                .validate(jwt)
                .await
                .expect("valid token")
                .token
                .token(),
            token
        );
    }

    // --- Multi-server issuer binding ---------------------------------------
    //
    // These exercise the cross-server case: token issuer validation is bound
    // to the discovered issuer of the server whose JWKS verified the signature,
    // even when both issuers are in the configured allowlist.

    #[traced_test]
    #[tokio::test]
    async fn it_rejects_token_signed_by_one_server_claiming_another_servers_issuer() {
        use serde_json::json;

        // Two servers share the same `kid` but use different signing secrets —
        // the realistic collision that makes a cross-server claim worth testing.
        let shared_kid = "shared-kid".to_string();
        let (server_a_encode, server_a_decode) = create_key("DEADBEEF");
        let (_server_b_encode, server_b_decode) = create_key("CAFED00D");

        let server_a_url = Url::from_str("https://auth-a.example.com").expect("valid server A URL");
        let server_b_url = Url::from_str("https://auth-b.example.com").expect("valid server B URL");

        let in_the_future = chrono::Utc::now().timestamp() + 1000;

        // Token is signed by SERVER A's key, but claims SERVER B's issuer.
        let header = {
            let mut h = Header::new(Algorithm::HS512);
            h.kid = Some(shared_kid.clone());
            h
        };
        let claims = json!({
            "aud": "test-audience",
            "iss": "https://auth-b.example.com",
            "exp": in_the_future,
            "sub": "test user"
        });
        let token = encode(&header, &claims, &server_a_encode).expect("encode JWT");
        let jwt = Authorization::bearer(&token).expect("create bearer token");

        // Both issuers are in the allowlist, so the cross-server protection must
        // come from the discovery binding, not the allowlist.
        let test_validator = TestTokenValidator::new(
            vec!["test-audience".to_string()],
            vec![
                "https://auth-a.example.com".to_string(),
                "https://auth-b.example.com".to_string(),
            ],
            false,
            vec![
                TestServer {
                    url: server_a_url,
                    key_pair: (
                        shared_kid.clone(),
                        Jwk {
                            alg: Some(KeyAlgorithm::HS512),
                            decoding_key: server_a_decode,
                        },
                    ),
                    discovered_issuer: "https://auth-a.example.com".to_string(),
                },
                TestServer {
                    url: server_b_url,
                    key_pair: (
                        shared_kid,
                        Jwk {
                            alg: Some(KeyAlgorithm::HS512),
                            decoding_key: server_b_decode,
                        },
                    ),
                    discovered_issuer: "https://auth-b.example.com".to_string(),
                },
            ],
        );

        // Server A verifies the signature but its discovered issuer
        // (`auth-a`) does not match the token's `iss` (`auth-b`); server B's key
        // fails the signature. So the token is rejected overall.
        assert_eq!(test_validator.validate(jwt.clone()).await, None);
        assert_eq!(test_validator.validate(jwt).await, None);

        logs_assert(|lines: &[&str]| {
            warned_once_then_debugged(
                lines,
                "does not match the issuer of the server that signed it",
            )
        });
    }

    #[tokio::test]
    async fn it_validates_token_against_its_own_servers_issuer_with_multiple_servers() {
        use serde_json::json;

        // Two servers with distinct keys and issuers. A token signed by server
        // B and claiming server B's issuer must validate, even though server A
        // is also configured.
        let kid_a = "kid-a".to_string();
        let kid_b = "kid-b".to_string();
        let (_server_a_encode, server_a_decode) = create_key("DEADBEEF");
        let (server_b_encode, server_b_decode) = create_key("CAFED00D");

        let server_a_url = Url::from_str("https://auth-a.example.com").expect("valid server A URL");
        let server_b_url = Url::from_str("https://auth-b.example.com").expect("valid server B URL");

        let in_the_future = chrono::Utc::now().timestamp() + 1000;

        let header = {
            let mut h = Header::new(Algorithm::HS512);
            h.kid = Some(kid_b.clone());
            h
        };
        let claims = json!({
            "aud": "test-audience",
            "iss": "https://auth-b.example.com",
            "exp": in_the_future,
            "sub": "test user"
        });
        let token = encode(&header, &claims, &server_b_encode).expect("encode JWT");
        let jwt = Authorization::bearer(&token).expect("create bearer token");

        let test_validator = TestTokenValidator::new(
            vec!["test-audience".to_string()],
            vec![
                "https://auth-a.example.com".to_string(),
                "https://auth-b.example.com".to_string(),
            ],
            false,
            vec![
                TestServer {
                    url: server_a_url,
                    key_pair: (
                        kid_a,
                        Jwk {
                            alg: Some(KeyAlgorithm::HS512),
                            decoding_key: server_a_decode,
                        },
                    ),
                    discovered_issuer: "https://auth-a.example.com".to_string(),
                },
                TestServer {
                    url: server_b_url,
                    key_pair: (
                        kid_b,
                        Jwk {
                            alg: Some(KeyAlgorithm::HS512),
                            decoding_key: server_b_decode,
                        },
                    ),
                    discovered_issuer: "https://auth-b.example.com".to_string(),
                },
            ],
        );

        assert_eq!(
            test_validator
                .validate(jwt)
                .await
                .expect("valid token")
                .token
                .token(),
            token
        );
    }

    #[tokio::test]
    async fn principal_issuer_is_the_verifying_servers_without_iss_claims() {
        let (encode_a, decode_a) = create_key("DEADBEEF");
        let (encode_b, decode_b) = create_key("CAFED00D");
        let audience = "test-audience".to_string();
        let in_the_future = chrono::Utc::now().timestamp() + 1000;
        let server = |name: &str, kid: &str, decoding_key| TestServer {
            url: Url::from_str(&format!("https://{name}.example.com")).expect("valid server URL"),
            key_pair: (
                kid.to_string(),
                Jwk {
                    alg: Some(KeyAlgorithm::HS512),
                    decoding_key,
                },
            ),
            discovered_issuer: format!("https://{name}.example.com"),
        };
        let test_validator = TestTokenValidator::new(
            vec![audience.clone()],
            vec![],
            false,
            vec![
                server("auth-a", "kid-a", decode_a),
                server("auth-b", "kid-b", decode_b),
            ],
        );

        // Same `sub` and no `iss`, from two different authorization servers.
        let from_a = create_jwt("kid-a".into(), encode_a, audience.clone(), in_the_future);
        let from_b = create_jwt("kid-b".into(), encode_b, audience, in_the_future);
        let principal_a = test_validator.validate(from_a).await.unwrap().principal;
        let principal_b = test_validator.validate(from_b).await.unwrap().principal;

        assert_eq!(principal_a.issuer, "https://auth-a.example.com");
        assert_eq!(principal_b.issuer, "https://auth-b.example.com");
        assert_ne!(principal_a, principal_b);
    }

    #[traced_test]
    #[tokio::test]
    async fn it_rejects_jwk_with_no_algorithm() {
        let key_id = "some-example-id".to_string();
        let (encode_key, decode_key) = create_key("DEADBEEF");
        let jwk = Jwk {
            alg: None,
            decoding_key: decode_key,
        };

        let audience = "test-audience".to_string();
        let in_the_future = chrono::Utc::now().timestamp() + 1000;
        let jwt = create_jwt(key_id.clone(), encode_key, audience.clone(), in_the_future);

        let server =
            Url::from_str("https://auth.example.com").expect("should parse a valid example server");

        let test_validator =
            TestTokenValidator::single(vec![audience], vec![], false, (key_id, jwk), server);

        assert_eq!(test_validator.validate(jwt.clone()).await, None);
        assert_eq!(test_validator.validate(jwt).await, None);

        logs_assert(|lines: &[&str]| warned_once_then_debugged(lines, "no algorithm specified"));
    }

    #[traced_test]
    #[tokio::test]
    async fn it_rejects_jwk_with_unsupported_algorithm() {
        let key_id = "some-example-id".to_string();
        let (encode_key, decode_key) = create_key("DEADBEEF");
        // The JWK advertises a key-management algorithm the validator does not
        // support for token signing, so `jwt_algorithm` returns `None`.
        let jwk = Jwk {
            alg: Some(KeyAlgorithm::RSA1_5),
            decoding_key: decode_key,
        };

        let audience = "test-audience".to_string();
        let in_the_future = chrono::Utc::now().timestamp() + 1000;
        let jwt = create_jwt(key_id.clone(), encode_key, audience.clone(), in_the_future);

        let server =
            Url::from_str("https://auth.example.com").expect("should parse a valid example server");

        let test_validator =
            TestTokenValidator::single(vec![audience], vec![], false, (key_id, jwk), server);

        assert_eq!(test_validator.validate(jwt.clone()).await, None);
        assert_eq!(test_validator.validate(jwt).await, None);

        logs_assert(|lines: &[&str]| warned_once_then_debugged(lines, "unsupported algorithm"));
    }

    #[tokio::test]
    async fn it_rejects_when_no_server_serves_the_kid() {
        let (encode_key, decode_key) = create_key("DEADBEEF");
        let jwk = Jwk {
            alg: Some(KeyAlgorithm::HS512),
            decoding_key: decode_key,
        };

        let audience = "test-audience".to_string();
        let in_the_future = chrono::Utc::now().timestamp() + 1000;
        // The token's `kid` does not match any key the configured server serves.
        let jwt = create_jwt(
            "token-kid".to_string(),
            encode_key,
            audience.clone(),
            in_the_future,
        );

        let server =
            Url::from_str("https://auth.example.com").expect("should parse a valid example server");

        // The server only serves `server-kid`, so key resolution finds nothing.
        let test_validator = TestTokenValidator::single(
            vec![audience],
            vec![],
            false,
            ("server-kid".to_string(), jwk),
            server,
        );

        assert_eq!(test_validator.validate(jwt).await, None);
    }

    /// Deserialize [`Claims`] from JSON and resolve its scopes. Exercises the
    /// `scope`/`scp` claim handling directly, without the JWT round-trip.
    fn scopes_of(claims: serde_json::Value) -> Vec<String> {
        serde_json::from_value::<Claims>(claims)
            .expect("deserialize claims")
            .scopes()
    }

    #[test]
    fn scopes_come_from_scope_claim() {
        let scopes = scopes_of(serde_json::json!({ "sub": "u", "scope": "read write" }));
        assert_eq!(scopes, vec!["read".to_string(), "write".to_string()]);
    }

    #[test]
    fn scopes_come_from_scope_claim_array() {
        let scopes = scopes_of(serde_json::json!({ "sub": "u", "scope": ["read", "write"] }));
        assert_eq!(scopes, vec!["read".to_string(), "write".to_string()]);
    }

    #[test]
    fn scope_claim_array_wins_over_scp() {
        let scopes =
            scopes_of(serde_json::json!({ "sub": "u", "scope": ["read"], "scp": "write" }));
        assert_eq!(scopes, vec!["read".to_string()]);
    }

    #[test]
    fn scopes_fall_back_to_scp_array() {
        let scopes = scopes_of(serde_json::json!({ "sub": "u", "scp": ["read", "write"] }));
        assert_eq!(scopes, vec!["read".to_string(), "write".to_string()]);
    }

    #[test]
    fn scopes_fall_back_to_scp_string() {
        let scopes = scopes_of(serde_json::json!({ "sub": "u", "scp": "read write" }));
        assert_eq!(scopes, vec!["read".to_string(), "write".to_string()]);
    }

    #[test]
    fn scope_claim_wins_over_scp() {
        let scopes =
            scopes_of(serde_json::json!({ "sub": "u", "scope": "read", "scp": ["write"] }));
        assert_eq!(scopes, vec!["read".to_string()]);
    }

    #[test]
    fn scopes_empty_when_neither_claim_present() {
        let scopes = scopes_of(serde_json::json!({ "sub": "u" }));
        assert!(scopes.is_empty());
    }

    #[test]
    fn null_audience_deserializes_to_empty() {
        let claims: Claims = serde_json::from_value(serde_json::json!({ "sub": "u", "aud": null }))
            .expect("deserialize claims");
        assert!(claims.aud.is_empty());
    }

    #[test]
    fn jwt_algorithm_maps_every_supported_algorithm() {
        use KeyAlgorithm::*;
        let supported = [
            (HS256, Algorithm::HS256),
            (HS384, Algorithm::HS384),
            (HS512, Algorithm::HS512),
            (ES256, Algorithm::ES256),
            (ES384, Algorithm::ES384),
            (RS256, Algorithm::RS256),
            (RS384, Algorithm::RS384),
            (RS512, Algorithm::RS512),
            (PS256, Algorithm::PS256),
            (PS384, Algorithm::PS384),
            (PS512, Algorithm::PS512),
            (EdDSA, Algorithm::EdDSA),
        ];
        for (key_alg, expected) in supported {
            assert_eq!(jwt_algorithm(key_alg), Some(expected), "{key_alg:?}");
        }
    }

    #[test]
    fn jwt_algorithm_returns_none_for_unsupported() {
        // `RSA1_5` is a key-management algorithm, not a token-signing one.
        assert_eq!(jwt_algorithm(KeyAlgorithm::RSA1_5), None);
    }
}
