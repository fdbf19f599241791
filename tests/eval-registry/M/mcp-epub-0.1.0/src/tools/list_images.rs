use crate::cache::EpubCache;
use crate::epub::content;
use crate::EpubError;

pub fn list_epub_images(
    cache: &EpubCache,
    file_path: &str,
) -> Result<serde_json::Value, EpubError> {
    let entry = cache.get_or_extract(file_path)?;

    let spine = content::list_spine(&entry.opf_path)?;
    let images = content::list_images(&entry.opf_path, &spine)?;

    Ok(serde_json::json!({ "images": images }))
}
