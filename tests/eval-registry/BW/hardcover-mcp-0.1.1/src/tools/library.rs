//! Library tool router: read and write the authenticated user's own reading
//! library — statuses, ratings, reading progress, and reviews.
//!
//! Every write follows the Hardcover upsert pattern: `insert_user_book` is not
//! idempotent, so we first look up the existing `user_books` row for the book
//! (via [`HardcoverServer::find_user_book`]) and then either update it or insert
//! a fresh one. Custom-action mutations report failure in-band through an
//! `error`/`errors` payload field even on HTTP 200, so every mutation response
//! is passed through [`mutation_error`].

use chrono::{Local, NaiveDate};
use rmcp::{
    handler::server::wrapper::Parameters, model::CallToolResult, schemars, tool, tool_router,
    ErrorData as McpError,
};
use serde_json::{json, Map, Value};

use crate::client::ClientError;
use crate::server::HardcoverServer;
use crate::slate::text_to_slate;
use crate::tools::{client_err, mutation_error, ok_json, tool_err};
use crate::types::{Privacy, Status};

const FIND_USER_BOOK: &str = r#"
query FindUserBook($bookId: Int!, $userId: Int!) {
  user_books(where: { book_id: { _eq: $bookId }, user_id: { _eq: $userId } }, limit: 1) {
    id
    status_id
    rating
  }
}
"#;

const MY_BOOKS_QUERY: &str = r#"
query GetMyBooks($where: user_books_bool_exp!, $limit: Int!, $offset: Int!) {
  user_books(where: $where, order_by: { date_added: desc }, limit: $limit, offset: $offset) {
    id
    book_id
    status_id
    rating
    date_added
    last_read_date
    has_review
    private_notes
    book {
      id
      title
      slug
    }
    user_book_reads(order_by: { id: desc }, limit: 1) {
      progress_pages
      progress_seconds
      started_at
      finished_at
    }
  }
  user_books_aggregate(where: $where) {
    aggregate {
      count
    }
  }
}
"#;

const INSERT_USER_BOOK: &str = r#"
mutation InsertUserBook($object: UserBookCreateInput!) {
  insert_user_book(object: $object) {
    error
    id
    user_book {
      id
      book_id
      status_id
      rating
      review_raw
      reviewed_at
    }
  }
}
"#;

const UPDATE_USER_BOOK: &str = r#"
mutation UpdateUserBook($id: Int!, $object: UserBookUpdateInput!) {
  update_user_book(id: $id, object: $object) {
    error
    id
    user_book {
      id
      book_id
      status_id
      rating
      review_raw
      reviewed_at
    }
  }
}
"#;

const DELETE_USER_BOOK: &str = r#"
mutation DeleteUserBook($id: Int!) {
  delete_user_book(id: $id) {
    id
    book_id
  }
}
"#;

const LATEST_READ_QUERY: &str = r#"
query LatestRead($userBookId: Int!) {
  user_book_reads(where: { user_book_id: { _eq: $userBookId } }, order_by: { id: desc }, limit: 1) {
    id
    started_at
    finished_at
  }
}
"#;

const INSERT_USER_BOOK_READ: &str = r#"
mutation InsertUserBookRead($userBookId: Int!, $object: DatesReadInput!) {
  insert_user_book_read(user_book_id: $userBookId, user_book_read: $object) {
    error
    id
    user_book_read {
      id
      started_at
      finished_at
      progress_pages
      progress_seconds
    }
  }
}
"#;

