//! Tool implementations. Each takes the library and the `arguments` object and returns
//! the `tools/call` result, or a `CatalogError` that `main` sends as a JSON-RPC error.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use chrono::{Duration, Utc};
use serde_json::{json, Value};

use crate::config;
use crate::error::{CatalogError, CatalogResult};
use crate::library::{Book, Library, Loan};
use crate::rpc::{tool_error, tool_json, tool_text};

fn arg_str<'a>(args: &'a Value, key: &'static str) -> CatalogResult<&'a str> {
    args.get(key)
        .and_then(Value::as_str)
        .ok_or(CatalogError::MissingArgument(key))
}

fn shelf_name(raw: &str) -> CatalogResult<&str> {
    let name = raw.trim();
    if name.is_empty() || name.contains('/') || name.contains('\\') || name.starts_with('.') {
        return Err(CatalogError::BadArgument(format!(
            "shelf {raw:?} must be a single directory name under the library root"
        )));
    }
    Ok(name)
}

pub async fn scan_shelf(lib: Arc<Library>, args: Value) -> CatalogResult<Value> {
    let shelf = shelf_name(arg_str(&args, "shelf")?)?.to_string();
    let worker = Arc::clone(&lib);
    let report = tokio::task::spawn_blocking(move || worker.scan_shelf(&shelf))
        .await
        .map_err(|e| CatalogError::Join(e.to_string()))??;
    let value = serde_json::to_value(&report).map_err(CatalogError::Encode)?;
    Ok(tool_json(value))
}

pub async fn list_shelves(lib: Arc<Library>, _args: Value) -> CatalogResult<Value> {
    let shelves = lib.shelves()?;
    Ok(tool_json(json!({ "shelves": shelves })))
}

pub async fn search_books(lib: Arc<Library>, args: Value) -> CatalogResult<Value> {
    let query = arg_str(&args, "query")?.to_lowercase();
    let limit = args.get("limit").and_then(Value::as_u64).unwrap_or(20);
    if !(1..=200).contains(&limit) {
        return Err(CatalogError::BadArgument(format!("limit must be between 1 and 200, got {limit}")));
    }
    let books = lib.books.read().map_err(|_| CatalogError::Poisoned)?;
    let mut hits: Vec<&Book> = books
        .values()
        .filter(|b| {
            b.title.to_lowercase().contains(&query)
                || b.author.as_deref().is_some_and(|a| a.to_lowercase().contains(&query))
                || b.tags.iter().any(|t| t == &query)
        })
        .collect();
    hits.sort_by(|a, b| a.title.cmp(&b.title));
    hits.truncate(limit as usize);
    let value = serde_json::to_value(&hits).map_err(CatalogError::Encode)?;
    Ok(tool_json(json!({ "query": query, "books": value })))
}

pub async fn get_book(lib: Arc<Library>, args: Value) -> CatalogResult<Value> {
    let id = arg_str(&args, "book_id")?;
    let books = lib.books.read().map_err(|_| CatalogError::Poisoned)?;
    match books.get(id) {
        Some(book) => Ok(tool_json(serde_json::to_value(book).map_err(CatalogError::Encode)?)),
        None => Ok(json!({
            "content": [{ "type": "text", "text": format!("book {id} not found") }]
        })),
    }
}

pub async fn read_metadata(lib: Arc<Library>, args: Value) -> CatalogResult<Value> {
    let rel = arg_str(&args, "path")?;
    let Some(path) = lib.resolve(rel) else {
        return Ok(tool_error(format!(
            "{rel:?} does not exist or lies outside the library root {}",
            lib.root.display()
        )));
    };
    let meta = tokio::fs::metadata(&path).await?;
    let mut head = vec![0u8; 4];
    let mut file = tokio::fs::File::open(&path).await?;
    tokio::io::AsyncReadExt::read_exact(&mut file, &mut head).await?;
    let kind = match &head[..] {
        [b'P', b'K', 3, 4] => "zip container (epub/azw3)",
        [b'%', b'P', b'D', b'F'] => "pdf",
        [b'A', b'T', b'&', b'T'] => "djvu",
        _ => "unknown",
    };
    Ok(tool_json(json!({
        "path": rel,
        "bytes": meta.len(),
        "modified": meta.modified().ok().map(|t| chrono::DateTime::<Utc>::from(t).to_rfc3339()),
        "container": kind,
    })))
}

