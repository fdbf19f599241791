mod cache;
mod frontmatter;
mod info;
mod links;
pub(crate) mod lock;
mod patch;
mod path;
mod periodic;
mod search;
mod tags;
mod walk;
mod write;

use std::{
    collections::HashMap,
    fs,
    path::{Path, PathBuf},
    sync::Mutex,
};

use rayon::prelude::*;

use crate::error::VaultError;

use frontmatter::content_has_tag;
use path::{ensure_md_extension, safe_join};
use tags::{
    add_tags_to_content, add_tags_to_frontmatter, normalize_tag, remove_tags_from_note,
    rename_tag_in_note,
};
use walk::md_files;
use write::atomic_write;

pub use info::{DEFAULT_RECENT, InfoOutput, InfoQuery, RecentNote, Stats, TagCount};
pub use links::{LinkKind, LinkRef};
pub use patch::TargetKind;
pub use periodic::{Period, PeriodicAction, PeriodicOutput};
pub use search::{
    DEFAULT_LIMIT, DEFAULT_MAX_MATCHES_PER_FILE, MetaFilter, SearchLimits, SearchOutput,
    SearchQuery, SearchResult, SearchType, Snippet,
};

/// What an edit does to the note — or, with a `Target`, to that part of it.
#[derive(Debug, Clone, PartialEq, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum EditOperation {
    /// Add to the end.
    Append,
    /// Add to the start.
    Prepend,
    /// Overwrite entirely.
    Replace,
    /// Replace the first occurrence of `search`.
    FindAndReplace,
}

/// The part of a note an edit is confined to.
pub struct Target<'a> {
    pub kind: &'a TargetKind,
    /// A heading (with or without its `#`) or a block id (with or without `^`).
    pub name: &'a str,
}

/// One edit to one note. Without a `target` the operation applies to the whole
/// note, which is what `edit-note` did before patching existed.
pub struct Edit<'a> {
    pub operation: EditOperation,
    pub content: &'a str,
    /// The needle for `find_and_replace`.
    pub search: Option<&'a str>,
    pub target: Option<Target<'a>>,
}

/// One `periodic` call.
pub struct PeriodicRequest<'a> {
    pub period: Period,
    pub action: PeriodicAction,
    /// `YYYY-MM-DD`. Defaults to today, in the machine's own timezone.
    pub date: Option<&'a str>,
    /// Text for a note `create` brings into existence. Without it, the note is
    /// seeded from the template Obsidian is configured to use, if any.
    pub content: Option<&'a str>,
    /// How many notes `list` returns.
    pub limit: usize,
}

/// How much of a note to return.
#[derive(Debug, Clone, Default, PartialEq, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum NoteView {
    /// The note's full text.
    #[default]
    Content,
    /// Only what an edit can be aimed at — the note's headings, block references
    /// and frontmatter keys.
    Outline,
}

/// Lines returned by a `read-note` that doesn't say otherwise.
pub const DEFAULT_READ_LINES: usize = 400;

/// The most bytes one read may return, whatever `limit` says. A line cap is not
/// a guarantee on its own — a note can be a single 400 KB line — and the whole
/// point of these limits is that no one read can flood the model's context.
const MAX_READ_BYTES: usize = 50_000;

/// Which slice of a note to return.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadWindow {
    /// First line, 1-based — the same numbering `view: "outline"` prints, so a
    /// line number from the outline can be pasted straight in.
    pub offset: usize,
    /// Most lines to return.
    pub limit: usize,
}

impl Default for ReadWindow {
    fn default() -> Self {
        Self {
            offset: 1,
            limit: DEFAULT_READ_LINES,
        }
    }
}

/// Largest index `<= i` that doesn't split a UTF-8 character.
fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    if i >= s.len() {
        return s.len();
    }
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The requested window of `content`, followed by a marker saying what was left
/// out and how to ask for it. A note that fits comes back byte for byte.
fn clip(content: &str, w: &ReadWindow) -> String {
    let lines: Vec<&str> = content.lines().collect();
    let total = lines.len();
    if total == 0 {
        return content.to_string();
    }
    let start = w.offset.saturating_sub(1);
    if start >= total {
        return format!(
            "[this note has {total} line(s) — offset {} is past the end]\n",
            w.offset
        );
    }

    let mut out = String::new();
    // Index of the last line emitted, 1-based.
    let mut last = start;
    // Set when one line alone was bigger than the whole byte budget.
    let mut cut: Option<usize> = None;

    for (i, line) in lines[start..].iter().enumerate().take(w.limit) {
        let room = MAX_READ_BYTES.saturating_sub(out.len());
        if line.len() + 1 > room {
            // Emitting the line whole would break the promise. If it is the first
            // one, there is nothing to fall back on, so cut it rather than return
            // 400 KB; otherwise just stop here and let the caller page on.
            if out.is_empty() {
                let end = floor_char_boundary(line, room.saturating_sub(1));
                out.push_str(&line[..end]);
                out.push('\n');
                last = start + i + 1;
                cut = Some(last);
            }
            break;
        }
        out.push_str(line);
        out.push('\n');
        last = start + i + 1;
    }

    // Nothing was held back — hand the note over exactly as it is on disk.
    if start == 0 && last == total && cut.is_none() {
        return content.to_string();
    }

    let note = match cut {
        Some(n) => format!(
            "\n[truncated: line {n} on its own is over the {} KB read budget, so it was cut. \
             Use search-vault to find what you need inside it.]\n",
            MAX_READ_BYTES / 1000
        ),
        None if last < total => format!(
            "\n[showed lines {}-{} of {total}. Call read-note again with offset={} for the rest, \
             or view=\"outline\" for a map of the note.]\n",
            start + 1,
            last,
            last + 1
        ),
        None => format!(
            "\n[showed lines {}-{} of {total} — end of note.]\n",
            start + 1,
            last
        ),
    };
    out.push_str(&note);
    out
}

/// What the `frontmatter` tool should do with a note's YAML frontmatter.
#[derive(Debug, Clone, PartialEq, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum FrontmatterAction {
    /// Read the frontmatter — all of it, or one `key`.
    Get,
    /// Write `value` to `key`, leaving every other line of the note alone.
    Set,
    /// Delete `key`.
    Remove,
}

/// A note's frontmatter, after the requested action.
#[derive(Debug, Clone, serde::Serialize, schemars::JsonSchema)]
pub struct FrontmatterOutput {
    /// Vault-relative path of the note.
    pub path: String,
    /// The frontmatter as it now stands — or, for a `get` naming a key, that
    /// key's value alone (`null` when the note doesn't carry it).
    pub frontmatter: serde_json::Value,
    /// Whether the note was rewritten. `false` for `get`, and for a write that
    /// changed nothing.
    pub changed: bool,
}

/// Where a deleted note goes. Hidden, so `md_files` — and therefore search, the
/// link graph and `rename-tag` — never sees it again.
const TRASH: &str = ".trash";

// Typed, like every other vocabulary in this crate, so an unrecognised value is
// rejected as INVALID_PARAMS naming the offending input rather than silently
// falling through to a default: `location: "Frontmatter"` — one capital letter —
// used to land in the catch-all and write the tag to *both* places.
//
// Doc comments here reach the model, via schemars → the tool's inputSchema, and
// every conversation pays for them. Reasoning goes in `//` comments like this.
/// Where `add-tags` writes a tag.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum TagLocation {
    /// The YAML `tags:` list.
    Frontmatter,
    /// An inline `#tag` in the note's body.
    Content,
    /// Both — which means the tag appears in the note **twice**.
    #[default]
    Both,
}

/// Where an inline `#tag` goes in the body.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum TagPosition {
    Start,
    #[default]
    End,
}

/// A directory's own name, e.g. `notes` for `~/work/notes`.
fn basename(path: &Path) -> String {
    path.file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("vault")
        .to_string()
}

/// What `delete-note` did.
#[derive(Debug, Clone)]
pub struct DeleteOutcome {
    /// Where the note now sits, vault-relative — or `None` when it was erased.
    pub trashed_to: Option<String>,
}

/// What `move-note` did. `relinked` names the notes whose links were updated to
/// follow the moved note — empty when nothing pointed at it, or when the links
/// still resolve on their own (a bare `[[Note]]` survives a folder move).
#[derive(Debug, Clone)]
pub struct MoveOutcome {
    pub path: PathBuf,
    pub relinked: Vec<String>,
}

/// Which slice of the link graph the `wikilinks` tool should return.
#[derive(Debug, Clone, PartialEq, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum LinkQuery {
    /// Notes that link *to* the given note.
    Backlinks,
    /// Links *from* the given note.
    Outgoing,
    /// Links whose target does not exist.
    Broken,
    /// Notes nothing links to.
    Orphans,
}

/// Answer to a `wikilinks` query.
#[derive(Debug, Clone, serde::Serialize, schemars::JsonSchema)]
pub struct LinkOutput {
    /// Populated for `backlinks`, `outgoing` and `broken`.
    pub links: Vec<LinkRef>,
    /// Populated for `orphans` — vault-relative paths.
    pub notes: Vec<String>,
    /// Matches before `offset`/`limit` were applied.
    pub total: usize,
    pub offset: usize,
    /// Whether more exist past this page.
    pub truncated: bool,
}

/// How much of a link query to return. `broken` and `orphans` are unbounded by
/// nature — a neglected vault has thousands of each — so they are paged like
/// search results rather than shipped whole.
#[derive(Debug, Clone)]
pub struct LinkLimits {
    pub limit: usize,
    pub offset: usize,
}

/// Links returned by a `wikilinks` call that doesn't say otherwise.
pub const DEFAULT_LINK_LIMIT: usize = 50;

impl Default for LinkLimits {
    fn default() -> Self {
        Self {
            limit: DEFAULT_LINK_LIMIT,
            offset: 0,
        }
    }
}

/// One page of a sorted result set.
fn page<T>(items: Vec<T>, limits: &LinkLimits) -> Vec<T> {
    items
        .into_iter()
        .skip(limits.offset)
        .take(limits.limit)
        .collect()
}

#[derive(Debug)]
pub struct VaultManager {
    vaults: HashMap<String, PathBuf>,
    /// Serialises every mutation within this process. See `write_guard`.
    write_lock: Mutex<()>,
    /// Serialises every mutation *between* processes. `None` disables it, which
    /// is what happens when the OS offers no cache directory to put it in.
    lock_path: Option<PathBuf>,
    /// Note contents, so a vault-wide read does not re-read an unchanged vault.
    /// Read-only operations only — see `cache`.
    cache: cache::ContentCache,
}

/// Both halves of the write lock, released together when this is dropped.
struct WriteGuard<'a> {
    _in_process: std::sync::MutexGuard<'a, ()>,
    /// Dropping the file releases the advisory lock; the kernel does the same if
    /// the process dies, so a crash cannot wedge the other servers.
    _across_processes: Option<std::fs::File>,
}

impl VaultManager {
    pub fn new(vault_paths: Vec<PathBuf>) -> Self {
        Self::build(vault_paths, lock::default_lock_path())
    }

    /// Same, with the cross-process lock pointed somewhere harmless so a test
    /// run neither touches the real one nor blocks a server that is running.
    #[cfg(test)]
    pub(crate) fn with_lock_path(vault_paths: Vec<PathBuf>, lock_path: PathBuf) -> Self {
        Self::build(vault_paths, Some(lock_path))
    }

    fn build(vault_paths: Vec<PathBuf>, lock_path: Option<PathBuf>) -> Self {
        let mut vaults = HashMap::new();
        for path in vault_paths {
            let base = basename(&path);
            // Disambiguate when the basename collides — `~/work/notes` and
            // `~/personal/notes` would otherwise shadow each other silently.
            //
            // The disambiguator is the *parent directory*, not an ordinal. A
            // `notes-2` was assigned by argument order, so reordering the paths —
            // a plausible hand-edit of a config — silently swapped which vault
            // `notes` and `notes-2` meant, and "save this to notes" then wrote to
            // the wrong one. `work/notes` and `personal/notes` are stable, and
            // they actually tell the model which is which.
            let name = if vaults.contains_key(&base) {
                let qualified = match path.parent().map(basename) {
                    Some(parent) if !parent.is_empty() => format!("{parent}/{base}"),
                    _ => base.clone(),
                };
                tracing::warn!(
                    vault = %qualified,
                    original = %base,
                    path = %path.display(),
                    "vault basename collision — registered under its parent folder"
                );
                // Two vaults with the same name *and* the same parent name: now an
                // ordinal is the only thing left.
                let mut candidate = qualified.clone();
                let mut n = 2;
                while vaults.contains_key(&candidate) {
                    candidate = format!("{qualified}-{n}");
                    n += 1;
                }
                candidate
            } else {
                base
            };
            vaults.insert(name, path);
        }
        Self {
            vaults,
            write_lock: Mutex::new(()),
            lock_path,
            cache: cache::ContentCache::default(),
        }
    }