const UPDATE_USER_BOOK_READ: &str = r#"
mutation UpdateUserBookRead($id: Int!, $object: DatesReadInput!) {
  update_user_book_read(id: $id, object: $object) {
    error
    id
    user_book_read {
      id
      started_at
      finished_at
      progress_pages
      progress_seconds
    }
  }
}
"#;

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct GetMyBooksParams {
    /// Optional status filter: want_to_read | currently_reading | read | paused | dnf | ignored.
    pub status: Option<String>,
    /// Maximum number of entries to return (default 20, max 100).
    pub limit: Option<u32>,
    /// Number of entries to skip, for pagination (default 0).
    pub offset: Option<u32>,
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct SetBookStatusParams {
    /// Hardcover book id (find it with the search tool).
    pub book_id: i64,
    /// Reading status: want_to_read | currently_reading | read | paused | dnf | ignored.
    pub status: String,
    /// Optional rating from 0 to 5 in 0.5 steps.
    pub rating: Option<f64>,
    /// Optional privacy for this library entry: public | followers | private.
    pub privacy: Option<String>,
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct RateBookParams {
    /// Hardcover book id (find it with the search tool).
    pub book_id: i64,
    /// Rating from 0 to 5 in 0.5 steps (e.g. 3.5).
    pub rating: f64,
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct RemoveBookParams {
    /// Hardcover book id to remove from your library.
    pub book_id: i64,
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct UpdateProgressParams {
    /// Hardcover book id (must already be in your library).
    pub book_id: i64,
    /// Progress in pages read.
    pub pages: Option<i64>,
    /// Progress in seconds listened (for audiobooks).
    pub seconds: Option<i64>,
    /// Date you started this read, "YYYY-MM-DD" (defaults to today for a new read).
    pub started_at: Option<String>,
    /// Set true to mark the book finished today and move it to "read".
    pub finished: Option<bool>,
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct WriteReviewParams {
    /// Hardcover book id (find it with the search tool).
    pub book_id: i64,
    /// The review text. Blank lines separate paragraphs.
    pub review: String,
    /// Set true if the review contains spoilers (default false).
    pub contains_spoilers: Option<bool>,
    /// Optional rating from 0 to 5 in 0.5 steps to save alongside the review.
    pub rating: Option<f64>,
}

#[tool_router(router = library_router, vis = "pub")]
impl HardcoverServer {
    /// List the authenticated user's library entries, newest first, with total
    /// count and latest reading progress.
    #[tool(
        description = "List your library entries (newest first), optionally filtered by status. Returns a total count plus each book's status, rating, and latest reading progress. status: want_to_read | currently_reading | read | paused | dnf | ignored. limit defaults to 20, max 100.",
        annotations(read_only_hint = true)
    )]
    async fn get_my_books(
        &self,
        Parameters(params): Parameters<GetMyBooksParams>,
    ) -> Result<CallToolResult, McpError> {
        let user_id = match self.client.me_id().await {
            Ok(id) => id,
            Err(e) => return client_err(e),
        };

        let mut where_clause = Map::new();
        where_clause.insert("user_id".to_string(), json!({ "_eq": user_id }));
        if let Some(status) = params.status {
            match Status::from_str(&status) {
                Ok(s) => {
                    where_clause.insert("status_id".to_string(), json!({ "_eq": s.to_id() }));
                }
                Err(msg) => return tool_err(msg),
            }
        }

        let limit = params.limit.unwrap_or(20).min(100);
        let offset = params.offset.unwrap_or(0);

        let data = match self
            .client
            .graphql(
                MY_BOOKS_QUERY,
                json!({ "where": Value::Object(where_clause), "limit": limit, "offset": offset }),
            )
            .await
        {
            Ok(data) => data,
            Err(e) => return client_err(e),
        };

        let total = data
            .get("user_books_aggregate")
            .and_then(|a| a.get("aggregate"))
            .and_then(|a| a.get("count"))
            .and_then(Value::as_i64)
            .unwrap_or(0);

        let books: Vec<Value> = data
            .get("user_books")
            .and_then(Value::as_array)
            .map(|rows| rows.iter().map(shape_library_book).collect())
            .unwrap_or_default();

        ok_json(&json!({ "total": total, "books": books }))
    }

    /// Set (or change) a book's reading status in the library, creating the
    /// entry if needed.
    #[tool(
        description = "Set a book's reading status in your library, creating the entry if it does not exist yet. Optionally set a rating (0-5 in 0.5 steps) and privacy (public | followers | private). status: want_to_read | currently_reading | read | paused | dnf | ignored."
    )]
    async fn set_book_status(
        &self,
        Parameters(params): Parameters<SetBookStatusParams>,
    ) -> Result<CallToolResult, McpError> {
        let status = match Status::from_str(&params.status) {
            Ok(s) => s,
            Err(msg) => return tool_err(msg),
        };
        if let Some(rating) = params.rating {
            if let Err(msg) = validate_rating(rating) {
                return tool_err(msg);
            }
        }
        let privacy = match params.privacy.as_deref().map(Privacy::from_str).transpose() {
            Ok(p) => p,
            Err(msg) => return tool_err(msg),
        };

        let existing = match self.find_user_book(params.book_id).await {
            Ok(row) => row,
            Err(e) => return client_err(e),
        };
        let existing_id = existing.map(|(id, _, _)| id);

        let mut object = Map::new();
        object.insert("status_id".to_string(), json!(status.to_id()));
        if let Some(rating) = params.rating {
            object.insert("rating".to_string(), json!(rating));
        }
        if let Some(privacy) = privacy {
            object.insert("privacy_setting_id".to_string(), json!(privacy.to_id()));
        }
        if existing_id.is_none() {
            object.insert("book_id".to_string(), json!(params.book_id));
        }

        let user_book = match self
            .upsert_user_book(existing_id, Value::Object(object))
            .await
        {
            Ok(Ok(ub)) => ub,
            Ok(Err(msg)) => return tool_err(msg),
            Err(e) => return client_err(e),
        };

        ok_json(&echo_user_book(&user_book, params.book_id))
    }

    /// Rate a book from 0 to 5 in 0.5 steps. Creates a library entry with
    /// status "read" if the book is not already in your library.
    #[tool(
        description = "Rate a book from 0 to 5 in 0.5 steps (e.g. 4.5). If the book is not yet in your library, a library entry is created with status \"read\"."
    )]
    async fn rate_book(
        &self,
        Parameters(params): Parameters<RateBookParams>,
    ) -> Result<CallToolResult, McpError> {
        if let Err(msg) = validate_rating(params.rating) {
            return tool_err(msg);
        }

        let existing = match self.find_user_book(params.book_id).await {
            Ok(row) => row,
            Err(e) => return client_err(e),
        };
        let existing_id = existing.map(|(id, _, _)| id);

        let mut object = Map::new();
        object.insert("rating".to_string(), json!(params.rating));
        if existing_id.is_none() {
            object.insert("book_id".to_string(), json!(params.book_id));
            object.insert("status_id".to_string(), json!(Status::Read.to_id()));
        }

        let user_book = match self
            .upsert_user_book(existing_id, Value::Object(object))
            .await
        {
            Ok(Ok(ub)) => ub,
            Ok(Err(msg)) => return tool_err(msg),
            Err(e) => return client_err(e),
        };

        ok_json(&echo_user_book(&user_book, params.book_id))
    }

    /// Remove a book from the authenticated user's library entirely.
    #[tool(
        description = "Remove a book from your library entirely, discarding its status, rating, progress, and review.",
        annotations(destructive_hint = true)
    )]
    async fn remove_book_from_library(
        &self,
        Parameters(params): Parameters<RemoveBookParams>,
    ) -> Result<CallToolResult, McpError> {
        let existing = match self.find_user_book(params.book_id).await {
            Ok(row) => row,
            Err(e) => return client_err(e),
        };
        let Some((user_book_id, _, _)) = existing else {
            return tool_err("This book is not in your library");
        };

        let data = match self
            .client
            .graphql(DELETE_USER_BOOK, json!({ "id": user_book_id }))
            .await
        {
            Ok(data) => data,
            Err(e) => return client_err(e),
        };

        if let Some(msg) = data.get("delete_user_book").and_then(mutation_error) {
            return tool_err(msg);
        }

        ok_json(&json!({
            "removed": true,
            "book_id": params.book_id,
            "user_book_id": user_book_id,
        }))
    }

    /// Update reading progress for a book already in the library: log pages or
    /// audiobook seconds, and optionally mark it finished.
    #[tool(
        description = "Update reading progress for a book already in your library: set pages read or audiobook seconds, optionally a start date (YYYY-MM-DD), and optionally mark it finished. Marking finished sets today as the finish date and moves the book to \"read\". Add the book with set_book_status first if it is not in your library."
    )]
    async fn update_reading_progress(
        &self,
        Parameters(params): Parameters<UpdateProgressParams>,
    ) -> Result<CallToolResult, McpError> {
        if let Some(started_at) = &params.started_at {
            if let Err(msg) = validate_date(started_at) {
                return tool_err(msg);
            }
        }

        let existing = match self.find_user_book(params.book_id).await {
            Ok(row) => row,
            Err(e) => return client_err(e),
        };
        let Some((user_book_id, _, _)) = existing else {
            return tool_err(
                "This book is not in your library. Add it first with set_book_status, then log progress.",
            );
        };

        let latest_data = match self
            .client
            .graphql(LATEST_READ_QUERY, json!({ "userBookId": user_book_id }))
            .await
        {
            Ok(data) => data,
            Err(e) => return client_err(e),
        };
        let latest = latest_data
            .get("user_book_reads")
            .and_then(Value::as_array)
            .and_then(|a| a.first())
            .map(ReadRow::from_value);

        let action = plan_progress_update(latest.as_ref());
        let finished = params.finished.unwrap_or(false);

        let mut object = Map::new();
        if let Some(pages) = params.pages {
            object.insert("progress_pages".to_string(), json!(pages));
        }
        if let Some(seconds) = params.seconds {
            object.insert("progress_seconds".to_string(), json!(seconds));
        }
        match action {
            ProgressAction::InsertRead => {
                let start = params.started_at.clone().unwrap_or_else(today);
                object.insert("started_at".to_string(), json!(start));
            }
            ProgressAction::UpdateRead { .. } => {
                if let Some(start) = &params.started_at {
                    object.insert("started_at".to_string(), json!(start));
                }
            }
        }
        if finished {
            object.insert("finished_at".to_string(), json!(today()));
        }

        let (query, variables) = match action {
            ProgressAction::UpdateRead { id } => (
                UPDATE_USER_BOOK_READ,
                json!({ "id": id, "object": Value::Object(object) }),
            ),
            ProgressAction::InsertRead => (
                INSERT_USER_BOOK_READ,
                json!({ "userBookId": user_book_id, "object": Value::Object(object) }),
            ),
        };

        let data = match self.client.graphql(query, variables).await {
            Ok(data) => data,
            Err(e) => return client_err(e),
        };
        let payload = data
            .get("insert_user_book_read")
            .or_else(|| data.get("update_user_book_read"));
        let Some(payload) = payload else {
            return tool_err("Hardcover returned no reading-progress result");
        };
        if let Some(msg) = mutation_error(payload) {
            return tool_err(msg);
        }

        let read = payload
            .get("user_book_read")
            .cloned()
            .unwrap_or(Value::Null);
        let mut result = json!({ "user_book_id": user_book_id, "read": shape_read(&read) });

        if finished {
            let mut status_object = Map::new();
            status_object.insert("status_id".to_string(), json!(Status::Read.to_id()));
            match self
                .upsert_user_book(Some(user_book_id), Value::Object(status_object))
                .await
            {
                Ok(Ok(_)) => {
                    if let Some(obj) = result.as_object_mut() {
                        obj.insert("status".to_string(), json!(Status::Read.as_str()));
                    }
                }
                Ok(Err(msg)) => return tool_err(msg),
                Err(e) => return client_err(e),
            }
        }

        ok_json(&result)
    }

    /// Write or replace a book's review. Creates a library entry with status
    /// "read" if the book is not already in your library.
    #[tool(
        description = "Write or replace your review of a book, dated today. Blank lines separate paragraphs. Optionally flag spoilers or attach a rating (0-5 in 0.5 steps). If the book is not yet in your library, a library entry is created with status \"read\"."
    )]
    async fn write_review(
        &self,
        Parameters(params): Parameters<WriteReviewParams>,
    ) -> Result<CallToolResult, McpError> {
        if let Some(rating) = params.rating {
            if let Err(msg) = validate_rating(rating) {
                return tool_err(msg);
            }
        }

        let existing = match self.find_user_book(params.book_id).await {
            Ok(row) => row,
            Err(e) => return client_err(e),
        };
        let existing_id = existing.map(|(id, _, _)| id);

        let reviewed_at = today();
        let mut object = Map::new();
        object.insert("review_slate".to_string(), text_to_slate(&params.review));
        object.insert(
            "review_has_spoilers".to_string(),
            json!(params.contains_spoilers.unwrap_or(false)),
        );
        object.insert("reviewed_at".to_string(), json!(reviewed_at));
        if let Some(rating) = params.rating {
            object.insert("rating".to_string(), json!(rating));
        }
        if existing_id.is_none() {
            object.insert("book_id".to_string(), json!(params.book_id));
            object.insert("status_id".to_string(), json!(Status::Read.to_id()));
        }

        let user_book = match self
            .upsert_user_book(existing_id, Value::Object(object))
            .await
        {
            Ok(Ok(ub)) => ub,
            Ok(Err(msg)) => return tool_err(msg),
            Err(e) => return client_err(e),
        };

        let mut result = Map::new();
        result.insert(
            "user_book_id".to_string(),
            user_book.get("id").cloned().unwrap_or(Value::Null),
        );
        if let Some(review_raw) = user_book.get("review_raw") {
            if !review_raw.is_null() {
                result.insert("review_raw".to_string(), review_raw.clone());
            }
        }
        if let Some(rating) = user_book.get("rating") {
            if !rating.is_null() {
                result.insert("rating".to_string(), rating.clone());
            }
        }
        result.insert("reviewed_at".to_string(), json!(reviewed_at));
        ok_json(&Value::Object(result))
    }

    /// Find the authenticated user's `user_books` row for a book, if any.
    ///
    /// Returns `(user_book_id, status_id, rating)`; `None` when the book is not
    /// in the library. Used to drive the insert-or-update upsert pattern.
    async fn find_user_book(
        &self,
        book_id: i64,
    ) -> Result<Option<(i64, i64, Option<f64>)>, ClientError> {
        let user_id = self.client.me_id().await?;
        let data = self
            .client
            .graphql(
                FIND_USER_BOOK,
                json!({ "bookId": book_id, "userId": user_id }),
            )
            .await?;

        let row = data
            .get("user_books")
            .and_then(Value::as_array)
            .and_then(|a| a.first());

        Ok(row.map(|r| {
            let id = r.get("id").and_then(Value::as_i64).unwrap_or_default();
            let status_id = r
                .get("status_id")
                .and_then(Value::as_i64)
                .unwrap_or_default();
            let rating = r.get("rating").and_then(Value::as_f64);
            (id, status_id, rating)
        }))
    }

    /// Insert or update a `user_books` row. When `existing_id` is `Some`, the
    /// object must NOT carry `book_id`; when `None`, it must carry `book_id`
    /// and `status_id`. The outer `Result` is a transport error; the inner one
    /// is an in-band mutation error message. On success returns the mutation's
    /// `user_book` (may be JSON null if the API omitted it).
    async fn upsert_user_book(
        &self,
        existing_id: Option<i64>,
        object: Value,
    ) -> Result<Result<Value, String>, ClientError> {
        let (query, variables, key) = match existing_id {
            Some(id) => (
                UPDATE_USER_BOOK,
                json!({ "id": id, "object": object }),
                "update_user_book",
            ),
            None => (
                INSERT_USER_BOOK,
                json!({ "object": object }),
                "insert_user_book",
            ),
        };

        let data = self.client.graphql(query, variables).await?;
        let Some(payload) = data.get(key) else {
            return Ok(Err(
                "Hardcover returned no result for the library update".to_string()
            ));
        };
        if let Some(msg) = mutation_error(payload) {
            return Ok(Err(msg));
        }
        Ok(Ok(payload.get("user_book").cloned().unwrap_or(Value::Null)))
    }
}

