use std::collections::HashMap;
use std::path::Path;

use crate::cache::EpubCache;
use crate::epub::validate::{self, ShadowBuffer};
use crate::EpubError;

pub fn delete_epub_resource(
    cache: &EpubCache,
    file_path: &str,
    resource_id: &str,
    output_path: Option<&str>,
) -> Result<String, EpubError> {
    let source_path = Path::new(file_path);
    if !source_path.exists() {
        return Err(EpubError::FileNotFound(file_path.to_string()));
    }

    let entry = cache.get_or_extract(file_path)?;
    let oebps_dir = entry.opf_path.parent().unwrap();
    let extract_dir = entry.extract_dir.path();

    let opf = std::fs::read_to_string(&entry.opf_path)?;

    let search_id = format!(" id=\"{}\"", resource_id);
    if !opf.contains(&search_id) {
        return Err(EpubError::ParseError(format!(
            "Resource with id '{}' not found in manifest",
            resource_id
        )));
    }

    let mut href = String::new();
    let mut in_manifest = false;
    let mut reader = quick_xml::Reader::from_str(&opf);
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Start(ref e))
            | Ok(quick_xml::events::Event::Empty(ref e)) => {
                let tag = String::from_utf8_lossy(e.name().as_ref()).to_string();
                if tag == "manifest" {
                    in_manifest = true;
                } else if tag == "item" && in_manifest {
                    let mut id = String::new();
                    let mut h = String::new();
                    for attr in e.attributes().flatten() {
                        let name = String::from_utf8_lossy(attr.key.as_ref()).to_string();
                        let val = String::from_utf8_lossy(attr.value.as_ref()).to_string();
                        if name == "id" {
                            id = val;
                        } else if name == "href" {
                            h = val;
                        }
                    }
                    if id == resource_id {
                        href = h;
                        break;
                    }
                }
            }
            Ok(quick_xml::events::Event::End(ref e)) => {
                let tag = String::from_utf8_lossy(e.name().as_ref()).to_string();
                if tag == "manifest" {
                    break;
                }
            }
            Ok(quick_xml::events::Event::Eof) => break,
            Err(_) => break,
            _ => {}
        }
    }

    let mut shadow = ShadowBuffer::new();
    shadow.backup(&entry.opf_path)?;

    let item_line = format!(" id=\"{}\"", resource_id);

    let lines: Vec<&str> = opf.lines().collect();
    let mut new_lines: Vec<String> = Vec::new();
    let mut in_spine = false;

    for line in &lines {
        let line_trimmed = line.trim();
        if line_trimmed.starts_with("<spine") {
            in_spine = true;
        } else if line_trimmed.starts_with("</spine>") {
            in_spine = false;
        }

        let skip = if line_trimmed.starts_with("<item") && line.contains(&item_line) {
            true
        } else {
            in_spine
                && line_trimmed.starts_with("<itemref")
                && line.contains(&format!("idref=\"{}\"", resource_id))
        };

        if !skip {
            new_lines.push(line.to_string());
        }
    }

    let new_opf = new_lines.join("\n");
    std::fs::write(&entry.opf_path, &new_opf)?;

    if !href.is_empty() {
        let file_path_in_epub = oebps_dir.join(&href);
        std::fs::remove_file(&file_path_in_epub).ok();
    }

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
