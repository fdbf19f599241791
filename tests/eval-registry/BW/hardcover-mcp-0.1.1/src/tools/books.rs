//! Book catalog tool router: books, editions, authors, series, trending.

use chrono::{Duration, Utc};
use rmcp::{
    handler::server::wrapper::Parameters, model::CallToolResult, schemars, tool, tool_router,
    ErrorData as McpError,
};
use serde_json::{json, Value};

use crate::server::HardcoverServer;
use crate::tools::{client_err, ok_json, tool_err};

const BOOK_QUERY: &str = r#"
query GetBook($where: books_bool_exp!) {
  books(where: $where, limit: 1) {
    id
    title
    subtitle
    slug
    description
    pages
    audio_seconds
    release_date
    rating
    ratings_count
    reviews_count
    users_count
    cached_tags
    image {
      url
    }
    contributions {
      contribution
      author {
        id
        name
        slug
      }
    }
    book_series {
      position
      series {
        id
        name
        slug
      }
    }
  }
}
"#;

const EDITIONS_QUERY: &str = r#"
query GetEditions($where: editions_bool_exp!) {
  editions(where: $where, order_by: { users_count: desc }, limit: 25) {
    id
    title
    isbn_10
    isbn_13
    asin
    pages
    audio_seconds
    physical_format
    reading_format_id
    release_date
    users_count
    publisher {
      name
    }
    language {
      language
    }
  }
}
"#;

const AUTHOR_QUERY: &str = r#"
query GetAuthor($where: authors_bool_exp!) {
  authors(where: $where, limit: 1) {
    id
    name
    slug
    bio
    books_count
    born_year
    death_year
  }
}
"#;

const AUTHOR_BOOKS_QUERY: &str = r#"
query GetAuthorBooks($authorId: Int!) {
  books(
    where: { contributions: { author_id: { _eq: $authorId } }, canonical_id: { _is_null: true } }
    order_by: { users_count: desc }
    limit: 20
  ) {
    id
    title
    slug
    release_year
    rating
    users_count
  }
}
"#;

const SERIES_QUERY: &str = r#"
query GetSeries($where: series_bool_exp!) {
  series(where: $where, limit: 1) {
    id
    name
    slug
    books_count
    primary_books_count
    author {
      name
    }
  }
}
"#;

const SERIES_BOOKS_QUERY: &str = r#"
query GetSeriesBooks($seriesId: Int!) {
  book_series(
    where: {
      series_id: { _eq: $seriesId }
      compilation: { _eq: false }
      book: { canonical_id: { _is_null: true }, is_partial_book: { _eq: false } }
    }
    order_by: { position: asc }
  ) {
    position
    book {
      id
      title
      release_year
      rating
      users_count
    }
  }
}
"#;

const TRENDING_QUERY: &str = r#"
query GetTrendingBooks($from: date!, $to: date!, $limit: Int!) {
  books_trending(from: $from, to: $to, limit: $limit, offset: 0) {
    error
    ids
  }
}
"#;