/// The choice between updating the latest in-progress read and starting a new
/// one (a re-read).
#[derive(Debug, PartialEq, Eq)]
enum ProgressAction {
    /// Update the existing latest read with this id.
    UpdateRead { id: i64 },
    /// Insert a brand-new read.
    InsertRead,
}

/// The subset of a `user_book_reads` row that drives the update-vs-insert
/// decision.
#[derive(Debug)]
struct ReadRow {
    id: i64,
    /// `None` when the read is still in progress (no finish date recorded).
    finished_at: Option<String>,
}

impl ReadRow {
    fn from_value(v: &Value) -> Self {
        ReadRow {
            id: v.get("id").and_then(Value::as_i64).unwrap_or_default(),
            finished_at: v
                .get("finished_at")
                .and_then(Value::as_str)
                .map(str::to_string),
        }
    }
}

/// Decide whether to update the latest read or start a new one: update the
/// latest read when it exists and is still in progress (no finish date);
/// otherwise insert a new read (first read, or a re-read after finishing).
fn plan_progress_update(latest: Option<&ReadRow>) -> ProgressAction {
    match latest {
        Some(read) if read.finished_at.is_none() => ProgressAction::UpdateRead { id: read.id },
        _ => ProgressAction::InsertRead,
    }
}

/// Validate a rating is between 0 and 5 in exact 0.5 steps.
fn validate_rating(rating: f64) -> Result<(), String> {
    if !(0.0..=5.0).contains(&rating) || (rating * 2.0).fract() != 0.0 {
        return Err("rating must be between 0 and 5 in 0.5 steps".to_string());
    }
    Ok(())
}

