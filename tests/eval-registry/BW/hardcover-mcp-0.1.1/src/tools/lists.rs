//! Lists tool router: read and write the authenticated user's book lists.
//!
//! Mutation payload shapes vary across the Hardcover `list` custom actions:
//! `insert_list`/`update_list` report failure in-band via an `errors` array
//! (checked through [`mutation_error`]), while `delete_list`,
//! `insert_list_book`, and `delete_list_book` carry no error field at all —
//! their failures surface only as transport-level `ClientError`s.

use rmcp::{
    handler::server::wrapper::Parameters, model::CallToolResult, schemars, tool, tool_router,
    ErrorData as McpError,
};
use serde_json::{json, Map, Value};

use crate::server::HardcoverServer;
use crate::tools::{client_err, mutation_error, ok_json, tool_err};
use crate::types::Privacy;

const MY_LISTS_QUERY: &str = r#"
query GetMyLists($userId: Int!) {
  lists(where: { user_id: { _eq: $userId } }) {
    id
    name
    description
    slug
    privacy_setting_id
    ranked
    books_count
  }
}
"#;

const LIST_BY_PK_QUERY: &str = r#"
query GetList($id: Int!) {
  lists_by_pk(id: $id) {
    id
    name
    description
    slug
    privacy_setting_id
    ranked
    books_count
  }
}
"#;

const LIST_BOOKS_QUERY: &str = r#"
query GetListBooks($listId: Int!) {
  list_books(where: { list_id: { _eq: $listId } }, order_by: { position: asc }) {
    id
    position
    book {
      id
      title
      slug
    }
  }
}
"#;

const INSERT_LIST: &str = r#"
mutation CreateList($object: ListInput!) {
  insert_list(object: $object) {
    errors
    id
    list {
      id
      name
      privacy_setting_id
      ranked
      url
    }
  }
}
"#;

const UPDATE_LIST: &str = r#"
mutation UpdateList($id: Int!, $object: ListInput!) {
  update_list(id: $id, object: $object) {
    errors
    id
    list {
      id
      name
      description
      privacy_setting_id
      ranked
    }
  }
}
"#;

const DELETE_LIST: &str = r#"
mutation DeleteList($id: Int!) {
  delete_list(id: $id) {
    success
  }
}
"#;

const INSERT_LIST_BOOK: &str = r#"
mutation AddBookToList($object: ListBookInput!) {
  insert_list_book(object: $object) {
    id
    list_book {
      id
      list_id
      book_id
      position
    }
  }
}
"#;

const FIND_LIST_BOOK: &str = r#"
query FindListBook($listId: Int!, $bookId: Int!) {
  list_books(where: { list_id: { _eq: $listId }, book_id: { _eq: $bookId } }, limit: 1) {
    id
  }
}
"#;

