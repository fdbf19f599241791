//! Shared application state

use std::time::Duration;

use crate::client::CratesIoClient;
use crate::client::docsrs::DocsRsClient;
use crate::client::osv::OsvClient;
use crate::docs::cache::DocsCache;

/// Shared state for the MCP server
pub struct AppState {
    /// Crates.io API client (already rate-limited internally)
    pub client: CratesIoClient,
    /// docs.rs API client for rustdoc JSON
    pub docsrs_client: DocsRsClient,
    /// OSV.dev API client for vulnerability lookups
    pub osv_client: OsvClient,
    /// Cache for parsed rustdoc JSON
    pub docs_cache: DocsCache,
}

impl AppState {
    /// Create new application state
    ///
    /// # Arguments
    /// * `rate_limit` - Minimum interval between crates.io API calls
    /// * `http_timeout` - Per-request timeout for all outbound HTTP calls
    /// * `docs_cache_max_entries` - Maximum cached rustdoc JSON entries
    /// * `docs_cache_ttl` - TTL for cached rustdoc JSON entries
    pub fn new(
        rate_limit: Duration,
        http_timeout: Duration,
        docs_cache_max_entries: usize,
        docs_cache_ttl: Duration,
    ) -> Result<Self, tower_mcp::BoxError> {
        let user_agent = "cratesio-mcp (https://github.com/joshrotenberg/cratesio-mcp)";
        let client = CratesIoClient::new(user_agent, rate_limit, http_timeout)
            .map_err(|e| format!("Failed to create crates.io client: {e}"))?;
        let docsrs_client = DocsRsClient::new(user_agent, http_timeout)
            .map_err(|e| format!("Failed to create docs.rs client: {e}"))?;
        let osv_client = OsvClient::new(user_agent, http_timeout)
            .map_err(|e| format!("Failed to create OSV client: {e}"))?;
        let docs_cache = DocsCache::new(docs_cache_max_entries, docs_cache_ttl);

        Ok(Self {
            client,
            docsrs_client,
            osv_client,
            docs_cache,
        })
    }

    /// Create application state with a custom crates.io base URL (for testing).
    ///
    /// Points the `CratesIoClient` at the given base URL (e.g. wiremock server)
    /// with zero rate limiting for fast test execution. DocsRs/OSV clients use
    /// default constructors.
    pub fn with_base_url(base_url: &str) -> Result<Self, tower_mcp::BoxError> {
        Self::with_changelog_urls(base_url, "https://raw.githubusercontent.com")
    }

    /// Create application state with custom crates.io and GitHub raw content
    /// base URLs (for testing changelog fetching).
    pub fn with_changelog_urls(
        base_url: &str,
        github_raw_url: &str,
    ) -> Result<Self, tower_mcp::BoxError> {
        let user_agent = "cratesio-mcp-test";
        let timeout = Duration::from_secs(30);
        let client =
            CratesIoClient::with_base_url(user_agent, Duration::from_millis(0), timeout, base_url)
                .map_err(|e| format!("Failed to create crates.io client: {e}"))?
                .with_github_raw_url(github_raw_url);
        let docsrs_client = DocsRsClient::new(user_agent, timeout)
            .map_err(|e| format!("Failed to create docs.rs client: {e}"))?;
        let osv_client = OsvClient::new(user_agent, timeout)
            .map_err(|e| format!("Failed to create OSV client: {e}"))?;
        let docs_cache = DocsCache::new(10, Duration::from_secs(60));

        Ok(Self {
            client,
            docsrs_client,
            osv_client,
            docs_cache,
        })
    }

    /// Create application state with custom base URLs for all clients (for testing).
    ///
    /// Points all three clients at specified base URLs with zero rate limiting.
    pub fn with_all_base_urls(
        crates_url: &str,
        docsrs_url: &str,
        osv_url: &str,
    ) -> Result<Self, tower_mcp::BoxError> {
        let user_agent = "cratesio-mcp-test";
        let timeout = Duration::from_secs(30);
        let client = CratesIoClient::with_base_url(
            user_agent,
            Duration::from_millis(0),
            timeout,
            crates_url,
        )
        .map_err(|e| format!("Failed to create crates.io client: {e}"))?;
        let docsrs_client = DocsRsClient::with_base_url(user_agent, timeout, docsrs_url)
            .map_err(|e| format!("Failed to create docs.rs client: {e}"))?;
        let osv_client = OsvClient::with_base_url(user_agent, timeout, osv_url)
            .map_err(|e| format!("Failed to create OSV client: {e}"))?;
        let docs_cache = DocsCache::new(10, Duration::from_secs(60));

        Ok(Self {
            client,
            docsrs_client,
            osv_client,
            docs_cache,
        })
    }
}

/// Helper to format large numbers in a human-readable way.
///
/// Numbers at or above one million are shown in `M`, at or above one thousand
/// in `K`, each to one decimal place; smaller numbers are shown as-is.
///
/// # Examples
///
/// ```
/// use cratesio_mcp::state::format_number;
///
/// assert_eq!(format_number(999), "999");
/// assert_eq!(format_number(1_500), "1.5K");
/// assert_eq!(format_number(2_500_000), "2.5M");
/// ```
pub fn format_number(n: u64) -> String {
    if n >= 1_000_000 {
        format!("{:.1}M", n as f64 / 1_000_000.0)
    } else if n >= 1_000 {
        format!("{:.1}K", n as f64 / 1_000.0)
    } else {
        n.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_number_small() {
        assert_eq!(format_number(0), "0");
        assert_eq!(format_number(1), "1");
        assert_eq!(format_number(999), "999");
    }

    #[test]
    fn format_number_thousands() {
        assert_eq!(format_number(1_000), "1.0K");
        assert_eq!(format_number(1_500), "1.5K");
        assert_eq!(format_number(999_999), "1000.0K");
    }

    #[test]
    fn format_number_millions() {
        assert_eq!(format_number(1_000_000), "1.0M");
        assert_eq!(format_number(2_500_000), "2.5M");
        assert_eq!(format_number(50_000_000_000), "50000.0M");
    }
}
