//! The result cache: an unchanged crate is not read, parsed or analysed again.
//!
//! A crate is the unit of analysis, so it is the unit of caching. Two kinds of entries live
//! under `<cache dir>/<tool build>/`:
//!
//! - `r/<content key>`: the crate's findings. The key hashes the effective options, the
//!   manifest facts, and every file's path, role, report flag and contents (BLAKE3), so a hit
//!   is exactly a run that would compute the same thing.
//! - `s/<identity>`: for a crate identified by options, manifest facts and file list, the size,
//!   modification and change times and inode of each file when it was last read, and the
//!   content key (or "nothing to analyse", for crates the prefilter skipped). When every
//!   file's metadata still matches, the content key is trusted without reading the files (as
//!   git's index does). A file changed less than two seconds before it was read is never
//!   recorded, so an edit within the file system's timestamp granularity cannot be missed.
//!
//! `<tool build>` names mcp-lint's version and its executable's size and modification time,
//! so a rebuilt binary never reads entries of another build. Writes go to a temporary file
//! that is renamed into place. Each entry starts with a BLAKE3 hash of its key and body, so a
//! damaged or hand-edited entry (a "deny" turned into "allow") is a miss. An entry that cannot
//! be read, verified or decoded is a miss, never an error; a cache that cannot be written is
//! silently not written.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use lints::{Applicability, Diagnostic, Edit, FileReport, Fix, Level, Related, SourceFile, Span};
use serde::{Deserialize, Serialize};

use crate::read;
use crate::workspace::manifest::Manifests;

/// Directory name under the target directory.
pub const TARGET_SUBDIR: &str = "mcp-lint-cache";
/// Directory name when the workspace has no target directory.
pub const DOT_DIR: &str = ".mcp-lint-cache";
/// Overrides the location.
pub const ENV_DIR: &str = "MCP_LINT_CACHE_DIR";

/// Files changed this recently before being read are not trusted by metadata.
pub const RACY: Duration = Duration::from_secs(2);

/// Where the cache lives for a run in `cwd`: `$MCP_LINT_CACHE_DIR`, else the workspace's
/// target directory (`$CARGO_TARGET_DIR` or `<workspace>/target`) + `mcp-lint-cache`, else
/// `<workspace>/.mcp-lint-cache`. The workspace is the outermost ancestor of `cwd` whose
/// Cargo.toml has `[workspace]`, else the nearest one with a Cargo.toml, else `cwd`.
pub fn location(cwd: &Path, manifests: &mut Manifests) -> PathBuf {
    if let Some(dir) = std::env::var_os(ENV_DIR).filter(|d| !d.is_empty()) {
        return cwd.join(dir);
    }
    let mut nearest = None;
    let mut workspace = None;
    for dir in cwd.ancestors() {
        if let Some(toml) = manifests.get(dir) {
            nearest.get_or_insert(dir);
            if toml.is_workspace() {
                workspace = Some(dir);
            }
        }
    }
    let root = workspace.or(nearest).unwrap_or(cwd);
    if let Some(target) = std::env::var_os("CARGO_TARGET_DIR").filter(|d| !d.is_empty()) {
        return root.join(target).join(TARGET_SUBDIR);
    }
    let target = root.join("target");
    if target.is_dir() {
        target.join(TARGET_SUBDIR)
    } else {
        root.join(DOT_DIR)
    }
}

/// A 256-bit key, as hex.
pub type Key = String;

/// Incremental BLAKE3 over length-prefixed fields.
pub struct KeyBuilder(blake3::Hasher);

impl KeyBuilder {
    pub fn new(domain: &str) -> Self {
        let mut k = KeyBuilder(blake3::Hasher::new());
        k.field(domain.as_bytes());
        k
    }
    pub fn field(&mut self, bytes: &[u8]) -> &mut Self {
        self.0.update(&(bytes.len() as u64).to_le_bytes());
        self.0.update(bytes);
        self
    }
    pub fn finish(&self) -> Key {
        self.0.finalize().to_hex().to_string()
    }
}

