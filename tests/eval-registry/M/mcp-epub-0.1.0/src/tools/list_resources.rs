use std::collections::HashMap;
use std::path::Path;

use quick_xml::events::Event;
use quick_xml::Reader;

use crate::cache::EpubCache;
use crate::EpubError;

pub fn list_epub_resources(
    cache: &EpubCache,
    file_path: &str,
) -> Result<Vec<serde_json::Value>, EpubError> {
    let entry = cache.get_or_extract(file_path)?;
    let opf_path = &entry.opf_path;
    let opf_xml = std::fs::read_to_string(opf_path)?;

    let mut reader = Reader::from_str(&opf_xml);
    let mut manifest_items: Vec<HashMap<String, String>> = Vec::new();
    let mut spine_ids: Vec<String> = Vec::new();
    let mut in_manifest = false;
    let mut in_spine = false;

    loop {
        match reader.read_event() {
            Ok(Event::Start(ref e)) | Ok(Event::Empty(ref e)) => {
                let tag = String::from_utf8_lossy(e.name().as_ref()).to_string();
                match tag.as_str() {
                    "manifest" => in_manifest = true,
                    "spine" => in_spine = true,
                    "item" if in_manifest => {
                        let mut item = HashMap::new();
                        for attr in e.attributes().flatten() {
                            let name = String::from_utf8_lossy(attr.key.as_ref()).to_string();
                            let val = String::from_utf8_lossy(attr.value.as_ref()).to_string();
                            item.insert(name, val);
                        }
                        if item.contains_key("id") && item.contains_key("href") {
                            manifest_items.push(item);
                        }
                    }
                    "itemref" if in_spine => {
                        for attr in e.attributes().flatten() {
                            if attr.key.as_ref() == b"idref" {
                                spine_ids
                                    .push(String::from_utf8_lossy(attr.value.as_ref()).to_string());
                            }
                        }
                    }
                    _ => {}
                }
            }
            Ok(Event::End(ref e)) => {
                let tag = String::from_utf8_lossy(e.name().as_ref()).to_string();
                match tag.as_str() {
                    "manifest" => in_manifest = false,
                    "spine" => in_spine = false,
                    _ => {}
                }
            }
            Ok(Event::Eof) => break,
            Err(e) => {
                return Err(EpubError::ParseError(format!(
                    "Failed to parse OPF manifest: {}",
                    e
                )));
            }
            _ => {}
        }
    }

    let opf_dir = opf_path.parent().unwrap_or(Path::new(""));
    let oebps_path = opf_dir.to_string_lossy().to_string();

    let result: Vec<serde_json::Value> = manifest_items
        .into_iter()
        .map(|item| {
            let id = item.get("id").cloned().unwrap_or_default();
            let href = item.get("href").cloned().unwrap_or_default();
            let media_type = item.get("media-type").cloned().unwrap_or_default();
            let properties = item.get("properties").cloned().unwrap_or_default();
            let in_spine = spine_ids.contains(&id);
            let file_path_abs = if href.starts_with('/') {
                href.clone()
            } else {
                let base = oebps_path.trim_end_matches('/');
                format!("{}/{}", base, href)
            };

            serde_json::json!({
                "id": id,
                "href": href,
                "mediaType": media_type,
                "properties": properties,
                "inSpine": in_spine,
                "filePath": file_path_abs
            })
        })
        .collect();

    Ok(result)
}
