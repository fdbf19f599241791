//! 认证相关类型定义。

use serde::{Deserialize, Serialize};

use crate::config::AuthTokenStorage;

/// OAuth keyring 中存储的敏感字段 JSON 结构。
///
/// 写入约定：
/// - PAT 登录写入 keyring 的是裸 token 字符串；
/// - OAuth 登录写入 keyring 的是本结构序列化后的 JSON。
///
/// 读取端通过尝试 JSON 解析来区分两种格式（见 [`extract_auth_detail`]）。
///
/// 注意：这是 cnb-rs 私有的 keyring 存储 schema，**不是** OAuth 协议本身定义的
/// 结构，因此放在 `auth` 模块（凭证编排层）而非 `oauth` 模块（协议层）。
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct OAuthSecretBlob {
    /// 当前访问令牌。
    pub access_token: String,
    /// 刷新令牌；保存时存在的话才能后续静默刷新。
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refresh_token: Option<String>,
    /// `access_token` 过期的 Unix 秒时间戳；0 表示未知（不触发主动刷新）。
    #[serde(default)]
    pub expires_at: i64,
}

impl OAuthSecretBlob {
    /// 序列化为 JSON 字符串，供 keyring 存储。
    ///
    /// # Errors
    ///
    /// 当 JSON 序列化失败时返回错误（实际上不应发生）。
    pub fn to_json(&self) -> Result<String, serde_json::Error> {
        serde_json::to_string(self)
    }

    /// 反序列化 keyring 中的 JSON。
    ///
    /// # Errors
    ///
    /// 当字符串不是合法 JSON 时返回错误。
    pub fn from_json(raw: &str) -> Result<Self, serde_json::Error> {
        serde_json::from_str(raw)
    }
}

/// Token 来源。
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenSource {
    /// 域名特定环境变量（如 `CNB_TOKEN_cnbcool`）。
    EnvDomain(String),
    /// 通用环境变量 `CNB_TOKEN`。
    EnvGeneric,
    /// 系统 keyring。
    Keyring,
    /// 配置文件 `~/.cnb/config.toml`。
    ConfigFile,
}

/// 当前解析到的认证信息。
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedAuth {
    /// 当前生效的 token。
    pub token: String,
    /// token 来源。
    pub source: TokenSource,
    /// 本地记录的用户名；环境变量来源时通常为空。
    pub username: Option<String>,
}

/// 认证模式：用于在 status 等场景区分 keyring 中存的是 PAT 还是 OAuth blob。
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AuthMode {
    /// Personal Access Token（裸字符串存储）。
    Pat,
    /// `OAuth2` 设备授权流落地的 token（`OAuthSecretBlob` JSON 存储）。
    OAuth {
        /// `access_token` 过期的 Unix 秒时间戳；0 表示未知。
        expires_at: i64,
        /// 是否包含 `refresh_token`，决定能否静默刷新。
        has_refresh_token: bool,
    },
}

/// 解析到的账号详情；相比 [`ResolvedAuth`] 额外携带 [`AuthMode`]。
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedAuthDetail {
    /// 当前生效的 `access_token`。
    pub token: String,
    /// token 来源。
    pub source: TokenSource,
    /// 用户名。
    pub username: String,
    /// 认证模式。
    pub mode: AuthMode,
}

/// 按 username 查询单账号详情的结果。
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AuthLookupDetail {
    /// 当前域名下没有该用户。
    Missing,
    /// 找到了详细信息。
    Found(ResolvedAuthDetail),
    /// 本地有元数据但 token 不可读。
    Unavailable(UnavailableStoredAuth),
}

/// 本地保存了账号元数据，但 token 无法读取。
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnavailableStoredAuth {
    /// 预期来源。
    pub source: TokenSource,
    /// 本地记录的用户名。
    pub username: Option<String>,
    /// 失败原因。
    pub message: String,
}

/// 认证解析结果。
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AuthLookup {
    /// 没有任何认证信息。
    Missing,
    /// 成功解析到可用 token。
    Found(ResolvedAuth),
    /// 找到了本地元数据，但 token 无法读取。
    Unavailable(UnavailableStoredAuth),
}

/// `auth login` 的持久化结果。
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoginStorage {
    /// token 已保存到系统 keyring。
    Keyring,
    /// token 已回退到配置文件。
    ConfigFile,
}

/// `auth login` 结果。
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoginResult {
    /// 最终使用的存储位置。
    pub storage: LoginStorage,
    /// 是否因为 keyring 失败而发生了自动回退。
    pub used_fallback: bool,
}

/// 当前域名下保存的账号。
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthAccount {
    /// 用户名。
    pub username: String,
    /// Secret 存储位置。
    pub storage: AuthTokenStorage,
    /// 是否为当前激活账号。
    pub active: bool,
}

/// 当前激活且由本地保存的账号。
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActiveStoredAuth {
    /// 用户名。
    pub username: String,
    /// Secret 存储位置。
    pub storage: AuthTokenStorage,
}

/// `auth logout` 结果。
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogoutResult {
    /// 被移除的用户名。
    pub username: String,
    /// 移除后自动切换到的账号。
    pub switched_to: Option<String>,
}
