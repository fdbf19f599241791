//! `OAuth2` Device Authorization Grant (RFC 8628) 客户端。
//!
//! 提供设备码请求、token 轮询与 `refresh_token` 刷新三个原语，
//! 由 `auth::persist_oauth_login` / `commands::auth::refresh` 等上层调用。
//!
//! # 边界纪律
//!
//! 本模块是 **OAuth 协议层**，封装 HTTP 端点 + 轮询 + 错误码语义。
//! 为了保持可复用性与将来抽取成独立 crate 的可能，本模块必须保持**顶点独立**：
//!
//! - 严禁 `use crate::...` 引入任何 cnb-core 其它子模块（`config` / `auth` / `credential_store`
//!   / `git` / `context` 等）；OAuth 不应感知 keyring / config 文件 / git / domain 调度。
//! - keyring 存储 schema（`OAuthSecretBlob`）在 [`crate::auth`]，不在本模块；
//!   本模块只负责返回 [`OAuthToken`] 这样的协议层结构。
//! - 通用时间工具（`now_unix_secs` 等）在 [`crate::time`]，不在本模块。
//!
//! 违反上述纪律的修改会让未来抽取 `cnb-oauth` crate 重新背上耦合债。

use std::time::Duration;

use serde::Deserialize;
use thiserror::Error;
use tokio::time::sleep;

/// 默认 OAuth `client_id`。
pub const DEFAULT_CLIENT_ID: &str = "cnb_cli";

/// Device Authorization Grant 的 `grant_type`。
const GRANT_TYPE_DEVICE_CODE: &str = "urn:ietf:params:oauth:grant-type:device_code";

/// 轮询整体超时（与 cnb-skill 保持一致：3 分钟）。
const POLL_TIMEOUT: Duration = Duration::from_mins(3);

/// 初始轮询间隔。
const INITIAL_POLL_INTERVAL: Duration = Duration::from_secs(1);

/// 收到 `slow_down` 时增加的间隔。
const SLOW_DOWN_INCREMENT: Duration = Duration::from_secs(5);

/// 设备授权流响应。
#[derive(Debug, Clone, Deserialize)]
pub struct DeviceCodeResponse {
    /// 设备码，用于后续 token 轮询。
    pub device_code: String,
    /// 用户在浏览器中需要输入的短码。
    pub user_code: String,
    /// 用户授权页 URL。
    pub verification_uri: String,
    /// 已附带 `user_code` 的便捷授权 URL。
    #[serde(default)]
    pub verification_uri_complete: Option<String>,
    /// `device_code` 过期时间（秒）。
    pub expires_in: u64,
    /// 推荐的轮询间隔（秒），若为 0 则使用 5 秒默认。
    #[serde(default)]
    pub interval: u64,
}

impl DeviceCodeResponse {
    /// 返回授权 URL，优先 `verification_uri_complete`。
    #[must_use]
    pub fn best_verification_uri(&self) -> &str {
        self.verification_uri_complete
            .as_deref()
            .unwrap_or(self.verification_uri.as_str())
    }
}

/// 成功获取的 token 响应。
#[derive(Debug, Clone, Deserialize)]
pub struct OAuthToken {
    /// 访问令牌。
    pub access_token: String,
    /// 令牌类型，通常为 `Bearer`。
    #[serde(default)]
    pub token_type: Option<String>,
    /// 有效期（秒）。
    pub expires_in: u64,
    /// 刷新令牌，可能不存在。
    #[serde(default)]
    pub refresh_token: Option<String>,
    /// 授权 scope。
    #[serde(default)]
    pub scope: Option<String>,
}

/// 服务端返回的标准 OAuth 错误响应。
#[derive(Debug, Clone, Deserialize)]
struct OAuthErrorResponse {
    error: String,
    #[serde(default)]
    error_description: Option<String>,
}

