use crate::cache::EpubCache;
use crate::epub::content;
use crate::epub::types::Chapter;
use crate::EpubError;

pub fn read_epub_content(
    cache: &EpubCache,
    file_path: &str,
    chapters: &serde_json::Value,
    format: &str,
    selector: Option<&str>,
) -> Result<Vec<Chapter>, EpubError> {
    let entry = cache.get_or_extract(file_path)?;
    let spine = content::list_spine(&entry.opf_path)?;

    let chapter_ids = resolve_chapter_ids(&spine, chapters)?;

    let chapters_out =
        content::read_chapters(&entry.opf_path, &spine, &chapter_ids, format, selector)?;

    Ok(chapters_out)
}

fn resolve_chapter_ids(
    spine: &[(String, String, usize)],
    chapters: &serde_json::Value,
) -> Result<Vec<String>, EpubError> {
    match chapters {
        serde_json::Value::String(s) if s == "all" => {
            Ok(spine.iter().map(|(id, _, _)| id.clone()).collect())
        }
        serde_json::Value::Array(arr) => {
            let ids: Vec<String> = arr
                .iter()
                .filter_map(|v| v.as_str().map(|s| s.to_string()))
                .collect();
            if ids.is_empty() {
                return Ok(Vec::new());
            }
            if ids.iter().any(|id| id == "all") {
                return Ok(spine.iter().map(|(sid, _, _)| sid.clone()).collect());
            }
            for id in &ids {
                if !spine.iter().any(|(sid, _, _)| sid == id) {
                    let available: Vec<String> =
                        spine.iter().map(|(sid, _, _)| sid.clone()).collect();
                    return Err(EpubError::ChapterNotFound(id.clone(), available));
                }
            }
            Ok(ids)
        }
        _ => Err(EpubError::ParseError(
            "Invalid chapters parameter: expected 'all' or array of chapter IDs".to_string(),
        )),
    }
}
