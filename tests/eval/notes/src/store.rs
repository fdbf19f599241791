//! In-memory notebooks keyed by opaque handles, with an idle expiry.

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

use serde::Serialize;

pub const IDLE_EXPIRY: Duration = Duration::from_secs(30 * 60);

#[derive(Debug, Clone, Serialize)]
pub struct Note {
    pub id: u32,
    pub text: String,
    pub tags: Vec<String>,
    pub pinned: bool,
}

#[derive(Debug, Serialize)]
pub struct Notebook {
    pub title: String,
    pub notes: BTreeMap<u32, Note>,
    #[serde(skip)]
    pub next_id: u32,
    #[serde(skip)]
    pub touched: Option<Instant>,
}

#[derive(Default)]
pub struct Store {
    notebooks: HashMap<String, Notebook>,
}

impl Store {
    pub fn open(&mut self, title: String) -> String {
        self.expire();
        let handle = format!("nb_{}", uuid::Uuid::new_v4().simple());
        self.notebooks.insert(
            handle.clone(),
            Notebook {
                title,
                notes: BTreeMap::new(),
                next_id: 1,
                touched: Some(Instant::now()),
            },
        );
        handle
    }

    fn expire(&mut self) {
        self.notebooks
            .retain(|_, nb| nb.touched.is_some_and(|t| t.elapsed() < IDLE_EXPIRY));
    }

    pub fn get(&mut self, handle: &str) -> Option<&Notebook> {
        self.expire();
        self.notebooks.get(handle)
    }

    pub fn get_mut(&mut self, handle: &str) -> Option<&mut Notebook> {
        self.expire();
        let nb = self.notebooks.get_mut(handle)?;
        nb.touched = Some(Instant::now());
        Some(nb)
    }

    pub fn remove(&mut self, handle: &str) -> Option<Notebook> {
        self.notebooks.remove(handle)
    }

    pub fn handles(&self) -> impl Iterator<Item = (&String, &Notebook)> {
        self.notebooks.iter()
    }
}

impl Notebook {
    pub fn add(&mut self, text: String, tags: Vec<String>) -> u32 {
        let id = self.next_id;
        self.next_id += 1;
        self.notes.insert(
            id,
            Note {
                id,
                text,
                tags,
                pinned: false,
            },
        );
        id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_are_opaque_and_unique() {
        let mut s = Store::default();
        let a = s.open("a".into());
        let b = s.open("b".into());
        assert_ne!(a, b);
        assert!(a.starts_with("nb_"));
        assert!(s.get("nb_missing").is_none());
    }
}
