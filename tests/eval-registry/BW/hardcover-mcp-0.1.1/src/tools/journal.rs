//! Reading journal tool router: read and write the authenticated user's
//! reading journal entries (notes and quotes).

use rmcp::{
    handler::server::wrapper::Parameters, model::CallToolResult, schemars, tool, tool_router,
    ErrorData as McpError,
};
use serde_json::{json, Map, Value};

use crate::server::HardcoverServer;
use crate::tools::{client_err, mutation_error, ok_json, tool_err};
use crate::types::Privacy;

const VALID_KINDS: &[&str] = &["note", "quote"];

const JOURNAL_ENTRIES_QUERY: &str = r#"
query GetJournalEntries($where: reading_journals_bool_exp!, $limit: Int!) {
  reading_journals(where: $where, order_by: { action_at: desc }, limit: $limit) {
    id
    event
    entry
    action_at
    metadata
    privacy_setting_id
    book_id
  }
}
"#;

const INSERT_READING_JOURNAL: &str = r#"
mutation AddJournalEntry($object: ReadingJournalCreateType!) {
  insert_reading_journal(object: $object) {
    errors
    id
    reading_journal {
      id
      book_id
      event
      entry
    }
  }
}
"#;

const DELETE_READING_JOURNAL: &str = r#"
mutation DeleteJournalEntry($id: Int!) {
  delete_reading_journal(id: $id) {
    id
  }
}
"#;

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct GetJournalEntriesParams {
    /// Optional Hardcover book id to filter entries to a single book.
    pub book_id: Option<i64>,
    /// Maximum number of entries to return, newest first (default 20, max 100).
    pub limit: Option<u32>,
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct AddJournalEntryParams {
    /// Hardcover book id this entry is about (find it with the search tool).
    pub book_id: i64,
    /// The journal entry text.
    pub entry: String,
    /// Entry kind: note (default) or quote.
    pub kind: Option<String>,
    /// Page number this entry refers to, if any.
    pub page: Option<i64>,
    /// Total pages in the book, used alongside page to show reading progress.
    pub total_pages: Option<i64>,
    /// Privacy for this entry: public | followers | private (default public).
    pub privacy: Option<String>,
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct DeleteJournalEntryParams {
    /// Journal entry id to delete.
    pub id: i64,
}

#[tool_router(router = journal_router, vis = "pub")]
impl HardcoverServer {
    /// List the authenticated user's reading journal entries, newest first.
    #[tool(
        description = "List your reading journal entries (notes and quotes), newest first, optionally filtered to one book. limit defaults to 20, max 100.",
        annotations(read_only_hint = true)
    )]
    async fn get_journal_entries(
        &self,
        Parameters(params): Parameters<GetJournalEntriesParams>,
    ) -> Result<CallToolResult, McpError> {
        let user_id = match self.client.me_id().await {
            Ok(id) => id,
            Err(e) => return client_err(e),
        };

        let mut where_clause = Map::new();
        where_clause.insert("user_id".to_string(), json!({ "_eq": user_id }));
        if let Some(book_id) = params.book_id {
            where_clause.insert("book_id".to_string(), json!({ "_eq": book_id }));
        }

        let limit = params.limit.unwrap_or(20).min(100);

        let data = match self
            .client
            .graphql(
                JOURNAL_ENTRIES_QUERY,
                json!({ "where": Value::Object(where_clause), "limit": limit }),
            )
            .await
        {
            Ok(data) => data,
            Err(e) => return client_err(e),
        };

        let entries: Vec<Value> = data
            .get("reading_journals")
            .and_then(Value::as_array)
            .map(|rows| rows.iter().map(shape_journal_entry).collect())
            .unwrap_or_default();

        ok_json(&json!({ "entries": entries }))
    }

    /// Add a note or quote to the reading journal for a book.
    #[tool(
        description = "Add a reading journal entry (note or quote) for a book. kind: note (default) or quote. page/total_pages optionally record reading progress at the time of the entry. privacy: public | followers | private (default public)."
    )]
    async fn add_journal_entry(
        &self,
        Parameters(params): Parameters<AddJournalEntryParams>,
    ) -> Result<CallToolResult, McpError> {
        let event = match parse_event(params.kind.as_deref()) {
            Ok(event) => event,
            Err(msg) => return tool_err(msg),
        };
        let privacy = match params.privacy.as_deref().map(Privacy::from_str).transpose() {
            Ok(p) => p.unwrap_or(Privacy::Public),
            Err(msg) => return tool_err(msg),
        };

        let mut object = Map::new();
        object.insert("book_id".to_string(), json!(params.book_id));
        object.insert("entry".to_string(), json!(params.entry));
        object.insert("event".to_string(), json!(event));
        object.insert("privacy_setting_id".to_string(), json!(privacy.to_id()));
        object.insert("tags".to_string(), json!([]));
        if let Some(metadata) = build_metadata(params.page, params.total_pages) {
            object.insert("metadata".to_string(), metadata);
        }

        let data = match self
            .client
            .graphql(
                INSERT_READING_JOURNAL,
                json!({ "object": Value::Object(object) }),
            )
            .await
        {
            Ok(data) => data,
            Err(e) => return client_err(e),
        };
        let Some(payload) = data.get("insert_reading_journal") else {
            return tool_err("Hardcover returned no result for the new journal entry");
        };
        if let Some(msg) = mutation_error(payload) {
            return tool_err(msg);
        }

        let entry = payload
            .get("reading_journal")
            .cloned()
            .unwrap_or(Value::Null);
        let mut result = Map::new();
        result.insert(
            "journal_id".to_string(),
            entry
                .get("id")
                .cloned()
                .or_else(|| payload.get("id").cloned())
                .unwrap_or(Value::Null),
        );
        result.insert(
            "book_id".to_string(),
            entry
                .get("book_id")
                .cloned()
                .unwrap_or(json!(params.book_id)),
        );
        result.insert("event".to_string(), json!(event));
        result.insert(
            "entry".to_string(),
            entry.get("entry").cloned().unwrap_or(json!(params.entry)),
        );

        ok_json(&Value::Object(result))
    }

    /// Delete a reading journal entry.
    #[tool(
        description = "Delete a reading journal entry by id.",
        annotations(destructive_hint = true)
    )]
    async fn delete_journal_entry(
        &self,
        Parameters(params): Parameters<DeleteJournalEntryParams>,
    ) -> Result<CallToolResult, McpError> {
        if let Err(e) = self
            .client
            .graphql(DELETE_READING_JOURNAL, json!({ "id": params.id }))
            .await
        {
            return client_err(e);
        }

        ok_json(&json!({ "deleted_id": params.id }))
    }
}

