use std::collections::HashMap;
use std::path::Path;

use crate::cache::EpubCache;
use crate::epub::content;
use crate::epub::patch;
use crate::epub::validate::{validate_all_modified, ShadowBuffer};
use crate::EpubError;

#[derive(Debug)]
pub struct ReplaceLinesResult {
    pub output_path: String,
    pub chapter_id: String,
    pub lines_replaced: LineRange,
    pub new_line_count: usize,
    pub warning: Option<String>,
}

#[derive(Debug)]
pub struct LineRange {
    pub start: usize,
    pub end: usize,
    pub count: usize,
}

pub fn replace_epub_lines(
    cache: &EpubCache,
    file_path: &str,
    chapter: &str,
    start_line: usize,
    end_line: usize,
    new_text: &str,
    output_path: Option<&str>,
) -> Result<ReplaceLinesResult, EpubError> {
    let source_path = Path::new(file_path);
    if !source_path.exists() {
        return Err(EpubError::FileNotFound(file_path.to_string()));
    }

    let entry = cache.get_or_extract(file_path)?;
    let spine = content::list_spine(&entry.opf_path)?;

    let mut spine_map: HashMap<String, String> = HashMap::new();
    for (id, href, _) in &spine {
        spine_map.insert(id.clone(), href.clone());
    }

    let href = spine_map.get(chapter).ok_or_else(|| {
        let available: Vec<String> = spine_map.keys().cloned().collect();
        EpubError::ChapterNotFound(chapter.to_string(), available)
    })?;

    let opf_dir = entry.opf_path.parent().unwrap();
    let content_path = opf_dir.join(href);
    let original_content = std::fs::read_to_string(&content_path)?;

    let (modified_content, lines_removed, new_line_count) =
        patch::replace_lines(&original_content, start_line, end_line, new_text)?;

    let content_path_str = content_path.to_string_lossy().to_string();
    let mut shadow = ShadowBuffer::new();
    shadow.backup(&content_path)?;

    std::fs::write(&content_path, modified_content)?;

    let mut modified = HashMap::new();
    modified.insert(content_path_str, std::fs::read_to_string(&content_path)?);

    if let Err(e) = validate_all_modified(&shadow, &modified) {
        let _ = shadow.restore_all();
        return Err(e);
    }

    let out_path_str = output_path.unwrap_or(file_path);
    repack_epub(entry.extract_dir.path(), out_path_str)?;

    cache.invalidate(file_path);

    let warning = if lines_removed != new_line_count {
        Some("LINE_SHIFT: Lines have shifted. Re-read the chapter with format='lines' before making another line-based edit to this file.".to_string())
    } else {
        None
    };

    Ok(ReplaceLinesResult {
        output_path: out_path_str.to_string(),
        chapter_id: chapter.to_string(),
        lines_replaced: LineRange {
            start: start_line,
            end: end_line,
            count: lines_removed,
        },
        new_line_count,
        warning,
    })
}

fn repack_epub(extract_dir: &Path, output_path: &str) -> Result<(), EpubError> {
    let file = std::fs::File::create(output_path)?;
    let mut zip = zip::ZipWriter::new(file);

    let options: zip::write::FileOptions<'_, ()> =
        zip::write::FileOptions::default().compression_method(zip::CompressionMethod::Deflated);

    for entry in walkdir::WalkDir::new(extract_dir) {
        let entry = entry.map_err(|e| EpubError::WalkdirError(e.to_string()))?;
        let path = entry.path();
        if path.is_file() {
            let relative = path.strip_prefix(extract_dir).unwrap();
            let name = relative.to_string_lossy().replace('\\', "/");
            let content = std::fs::read(path)?;
            zip.start_file(&name, options)?;
            std::io::copy(&mut std::io::Cursor::new(content), &mut zip)?;
        }
    }

    zip.finish()?;
    Ok(())
}
