//! Read-only resources: `ledger://snapshot` and `ledger://accounts/{code}`.

use std::sync::Arc;

use async_trait::async_trait;
use pmcp::types::{Content, ListResourcesResult, ReadResourceResult, ResourceInfo};
use pmcp::{Error, ErrorCode, RequestHandlerExtra, ResourceHandler};

use crate::store::Ledger;

const ACCOUNT_PREFIX: &str = "ledger://accounts/";

pub struct LedgerResources {
    ledger: Arc<Ledger>,
    /// Account codes that must not be exposed as resources (payroll etc.).
    hidden: Vec<String>,
}

impl LedgerResources {
    pub fn new(ledger: Arc<Ledger>, hidden: Vec<String>) -> Self {
        Self { ledger, hidden }
    }
}

#[async_trait]
impl ResourceHandler for LedgerResources {
    async fn read(&self, uri: &str, _extra: RequestHandlerExtra) -> pmcp::Result<ReadResourceResult> {
        if uri == "ledger://snapshot" {
            let text = self.ledger.snapshot_json()?;
            return Ok(ReadResourceResult::new(vec![Content::Text { text }]));
        }

        let Some(code) = uri.strip_prefix(ACCOUNT_PREFIX) else {
            return Err(Error::invalid_params(format!("unknown resource {uri}")));
        };
        if self.hidden.iter().any(|h| h == code) {
            return Err(Error::protocol(
                ErrorCode::PERMISSION_DENIED,
                format!("account {code} is not exposed as a resource"),
            ));
        }
        let account = self
            .ledger
            .account(code)
            .map_err(|e| Error::invalid_params(format!("resource {uri}: {e}")))?;
        let text = serde_json::to_string_pretty(&account)?;
        Ok(ReadResourceResult::new(vec![Content::Text { text }]))
    }

    async fn list(
        &self,
        _cursor: Option<String>,
        _extra: RequestHandlerExtra,
    ) -> pmcp::Result<ListResourcesResult> {
        let mut resources = vec![ResourceInfo {
            uri: "ledger://snapshot".to_string(),
            name: "Ledger snapshot".to_string(),
            description: Some("All accounts and transactions as JSON".to_string()),
            mime_type: Some("application/json".to_string()),
            meta: None,
        }];
        for account in self.ledger.accounts()? {
            if self.hidden.contains(&account.code) {
                continue;
            }
            resources.push(ResourceInfo {
                uri: format!("{ACCOUNT_PREFIX}{}", account.code),
                name: format!("{} {}", account.code, account.name),
                description: None,
                mime_type: Some("application/json".to_string()),
                meta: None,
            });
        }
        Ok(ListResourcesResult::new(resources))
    }
}
