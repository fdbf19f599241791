use std::collections::HashMap;
use std::path::Path;

use crate::cache::EpubCache;
use crate::epub::stylesheet;
use crate::epub::validate::{validate_all_modified, ShadowBuffer};
use crate::EpubError;

#[derive(Debug)]
pub struct UpdateStylesheetResult {
    pub output_path: String,
    pub stylesheet_id: String,
    pub action: String,
    pub rules_matched: usize,
    pub properties_modified: usize,
    pub bytes_appended: usize,
}

#[allow(clippy::too_many_arguments)]
pub fn update_epub_stylesheet(
    cache: &EpubCache,
    file_path: &str,
    stylesheet_id: &str,
    action: &str,
    css_text: Option<&str>,
    selector: Option<&str>,
    properties: Option<&HashMap<String, String>>,
    output_path: Option<&str>,
) -> Result<UpdateStylesheetResult, EpubError> {
    let source_path = Path::new(file_path);
    if !source_path.exists() {
        return Err(EpubError::FileNotFound(file_path.to_string()));
    }

    let entry = cache.get_or_extract(file_path)?;

    let (full_path, _rel_path) =
        stylesheet::resolve_stylesheet_path(&entry.opf_path, stylesheet_id)?;

    let mut shadow = ShadowBuffer::new();
    shadow.backup(&full_path)?;

    match action {
        "append_rules" => {
            let css = css_text.ok_or_else(|| EpubError::ContentValidationError {
                file: "input".to_string(),
                detail: "css_text is required for append_rules action".to_string(),
            })?;

            let original_size = std::fs::read_to_string(&full_path)
                .map(|c| c.len())
                .unwrap_or(0);

            stylesheet::append_rules(&full_path, css)?;

            let new_content = std::fs::read_to_string(&full_path)?;
            let bytes_appended = new_content.len() - original_size;

            let mut modified = HashMap::new();
            modified.insert(full_path.clone(), new_content);

            if let Err(e) = validate_all_modified(&shadow, &modified) {
                let _ = shadow.restore_all();
                return Err(e);
            }

            let out_path = output_path.unwrap_or(file_path);
            repack_epub(entry.extract_dir.path(), out_path)?;
            cache.invalidate(file_path);

            Ok(UpdateStylesheetResult {
                output_path: out_path.to_string(),
                stylesheet_id: stylesheet_id.to_string(),
                action: action.to_string(),
                rules_matched: 0,
                properties_modified: 0,
                bytes_appended,
            })
        }
        "replace_properties" => {
            let sel = selector.ok_or_else(|| EpubError::ContentValidationError {
                file: "input".to_string(),
                detail: "selector is required for replace_properties action".to_string(),
            })?;
            let props = properties.ok_or_else(|| EpubError::ContentValidationError {
                file: "input".to_string(),
                detail: "properties is required for replace_properties action".to_string(),
            })?;

            let (rules_matched, properties_modified) =
                stylesheet::replace_properties(&full_path, sel, props)?;

            let new_content = std::fs::read_to_string(&full_path)?;
            let mut modified = HashMap::new();
            modified.insert(full_path.clone(), new_content);

            if let Err(e) = validate_all_modified(&shadow, &modified) {
                let _ = shadow.restore_all();
                return Err(e);
            }

            let out_path = output_path.unwrap_or(file_path);
            repack_epub(entry.extract_dir.path(), out_path)?;
            cache.invalidate(file_path);

            Ok(UpdateStylesheetResult {
                output_path: out_path.to_string(),
                stylesheet_id: stylesheet_id.to_string(),
                action: action.to_string(),
                rules_matched,
                properties_modified,
                bytes_appended: 0,
            })
        }
        _ => Err(EpubError::ContentValidationError {
            file: "input".to_string(),
            detail: format!(
                "Invalid action '{}'. Use 'append_rules' or 'replace_properties'.",
                action
            ),
        }),
    }
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
