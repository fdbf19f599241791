use crate::cache::EpubCache;
use crate::epub::stylesheet;
use crate::EpubError;

#[derive(Debug)]
pub struct ReadStylesheetResult {
    pub id: String,
    pub path: String,
    pub content: String,
    pub size_bytes: usize,
}

pub fn read_epub_stylesheet(
    cache: &EpubCache,
    file_path: &str,
    stylesheet_id: &str,
) -> Result<ReadStylesheetResult, EpubError> {
    let entry = cache.get_or_extract(file_path)?;

    let (full_path, rel_path) =
        stylesheet::resolve_stylesheet_path(&entry.opf_path, stylesheet_id)?;

    let (content, size_bytes) = stylesheet::read_stylesheet_content(&full_path)?;

    Ok(ReadStylesheetResult {
        id: stylesheet_id.to_string(),
        path: rel_path,
        content,
        size_bytes,
    })
}
