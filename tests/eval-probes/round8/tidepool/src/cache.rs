//! A small TTL cache for station metadata.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::error::TideError;

#[derive(Debug)]
pub struct TtlCache<V> {
    ttl: Duration,
    entries: Mutex<HashMap<String, (Instant, V)>>,
    hits: Mutex<(u64, u64)>,
}

impl<V: Clone> TtlCache<V> {
    pub fn new(ttl: Duration) -> Self {
        Self {
            ttl,
            entries: Mutex::new(HashMap::new()),
            hits: Mutex::new((0, 0)),
        }
    }

    pub fn get(&self, key: &str) -> Result<Option<V>, TideError> {
        let entries = self.entries.lock().map_err(|_| TideError::CachePoisoned)?;
        let found = entries
            .get(key)
            .filter(|(at, _)| at.elapsed() < self.ttl)
            .map(|(_, v)| v.clone());
        let mut hits = self.hits.lock().map_err(|_| TideError::CachePoisoned)?;
        if found.is_some() {
            hits.0 += 1;
        } else {
            hits.1 += 1;
        }
        Ok(found)
    }

    pub fn put(&self, key: &str, value: V) -> Result<(), TideError> {
        let mut entries = self.entries.lock().map_err(|_| TideError::CachePoisoned)?;
        entries.insert(key.to_string(), (Instant::now(), value));
        Ok(())
    }

    pub fn remove(&self, key: &str) -> Result<Option<V>, TideError> {
        let mut entries = self.entries.lock().map_err(|_| TideError::CachePoisoned)?;
        Ok(entries.remove(key).map(|(_, v)| v))
    }

    pub fn clear(&self) -> Result<usize, TideError> {
        let mut entries = self.entries.lock().map_err(|_| TideError::CachePoisoned)?;
        let n = entries.len();
        entries.clear();
        Ok(n)
    }

    /// (entries, hits, misses)
    pub fn stats(&self) -> Result<(usize, u64, u64), TideError> {
        let entries = self.entries.lock().map_err(|_| TideError::CachePoisoned)?.len();
        let (hits, misses) = *self.hits.lock().map_err(|_| TideError::CachePoisoned)?;
        Ok((entries, hits, misses))
    }
}
