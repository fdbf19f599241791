use std::collections::HashMap;
use std::path::Path;

use crate::cache::EpubCache;
use crate::epub::content;
use crate::epub::patch;
use crate::epub::types::TextPatch;
use crate::epub::validate::{validate_all_modified, ShadowBuffer};
use crate::EpubError;

#[derive(Debug)]
pub struct PatchContentResult {
    pub output_path: String,
    pub total_patches: usize,
    pub results: Vec<PatchResultOut>,
}

#[derive(Debug)]
pub struct PatchResultOut {
    pub search_text: String,
    pub occurrences_found: usize,
    pub occurrences_replaced: usize,
    pub chapter_id: String,
    pub replaced: bool,
}

pub fn patch_epub_content(
    cache: &EpubCache,
    file_path: &str,
    patches: &[TextPatch],
    output_path: Option<&str>,
) -> Result<PatchContentResult, EpubError> {
    if patches.len() > 100 {
        return Err(EpubError::ContentValidationError {
            file: "input".to_string(),
            detail: "Maximum 100 patches per call".to_string(),
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
        patch::apply_text_patches(&entry.opf_path, &spine_map, patches)?;

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

    let out_results: Vec<PatchResultOut> = results
        .into_iter()
        .map(|r| PatchResultOut {
            search_text: r.search_text,
            occurrences_found: r.occurrences_found,
            occurrences_replaced: r.occurrences_replaced,
            chapter_id: r.chapter_id,
            replaced: r.replaced,
        })
        .collect();

    Ok(PatchContentResult {
        output_path: out_path.to_string(),
        total_patches: patches.len(),
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
