use crate::cache::EpubCache;
use crate::epub::stylesheet;
use crate::epub::types::StylesheetInfo;
use crate::EpubError;

pub fn list_epub_stylesheets(
    cache: &EpubCache,
    file_path: &str,
) -> Result<Vec<StylesheetInfo>, EpubError> {
    let entry = cache.get_or_extract(file_path)?;
    let stylesheets = stylesheet::list_stylesheets(&entry.opf_path)?;
    Ok(stylesheets)
}
