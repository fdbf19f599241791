use std::path::Path;

use crate::cache::EpubCache;
use crate::epub::resource;
use crate::EpubError;

use super::add_resource;
use super::delete_resource;

pub fn set_epub_cover(
    cache: &EpubCache,
    file_path: &str,
    image_path: &str,
    remove_existing: bool,
    output_path: Option<&str>,
) -> Result<String, EpubError> {
    let source_path = Path::new(file_path);
    if !source_path.exists() {
        return Err(EpubError::FileNotFound(file_path.to_string()));
    }

    let img_path = Path::new(image_path);
    if !img_path.exists() {
        return Err(EpubError::FileNotFound(image_path.to_string()));
    }

    let mime = resource::detect_mime(image_path);
    if !resource::is_image(mime) {
        return Err(EpubError::ParseError(format!(
            "File '{}' is not an image (detected MIME: {})",
            image_path, mime
        )));
    }

    let out_path = output_path.unwrap_or(file_path);
    let use_intermediate = remove_existing || out_path == file_path;

    let mid_path = if use_intermediate {
        let temp_suffix = ".tmp_cover.epub";
        let base = out_path.strip_suffix(".epub").unwrap_or(out_path);
        format!("{}{}", base, temp_suffix)
    } else {
        out_path.to_string()
    };

    let current_file = if remove_existing {
        let entry = cache.get_or_extract(file_path)?;
        let opf = std::fs::read_to_string(&entry.opf_path)?;

        let existing_cover_id: Option<String> = {
            let mut reader = quick_xml::Reader::from_str(&opf);
            let mut in_manifest = false;
            let mut result = None;
            loop {
                match reader.read_event() {
                    Ok(quick_xml::events::Event::Start(ref e))
                    | Ok(quick_xml::events::Event::Empty(ref e)) => {
                        let tag = String::from_utf8_lossy(e.name().as_ref()).to_string();
                        if tag == "manifest" {
                            in_manifest = true;
                        } else if tag == "item" && in_manifest {
                            let mut id = String::new();
                            let mut props = String::new();
                            for attr in e.attributes().flatten() {
                                let name = String::from_utf8_lossy(attr.key.as_ref()).to_string();
                                let val = String::from_utf8_lossy(attr.value.as_ref()).to_string();
                                if name == "id" {
                                    id = val;
                                } else if name == "properties" {
                                    props = val;
                                }
                            }
                            if props.contains("cover-image") {
                                result = Some(id);
                                break;
                            }
                        }
                    }
                    Ok(quick_xml::events::Event::End(ref e)) => {
                        if String::from_utf8_lossy(e.name().as_ref()) == "manifest" {
                            break;
                        }
                    }
                    Ok(quick_xml::events::Event::Eof) => break,
                    Err(_) => break,
                    _ => {}
                }
            }
            result
        };

        if let Some(ref cover_id) = existing_cover_id {
            delete_resource::delete_epub_resource(cache, file_path, cover_id, Some(&mid_path))?;
            mid_path.clone()
        } else {
            file_path.to_string()
        }
    } else {
        file_path.to_string()
    };

    let result = add_resource::add_epub_resource(
        cache,
        &current_file,
        image_path,
        Some("cover-image"),
        Some("images"),
        &["cover-image".to_string()],
        None,
        Some(out_path),
    )?;

    if current_file != file_path && current_file != out_path {
        std::fs::remove_file(&current_file).ok();
    }

    Ok(result)
}
