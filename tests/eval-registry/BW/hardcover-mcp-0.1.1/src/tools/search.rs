//! Search tool router: Typesense-backed search across Hardcover content.

use rmcp::{
    handler::server::wrapper::Parameters, model::CallToolResult, schemars, tool, tool_router,
    ErrorData as McpError,
};
use serde_json::{json, Value};

use crate::server::HardcoverServer;
use crate::tools::{client_err, ok_json, tool_err};

const VALID_QUERY_TYPES: &[&str] = &[
    "book",
    "author",
    "character",
    "list",
    "prompt",
    "publisher",
    "series",
    "user",
];

const SEARCH_QUERY: &str = r#"
query Search($query: String!, $queryType: String!, $perPage: Int!, $page: Int!) {
  search(query: $query, query_type: $queryType, per_page: $perPage, page: $page) {
    error
    ids
    results
  }
}
"#;

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct SearchParams {
    /// Search text.
    pub query: String,
    /// What to search: book (default), author, character, list, prompt, publisher, series, or user.
    pub query_type: Option<String>,
    /// Page number, starting at 1 (default 1).
    pub page: Option<u32>,
    /// Results per page, default 10, max 25.
    pub per_page: Option<u32>,
}

#[tool_router(router = search_router, vis = "pub")]
impl HardcoverServer {
    /// Search Hardcover's catalog for books, authors, series, lists, users, and more.
    #[tool(
        description = "Search Hardcover. query_type selects what to search: book (default), author, character, list, prompt, publisher, series, or user.",
        annotations(read_only_hint = true)
    )]
    async fn search(
        &self,
        Parameters(params): Parameters<SearchParams>,
    ) -> Result<CallToolResult, McpError> {
        let query_type = params
            .query_type
            .as_deref()
            .unwrap_or("book")
            .to_lowercase();

        if !VALID_QUERY_TYPES.contains(&query_type.as_str()) {
            return tool_err(format!(
                "invalid query_type '{}' — must be one of: {}",
                query_type,
                VALID_QUERY_TYPES.join(", ")
            ));
        }

        let per_page = params.per_page.unwrap_or(10).min(25);
        let page = params.page.unwrap_or(1);

        let data = match self
            .client
            .graphql(
                SEARCH_QUERY,
                json!({
                    "query": params.query,
                    "queryType": query_type,
                    "perPage": per_page,
                    "page": page,
                }),
            )
            .await
        {
            Ok(data) => data,
            Err(e) => return client_err(e),
        };

        let search = data.get("search").cloned().unwrap_or(Value::Null);

        if let Some(err) = search.get("error").and_then(Value::as_str) {
            return tool_err(err.to_string());
        }

        let results = search.get("results").cloned().unwrap_or(Value::Null);
        let shaped = shape_results(&query_type, &results);
        ok_json(&shaped)
    }
}

/// Shape a raw Typesense search blob into a compact, per-`query_type` payload.
///
/// `results` is `{found, page, hits: [{document: {...}}]}`; the Hardcover API
/// may return it as a JSON object or as a JSON-encoded string, so both forms
/// are accepted here. Extracted as a free function so it's testable without a
/// network round-trip.
fn shape_results(query_type: &str, results: &Value) -> Value {
    let results = match results {
        Value::String(s) => serde_json::from_str(s).unwrap_or(Value::Null),
        other => other.clone(),
    };

    let found = results.get("found").cloned().unwrap_or(json!(0));
    let page = results.get("page").cloned().unwrap_or(json!(1));

    let hits = results
        .get("hits")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();

    let shaped_hits: Vec<Value> = hits
        .iter()
        .filter_map(|hit| hit.get("document"))
        .map(|doc| shape_document(query_type, doc))
        .collect();

    json!({
        "found": found,
        "page": page,
        "results": shaped_hits,
    })
}