const BOOKS_BY_IDS_QUERY: &str = r#"
query GetBooksByIds($ids: [Int!]) {
  books(where: { id: { _in: $ids } }) {
    id
    title
    slug
    rating
    users_count
    contributions {
      contribution
      author {
        name
        slug
      }
    }
  }
}
"#;

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct GetBookParams {
    /// Hardcover book id. Provide exactly one of id or slug.
    pub id: Option<i64>,
    /// Book slug, e.g. from a book's URL or search results. Provide exactly one of id or slug.
    pub slug: Option<String>,
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct GetBookEditionsParams {
    /// Hardcover book id. Provide exactly one of book_id, isbn, or asin.
    pub book_id: Option<i64>,
    /// ISBN-10 or ISBN-13. Provide exactly one of book_id, isbn, or asin.
    pub isbn: Option<String>,
    /// ASIN (Amazon edition identifier). Provide exactly one of book_id, isbn, or asin.
    pub asin: Option<String>,
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct GetAuthorParams {
    /// Hardcover author id. Provide exactly one of id or slug.
    pub id: Option<i64>,
    /// Author slug. Provide exactly one of id or slug.
    pub slug: Option<String>,
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct GetSeriesParams {
    /// Hardcover series id. Provide exactly one of id or slug.
    pub id: Option<i64>,
    /// Series slug. Provide exactly one of id or slug.
    pub slug: Option<String>,
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct GetTrendingBooksParams {
    /// Look-back window in days (default 30).
    pub days: Option<u32>,
    /// Maximum number of trending books to return (default 10, max 25).
    pub limit: Option<u32>,
}

#[tool_router(router = books_router, vis = "pub")]
impl HardcoverServer {
    /// Get full details for a single book by Hardcover id or slug: title,
    /// description, ratings, authors, series, genres/moods, and cover.
    #[tool(
        description = "Get a book's details (title, description, ratings, authors, series, genres/moods, cover, url) by Hardcover book id or slug. Provide exactly one of id or slug.",
        annotations(read_only_hint = true)
    )]
    async fn get_book(
        &self,
        Parameters(params): Parameters<GetBookParams>,
    ) -> Result<CallToolResult, McpError> {
        let where_clause = match (params.id, params.slug) {
            (Some(id), None) => json!({ "id": { "_eq": id } }),
            (None, Some(slug)) => json!({ "slug": { "_eq": slug } }),
            (None, None) => return tool_err("provide one of id or slug"),
            (Some(_), Some(_)) => return tool_err("provide exactly one of id or slug, not both"),
        };

        let data = match self
            .client
            .graphql(BOOK_QUERY, json!({ "where": where_clause }))
            .await
        {
            Ok(data) => data,
            Err(e) => return client_err(e),
        };

        let book = data
            .get("books")
            .and_then(Value::as_array)
            .and_then(|a| a.first());

        let Some(book) = book else {
            return tool_err("Book not found");
        };

        ok_json(&shape_book(book))
    }

    /// List editions of a book (format, ISBN/ASIN, publisher, language, page
    /// or audio length) ordered by popularity, up to 25.
    #[tool(
        description = "List editions of a book by book id, ISBN (10 or 13), or ASIN — ordered by popularity, up to 25 results. Provide exactly one of book_id, isbn, or asin.",
        annotations(read_only_hint = true)
    )]
    async fn get_book_editions(
        &self,
        Parameters(params): Parameters<GetBookEditionsParams>,
    ) -> Result<CallToolResult, McpError> {
        let where_clause = match (params.book_id, params.isbn, params.asin) {
            (Some(book_id), None, None) => json!({ "book_id": { "_eq": book_id } }),
            (None, Some(isbn), None) => json!({
                "_or": [
                    { "isbn_13": { "_eq": isbn } },
                    { "isbn_10": { "_eq": isbn } },
                ]
            }),
            (None, None, Some(asin)) => json!({ "asin": { "_eq": asin } }),
            _ => return tool_err("provide exactly one of book_id, isbn, or asin"),
        };

        let data = match self
            .client
            .graphql(EDITIONS_QUERY, json!({ "where": where_clause }))
            .await
        {
            Ok(data) => data,
            Err(e) => return client_err(e),
        };

        let editions = data
            .get("editions")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();

        if editions.is_empty() {
            return tool_err("No editions found");
        }

        let shaped: Vec<Value> = editions.iter().map(shape_edition).collect();
        ok_json(&json!({ "editions": shaped }))
    }

    /// Get an author's bio and stats plus their top ~20 books by popularity.
    #[tool(
        description = "Get an author's details (name, bio, book count, birth/death year) and their top ~20 books by popularity, by Hardcover author id or slug. Provide exactly one of id or slug.",
        annotations(read_only_hint = true)
    )]
    async fn get_author(
        &self,
        Parameters(params): Parameters<GetAuthorParams>,
    ) -> Result<CallToolResult, McpError> {
        let where_clause = match (params.id, params.slug) {
            (Some(id), None) => json!({ "id": { "_eq": id } }),
            (None, Some(slug)) => json!({ "slug": { "_eq": slug } }),
            (None, None) => return tool_err("provide one of id or slug"),
            (Some(_), Some(_)) => return tool_err("provide exactly one of id or slug, not both"),
        };

        let data = match self
            .client
            .graphql(AUTHOR_QUERY, json!({ "where": where_clause }))
            .await
        {
            Ok(data) => data,
            Err(e) => return client_err(e),
        };

        let author = data
            .get("authors")
            .and_then(Value::as_array)
            .and_then(|a| a.first());

        let Some(author) = author else {
            return tool_err("Author not found");
        };

        let mut shaped = shape_author(author);

        if let Some(author_id) = author.get("id").and_then(Value::as_i64) {
            let books_data = match self
                .client
                .graphql(AUTHOR_BOOKS_QUERY, json!({ "authorId": author_id }))
                .await
            {
                Ok(data) => data,
                Err(e) => return client_err(e),
            };

            let books: Vec<Value> = books_data
                .get("books")
                .and_then(Value::as_array)
                .map(|a| a.iter().map(shape_book_summary).collect())
                .unwrap_or_default();

            if let Some(obj) = shaped.as_object_mut() {
                obj.insert("books".to_string(), json!(books));
            }
        }

        ok_json(&shaped)
    }

    /// Get a series' details and its books in series order, by Hardcover
    /// series id or slug.
    #[tool(
        description = "Get a book series' details (name, author, book counts) and its books in series order, by Hardcover series id or slug. Provide exactly one of id or slug.",
        annotations(read_only_hint = true)
    )]
    async fn get_series(
        &self,
        Parameters(params): Parameters<GetSeriesParams>,
    ) -> Result<CallToolResult, McpError> {
        let where_clause = match (params.id, params.slug) {
            (Some(id), None) => json!({ "id": { "_eq": id } }),
            (None, Some(slug)) => json!({ "slug": { "_eq": slug } }),
            (None, None) => return tool_err("provide one of id or slug"),
            (Some(_), Some(_)) => return tool_err("provide exactly one of id or slug, not both"),
        };

        let data = match self
            .client
            .graphql(SERIES_QUERY, json!({ "where": where_clause }))
            .await
        {
            Ok(data) => data,
            Err(e) => return client_err(e),
        };

        let series = data
            .get("series")
            .and_then(Value::as_array)
            .and_then(|a| a.first());

        let Some(series) = series else {
            return tool_err("Series not found");
        };

        let mut shaped = shape_series(series);

        if let Some(series_id) = series.get("id").and_then(Value::as_i64) {
            let books_data = match self
                .client
                .graphql(SERIES_BOOKS_QUERY, json!({ "seriesId": series_id }))
                .await
            {
                Ok(data) => data,
                Err(e) => return client_err(e),
            };

            let rows = books_data
                .get("book_series")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();

            if let Some(obj) = shaped.as_object_mut() {
                obj.insert("books".to_string(), json!(shape_series_books(&rows)));
            }
        }

        ok_json(&shaped)
    }

    /// Get currently trending books over a look-back window, ranked by
    /// Hardcover's trending activity.
    #[tool(
        description = "Get currently trending books on Hardcover over a look-back window in days (default 30). limit defaults to 10, max 25.",
        annotations(read_only_hint = true)
    )]
    async fn get_trending_books(
        &self,
        Parameters(params): Parameters<GetTrendingBooksParams>,
    ) -> Result<CallToolResult, McpError> {
        let days = params.days.unwrap_or(30);
        let limit = params.limit.unwrap_or(10).min(25);

        let today = Utc::now().date_naive();
        let from = today - Duration::days(days as i64);

        let data = match self
            .client
            .graphql(
                TRENDING_QUERY,
                json!({ "from": from.to_string(), "to": today.to_string(), "limit": limit }),
            )
            .await
        {
            Ok(data) => data,
            Err(e) => return client_err(e),
        };

        let trending = data.get("books_trending").cloned().unwrap_or(Value::Null);

        if let Some(err) = trending.get("error").and_then(Value::as_str) {
            return tool_err(err.to_string());
        }

        let ids: Vec<i64> = trending
            .get("ids")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_i64).collect())
            .unwrap_or_default();

        if ids.is_empty() {
            return ok_json(&json!({ "books": [] }));
        }

        let books_data = match self
            .client
            .graphql(BOOKS_BY_IDS_QUERY, json!({ "ids": ids }))
            .await
        {
            Ok(data) => data,
            Err(e) => return client_err(e),
        };

        let books = books_data
            .get("books")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();

        ok_json(&json!({ "books": order_by_ids(&ids, &books) }))
    }
}

