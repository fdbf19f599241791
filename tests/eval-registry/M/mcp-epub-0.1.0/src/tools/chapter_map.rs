use crate::cache::EpubCache;
use crate::epub::content;
use crate::EpubError;

pub fn read_epub_chapter_map(
    cache: &EpubCache,
    file_path: &str,
) -> Result<serde_json::Value, EpubError> {
    let entry = cache.get_or_extract(file_path)?;

    let spine = content::list_spine(&entry.opf_path)?;
    let map = content::build_chapter_map(&entry.opf_path, &spine)?;

    Ok(serde_json::json!({ "chapters": map }))
}