/// OAuth 调用错误。
#[derive(Debug, Error)]
pub enum OAuthError {
    /// 网络/HTTP 错误。
    #[error("OAuth HTTP 请求失败：{0}")]
    Http(#[from] reqwest::Error),
    /// 响应反序列化失败。
    #[error("OAuth 响应解析失败：{0}")]
    Decode(String),
    /// 服务端返回了非预期状态码。
    #[error("OAuth 服务端返回 HTTP {status}：{body}")]
    Status { status: u16, body: String },
    /// 用户拒绝了授权。
    #[error("用户拒绝了授权：{0}")]
    AccessDenied(String),
    /// `device_code` 已过期。
    #[error("device_code 已过期：{0}")]
    ExpiredToken(String),
    /// 轮询超时（`device_code` 在过期前未被授权）。
    #[error("等待授权超时")]
    PollTimeout,
    /// 用户主动取消。
    #[error("用户已取消授权")]
    Cancelled,
    /// 其他 OAuth 错误码（按 RFC 6749/8628）。
    #[error("OAuth 错误：{code} - {description}")]
    Server { code: String, description: String },
}

/// 向 `{platform}/oauth2/device/auth` 申请设备码。
///
/// # Errors
///
/// 网络失败、状态码非 200 或响应无法解析时返回错误。
pub async fn request_device_code(
    platform_url: &str,
    client_id: &str,
) -> Result<DeviceCodeResponse, OAuthError> {
    let endpoint = format!("{}/oauth2/device/auth", trim_trailing_slash(platform_url));
    let form = [("client_id", client_id)];
    let body = encode_form(&form)?;

    let client = http_client()?;
    let resp = client
        .post(&endpoint)
        .header(reqwest::header::CONTENT_TYPE, FORM_CONTENT_TYPE)
        .body(body)
        .send()
        .await?;
    let status = resp.status();
    let body = resp.text().await?;

    if !status.is_success() {
        return Err(OAuthError::Status {
            status: status.as_u16(),
            body,
        });
    }

    let mut parsed: DeviceCodeResponse =
        serde_json::from_str(&body).map_err(|e| OAuthError::Decode(e.to_string()))?;
    if parsed.interval == 0 {
        parsed.interval = 5; // RFC 8628 默认 5 秒
    }
    Ok(parsed)
}

/// 轮询 `{platform}/oauth2/token` 直到拿到 token 或超时。
///
/// 调用者可以提供 `on_status` 回调展示进度（如 spinner tick），
/// 每次轮询前都会被调用，附带轮询序号与当前服务端错误（首次为 None）。
///
/// # Errors
///
/// 用户拒绝、`device_code` 过期、轮询超时或服务端异常时返回对应错误变体。
pub async fn poll_token<F>(
    platform_url: &str,
    client_id: &str,
    device: &DeviceCodeResponse,
    mut on_status: F,
) -> Result<OAuthToken, OAuthError>
where
    F: FnMut(PollStatus),
{
    let endpoint = format!("{}/oauth2/token", trim_trailing_slash(platform_url));
    let device_expires = Duration::from_secs(device.expires_in);
    let mut deadline = tokio::time::Instant::now() + POLL_TIMEOUT;
    let device_deadline = tokio::time::Instant::now() + device_expires;
    if device_deadline < deadline {
        deadline = device_deadline;
    }

    let mut interval = INITIAL_POLL_INTERVAL;
    let client = http_client()?;

    for attempt in 1u32.. {
        if tokio::time::Instant::now() >= deadline {
            return Err(OAuthError::PollTimeout);
        }

        sleep(interval).await;

        on_status(PollStatus {
            attempt,
            last_error: None,
        });

        let outcome =
            request_device_token(&client, &endpoint, client_id, &device.device_code).await?;
        match outcome {
            TokenOutcome::Token(token) => return Ok(token),
            TokenOutcome::Pending => {}
            TokenOutcome::SlowDown => {
                interval = interval.saturating_add(SLOW_DOWN_INCREMENT);
            }
            TokenOutcome::AccessDenied(desc) => return Err(OAuthError::AccessDenied(desc)),
            TokenOutcome::Expired(desc) => return Err(OAuthError::ExpiredToken(desc)),
            TokenOutcome::Other { code, description } => {
                return Err(OAuthError::Server { code, description });
            }
        }
    }
    Err(OAuthError::PollTimeout)
}

/// 一次轮询的状态，供 UI 回调消费。
#[derive(Debug, Clone)]
pub struct PollStatus {
    /// 轮询序号（从 1 开始）。
    pub attempt: u32,
    /// 上一次轮询返回的服务端错误描述（若有）。
    pub last_error: Option<String>,
}

enum TokenOutcome {
    Token(OAuthToken),
    Pending,
    SlowDown,
    AccessDenied(String),
    Expired(String),
    Other { code: String, description: String },
}

async fn request_device_token(
    client: &reqwest::Client,
    endpoint: &str,
    client_id: &str,
    device_code: &str,
) -> Result<TokenOutcome, OAuthError> {
    let form = [
        ("grant_type", GRANT_TYPE_DEVICE_CODE),
        ("device_code", device_code),
        ("client_id", client_id),
    ];
    let body = encode_form(&form)?;

    let resp = client
        .post(endpoint)
        .header(reqwest::header::CONTENT_TYPE, FORM_CONTENT_TYPE)
        .body(body)
        .send()
        .await?;
    let status = resp.status();
    let body = resp.text().await?;

    if status.is_success() {
        let token: OAuthToken =
            serde_json::from_str(&body).map_err(|e| OAuthError::Decode(e.to_string()))?;
        return Ok(TokenOutcome::Token(token));
    }

    if let Ok(err) = serde_json::from_str::<OAuthErrorResponse>(&body) {
        let desc = err.error_description.unwrap_or_default();
        return Ok(match err.error.as_str() {
            "authorization_pending" => TokenOutcome::Pending,
            "slow_down" => TokenOutcome::SlowDown,
            "access_denied" => TokenOutcome::AccessDenied(desc),
            "expired_token" => TokenOutcome::Expired(desc),
            code => TokenOutcome::Other {
                code: code.to_string(),
                description: desc,
            },
        });
    }

    Err(OAuthError::Status {
        status: status.as_u16(),
        body,
    })
}

/// 使用 `refresh_token` 换取新的 `access_token`。
///
/// # Errors
///
/// 网络失败或服务端返回错误时返回错误。
pub async fn refresh_access_token(
    platform_url: &str,
    client_id: &str,
    refresh_token: &str,
) -> Result<OAuthToken, OAuthError> {
    let endpoint = format!("{}/oauth2/token", trim_trailing_slash(platform_url));
    let form = [
        ("grant_type", "refresh_token"),
        ("refresh_token", refresh_token),
        ("client_id", client_id),
    ];
    let body = encode_form(&form)?;

    let client = http_client()?;
    let resp = client
        .post(&endpoint)
        .header(reqwest::header::CONTENT_TYPE, FORM_CONTENT_TYPE)
        .body(body)
        .send()
        .await?;
    let status = resp.status();
    let body = resp.text().await?;

    if !status.is_success() {
        if let Ok(err) = serde_json::from_str::<OAuthErrorResponse>(&body) {
            return Err(OAuthError::Server {
                code: err.error,
                description: err.error_description.unwrap_or_default(),
            });
        }
        return Err(OAuthError::Status {
            status: status.as_u16(),
            body,
        });
    }

    serde_json::from_str::<OAuthToken>(&body).map_err(|e| OAuthError::Decode(e.to_string()))
}

const FORM_CONTENT_TYPE: &str = "application/x-www-form-urlencoded";

fn http_client() -> Result<reqwest::Client, OAuthError> {
    reqwest::Client::builder()
        .user_agent(concat!("cnb-rs/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(OAuthError::Http)
}

fn encode_form(pairs: &[(&str, &str)]) -> Result<String, OAuthError> {
    serde_urlencoded::to_string(pairs).map_err(|e| OAuthError::Decode(e.to_string()))
}

fn trim_trailing_slash(s: &str) -> &str {
    s.trim_end_matches('/')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trim_trailing_slash_strips_multiple() {
        assert_eq!(trim_trailing_slash("https://cnb.cool"), "https://cnb.cool");
        assert_eq!(
            trim_trailing_slash("https://cnb.cool///"),
            "https://cnb.cool"
        );
    }

    #[test]
    fn device_code_response_uses_complete_uri_first() {
        let resp = DeviceCodeResponse {
            device_code: "d".to_string(),
            user_code: "u".to_string(),
            verification_uri: "https://cnb.cool/login/device".to_string(),
            verification_uri_complete: Some(
                "https://cnb.cool/login/device?user_code=u".to_string(),
            ),
            expires_in: 600,
            interval: 5,
        };
        assert_eq!(
            resp.best_verification_uri(),
            "https://cnb.cool/login/device?user_code=u"
        );
    }

    #[test]
    fn device_code_response_falls_back_to_verification_uri() {
        let resp = DeviceCodeResponse {
            device_code: "d".to_string(),
            user_code: "u".to_string(),
            verification_uri: "https://cnb.cool/login/device".to_string(),
            verification_uri_complete: None,
            expires_in: 600,
            interval: 5,
        };
        assert_eq!(
            resp.best_verification_uri(),
            "https://cnb.cool/login/device"
        );
    }
}