/// Copy `src[field]` to `obj[field]` for each field, unless it's absent or
/// JSON `null`, so shaped results omit nulls rather than emitting them.
fn copy_fields(obj: &mut serde_json::Map<String, Value>, src: &Value, fields: &[&str]) {
    for &field in fields {
        if let Some(v) = src.get(field) {
            if !v.is_null() {
                // Hardcover returns ratings at full float precision
                // (e.g. 4.49784453724909); 2 decimals is plenty for a model.
                let v = if field == "rating" {
                    match v.as_f64() {
                        Some(r) => json!((r * 100.0).round() / 100.0),
                        None => v.clone(),
                    }
                } else {
                    v.clone()
                };
                obj.insert(field.to_string(), v);
            }
        }
    }
}

/// Shape a `contributions` array (`{contribution, author {id name slug}}`)
/// into `[{name, slug, role}]`, omitting `role` when the contribution type
/// is null and skipping entries without an author name.
fn shape_authors(contributions: Option<&Value>) -> Vec<Value> {
    let Some(arr) = contributions.and_then(Value::as_array) else {
        return Vec::new();
    };

    arr.iter()
        .filter_map(|c| {
            let author = c.get("author")?;
            let name = author.get("name").and_then(Value::as_str)?;

            let mut obj = serde_json::Map::new();
            obj.insert("name".to_string(), json!(name));
            if let Some(slug) = author.get("slug").and_then(Value::as_str) {
                obj.insert("slug".to_string(), json!(slug));
            }
            if let Some(role) = c.get("contribution").and_then(Value::as_str) {
                obj.insert("role".to_string(), json!(role));
            }
            Some(Value::Object(obj))
        })
        .collect()
}