const DELETE_LIST_BOOK: &str = r#"
mutation RemoveBookFromList($id: Int!) {
  delete_list_book(id: $id) {
    id
  }
}
"#;

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct GetListParams {
    /// Hardcover list id.
    pub id: i64,
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct CreateListParams {
    /// Name for the new list.
    pub name: String,
    /// Optional description.
    pub description: Option<String>,
    /// Privacy for the list: public | followers | private (default public).
    pub privacy: Option<String>,
    /// Whether the list is ranked (books have an explicit order). Defaults to false.
    pub ranked: Option<bool>,
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct UpdateListParams {
    /// Hardcover list id to update.
    pub id: i64,
    /// New name for the list.
    pub name: Option<String>,
    /// New description for the list.
    pub description: Option<String>,
    /// New privacy: public | followers | private.
    pub privacy: Option<String>,
    /// New ranked setting.
    pub ranked: Option<bool>,
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct DeleteListParams {
    /// Hardcover list id to delete.
    pub id: i64,
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct AddBookToListParams {
    /// Hardcover list id.
    pub list_id: i64,
    /// Hardcover book id to add (find it with the search tool).
    pub book_id: i64,
    /// Optional position within the list.
    pub position: Option<i64>,
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct RemoveBookFromListParams {
    /// Hardcover list id.
    pub list_id: i64,
    /// Hardcover book id to remove from the list.
    pub book_id: i64,
}

#[tool_router(router = lists_router, vis = "pub")]
impl HardcoverServer {
    /// List the authenticated user's book lists.
    #[tool(
        description = "List your book lists (id, name, description, slug, privacy, ranked, book count).",
        annotations(read_only_hint = true)
    )]
    async fn get_my_lists(&self) -> Result<CallToolResult, McpError> {
        let user_id = match self.client.me_id().await {
            Ok(id) => id,
            Err(e) => return client_err(e),
        };

        let data = match self
            .client
            .graphql(MY_LISTS_QUERY, json!({ "userId": user_id }))
            .await
        {
            Ok(data) => data,
            Err(e) => return client_err(e),
        };

        let lists: Vec<Value> = data
            .get("lists")
            .and_then(Value::as_array)
            .map(|rows| rows.iter().map(shape_list).collect())
            .unwrap_or_default();

        ok_json(&json!({ "lists": lists }))
    }

    /// Get a list's details plus its books in order.
    #[tool(
        description = "Get a book list's details (name, description, privacy, ranked) and its books in order, by Hardcover list id.",
        annotations(read_only_hint = true)
    )]
    async fn get_list(
        &self,
        Parameters(params): Parameters<GetListParams>,
    ) -> Result<CallToolResult, McpError> {
        let data = match self
            .client
            .graphql(LIST_BY_PK_QUERY, json!({ "id": params.id }))
            .await
        {
            Ok(data) => data,
            Err(e) => return client_err(e),
        };

        let list = data.get("lists_by_pk").filter(|v| !v.is_null());
        let Some(list) = list else {
            return tool_err("List not found");
        };

        let mut shaped = shape_list(list);

        let books_data = match self
            .client
            .graphql(LIST_BOOKS_QUERY, json!({ "listId": params.id }))
            .await
        {
            Ok(data) => data,
            Err(e) => return client_err(e),
        };
        let rows = books_data
            .get("list_books")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();

        if let Some(obj) = shaped.as_object_mut() {
            obj.insert("books".to_string(), json!(shape_list_books(&rows)));
        }

        ok_json(&shaped)
    }

    /// Create a new book list.
    #[tool(
        description = "Create a new book list. privacy: public | followers | private (default public). ranked marks whether books on the list have an explicit order (default false)."
    )]
    async fn create_list(
        &self,
        Parameters(params): Parameters<CreateListParams>,
    ) -> Result<CallToolResult, McpError> {
        let privacy = match params.privacy.as_deref().map(Privacy::from_str).transpose() {
            Ok(p) => p.unwrap_or(Privacy::Public),
            Err(msg) => return tool_err(msg),
        };

        let mut object = Map::new();
        object.insert("name".to_string(), json!(params.name));
        if let Some(description) = &params.description {
            object.insert("description".to_string(), json!(description));
        }
        object.insert("privacy_setting_id".to_string(), json!(privacy.to_id()));
        object.insert("ranked".to_string(), json!(params.ranked.unwrap_or(false)));

        let data = match self
            .client
            .graphql(INSERT_LIST, json!({ "object": Value::Object(object) }))
            .await
        {
            Ok(data) => data,
            Err(e) => return client_err(e),
        };
        let Some(payload) = data.get("insert_list") else {
            return tool_err("Hardcover returned no result for the new list");
        };
        if let Some(msg) = mutation_error(payload) {
            return tool_err(msg);
        }

        let list = payload.get("list").cloned().unwrap_or(Value::Null);
        let mut result = Map::new();
        result.insert(
            "list_id".to_string(),
            list.get("id").cloned().unwrap_or(Value::Null),
        );
        result.insert("name".to_string(), json!(params.name));
        result.insert("privacy".to_string(), json!(privacy.as_str()));
        result.insert("ranked".to_string(), json!(params.ranked.unwrap_or(false)));
        if let Some(url) = list.get("url").and_then(Value::as_str) {
            result.insert("url".to_string(), json!(url));
        }

        ok_json(&Value::Object(result))
    }

    /// Update a book list's name, description, privacy, or ranked setting.
    #[tool(
        description = "Update a book list's name, description, privacy (public | followers | private), or ranked setting. Provide at least one field to change."
    )]
    async fn update_list(
        &self,
        Parameters(params): Parameters<UpdateListParams>,
    ) -> Result<CallToolResult, McpError> {
        let privacy = match params.privacy.as_deref().map(Privacy::from_str).transpose() {
            Ok(p) => p,
            Err(msg) => return tool_err(msg),
        };

        let mut object = Map::new();
        if let Some(name) = &params.name {
            object.insert("name".to_string(), json!(name));
        }
        if let Some(description) = &params.description {
            object.insert("description".to_string(), json!(description));
        }
        if let Some(privacy) = privacy {
            object.insert("privacy_setting_id".to_string(), json!(privacy.to_id()));
        }
        if let Some(ranked) = params.ranked {
            object.insert("ranked".to_string(), json!(ranked));
        }

        if object.is_empty() {
            return tool_err(
                "provide at least one of name, description, privacy, or ranked to update",
            );
        }

        let data = match self
            .client
            .graphql(
                UPDATE_LIST,
                json!({ "id": params.id, "object": Value::Object(object) }),
            )
            .await
        {
            Ok(data) => data,
            Err(e) => return client_err(e),
        };
        let Some(payload) = data.get("update_list") else {
            return tool_err("Hardcover returned no result for the list update");
        };
        if let Some(msg) = mutation_error(payload) {
            return tool_err(msg);
        }

        let list = payload.get("list").cloned().unwrap_or(Value::Null);
        ok_json(&shape_list(&list))
    }

    /// Permanently delete a book list.
    #[tool(
        description = "Permanently delete a book list. This does not affect the books themselves, only the list.",
        annotations(destructive_hint = true)
    )]
    async fn delete_list(
        &self,
        Parameters(params): Parameters<DeleteListParams>,
    ) -> Result<CallToolResult, McpError> {
        let data = match self
            .client
            .graphql(DELETE_LIST, json!({ "id": params.id }))
            .await
        {
            Ok(data) => data,
            Err(e) => return client_err(e),
        };

        let success = data
            .get("delete_list")
            .and_then(|d| d.get("success"))
            .and_then(Value::as_bool)
            .unwrap_or(false);

        ok_json(&json!({ "success": success }))
    }

    /// Add a book to a list, optionally at a specific position.
    #[tool(description = "Add a book to a list. position is optional (leave unset to append).")]
    async fn add_book_to_list(
        &self,
        Parameters(params): Parameters<AddBookToListParams>,
    ) -> Result<CallToolResult, McpError> {
        let mut object = Map::new();
        object.insert("list_id".to_string(), json!(params.list_id));
        object.insert("book_id".to_string(), json!(params.book_id));
        if let Some(position) = params.position {
            object.insert("position".to_string(), json!(position));
        }

        let data = match self
            .client
            .graphql(INSERT_LIST_BOOK, json!({ "object": Value::Object(object) }))
            .await
        {
            Ok(data) => data,
            Err(e) => return client_err(e),
        };
        let Some(payload) = data.get("insert_list_book") else {
            return tool_err("Hardcover returned no result for adding the book to the list");
        };

        let list_book = payload.get("list_book").cloned().unwrap_or(Value::Null);
        let mut result = Map::new();
        result.insert(
            "list_book_id".to_string(),
            list_book
                .get("id")
                .cloned()
                .or_else(|| payload.get("id").cloned())
                .unwrap_or(Value::Null),
        );
        result.insert(
            "list_id".to_string(),
            list_book
                .get("list_id")
                .cloned()
                .unwrap_or(json!(params.list_id)),
        );
        result.insert(
            "book_id".to_string(),
            list_book
                .get("book_id")
                .cloned()
                .unwrap_or(json!(params.book_id)),
        );
        if let Some(position) = list_book.get("position").filter(|v| !v.is_null()) {
            result.insert("position".to_string(), position.clone());
        } else if let Some(position) = params.position {
            result.insert("position".to_string(), json!(position));
        }

        ok_json(&Value::Object(result))
    }

    /// Remove a book from a list.
    #[tool(
        description = "Remove a book from a list.",
        annotations(destructive_hint = true)
    )]
    async fn remove_book_from_list(
        &self,
        Parameters(params): Parameters<RemoveBookFromListParams>,
    ) -> Result<CallToolResult, McpError> {
        let find_data = match self
            .client
            .graphql(
                FIND_LIST_BOOK,
                json!({ "listId": params.list_id, "bookId": params.book_id }),
            )
            .await
        {
            Ok(data) => data,
            Err(e) => return client_err(e),
        };
        let list_book_id = find_data
            .get("list_books")
            .and_then(Value::as_array)
            .and_then(|a| a.first())
            .and_then(|row| row.get("id"))
            .and_then(Value::as_i64);

        let Some(list_book_id) = list_book_id else {
            return tool_err("This book is not on that list");
        };

        if let Err(e) = self
            .client
            .graphql(DELETE_LIST_BOOK, json!({ "id": list_book_id }))
            .await
        {
            return client_err(e);
        }

        ok_json(&json!({
            "removed": true,
            "list_id": params.list_id,
            "book_id": params.book_id,
            "list_book_id": list_book_id,
        }))
    }
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

