use std::collections::HashMap;
use std::path::Path;

use crate::epub::types::TextPatch;
use crate::EpubError;

#[derive(Debug, Clone)]
pub struct PatchResult {
    pub search_text: String,
    pub occurrences_found: usize,
    pub occurrences_replaced: usize,
    pub chapter_id: String,
    pub replaced: bool,
}

pub fn apply_text_patches<P: AsRef<Path>>(
    opf_path: P,
    spine_map: &HashMap<String, String>,
    patches: &[TextPatch],
) -> Result<(HashMap<String, String>, Vec<PatchResult>), EpubError> {
    let opf_path = opf_path.as_ref();
    let opf_dir = opf_path.parent().unwrap_or(Path::new(""));
    let mut modified_files: HashMap<String, String> = HashMap::new();
    let mut results = Vec::new();

    for patch in patches {
        let chapters_to_search: Vec<&String> = if patch.chapter == "all" {
            spine_map.keys().collect()
        } else {
            if !spine_map.contains_key(&patch.chapter) {
                return Err(EpubError::ChapterNotFound(
                    patch.chapter.clone(),
                    spine_map.keys().cloned().collect(),
                ));
            }
            vec![&patch.chapter]
        };

        let mut total_occurrences_found = 0;
        let mut total_occurrences_replaced = 0;
        let mut chapter_used = String::new();
        let mut replaced = false;

        for chapter_id in &chapters_to_search {
            let href = spine_map.get(*chapter_id).unwrap();
            let file_path = opf_dir.join(href);
            let content = if let Some(cached) = modified_files.get(href) {
                cached.clone()
            } else {
                std::fs::read_to_string(&file_path).map_err(|e| {
                    EpubError::ParseError(format!("Failed to read '{}': {}", href, e))
                })?
            };

            let occurrences: Vec<_> = content.match_indices(&patch.search_text).collect();
            let found = occurrences.len();
            total_occurrences_found += found;

            if found == 0 {
                continue;
            }

            let to_replace = match &patch.match_occurrence {
                Some(val) if val == "all" => found,
                Some(val) if val.is_number() => {
                    let n = val.as_u64().unwrap_or(1) as usize;
                    if n <= found {
                        1
                    } else {
                        0
                    }
                }
                _ => 1,
            };

            if to_replace == 0 {
                continue;
            }

            let mut modified = content.clone();
            let mut replaced_count = 0;

            match &patch.match_occurrence {
                Some(val) if val == "all" => {
                    modified = modified.replace(&patch.search_text, &patch.replace_text);
                    replaced_count = found;
                }
                Some(val) if val.is_number() => {
                    let n = val.as_u64().unwrap_or(1) as usize;
                    let mut pos = 0;
                    let mut occurrence = 0;
                    let mut new_content = String::new();
                    while let Some(found_pos) = modified[pos..].find(&patch.search_text) {
                        occurrence += 1;
                        if occurrence == n {
                            new_content.push_str(&modified[pos..pos + found_pos]);
                            new_content.push_str(&patch.replace_text);
                            pos += found_pos + patch.search_text.len();
                            replaced_count = 1;
                            break;
                        }
                        pos += found_pos + patch.search_text.len();
                    }
                    new_content.push_str(&modified[pos..]);
                    modified = new_content;
                }
                _ => {
                    if let Some(pos) = modified.find(&patch.search_text) {
                        let mut new_content = String::new();
                        new_content.push_str(&modified[..pos]);
                        new_content.push_str(&patch.replace_text);
                        new_content.push_str(&modified[pos + patch.search_text.len()..]);
                        modified = new_content;
                        replaced_count = 1;
                    }
                }
            }

            if replaced_count > 0 {
                modified_files.insert(href.clone(), modified);
                chapter_used = (*chapter_id).clone();
                total_occurrences_replaced += replaced_count;
                replaced = true;
            }
        }

        if !replaced {
            return Err(EpubError::PatchNotFound {
                text: patch.search_text.clone(),
                chapter: patch.chapter.clone(),
            });
        }

        results.push(PatchResult {
            search_text: patch.search_text.clone(),
            occurrences_found: total_occurrences_found,
            occurrences_replaced: total_occurrences_replaced,
            chapter_id: chapter_used,
            replaced,
        });
    }

    Ok((modified_files, results))
}

pub fn replace_lines(
    content: &str,
    start_line: usize,
    end_line: usize,
    new_text: &str,
) -> Result<(String, usize, usize), EpubError> {
    let lines: Vec<&str> = content.lines().collect();
    let total = lines.len();

    if start_line < 1 || start_line > total {
        return Err(EpubError::LineRangeError {
            start: start_line,
            end: end_line,
            max: total,
        });
    }
    if end_line < start_line || end_line > total {
        return Err(EpubError::LineRangeError {
            start: start_line,
            end: end_line,
            max: total,
        });
    }

    let lines_removed = end_line - start_line + 1;

    let mut result = String::new();
    for (i, line) in lines.iter().enumerate() {
        let line_num = i + 1;
        if line_num < start_line {
            result.push_str(line);
            result.push('\n');
        } else if line_num == start_line {
            result.push_str(new_text);
            if !new_text.ends_with('\n') && end_line < total {
                result.push('\n');
            }
        } else if line_num > end_line {
            result.push_str(line);
            if line_num < total {
                result.push('\n');
            }
        }
    }

    let new_line_count = new_text.lines().count();

    Ok((result, lines_removed, new_line_count))
}