/// What the metadata of a file said when it was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileStamp {
    pub size: u64,
    pub mtime_ns: i128,
    pub ctime_ns: i128,
    pub inode: u64,
}

impl FileStamp {
    pub fn of(path: &Path) -> Option<FileStamp> {
        std::fs::metadata(path)
            .ok()
            .and_then(|m| FileStamp::from_metadata(&m))
    }

    pub fn from_metadata(meta: &std::fs::Metadata) -> Option<FileStamp> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            Some(FileStamp {
                size: meta.len(),
                mtime_ns: i128::from(meta.mtime()) * 1_000_000_000 + i128::from(meta.mtime_nsec()),
                ctime_ns: i128::from(meta.ctime()) * 1_000_000_000 + i128::from(meta.ctime_nsec()),
                inode: meta.ino(),
            })
        }
        #[cfg(not(unix))]
        {
            let mtime = meta
                .modified()
                .ok()?
                .duration_since(SystemTime::UNIX_EPOCH)
                .ok()?;
            Some(FileStamp {
                size: meta.len(),
                mtime_ns: mtime.as_nanos() as i128,
                ctime_ns: 0,
                inode: 0,
            })
        }
    }

    /// Changed within [`RACY`] of `read_at`, or later.
    fn is_racy(&self, read_at: SystemTime) -> bool {
        self.changed_within(RACY, read_at)
    }

    /// Changed within `window` of `read_at`, or later.
    pub fn changed_within(&self, window: Duration, read_at: SystemTime) -> bool {
        let Ok(read_ns) = read_at.duration_since(SystemTime::UNIX_EPOCH) else {
            return true;
        };
        let limit = read_ns.as_nanos() as i128 - window.as_nanos() as i128;
        self.mtime_ns.max(self.ctime_ns) >= limit
    }
}

/// What a crate's metadata entry says.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Verdict {
    /// The prefilter found nothing that could lead to a finding.
    Skipped,
    /// Analysed; the findings are under this content key.
    Analysed(Key),
}

#[derive(Serialize, Deserialize)]
struct StampEntry {
    stamps: Vec<FileStamp>,
    verdict: Verdict,
}

/// An open cache for one run.
pub struct Cache {
    dir: PathBuf,
    /// When this run started reading files.
    started: SystemTime,
    /// The cache root's `.gitignore` and `CACHEDIR.TAG`, written with the first entry.
    root_marked: std::sync::Once,
}

static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