/// Validate a journal entry kind, defaulting to "note" when unset.
fn parse_event(kind: Option<&str>) -> Result<&str, String> {
    let kind = kind.unwrap_or("note");
    if VALID_KINDS.contains(&kind) {
        Ok(kind)
    } else {
        Err(format!(
            "invalid kind '{}', valid values are: {}",
            kind,
            VALID_KINDS.join(", ")
        ))
    }
}

/// Build the `metadata` jsonb value for a journal entry from a page and
/// optional total page count. Returns `None` when no page is given; `possible`
/// is included only when `total_pages` is given.
fn build_metadata(page: Option<i64>, total_pages: Option<i64>) -> Option<Value> {
    let page = page?;
    let mut position = Map::new();
    position.insert("type".to_string(), json!("pages"));
    position.insert("value".to_string(), json!(page));
    if let Some(total_pages) = total_pages {
        position.insert("possible".to_string(), json!(total_pages));
    }
    Some(json!({ "position": Value::Object(position) }))
}

/// Copy `src[field]` to `obj[field]` for each field, unless absent or JSON
/// `null`, so shaped results omit nulls rather than emitting them.
fn copy_non_null(obj: &mut Map<String, Value>, src: &Value, fields: &[&str]) {
    for &field in fields {
        if let Some(v) = src.get(field) {
            if !v.is_null() {
                obj.insert(field.to_string(), v.clone());
            }
        }
    }
}

/// Shape a `reading_journals` row (from [`JOURNAL_ENTRIES_QUERY`]) into a
/// compact entry, mapping `privacy_setting_id` to a string and omitting an
/// empty `metadata` object.
fn shape_journal_entry(row: &Value) -> Value {
    let mut obj = Map::new();
    copy_non_null(
        &mut obj,
        row,
        &["id", "event", "entry", "action_at", "book_id"],
    );

    if let Some(privacy) = row
        .get("privacy_setting_id")
        .and_then(Value::as_i64)
        .and_then(|id| Privacy::from_id(id).ok())
    {
        obj.insert("privacy".to_string(), json!(privacy.as_str()));
    }

    if let Some(metadata) = row.get("metadata") {
        if metadata.as_object().map(|m| !m.is_empty()).unwrap_or(false) {
            obj.insert("metadata".to_string(), metadata.clone());
        }
    }

    Value::Object(obj)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_event_defaults_to_note() {
        assert_eq!(parse_event(None), Ok("note"));
    }

    #[test]
    fn parse_event_accepts_valid_kinds() {
        assert_eq!(parse_event(Some("note")), Ok("note"));
        assert_eq!(parse_event(Some("quote")), Ok("quote"));
    }

    #[test]
    fn parse_event_rejects_unknown_kind() {
        let err = parse_event(Some("rant")).unwrap_err();
        assert!(err.contains("note"));
        assert!(err.contains("quote"));
    }

    #[test]
    fn build_metadata_none_without_page() {
        assert_eq!(build_metadata(None, None), None);
        assert_eq!(build_metadata(None, Some(300)), None);
    }

    #[test]
    fn build_metadata_page_only() {
        let metadata = build_metadata(Some(120), None).unwrap();
        assert_eq!(metadata["position"]["type"], "pages");
        assert_eq!(metadata["position"]["value"], 120);
        assert!(metadata["position"].get("possible").is_none());
    }

    #[test]
    fn build_metadata_page_and_total() {
        let metadata = build_metadata(Some(120), Some(350)).unwrap();
        assert_eq!(metadata["position"]["value"], 120);
        assert_eq!(metadata["position"]["possible"], 350);
    }

    #[test]
    fn shapes_journal_entry_with_privacy_and_metadata() {
        let row = json!({
            "id": 1,
            "event": "note",
            "entry": "Great chapter",
            "action_at": "2026-07-01",
            "metadata": { "position": { "type": "pages", "value": 100 } },
            "privacy_setting_id": 1,
            "book_id": 42,
        });

        let shaped = shape_journal_entry(&row);

        assert_eq!(shaped["id"], 1);
        assert_eq!(shaped["privacy"], "public");
        assert_eq!(shaped["metadata"]["position"]["value"], 100);
        assert_eq!(shaped["book_id"], 42);
    }

    #[test]
    fn shapes_journal_entry_omits_empty_metadata_and_null_entry() {
        let row = json!({
            "id": 2,
            "event": "quote",
            "entry": null,
            "action_at": "2026-07-02",
            "metadata": {},
            "privacy_setting_id": 3,
            "book_id": 42,
        });

        let shaped = shape_journal_entry(&row);

        assert!(shaped.get("entry").is_none());
        assert!(shaped.get("metadata").is_none());
        assert_eq!(shaped["privacy"], "private");
    }
}
