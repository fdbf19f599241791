use std::collections::HashMap;
use std::path::Path;

use crate::cache::EpubCache;
use crate::epub::resource;
use crate::epub::validate::{self, ShadowBuffer};
use crate::EpubError;

#[allow(clippy::too_many_arguments)]
pub fn add_epub_resource(
    cache: &EpubCache,
    file_path: &str,
    resource_path: &str,
    manifest_id: Option<&str>,
    target_dir: Option<&str>,
    properties: &[String],
    add_to_spine: Option<bool>,
    output_path: Option<&str>,
) -> Result<String, EpubError> {
    let source_path = Path::new(file_path);
    if !source_path.exists() {
        return Err(EpubError::FileNotFound(file_path.to_string()));
    }

    let res_path = Path::new(resource_path);
    if !res_path.exists() {
        return Err(EpubError::FileNotFound(resource_path.to_string()));
    }

    let entry = cache.get_or_extract(file_path)?;
    let oebps_dir = entry.opf_path.parent().unwrap();
    let extract_dir = entry.extract_dir.path();

    let mime = resource::detect_mime(resource_path);

    let filename = res_path.file_name().unwrap().to_string_lossy().to_string();
    let id = match manifest_id {
        Some(s) => s.to_string(),
        None => resource::generate_manifest_id(resource_path),
    };
    let target_subdir = target_dir.unwrap_or_else(|| resource::default_target(mime));

    let target_href = if target_subdir == "." {
        filename.clone()
    } else {
        format!("{}/{}", target_subdir, filename)
    };

    if resource::is_path_traversal(&target_href) {
        return Err(EpubError::ParseError(
            "Invalid resource path: path traversal detected".to_string(),
        ));
    }

    let target_full = oebps_dir.join(&target_href);
    if let Some(parent) = target_full.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::copy(resource_path, &target_full)?;

    let mut shadow = ShadowBuffer::new();
    shadow.backup(&entry.opf_path)?;

    resource::add_manifest_item(&entry.opf_path, &id, &target_href, mime, properties)?;

    let mut modified: HashMap<String, String> = HashMap::new();
    modified.insert(
        entry.opf_path.to_string_lossy().to_string(),
        std::fs::read_to_string(&entry.opf_path)?,
    );

    let is_xhtml = resource::is_xhtml(mime);
    let should_add_spine = add_to_spine.unwrap_or(is_xhtml);

    if should_add_spine {
        if !is_xhtml {
            let _ = shadow.restore_all();
            return Err(EpubError::ParseError(
                "Only XHTML content documents can be added to the spine".to_string(),
            ));
        }
        resource::add_spine_ref(&entry.opf_path, &id)?;
        modified.insert(
            entry.opf_path.to_string_lossy().to_string(),
            std::fs::read_to_string(&entry.opf_path)?,
        );
    }

    if let Err(e) = validate::validate_all_modified(&shadow, &modified) {
        let _ = shadow.restore_all();
        std::fs::remove_file(&target_full).ok();
        return Err(e);
    }

    let out_path = Path::new(output_path.unwrap_or(file_path));
    repack_epub(extract_dir, out_path)?;

    cache.invalidate(file_path);

    Ok(out_path.to_string_lossy().to_string())
}

fn repack_epub(extract_dir: &Path, output_path: &Path) -> Result<(), EpubError> {
    let file = std::fs::File::create(output_path)?;
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
    Ok(())
}