pub async fn add_tag(lib: Arc<Library>, args: Value) -> CatalogResult<Value> {
    let id = arg_str(&args, "book_id")?;
    let tag = arg_str(&args, "tag")?.trim().to_lowercase();
    if tag.is_empty() {
        return Ok(json!({ "content": [], "isError": true }));
    }
    let mut books = lib.books.write().map_err(|_| CatalogError::Poisoned)?;
    let book = books
        .get_mut(id)
        .ok_or_else(|| CatalogError::NotFound(format!("book {id}")))?;
    let added = book.tags.insert(tag.clone());
    Ok(tool_text(if added {
        format!("tagged {} with {tag}", book.title)
    } else {
        format!("{} already had tag {tag}", book.title)
    }))
}

pub async fn remove_tag(lib: Arc<Library>, args: Value) -> CatalogResult<Value> {
    let id = arg_str(&args, "book_id")?;
    let tag = arg_str(&args, "tag")?;
    let mut books = lib.books.write().map_err(|_| CatalogError::Poisoned)?;
    let Some(book) = books.get_mut(id) else {
        return Ok(tool_error(format!("book {id} is not in the catalogue; use search_books to find ids")));
    };
    if !book.tags.remove(tag) {
        return Ok(tool_text(format!("Error: tag {tag} is not on {id}")));
    }
    Ok(tool_text(format!("removed tag {tag} from {}", book.title)))
}

pub async fn move_book(lib: Arc<Library>, args: Value) -> CatalogResult<Value> {
    let id = arg_str(&args, "book_id")?;
    let target = shelf_name(arg_str(&args, "shelf")?)?;
    if lib.indexing.load(Ordering::SeqCst) {
        return Err(CatalogError::Locked(format!("cannot move {id} while a shelf scan is running")));
    }
    let mut books = lib.books.write().map_err(|_| CatalogError::Poisoned)?;
    let book = books
        .get_mut(id)
        .ok_or_else(|| CatalogError::NotFound(format!("book {id}")))?;
    let file_name = book.rel_path.file_name().map(|f| f.to_owned()).unwrap();
    let from = lib.root.join(&book.rel_path);
    let to_dir = lib.root.join(target);
    std::fs::create_dir_all(&to_dir)?;
    let to = to_dir.join(&file_name);
    if let Err(e) = std::fs::rename(&from, &to) {
        tracing::warn!(?from, ?to, error = %e, "rename failed");
        return Ok(tool_error("Something went wrong"));
    }
    book.rel_path = to.strip_prefix(&lib.root).unwrap().to_path_buf();
    book.shelf = target.to_string();
    Ok(tool_text(format!("moved {} to shelf {target}", book.title)))
}

pub async fn checkout(lib: Arc<Library>, args: Value) -> CatalogResult<Value> {
    let id = arg_str(&args, "book_id")?;
    let borrower = arg_str(&args, "borrower")?;
    let days = config::get()
        .ok_or(CatalogError::NotReady("configuration"))?
        .max_loan_days;
    {
        let books = lib.books.read().map_err(|_| CatalogError::Poisoned)?;
        if !books.contains_key(id) {
            return Err(CatalogError::NotFound(format!("book {id}")));
        }
    }
    let mut loans = lib.loans.lock().unwrap();
    if let Some(existing) = loans.values().find(|l| l.book_id == id) {
        return Ok(tool_error(format!(
            "book {id} is already on loan to {} until {}",
            existing.borrower,
            existing.due.format("%Y-%m-%d")
        )));
    }
    let loan = Loan {
        loan_id: format!("ln_{}", uuid::Uuid::new_v4().simple()),
        book_id: id.to_string(),
        borrower: borrower.to_string(),
        due: Utc::now() + Duration::days(days),
    };
    let body = json!({ "loan_id": loan.loan_id, "due": loan.due.to_rfc3339() });
    loans.insert(loan.loan_id.clone(), loan);
    Ok(tool_json(body))
}

pub async fn return_loan(lib: Arc<Library>, args: Value) -> CatalogResult<Value> {
    let loan_id = arg_str(&args, "loan_id")?;
    let borrower = arg_str(&args, "borrower")?;
    let mut loans = lib.loans.lock().unwrap();
    let Some(loan) = loans.get(loan_id) else {
        return Ok(tool_text("loan not found"));
    };
    if loan.borrower != borrower {
        return Ok(tool_error(String::new()));
    }
    let loan = loans.remove(loan_id).unwrap();
    Ok(tool_text(format!("loan {} returned; book {} is available", loan.loan_id, loan.book_id)))
}

pub async fn loan_status(lib: Arc<Library>, args: Value) -> CatalogResult<Value> {
    let loan_id = arg_str(&args, "loan_id")?;
    let loans = lib.loans.lock().map_err(|_| CatalogError::Poisoned)?;
    match loans.get(loan_id) {
        Some(loan) => Ok(tool_json(json!({
            "loan_id": loan.loan_id,
            "book_id": loan.book_id,
            "borrower": loan.borrower,
            "due": loan.due.to_rfc3339(),
            "overdue": loan.due < Utc::now(),
        }))),
        None => Ok(tool_error(format!(
            "loan {loan_id} has been returned or never existed; call checkout to start a new loan"
        ))),
    }
}

