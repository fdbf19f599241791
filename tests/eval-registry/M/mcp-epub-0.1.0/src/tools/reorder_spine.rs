use std::collections::HashMap;
use std::path::Path;

use crate::cache::EpubCache;
use crate::epub::validate::{self, ShadowBuffer};
use crate::EpubError;

pub fn reorder_epub_spine(
    cache: &EpubCache,
    file_path: &str,
    chapter_ids: &[String],
    output_path: Option<&str>,
) -> Result<String, EpubError> {
    let source_path = Path::new(file_path);
    if !source_path.exists() {
        return Err(EpubError::FileNotFound(file_path.to_string()));
    }

    if chapter_ids.is_empty() {
        return Err(EpubError::ParseError(
            "chapter_ids must not be empty".to_string(),
        ));
    }

    let entry = cache.get_or_extract(file_path)?;
    let extract_dir = entry.extract_dir.path();

    let opf = std::fs::read_to_string(&entry.opf_path)?;

    for cid in chapter_ids {
        if !opf.contains(&format!(" id=\"{}\"", cid)) {
            return Err(EpubError::ParseError(format!(
                "Chapter id '{}' not found in manifest",
                cid
            )));
        }
    }

    let mut shadow = ShadowBuffer::new();
    shadow.backup(&entry.opf_path)?;

    let mut pre_spine = String::new();
    let mut post_spine = String::new();
    let mut spine_content = String::new();
    let mut state = 0;

    for line in opf.lines() {
        let trimmed = line.trim();
        match state {
            0 => {
                pre_spine.push_str(line);
                pre_spine.push('\n');
                if trimmed.starts_with("<spine") || trimmed == "<spine>" {
                    state = 1;
                }
            }
            1 => {
                if trimmed == "</spine>" {
                    state = 2;
                    for cid in chapter_ids {
                        spine_content.push_str(&format!("    <itemref idref=\"{}\"/>\n", cid));
                    }
                    post_spine.push_str("  </spine>\n");
                }
            }
            2 => {
                post_spine.push_str(line);
                post_spine.push('\n');
            }
            _ => {}
        }
    }

    if state != 2 {
        return Err(EpubError::ParseError(
            "Cannot find <spine> in OPF".to_string(),
        ));
    }

    let new_opf = format!("{}{}{}", pre_spine, spine_content, post_spine);
    std::fs::write(&entry.opf_path, &new_opf)?;

    let mut modified: HashMap<String, String> = HashMap::new();
    modified.insert(
        entry.opf_path.to_string_lossy().to_string(),
        new_opf.clone(),
    );

    if let Err(e) = validate::validate_all_modified(&shadow, &modified) {
        let _ = shadow.restore_all();
        return Err(e);
    }

    let out_path = Path::new(output_path.unwrap_or(file_path));
    let file = std::fs::File::create(out_path)?;
    let mut zip = zip::ZipWriter::new(file);
    let options: zip::write::FileOptions<'_, ()> =
        zip::write::FileOptions::default().compression_method(zip::CompressionMethod::Deflated);

    let entries: Vec<_> = walkdir::WalkDir::new(extract_dir)
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_file())
        .collect();
    let extract_canonical =
        std::fs::canonicalize(extract_dir).unwrap_or_else(|_| extract_dir.to_path_buf());

    for entry in &entries {
        let path = entry.path();
        let canonical = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        let relative = canonical
            .strip_prefix(&extract_canonical)
            .unwrap_or_else(|_| path.strip_prefix(extract_dir).unwrap());
        let name = relative.to_string_lossy().replace('\\', "/");
        let content = std::fs::read(path)?;
        zip.start_file(&name, options)?;
        std::io::copy(&mut std::io::Cursor::new(content), &mut zip)?;
    }
    zip.finish()?;

    cache.invalidate(file_path);
    Ok(out_path.to_string_lossy().to_string())
}