/// Shape a `lists` row into `{id, name, description, slug, privacy, ranked, books_count}`.
fn shape_list(row: &Value) -> Value {
    let mut obj = Map::new();
    copy_non_null(&mut obj, row, &["id", "name", "description", "slug"]);

    if let Some(privacy) = row
        .get("privacy_setting_id")
        .and_then(Value::as_i64)
        .and_then(|id| Privacy::from_id(id).ok())
    {
        obj.insert("privacy".to_string(), json!(privacy.as_str()));
    }

    copy_non_null(&mut obj, row, &["ranked", "books_count"]);

    Value::Object(obj)
}

/// Shape `list_books` rows (from [`LIST_BOOKS_QUERY`]) into
/// `[{list_book_id, position, book_id, title, slug}]`.
fn shape_list_books(rows: &[Value]) -> Vec<Value> {
    rows.iter()
        .filter_map(|row| {
            let book = row.get("book").filter(|b| !b.is_null())?;
            let mut obj = Map::new();
            if let Some(id) = row.get("id") {
                obj.insert("list_book_id".to_string(), id.clone());
            }
            if let Some(position) = row.get("position") {
                if !position.is_null() {
                    obj.insert("position".to_string(), position.clone());
                }
            }
            if let Some(id) = book.get("id") {
                obj.insert("book_id".to_string(), id.clone());
            }
            copy_non_null(&mut obj, book, &["title", "slug"]);
            Some(Value::Object(obj))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_list_with_privacy() {
        let row = json!({
            "id": 1,
            "name": "Favorites",
            "description": "My favorite books",
            "slug": "favorites",
            "privacy_setting_id": 1,
            "ranked": true,
            "books_count": 5,
        });

        let shaped = shape_list(&row);

        assert_eq!(shaped["id"], 1);
        assert_eq!(shaped["name"], "Favorites");
        assert_eq!(shaped["privacy"], "public");
        assert_eq!(shaped["ranked"], true);
        assert_eq!(shaped["books_count"], 5);
    }

    #[test]
    fn shapes_list_omits_null_description() {
        let row = json!({
            "id": 2,
            "name": "To Read",
            "description": null,
            "slug": "to-read",
            "privacy_setting_id": 3,
            "ranked": false,
            "books_count": 0,
        });

        let shaped = shape_list(&row);

        assert!(shaped.get("description").is_none());
        assert_eq!(shaped["privacy"], "private");
    }

    #[test]
    fn shapes_list_books() {
        let rows = vec![
            json!({
                "id": 100,
                "position": 1,
                "book": { "id": 42, "title": "Book One", "slug": "book-one" }
            }),
            json!({
                "id": 101,
                "position": null,
                "book": { "id": 43, "title": "Book Two", "slug": "book-two" }
            }),
        ];

        let shaped = shape_list_books(&rows);

        assert_eq!(shaped[0]["list_book_id"], 100);
        assert_eq!(shaped[0]["position"], 1);
        assert_eq!(shaped[0]["book_id"], 42);
        assert_eq!(shaped[0]["title"], "Book One");
        assert!(shaped[1].get("position").is_none());
        assert_eq!(shaped[1]["book_id"], 43);
    }

    #[test]
    fn shapes_list_books_skips_rows_without_book() {
        let rows = vec![json!({ "id": 100, "position": 1, "book": null })];
        let shaped = shape_list_books(&rows);
        assert!(shaped.is_empty());
    }
}
