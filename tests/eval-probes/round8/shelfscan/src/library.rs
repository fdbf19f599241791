//! The catalogue: books found on disk, tags, and loans.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, RwLock};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use walkdir::WalkDir;

use crate::error::{CatalogError, CatalogResult};

pub const BOOK_EXTENSIONS: &[&str] = &["epub", "pdf", "mobi", "azw3", "djvu"];

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Book {
    pub id: String,
    pub title: String,
    pub author: Option<String>,
    pub shelf: String,
    pub rel_path: PathBuf,
    pub format: String,
    pub size_bytes: u64,
    pub isbn: Option<String>,
    #[serde(default)]
    pub tags: BTreeSet<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Loan {
    pub loan_id: String,
    pub book_id: String,
    pub borrower: String,
    pub due: DateTime<Utc>,
}

#[derive(Debug, Default, Serialize)]
pub struct ScanReport {
    pub shelf: String,
    pub added: usize,
    pub updated: usize,
    pub skipped: Vec<String>,
}

pub struct Library {
    pub root: PathBuf,
    pub books: RwLock<HashMap<String, Book>>,
    pub loans: Mutex<HashMap<String, Loan>>,
    pub indexing: AtomicBool,
}

/// Stable id from the path relative to the root (FNV-1a).
pub fn book_id(rel: &Path) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in rel.to_string_lossy().bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("bk-{:012x}", h & 0xffff_ffff_ffff)
}

/// "Author - Title.epub" or just "Title.epub".
fn title_author(stem: &str) -> (String, Option<String>) {
    match stem.split_once(" - ") {
        Some((author, title)) => (title.trim().to_string(), Some(author.trim().to_string())),
        None => (stem.trim().to_string(), None),
    }
}

impl Library {
    pub fn new(root: PathBuf) -> Library {
        Library {
            root,
            books: RwLock::new(HashMap::new()),
            loans: Mutex::new(HashMap::new()),
            indexing: AtomicBool::new(false),
        }
    }

    /// Loads a previously written index; a missing file is an empty catalogue.
    pub fn load_index(&self, path: &Path) -> CatalogResult<usize> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
            Err(e) => return Err(CatalogError::Io(e)),
        };
        let books: Vec<Book> = serde_json::from_str(&text)
            .map_err(|e| CatalogError::Stale(format!("index {} is unreadable: {e}", path.display())))?;
        let mut map = self.books.write().map_err(|_| CatalogError::Poisoned)?;
        let n = books.len();
        map.extend(books.into_iter().map(|b| (b.id.clone(), b)));
        Ok(n)
    }

    /// Resolves a path the caller gave, refusing anything outside the root.
    pub fn resolve(&self, rel: &str) -> Option<PathBuf> {
        let candidate = self.root.join(rel);
        let canon = candidate.canonicalize().ok()?;
        let root = self.root.canonicalize().ok()?;
        canon.starts_with(&root).then_some(canon)
    }

    /// Walks one shelf (a top-level directory) and merges what it finds.
    pub fn scan_shelf(&self, shelf: &str) -> CatalogResult<ScanReport> {
        let dir = self.root.join(shelf);
        let meta = std::fs::metadata(&dir)?;
        if !meta.is_dir() {
            return Err(CatalogError::NotFound(format!("shelf {shelf:?}")));
        }
        if self.indexing.swap(true, Ordering::SeqCst) {
            return Err(CatalogError::Locked("another scan is running".into()));
        }
        let mut report = ScanReport { shelf: shelf.to_string(), ..Default::default() };
        let mut found = Vec::new();
        for entry in WalkDir::new(&dir).follow_links(false) {
            let entry = match entry {
                Ok(e) => e,
                Err(e) => {
                    report.skipped.push(e.to_string());
                    continue;
                }
            };
            let path = entry.path();
            let Some(ext) = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase) else {
                continue;
            };
            if !BOOK_EXTENSIONS.contains(&ext.as_str()) {
                continue;
            }
            let rel = path.strip_prefix(&self.root).unwrap_or(path).to_path_buf();
            let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
            let (title, author) = title_author(stem);
            let size_bytes = entry.metadata().map(|m| m.len()).unwrap_or(0);
            found.push(Book {
                id: book_id(&rel),
                title,
                author,
                shelf: shelf.to_string(),
                rel_path: rel,
                format: ext,
                size_bytes,
                isbn: None,
                tags: BTreeSet::new(),
            });
        }
        let merged = self.books.write().map(|mut books| {
            for book in found {
                match books.get_mut(&book.id) {
                    Some(existing) => {
                        existing.size_bytes = book.size_bytes;
                        report.updated += 1;
                    }
                    None => {
                        books.insert(book.id.clone(), book);
                        report.added += 1;
                    }
                }
            }
        });
        self.indexing.store(false, Ordering::SeqCst);
        merged.map_err(|_| CatalogError::Poisoned)?;
        Ok(report)
    }

    pub fn shelves(&self) -> CatalogResult<Vec<String>> {
        let mut out = Vec::new();
        for entry in std::fs::read_dir(&self.root)? {
            let entry = entry?;
            if entry.file_type()?.is_dir() {
                let name = entry.file_name().to_string_lossy().into_owned();
                if !name.starts_with('.') {
                    out.push(name);
                }
            }
        }
        out.sort();
        Ok(out)
    }
}