/// Shape a single Typesense `document` per its query type, omitting any
/// null/missing fields rather than emitting them as JSON `null`.
fn shape_document(query_type: &str, doc: &Value) -> Value {
    let mut obj = serde_json::Map::new();

    if let Some(id) = doc_id(doc) {
        obj.insert("id".to_string(), json!(id));
    }

    match query_type {
        "book" => {
            copy(&mut obj, "title", doc, "title");
            copy(&mut obj, "slug", doc, "slug");
            copy(&mut obj, "authors", doc, "author_names");
            copy(&mut obj, "series", doc, "series_names");
            copy(&mut obj, "release_year", doc, "release_year");
            copy_rating(&mut obj, doc);
            copy(&mut obj, "ratings_count", doc, "ratings_count");
            copy(&mut obj, "users_count", doc, "users_count");
            copy(&mut obj, "pages", doc, "pages");
        }
        "author" => {
            copy(&mut obj, "name", doc, "name");
            copy(&mut obj, "slug", doc, "slug");
            copy(&mut obj, "books_count", doc, "books_count");
        }
        "series" => {
            copy(&mut obj, "name", doc, "name");
            copy(&mut obj, "slug", doc, "slug");
            copy(&mut obj, "author", doc, "author_name");
            copy(&mut obj, "books_count", doc, "books_count");
            copy(&mut obj, "primary_books_count", doc, "primary_books_count");
        }
        "list" => {
            copy(&mut obj, "name", doc, "name");
            copy(&mut obj, "slug", doc, "slug");
            copy(&mut obj, "description", doc, "description");
            copy(&mut obj, "books_count", doc, "books_count");
        }
        "user" => {
            copy(&mut obj, "username", doc, "username");
            copy(&mut obj, "name", doc, "name");
            copy(&mut obj, "books_count", doc, "books_count");
            copy(&mut obj, "followers_count", doc, "followers_count");
        }
        "prompt" => {
            copy(&mut obj, "question", doc, "question");
            copy(&mut obj, "slug", doc, "slug");
        }
        // character, publisher
        _ => {
            copy(&mut obj, "name", doc, "name");
            copy(&mut obj, "slug", doc, "slug");
            copy(&mut obj, "books_count", doc, "books_count");
        }
    }

    Value::Object(obj)
}

/// Typesense's `document.id` is a string; convert it to an integer.
fn doc_id(doc: &Value) -> Option<i64> {
    match doc.get("id") {
        Some(Value::String(s)) => s.parse::<i64>().ok(),
        Some(Value::Number(n)) => n.as_i64(),
        _ => None,
    }
}

/// Copy `doc[field]` to `obj[key]` unless it's absent or JSON `null`.
fn copy(obj: &mut serde_json::Map<String, Value>, key: &str, doc: &Value, field: &str) {
    if let Some(v) = doc.get(field) {
        if !v.is_null() {
            obj.insert(key.to_string(), v.clone());
        }
    }
}

/// Copy `doc.rating`, rounded to 2 decimal places.
fn copy_rating(obj: &mut serde_json::Map<String, Value>, doc: &Value) {
    if let Some(r) = doc.get("rating").and_then(Value::as_f64) {
        obj.insert("rating".to_string(), json!((r * 100.0).round() / 100.0));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typesense_blob(document: Value) -> Value {
        json!({
            "found": 1,
            "page": 1,
            "hits": [{ "document": document, "text_match": 123 }]
        })
    }

    #[test]
    fn shapes_book_result() {
        let blob = typesense_blob(json!({
            "id": "12345",
            "title": "Project Hail Mary",
            "subtitle": null,
            "slug": "project-hail-mary",
            "author_names": ["Andy Weir"],
            "series_names": [],
            "release_year": 2021,
            "rating": 4.33333,
            "ratings_count": 500,
            "users_count": 1000,
            "pages": 476
        }));

        let shaped = shape_results("book", &blob);

        assert_eq!(shaped["found"], 1);
        assert_eq!(shaped["page"], 1);
        let result = &shaped["results"][0];
        assert_eq!(result["id"], 12345);
        assert_eq!(result["title"], "Project Hail Mary");
        assert_eq!(result["slug"], "project-hail-mary");
        assert_eq!(result["authors"], json!(["Andy Weir"]));
        assert_eq!(result["release_year"], 2021);
        assert_eq!(result["rating"], 4.33);
        assert_eq!(result["ratings_count"], 500);
        assert_eq!(result["users_count"], 1000);
        assert_eq!(result["pages"], 476);
        // subtitle wasn't in the shape and null fields must not appear
        assert!(result.get("subtitle").is_none());
    }

    #[test]
    fn shapes_author_result() {
        let blob = typesense_blob(json!({
            "id": "42",
            "name": "Andy Weir",
            "slug": "andy-weir",
            "books_count": 3
        }));

        let shaped = shape_results("author", &blob);
        let result = &shaped["results"][0];

        assert_eq!(result["id"], 42);
        assert_eq!(result["name"], "Andy Weir");
        assert_eq!(result["slug"], "andy-weir");
        assert_eq!(result["books_count"], 3);
    }

    #[test]
    fn results_as_json_string_is_parsed() {
        let blob = typesense_blob(json!({
            "id": "1",
            "name": "Some Series",
            "slug": "some-series",
            "author_name": "Andy Weir",
            "books_count": 5,
            "primary_books_count": 3
        }));
        let as_string = Value::String(blob.to_string());

        let shaped = shape_results("series", &as_string);
        let result = &shaped["results"][0];

        assert_eq!(shaped["found"], 1);
        assert_eq!(result["id"], 1);
        assert_eq!(result["name"], "Some Series");
        assert_eq!(result["author"], "Andy Weir");
        assert_eq!(result["books_count"], 5);
        assert_eq!(result["primary_books_count"], 3);
    }
}
