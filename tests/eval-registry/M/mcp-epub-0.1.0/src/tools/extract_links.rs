use crate::cache::EpubCache;
use crate::epub::content;
use crate::EpubError;

pub fn extract_epub_links(
    cache: &EpubCache,
    file_path: &str,
    chapters: &serde_json::Value,
) -> Result<serde_json::Value, EpubError> {
    let entry = cache.get_or_extract(file_path)?;

    let spine = content::list_spine(&entry.opf_path)?;

    let chapter_ids: Vec<String> = if chapters == "all" {
        vec!["all".to_string()]
    } else if let Some(arr) = chapters.as_array() {
        arr.iter()
            .filter_map(|v| v.as_str().map(|s| s.to_string()))
            .collect()
    } else {
        return Err(EpubError::ParseError(
            "chapters must be 'all' or an array of chapter IDs".to_string(),
        ));
    };

    let available: Vec<String> = spine.iter().map(|(id, _, _)| id.clone()).collect();
    for cid in &chapter_ids {
        if cid != "all" && !available.contains(cid) {
            return Err(EpubError::ChapterNotFound(cid.clone(), available.clone()));
        }
    }

    let links = content::extract_links(&entry.opf_path, &spine, &chapter_ids)?;

    Ok(serde_json::json!({ "links": links }))
}
