use serde::{Deserialize, Serialize};

/// `ListBadgeReq`
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ListBadgeReq {}