    /// Hold this for the whole of any mutation.
    ///
    /// Every write tool is a read-modify-write: read the note, edit the text,
    /// write it back. `atomic_write` makes the *write* atomic, but not the pair —
    /// and the MCP server answers requests concurrently, so two calls against one
    /// note would both read the old text and the second write would silently
    /// discard the first one's edit. Reads deliberately don't take this lock:
    /// `atomic_write` renames into place, so a reader sees the old note or the
    /// new one, never a torn one.
    ///
    /// The guard is **two** locks, because there is more than one server. A
    /// mutex settles the threads inside this process; an advisory file lock
    /// settles the other processes, which duplicate-spawning clients and
    /// multi-client setups produce routinely. Without the second one, two live
    /// servers on one vault lose an edit exactly as two threads would. See
    /// `lock`.
    ///
    /// One lock for all writes, rather than one per note: vault mutations are
    /// short, tool calls are not a hot loop, and a single lock cannot deadlock.
    ///
    /// It is **not** reentrant: a guarded method must never call another guarded
    /// method. `periodic` therefore delegates its write to `create_note` and takes
    /// no guard of its own.
    fn write_guard(&self) -> WriteGuard<'_> {
        // A poisoned lock means some earlier call panicked mid-edit. Refusing
        // every write from then on is worse than carrying on.
        let in_process = self
            .write_lock
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());

        let across_processes = self.lock_path.as_deref().and_then(|path| {
            let held = lock::lock_exclusive(path);
            if held.is_none() {
                // Degraded, not fatal: this process still serialises its own
                // writes. Refusing to write at all because a cache directory is
                // missing would be the worse failure of the two.
                tracing::warn!(
                    path = %path.display(),
                    "could not take the cross-process write lock — concurrent servers on this vault may lose edits"
                );
            }
            held
        });

        WriteGuard {
            _in_process: in_process,
            _across_processes: across_processes,
        }
    }

    pub fn list_vaults(&self) -> Vec<(String, PathBuf)> {
        let mut list: Vec<(String, PathBuf)> = self
            .vaults
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        list.sort_by(|a, b| a.0.cmp(&b.0));
        list
    }

    pub fn resolve_vault(&self, name: &str) -> Result<&Path, VaultError> {
        let path = self.resolve_registered(name)?;
        // A vault path that isn't there is nearly always a typo made when the
        // server was configured — and until now it was invisible: every search
        // came back empty and every tool said `isError: false`, so the model
        // reported "I looked through your vault and found nothing". The warning
        // we printed went to stderr, which MCP clients swallow. Say it in-band,
        // where the model — and therefore the user — will actually see it.
        if !path.exists() {
            return Err(VaultError::VaultUnavailable(
                name.to_string(),
                path.display().to_string(),
            ));
        }
        Ok(path)
    }

    /// The vault's configured path, whether or not it exists on disk.
    fn resolve_registered(&self, name: &str) -> Result<&Path, VaultError> {
        self.vaults.get(name).map(|p| p.as_path()).ok_or_else(|| {
            let available = self.vaults.keys().cloned().collect::<Vec<_>>().join(", ");
            VaultError::VaultNotFound(name.to_string(), available)
        })
    }

    pub fn note_path(
        &self,
        vault: &str,
        filename: &str,
        folder: Option<&str>,
    ) -> Result<PathBuf, VaultError> {
        let root = self.resolve_vault(vault)?;
        let filename = ensure_md_extension(filename);
        safe_join(root, folder, &filename)
    }

    pub fn read_note(
        &self,
        vault: &str,
        filename: &str,
        folder: Option<&str>,
        view: &NoteView,
        window: &ReadWindow,
    ) -> Result<String, VaultError> {
        let content = self.note_content(vault, filename, folder)?;
        Ok(match view {
            // The outline is a handful of lines by construction, so the window
            // has nothing to protect against and would only get in the way.
            NoteView::Outline => patch::outline(&content),
            NoteView::Content => clip(&content, window),
        })
    }

    /// A note's text, or `NoteNotFound`. The read every note-scoped tool starts
    /// from.
    fn note_content(
        &self,
        vault: &str,
        filename: &str,
        folder: Option<&str>,
    ) -> Result<String, VaultError> {
        let path = self.note_path(vault, filename, folder)?;
        if !path.exists() {
            return Err(VaultError::NoteNotFound(
                path.display().to_string(),
                vault.to_string(),
            ));
        }
        fs::read_to_string(&path).map_err(|e| VaultError::io(path.display().to_string(), e))
    }

    pub fn create_note(
        &self,
        vault: &str,
        filename: &str,
        content: &str,
        folder: Option<&str>,
    ) -> Result<PathBuf, VaultError> {
        let _guard = self.write_guard();
        let path = self.note_path(vault, filename, folder)?;
        if path.exists() {
            return Err(VaultError::NoteAlreadyExists(
                path.display().to_string(),
                vault.to_string(),
            ));
        }
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)
                .map_err(|e| VaultError::io(parent.display().to_string(), e))?;
        }
        atomic_write(&path, content.as_bytes())?;
        Ok(path)
    }

    /// Apply `edit` to a note, returning its text before and after so the caller
    /// can show a diff.
    ///
    /// With `edit.target` set, only the bytes that target covers are rewritten —
    /// the rest of the note is passed through untouched. That is the point: a
    /// whole-note `replace` silently loses anything the model failed to
    /// reproduce, and on a long note it usually fails to reproduce something.
    pub fn edit_note(
        &self,
        vault: &str,
        filename: &str,
        folder: Option<&str>,
        edit: &Edit<'_>,
    ) -> Result<(String, String), VaultError> {
        let _guard = self.write_guard();
        let path = self.note_path(vault, filename, folder)?;
        let old = self.note_content(vault, filename, folder)?;

        let needle = || {
            edit.search.ok_or_else(|| {
                VaultError::MissingArgument(
                    "edit-note with operation=\"find_and_replace\" also needs a 'search' parameter — the text to look for."
                        .to_string(),
                )
            })
        };

        let new = match &edit.target {
            None => match edit.operation {
                EditOperation::Append => format!("{}\n{}", old.trim_end(), edit.content),
                EditOperation::Prepend => format!("{}\n{}", edit.content, old.trim_start()),
                EditOperation::Replace => edit.content.to_string(),
                EditOperation::FindAndReplace => {
                    let needle = needle()?;
                    if !old.contains(needle) {
                        return Err(VaultError::SearchTextNotFound(
                            needle.to_string(),
                            filename.to_string(),
                        ));
                    }
                    old.replacen(needle, edit.content, 1)
                }
            },
            Some(target) => {
                let region =
                    patch::find_region(&old, target.kind, target.name).ok_or_else(|| {
                        VaultError::TargetNotFound(target.name.to_string(), filename.to_string())
                    })?;
                match edit.operation {
                    EditOperation::Append => patch::append(&old, &region, edit.content),
                    EditOperation::Prepend => patch::prepend(&old, &region, edit.content),
                    EditOperation::Replace => patch::replace(&old, &region, edit.content),
                    EditOperation::FindAndReplace => {
                        let needle = needle()?;
                        patch::find_and_replace(&old, &region, needle, edit.content).ok_or_else(
                            || {
                                VaultError::SearchTextNotFound(
                                    needle.to_string(),
                                    filename.to_string(),
                                )
                            },
                        )?
                    }
                }
            }
        };

        atomic_write(&path, new.as_bytes())?;
        Ok((old, new))
    }

    /// Read or rewrite a note's YAML frontmatter.
    ///
    /// A write is line surgery on the one key named — every other line, comment
    /// and key ordering survives byte-for-byte. A YAML round-trip would be far
    /// less code and would reformat the user's whole block.
    pub fn frontmatter(
        &self,
        vault: &str,
        filename: &str,
        folder: Option<&str>,
        action: &FrontmatterAction,
        key: Option<&str>,
        value: Option<&serde_json::Value>,
    ) -> Result<FrontmatterOutput, VaultError> {
        let _guard = self.write_guard();
        let root = self.resolve_vault(vault)?.to_path_buf();
        let path = self.note_path(vault, filename, folder)?;
        let content = self.note_content(vault, filename, folder)?;
        let rel = rel_path(&root, &path);

        let key = || {
            key.filter(|k| !k.is_empty()).ok_or_else(|| {
                VaultError::MissingArgument(format!(
                    "the frontmatter '{action:?}' action also needs a 'key' — which field to act on."
                ))
            })
        };
        let invalid = |e: String| VaultError::InvalidFrontmatter(rel.clone(), e);

        let updated = match action {
            FrontmatterAction::Get => None,
            FrontmatterAction::Set => {
                let value = value.ok_or_else(|| {
                    VaultError::MissingArgument(
                        "the frontmatter 'set' action also needs a 'value' — what to write."
                            .to_string(),
                    )
                })?;
                Some(frontmatter::set_field(&content, key()?, value).map_err(invalid)?)
            }
            FrontmatterAction::Remove => Some(frontmatter::remove_field(&content, key()?)),
        };

        // Setting a key to what it already says isn't a write.
        let changed = updated.as_deref().is_some_and(|new| new != content);
        if changed {
            atomic_write(&path, updated.as_deref().unwrap_or_default().as_bytes())?;
        }
        let current = if changed {
            updated.unwrap_or_default()
        } else {
            content
        };

        let fields = frontmatter::parse_fields(&current).map_err(invalid)?;
        let frontmatter = match action {
            // `get` naming a key answers with that key, not the whole block.
            FrontmatterAction::Get if key().is_ok() => fields
                .get(key()?)
                .cloned()
                .unwrap_or(serde_json::Value::Null),
            _ => serde_json::Value::Object(fields),
        };

        Ok(FrontmatterOutput {
            path: rel,
            frontmatter,
            changed,
        })
    }

    /// Delete a note — by default to the vault's `.trash/`, so the user can get
    /// it back.
    ///
    /// An agent deleting the wrong note is a plausible mistake and an
    /// unrecoverable one, so the default is the recoverable path. This is also
    /// what Obsidian itself does. `.trash` is hidden, and `md_files` skips hidden
    /// directories, so a trashed note disappears from search and the link graph
    /// exactly as if it were gone (test: `hidden_directories_are_not_walked`).
    pub fn delete_note(
        &self,
        vault: &str,
        filename: &str,
        folder: Option<&str>,
        permanent: bool,
    ) -> Result<DeleteOutcome, VaultError> {
        let _guard = self.write_guard();
        let root = self.resolve_vault(vault)?.to_path_buf();
        let path = self.note_path(vault, filename, folder)?;
        if !path.exists() {
            return Err(VaultError::NoteNotFound(
                path.display().to_string(),
                vault.to_string(),
            ));
        }

        // Emptying the trash is the one delete that must actually erase.
        let already_trashed = path.strip_prefix(&root).is_ok_and(|r| r.starts_with(TRASH));
        if permanent || already_trashed {
            fs::remove_file(&path).map_err(|e| VaultError::io(path.display().to_string(), e))?;
            prune_empty_parent(&path, &root);
            return Ok(DeleteOutcome { trashed_to: None });
        }

        // Mirror the note's folder inside the trash, so `a/note.md` and
        // `b/note.md` don't land on top of each other.
        let rel = path.strip_prefix(&root).unwrap_or(&path).to_path_buf();
        let dest = free_path(&root.join(TRASH).join(&rel));
        if let Some(parent) = dest.parent() {
            fs::create_dir_all(parent)
                .map_err(|e| VaultError::io(parent.display().to_string(), e))?;
        }
        fs::rename(&path, &dest).map_err(|e| VaultError::io(path.display().to_string(), e))?;
        prune_empty_parent(&path, &root);

        Ok(DeleteOutcome {
            trashed_to: Some(rel_path(&root, &dest)),
        })
    }

    /// Move or rename a note, updating every `[[wikilink]]` and markdown link
    /// that pointed at it.
    ///
    /// Returns the new path and the notes whose links were rewritten. The move
    /// itself is a single `fs::rename`, and each link rewrite is an
    /// `atomic_write` — but the operation *as a whole* is not atomic. A journal
    /// would be needed for that, which is a large bet for a local single-user
    /// tool; instead a failed rewrite is reported rather than swallowed.
    pub fn move_note(
        &self,
        vault: &str,
        filename: &str,
        folder: Option<&str>,
        new_folder: Option<&str>,
        new_filename: Option<&str>,
    ) -> Result<MoveOutcome, VaultError> {
        let _guard = self.write_guard();
        let root = self.resolve_vault(vault)?.to_path_buf();
        let src = self.note_path(vault, filename, folder)?;
        if !src.exists() {
            return Err(VaultError::NoteNotFound(
                src.display().to_string(),
                vault.to_string(),
            ));
        }
        let dest_filename = new_filename.unwrap_or(filename);
        // An omitted `new_folder` means "leave the note where it is", not "move it
        // to the vault root". Reading it as the root silently turns a *rename*
        // into a relocation, and `prune_empty_parent` then deletes the folder the
        // note just left. An explicit `""` is how a caller asks for the root.
        let dest_folder = new_folder.or(folder);
        let dest = self.note_path(vault, dest_filename, dest_folder)?;
        if let Some(parent) = dest.parent() {
            fs::create_dir_all(parent)
                .map_err(|e| VaultError::io(parent.display().to_string(), e))?;
        }

        // Resolve links against the vault as it stands *before* the move —
        // afterwards `src` no longer exists and nothing would resolve to it.
        let files = md_files(&root);
        let resolver = links::Resolver::new(&root, &files);

        fs::rename(&src, &dest).map_err(|e| VaultError::io(src.display().to_string(), e))?;
        prune_empty_parent(&src, &root);

        let dest_rel = rel_path(&root, &dest);

        // The moved note can link to itself; it is already at its new path, so
        // rewrite it there rather than at the path it just left.
        let mut relinked: Vec<String> = files
            .par_iter()
            .filter_map(|path| {
                let read_at = if path == &src { &dest } else { path };
                let content = fs::read_to_string(read_at).ok()?;
                let updated =
                    links::rewrite_links(&content, path, &src, &dest_rel, &resolver)?;
                match atomic_write(read_at, updated.as_bytes()) {
                    Ok(()) => Some(rel_path(&root, read_at)),
                    Err(e) => {
                        tracing::warn!(note = %read_at.display(), error = %e, "failed to update links");
                        None
                    }
                }
            })
            .collect();
        relinked.sort();

        Ok(MoveOutcome {
            path: dest,
            relinked,
        })
    }

    pub fn create_directory(
        &self,
        vault: &str,
        path: &str,
        recursive: bool,
    ) -> Result<PathBuf, VaultError> {
        let _guard = self.write_guard();
        let root = self.resolve_vault(vault)?;
        let dir = safe_join(root, None, path)?;
        if dir.exists() {
            return Err(VaultError::DirectoryAlreadyExists(
                dir.display().to_string(),
            ));
        }
        if recursive {
            fs::create_dir_all(&dir).map_err(|e| VaultError::io(dir.display().to_string(), e))?;
        } else {
            fs::create_dir(&dir).map_err(|e| VaultError::io(dir.display().to_string(), e))?;
        }
        Ok(dir)
    }

    pub fn search_vault(
        &self,
        vault: &str,
        search_path: Option<&str>,
        query: &SearchQuery<'_>,
        limits: &SearchLimits,
    ) -> Result<SearchOutput, VaultError> {
        let root = self.resolve_vault(vault)?;
        let search_root = match search_path {
            Some(p) if !p.is_empty() => safe_join(root, None, p)?,
            _ => root.to_path_buf(),
        };
        search::search(root, &search_root, query, limits, &self.cache)
    }

    /// Query the vault's link graph. One parallel pass builds the whole graph,
    /// so no index is kept and nothing can go stale.
    pub fn wikilinks(
        &self,
        vault: &str,
        query: &LinkQuery,
        filename: Option<&str>,
        folder: Option<&str>,
        limits: &LinkLimits,
    ) -> Result<LinkOutput, VaultError> {
        let root = self.resolve_vault(vault)?.to_path_buf();
        let (files, _, refs) = links::link_graph(&root, &self.cache);

        // `backlinks` and `outgoing` are about one note, so they need one.
        let note = match query {
            LinkQuery::Backlinks | LinkQuery::Outgoing => {
                let filename = filename.ok_or_else(|| {
                    VaultError::MissingArgument(format!(
                        "the wikilinks '{}' query also needs a 'filename' — the note to ask about.",
                        match query {
                            LinkQuery::Backlinks => "backlinks",
                            _ => "outgoing",
                        }
                    ))
                })?;
                let path = self.note_path(vault, filename, folder)?;
                if !path.exists() {
                    return Err(VaultError::NoteNotFound(
                        path.display().to_string(),
                        vault.to_string(),
                    ));
                }
                Some(rel_path(&root, &path))
            }
            _ => None,
        };

        let (links, notes) = match query {
            LinkQuery::Backlinks => {
                let note = note.expect("checked above");
                let mut hits: Vec<LinkRef> = refs
                    .into_iter()
                    .filter(|r| r.resolved.as_deref() == Some(note.as_str()))
                    .collect();
                hits.sort_by(|a, b| (&a.from, a.line).cmp(&(&b.from, b.line)));
                (hits, Vec::new())
            }
            LinkQuery::Outgoing => {
                let note = note.expect("checked above");
                let mut hits: Vec<LinkRef> = refs.into_iter().filter(|r| r.from == note).collect();
                hits.sort_by_key(|r| r.line);
                (hits, Vec::new())
            }
            LinkQuery::Broken => {
                let mut hits: Vec<LinkRef> =
                    refs.into_iter().filter(|r| r.resolved.is_none()).collect();
                hits.sort_by(|a, b| (&a.from, a.line).cmp(&(&b.from, b.line)));
                (hits, Vec::new())
            }
            LinkQuery::Orphans => {
                let linked: std::collections::HashSet<&str> =
                    refs.iter().filter_map(|r| r.resolved.as_deref()).collect();
                let mut notes: Vec<String> = files
                    .iter()
                    .map(|p| rel_path(&root, p))
                    .filter(|rel| !linked.contains(rel.as_str()))
                    .collect();
                notes.sort();
                (Vec::new(), notes)
            }
        };

        // `broken` and `orphans` on a real vault are exactly the queries that
        // return thousands of rows, and this tool had no cap at all — the same
        // hole `search-vault` was built to avoid. Page it the same way.
        let total = links.len() + notes.len();
        let truncated = total > limits.offset + limits.limit;
        Ok(LinkOutput {
            links: page(links, limits),
            notes: page(notes, limits),
            total,
            offset: limits.offset,
            truncated,
        })
    }

    /// Read, create or list a periodic note — today's daily note and its
    /// weekly/monthly/quarterly/yearly siblings.
    ///
    /// The note's name and folder come from Obsidian's own settings, so we write
    /// to the note the user actually keeps. Guessing would create a stray note
    /// alongside the real one, which is worse than failing.
    ///
    /// Takes no write guard of its own: it delegates the write to `create_note`,
    /// and the guard is not reentrant.
    pub fn periodic(
        &self,
        vault: &str,
        req: &PeriodicRequest<'_>,
    ) -> Result<PeriodicOutput, VaultError> {
        let root = self.resolve_vault(vault)?.to_path_buf();

        if req.action == PeriodicAction::List {
            return Ok(PeriodicOutput {
                path: None,
                content: None,
                created: false,
                notes: periodic::list(
                    &root,
                    req.period,
                    req.limit,
                    periodic::lookback(req.period),
                )?,
            });
        }

        let date = match req.date {
            Some(given) => periodic::parse_date(given)?,
            None => periodic::today(),
        };
        let resolved = periodic::resolve(&root, req.period, date)?;
        let folder = periodic::folder_of(&resolved);
        let path = self.note_path(vault, &resolved.filename, folder)?;
        let rel = rel_path(&root, &path);

        // `create` is idempotent: an agent asking for today's note wants the note,
        // not an error because it already exists.
        let created = req.action == PeriodicAction::Create && !path.exists();
        if created {
            let seed = req.content.unwrap_or(&resolved.seed);
            self.create_note(vault, &resolved.filename, seed, folder)?;
        }

        // Same cap `read-note` is under, for the same reason. A daily note is
        // small, but a yearly one is a year of appends, and `periodic` was the
        // one remaining way to pull a whole note into the context unbounded.
        // The marker `clip` appends names `read-note` and an offset — and we
        // hand back the `path` it needs, so the rest is one call away.
        let content = self.note_content(vault, &resolved.filename, folder)?;
        Ok(PeriodicOutput {
            path: Some(rel),
            content: Some(clip(&content, &ReadWindow::default())),
            created,
            notes: Vec::new(),
        })
    }

    /// Describe the vault: its tags, its recently touched notes, or its size.
    ///
    /// A read-only orientation step — a model that has just been pointed at a
    /// vault can't search it usefully until it knows what's in there.
    pub fn vault_info(
        &self,
        vault: &str,
        query: &InfoQuery,
        limit: usize,
    ) -> Result<InfoOutput, VaultError> {
        let root = self.resolve_vault(vault)?;
        Ok(info::info(root, query, limit, &self.cache))
    }

    pub fn add_tags(
        &self,
        vault: &str,
        files: &[String],
        tags: &[String],
        location: TagLocation,
        normalize: bool,
        position: TagPosition,
    ) -> Result<Vec<String>, VaultError> {
        let _guard = self.write_guard();
        let root = self.resolve_vault(vault)?;
        let targets = self.resolve_batch(root, vault, files)?;

        let processed_tags: Vec<String> = tags
            .iter()
            .map(|t| {
                if normalize {
                    normalize_tag(t)
                } else {
                    t.clone()
                }
            })
            .collect();

        let mut modified = Vec::new();
        for (file, path) in targets {
            let content = fs::read_to_string(&path)
                .map_err(|e| VaultError::io(path.display().to_string(), e))?;

            let new_content = match location {
                TagLocation::Content => add_tags_to_content(&content, &processed_tags, position),
                TagLocation::Frontmatter => add_tags_to_frontmatter(&content, &processed_tags),
                TagLocation::Both => {
                    let with_front = add_tags_to_frontmatter(&content, &processed_tags);
                    add_tags_to_content(&with_front, &processed_tags, position)
                }
            };

            atomic_write(&path, new_content.as_bytes())?;
            modified.push(file);
        }

        Ok(modified)
    }

    pub fn remove_tags(
        &self,
        vault: &str,
        files: &[String],
        tags: &[String],
    ) -> Result<Vec<String>, VaultError> {
        let _guard = self.write_guard();
        let root = self.resolve_vault(vault)?;
        let targets = self.resolve_batch(root, vault, files)?;

        let mut modified = Vec::new();
        for (file, path) in targets {
            let content = fs::read_to_string(&path)
                .map_err(|e| VaultError::io(path.display().to_string(), e))?;

            let new_content = remove_tags_from_note(&content, tags);
            atomic_write(&path, new_content.as_bytes())?;
            modified.push(file);
        }

        Ok(modified)
    }

    /// Resolve every file in a batch *before* writing any of them.
    ///
    /// The tag tools used to skip the files they couldn't find, then report
    /// `Added tags ["x"] to 0 file(s):` with `isError: false` — which a model
    /// reads as success and moves on from. Nothing signalled that the work had
    /// not happened. Checking first means a batch either applies or fails with
    /// the names it couldn't find, and never half-applies.
    fn resolve_batch(
        &self,
        root: &Path,
        vault: &str,
        files: &[String],
    ) -> Result<Vec<(String, PathBuf)>, VaultError> {
        let mut found = Vec::with_capacity(files.len());
        let mut missing = Vec::new();
        for file in files {
            let path = safe_join(root, None, file)?;
            if path.exists() {
                found.push((file.clone(), path));
            } else {
                missing.push(file.clone());
            }
        }
        if !missing.is_empty() {
            return Err(VaultError::NotesNotFound(
                missing.join(", "),
                vault.to_string(),
            ));
        }
        Ok(found)
    }

    pub fn rename_tag(
        &self,
        vault: &str,
        old_tag: &str,
        new_tag: &str,
    ) -> Result<Vec<String>, VaultError> {
        let _guard = self.write_guard();
        let root = self.resolve_vault(vault)?;

        let mut modified: Vec<String> = md_files(root)
            .par_iter()
            .map(|path| -> Result<Option<String>, VaultError> {
                let content = fs::read_to_string(path)
                    .map_err(|e| VaultError::io(path.display().to_string(), e))?;
                if !content_has_tag(&content, old_tag) {
                    return Ok(None);
                }
                let new_content = rename_tag_in_note(&content, old_tag, new_tag);
                atomic_write(path, new_content.as_bytes())?;
                Ok(Some(rel_path(root, path)))
            })
            .collect::<Result<Vec<_>, _>>()?
            .into_iter()
            .flatten()
            .collect();
        modified.sort();

        Ok(modified)
    }
}

