//! Open notebooks, addressed by opaque handles that expire after an hour of inactivity.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub const HANDLE_TTL: Duration = Duration::from_secs(3600);

#[derive(Debug, Clone, serde::Serialize)]
pub struct Note {
    pub id: u32,
    pub title: String,
    pub body: String,
    pub tags: Vec<String>,
}

#[derive(Debug)]
pub struct Notebook {
    pub path: PathBuf,
    pub notes: Vec<Note>,
    pub last_used: Instant,
}

impl Notebook {
    pub fn parse(path: PathBuf, text: &str) -> Self {
        let mut notes = Vec::new();
        for (i, chunk) in text.split("\n## ").enumerate() {
            let chunk = chunk.trim_start_matches("## ");
            let (title, body) = chunk.split_once('\n').unwrap_or((chunk, ""));
            if title.trim().is_empty() {
                continue;
            }
            let tags = body
                .split_whitespace()
                .filter_map(|w| w.strip_prefix('#'))
                .map(str::to_string)
                .collect();
            notes.push(Note {
                id: i as u32 + 1,
                title: title.trim().to_string(),
                body: body.trim().to_string(),
                tags,
            });
        }
        Self {
            path,
            notes,
            last_used: Instant::now(),
        }
    }

    pub fn render(&self) -> String {
        self.notes
            .iter()
            .map(|n| format!("## {}\n{}\n", n.title, n.body))
            .collect()
    }
}

#[derive(Default)]
pub struct Store {
    pub notebooks: Mutex<HashMap<String, Notebook>>,
}

impl Store {
    pub fn insert(&self, notebook: Notebook) -> String {
        let handle = format!("nb_{}", uuid::Uuid::new_v4().simple());
        let mut map = self.notebooks.lock().expect("notebook store lock");
        map.retain(|_, nb| nb.last_used.elapsed() < HANDLE_TTL);
        map.insert(handle.clone(), notebook);
        handle
    }
}