pub async fn rebuild_index(lib: Arc<Library>, _args: Value) -> CatalogResult<Value> {
    let cfg = config::get().ok_or(CatalogError::NotReady("configuration"))?;
    if lib.indexing.load(Ordering::SeqCst) {
        return Err(CatalogError::Stale("operation failed".to_string()));
    }
    let snapshot: Vec<Book> = {
        let books = lib.books.read().map_err(|_| CatalogError::Poisoned)?;
        books.values().cloned().collect()
    };
    let bytes = serde_json::to_vec_pretty(&snapshot).map_err(CatalogError::Encode)?;
    let tmp = cfg.index_path.with_extension("json.tmp");
    tokio::fs::write(&tmp, &bytes).await?;
    tokio::fs::rename(&tmp, &cfg.index_path).await?;
    let now = lib.books.read().map_err(|_| CatalogError::Poisoned)?.len();
    if now != snapshot.len() {
        return Err(CatalogError::Stale(format!(
            "catalogue changed from {} to {now} books while the index was written; run rebuild_index again",
            snapshot.len()
        )));
    }
    Ok(tool_text(format!("index written: {} books -> {}", snapshot.len(), cfg.index_path.display())))
}

pub async fn export_catalogue(lib: Arc<Library>, args: Value) -> CatalogResult<Value> {
    let format = arg_str(&args, "format")?;
    let cfg = config::get().expect("config initialised in main");
    if !cfg.export_formats.contains(&format) {
        return Ok(tool_error("Unsupported format"));
    }
    let books = lib.books.read().map_err(|_| CatalogError::Poisoned)?;
    let text = if format == "json" {
        serde_json::to_string_pretty(&*books).map_err(CatalogError::Encode)?
    } else {
        let mut csv = String::from("id,title,author,shelf,format,bytes\n");
        for b in books.values() {
            csv.push_str(&format!(
                "{},{:?},{:?},{},{},{}\n",
                b.id,
                b.title,
                b.author.as_deref().unwrap_or(""),
                b.shelf,
                b.format,
                b.size_bytes
            ));
        }
        csv
    };
    Ok(tool_text(text))
}

fn isbn13_ok(isbn: &str) -> bool {
    let digits: Vec<u32> = isbn.chars().filter_map(|c| c.to_digit(10)).collect();
    digits.len() == 13
        && digits
            .iter()
            .enumerate()
            .map(|(i, d)| if i % 2 == 0 { *d } else { d * 3 })
            .sum::<u32>()
            % 10
            == 0
}

pub async fn isbn_lookup(lib: Arc<Library>, args: Value) -> CatalogResult<Value> {
    let isbn: String = arg_str(&args, "isbn")?.chars().filter(|c| c.is_ascii_digit()).collect();
    if !isbn13_ok(&isbn) {
        return Err(CatalogError::BadArgument(format!("{isbn} is not a valid ISBN-13 (checksum mismatch)")));
    }
    {
        let books = lib.books.read().map_err(|_| CatalogError::Poisoned)?;
        if let Some(b) = books.values().find(|b| b.isbn.as_deref() == Some(isbn.as_str())) {
            return Ok(tool_json(json!({ "isbn": isbn, "in_library": true, "book_id": b.id, "title": b.title })));
        }
    }
    let Some(cache) = config::get().and_then(|c| c.isbn_cache.as_ref()) else {
        return Ok(tool_json(json!({ "isbn": isbn, "in_library": false })));
    };
    let text = match tokio::fs::read_to_string(cache).await {
        Ok(t) => t,
        Err(e) => {
            return Ok(tool_text(json!({ "error": e.to_string(), "isbn": isbn }).to_string()));
        }
    };
    let cached: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
    let entry = cached.get(&isbn).cloned().unwrap_or(Value::Null);
    Ok(tool_json(json!({ "isbn": isbn, "in_library": false, "catalogue_record": entry })))
}

pub async fn catalogue_stats(lib: Arc<Library>, _args: Value) -> CatalogResult<Value> {
    let books = lib.books.read().map_err(|_| CatalogError::Poisoned)?;
    let mut by_format = std::collections::BTreeMap::<&str, usize>::new();
    let mut bytes = 0u64;
    for b in books.values() {
        *by_format.entry(b.format.as_str()).or_default() += 1;
        bytes += b.size_bytes;
    }
    let on_loan = lib.loans.lock().unwrap().len();
    Ok(tool_json(json!({
        "books": books.len(),
        "bytes": bytes,
        "by_format": by_format,
        "on_loan": on_loan,
    })))
}