/// Shape a `book_series` array (`{position, series {name slug}}`) into
/// `[{name, slug, position}]`.
fn shape_book_series(book_series: Option<&Value>) -> Vec<Value> {
    let Some(arr) = book_series.and_then(Value::as_array) else {
        return Vec::new();
    };

    arr.iter()
        .filter_map(|bs| {
            let series = bs.get("series")?;
            let name = series.get("name").and_then(Value::as_str)?;

            let mut obj = serde_json::Map::new();
            obj.insert("name".to_string(), json!(name));
            if let Some(slug) = series.get("slug").and_then(Value::as_str) {
                obj.insert("slug".to_string(), json!(slug));
            }
            if let Some(position) = bs.get("position") {
                if !position.is_null() {
                    obj.insert("position".to_string(), position.clone());
                }
            }
            Some(Value::Object(obj))
        })
        .collect()
}

/// Extract tag names from a `cached_tags` jsonb blob for a category (e.g.
/// "Genre" or "Mood"), matched case-insensitively. Each category entry is
/// expected to carry a `tag` (or `name`) string; unrecognized shapes yield
/// no tags rather than erroring. Capped at 8.
fn extract_tags(cached_tags: &Value, category: &str) -> Vec<String> {
    let Some(obj) = cached_tags.as_object() else {
        return Vec::new();
    };

    let Some(entries) = obj
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(category))
        .and_then(|(_, v)| v.as_array())
    else {
        return Vec::new();
    };

    entries
        .iter()
        .filter_map(|item| {
            item.get("tag")
                .or_else(|| item.get("name"))
                .and_then(Value::as_str)
                .map(str::to_string)
        })
        .take(8)
        .collect()
}

/// Shape a full `books` row (from [`BOOK_QUERY`]) into the `get_book` result.
fn shape_book(book: &Value) -> Value {
    let mut obj = serde_json::Map::new();
    copy_fields(
        &mut obj,
        book,
        &[
            "id",
            "title",
            "subtitle",
            "slug",
            "description",
            "pages",
            "audio_seconds",
            "release_date",
            "rating",
            "ratings_count",
            "reviews_count",
            "users_count",
        ],
    );

    let authors = shape_authors(book.get("contributions"));
    if !authors.is_empty() {
        obj.insert("authors".to_string(), json!(authors));
    }

    let series = shape_book_series(book.get("book_series"));
    if !series.is_empty() {
        obj.insert("series".to_string(), json!(series));
    }

    if let Some(tags) = book.get("cached_tags") {
        let genres = extract_tags(tags, "genre");
        if !genres.is_empty() {
            obj.insert("genres".to_string(), json!(genres));
        }
        let moods = extract_tags(tags, "mood");
        if !moods.is_empty() {
            obj.insert("moods".to_string(), json!(moods));
        }
    }

    if let Some(cover) = book
        .get("image")
        .and_then(|i| i.get("url"))
        .and_then(Value::as_str)
    {
        obj.insert("cover".to_string(), json!(cover));
    }

    if let Some(slug) = book.get("slug").and_then(Value::as_str) {
        obj.insert(
            "url".to_string(),
            json!(format!("https://hardcover.app/books/{}", slug)),
        );
    }

    Value::Object(obj)
}

