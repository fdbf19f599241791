use crate::cache::EpubCache;
use crate::epub::content;
use crate::EpubError;

pub fn search_epub_content(
    cache: &EpubCache,
    file_path: &str,
    chapters: &serde_json::Value,
    query: &str,
    case_sensitive: bool,
    max_results: usize,
) -> Result<Vec<serde_json::Value>, EpubError> {
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

    let results = content::search_content(
        &entry.opf_path,
        &spine,
        &chapter_ids,
        query,
        case_sensitive,
        max_results,
    )?;

    Ok(results
        .into_iter()
        .map(|r| {
            serde_json::json!({
                "chapterId": r.chapter_id,
                "chapterTitle": r.chapter_title,
                "playOrder": r.play_order,
                "totalMatches": r.total_matches,
                "matches": r.matches
            })
        })
        .collect())
}
