//! The tool registry: name -> boxed async fn, plus the advertised schemas.

use std::collections::HashMap;
use std::future::Future;
use std::sync::Arc;

use futures::future::BoxFuture;
use serde_json::{json, Value};

use crate::error::CatalogResult;
use crate::library::Library;
use crate::tools;

pub type ToolFn = Box<dyn Fn(Arc<Library>, Value) -> BoxFuture<'static, CatalogResult<Value>> + Send + Sync>;

fn boxed<F, Fut>(f: F) -> ToolFn
where
    F: Fn(Arc<Library>, Value) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = CatalogResult<Value>> + Send + 'static,
{
    Box::new(move |lib, args| Box::pin(f(lib, args)))
}

pub fn build() -> HashMap<&'static str, ToolFn> {
    let mut reg: HashMap<&'static str, ToolFn> = HashMap::new();
    reg.insert("scan_shelf", boxed(tools::scan_shelf));
    reg.insert("list_shelves", boxed(tools::list_shelves));
    reg.insert("search_books", boxed(tools::search_books));
    reg.insert("get_book", boxed(tools::get_book));
    reg.insert("read_metadata", boxed(tools::read_metadata));
    reg.insert("add_tag", boxed(tools::add_tag));
    reg.insert("remove_tag", boxed(tools::remove_tag));
    reg.insert("move_book", boxed(tools::move_book));
    reg.insert("checkout", boxed(tools::checkout));
    reg.insert("return_loan", boxed(tools::return_loan));
    reg.insert("loan_status", boxed(tools::loan_status));
    reg.insert("rebuild_index", boxed(tools::rebuild_index));
    reg.insert("export_catalogue", boxed(tools::export_catalogue));
    reg.insert("isbn_lookup", boxed(tools::isbn_lookup));
    reg.insert("catalogue_stats", boxed(tools::catalogue_stats));
    reg
}

fn def(name: &str, description: &str, props: Value, required: &[&str]) -> Value {
    json!({
        "name": name,
        "description": description,
        "inputSchema": { "type": "object", "properties": props, "required": required }
    })
}

pub fn definitions() -> Vec<Value> {
    let s = json!({ "type": "string" });
    let n = json!({ "type": "integer" });
    vec![
        def("scan_shelf", "Scan one shelf directory and add its books", json!({ "shelf": s }), &["shelf"]),
        def("list_shelves", "List shelf directories", json!({}), &[]),
        def("search_books", "Search titles, authors and tags", json!({ "query": s, "limit": n }), &["query"]),
        def("get_book", "Show a book by id", json!({ "book_id": s }), &["book_id"]),
        def("read_metadata", "File facts for a path under the library root", json!({ "path": s }), &["path"]),
        def("add_tag", "Tag a book", json!({ "book_id": s, "tag": s }), &["book_id", "tag"]),
        def("remove_tag", "Remove a tag from a book", json!({ "book_id": s, "tag": s }), &["book_id", "tag"]),
        def("move_book", "Move a book's file to another shelf", json!({ "book_id": s, "shelf": s }), &["book_id", "shelf"]),
        def("checkout", "Lend a book; returns a loan id", json!({ "book_id": s, "borrower": s }), &["book_id", "borrower"]),
        def("return_loan", "Return a loan", json!({ "loan_id": s, "borrower": s }), &["loan_id", "borrower"]),
        def("loan_status", "Show a loan", json!({ "loan_id": s }), &["loan_id"]),
        def("rebuild_index", "Write the catalogue index file", json!({}), &[]),
        def("export_catalogue", "Export the catalogue as json or csv", json!({ "format": s }), &["format"]),
        def("isbn_lookup", "Look an ISBN-13 up in the library and the local ISBN cache", json!({ "isbn": s }), &["isbn"]),
        def("catalogue_stats", "Counts by format, bytes, loans", json!({}), &[]),
    ]
}
