use std::collections::HashMap;
use std::path::Path;

use crate::cache::EpubCache;
use crate::epub::metadata;
use crate::epub::types::{FixedLayoutOutput, WriteFixedLayoutInput};
use crate::epub::validate::{validate_all_modified, ShadowBuffer};
use crate::EpubError;

pub fn read_epub_fixed_layout(
    cache: &EpubCache,
    file_path: &str,
) -> Result<FixedLayoutOutput, EpubError> {
    let entry = cache.get_or_extract(file_path)?;
    metadata::parse_fixed_layout(&entry.opf_path)
}

pub fn write_epub_fixed_layout(
    cache: &EpubCache,
    file_path: &str,
    input: &WriteFixedLayoutInput,
    output_path: Option<&str>,
) -> Result<String, EpubError> {
    let source_path = Path::new(file_path);
    if !source_path.exists() {
        return Err(EpubError::FileNotFound(file_path.to_string()));
    }

    let entry = cache.get_or_extract(file_path)?;

    let mut shadow = ShadowBuffer::new();
    shadow.backup(&entry.opf_path)?;

    metadata::write_fixed_layout(&entry.opf_path, input)?;

    let new_content = std::fs::read_to_string(&entry.opf_path)?;
    let mut modified = HashMap::new();
    modified.insert(entry.opf_path.to_string_lossy().to_string(), new_content);

    if let Err(e) = validate_all_modified(&shadow, &modified) {
        let _ = shadow.restore_all();
        return Err(e);
    }

    let out_path = output_path.unwrap_or(file_path);
    repack_epub(entry.extract_dir.path(), out_path)?;

    cache.invalidate(file_path);

    Ok(out_path.to_string())
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