/// Shape a slim book row (id, title, slug, release_year, rating, users_count)
/// used by author/series listings.
fn shape_book_summary(book: &Value) -> Value {
    let mut obj = serde_json::Map::new();
    copy_fields(
        &mut obj,
        book,
        &[
            "id",
            "title",
            "slug",
            "release_year",
            "rating",
            "users_count",
        ],
    );
    Value::Object(obj)
}

/// Shape a trending book: the slim summary plus authors when cheaply available.
fn shape_trending_book(book: &Value) -> Value {
    let mut shaped = shape_book_summary(book);
    let authors = shape_authors(book.get("contributions"));
    if !authors.is_empty() {
        if let Some(obj) = shaped.as_object_mut() {
            obj.insert("authors".to_string(), json!(authors));
        }
    }
    shaped
}

/// Reorder `books` (each with an integer `id`) to match `ids`' order and
/// shape each into the trending form, dropping any id with no matching book.
fn order_by_ids(ids: &[i64], books: &[Value]) -> Vec<Value> {
    ids.iter()
        .filter_map(|id| {
            books
                .iter()
                .find(|b| b.get("id").and_then(Value::as_i64) == Some(*id))
        })
        .map(shape_trending_book)
        .collect()
}

/// Shape an `authors` row into `{id, name, slug, bio, books_count, born_year, death_year}`.
fn shape_author(author: &Value) -> Value {
    let mut obj = serde_json::Map::new();
    copy_fields(
        &mut obj,
        author,
        &[
            "id",
            "name",
            "slug",
            "bio",
            "books_count",
            "born_year",
            "death_year",
        ],
    );
    Value::Object(obj)
}

/// Shape a `series` row into `{id, name, slug, books_count, primary_books_count, author}`.
fn shape_series(series: &Value) -> Value {
    let mut obj = serde_json::Map::new();
    copy_fields(
        &mut obj,
        series,
        &["id", "name", "slug", "books_count", "primary_books_count"],
    );
    if let Some(name) = series
        .get("author")
        .and_then(|a| a.get("name"))
        .and_then(Value::as_str)
    {
        obj.insert("author".to_string(), json!(name));
    }
    Value::Object(obj)
}

/// Shape `book_series` rows (from [`SERIES_BOOKS_QUERY`]) into
/// `[{position, id, title, release_year, rating, users_count}]`.
fn shape_series_books(rows: &[Value]) -> Vec<Value> {
    rows.iter()
        .filter_map(|row| {
            let book = row.get("book").filter(|b| !b.is_null())?;
            let mut obj = serde_json::Map::new();
            if let Some(position) = row.get("position") {
                if !position.is_null() {
                    obj.insert("position".to_string(), position.clone());
                }
            }
            copy_fields(
                &mut obj,
                book,
                &["id", "title", "release_year", "rating", "users_count"],
            );
            Some(Value::Object(obj))
        })
        .collect()
}

/// Map an edition's `reading_format_id` to a readable format name
/// (1=physical, 2=audiobook, 4=ebook); unrecognized ids are omitted.
fn reading_format_name(id: i64) -> Option<&'static str> {
    match id {
        1 => Some("physical"),
        2 => Some("audiobook"),
        4 => Some("ebook"),
        _ => None,
    }
}

