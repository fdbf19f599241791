//! The memory store, persisted as one JSON file.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Entry {
    pub value: String,
    pub stored_at: u64,
    pub expires_at: Option<u64>,
}

#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Memory {
    pub namespaces: BTreeMap<String, BTreeMap<String, Entry>>,
}

pub fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

impl Memory {
    pub fn load(path: &Path) -> Self {
        std::fs::read(path)
            .ok()
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default()
    }

    pub fn live(&self, namespace: &str) -> Vec<(&String, &Entry)> {
        let t = now();
        self.namespaces
            .get(namespace)
            .map(|m| {
                m.iter()
                    .filter(|(_, e)| e.expires_at.map_or(true, |x| x > t))
                    .collect()
            })
            .unwrap_or_default()
    }
}
