use std::collections::HashMap;
use std::path::Path;

use crate::cache::EpubCache;
use crate::epub::content;
use crate::epub::content_edit;
use crate::epub::types::ContentModification;
use crate::epub::validate::{validate_all_modified, ShadowBuffer};
use crate::EpubError;

#[derive(Debug)]
pub struct WriteContentResult {
    pub output_path: String,
    pub total_modifications: usize,
    pub results: Vec<ModificationResultOut>,
}

#[derive(Debug)]
pub struct ModificationResultOut {
    pub selector: String,
    pub action: String,
    pub matched_count: usize,
    pub affected_files: Vec<String>,
}

pub fn modify_epub_content(
    cache: &EpubCache,
    file_path: &str,
    modifications: &[ContentModification],
    output_path: Option<&str>,
) -> Result<WriteContentResult, EpubError> {
    if modifications.len() > 100 {
        return Err(EpubError::ContentValidationError {
            file: "input".to_string(),
            detail: "Maximum 100 modifications per call".to_string(),
        });
    }

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

    let opf_dir = entry.opf_path.parent().unwrap();
    let (modified_files, results) =
        content_edit::apply_modifications(&entry.opf_path, &spine_map, modifications)?;

    let mut shadow = ShadowBuffer::new();
    for href in modified_files.keys() {
        let full_path = opf_dir.join(href);
        shadow.backup(&full_path)?;
    }

    for (href, content) in &modified_files {
        let full_path = opf_dir.join(href);
        std::fs::write(&full_path, content)?;
    }

    if let Err(e) = validate_all_modified(&shadow, &modified_files) {
        let _ = shadow.restore_all();
        return Err(e);
    }

    let out_path = output_path.unwrap_or(file_path);
    repack_epub(entry.extract_dir.path(), out_path)?;

    cache.invalidate(file_path);

    let out_results: Vec<ModificationResultOut> = results
        .into_iter()
        .map(|r| ModificationResultOut {
            selector: r.selector,
            action: r.action,
            matched_count: r.matched_count,
            affected_files: r.affected_files,
        })
        .collect();

    Ok(WriteContentResult {
        output_path: out_path.to_string(),
        total_modifications: modifications.len(),
        results: out_results,
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