/// Shape an `editions` row (from [`EDITIONS_QUERY`]) into the compact
/// `get_book_editions` result.
fn shape_edition(edition: &Value) -> Value {
    let mut obj = serde_json::Map::new();
    copy_fields(
        &mut obj,
        edition,
        &[
            "id",
            "title",
            "isbn_10",
            "isbn_13",
            "asin",
            "pages",
            "audio_seconds",
            "physical_format",
            "release_date",
            "users_count",
        ],
    );

    if let Some(format) = edition
        .get("reading_format_id")
        .and_then(Value::as_i64)
        .and_then(reading_format_name)
    {
        obj.insert("format".to_string(), json!(format));
    }

    if let Some(name) = edition
        .get("publisher")
        .and_then(|p| p.get("name"))
        .and_then(Value::as_str)
    {
        obj.insert("publisher".to_string(), json!(name));
    }

    if let Some(language) = edition
        .get("language")
        .and_then(|l| l.get("language"))
        .and_then(Value::as_str)
    {
        obj.insert("language".to_string(), json!(language));
    }

    Value::Object(obj)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_full_book() {
        let book = json!({
            "id": 1,
            "title": "Project Hail Mary",
            "subtitle": null,
            "slug": "project-hail-mary",
            "description": "A lone astronaut...",
            "pages": 476,
            "audio_seconds": 58000,
            "release_date": "2021-05-04",
            "rating": 4.5,
            "ratings_count": 500,
            "reviews_count": 50,
            "users_count": 1000,
            "cached_tags": {
                "Genre": [{"tag": "Science Fiction"}, {"tag": "Fantasy"}],
                "Mood": [{"tag": "Adventurous"}]
            },
            "image": {"url": "https://example.com/cover.jpg"},
            "contributions": [
                {"contribution": null, "author": {"id": 1, "name": "Andy Weir", "slug": "andy-weir"}}
            ],
            "book_series": []
        });

        let shaped = shape_book(&book);

        assert_eq!(shaped["id"], 1);
        assert_eq!(shaped["title"], "Project Hail Mary");
        assert!(shaped.get("subtitle").is_none());
        assert_eq!(shaped["authors"][0]["name"], "Andy Weir");
        assert_eq!(shaped["authors"][0]["slug"], "andy-weir");
        assert!(shaped["authors"][0].get("role").is_none());
        assert_eq!(shaped["genres"], json!(["Science Fiction", "Fantasy"]));
        assert_eq!(shaped["moods"], json!(["Adventurous"]));
        assert_eq!(shaped["cover"], "https://example.com/cover.jpg");
        assert_eq!(
            shaped["url"],
            "https://hardcover.app/books/project-hail-mary"
        );
        assert!(shaped.get("series").is_none());
    }

    #[test]
    fn shapes_authors_with_role() {
        let contributions = json!([
            {"contribution": "Illustrator", "author": {"name": "Jane Doe", "slug": "jane-doe"}},
            {"contribution": null, "author": {"name": "No Slug Author"}}
        ]);

        let shaped = shape_authors(Some(&contributions));

        assert_eq!(shaped[0]["name"], "Jane Doe");
        assert_eq!(shaped[0]["role"], "Illustrator");
        assert_eq!(shaped[1]["name"], "No Slug Author");
        assert!(shaped[1].get("slug").is_none());
        assert!(shaped[1].get("role").is_none());
    }

    #[test]
    fn shapes_book_series() {
        let book_series = json!([
            {"position": 1.0, "series": {"name": "The Broken Earth", "slug": "the-broken-earth"}},
            {"position": null, "series": {"name": "No Position Series"}}
        ]);

        let shaped = shape_book_series(Some(&book_series));

        assert_eq!(shaped[0]["name"], "The Broken Earth");
        assert_eq!(shaped[0]["position"], 1.0);
        assert_eq!(shaped[1]["name"], "No Position Series");
        assert!(shaped[1].get("position").is_none());
    }

    #[test]
    fn extract_tags_matches_category_case_insensitively() {
        let cached_tags = json!({
            "Genre": [{"tag": "Fantasy"}, {"name": "Sci-Fi"}],
            "mood": [{"tag": "Dark"}]
        });

        assert_eq!(
            extract_tags(&cached_tags, "genre"),
            vec!["Fantasy".to_string(), "Sci-Fi".to_string()]
        );
        assert_eq!(extract_tags(&cached_tags, "Mood"), vec!["Dark".to_string()]);
        assert_eq!(
            extract_tags(&cached_tags, "content warning"),
            Vec::<String>::new()
        );
    }

    #[test]
    fn extract_tags_handles_unexpected_shapes() {
        assert_eq!(extract_tags(&Value::Null, "genre"), Vec::<String>::new());
        assert_eq!(extract_tags(&json!([]), "genre"), Vec::<String>::new());
        assert_eq!(
            extract_tags(&json!({"Genre": "not-an-array"}), "genre"),
            Vec::<String>::new()
        );
    }

    #[test]
    fn extract_tags_caps_at_eight() {
        let tags: Vec<Value> = (0..12)
            .map(|i| json!({"tag": format!("tag{}", i)}))
            .collect();
        let cached_tags = json!({ "Genre": tags });

        assert_eq!(extract_tags(&cached_tags, "genre").len(), 8);
    }

    #[test]
    fn reading_format_name_maps_known_ids() {
        assert_eq!(reading_format_name(1), Some("physical"));
        assert_eq!(reading_format_name(2), Some("audiobook"));
        assert_eq!(reading_format_name(4), Some("ebook"));
        assert_eq!(reading_format_name(3), None);
    }

    #[test]
    fn shapes_edition() {
        let edition = json!({
            "id": 10,
            "title": "Project Hail Mary",
            "isbn_10": null,
            "isbn_13": "9780593135204",
            "asin": null,
            "pages": 476,
            "audio_seconds": null,
            "physical_format": "hardcover",
            "reading_format_id": 1,
            "release_date": "2021-05-04",
            "users_count": 900,
            "publisher": {"name": "Ballantine Books"},
            "language": {"language": "English"}
        });

        let shaped = shape_edition(&edition);

        assert_eq!(shaped["id"], 10);
        assert_eq!(shaped["isbn_13"], "9780593135204");
        assert!(shaped.get("isbn_10").is_none());
        assert_eq!(shaped["format"], "physical");
        assert_eq!(shaped["publisher"], "Ballantine Books");
        assert_eq!(shaped["language"], "English");
    }

    #[test]
    fn shapes_series_with_author() {
        let series = json!({
            "id": 5,
            "name": "The Broken Earth",
            "slug": "the-broken-earth",
            "books_count": 3,
            "primary_books_count": 3,
            "author": {"name": "N.K. Jemisin"}
        });

        let shaped = shape_series(&series);

        assert_eq!(shaped["name"], "The Broken Earth");
        assert_eq!(shaped["author"], "N.K. Jemisin");
    }

    #[test]
    fn shapes_series_without_author() {
        let series = json!({
            "id": 5,
            "name": "Standalone Series",
            "slug": "standalone-series",
            "books_count": 1,
            "primary_books_count": 1,
            "author": null
        });

        let shaped = shape_series(&series);

        assert!(shaped.get("author").is_none());
    }

    #[test]
    fn shapes_series_books() {
        let rows = vec![
            json!({
                "position": 1.0,
                "book": {"id": 1, "title": "Book One", "release_year": 2020, "rating": 4.2, "users_count": 100}
            }),
            json!({
                "position": null,
                "book": {"id": 2, "title": "Book Two", "release_year": 2021, "rating": null, "users_count": 50}
            }),
        ];

        let shaped = shape_series_books(&rows);

        assert_eq!(shaped[0]["position"], 1.0);
        assert_eq!(shaped[0]["title"], "Book One");
        assert!(shaped[1].get("position").is_none());
        assert!(shaped[1].get("rating").is_none());
    }

    #[test]
    fn orders_books_by_trending_id_order_and_drops_missing() {
        let books = vec![
            json!({"id": 3, "title": "Third"}),
            json!({"id": 1, "title": "First"}),
        ];
        let ids = vec![1, 2, 3];

        let shaped = order_by_ids(&ids, &books);

        assert_eq!(shaped.len(), 2);
        assert_eq!(shaped[0]["title"], "First");
        assert_eq!(shaped[1]["title"], "Third");
    }

    #[test]
    fn shapes_trending_book_with_authors() {
        let book = json!({
            "id": 1,
            "title": "Some Book",
            "slug": "some-book",
            "rating": 4.0,
            "users_count": 100,
            "contributions": [
                {"contribution": null, "author": {"name": "An Author", "slug": "an-author"}}
            ]
        });

        let shaped = shape_trending_book(&book);

        assert_eq!(shaped["authors"][0]["name"], "An Author");
    }
}