/// Validate a date string is "YYYY-MM-DD".
fn validate_date(date: &str) -> Result<(), String> {
    NaiveDate::parse_from_str(date, "%Y-%m-%d")
        .map(|_| ())
        .map_err(|_| format!("invalid date '{}', expected format YYYY-MM-DD", date))
}

/// Today's date in the local timezone as "YYYY-MM-DD".
fn today() -> String {
    Local::now().date_naive().to_string()
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

/// Shape a `user_books` row from [`MY_BOOKS_QUERY`] into a compact library
/// entry. Note `private_notes` is reduced to a boolean `has_private_notes` so
/// note contents never leak into the list view.
fn shape_library_book(row: &Value) -> Value {
    let mut obj = Map::new();
    if let Some(id) = row.get("id") {
        obj.insert("user_book_id".to_string(), id.clone());
    }
    copy_non_null(&mut obj, row, &["book_id"]);

    if let Some(book) = row.get("book") {
        copy_non_null(&mut obj, book, &["title", "slug"]);
    }

    if let Some(status) = row
        .get("status_id")
        .and_then(Value::as_i64)
        .and_then(|id| Status::from_id(id).ok())
    {
        obj.insert("status".to_string(), json!(status.as_str()));
    }

    copy_non_null(
        &mut obj,
        row,
        &["rating", "date_added", "last_read_date", "has_review"],
    );

    let has_notes = row
        .get("private_notes")
        .map(|v| !v.is_null())
        .unwrap_or(false);
    obj.insert("has_private_notes".to_string(), json!(has_notes));

    if let Some(read) = row
        .get("user_book_reads")
        .and_then(Value::as_array)
        .and_then(|a| a.first())
    {
        let progress = shape_read(read);
        if progress.as_object().map(|m| !m.is_empty()).unwrap_or(false) {
            obj.insert("progress".to_string(), progress);
        }
    }

    Value::Object(obj)
}

/// Shape a `user_book_reads` row into a compact progress object, omitting nulls.
fn shape_read(read: &Value) -> Value {
    let mut obj = Map::new();
    copy_non_null(
        &mut obj,
        read,
        &[
            "id",
            "progress_pages",
            "progress_seconds",
            "started_at",
            "finished_at",
        ],
    );
    Value::Object(obj)
}

/// Echo a mutated `user_book` as `{user_book_id, book_id, status, rating}`.
fn echo_user_book(user_book: &Value, book_id: i64) -> Value {
    let mut obj = Map::new();
    obj.insert(
        "user_book_id".to_string(),
        user_book.get("id").cloned().unwrap_or(Value::Null),
    );
    obj.insert("book_id".to_string(), json!(book_id));
    if let Some(status) = user_book
        .get("status_id")
        .and_then(Value::as_i64)
        .and_then(|id| Status::from_id(id).ok())
    {
        obj.insert("status".to_string(), json!(status.as_str()));
    }
    if let Some(rating) = user_book.get("rating") {
        if !rating.is_null() {
            obj.insert("rating".to_string(), rating.clone());
        }
    }
    Value::Object(obj)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_row(id: i64, finished_at: Option<&str>) -> ReadRow {
        ReadRow {
            id,
            finished_at: finished_at.map(str::to_string),
        }
    }

    #[test]
    fn plans_insert_when_no_reads_exist() {
        assert_eq!(plan_progress_update(None), ProgressAction::InsertRead);
    }

    #[test]
    fn plans_update_when_latest_read_in_progress() {
        let latest = read_row(7, None);
        assert_eq!(
            plan_progress_update(Some(&latest)),
            ProgressAction::UpdateRead { id: 7 }
        );
    }

    #[test]
    fn plans_insert_when_latest_read_finished() {
        let latest = read_row(7, Some("2026-01-01"));
        assert_eq!(
            plan_progress_update(Some(&latest)),
            ProgressAction::InsertRead
        );
    }

    #[test]
    fn read_row_from_value_reads_null_finished_as_none() {
        let row = json!({ "id": 3, "started_at": "2026-01-01", "finished_at": null });
        let read = ReadRow::from_value(&row);
        assert_eq!(read.id, 3);
        assert!(read.finished_at.is_none());
    }

    #[test]
    fn read_row_from_value_reads_finished_date() {
        let row = json!({ "id": 4, "finished_at": "2026-02-02" });
        let read = ReadRow::from_value(&row);
        assert_eq!(read.finished_at.as_deref(), Some("2026-02-02"));
    }

    #[test]
    fn validate_rating_accepts_half_steps() {
        for r in [0.0, 0.5, 2.5, 4.5, 5.0] {
            assert!(validate_rating(r).is_ok(), "rating {} should be valid", r);
        }
    }

    #[test]
    fn validate_rating_rejects_out_of_range_and_odd_steps() {
        assert!(validate_rating(-0.5).is_err());
        assert!(validate_rating(5.5).is_err());
        assert!(validate_rating(3.3).is_err());
        assert!(validate_rating(2.25).is_err());
        let err = validate_rating(6.0).unwrap_err();
        assert!(err.contains("0 and 5"));
        assert!(err.contains("0.5 steps"));
    }

    #[test]
    fn validate_date_accepts_iso_and_rejects_garbage() {
        assert!(validate_date("2026-07-16").is_ok());
        assert!(validate_date("2026-13-01").is_err());
        assert!(validate_date("07/16/2026").is_err());
        assert!(validate_date("not-a-date").is_err());
    }

    #[test]
    fn shapes_library_book_without_leaking_notes() {
        let row = json!({
            "id": 100,
            "book_id": 42,
            "status_id": 2,
            "rating": 4.0,
            "date_added": "2026-06-01",
            "last_read_date": "2026-07-01",
            "has_review": false,
            "private_notes": "secret thoughts",
            "book": { "id": 42, "title": "Some Book", "slug": "some-book" },
            "user_book_reads": [
                { "progress_pages": 120, "progress_seconds": null, "started_at": "2026-06-15", "finished_at": null }
            ]
        });

        let shaped = shape_library_book(&row);

        assert_eq!(shaped["user_book_id"], 100);
        assert_eq!(shaped["book_id"], 42);
        assert_eq!(shaped["title"], "Some Book");
        assert_eq!(shaped["slug"], "some-book");
        assert_eq!(shaped["status"], "currently_reading");
        assert_eq!(shaped["rating"], 4.0);
        assert_eq!(shaped["has_private_notes"], true);
        assert!(shaped.get("private_notes").is_none());
        assert_eq!(shaped["progress"]["progress_pages"], 120);
        assert!(shaped["progress"].get("progress_seconds").is_none());
        assert!(shaped["progress"].get("finished_at").is_none());
    }

    #[test]
    fn shapes_library_book_marks_missing_notes_false_and_omits_empty_progress() {
        let row = json!({
            "id": 101,
            "book_id": 43,
            "status_id": 1,
            "rating": null,
            "date_added": "2026-06-02",
            "last_read_date": null,
            "has_review": false,
            "private_notes": null,
            "book": { "id": 43, "title": "Unread", "slug": "unread" },
            "user_book_reads": []
        });

        let shaped = shape_library_book(&row);

        assert_eq!(shaped["status"], "want_to_read");
        assert_eq!(shaped["has_private_notes"], false);
        assert!(shaped.get("rating").is_none());
        assert!(shaped.get("last_read_date").is_none());
        assert!(shaped.get("progress").is_none());
    }

    #[test]
    fn echoes_user_book_status_and_rating() {
        let user_book = json!({ "id": 100, "status_id": 3, "rating": 5.0 });
        let echo = echo_user_book(&user_book, 42);
        assert_eq!(echo["user_book_id"], 100);
        assert_eq!(echo["book_id"], 42);
        assert_eq!(echo["status"], "read");
        assert_eq!(echo["rating"], 5.0);
    }

    #[test]
    fn echoes_user_book_omits_null_rating() {
        let user_book = json!({ "id": 100, "status_id": 1, "rating": null });
        let echo = echo_user_book(&user_book, 42);
        assert_eq!(echo["status"], "want_to_read");
        assert!(echo.get("rating").is_none());
    }
}
