//! 应用运行上下文
//!
//! 提供懒加载的配置、API 客户端、Git 信息等共享资源。
//! 借鉴 gh CLI 的 Factory 模式。

use std::sync::OnceLock;

use anyhow::{Result, bail};
use cnb_api::client::CnbClient;

use crate::auth;
use crate::config::{Config, DEFAULT_DOMAIN, DEFAULT_SCHEME};
use crate::git::{self, GitInfo};

fn missing_repo_message(in_git_repo: bool) -> &'static str {
    if in_git_repo {
        "无法从当前 Git 仓库解析 CNB 仓库路径。请检查 `git remote -v`，或使用 `--repo <group>/<repo>` 指定仓库。"
    } else {
        "当前目录不是 Git 仓库。请在 Git 仓库目录下运行，或使用 `--repo <group>/<repo>` 指定仓库。"
    }
}

/// 应用运行上下文，所有子命令共享
pub struct AppContext {
    /// CLI 传入的 domain 参数
    cli_domain: Option<String>,
    /// CLI 传入的 repo 参数
    cli_repo: Option<String>,
    /// 是否以 JSON 格式输出
    json: bool,
    /// mini-jq 字段筛选表达式
    jq: Option<String>,

    config: OnceLock<Config>,
    git_info: OnceLock<Option<GitInfo>>,
    git_default_repo: OnceLock<Option<String>>,
    api_client: OnceLock<CnbClient>,
}

impl AppContext {
    /// 创建新的上下文
    #[must_use]
    pub fn new(cli_domain: Option<String>, cli_repo: Option<String>, json: bool) -> Self {
        Self {
            cli_domain,
            cli_repo,
            json,
            jq: None,
            config: OnceLock::new(),
            git_info: OnceLock::new(),
            git_default_repo: OnceLock::new(),
            api_client: OnceLock::new(),
        }
    }

    #[must_use]
    pub fn with_jq(mut self, jq: Option<String>) -> Self {
        self.json |= jq.is_some();
        self.jq = jq;
        self
    }

    /// 是否以 JSON 格式输出
    pub fn json(&self) -> bool {
        self.json
    }

    /// 获取 mini-jq 字段筛选表达式
    #[must_use]
    pub fn jq(&self) -> Option<&str> {
        self.jq.as_deref()
    }

    /// 获取配置（懒加载）
    pub fn config(&self) -> &Config {
        self.config.get_or_init(|| match Config::load() {
            Ok(c) => c,
            Err(e) => {
                tracing::warn!("加载配置文件失败，使用默认配置：{e}");
                Config::default()
            }
        })
    }

    /// 获取 Git 信息（懒加载，非 Git 目录返回 None）
    pub fn git_info(&self) -> Option<&GitInfo> {
        self.git_info
            .get_or_init(|| git::parse_git_info_from_current_dir().ok())
            .as_ref()
    }

    /// 获取 `git config cnb.defaultRepo` 的值（懒加载，未设置返回 None）
    ///
    /// 该值由 `cnb-rs repo set-default` 子命令写入；优先级在 CLI `--repo` 之后、
    /// git remote 推断之前，用于覆盖默认仓库（典型场景：当前目录的 origin 不是 CNB，
    /// 或同时镜像到多个 CNB 仓库时显式固定一个）。
    pub fn git_default_repo(&self) -> Option<&str> {
        self.git_default_repo
            .get_or_init(|| git::read_config("cnb.defaultRepo"))
            .as_deref()
    }

    /// 获取 CLI `--domain` 参数（不含 git remote 推断）。
    #[must_use]
    pub fn cli_domain(&self) -> Option<&str> {
        self.cli_domain.as_deref()
    }

    /// 获取当前域名（优先 CLI 参数 → Git remote → 默认值）
    pub fn domain(&self) -> &str {
        if let Some(d) = &self.cli_domain {
            return d;
        }
        if let Some(info) = self.git_info() {
            return &info.domain;
        }
        if let Some(d) = &self.config().domain {
            return d;
        }
        DEFAULT_DOMAIN
    }