/// A free path at or beside `wanted`: `note.md`, then `note-2.md`, and so on.
/// Two notes with the same name deleted from different folders must both survive
/// in the trash.
fn free_path(wanted: &Path) -> PathBuf {
    if !wanted.exists() {
        return wanted.to_path_buf();
    }
    let stem = wanted
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    let ext = wanted
        .extension()
        .map(|e| format!(".{}", e.to_string_lossy()))
        .unwrap_or_default();

    (2..)
        .map(|n| wanted.with_file_name(format!("{}-{}{}", stem, n, ext)))
        .find(|candidate| !candidate.exists())
        .expect("the integers run out long after the filesystem does")
}

/// A note's path as the vault refers to it: relative to the root, `/`-separated
/// on every platform.
///
/// **Every path that leaves this crate goes through here.** Ranked search and
/// `rename-tag` each used to build their own with `Path::display()`, which on
/// Windows emitted `sub\deep.md` while the link graph and the other search paths
/// emitted `sub/deep.md` — so the same note had two names depending on which tool
/// you asked, and only the CI Windows leg noticed.
fn rel_path(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/")
}

/// Remove `note`'s parent directory if the just-completed operation left it
/// empty — but never the vault `root`. Best-effort: a failed cleanup is logged,
/// not propagated, so it can't fail the move/delete that triggered it.
fn prune_empty_parent(note: &Path, root: &Path) {
    if let Some(parent) = note.parent()
        && parent != root
        && fs::read_dir(parent).is_ok_and(|mut d| d.next().is_none())
        && let Err(e) = fs::remove_dir(parent)
    {
        tracing::warn!(dir = %parent.display(), error = %e, "failed to remove emptied source folder");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use tempfile::TempDir;

    // An absolute path outside any vault, for the current OS. A `/etc/…` string
    // is absolute on Unix but NOT on Windows (no drive prefix), where it would be
    // rejected by the escape check instead of the absolute-path check — so we use
    // a genuine per-OS absolute path to exercise the `is_absolute()` branch.
    #[cfg(unix)]
    const ABS_FILE: &str = "/etc/passwd";
    #[cfg(not(unix))]
    const ABS_FILE: &str = r"C:\Windows\System32\drivers\etc\hosts";
    #[cfg(unix)]
    const ABS_FOLDER: &str = "/tmp";
    #[cfg(not(unix))]
    const ABS_FOLDER: &str = r"C:\Windows";

    fn make_vault() -> (TempDir, VaultManager) {
        let dir = TempDir::new().unwrap();
        // A hidden lock file inside the temp vault: `md_files` skips hidden
        // entries, so it stays invisible to every walk, and the real one in the
        // user's cache directory is left alone by the whole test run.
        let manager = VaultManager::with_lock_path(
            vec![dir.path().to_path_buf()],
            dir.path().join(".write.lock"),
        );
        (dir, manager)
    }

    /// The reason the file lock exists: a *second server process* must not be
    /// able to run a read-modify-write while this one is inside one.
    ///
    /// The stand-in for that second process is an independent file descriptor on
    /// the same lock file. Advisory locks are held per open file description, so
    /// a second descriptor conflicts with the first even from one process —
    /// which is exactly the conflict a separate process would produce, without
    /// the flakiness of racing two real ones.
    #[test]
    fn a_write_waits_while_another_server_holds_the_lock() {
        use std::sync::Arc;
        use std::sync::atomic::{AtomicBool, Ordering};

        let dir = TempDir::new().unwrap();
        let lock_path = dir.path().join(".write.lock");
        let name = vault_name(&dir);
        let manager =
            VaultManager::with_lock_path(vec![dir.path().to_path_buf()], lock_path.clone());

        let other_server = lock::lock_exclusive(&lock_path).expect("hold the lock");

        let wrote = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&wrote);
        let worker = std::thread::spawn(move || {
            manager
                .create_note(&name, "note.md", "# hello", None)
                .unwrap();
            flag.store(true, Ordering::SeqCst);
        });

        std::thread::sleep(std::time::Duration::from_millis(300));
        assert!(
            !wrote.load(Ordering::SeqCst),
            "the write went ahead while another server held the lock"
        );

        drop(other_server);

        worker
            .join()
            .expect("the write should finish once the lock is free");
        assert!(wrote.load(Ordering::SeqCst));
        assert_eq!(
            fs::read_to_string(dir.path().join("note.md")).unwrap(),
            "# hello"
        );
    }

    /// The invariant that keeps the content cache from eating data: a
    /// read-modify-write must read from disk, never from memory.
    ///
    /// Set up the worst case the cache's `(mtime, len)` stamp cannot see — an
    /// outside writer replacing the text with something the same length inside
    /// the same mtime tick — and then edit the note. A search may serve the
    /// stale snippet; that is the accepted trade. An *edit* built on stale text
    /// would write the other writer's change out of existence, and that is not.
    #[test]
    fn an_edit_never_builds_on_a_cached_read() {
        let dir = TempDir::new().unwrap();
        let name = vault_name(&dir);
        let manager = VaultManager::with_lock_path(
            vec![dir.path().to_path_buf()],
            dir.path().join(".write.lock"),
        );

        let note = dir.path().join("a.md");
        fs::write(&note, "AAAA").unwrap();

        // Populate the cache through a read-only path.
        manager
            .search_vault(
                &name,
                None,
                &SearchQuery {
                    query: "AAAA",
                    case_sensitive: false,
                    search_type: &SearchType::Content,
                    regex: false,
                    frontmatter: &MetaFilter::new(),
                },
                &SearchLimits::default(),
            )
            .unwrap();

        // Someone else rewrites it: same length, same timestamp. Nothing the
        // stamp can detect.
        let stamp = fs::metadata(&note).unwrap().modified().unwrap();
        fs::write(&note, "BBBB").unwrap();
        fs::OpenOptions::new()
            .write(true)
            .open(&note)
            .unwrap()
            .set_modified(stamp)
            .unwrap();

        manager
            .edit_note(
                &name,
                "a.md",
                None,
                &Edit {
                    operation: EditOperation::Append,
                    content: "X",
                    search: None,
                    target: None,
                },
            )
            .unwrap();

        let on_disk = fs::read_to_string(&note).unwrap();
        assert!(
            on_disk.starts_with("BBBB"),
            "the edit was built on cached text and destroyed the other writer's change: {on_disk:?}"
        );
    }

    fn vault_name(dir: &TempDir) -> String {
        dir.path()
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .to_string()
    }

    fn write_note(dir: &TempDir, filename: &str, content: &str) {
        fs::write(dir.path().join(filename), content).unwrap();
    }

    /// A plain word query — the shape every pre-regex caller used.
    fn text_query<'a>(
        query: &'a str,
        case_sensitive: bool,
        search_type: &'a SearchType,
    ) -> SearchQuery<'a> {
        SearchQuery {
            query,
            case_sensitive,
            search_type,
            regex: false,
            frontmatter: NO_FILTER.get_or_init(MetaFilter::new),
        }
    }

    static NO_FILTER: std::sync::OnceLock<MetaFilter> = std::sync::OnceLock::new();

    /// A whole-note edit — the shape every pre-patch caller used.
    fn edit<'a>(operation: EditOperation, content: &'a str, search: Option<&'a str>) -> Edit<'a> {
        Edit {
            operation,
            content,
            search,
            target: None,
        }
    }

    /// An edit aimed at one heading or block.
    fn patch<'a>(
        operation: EditOperation,
        content: &'a str,
        kind: &'a TargetKind,
        name: &'a str,
    ) -> Edit<'a> {
        Edit {
            operation,
            content,
            search: None,
            target: Some(Target { kind, name }),
        }
    }

    #[test]
    fn append_adds_content_to_end() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "note.md", "hello");

        let (old, new) = vault
            .edit_note(
                &name,
                "note",
                None,
                &edit(EditOperation::Append, " world", None),
            )
            .unwrap();

        assert_eq!(old, "hello");
        assert_eq!(new, "hello\n world");
    }

    #[test]
    fn prepend_adds_content_to_start() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "note.md", "world");

        let (old, new) = vault
            .edit_note(
                &name,
                "note",
                None,
                &edit(EditOperation::Prepend, "hello\n", None),
            )
            .unwrap();

        assert_eq!(old, "world");
        assert_eq!(new, "hello\n\nworld");
    }

    #[test]
    fn replace_overwrites_entire_content() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "note.md", "old content");

        let (old, new) = vault
            .edit_note(
                &name,
                "note",
                None,
                &edit(EditOperation::Replace, "new content", None),
            )
            .unwrap();

        assert_eq!(old, "old content");
        assert_eq!(new, "new content");
        assert_eq!(
            fs::read_to_string(dir.path().join("note.md")).unwrap(),
            "new content"
        );
    }

    #[test]
    fn find_and_replace_substitutes_first_occurrence() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "note.md", "foo bar foo");

        let (old, new) = vault
            .edit_note(
                &name,
                "note",
                None,
                &edit(EditOperation::FindAndReplace, "baz", Some("foo")),
            )
            .unwrap();

        assert_eq!(old, "foo bar foo");
        assert_eq!(new, "baz bar foo");
        assert_eq!(
            fs::read_to_string(dir.path().join("note.md")).unwrap(),
            "baz bar foo"
        );
    }

    #[test]
    fn find_and_replace_returns_error_when_search_text_not_found() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "note.md", "hello world");

        let result = vault.edit_note(
            &name,
            "note",
            None,
            &edit(
                EditOperation::FindAndReplace,
                "replacement",
                Some("missing"),
            ),
        );

        // The message must hand back *what* was searched for. "Search text not
        // found in note 'note.md'" gave the model nothing at all to correct.
        let err = result.unwrap_err().to_string();
        assert!(err.contains("missing"), "the needle must be echoed: {err}");
        assert!(err.contains("byte for byte"), "{err}");
    }

    #[test]
    fn find_and_replace_returns_error_when_search_param_missing() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "note.md", "hello");

        let result = vault.edit_note(
            &name,
            "note",
            None,
            &edit(EditOperation::FindAndReplace, "replacement", None),
        );

        assert!(result.is_err());
        assert!(result.unwrap_err().to_string().contains("search"));
    }

    // An unknown operation can no longer reach the domain: `EditOperation` is a
    // typed enum, so serde rejects it as INVALID_PARAMS at the tool boundary.
    // That rejection is covered in `tools::edit_note`.

    #[test]
    fn edit_returns_error_for_missing_note() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);

        let result = vault.edit_note(
            &name,
            "nonexistent",
            None,
            &edit(EditOperation::Append, "data", None),
        );

        assert!(result.is_err());
    }

    #[test]
    fn append_persists_to_disk() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "note.md", "line1");

        vault
            .edit_note(
                &name,
                "note",
                None,
                &edit(EditOperation::Append, "line2", None),
            )
            .unwrap();

        assert_eq!(
            fs::read_to_string(dir.path().join("note.md")).unwrap(),
            "line1\nline2"
        );
    }

    // ── Concurrent writes ─────────────────────────────────────────────────────

    #[test]
    fn concurrent_edits_to_one_note_do_not_lose_updates() {
        // The MCP server answers requests concurrently. Every write tool is a
        // read-modify-write, so without serialisation these threads all read the
        // same original note and all but the last write is silently discarded.
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "note.md", "start\n");

        std::thread::scope(|scope| {
            for i in 0..8 {
                let (vault, name) = (&vault, &name);
                scope.spawn(move || {
                    let line = format!("entry {}", i);
                    vault
                        .edit_note(
                            name,
                            "note",
                            None,
                            &edit(EditOperation::Append, &line, None),
                        )
                        .unwrap();
                });
            }
        });

        let out = fs::read_to_string(dir.path().join("note.md")).unwrap();
        for i in 0..8 {
            assert!(
                out.contains(&format!("entry {}", i)),
                "edit {i} was lost:\n{out}"
            );
        }
    }

    #[test]
    fn concurrent_tag_and_frontmatter_writes_do_not_lose_each_other() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "note.md", "---\ntitle: T\n---\nbody\n");

        std::thread::scope(|scope| {
            let (v, n) = (&vault, &name);
            scope.spawn(move || {
                v.add_tags(
                    n,
                    &["note.md".into()],
                    &["work".into()],
                    TagLocation::Frontmatter,
                    false,
                    TagPosition::End,
                )
                .unwrap();
            });
            let (v, n) = (&vault, &name);
            scope.spawn(move || {
                v.frontmatter(
                    n,
                    "note",
                    None,
                    &FrontmatterAction::Set,
                    Some("status"),
                    Some(&serde_json::json!("draft")),
                )
                .unwrap();
            });
        });

        let out = fs::read_to_string(dir.path().join("note.md")).unwrap();
        assert!(out.contains("work"), "the tag write was lost:\n{out}");
        assert!(
            out.contains("status: draft"),
            "the frontmatter write was lost:\n{out}"
        );
        assert!(out.contains("title: T"));
    }

    // ── edit_note: patch targets ──────────────────────────────────────────────

    const SECTIONED: &str =
        "---\ntitle: T\n---\n# Top\n\nintro\n\n## Log\n\nfirst\n\n## Notes\n\nkeep me ^n1\n";

    #[test]
    fn patching_a_section_leaves_the_rest_of_the_note_byte_for_byte() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "note.md", SECTIONED);

        vault
            .edit_note(
                &name,
                "note",
                None,
                &patch(
                    EditOperation::Append,
                    "second",
                    &TargetKind::Heading,
                    "## Log",
                ),
            )
            .unwrap();

        let out = fs::read_to_string(dir.path().join("note.md")).unwrap();
        assert_eq!(
            out,
            "---\ntitle: T\n---\n# Top\n\nintro\n\n## Log\n\nfirst\nsecond\n\n## Notes\n\nkeep me ^n1\n"
        );
    }

    #[test]
    fn replacing_a_section_keeps_its_heading_and_its_siblings() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "note.md", SECTIONED);

        vault
            .edit_note(
                &name,
                "note",
                None,
                &patch(
                    EditOperation::Replace,
                    "rewritten",
                    &TargetKind::Heading,
                    "Log",
                ),
            )
            .unwrap();

        let out = fs::read_to_string(dir.path().join("note.md")).unwrap();
        assert!(out.contains("## Log\nrewritten\n\n## Notes"), "{out}");
        assert!(
            out.contains("intro"),
            "the other sections must survive: {out}"
        );
        assert!(out.contains("keep me ^n1"));
    }

    #[test]
    fn patching_a_block_touches_only_that_block() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "note.md", SECTIONED);

        vault
            .edit_note(
                &name,
                "note",
                None,
                &patch(
                    EditOperation::Replace,
                    "swapped ^n1",
                    &TargetKind::Block,
                    "n1",
                ),
            )
            .unwrap();

        let out = fs::read_to_string(dir.path().join("note.md")).unwrap();
        assert!(out.contains("swapped ^n1"), "{out}");
        assert!(!out.contains("keep me"), "{out}");
        assert!(
            out.contains("## Log\n\nfirst"),
            "other sections untouched: {out}"
        );
    }

    #[test]
    fn a_missing_target_is_an_error_not_a_whole_note_overwrite() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "note.md", SECTIONED);

        let err = vault
            .edit_note(
                &name,
                "note",
                None,
                &patch(EditOperation::Replace, "x", &TargetKind::Heading, "Ghost"),
            )
            .unwrap_err();

        assert!(err.to_string().contains("Ghost"));
        assert_eq!(
            fs::read_to_string(dir.path().join("note.md")).unwrap(),
            SECTIONED,
            "a missed target must not have rewritten the note"
        );
    }

    // ── read_note: outline ────────────────────────────────────────────────────

    #[test]
    fn outline_lists_the_targets_an_edit_can_aim_at() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "note.md", SECTIONED);

        let out = vault
            .read_note(
                &name,
                "note",
                None,
                &NoteView::Outline,
                &ReadWindow::default(),
            )
            .unwrap();

        assert!(out.contains("frontmatter keys: title"), "{out}");
        assert!(out.contains("# Top"), "{out}");
        assert!(out.contains("## Log"), "{out}");
        assert!(out.contains("^n1"), "{out}");
        assert!(
            !out.contains("intro"),
            "an outline is not the note body: {out}"
        );
    }

    // ── frontmatter ───────────────────────────────────────────────────────────

    #[test]
    fn frontmatter_get_reads_every_key() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "note.md", "---\ntitle: T\ncount: 3\n---\nbody\n");

        let out = vault
            .frontmatter(&name, "note", None, &FrontmatterAction::Get, None, None)
            .unwrap();

        assert_eq!(out.frontmatter["title"], serde_json::json!("T"));
        assert_eq!(out.frontmatter["count"], serde_json::json!(3));
        assert!(!out.changed);
    }

    #[test]
    fn frontmatter_get_with_a_key_answers_with_just_that_key() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "note.md", "---\ntitle: T\ncount: 3\n---\nbody\n");

        let out = vault
            .frontmatter(
                &name,
                "note",
                None,
                &FrontmatterAction::Get,
                Some("title"),
                None,
            )
            .unwrap();

        assert_eq!(out.frontmatter, serde_json::json!("T"));
    }

    #[test]
    fn frontmatter_set_writes_one_key_and_preserves_the_rest() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(
            &dir,
            "note.md",
            "---\n# a comment\ntitle: T\ntags:\n  - a\n---\nbody\n",
        );

        let out = vault
            .frontmatter(
                &name,
                "note",
                None,
                &FrontmatterAction::Set,
                Some("status"),
                Some(&serde_json::json!("draft")),
            )
            .unwrap();

        assert!(out.changed);
        assert_eq!(
            fs::read_to_string(dir.path().join("note.md")).unwrap(),
            "---\n# a comment\ntitle: T\ntags:\n  - a\nstatus: draft\n---\nbody\n",
            "the comment, the key order and the tag list must all survive"
        );
    }

    #[test]
    fn frontmatter_set_to_the_same_value_is_not_a_write() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "note.md", "---\ntitle: T\n---\nbody\n");

        let out = vault
            .frontmatter(
                &name,
                "note",
                None,
                &FrontmatterAction::Set,
                Some("title"),
                Some(&serde_json::json!("T")),
            )
            .unwrap();

        assert!(!out.changed);
    }

    #[test]
    fn frontmatter_remove_drops_the_key() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "note.md", "---\ntitle: T\ndraft: true\n---\nbody\n");

        let out = vault
            .frontmatter(
                &name,
                "note",
                None,
                &FrontmatterAction::Remove,
                Some("draft"),
                None,
            )
            .unwrap();

        assert!(out.changed);
        assert_eq!(
            fs::read_to_string(dir.path().join("note.md")).unwrap(),
            "---\ntitle: T\n---\nbody\n"
        );
    }

    #[test]
    fn frontmatter_set_needs_a_key_and_a_value() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "note.md", "---\ntitle: T\n---\nbody\n");

        assert!(
            vault
                .frontmatter(
                    &name,
                    "note",
                    None,
                    &FrontmatterAction::Set,
                    None,
                    Some(&serde_json::json!("x"))
                )
                .is_err()
        );
        assert!(
            vault
                .frontmatter(
                    &name,
                    "note",
                    None,
                    &FrontmatterAction::Set,
                    Some("k"),
                    None
                )
                .is_err()
        );
    }

    #[test]
    fn frontmatter_reports_malformed_yaml_rather_than_silently_reading_nothing() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "note.md", "---\nkey: [unclosed\n---\nbody\n");

        let err = vault
            .frontmatter(&name, "note", None, &FrontmatterAction::Get, None, None)
            .unwrap_err();
        assert!(err.to_string().contains("frontmatter"), "{err}");
    }

    // ── periodic ──────────────────────────────────────────────────────────────

    fn periodic_req<'a>(action: PeriodicAction, date: Option<&'a str>) -> PeriodicRequest<'a> {
        PeriodicRequest {
            period: Period::Daily,
            action,
            date,
            content: None,
            limit: 10,
        }
    }

    #[test]
    fn periodic_create_makes_the_note_where_obsidian_would() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        fs::create_dir_all(dir.path().join(".obsidian")).unwrap();
        fs::write(
            dir.path().join(".obsidian/daily-notes.json"),
            r#"{"folder": "Journal", "format": "YYYY-MM-DD"}"#,
        )
        .unwrap();

        let out = vault
            .periodic(
                &name,
                &periodic_req(PeriodicAction::Create, Some("2026-07-13")),
            )
            .unwrap();

        assert!(out.created);
        assert_eq!(out.path.as_deref(), Some("Journal/2026-07-13.md"));
        assert!(dir.path().join("Journal/2026-07-13.md").exists());
    }

    #[test]
    fn periodic_create_is_idempotent() {
        // An agent asking for today's note wants the note, not an error because
        // the note is already there.
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        vault
            .periodic(
                &name,
                &periodic_req(PeriodicAction::Create, Some("2026-07-13")),
            )
            .unwrap();
        fs::write(dir.path().join("2026-07-13.md"), "written by the user").unwrap();

        let out = vault
            .periodic(
                &name,
                &periodic_req(PeriodicAction::Create, Some("2026-07-13")),
            )
            .unwrap();

        assert!(!out.created, "the second call must not report a creation");
        assert_eq!(
            out.content.as_deref(),
            Some("written by the user"),
            "and must not have overwritten what was there"
        );
    }

    #[test]
    fn periodic_get_fails_when_the_note_is_not_there_yet() {
        let (_dir, vault) = make_vault();
        let name = vault_name(&_dir);
        assert!(
            vault
                .periodic(
                    &name,
                    &periodic_req(PeriodicAction::Get, Some("2026-07-13"))
                )
                .is_err()
        );
    }

    #[test]
    fn periodic_list_finds_the_notes_that_exist() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        let today = chrono::Local::now().date_naive();
        let yesterday = today.pred_opt().unwrap();
        for date in [today, yesterday] {
            write_note(&dir, &format!("{}.md", date.format("%Y-%m-%d")), "x");
        }
        write_note(&dir, "not-a-daily-note.md", "x");

        let out = vault
            .periodic(&name, &periodic_req(PeriodicAction::List, None))
            .unwrap();

        assert_eq!(
            out.notes,
            vec![
                format!("{}.md", today.format("%Y-%m-%d")),
                format!("{}.md", yesterday.format("%Y-%m-%d")),
            ],
            "most recent first, and nothing that isn't a daily note"
        );
    }

    #[test]
    fn periodic_rejects_a_date_it_cannot_parse() {
        let (_dir, vault) = make_vault();
        let name = vault_name(&_dir);
        assert!(
            vault
                .periodic(
                    &name,
                    &periodic_req(PeriodicAction::Create, Some("yesterday"))
                )
                .is_err()
        );
    }

    #[test]
    fn periodic_is_under_the_same_cap_as_read_note() {
        // `read-note` was capped and `periodic` was not, so "open today's note"
        // could still put an unbounded note into the context — and a yearly note
        // is a year of appends. The cap is the same one, and the marker points at
        // `read-note`, which is exactly the tool the returned `path` feeds.
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        let long = "a line\n".repeat(DEFAULT_READ_LINES + 100);
        write_note(&dir, "2026-07-13.md", &long);

        let out = vault
            .periodic(
                &name,
                &periodic_req(PeriodicAction::Get, Some("2026-07-13")),
            )
            .unwrap();
        let content = out.content.unwrap();

        assert_eq!(
            content.lines().filter(|l| *l == "a line").count(),
            DEFAULT_READ_LINES
        );
        assert!(
            content.contains("read-note again with offset=401"),
            "the model has to be told how to get the rest: {content:?}"
        );
    }

    // ── VaultManager basics ───────────────────────────────────────────────────

    #[test]
    fn a_name_collision_is_broken_by_the_parent_folder() {
        use std::fs;
        let root = TempDir::new().unwrap();
        for parent in ["work", "personal"] {
            fs::create_dir_all(root.path().join(parent).join("notes")).unwrap();
        }
        let manager = VaultManager::new(vec![
            root.path().join("work").join("notes"),
            root.path().join("personal").join("notes"),
        ]);
        let names: Vec<String> = manager.list_vaults().into_iter().map(|(n, _)| n).collect();
        assert_eq!(names.len(), 2, "both vaults must be registered: {names:?}");
        assert!(names.iter().any(|n| n == "notes"));
        assert!(
            names.iter().any(|n| n == "personal/notes"),
            "the second must be named for its parent, not given an ordinal: {names:?}"
        );
    }

    #[test]
    fn reordering_the_vault_paths_does_not_swap_which_is_which() {
        // The old `-2` suffix was assigned by argument order, so reordering the
        // paths — a plausible hand-edit of a config — silently swapped `notes` and
        // `notes-2`. "Save this to notes" then wrote to the other vault.
        use std::fs;
        let root = TempDir::new().unwrap();
        for parent in ["work", "personal"] {
            fs::create_dir_all(root.path().join(parent).join("notes")).unwrap();
        }
        let work = root.path().join("work").join("notes");
        let personal = root.path().join("personal").join("notes");

        let one = VaultManager::new(vec![work.clone(), personal.clone()]);
        let two = VaultManager::new(vec![personal.clone(), work.clone()]);

        // Whichever order they were given in, a qualified name still points at the
        // directory it names.
        let resolve = |m: &VaultManager, name: &str| m.resolve_vault(name).map(Path::to_path_buf);
        assert_eq!(resolve(&one, "personal/notes").unwrap(), personal);
        assert_eq!(resolve(&two, "work/notes").unwrap(), work);
    }

    #[test]
    fn a_vault_whose_directory_is_gone_says_so_instead_of_looking_empty() {
        // The silent failure this exists to kill: a mistyped path produced a
        // server that started fine, searched happily, and found nothing — so the
        // assistant reported "your vault is empty".
        let manager = VaultManager::new(vec![PathBuf::from("/nonexistent/typo/vault")]);
        let err = manager
            .resolve_vault("vault")
            .expect_err("a missing directory must be an error, not an empty vault");
        assert!(matches!(err, VaultError::VaultUnavailable(..)), "{err}");
        assert!(err.to_string().contains("does not exist"), "{err}");
        assert!(
            err.is_tool_execution_error(),
            "the model must see this and tell the user, not get a bare protocol error"
        );
    }

    #[test]
    fn list_vaults_returns_sorted() {
        let dir1 = TempDir::new().unwrap();
        let dir2 = TempDir::new().unwrap();
        let manager = VaultManager::new(vec![dir2.path().to_path_buf(), dir1.path().to_path_buf()]);
        let vaults = manager.list_vaults();
        assert!(!vaults.is_empty());
        // sorted
        let names: Vec<_> = vaults.iter().map(|(n, _)| n.clone()).collect();
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(names, sorted);
    }

    #[test]
    fn resolve_vault_not_found_error() {
        let (_, vault) = make_vault();
        let err = vault.resolve_vault("nonexistent").unwrap_err();
        assert!(err.to_string().contains("nonexistent"));
    }

    #[test]
    fn note_path_adds_md_extension() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        let p = vault.note_path(&name, "note", None).unwrap();
        assert!(p.to_str().unwrap().ends_with("note.md"));
    }

    #[test]
    fn note_path_keeps_md_extension() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        let p = vault.note_path(&name, "note.md", None).unwrap();
        assert!(p.to_str().unwrap().ends_with("note.md"));
    }

    #[test]
    fn note_path_with_folder() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        let p = vault.note_path(&name, "note", Some("sub")).unwrap();
        assert!(p.to_str().unwrap().contains("sub"));
        assert!(p.to_str().unwrap().ends_with("note.md"));
    }

    #[test]
    fn note_path_empty_folder_ignores_folder() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        let with_empty = vault.note_path(&name, "note", Some("")).unwrap();
        let without = vault.note_path(&name, "note", None).unwrap();
        assert_eq!(with_empty, without);
    }

    // ── create_note ───────────────────────────────────────────────────────────

    #[test]
    fn create_note_writes_content() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        vault
            .create_note(&name, "new", "hello world", None)
            .unwrap();
        assert_eq!(
            fs::read_to_string(dir.path().join("new.md")).unwrap(),
            "hello world"
        );
    }

    #[test]
    fn create_note_returns_path() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        let p = vault.create_note(&name, "new", "", None).unwrap();
        assert!(p.exists());
    }

    #[test]
    fn create_note_creates_parent_directories() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        vault
            .create_note(&name, "deep", "content", Some("a/b/c"))
            .unwrap();
        assert!(dir.path().join("a/b/c/deep.md").exists());
    }

    #[test]
    fn create_note_errors_if_already_exists() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "exists.md", "");
        let err = vault
            .create_note(&name, "exists", "content", None)
            .unwrap_err();
        assert!(err.to_string().contains("already exists"));
    }

    // ── read_note: the context-window budget ──────────────────────────────────

    #[test]
    fn a_note_that_fits_comes_back_byte_for_byte() {
        // The cap must be invisible on the ordinary note. No marker, no trailing
        // newline invented, nothing.
        for text in ["hello", "hello\n", "a\nb\nc", "", "no trailing newline"] {
            assert_eq!(clip(text, &ReadWindow::default()), text, "{text:?}");
        }
    }

    #[test]
    fn a_long_note_is_cut_and_says_how_to_get_the_rest() {
        let note: String = (1..=1000).map(|i| format!("line {i}\n")).collect();
        let out = clip(&note, &ReadWindow::default());

        assert!(out.starts_with("line 1\n"));
        assert!(
            out.contains("line 400\n"),
            "the 400-line default must be met"
        );
        assert!(!out.contains("line 401\n"), "and not exceeded");
        assert!(
            out.contains("[showed lines 1-400 of 1000. Call read-note again with offset=401"),
            "the model must be told what it missed and how to ask for it, got: {out:?}"
        );
    }

    #[test]
    fn offset_pages_through_the_note_and_the_last_page_says_so() {
        let note: String = (1..=1000).map(|i| format!("line {i}\n")).collect();
        let out = clip(
            &note,
            &ReadWindow {
                offset: 401,
                limit: 400,
            },
        );
        assert!(out.starts_with("line 401\n"));
        assert!(out.contains("offset=801"));

        let last = clip(
            &note,
            &ReadWindow {
                offset: 801,
                limit: 400,
            },
        );
        assert!(last.contains("line 1000\n"));
        assert!(
            last.contains("end of note"),
            "the final page must not invite another call, got: {last:?}"
        );
    }

    #[test]
    fn one_enormous_line_cannot_flood_the_context() {
        // The whole reason the byte budget exists on top of the line cap: a line
        // cap alone would hand back this entire note in a single "line".
        let note = format!("{}\n", "x".repeat(400_000));
        let out = clip(&note, &ReadWindow::default());
        assert!(
            out.len() < MAX_READ_BYTES + 500,
            "one line blew the budget: {} bytes",
            out.len()
        );
        assert!(out.contains("was cut"), "and it must say so: {out:?}");
    }

    #[test]
    fn a_multibyte_character_is_never_split_in_half() {
        // Cutting mid-character would produce invalid UTF-8 — the slice would
        // panic before it ever reached the model.
        let note = format!("{}\n", "ё".repeat(200_000));
        let out = clip(&note, &ReadWindow::default());
        assert!(out.contains("was cut"));
        assert!(out.len() < MAX_READ_BYTES + 500);
    }

    #[test]
    fn an_offset_past_the_end_says_so_instead_of_returning_nothing() {
        let out = clip(
            "a\nb\n",
            &ReadWindow {
                offset: 99,
                limit: 400,
            },
        );
        assert!(out.contains("2 line(s)"), "{out:?}");
        assert!(out.contains("past the end"), "{out:?}");
    }

    #[test]
    fn the_outline_ignores_the_window() {
        // The outline is a handful of lines by construction; paging it would only
        // get between the model and the targets it came for.
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        let body: String = (1..=1000).map(|i| format!("## H{i}\ntext\n")).collect();
        write_note(&dir, "note.md", &body);

        let out = vault
            .read_note(
                &name,
                "note",
                None,
                &NoteView::Outline,
                &ReadWindow {
                    offset: 500,
                    limit: 1,
                },
            )
            .unwrap();
        assert!(
            out.contains("\"## H1\"  (line 1)"),
            "outline must start at the top, got: {}",
            &out[..out.len().min(120)]
        );
        assert!(out.contains("\"## H1000\""), "and list every target");
    }

    // ── read_note ─────────────────────────────────────────────────────────────

    #[test]
    fn read_note_returns_content() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "note.md", "hello");
        assert_eq!(
            vault
                .read_note(
                    &name,
                    "note",
                    None,
                    &NoteView::Content,
                    &ReadWindow::default()
                )
                .unwrap(),
            "hello"
        );
    }

    #[test]
    fn read_note_accepts_md_extension() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "note.md", "content");
        assert_eq!(
            vault
                .read_note(
                    &name,
                    "note.md",
                    None,
                    &NoteView::Content,
                    &ReadWindow::default()
                )
                .unwrap(),
            "content"
        );
    }

    #[test]
    fn read_note_error_if_not_found() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        assert!(
            vault
                .read_note(
                    &name,
                    "ghost",
                    None,
                    &NoteView::Content,
                    &ReadWindow::default()
                )
                .is_err()
        );
    }

    #[test]
    fn read_note_in_subfolder() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        fs::create_dir_all(dir.path().join("sub")).unwrap();
        fs::write(dir.path().join("sub/note.md"), "deep").unwrap();
        assert_eq!(
            vault
                .read_note(
                    &name,
                    "note",
                    Some("sub"),
                    &NoteView::Content,
                    &ReadWindow::default()
                )
                .unwrap(),
            "deep"
        );
    }

    // ── delete_note ───────────────────────────────────────────────────────────

    #[test]
    fn delete_note_removes_file() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "del.md", "bye");
        vault.delete_note(&name, "del", None, true).unwrap();
        assert!(!dir.path().join("del.md").exists());
    }

    #[test]
    fn delete_moves_the_note_to_the_trash_by_default() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "del.md", "precious");

        let out = vault.delete_note(&name, "del", None, false).unwrap();

        assert_eq!(out.trashed_to.as_deref(), Some(".trash/del.md"));
        assert!(!dir.path().join("del.md").exists());
        assert_eq!(
            fs::read_to_string(dir.path().join(".trash/del.md")).unwrap(),
            "precious",
            "the note must be recoverable, byte for byte"
        );
    }

    #[test]
    fn a_trashed_note_is_invisible_to_search() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "del.md", "needle");
        vault.delete_note(&name, "del", None, false).unwrap();

        let hits = vault
            .search_vault(
                &name,
                None,
                &text_query("needle", false, &SearchType::Content),
                &SearchLimits::default(),
            )
            .unwrap();
        assert!(
            hits.results.is_empty(),
            "a deleted note must behave as deleted: {hits:?}"
        );
    }

    #[test]
    fn delete_keeps_the_folder_structure_inside_the_trash() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        fs::create_dir_all(dir.path().join("a")).unwrap();
        fs::create_dir_all(dir.path().join("b")).unwrap();
        fs::write(dir.path().join("a/note.md"), "from a").unwrap();
        fs::write(dir.path().join("b/note.md"), "from b").unwrap();

        vault.delete_note(&name, "note", Some("a"), false).unwrap();
        vault.delete_note(&name, "note", Some("b"), false).unwrap();

        // Same basename, different folders — neither may overwrite the other.
        assert_eq!(
            fs::read_to_string(dir.path().join(".trash/a/note.md")).unwrap(),
            "from a"
        );
        assert_eq!(
            fs::read_to_string(dir.path().join(".trash/b/note.md")).unwrap(),
            "from b"
        );
    }

    #[test]
    fn trashing_the_same_path_twice_does_not_overwrite_the_first() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "note.md", "first");
        vault.delete_note(&name, "note", None, false).unwrap();
        write_note(&dir, "note.md", "second");
        let out = vault.delete_note(&name, "note", None, false).unwrap();

        assert_eq!(out.trashed_to.as_deref(), Some(".trash/note-2.md"));
        assert_eq!(
            fs::read_to_string(dir.path().join(".trash/note.md")).unwrap(),
            "first"
        );
        assert_eq!(
            fs::read_to_string(dir.path().join(".trash/note-2.md")).unwrap(),
            "second"
        );
    }

    #[test]
    fn permanent_delete_erases_the_note() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "del.md", "bye");

        let out = vault.delete_note(&name, "del", None, true).unwrap();

        assert!(out.trashed_to.is_none());
        assert!(!dir.path().join("del.md").exists());
        assert!(!dir.path().join(".trash").exists(), "nothing was trashed");
    }

    #[test]
    fn deleting_from_the_trash_erases_it() {
        // Emptying the trash is the one delete that has to actually erase.
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "del.md", "bye");
        vault.delete_note(&name, "del", None, false).unwrap();

        let out = vault
            .delete_note(&name, "del", Some(".trash"), false)
            .unwrap();

        assert!(
            out.trashed_to.is_none(),
            "must not re-trash into .trash/.trash"
        );
        assert!(!dir.path().join(".trash/del.md").exists());
    }

    #[test]
    fn delete_note_error_if_not_found() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        assert!(vault.delete_note(&name, "ghost", None, false).is_err());
    }

    #[test]
    fn delete_note_removes_emptied_source_folder() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        fs::create_dir_all(dir.path().join("sub")).unwrap();
        fs::write(dir.path().join("sub/note.md"), "body").unwrap();
        vault.delete_note(&name, "note", Some("sub"), true).unwrap();
        assert!(
            !dir.path().join("sub").exists(),
            "emptied source folder must be removed"
        );
    }

    #[test]
    fn delete_note_keeps_nonempty_source_folder() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        fs::create_dir_all(dir.path().join("sub")).unwrap();
        fs::write(dir.path().join("sub/a.md"), "a").unwrap();
        fs::write(dir.path().join("sub/b.md"), "b").unwrap();
        vault.delete_note(&name, "a", Some("sub"), true).unwrap();
        assert!(
            dir.path().join("sub").exists(),
            "source folder still has b.md and must stay"
        );
        assert!(dir.path().join("sub/b.md").exists());
    }

    #[test]
    fn delete_note_does_not_remove_vault_root() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "only.md", "body");
        vault.delete_note(&name, "only", None, true).unwrap();
        // The note lived directly in the vault root; the root must never be
        // pruned even though it is now empty of notes.
        assert!(dir.path().exists());
    }

    // ── move_note ─────────────────────────────────────────────────────────────

    #[test]
    fn move_note_renames_file() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "original.md", "body");
        let dest = vault
            .move_note(&name, "original", None, None, Some("renamed"))
            .unwrap();
        assert!(dest.path.exists());
        assert!(!dir.path().join("original.md").exists());
    }

    #[test]
    fn renaming_a_note_leaves_it_in_its_folder() {
        // A rename used to relocate the note to the vault root and then delete the
        // folder it came from: `new_folder: None` was read as "the root" rather
        // than "don't change the folder".
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        fs::create_dir_all(dir.path().join("projects")).unwrap();
        fs::write(dir.path().join("projects/old.md"), "body").unwrap();

        vault
            .move_note(&name, "old", Some("projects"), None, Some("new"))
            .unwrap();

        assert!(
            dir.path().join("projects/new.md").exists(),
            "the renamed note must stay in projects/"
        );
        assert!(
            !dir.path().join("new.md").exists(),
            "it must not land in the vault root"
        );
        assert!(
            dir.path().join("projects").exists(),
            "and its folder must survive"
        );
    }

    #[test]
    fn an_empty_new_folder_moves_the_note_to_the_vault_root() {
        // Omitting the folder means "leave it"; asking for the root is explicit.
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        fs::create_dir_all(dir.path().join("projects")).unwrap();
        fs::write(dir.path().join("projects/note.md"), "body").unwrap();

        vault
            .move_note(&name, "note", Some("projects"), Some(""), None)
            .unwrap();

        assert!(dir.path().join("note.md").exists());
        assert!(!dir.path().join("projects").exists());
    }

    #[test]
    fn move_note_to_subfolder() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "note.md", "body");
        vault
            .move_note(&name, "note", None, Some("sub"), None)
            .unwrap();
        assert!(dir.path().join("sub/note.md").exists());
    }

    #[test]
    fn move_note_error_if_not_found() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        assert!(vault.move_note(&name, "ghost", None, None, None).is_err());
    }

    #[test]
    fn move_note_rewrites_inbound_links_on_rename() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "target.md", "the target\n");
        write_note(&dir, "a.md", "see [[target]] and ![[target#Sec|alias]]\n");
        write_note(&dir, "b.md", "and [label](target.md)\n");

        let out = vault
            .move_note(&name, "target", None, None, Some("renamed"))
            .unwrap();
        assert_eq!(out.relinked, vec!["a.md", "b.md"]);

        let a = fs::read_to_string(dir.path().join("a.md")).unwrap();
        assert_eq!(a, "see [[renamed]] and ![[renamed#Sec|alias]]\n");
        let b = fs::read_to_string(dir.path().join("b.md")).unwrap();
        assert_eq!(b, "and [label](renamed.md)\n");
    }

    #[test]
    fn move_note_leaves_links_in_code_blocks_alone() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "target.md", "x\n");
        write_note(&dir, "doc.md", "```\n[[target]]\n```\nreal [[target]]\n");

        vault
            .move_note(&name, "target", None, None, Some("renamed"))
            .unwrap();

        let doc = fs::read_to_string(dir.path().join("doc.md")).unwrap();
        assert_eq!(
            doc, "```\n[[target]]\n```\nreal [[renamed]]\n",
            "a link inside a code sample is documentation, not a reference"
        );
    }

    #[test]
    fn move_note_to_a_folder_leaves_bare_links_alone() {
        // The basename still resolves from anywhere, so there is nothing to fix.
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "target.md", "x\n");
        write_note(&dir, "a.md", "see [[target]]\n");

        let out = vault
            .move_note(&name, "target", None, Some("archive"), None)
            .unwrap();
        assert!(out.relinked.is_empty());
        assert_eq!(
            fs::read_to_string(dir.path().join("a.md")).unwrap(),
            "see [[target]]\n"
        );
    }

    // ── wikilinks ─────────────────────────────────────────────────────────────

    fn linked_vault() -> (TempDir, VaultManager, String) {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "hub.md", "x\n");
        write_note(&dir, "a.md", "see [[hub]]\n");
        write_note(&dir, "b.md", "also [[hub]] and [[ghost]]\n");
        write_note(&dir, "lonely.md", "nobody links here\n");
        (dir, vault, name)
    }

    #[test]
    fn wikilinks_backlinks_lists_the_linking_notes() {
        let (_dir, vault, name) = linked_vault();
        let out = vault
            .wikilinks(
                &name,
                &LinkQuery::Backlinks,
                Some("hub"),
                None,
                &LinkLimits::default(),
            )
            .unwrap();
        let from: Vec<&str> = out.links.iter().map(|l| l.from.as_str()).collect();
        assert_eq!(from, vec!["a.md", "b.md"]);
    }

    #[test]
    fn wikilinks_outgoing_lists_this_notes_links() {
        let (_dir, vault, name) = linked_vault();
        let out = vault
            .wikilinks(
                &name,
                &LinkQuery::Outgoing,
                Some("b"),
                None,
                &LinkLimits::default(),
            )
            .unwrap();
        let targets: Vec<&str> = out.links.iter().map(|l| l.target.as_str()).collect();
        assert_eq!(targets, vec!["hub", "ghost"]);
    }

    #[test]
    fn wikilinks_broken_finds_targets_that_do_not_exist() {
        let (_dir, vault, name) = linked_vault();
        let out = vault
            .wikilinks(
                &name,
                &LinkQuery::Broken,
                None,
                None,
                &LinkLimits::default(),
            )
            .unwrap();
        assert_eq!(out.links.len(), 1);
        assert_eq!(out.links[0].target, "ghost");
        assert!(out.links[0].resolved.is_none());
    }

    #[test]
    fn wikilinks_orphans_finds_notes_nothing_links_to() {
        let (_dir, vault, name) = linked_vault();
        let out = vault
            .wikilinks(
                &name,
                &LinkQuery::Orphans,
                None,
                None,
                &LinkLimits::default(),
            )
            .unwrap();
        assert_eq!(out.notes, vec!["a.md", "b.md", "lonely.md"]);
    }

    #[test]
    fn wikilinks_backlinks_requires_a_filename() {
        let (_dir, vault, name) = linked_vault();
        assert!(
            vault
                .wikilinks(
                    &name,
                    &LinkQuery::Backlinks,
                    None,
                    None,
                    &LinkLimits::default()
                )
                .is_err()
        );
    }

    #[test]
    fn wikilinks_blocks_traversal() {
        let (_dir, vault, name) = linked_vault();
        assert!(
            vault
                .wikilinks(
                    &name,
                    &LinkQuery::Backlinks,
                    Some("../../../etc/hosts"),
                    None,
                    &LinkLimits::default()
                )
                .is_err()
        );
    }

    #[test]
    fn move_note_removes_emptied_source_folder() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        fs::create_dir_all(dir.path().join("src")).unwrap();
        fs::write(dir.path().join("src/note.md"), "body").unwrap();
        vault
            .move_note(&name, "note", Some("src"), Some("dst"), None)
            .unwrap();
        assert!(dir.path().join("dst/note.md").exists());
        assert!(
            !dir.path().join("src").exists(),
            "emptied source folder must be removed"
        );
    }

    #[test]
    fn move_note_keeps_nonempty_source_folder() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        fs::create_dir_all(dir.path().join("src")).unwrap();
        fs::write(dir.path().join("src/a.md"), "a").unwrap();
        fs::write(dir.path().join("src/b.md"), "b").unwrap();
        vault
            .move_note(&name, "a", Some("src"), Some("dst"), None)
            .unwrap();
        assert!(
            dir.path().join("src").exists(),
            "source folder still has b.md and must stay"
        );
        assert!(dir.path().join("src/b.md").exists());
    }

    #[test]
    fn move_note_does_not_remove_vault_root() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "only.md", "body");
        vault
            .move_note(&name, "only", None, Some("sub"), None)
            .unwrap();
        // The note lived directly in the vault root; the root must never be
        // pruned even though it is now empty of notes.
        assert!(dir.path().exists());
        assert!(dir.path().join("sub/only.md").exists());
    }

    // ── create_directory ──────────────────────────────────────────────────────

    #[test]
    fn create_directory_recursive() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        vault.create_directory(&name, "a/b/c", true).unwrap();
        assert!(dir.path().join("a/b/c").is_dir());
    }

    #[test]
    fn create_directory_non_recursive() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        vault.create_directory(&name, "flat", false).unwrap();
        assert!(dir.path().join("flat").is_dir());
    }

    #[test]
    fn create_directory_error_if_already_exists() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        fs::create_dir_all(dir.path().join("existing")).unwrap();
        assert!(vault.create_directory(&name, "existing", true).is_err());
    }

    // ── search_vault ──────────────────────────────────────────────────────────

    #[test]
    fn search_content_finds_matching_lines() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "a.md", "the quick brown fox");
        write_note(&dir, "b.md", "no match here");
        let results = vault
            .search_vault(
                &name,
                None,
                &text_query("quick", false, &SearchType::Content),
                &SearchLimits::default(),
            )
            .unwrap();
        assert_eq!(results.results.len(), 1);
        assert_eq!(results.results[0].path, "a.md");
    }

    #[test]
    fn search_filename_finds_by_name() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "journal_2024.md", "");
        write_note(&dir, "other.md", "");
        let results = vault
            .search_vault(
                &name,
                None,
                &text_query("journal", false, &SearchType::Filename),
                &SearchLimits::default(),
            )
            .unwrap();
        assert_eq!(results.results.len(), 1);
    }

    #[test]
    fn search_both_finds_in_filename_and_content() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "target.md", "nothing special");
        write_note(&dir, "other.md", "has target word inside");
        let results = vault
            .search_vault(
                &name,
                None,
                &text_query("target", false, &SearchType::Both),
                &SearchLimits::default(),
            )
            .unwrap();
        assert_eq!(results.results.len(), 2);
    }

    #[test]
    fn search_tag_finds_frontmatter_tag() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "tagged.md", "---\ntags:\n  - work\n---\ncontent");
        write_note(&dir, "other.md", "no tags");
        let results = vault
            .search_vault(
                &name,
                None,
                &text_query("tag:work", false, &SearchType::Content),
                &SearchLimits::default(),
            )
            .unwrap();
        assert_eq!(results.results.len(), 1);
        assert_eq!(results.results[0].path, "tagged.md");
    }

    #[test]
    fn search_tag_finds_inline_tag() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "inline.md", "some text #urgent here");
        let results = vault
            .search_vault(
                &name,
                None,
                &text_query("tag:urgent", false, &SearchType::Content),
                &SearchLimits::default(),
            )
            .unwrap();
        assert_eq!(results.results.len(), 1);
    }

    #[test]
    fn search_case_sensitive() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "note.md", "Hello World");
        let insensitive = vault
            .search_vault(
                &name,
                None,
                &text_query("hello", false, &SearchType::Content),
                &SearchLimits::default(),
            )
            .unwrap();
        let sensitive = vault
            .search_vault(
                &name,
                None,
                &text_query("hello", true, &SearchType::Content),
                &SearchLimits::default(),
            )
            .unwrap();
        assert_eq!(insensitive.results.len(), 1);
        assert_eq!(sensitive.results.len(), 0);
    }

    #[test]
    fn search_with_path_limit() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        fs::create_dir_all(dir.path().join("sub")).unwrap();
        fs::write(dir.path().join("sub/inner.md"), "needle").unwrap();
        write_note(&dir, "root.md", "needle");
        let results = vault
            .search_vault(
                &name,
                Some("sub"),
                &text_query("needle", false, &SearchType::Content),
                &SearchLimits::default(),
            )
            .unwrap();
        assert_eq!(results.results.len(), 1);
        assert_eq!(results.results[0].path, "sub/inner.md");
    }

    #[test]
    fn every_tool_names_a_note_the_same_way() {
        // Ranked search and rename-tag each built their own relative path with
        // `Path::display()`, so on Windows they said `sub\deep.md` while the link
        // graph and the other search paths said `sub/deep.md` — the same note with
        // two names, depending on which tool you asked. Only the Windows CI leg
        // caught it, which is why this asserts on the shape rather than the
        // platform: `rel_path` is the single point every outgoing path goes
        // through, and a backslash must never survive it.
        let root = Path::new("/vault");
        let nested = Path::new("/vault/sub/deep.md");
        assert_eq!(rel_path(root, nested), "sub/deep.md");

        // And a note in a folder must come out `/`-separated from every tool that
        // names one.
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        fs::create_dir_all(dir.path().join("sub")).unwrap();
        write_note(&dir, "sub/deep.md", "---\ntags:\n  - old\n---\nneedle\n");

        let searched = vault
            .search_vault(
                &name,
                None,
                &text_query("needle", false, &SearchType::Content),
                &SearchLimits::default(),
            )
            .unwrap();
        let renamed = vault.rename_tag(&name, "old", "new").unwrap();

        for named in [&searched.results[0].path, &renamed[0]] {
            assert!(
                !named.contains('\\'),
                "a path left the crate with a backslash in it: {named:?}"
            );
            assert_eq!(named, "sub/deep.md");
        }
    }

    #[test]
    fn what_search_returns_is_what_read_note_accepts() {
        // The most common two-step there is — find a note, then read it — used to
        // break on every note that lived in a folder. `search-vault` returned a
        // `filename` field holding the bare stem (`inner`), the note tools' schema
        // said "do not include path separators", and so the model reached for the
        // one field that could not work: `read-note` looked for `inner.md` in the
        // vault root and reported the note missing.
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        fs::create_dir_all(dir.path().join("sub")).unwrap();
        write_note(&dir, "sub/deep.md", "the needle is here\n");

        let hit = vault
            .search_vault(
                &name,
                None,
                &text_query("needle", false, &SearchType::Content),
                &SearchLimits::default(),
            )
            .unwrap();
        let path = &hit.results[0].path;
        assert_eq!(path, "sub/deep.md");

        // The path search hands back is fed straight into read-note, unmodified.
        let content = vault
            .read_note(
                &name,
                path,
                None,
                &NoteView::Content,
                &ReadWindow::default(),
            )
            .expect("the path search returned must be readable as-is");
        assert!(content.contains("needle"));
    }

    #[test]
    fn search_no_results() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "note.md", "content");
        let results = vault
            .search_vault(
                &name,
                None,
                &text_query("zzz_not_here", false, &SearchType::Content),
                &SearchLimits::default(),
            )
            .unwrap();
        assert!(results.results.is_empty());
    }

    // ── add_tags ──────────────────────────────────────────────────────────────

    #[test]
    fn add_tags_to_frontmatter_block_list() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "note.md", "---\ntags:\n  - existing\n---\nbody");
        vault
            .add_tags(
                &name,
                &["note.md".into()],
                &["new-tag".into()],
                TagLocation::Frontmatter,
                false,
                TagPosition::End,
            )
            .unwrap();
        let content = fs::read_to_string(dir.path().join("note.md")).unwrap();
        assert!(content.contains("new-tag"));
        assert!(content.contains("existing"));
    }

    #[test]
    fn add_tags_creates_frontmatter_if_absent() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "plain.md", "just content");
        vault
            .add_tags(
                &name,
                &["plain.md".into()],
                &["fresh".into()],
                TagLocation::Frontmatter,
                false,
                TagPosition::End,
            )
            .unwrap();
        let content = fs::read_to_string(dir.path().join("plain.md")).unwrap();
        assert!(content.starts_with("---"));
        assert!(content.contains("fresh"));
    }

    #[test]
    fn add_tags_to_content_end() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "note.md", "body text");
        vault
            .add_tags(
                &name,
                &["note.md".into()],
                &["inline".into()],
                TagLocation::Content,
                false,
                TagPosition::End,
            )
            .unwrap();
        let content = fs::read_to_string(dir.path().join("note.md")).unwrap();
        assert!(content.ends_with("#inline"));
    }

    #[test]
    fn add_tags_to_content_start() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "note.md", "body");
        vault
            .add_tags(
                &name,
                &["note.md".into()],
                &["first".into()],
                TagLocation::Content,
                false,
                TagPosition::Start,
            )
            .unwrap();
        let content = fs::read_to_string(dir.path().join("note.md")).unwrap();
        assert!(content.contains("#first"));
    }

    #[test]
    fn add_tags_both_location() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "note.md", "body");
        vault
            .add_tags(
                &name,
                &["note.md".into()],
                &["mytag".into()],
                TagLocation::Both,
                false,
                TagPosition::End,
            )
            .unwrap();
        let content = fs::read_to_string(dir.path().join("note.md")).unwrap();
        assert!(content.contains("mytag")); // in frontmatter
        assert!(content.contains("#mytag")); // inline
    }

    #[test]
    fn add_tags_names_the_files_it_could_not_find() {
        // This used to return Ok(vec![]) — and the tool then reported
        // `Added tags ["tag"] to 0 file(s):` with isError: false, which a model
        // reads as success. Nothing at all signalled that the work hadn't happened.
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        let err = vault
            .add_tags(
                &name,
                &["ghost.md".into()],
                &["tag".into()],
                TagLocation::Frontmatter,
                false,
                TagPosition::End,
            )
            .expect_err("a missing file must not read as success");
        assert!(err.to_string().contains("ghost.md"), "{err}");
        assert!(err.is_tool_execution_error(), "{err}");
    }

    #[test]
    fn a_batch_with_one_missing_file_changes_nothing_at_all() {
        // Half-applying a batch is worse than failing it: the model is told the
        // call failed, retries, and the notes that *did* get the tag get it twice.
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "real.md", "body\n");

        let err = vault
            .add_tags(
                &name,
                &["real.md".into(), "ghost.md".into()],
                &["tag".into()],
                TagLocation::Frontmatter,
                false,
                TagPosition::End,
            )
            .expect_err("the batch must fail");
        assert!(err.to_string().contains("ghost.md"), "{err}");
        assert_eq!(
            fs::read_to_string(dir.path().join("real.md")).unwrap(),
            "body\n",
            "the note that did exist must be left untouched"
        );
    }

    #[test]
    fn add_tags_normalizes() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "note.md", "content");
        vault
            .add_tags(
                &name,
                &["note.md".into()],
                &["My Tag".into()],
                TagLocation::Frontmatter,
                true,
                TagPosition::End,
            )
            .unwrap();
        let content = fs::read_to_string(dir.path().join("note.md")).unwrap();
        assert!(content.contains("my-tag"));
    }

    #[test]
    fn add_tags_deduplicates() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "note.md", "---\ntags:\n  - existing\n---\n");
        vault
            .add_tags(
                &name,
                &["note.md".into()],
                &["existing".into()],
                TagLocation::Frontmatter,
                false,
                TagPosition::End,
            )
            .unwrap();
        let content = fs::read_to_string(dir.path().join("note.md")).unwrap();
        // should still only appear once
        assert_eq!(content.matches("existing").count(), 1);
    }

    #[test]
    fn add_tags_to_frontmatter_inline_tag_line() {
        // covers the inline (non-block) tags: branch in add_tags_to_frontmatter
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "note.md", "---\ntags: [existing]\n---\nbody");
        vault
            .add_tags(
                &name,
                &["note.md".into()],
                &["added".into()],
                TagLocation::Frontmatter,
                false,
                TagPosition::End,
            )
            .unwrap();
        let content = fs::read_to_string(dir.path().join("note.md")).unwrap();
        assert!(content.contains("added"));
    }

    #[test]
    fn add_tags_to_content_start_with_frontmatter() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "note.md", "---\ntitle: test\n---\nbody text");
        vault
            .add_tags(
                &name,
                &["note.md".into()],
                &["top".into()],
                TagLocation::Content,
                false,
                TagPosition::Start,
            )
            .unwrap();
        let content = fs::read_to_string(dir.path().join("note.md")).unwrap();
        assert!(content.contains("#top"));
    }

    // ── remove_tags ───────────────────────────────────────────────────────────

    #[test]
    fn remove_tags_from_frontmatter() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(
            &dir,
            "note.md",
            "---\ntags:\n  - keep\n  - remove\n---\nbody",
        );
        vault
            .remove_tags(&name, &["note.md".into()], &["remove".into()])
            .unwrap();
        let content = fs::read_to_string(dir.path().join("note.md")).unwrap();
        assert!(!content.contains("  - remove"));
        assert!(content.contains("keep"));
    }

    #[test]
    fn remove_tags_from_content() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "note.md", "text #remove more");
        vault
            .remove_tags(&name, &["note.md".into()], &["remove".into()])
            .unwrap();
        let content = fs::read_to_string(dir.path().join("note.md")).unwrap();
        assert!(!content.contains("#remove"));
    }

    #[test]
    fn remove_tags_names_the_files_it_could_not_find() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        let err = vault
            .remove_tags(&name, &["ghost.md".into()], &["t".into()])
            .expect_err("a missing file must not read as success");
        assert!(err.to_string().contains("ghost.md"), "{err}");
    }

    // ── rename_tag ────────────────────────────────────────────────────────────

    #[test]
    fn rename_tag_in_frontmatter() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "note.md", "---\ntags:\n  - old\n---\n");
        let modified = vault.rename_tag(&name, "old", "new").unwrap();
        assert_eq!(modified.len(), 1);
        let content = fs::read_to_string(dir.path().join("note.md")).unwrap();
        assert!(content.contains("- new"));
        assert!(!content.contains("- old"));
    }

    #[test]
    fn rename_tag_inline() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "note.md", "text #old-tag more");
        vault.rename_tag(&name, "old-tag", "new-tag").unwrap();
        let content = fs::read_to_string(dir.path().join("note.md")).unwrap();
        assert!(content.contains("#new-tag"));
        assert!(!content.contains("#old-tag"));
    }

    #[test]
    fn rename_tag_does_not_corrupt_overlapping_inline_tags() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "note.md", "text #foo and #foobar and #foo-extra end");
        vault.rename_tag(&name, "foo", "bar").unwrap();
        let content = fs::read_to_string(dir.path().join("note.md")).unwrap();
        // exact #foo replaced; #foobar and #foo-extra preserved
        assert!(
            content.contains("text #bar and #foobar and #foo-extra end"),
            "got: {content:?}"
        );
    }

    #[test]
    fn remove_tags_does_not_corrupt_overlapping_inline_tags() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "note.md", "#foo #foobar #foo-extra done");
        vault
            .remove_tags(&name, &["note.md".into()], &["foo".into()])
            .unwrap();
        let content = fs::read_to_string(dir.path().join("note.md")).unwrap();
        assert!(
            !content.contains("#foo "),
            "exact #foo must be gone: {content:?}"
        );
        assert!(content.contains("#foobar"), "got: {content:?}");
        assert!(content.contains("#foo-extra"), "got: {content:?}");
    }

    #[test]
    fn rename_tag_no_matches() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        write_note(&dir, "note.md", "no tags here");
        let modified = vault.rename_tag(&name, "absent", "new").unwrap();
        assert!(modified.is_empty());
    }

    // ── Path traversal / sandboxing ───────────────────────────────────────────

    #[test]
    fn rejects_parent_traversal_in_filename() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        let result = vault.note_path(&name, "../escaped", None);
        assert!(result.is_err(), "expected error, got {:?}", result);
        assert!(
            result.unwrap_err().to_string().contains("escapes vault"),
            "wrong error message"
        );
    }

    #[test]
    fn rejects_parent_traversal_in_folder() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        let result = vault.note_path(&name, "note", Some("../.."));
        assert!(result.is_err());
        assert!(result.unwrap_err().to_string().contains("escapes vault"));
    }

    #[test]
    fn rejects_absolute_filename() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        let result = vault.note_path(&name, ABS_FILE, None);
        assert!(result.is_err());
        assert!(result.unwrap_err().to_string().contains("absolute"));
    }

    #[test]
    fn rejects_absolute_folder() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        let result = vault.note_path(&name, "note", Some(ABS_FOLDER));
        assert!(result.is_err());
        assert!(result.unwrap_err().to_string().contains("absolute"));
    }

    #[test]
    fn allows_normal_nested_path() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        let p = vault
            .note_path(&name, "note", Some("subdir/inner"))
            .unwrap();
        assert!(p.starts_with(dir.path()));
        assert!(p.ends_with("note.md"));
    }

    #[test]
    fn create_note_blocks_traversal() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        let result = vault.create_note(&name, "../pwned", "x", None);
        assert!(result.is_err());
        // file must not have been created outside the vault
        assert!(!dir.path().parent().unwrap().join("pwned.md").exists());
    }

    #[test]
    fn delete_note_blocks_traversal() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        // create a sibling file outside the vault
        let outside = dir.path().parent().unwrap().join("sibling.md");
        fs::write(&outside, "private").unwrap();
        let result = vault.delete_note(&name, "../sibling", None, true);
        assert!(result.is_err());
        assert!(outside.exists(), "outside file must not be deleted");
        fs::remove_file(&outside).ok();
    }

    #[test]
    fn create_directory_blocks_traversal() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        let result = vault.create_directory(&name, "../escaped", true);
        assert!(result.is_err());
    }

    #[test]
    fn search_vault_blocks_traversal_in_path() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        let result = vault.search_vault(
            &name,
            Some("../.."),
            &text_query("x", false, &SearchType::Content),
            &SearchLimits::default(),
        );
        assert!(result.is_err());
    }

    #[test]
    fn add_tags_blocks_traversal() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        // create a sibling file outside the vault that must not be touched
        let outside = dir.path().parent().unwrap().join("sibling-add.md");
        fs::write(&outside, "untouched").unwrap();
        let result = vault.add_tags(
            &name,
            &["../sibling-add.md".into()],
            &["pwned".into()],
            TagLocation::Frontmatter,
            false,
            TagPosition::End,
        );
        assert!(result.is_err());
        assert!(result.unwrap_err().to_string().contains("escapes vault"));
        // outside file must be byte-identical
        assert_eq!(fs::read_to_string(&outside).unwrap(), "untouched");
        fs::remove_file(&outside).ok();
    }

    #[test]
    fn add_tags_blocks_absolute_path() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        let result = vault.add_tags(
            &name,
            &[ABS_FILE.into()],
            &["x".into()],
            TagLocation::Frontmatter,
            false,
            TagPosition::End,
        );
        assert!(result.is_err());
        assert!(result.unwrap_err().to_string().contains("absolute"));
    }

    #[test]
    fn frontmatter_blocks_traversal() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        let outside = dir.path().parent().unwrap().join("sibling-fm.md");
        fs::write(&outside, "---\ntitle: private\n---\n").unwrap();

        let result = vault.frontmatter(
            &name,
            "../sibling-fm",
            None,
            &FrontmatterAction::Set,
            Some("pwned"),
            Some(&serde_json::json!(true)),
        );

        assert!(result.is_err());
        assert!(result.unwrap_err().to_string().contains("escapes vault"));
        assert_eq!(
            fs::read_to_string(&outside).unwrap(),
            "---\ntitle: private\n---\n",
            "the outside note must be byte-identical"
        );
        fs::remove_file(&outside).ok();
    }

    #[test]
    fn remove_tags_blocks_traversal() {
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        let outside = dir.path().parent().unwrap().join("sibling-rm.md");
        fs::write(&outside, "#keep").unwrap();
        let result = vault.remove_tags(&name, &["../sibling-rm.md".into()], &["keep".into()]);
        assert!(result.is_err());
        assert_eq!(fs::read_to_string(&outside).unwrap(), "#keep");
        fs::remove_file(&outside).ok();
    }

    #[cfg(unix)]
    #[test]
    fn rejects_symlink_escape() {
        use std::os::unix::fs::symlink;
        let outer = TempDir::new().unwrap();
        let secret = outer.path().join("secret.md");
        fs::write(&secret, "top secret").unwrap();

        let (vault_dir, vault) = make_vault();
        let name = vault_name(&vault_dir);
        // symlink inside the vault pointing to a directory outside
        symlink(outer.path(), vault_dir.path().join("escape")).unwrap();

        let result = vault.read_note(
            &name,
            "secret",
            Some("escape"),
            &NoteView::Content,
            &ReadWindow::default(),
        );
        assert!(
            result.is_err(),
            "symlink escape must be rejected, got {:?}",
            result
        );
        assert!(result.unwrap_err().to_string().contains("escapes vault"));
    }

    #[cfg(unix)]
    #[test]
    fn allows_symlink_staying_inside_vault() {
        use std::os::unix::fs::symlink;
        let (dir, vault) = make_vault();
        let name = vault_name(&dir);
        fs::create_dir(dir.path().join("real")).unwrap();
        fs::write(dir.path().join("real/note.md"), "hello").unwrap();
        symlink(dir.path().join("real"), dir.path().join("link")).unwrap();

        let content = vault
            .read_note(
                &name,
                "note",
                Some("link"),
                &NoteView::Content,
                &ReadWindow::default(),
            )
            .unwrap();
        assert_eq!(content, "hello");
    }
}