impl Cache {
    /// The cache under `root` for this build of mcp-lint. Nothing is created until written.
    pub fn open(root: &Path) -> Cache {
        Cache {
            dir: root.join(tool_build()),
            started: SystemTime::now(),
            root_marked: std::sync::Once::new(),
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The verdict recorded for `identity`, if every file's metadata still matches.
    pub fn check_stamps(&self, identity: &Key, stamps: &[Option<FileStamp>]) -> Option<Verdict> {
        let bytes = self.read_entry("s", identity)?;
        let entry: StampEntry = serde_json::from_slice(&bytes).ok()?;
        let matches = entry.stamps.len() == stamps.len()
            && entry
                .stamps
                .iter()
                .zip(stamps)
                .all(|(old, new)| Some(*old) == *new);
        matches.then_some(entry.verdict)
    }

    /// Record the metadata the files had when read (skipped when any of them is too fresh).
    pub fn store_stamps(&self, identity: &Key, stamps: &[Option<FileStamp>], verdict: Verdict) {
        let Some(stamps) = stamps.iter().copied().collect::<Option<Vec<FileStamp>>>() else {
            return;
        };
        if stamps.iter().any(|s| s.is_racy(self.started)) {
            return;
        }
        if let Ok(bytes) = serde_json::to_vec(&StampEntry { stamps, verdict }) {
            self.write_entry("s", identity, &bytes);
        }
    }

    /// The findings stored under `key`, if the entry is intact.
    pub fn load_reports(&self, key: &Key) -> Option<Vec<CachedReport>> {
        let bytes = self.read_entry("r", key)?;
        let reports: Vec<CachedReport> = serde_json::from_slice(&bytes).ok()?;
        // Reject entries naming lints this build does not know (hand-edited or corrupted).
        reports
            .iter()
            .flat_map(|r| &r.diagnostics)
            .all(|d| lints::registry::find(&d.lint).is_some() && Level::parse(&d.level).is_some())
            .then_some(reports)
    }

    pub fn store_reports(&self, key: &Key, reports: &[FileReport]) {
        let cached: Vec<CachedReport> = reports.iter().map(CachedReport::from_report).collect();
        if let Ok(bytes) = serde_json::to_vec(&cached) {
            self.write_entry("r", key, &bytes);
        }
    }

    fn entry_path(&self, kind: &str, key: &Key) -> PathBuf {
        self.dir.join(kind).join(&key[..2]).join(key)
    }

    /// The body of the entry `kind/key`, if its checksum line matches it.
    fn read_entry(&self, kind: &str, key: &Key) -> Option<Vec<u8>> {
        let mut bytes = read::read(&self.entry_path(kind, key), read::MAX_DATA_BYTES).ok()?;
        let newline = bytes.iter().position(|b| *b == b'\n')?;
        let body = &bytes[newline + 1..];
        (bytes[..newline] == *entry_checksum(kind, key, body).as_bytes()).then(|| {
            bytes.drain(..=newline);
            bytes
        })
    }

    /// Write atomically: a temporary file in the same directory, renamed into place. The first
    /// line is the checksum [`Cache::read_entry`] verifies.
    fn write_entry(&self, kind: &str, key: &Key, body: &[u8]) {
        let path = self.entry_path(kind, key);
        let Some(parent) = path.parent() else { return };
        if std::fs::create_dir_all(parent).is_err() {
            return;
        }
        self.root_marked
            .call_once(|| mark_cache_root(self.dir.parent()));
        let temp = parent.join(format!(
            ".tmp-{}-{}",
            std::process::id(),
            TEMP_COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        let mut bytes = entry_checksum(kind, key, body).into_bytes();
        bytes.push(b'\n');
        bytes.extend_from_slice(body);
        if std::fs::write(&temp, bytes).is_ok() && std::fs::rename(&temp, &path).is_ok() {
            return;
        }
        let _ = std::fs::remove_file(&temp);
    }
}

/// What the first line of the entry `kind/key` (`r` or `s`) holding `body` must be.
pub fn entry_checksum(kind: &str, key: &Key, body: &[u8]) -> Key {
    KeyBuilder::new("cache entry")
        .field(kind.as_bytes())
        .field(key.as_bytes())
        .field(body)
        .finish()
}

/// A `.gitignore` (ignore everything) and a `CACHEDIR.TAG` in the cache root, unless there.
fn mark_cache_root(root: Option<&Path>) {
    let Some(root) = root else { return };
    let gitignore = root.join(".gitignore");
    if !gitignore.exists() {
        let _ = std::fs::write(&gitignore, "# Created by mcp-lint.\n*\n");
        let _ = std::fs::write(
            root.join("CACHEDIR.TAG"),
            "Signature: 8a477f597d28d172789f06886806bc55\n# mcp-lint's result cache.\n",
        );
    }
}

/// `<version>-<executable size>-<executable mtime>`: different for every build.
fn tool_build() -> String {
    let exe = std::env::current_exe()
        .ok()
        .and_then(|exe| FileStamp::of(&exe));
    let build = match exe {
        Some(s) => KeyBuilder::new("tool")
            .field(&s.size.to_le_bytes())
            .field(&s.mtime_ns.to_le_bytes())
            .finish(),
        // No way to tell builds apart: a key no other run shares.
        None => KeyBuilder::new("tool")
            .field(&std::process::id().to_le_bytes())
            .field(format!("{:?}", SystemTime::now()).as_bytes())
            .finish(),
    };
    format!("{}-{}", env!("CARGO_PKG_VERSION"), &build[..16])
}

// ------------------------------------------------------------------ serialised findings

/// A [`FileReport`] without its source text (re-read on a hit when a finding needs it).
#[derive(Debug, Serialize, Deserialize)]
pub struct CachedReport {
    pub path: PathBuf,
    pub diagnostics: Vec<CachedDiagnostic>,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct CachedDiagnostic {
    /// The lint's name.
    pub lint: String,
    pub level: String,
    /// start, end, start line, start column, end line, end column.
    pub span: [usize; 6],
    pub message: String,
    pub label: Option<String>,
    pub help: Option<String>,
    pub notes: Vec<String>,
    /// path, span (as `span` above), message.
    #[serde(default)]
    pub related: Vec<(PathBuf, [usize; 6], String)>,
    pub fix: Option<CachedFix>,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct CachedFix {
    pub message: String,
    pub applicability: String,
    /// start, end, replacement.
    pub edits: Vec<(usize, usize, String)>,
}

/// start, end, start line, start column, end line, end column.
fn span_fields(span: &Span) -> [usize; 6] {
    [
        span.start,
        span.end,
        span.start_line,
        span.start_column,
        span.end_line,
        span.end_column,
    ]
}

fn span_from_fields(fields: [usize; 6]) -> Span {
    let [start, end, start_line, start_column, end_line, end_column] = fields;
    Span {
        start,
        end,
        start_line,
        start_column,
        end_line,
        end_column,
    }
}

impl CachedReport {
    fn from_report(report: &FileReport) -> CachedReport {
        CachedReport {
            path: report.path.clone(),
            diagnostics: report
                .diagnostics
                .iter()
                .map(|d| CachedDiagnostic {
                    lint: d.lint.name.to_string(),
                    level: d.level.as_str().to_string(),
                    span: span_fields(&d.span),
                    message: d.message.clone(),
                    label: d.label.clone(),
                    help: d.help.clone(),
                    notes: d.notes.clone(),
                    related: d
                        .related
                        .iter()
                        .map(|r| (r.path.clone(), span_fields(&r.span), r.message.clone()))
                        .collect(),
                    fix: d.fix.as_ref().map(|f| CachedFix {
                        message: f.message.clone(),
                        applicability: f.applicability.as_str().to_string(),
                        edits: f
                            .edits
                            .iter()
                            .map(|e| (e.start, e.end, e.replacement.clone()))
                            .collect(),
                    }),
                })
                .collect(),
        }
    }

    /// Back to a report; `source` is the file's text when a finding needs it. `None` when the
    /// entry names something this build does not know.
    pub fn into_report(self, source: Option<Arc<SourceFile>>) -> Option<FileReport> {
        let diagnostics = self
            .diagnostics
            .into_iter()
            .map(|d| {
                Some(Diagnostic {
                    lint: lints::registry::find(&d.lint)?,
                    level: Level::parse(&d.level)?,
                    span: span_from_fields(d.span),
                    message: d.message,
                    label: d.label,
                    help: d.help,
                    notes: d.notes,
                    related: d
                        .related
                        .into_iter()
                        .map(|(path, span, message)| Related {
                            path,
                            span: span_from_fields(span),
                            message,
                        })
                        .collect(),
                    fix: match d.fix {
                        None => None,
                        Some(f) => Some(Fix {
                            message: f.message,
                            applicability: applicability(&f.applicability)?,
                            edits: f
                                .edits
                                .into_iter()
                                .map(|(start, end, replacement)| Edit {
                                    start,
                                    end,
                                    replacement,
                                })
                                .collect(),
                        }),
                    },
                })
            })
            .collect::<Option<Vec<Diagnostic>>>()?;
        Some(FileReport {
            path: self.path,
            source,
            diagnostics,
        })
    }
}

fn applicability(s: &str) -> Option<Applicability> {
    [
        Applicability::MachineApplicable,
        Applicability::MaybeIncorrect,
        Applicability::HasPlaceholders,
        Applicability::Unspecified,
    ]
    .into_iter()
    .find(|a| a.as_str() == s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report() -> FileReport {
        let source = Arc::new(SourceFile::new("src/a.rs".into(), "fn f() {}\n".into()));
        let lint = lints::registry::find("vague_error_text").expect("lint");
        let mut d = Diagnostic::new(lint, source.span(3, 4), "message")
            .with_label("label")
            .with_help("help")
            .with_note("note");
        d.level = Level::Deny;
        d.fix = Some(Fix {
            message: "fix".into(),
            applicability: Applicability::MaybeIncorrect,
            edits: vec![Edit {
                start: 0,
                end: 2,
                replacement: "pub fn".into(),
            }],
        });
        FileReport {
            path: "src/a.rs".into(),
            source: Some(source),
            diagnostics: vec![d],
        }
    }

    #[test]
    fn reports_round_trip_through_the_cache() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let cache = Cache::open(tmp.path());
        let key = KeyBuilder::new("t").field(b"x").finish();
        let original = report();
        cache.store_reports(&key, std::slice::from_ref(&original));
        let loaded = cache.load_reports(&key).expect("hit");
        let back: Vec<FileReport> = loaded
            .into_iter()
            .map(|r| r.into_report(original.source.clone()).expect("known lint"))
            .collect();
        assert_eq!(back.len(), 1);
        let (a, b) = (&original.diagnostics[0], &back[0].diagnostics[0]);
        assert_eq!(format!("{a:?}"), format!("{b:?}"));
        assert!(tmp.path().join(".gitignore").is_file());
    }

    #[test]
    fn corrupted_or_foreign_entries_are_misses() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let cache = Cache::open(tmp.path());
        let key = KeyBuilder::new("t").field(b"y").finish();
        cache.store_reports(&key, &[report()]);
        let path = cache.entry_path("r", &key);
        std::fs::write(&path, b"{\"truncated").expect("write");
        assert!(cache.load_reports(&key).is_none());
        let foreign = serde_json::to_vec(&vec![CachedReport {
            path: "a.rs".into(),
            diagnostics: vec![CachedDiagnostic {
                lint: "no_such_lint".into(),
                level: "deny".into(),
                span: [0; 6],
                message: String::new(),
                label: None,
                help: None,
                notes: Vec::new(),
                related: Vec::new(),
                fix: None,
            }],
        }])
        .expect("json");
        // With a valid checksum: still refused, for naming an unknown lint.
        cache.write_entry("r", &key, &foreign);
        assert!(cache.load_reports(&key).is_none());
        std::fs::write(cache.entry_path("r", &key), [0xff, 0x00]).expect("write");
        assert!(cache.load_reports(&key).is_none());
    }

    #[test]
    fn stamps_match_only_unchanged_files_and_fresh_files_are_not_trusted() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let file = tmp.path().join("a.rs");
        std::fs::write(&file, "fn a() {}").expect("write");
        let stamp = FileStamp::of(&file);
        let cache = Cache::open(&tmp.path().join("cache"));
        let id = KeyBuilder::new("id").finish();
        // Just written: too fresh to be trusted by metadata.
        cache.store_stamps(&id, &[stamp], Verdict::Skipped);
        assert_eq!(cache.check_stamps(&id, &[stamp]), None);
        // As if read well after the last change.
        let later = Cache {
            dir: cache.dir.clone(),
            started: SystemTime::now() + Duration::from_secs(10),
            root_marked: std::sync::Once::new(),
        };
        later.store_stamps(&id, &[stamp], Verdict::Skipped);
        assert_eq!(later.check_stamps(&id, &[stamp]), Some(Verdict::Skipped));
        std::fs::write(&file, "fn b() {}").expect("write");
        assert_eq!(later.check_stamps(&id, &[FileStamp::of(&file)]), None);
        assert_eq!(later.check_stamps(&id, &[None]), None);
    }
}
