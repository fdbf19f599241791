use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use std::time::{Instant, SystemTime};

use quick_xml::Reader;
use zip::ZipArchive;

use crate::epub::types::EpubEntry;
use crate::EpubError;

type CacheMap = HashMap<PathBuf, (CacheKey, EpubEntry, Instant)>;

#[derive(Hash, PartialEq, Eq, Clone)]
struct CacheKey {
    canonical_path: PathBuf,
    last_modified: SystemTime,
}

pub struct EpubCache {
    entries: Arc<RwLock<CacheMap>>,
    max_entries: usize,
}

impl EpubCache {
    pub fn new(max_entries: usize) -> Self {
        EpubCache {
            entries: Arc::new(RwLock::new(HashMap::new())),
            max_entries,
        }
    }

    pub fn get_or_extract<P: AsRef<Path>>(&self, path: P) -> Result<EpubEntry, EpubError> {
        let path = path.as_ref();
        let canonical = std::fs::canonicalize(path)
            .map_err(|_| EpubError::FileNotFound(path.to_string_lossy().to_string()))?;

        let metadata = std::fs::metadata(path)
            .map_err(|_| EpubError::FileNotFound(path.to_string_lossy().to_string()))?;
        let modified = metadata.modified().unwrap_or_else(|_| SystemTime::now());

        let mut entries = self.entries.write().unwrap();

        if let Some((existing_key, entry, _last_access)) = entries.get(&canonical) {
            if existing_key.last_modified == modified {
                let new_dir = tempfile::tempdir().map_err(EpubError::IoError)?;
                let rel_opf = entry
                    .opf_path
                    .strip_prefix(entry.extract_dir.path())
                    .map_err(|_| {
                        EpubError::ParseError("opf_path outside extract_dir".to_string())
                    })?;
                let new_opf = new_dir.path().join(rel_opf);
                let entry_clone = EpubEntry {
                    extract_dir: new_dir,
                    opf_path: new_opf,
                };
                let src = entry.extract_dir.path();
                let dst = entry_clone.extract_dir.path();
                copy_dir(src, dst)?;
                return Ok(entry_clone);
            }
        }

        let entry = extract_epub(&canonical)?;

        let key = CacheKey {
            canonical_path: canonical.clone(),
            last_modified: modified,
        };

        if entries.len() >= self.max_entries {
            let oldest_key = entries
                .iter()
                .min_by_key(|(_, (_, _, access))| *access)
                .map(|(k, _)| k.clone());
            if let Some(k) = oldest_key {
                entries.remove(&k);
            }
        }

        entries.insert(canonical.clone(), (key, entry, Instant::now()));

        let (_, stored_entry, _) = entries.get(&canonical).unwrap();
        let return_dir = tempfile::tempdir().map_err(EpubError::IoError)?;
        let rel_opf = stored_entry
            .opf_path
            .strip_prefix(stored_entry.extract_dir.path())
            .map_err(|_| EpubError::ParseError("opf_path outside extract_dir".to_string()))?;
        let return_opf = return_dir.path().join(rel_opf);
        let return_entry = EpubEntry {
            extract_dir: return_dir,
            opf_path: return_opf,
        };
        let src = stored_entry.extract_dir.path();
        let dst = return_entry.extract_dir.path();
        copy_dir(src, dst)?;

        Ok(return_entry)
    }

    pub fn invalidate<P: AsRef<Path>>(&self, path: P) {
        if let Ok(canonical) = std::fs::canonicalize(path.as_ref()) {
            let mut entries = self.entries.write().unwrap();
            entries.remove(&canonical);
        }
    }
}

fn extract_epub(path: &Path) -> Result<EpubEntry, EpubError> {
    let file = std::fs::File::open(path)?;
    let mut archive = ZipArchive::new(file)?;

    let extract_dir = tempfile::tempdir()?;

    for i in 0..archive.len() {
        let mut entry = archive.by_index(i)?;
        let name = entry.name().to_string();
        let target = extract_dir.path().join(&name);

        if name.ends_with('/') {
            std::fs::create_dir_all(&target)?;
        } else {
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent)?;
            }
            let mut out = std::fs::File::create(&target)?;
            std::io::copy(&mut entry, &mut out)?;
        }
    }

    let opf_path = find_opf_path(extract_dir.path())?;

    Ok(EpubEntry {
        extract_dir,
        opf_path,
    })
}

fn find_opf_path(extract_dir: &Path) -> Result<PathBuf, EpubError> {
    let container_path = extract_dir.join("META-INF").join("container.xml");
    let container_xml = std::fs::read_to_string(&container_path).map_err(|_| {
        EpubError::NotAnEpub("META-INF/container.xml not found or unreadable".to_string())
    })?;

    let mut reader = Reader::from_str(&container_xml);
    let mut opf_rel_path: Option<String> = None;

    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Empty(ref e))
            | Ok(quick_xml::events::Event::Start(ref e)) => {
                if e.name().as_ref() == b"rootfile" {
                    let mut full_path = None;
                    for a in e.attributes().flatten() {
                        if a.key.as_ref() == b"full-path" {
                            full_path = Some(String::from_utf8_lossy(a.value.as_ref()).to_string());
                        }
                    }
                    opf_rel_path = full_path;
                }
            }
            Ok(quick_xml::events::Event::Eof) => break,
            Err(e) => {
                return Err(EpubError::ParseError(format!(
                    "Failed to parse container.xml: {}",
                    e
                )));
            }
            _ => {}
        }
    }

    let opf_rel_path = opf_rel_path
        .ok_or_else(|| EpubError::NotAnEpub("No rootfile in container.xml".to_string()))?;

    Ok(extract_dir.join(&opf_rel_path))
}

fn copy_dir(src: &Path, dst: &Path) -> Result<(), EpubError> {
    for entry in walkdir::WalkDir::new(src) {
        let entry = entry.map_err(|e| EpubError::WalkdirError(e.to_string()))?;
        let relative = entry.path().strip_prefix(src).unwrap();
        let target = dst.join(relative);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target)?;
        } else {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}