    /// 获取当前仓库名
    ///
    /// 优先级：CLI `--repo` → `git config cnb.defaultRepo` → Git remote 推断。
    ///
    /// # Errors
    ///
    /// Returns an error if the repository cannot be resolved from CLI arguments,
    /// git config, or the current Git directory.
    pub fn repo(&self) -> Result<&str> {
        if let Some(r) = &self.cli_repo {
            return Ok(r);
        }
        if let Some(default) = self.git_default_repo() {
            return Ok(default);
        }
        if let Some(info) = self.git_info() {
            return Ok(&info.repo);
        }
        bail!(missing_repo_message(git::is_git_dir()))
    }

    /// 构造仓库的 Web URL（用于浏览器打开）
    ///
    /// `path` 为空时返回仓库首页，否则拼接子路径。
    /// 例：`web_url("")` → `https://cnb.cool/org/repo`
    /// 例：`web_url("-/issues")` → `https://cnb.cool/org/repo/-/issues`
    ///
    /// # Errors
    ///
    /// Returns an error if the repository name cannot be resolved.
    pub fn web_url(&self, path: &str) -> Result<String> {
        let domain = self.domain();
        let scheme = self
            .git_info()
            .map_or(DEFAULT_SCHEME, |i| i.scheme.as_str());
        let repo = self.repo()?;

        if path.is_empty() {
            Ok(format!("{scheme}://{domain}/{repo}"))
        } else {
            Ok(format!("{scheme}://{domain}/{repo}/{path}"))
        }
    }

    /// 在浏览器中打开指定 URL
    ///
    /// # Errors
    ///
    /// Returns an error if the browser cannot be opened.
    pub fn open_in_browser(url: &str) -> Result<()> {
        open::that(url).map_err(|e| anyhow::anyhow!("无法打开浏览器：{e}"))
    }

    /// 获取 API 客户端（懒加载）
    ///
    /// # Errors
    ///
    /// Returns an error if the repository name cannot be resolved or the API client
    /// cannot be initialized.
    pub fn api_client(&self) -> Result<&CnbClient> {
        if let Some(client) = self.api_client.get() {
            return Ok(client);
        }

        let domain = self.domain();
        let scheme = self
            .git_info()
            .map_or(DEFAULT_SCHEME, |i| i.scheme.as_str());

        let base_url = format!("{scheme}://api.{domain}/");
        let base_web_url = format!("{scheme}://{domain}/");
        let token = auth::get_token(domain, self.config()).unwrap_or_default();
        let repo = self.repo().unwrap_or_default().to_string();

        let client = CnbClient::new(&base_url, &base_web_url, &token, &repo)?;

        // OnceLock::set 可能失败（竞争），此时取已有值即可
        let _ = self.api_client.set(client);
        self.api_client
            .get()
            .ok_or_else(|| anyhow::anyhow!("API 客户端初始化失败"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_repo_message_for_non_git_dir_is_actionable() {
        let message = missing_repo_message(false);
        assert!(message.contains("当前目录不是 Git 仓库"));
        assert!(message.contains("--repo <group>/<repo>"));
    }

    #[test]
    fn missing_repo_message_for_git_dir_without_remote_is_actionable() {
        let message = missing_repo_message(true);
        assert!(message.contains("git remote -v"));
        assert!(message.contains("--repo <group>/<repo>"));
    }

    #[test]
    fn jq_implies_json_output() {
        let ctx = AppContext::new(None, None, false).with_jq(Some(".title".to_string()));
        assert!(ctx.json());
        assert_eq!(ctx.jq(), Some(".title"));
    }

    #[test]
    fn repo_prefers_cli_repo_override() {
        let ctx = AppContext::new(
            Some("cnb.cool".to_string()),
            Some("wwvo/cnb-rs/cnb-rs".to_string()),
            false,
        );
        let Ok(repo) = ctx.repo() else {
            panic!("cli repo should be used");
        };
        assert_eq!(repo, "wwvo/cnb-rs/cnb-rs");
    }
}
