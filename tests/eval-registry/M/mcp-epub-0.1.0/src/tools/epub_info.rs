use std::path::Path;

use crate::cache::EpubCache;
use crate::epub::content;
use crate::epub::metadata;
use crate::EpubError;

pub fn get_epub_info(cache: &EpubCache, file_path: &str) -> Result<serde_json::Value, EpubError> {
    let source_path = Path::new(file_path);
    if !source_path.exists() {
        return Err(EpubError::FileNotFound(file_path.to_string()));
    }

    let entry = cache.get_or_extract(file_path)?;

    let meta = metadata::parse_metadata(&entry.opf_path)?;

    let spine = content::list_spine(&entry.opf_path)?;
    let chapter_count = spine.len();

    let opf_content = std::fs::read_to_string(&entry.opf_path)?;
    let version =
        if opf_content.contains("version=\"3.0\"") || opf_content.contains("version=\"3\"") {
            "3.0".to_string()
        } else if opf_content.contains("version=\"2.0\"") {
            "2.0".to_string()
        } else {
            "unknown".to_string()
        };

    let has_container = entry
        .extract_dir
        .path()
        .join("META-INF")
        .join("container.xml")
        .exists();

    let file_size = std::fs::metadata(file_path).map(|m| m.len()).unwrap_or(0);

    let mut toc_entry_count = 0u32;
    let toc_path = entry.extract_dir.path().join("OEBPS").join("toc.ncx");
    if toc_path.exists() {
        if let Ok(content) = std::fs::read_to_string(&toc_path) {
            toc_entry_count = content.matches("<navPoint").count() as u32;
        }
    }

    let mut xhtml_count = 0u32;
    let mut css_count = 0u32;
    let mut image_count = 0u32;
    let mut font_count = 0u32;

    let mut reader = quick_xml::Reader::from_str(&opf_content);
    let mut in_manifest = false;
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Start(ref e))
            | Ok(quick_xml::events::Event::Empty(ref e)) => {
                let tag = String::from_utf8_lossy(e.name().as_ref()).to_string();
                match tag.as_str() {
                    "manifest" => in_manifest = true,
                    "item" if in_manifest => {
                        for attr in e.attributes().flatten() {
                            if attr.key.as_ref() == b"media-type" {
                                let mime = String::from_utf8_lossy(attr.value.as_ref()).to_string();
                                if mime == "application/xhtml+xml" {
                                    xhtml_count += 1;
                                } else if mime == "text/css" {
                                    css_count += 1;
                                } else if mime.starts_with("image/") {
                                    image_count += 1;
                                } else if mime.starts_with("font/") {
                                    font_count += 1;
                                }
                            }
                        }
                    }
                    _ => {}
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

    Ok(serde_json::json!({
        "filePath": file_path,
        "fileSizeBytes": file_size,
        "epubVersion": version,
        "hasContainerXml": has_container,
        "title": meta.title,
        "creator": meta.creator,
        "language": meta.language,
        "identifier": meta.identifier,
        "chapterCount": chapter_count,
        "tocEntryCount": toc_entry_count,
        "resourceCounts": {
            "xhtmlDocs": xhtml_count,
            "cssSheets": css_count,
            "images": image_count,
            "fonts": font_count
        }
    }))
}
